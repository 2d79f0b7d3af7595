"""Dice roles: the named dice a system may need, each usable three ways (docs/architecture.md, "The one idea").

A role is a random variable with a small table of outcomes. Every role can
- enumerate its exact `support(depth)` (value columns with integer weights; an infinite role is cut at
  `depth` and the weight beyond is kept as the support's remainder, and `sample_beyond` draws from it),
- `sample(rng, n)` n outcomes, vectorised,
- `draw(rng)` one set of faces as a player would read them off the table, and `read(faces)` forced faces
  back into the same columns (with `describe(faces)` for the trace).
`scope` says whether a role is rolled once per target ("target") or once for the whole attack ("attack").
`label` names the role in its rulebook's words (what a person reads: the dice form, an error about its faces);
the name stays the key of `dice` in an attack. Every bundled game declares its roles' labels; a third party's
role without one is named by its key in words (`key_words`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import Literal

import numpy as np
import numpy.typing as npt

from tohit.core.dice import DiceExpr, parse
from tohit.core.errors import FacesError, InputError, short_repr
from tohit.core.support import Columns, Support, weight_array

Scope = Literal["target", "attack"]
#: Largest number of face combinations a `FacesRole` enumerates for its support.
MAX_ENUMERATION = 2_000_000


def check_faces(faces: Sequence[object], sides: Sequence[int], what: str) -> list[int]:
    """Validate forced faces: right count, whole numbers, each on its die. Returns them as ints."""
    if not isinstance(faces, Sequence) or isinstance(faces, str):
        raise FacesError(f"{what} takes a list of faces")
    if len(faces) != len(sides):
        raise FacesError(f"{what} needs {len(sides)} faces, got {len(faces)}")
    out: list[int] = []
    for face, side in zip(faces, sides, strict=True):
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= side:
            raise FacesError(f"{what}: face {short_repr(face)} is not on a d{side}")
        out.append(face)
    return out


def draw_dice(rng: np.random.Generator, sides: Sequence[int]) -> list[int]:
    """One face per die, drawn die by die: the very faces `rng.integers(1, sides + 1)` gives for the array of
    sides (and `roll_many(rng, 1)`), from the same generator state, in a fifth of the time (scalar bounds
    skip numpy's checks of array bounds; a traced roll draws on every call)."""
    integers = rng.integers
    return [int(integers(1, side + 1)) for side in sides]


def key_words(name: str) -> str:
    """A role's key in words, the label of a role whose game declares none: "damage_again" -> "damage again"."""
    return name.replace("_", " ")


def listed(roles: Mapping[str, Role]) -> str:
    """Roles by key with their labels, for an error naming what a request may type: "to_hit (Roll To-Hit)"."""
    return ", ".join(name if role.label == name else f"{name} ({role.label})" for name, role in roles.items())


def one_row(values: dict[str, int]) -> Columns:
    """Columns of length one, from scalars."""
    return {k: np.asarray([v], dtype=np.int64) for k, v in values.items()}


class Role(ABC):
    """A named dice role; see the module docstring for the three-way contract."""

    name: str
    scope: Scope
    columns: tuple[str, ...]
    #: The dice in words, for docs and `tohit systems`: e.g. "2d6", "d20", "2d6 open, fumble".
    notation: str

    @property
    def label(self) -> str:
        """The role in its rulebook's words (what a person reads), beside its key `name`: as the role was built
        with it (a game's labels) or a subclass declares it, else the key in words ("damage_again" -> "damage
        again")."""
        given = self.__dict__.get("_label")
        return given if isinstance(given, str) and given else key_words(self.name)

    @label.setter
    def label(self, value: str) -> None:
        self._label = value

    @abstractmethod
    def support(self, depth: int) -> Support:
        """Exact outcome table; infinite roles cut at `depth` with the rest as the remainder."""

    @abstractmethod
    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        """n independent outcomes."""

    def sample_beyond(self, rng: np.random.Generator, n: int, depth: int) -> Columns:
        """n outcomes drawn from the part of the distribution beyond `depth` (roles with a remainder)."""
        raise NotImplementedError(f"role {short_repr(self.name)} has a finite support")

    @abstractmethod
    def draw(self, rng: np.random.Generator) -> list[int]:
        """One set of faces, as a player reads them off the table."""

    @abstractmethod
    def read(self, faces: Sequence[object]) -> Columns:
        """The outcome (columns of length 1) of forced faces; raises FacesError when they do not fit."""

    def die_sides(self) -> list[int] | None:
        """The sides of each die when the role reads exactly one face per die (a form's typed faces are checked
        against them); None when the number of faces varies (open rolls)."""
        return None

    def dice_count(self) -> int:
        """How many dice the role rolls at first (open rolls may add more, bounded by the depth): what a cap on
        the dice of one request counts. By default one per die of `die_sides`, none where it is not known."""
        sides = self.die_sides()
        return 0 if sides is None else len(sides)

    def describe(self, faces: Sequence[int]) -> str:
        """The faces in words for the trace, e.g. "2d6 (6, 6)"."""
        return f"{self.notation} ({', '.join(map(str, faces))})"

    def roll_many(self, rng: np.random.Generator, n: int) -> tuple[list[list[int]], Columns]:
        """n rolls at the table: each one's faces, and their columns (arrays of n).

        The default draws and reads one roll at a time; roles override it with a vectorised version.
        """
        faces = [self.draw(rng) for _ in range(n)]
        read = [self.read(f) for f in faces]
        return faces, {c: np.concatenate([r[c] for r in read]) for c in self.columns}


class FacesRole(Role):
    """A fixed set of dice mapped to columns by a vectorised function of the faces.

    `fn` receives an (n, k) int64 array, one column per die, and returns the role's columns. This covers
    sums, keep-highest advantage dice, a natural-20 flag and any other finite derived role.
    """

    def __init__(
        self,
        name: str,
        sides: Sequence[int],
        fn: Callable[[npt.NDArray[np.int64]], Columns],
        *,
        notation: str,
        columns: tuple[str, ...],
        scope: Scope = "target",
        label: str | None = None,
    ) -> None:
        self.name, self.sides, self.fn, self.notation = name, tuple(sides), fn, notation
        self.label = label or key_words(name)
        self.columns, self.scope = columns, scope
        combos = int(np.prod(self.sides, dtype=object))
        if combos > MAX_ENUMERATION:
            raise InputError(
                f"role {short_repr(name)} ({notation}) has {combos} face combinations; at most {MAX_ENUMERATION}"
            )
        self._support: Support | None = None

    def support(self, depth: int) -> Support:
        if self._support is None:
            faces = np.asarray(list(product(*(range(1, s + 1) for s in self.sides))), dtype=np.int64)
            faces = faces.reshape(-1, len(self.sides))
            cols = self.fn(faces)
            stacked = np.stack([cols[c] for c in self.columns], axis=1)
            rows, counts = np.unique(stacked, axis=0, return_counts=True)
            columns = {c: rows[:, i].astype(np.int64) for i, c in enumerate(self.columns)}
            weights = weight_array([int(x) for x in counts])
            self._support = Support(columns, weights, len(faces))
        return self._support

    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        faces = rng.integers(1, np.asarray(self.sides) + 1, size=(n, len(self.sides)), dtype=np.int64)
        return self.fn(faces)

    def draw(self, rng: np.random.Generator) -> list[int]:
        return draw_dice(rng, self.sides)

    def die_sides(self) -> list[int] | None:
        return list(self.sides)

    def read(self, faces: Sequence[object]) -> Columns:
        checked = check_faces(faces, self.sides, f"{self.label} ({self.notation})")
        return self.fn(np.asarray([checked], dtype=np.int64))

    def roll_many(self, rng: np.random.Generator, n: int) -> tuple[list[list[int]], Columns]:
        faces = rng.integers(1, np.asarray(self.sides) + 1, size=(n, len(self.sides)), dtype=np.int64)
        return faces.tolist(), self.fn(faces)


def sum_faces(faces: npt.NDArray[np.int64]) -> Columns:
    """`fn` for a FacesRole that is the plain sum of its dice (column "total")."""
    return {"total": faces.sum(axis=1)}


class DiceRole(Role):
    """A role given in dice notation (`2d6+3`, `4d6kh3`); its one column is "total"."""

    columns = ("total",)

    def __init__(self, name: str, expr: str | DiceExpr, *, scope: Scope = "target", label: str | None = None) -> None:
        self.name, self.scope, self.label = name, scope, label or key_words(name)
        self.expr = parse(expr) if isinstance(expr, str) else expr
        self.notation = self.expr.text
        self._support: Support | None = None
        self._sides = tuple(int(s) for s in self.expr.sides_array())

    def support(self, depth: int) -> Support:
        if self._support is None:
            low, weights = self.expr.distribution()
            keep = [i for i, w in enumerate(weights) if w]
            totals = np.asarray([low + i for i in keep], dtype=np.int64)
            self._support = Support({"total": totals}, weight_array([weights[i] for i in keep]), int(sum(weights)))
        return self._support

    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        return {"total": self.expr.sample(rng, n)}

    def draw(self, rng: np.random.Generator) -> list[int]:
        return draw_dice(rng, self._sides)

    def die_sides(self) -> list[int] | None:
        return [int(s) for s in self.expr.sides_array().tolist()]

    def read(self, faces: Sequence[object]) -> Columns:
        if not isinstance(faces, Sequence) or isinstance(faces, str):
            raise FacesError(f"{self.label} ({self.notation}) takes a list of faces")
        try:
            total = self.expr.read(faces)  # type: ignore[arg-type]
        except FacesError as exc:
            raise FacesError(f"{self.label}: {exc.message}") from None
        return one_row({"total": total})

    def roll_many(self, rng: np.random.Generator, n: int) -> tuple[list[list[int]], Columns]:
        faces = rng.integers(1, self.expr.sides_array() + 1, size=(n, self.expr.dice_count), dtype=np.int64)
        return faces.tolist(), {"total": self.expr.totals(faces)}


class PickRole(Role):
    """A weighted choice among `len(weights)` options, read off one die of `sum(weights)` faces.

    Face f picks the first option whose cumulative weight reaches f (e.g. a d3 or d10 for who in a melee is hit).
    Its one column is "index" (0-based).
    """

    columns = ("index",)

    def __init__(self, name: str, weights: Sequence[int], *, scope: Scope = "target", label: str | None = None) -> None:
        if not weights or any(w < 1 for w in weights):
            raise InputError(f"role {short_repr(name)}: every option needs a positive weight")
        self.name, self.scope, self.weights = name, scope, tuple(int(w) for w in weights)
        self.label = label or key_words(name)
        self.cumulative = np.cumsum(np.asarray(self.weights, dtype=np.int64))
        self.die = int(self.cumulative[-1])
        self.notation = f"d{self.die}"

    def support(self, depth: int) -> Support:
        idx = np.arange(len(self.weights), dtype=np.int64)
        return Support({"index": idx}, weight_array(list(self.weights)), self.die)

    def _index(self, faces: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        return np.searchsorted(self.cumulative, faces, side="left").astype(np.int64)

    def sample(self, rng: np.random.Generator, n: int) -> Columns:
        return {"index": self._index(rng.integers(1, self.die + 1, size=n, dtype=np.int64))}

    def draw(self, rng: np.random.Generator) -> list[int]:
        return [int(rng.integers(1, self.die + 1))]

    def die_sides(self) -> list[int] | None:
        return [self.die]

    def read(self, faces: Sequence[object]) -> Columns:
        (face,) = check_faces(faces, (self.die,), f"{self.label} ({self.notation})")
        return {"index": self._index(np.asarray([face], dtype=np.int64))}

    def roll_many(self, rng: np.random.Generator, n: int) -> tuple[list[list[int]], Columns]:
        faces = rng.integers(1, self.die + 1, size=(n, 1), dtype=np.int64)
        return faces.tolist(), {"index": self._index(faces[:, 0])}
