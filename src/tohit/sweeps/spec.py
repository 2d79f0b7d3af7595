"""What a sweep varies: `--vary PATH=SPEC`, parsed into a path through the file and a list of values.

    PATH   a field of the scenario or fight file as the file spells it: `attacker.accuracy`,
           `targets[0].evasion`, `sides[1].combatants[0].target.lp`; a list item by its name as well as by its
           index (`sides[Bandits].combatants[Bandit chief].target.lp`); or `count:<combatant>`, the number of
           copies of that combatant, by its path or its name alone (`count:Goblin`: encounter balance).
    SPEC   `A..B` (every whole number from A to B), `A..B:STEP` (STEP may be a decimal), or `v1,v2,...`
           (numbers, true/false, or words such as an element's name).

Every problem is an `InputError` on the field `--vary`, naming the text as written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from tohit.core.errors import InputError, short_repr

#: A value as a sweep sets it in the file.
Value = int | float | bool | str


@dataclass(frozen=True)
class Name:
    """A list item chosen by its `name` (`sides[Bandits]`), resolved to its index against the file."""

    text: str

    def __str__(self) -> str:
        return self.text


#: One step of a path: a mapping key, a list index, or a list item's name (until resolved against the file).
Step = str | int | Name

#: Most values one --vary may list or span (the grid's cap on points is checked on top of this).
MAX_VALUES = 1_000_000
COUNT_PREFIX = "count:"
#: The most copies of a combatant a count may ask for.
MAX_COPIES = 64

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_INDEX = re.compile(r"\[([^\[\]]{1,200})\]")
_INT = re.compile(r"[+-]?\d{1,18}")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
#: `10-16` (or `0-12:2`): a range written with a dash, refused with the `A..B` it means.
_DASHED = re.compile(r"\s*([+-]?\d+(?:\.\d+)?)\s*-\s*([+-]?\d+(?:\.\d+)?)\s*(:\s*\S+)?\s*")
#: Every form of SPEC, as the `--help` of each command taking `--vary` says it.
FORMS = "A..B (every whole number from A to B), A..B:STEP (STEP may be a decimal) or v1,v2,... (a list)"


@dataclass(frozen=True)
class Vary:
    """One varied field: its path as written (the name of its column), the steps of the path, and the values."""

    text: str
    steps: tuple[Step, ...]
    values: tuple[Value, ...]
    count: bool = False
    #: A build axis (`--zip`): the fields set together, value k of each at the axis's value k (`values` are then
    #: their labels, `1d10, 0`); empty for one field.
    zipped: tuple[Vary, ...] = ()

    @property
    def where(self) -> str:
        """The path without a `count:` prefix, as the loader names fields (`sides[1].combatants[0]`)."""
        return path_text(self.steps)

    @property
    def fields(self) -> tuple[Vary, ...]:
        """The fields this axis sets: its zipped ones, or itself."""
        return self.zipped or (self,)

    def settings(self, k: int) -> list[tuple[Vary, Value]]:
        """Each field this axis sets at its value k, with the value set there."""
        return [(part, part.values[k]) for part in self.fields]


def path_text(steps: tuple[Step, ...]) -> str:
    """Steps back to text: `("targets", 0, "evasion")` -> `targets[0].evasion`."""
    out = ""
    for step in steps:
        out += f"[{step}]" if not isinstance(step, str) else (f".{step}" if out else step)
    return out


def parse_path(text: str) -> tuple[Step, ...]:
    """`sides[1].combatants[0].target.lp` -> ("sides", 1, "combatants", 0, "target", "lp")."""
    steps: list[Step] = []
    rest = text
    while True:
        name = _NAME.match(rest)
        if name is None:
            raise InputError(f"{short_repr(text)}: {short_repr(rest)} is not a field name", field="--vary")
        steps.append(name.group())
        rest = rest[name.end() :]
        while rest.startswith("["):
            index = _INDEX.match(rest)
            inside = index.group(1).strip() if index else ""
            if index is None or not inside:
                raise InputError(
                    f"{short_repr(text)}: {short_repr(rest)} is not a list index such as [0] or [Bandits]",
                    field="--vary",
                )
            steps.append(int(inside) if inside.isdigit() and len(inside) <= 6 else Name(inside))
            rest = rest[index.end() :]
        if not rest:
            return tuple(steps)
        if not rest.startswith(".") or len(rest) == 1:
            raise InputError(f"{short_repr(text)}: {short_repr(rest)} is not a field name", field="--vary")
        rest = rest[1:]


def parse_scalar(text: str) -> Value:
    """`3` -> 3, `2.5` -> 2.5, `true` -> True, anything else is the word itself."""
    word = text.strip()
    if _INT.fullmatch(word):
        return int(word)
    if _NUMBER.fullmatch(word):
        return float(word)
    if word.lower() in ("true", "false"):
        return word.lower() == "true"
    return word


def _decimal(text: str, what: str, spec: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise InputError(f"{short_repr(spec)}: {what} {short_repr(text)} is not a number", field="--vary") from None
    if not value.is_finite():
        raise InputError(f"{short_repr(spec)}: {what} must be a finite number", field="--vary")
    return value


def parse_values(spec: str) -> tuple[Value, ...]:
    """`A..B`, `A..B:STEP` or `v1,v2,...` -> the values, in order (a range counts down when B < A)."""
    if ".." in spec:
        span, _, step_text = spec.partition(":")
        low_text, _, high_text = span.partition("..")
        low = _decimal(low_text, "start", spec)
        high = _decimal(high_text, "end", spec)
        step = _decimal(step_text, "step", spec) if step_text else Decimal(1)
        if step <= 0:
            raise InputError(f"{short_repr(spec)}: the step must be more than 0", field="--vary")
        count = int((abs(high - low) / step).to_integral_value(rounding="ROUND_FLOOR")) + 1
        if count > MAX_VALUES:
            raise InputError(f"{short_repr(spec)}: {count:,} values, more than {MAX_VALUES:,}", field="--vary")
        sign = 1 if high >= low else -1
        numbers = [low + sign * k * step for k in range(count)]
        whole = all(n == n.to_integral_value() for n in numbers)
        return tuple(int(n) if whole else float(n) for n in numbers)
    words = spec.split(",")
    for word in words:
        dashed = _DASHED.fullmatch(word)
        if dashed is not None:
            first, last, every = dashed.group(1), dashed.group(2), (dashed.group(3) or "").replace(" ", "")
            where = "" if len(words) == 1 else f"{short_repr(spec)}: "
            raise InputError(
                f"{where}{short_repr(word.strip())} is not a range (A-B): for the values from {first} to {last}"
                f" write {first}..{last}{every}",
                field="--vary",
            )
    if len(words) > MAX_VALUES:
        raise InputError(f"{len(words):,} values, more than {MAX_VALUES:,}", field="--vary")
    if any(not w.strip() for w in words):
        raise InputError(f"{short_repr(spec)}: an empty value in the list", field="--vary")
    values = tuple(parse_scalar(w) for w in words)
    if any(isinstance(v, float) and not math.isfinite(v) for v in values):
        raise InputError(f"{short_repr(spec)}: values must be finite numbers", field="--vary")
    return values


def parse_vary(text: str) -> Vary:
    """One `--vary PATH=SPEC` as written."""
    path, sep, spec = text.partition("=")
    path = path.strip()
    if not sep or not path or not spec.strip():
        raise InputError(f"{short_repr(text)}: expected PATH=SPEC, e.g. targets[0].evasion=0..6", field="--vary")
    count = path.startswith(COUNT_PREFIX)
    bare = path.removeprefix(COUNT_PREFIX).strip()
    if count and bare and not any(mark in bare for mark in ".[]"):
        steps: tuple[Step, ...] = (Name(bare),)  # count:Goblin: the combatant of that name, wherever it stands
    else:
        steps = parse_path(bare if count else path)
    values = parse_values(spec.strip())
    if count:
        bad = [v for v in values if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_COPIES]
        if bad:
            raise InputError(
                f"{short_repr(path)}: a count is a whole number of copies from 0 to {MAX_COPIES}, "
                f"not {short_repr(bad[0])}",
                field="--vary",
            )
        if isinstance(steps[-1], str):
            raise InputError(
                f"{short_repr(path)}: count: takes a combatant in a list, e.g. count:sides[1].combatants[0]"
                " or count:Goblin",
                field="--vary",
            )
    return Vary(path, steps, values, count)


#: What `--zip` does, as the `--help` of each command taking it says.
ZIP_HELP = "e.g. --zip attacker.weapon.damage=1d10,1d6 --zip attacker.weapon.enhancement=0,2"
#: Between the fields of a build axis in its column's name, and between their values in its labels.
ZIP_JOIN = ", "


def parse_zip(texts: list[str]) -> Vary:
    """Every `--zip PATH=SPEC` as one axis (a build): value k of each field together make its k-th value, so the
    lists must be of one length; the column is the paths joined (`attacker.weapon.damage, attacker.weapon.
    enhancement`) and each value its values joined (`1d10, 0`)."""
    parts = tuple(parse_vary(t) for t in texts)
    lengths = {len(p.values) for p in parts}
    if len(lengths) != 1:
        said = ", ".join(f"{p.text} has {len(p.values)}" for p in parts)
        raise InputError(f"the --zip fields pair their values in order, so need as many each: {said}", field="--zip")
    size = lengths.pop()
    labels = tuple(
        ZIP_JOIN.join(str(p.values[k]).lower() if isinstance(p.values[k], bool) else str(p.values[k]) for p in parts)
        for k in range(size)
    )
    return Vary(ZIP_JOIN.join(p.text for p in parts), (), labels, zipped=parts)


def parse_varies(texts: list[str], zips: list[str] | None = None) -> list[Vary]:
    """Every `--vary`, in order, then the `--zip` fields as one axis; at least one, and no field varied twice."""
    if not texts and not zips:
        raise InputError("give at least one --vary PATH=SPEC", field="--vary")
    varies = [parse_vary(t) for t in texts]
    if zips:
        varies.append(parse_zip(zips))
    seen: set[str] = set()
    for field in (part for vary in varies for part in vary.fields):
        if field.text in seen:
            raise InputError(f"{short_repr(field.text)} is varied twice", field="--vary")
        seen.add(field.text)
    return varies
