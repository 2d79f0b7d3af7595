"""The Kaiser 2d6 roll as a dice role: advantage, open rolls and fumbles (docs/kaiser.md#silent-open-rolls).

Faces as a player writes them: the 2 + |n| dice of the roll (n = advantage), then, when the kept two are
a double 6, the open dice (each 6 asks for another), or, when they are a double 1, the two severity dice.
Columns: `dice` (what the dice count: kept two plus open dice, or 0 / -5 / -10 on a fumble), `open` and
`fumble` (0 / 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from tohit.core.errors import FacesError
from tohit.core.roles import Role, Scope, check_faces, draw_dice, key_words
from tohit.core.support import Columns, Support
from tohit.systems.kaiser.tables import fumble_dice_count

#: Severity 2d6 -> how many of the 36 outcomes give each fumble dice count.
_SEVERITY_COUNTS: dict[int, int] = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        _c = fumble_dice_count(_a + _b)
        _SEVERITY_COUNTS[_c] = _SEVERITY_COUNTS.get(_c, 0) + 1


def kept_pairs(advantage: int) -> dict[tuple[int, int], int]:
    """Ways to get each kept pair (high, low) from 2 + |advantage| d6, keeping the best (or worst) two."""
    best = advantage >= 0
    states: dict[tuple[int, ...], int] = {(): 1}
    for _ in range(2 + abs(advantage)):
        nxt: dict[tuple[int, ...], int] = {}
        for kept, ways in states.items():
            for face in range(1, 7):
                merged = sorted((*kept, face), reverse=best)[:2]
                key = tuple(merged)
                nxt[key] = nxt.get(key, 0) + ways
        states = nxt
    return {(max(k), min(k)): w for k, w in states.items()}


@cache
def roll_support(advantage: int, special: bool, depth: int) -> Support:
    """Exact support of a Kaiser roll, open dice followed to `depth` (the chance of more is the remainder).

    Cached: it depends on these three numbers only.
    """
    columns = ("dice", "open", "fumble")
    pairs = kept_pairs(advantage)
    rows: dict[tuple[int, ...], int] = {}
    if not special:
        for (hi, lo), w in pairs.items():
            rows[(hi + lo, 0, 0)] = rows.get((hi + lo, 0, 0), 0) + w
        return Support.from_rows(rows, columns).reduced()
    scale = 36 * 6**depth  # common denominator over the severity dice and `depth` open dice
    remainder = 0
    for (hi, lo), w in pairs.items():
        if (hi, lo) == (6, 6):
            for sixes in range(depth):  # `sixes` sixes, then a non-6 `last`: sixes + 1 open dice
                for last in range(1, 6):
                    key = (12 + 6 * sixes + last, 1, 0)
                    rows[key] = rows.get(key, 0) + w * 36 * 6 ** (depth - sixes - 1)
            remainder += w * 36
        elif (hi, lo) == (1, 1):
            for count, ways in _SEVERITY_COUNTS.items():
                key = (count, 0, 1)
                rows[key] = rows.get(key, 0) + w * ways * 6**depth
        else:
            key = (hi + lo, 0, 0)
            rows[key] = rows.get(key, 0) + w * scale
    return Support.from_rows(rows, columns, remainder=remainder, depth=depth).reduced()


#: The dice roles in the page's words: steps 1 and 2 of Attacking and Defending, "Calculate the Final Offensive
#: Roll" / "Final Defensive Roll" (2d6 + skill), and the other pages' Critical: "Critical level = 2d6 + ...".
ROLE_LABELS = {"offense": "Offensive Roll", "defense": "Defensive Roll", "critical": "Critical level"}


class KaiserRoll(Role):
    """2d6 with advantage An / disadvantage Dn, open rolls and fumbles (the game's other pages)."""

    columns = ("dice", "open", "fumble")

    def __init__(self, name: str, advantage: int, open_and_fumble: bool, *, scope: Scope = "target") -> None:
        self.name, self.advantage, self.special, self.scope = name, advantage, open_and_fumble, scope
        self.label = ROLE_LABELS.get(name, key_words(name))
        self.count = 2 + abs(advantage)
        tag = "" if advantage == 0 else (f" A{advantage}" if advantage > 0 else f" D{-advantage}")
        self.notation = f"2d6{tag}" + (" (open, fumble)" if open_and_fumble else "")

    def dice_count(self) -> int:
        """2d6 and one more die per point of advantage or disadvantage (open rolls add more, to the depth)."""
        return self.count

    # -- exact ---------------------------------------------------------------------------------------
    def support(self, depth: int) -> Support:
        """Open dice followed to `depth`; the chance of `depth` more sixes is the remainder."""
        return roll_support(self.advantage, self.special, depth)

    # -- sampling ------------------------------------------------------------------------------------
    def _kept(self, faces: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        ordered = np.sort(faces, axis=1)
        kept = ordered[:, -2:] if self.advantage >= 0 else ordered[:, :2]
        return kept[:, 1], kept[:, 0]

    @staticmethod
    def _explode(rng: np.random.Generator, value: npt.NDArray[np.int64]) -> None:
        """Add open dice in place: one d6 each, again on each 6 (vectorised over the rows still open)."""
        live = np.arange(len(value))
        while live.size:
            die = rng.integers(1, 7, size=live.size)
            value[live] += die
            live = live[die == 6]

    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        hi, lo = self._kept(rng.integers(1, 7, size=(n, self.count), dtype=np.int64))
        dice = hi + lo
        zeros = np.zeros(n, dtype=np.int64)
        if not self.special:
            return {"dice": dice, "open": zeros, "fumble": zeros.copy()}
        is_open = (hi == 6) & (lo == 6)
        is_fumble = (hi == 1) & (lo == 1)
        open_rows = np.flatnonzero(is_open)
        extra = dice[open_rows]
        self._explode(rng, extra)
        dice[open_rows] = extra
        fumble_rows = np.flatnonzero(is_fumble)
        severity = rng.integers(1, 7, size=(fumble_rows.size, 2)).sum(axis=1)
        dice[fumble_rows] = np.select([severity <= 5, severity <= 11], [0, -5], -10)
        return {"dice": dice, "open": is_open.astype(np.int64), "fumble": is_fumble.astype(np.int64)}

    def sample_beyond(self, rng: np.random.Generator, n: int, depth: int) -> Columns:
        """Open rolls whose first `depth` open dice were all 6."""
        value = np.full(n, 12 + 6 * depth, dtype=np.int64)
        self._explode(rng, value)
        return _open(value)

    @staticmethod
    def sample_beyond_each(rng: np.random.Generator, counts: Sequence[int], depth: int) -> list[Columns]:
        """`sample_beyond(rng, n, depth)` for each n of `counts` in turn (any Kaiser roll's: the open dice past
        the depth do not depend on its advantage): the very same dice, and `rng` left where those calls leave it,
        from two draws of the generator instead of one a round of open dice (`open_dice_in_turn`)."""
        return [_open(value) for value in open_dice_in_turn(rng, counts, 12 + 6 * depth)]

    # -- faces ---------------------------------------------------------------------------------------
    def draw(self, rng: np.random.Generator) -> list[int]:
        """As `roll_many(rng, 1)` draws: the roll's dice, then the open dice or the two severity dice (die by
        die, the same faces as one array of them, without numpy's overhead on one-element arrays)."""
        faces = draw_dice(rng, (6,) * self.count)
        ordered = sorted(faces)
        lo, hi = ordered[-2:] if self.advantage >= 0 else ordered[:2]
        if self.special and hi == lo == 6:
            while True:
                faces.append(int(rng.integers(1, 7)))
                if faces[-1] != 6:
                    break
        elif self.special and hi == lo == 1:
            faces += draw_dice(rng, (6, 6))
        return faces

    def read(self, faces: Sequence[object]) -> Columns:
        what = f"{self.label} ({self.notation})"
        if not isinstance(faces, Sequence) or isinstance(faces, str) or len(faces) < self.count:
            raise FacesError(f"{what} needs at least {self.count} faces")
        checked = check_faces(faces, [6] * len(faces), what)
        hi, lo = (int(x[0]) for x in self._kept(np.asarray([checked[: self.count]], dtype=np.int64)))
        rest = checked[self.count :]
        is_open = self.special and hi == lo == 6
        is_fumble = self.special and hi == lo == 1
        if is_open:
            if not rest or rest[-1] == 6 or any(f != 6 for f in rest[:-1]):
                raise FacesError(f"{what}: a double 6 is an open roll: give open dice until one is not a 6")
            dice = 12 + sum(rest)
        elif is_fumble:
            if len(rest) != 2:
                raise FacesError(f"{what}: a double 1 is a fumble: give the two severity dice after the roll")
            dice = fumble_dice_count(sum(rest))
        else:
            if rest:
                raise FacesError(f"{what} needs {self.count} faces, got {len(checked)}")
            dice = hi + lo
        return {
            "dice": np.asarray([dice], np.int64),
            "open": np.asarray([int(is_open)], np.int64),
            "fumble": np.asarray([int(is_fumble)], np.int64),
        }

    def describe(self, faces: Sequence[int]) -> str:
        base = list(faces[: self.count])
        rest = faces[self.count :]
        kept = sorted(base, reverse=self.advantage >= 0)[:2]
        text = f"{self.notation.split(' (')[0]} ({', '.join(str(f) for f in base)})"
        if self.special and kept == [6, 6]:
            text += " open " + " ".join(f"+{f}" for f in rest)
        elif self.special and kept == [1, 1]:
            text += f" fumble, severity ({rest[0]}, {rest[1]}) = {sum(rest)}: dice count {fumble_dice_count(sum(rest))}"
        return text

    def roll_many(self, rng: np.random.Generator, n: int) -> tuple[list[list[int]], Columns]:
        base = rng.integers(1, 7, size=(n, self.count), dtype=np.int64)
        hi, lo = self._kept(base)
        faces = base.tolist()
        dice = hi + lo
        is_open = self.special & (hi == 6) & (lo == 6)
        is_fumble = self.special & (hi == 1) & (lo == 1)
        for row in np.flatnonzero(is_open).tolist():
            while True:
                die = int(rng.integers(1, 7))
                faces[row].append(die)
                dice[row] += die
                if die != 6:
                    break
        for row in np.flatnonzero(is_fumble).tolist():
            a, b = (int(x) for x in rng.integers(1, 7, size=2))
            faces[row] += [a, b]
            dice[row] = fumble_dice_count(a + b)
        return faces, {"dice": dice, "open": is_open.astype(np.int64), "fumble": is_fumble.astype(np.int64)}


def _open(value: npt.NDArray[np.int64]) -> Columns:
    """The columns of open rolls of these dice counts."""
    n = value.size
    return {"dice": value, "open": np.ones(n, np.int64), "fumble": np.zeros(n, np.int64)}


def open_dice_in_turn(
    rng: np.random.Generator, counts: Sequence[int], start: int, spare: int = 16
) -> list[npt.NDArray[np.int64]]:
    """For each n of `counts` in turn, n open rolls at `start`, each adding a d6 again on each 6 (`_explode`): the
    same dice as `_explode` on each in turn. A PCG64 generator keeps the spare half of its 64-bit word in its state,
    so that draws of a and b d6 give the dice one draw of a + b does: the dice are read from one draw ahead (more
    drawn if it runs out), then the generator is put back and advanced by one draw of the dice used. Another
    generator: `_explode` in turn. `spare`: dice drawn ahead beyond a quarter more than the rolls."""
    bits = rng.bit_generator
    out = [np.full(n, start, dtype=np.int64) for n in counts]
    if type(bits) is not np.random.PCG64:
        for value in out:
            KaiserRoll._explode(rng, value)
        return out
    saved = bits.state
    ahead = sum(counts) + sum(counts) // 4 + spare  # an open die is a 6 one time in 6: about n / 5 more
    dice = rng.integers(1, 7, size=ahead)
    used = 0
    for value in out:
        live = np.arange(value.size)
        while live.size:
            if used + live.size > dice.size:
                dice = np.concatenate([dice, rng.integers(1, 7, size=ahead)])
            die = dice[used : used + live.size]
            used += live.size
            value[live] += die
            live = live[die == 6]
    bits.state = saved
    rng.integers(1, 7, size=used)
    return out


@cache
def kaiser_roll(name: str, advantage: int, open_and_fumble: bool) -> KaiserRoll:
    """The role `KaiserRoll(name, advantage, open_and_fumble)`, one object for every attack that rolls it (a fight
    builds a joint table for each situation, each asking for its roles)."""
    return KaiserRoll(name, advantage, open_and_fumble)
