"""Dice notation: `NdX`, `khN` / `klN` (keep highest / lowest N), and `+` / `-` constants and terms.

Parsed to a small tree (a list of signed terms), then used three ways: the exact distribution of the total
(integer weights), vectorised sampling from a seeded generator, and reading faces a user forces.
Limits: more than 1,000 dice in one expression, or a die of more than 1,000 faces, is refused
before any work is done.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np
import numpy.typing as npt

from tohit.core.errors import DiceError, FacesError, short_repr

MAX_DICE = 1000
MAX_FACES = 1000
#: The exact distribution of an expression is refused past this many (state x face) steps.
MAX_EXACT_WORK = 20_000_000

_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>\d*)d(?P<sides>\d+)(?:(?P<keep>k[hl])(?P<kept>\d+))?)|(?P<const>\d+))\s*"
)


@dataclass(frozen=True)
class DiceTerm:
    """`count`d`sides`, keeping the `keep` highest (or lowest) dice; `sign` is +1 or -1."""

    count: int
    sides: int
    keep: int
    highest: bool = True
    sign: int = 1

    @property
    def notation(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep != self.count:
            text += f"{'kh' if self.highest else 'kl'}{self.keep}"
        return text


@dataclass(frozen=True)
class DiceExpr:
    """A parsed dice expression: dice terms plus a constant."""

    terms: tuple[DiceTerm, ...]
    constant: int
    text: str

    @property
    def dice_count(self) -> int:
        """How many faces a user gives to force this expression (every die rolled, kept or not)."""
        return sum(t.count for t in self.terms)

    @property
    def minimum(self) -> int:
        return self.constant + sum(t.keep * (1 if t.sign > 0 else -t.sides) for t in self.terms)

    @property
    def maximum(self) -> int:
        return self.constant + sum(t.keep * (t.sides if t.sign > 0 else -1) for t in self.terms)

    def __str__(self) -> str:
        return self.text

    # -- exact distribution ---------------------------------------------------------------------------
    def distribution(self) -> tuple[int, list[int]]:
        """(lowest total, weights of lowest..highest): exact integer counts over all face sequences."""
        low, weights = self.constant, [1]
        for term in self.terms:
            t_low, t_weights = _term_distribution(term)
            if term.sign < 0:
                t_low, t_weights = -(t_low + len(t_weights) - 1), t_weights[::-1]
            low += t_low
            weights = _convolve(weights, t_weights)
        return low, weights

    # -- sampling -------------------------------------------------------------------------------------
    def sample(self, rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
        """n totals, vectorised."""
        total = np.full(n, self.constant, dtype=np.int64)
        for term in self.terms:
            faces = rng.integers(1, term.sides + 1, size=(n, term.count), dtype=np.int64)
            total += term.sign * _kept_sum(faces, term)
        return total

    def draw(self, rng: np.random.Generator) -> list[int]:
        """One set of faces, every die in the order of the expression."""
        return [int(f) for f in rng.integers(1, self.sides_array() + 1)]

    def totals(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Totals of an (n, dice_count) array of faces, one row per roll."""
        total = np.full(len(faces), self.constant, dtype=np.int64)
        i = 0
        for term in self.terms:
            total += term.sign * _kept_sum(faces[:, i : i + term.count], term)
            i += term.count
        return total

    def sides_array(self) -> npt.NDArray[np.int64]:
        return np.asarray([t.sides for t in self.terms for _ in range(t.count)], dtype=np.int64)

    def read(self, faces: Sequence[int]) -> int:
        """The total for forced faces (one per die, in the order of the expression)."""
        if len(faces) != self.dice_count:
            raise FacesError(f"{self.text} needs {self.dice_count} faces, got {len(faces)}")
        total, i = self.constant, 0
        for term in self.terms:
            chunk = list(faces[i : i + term.count])
            i += term.count
            for face in chunk:
                if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= term.sides:
                    raise FacesError(f"face {short_repr(face)} is not on a d{term.sides}")
            total += term.sign * int(_kept_sum(np.asarray([chunk], dtype=np.int64), term)[0])
        return total


def _kept_sum(faces: npt.NDArray[np.int64], term: DiceTerm) -> npt.NDArray[np.int64]:
    if term.keep == term.count:
        return faces.sum(axis=1, dtype=np.int64)
    ordered = np.sort(faces, axis=1)
    kept = ordered[:, -term.keep :] if term.highest else ordered[:, : term.keep]
    return kept.sum(axis=1, dtype=np.int64)


def _convolve(a: list[int], b: list[int]) -> list[int]:
    if sum(a) * sum(b) < 2**62:
        return [int(x) for x in np.convolve(np.asarray(a, np.int64), np.asarray(b, np.int64))]
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _term_distribution(term: DiceTerm) -> tuple[int, list[int]]:
    """Exact distribution of one term's kept sum, as (lowest, counts)."""
    if term.keep == term.count:
        weights = [1]
        die = [1] * term.sides
        for _ in range(term.count):
            weights = _convolve(weights, die)
        return term.count, weights
    work = term.sides * term.count * term.keep * term.keep * term.sides
    if work > MAX_EXACT_WORK:
        raise DiceError(f"{term.notation} is too large for exact odds; simulate it instead")
    # Faces from best to worst: choose how many dice show each face; the first `keep` seen are kept.
    states: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}  # (assigned, kept, kept sum) -> ways
    order = range(term.sides, 0, -1) if term.highest else range(1, term.sides + 1)
    for face in order:
        nxt: dict[tuple[int, int, int], int] = {}
        for (assigned, kept, total), ways in states.items():
            left = term.count - assigned
            for c in range(left + 1):
                take = min(c, term.keep - kept)
                key = (assigned + c, kept + take, total + take * face)
                nxt[key] = nxt.get(key, 0) + ways * comb(left, c)
        states = nxt
    sums = {s: w for (a, k, s), w in states.items() if a == term.count}
    low, high = min(sums), max(sums)
    return low, [sums.get(s, 0) for s in range(low, high + 1)]


def parse(text: str) -> DiceExpr:
    """Parse dice notation, e.g. `2d6+3`, `4d6kh3`, `1d8 + 1d6 - 1`, `d20`."""
    if not isinstance(text, str) or not text.strip():
        raise DiceError("a dice expression must be a non-empty string like '2d6+3'")
    source = text.strip().lower()
    pos, sign, expect_term = 0, 1, True
    terms: list[DiceTerm] = []
    constant = 0
    while pos < len(source):
        if expect_term:
            m = _TOKEN.match(source, pos)
            if not m or m.end() == pos:
                raise DiceError(f"cannot read {short_repr(text)} at position {pos + 1}")
            if m.group("const") is not None:
                if len(m.group("const")) > 9:
                    raise DiceError(f"{short_repr(m.group('const'))}: a constant of more than 9 digits is refused")
                constant += sign * int(m.group("const"))
            else:
                if len(m.group("count")) > 6 or len(m.group("sides")) > 6:
                    raise DiceError(
                        f"{short_repr(m.group('dice'))}: over the limits ({MAX_DICE} dice, {MAX_FACES} faces)"
                    )
                count = int(m.group("count") or 1)
                sides = int(m.group("sides"))
                keep = int(m.group("kept")) if m.group("keep") else count
                if count < 1:
                    raise DiceError(f"{short_repr(m.group('dice'))}: roll at least one die")
                if sides < 1:
                    raise DiceError(f"{short_repr(m.group('dice'))}: a die needs at least one face")
                if sides > MAX_FACES:
                    raise DiceError(f"{short_repr(m.group('dice'))}: a die of more than {MAX_FACES} faces is refused")
                if not 1 <= keep <= count:
                    raise DiceError(f"{short_repr(m.group('dice'))}: can keep 1 to {count} dice")
                terms.append(DiceTerm(count, sides, keep, m.group("keep") != "kl", sign))
                if sum(t.count for t in terms) > MAX_DICE:
                    raise DiceError(f"{short_repr(text)}: more than {MAX_DICE} dice in one expression is refused")
            pos, expect_term = m.end(), False
        else:
            op = source[pos]
            if op not in "+-":
                raise DiceError(f"cannot read {short_repr(text)} at position {pos + 1}: expected + or -")
            sign, pos, expect_term = (1 if op == "+" else -1), pos + 1, True
    if expect_term:
        raise DiceError(f"{short_repr(text)} ends with an operator")
    return DiceExpr(tuple(terms), constant, text.strip())
