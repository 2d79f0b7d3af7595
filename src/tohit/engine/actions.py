"""The actions a game master takes in a live encounter, as types: one pydantic model per
kind, joined in a union on `kind`. The server takes it as the HTTP body of an action and `Encounter.act` plays
it, so what the server accepts and what the encounter reads are one declaration. Strict as a fight file is: a
field not named here is refused, and no true/false passes for a number."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError

from tohit.core.errors import InputError
from tohit.core.seeds import MAX_SEED
from tohit.engine.requests import MAX_NAME


def integral(value: Any) -> Any:
    """A float with no fractional part (4.0, a Python client's 1e6) as the integer it is; anything else as given,
    for the strict model to judge (4.5 and `true` stay refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: A whole number as JSON Schema (and so the OpenAPI document) counts one: 4 and 4.0 alike. JSON Schema cannot tell
#: them apart, so a server that refused 4.0 would refuse what its own document allows; a Python client sends 4.0
#: whenever its count went through a float (`n=1e6`, `total / 2`), and means the integer. Not a string, not a bool.
#: Bounds go before the validator (`Annotated[int, Field(ge=0), BeforeValidator(integral)]`), so that the document
#: says `minimum`, not pydantic's own `ge`.
Whole = Annotated[int, BeforeValidator(integral)]
#: Seeds an action may give: the seed domain of every door (engine/requests, core/seeds).
Seed = Annotated[int, Field(ge=0, le=MAX_SEED), BeforeValidator(integral)]
#: A seq, a door's number: a whole number from 0.
Index = Annotated[int, Field(ge=0), BeforeValidator(integral)]
#: Faces typed by hand: role -> faces (one attack), or one such mapping per attack or counterattack, in order,
#: or one such mapping per target name (each target's own roll; a role rolled once for the whole attack, typed
#: once in any one of them).
Dice = dict[str, list[Whole]] | list[dict[str, list[Whole]]] | dict[str, dict[str, list[Whole]]]
#: A name an action gives (a combatant's, an attack's, a stat's): at most MAX_NAME characters.
Name = Annotated[str, Field(max_length=MAX_NAME)]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    expected_seq: Index | None = Field(default=None, description="The seq the GM acts on (else a 409).")
    seed: Seed | None = Field(default=None, description="The dice's seed (default: the encounter's, and its seq).")


class Attack(_Action):
    """The GM's attack: who attacks, with which attack (default: its first), on whom, with faces typed by hand."""

    kind: Literal["attack"]
    attacker: Name
    attack: Name | None = None
    targets: list[Name] = Field(
        min_length=1,
        description="attack: the targets, the primary first; more than one only where the game allows (the sheet's"
        " `max_targets` per attack), each then attacked as named.",
    )
    dice: Dice | None = Field(
        default=None,
        description="attack: faces typed by hand: role -> faces (the attack's first roll), a list of such sets (its"
        " rolls in order), or a set per target name ({target: {role: faces}}: each target's own roll; a role rolled"
        " once for the whole attack, typed once in any one target's set). Roles left out are rolled.",
    )
    placement: str | None = Field(
        default=None, max_length=200, description="attack on a map: the placement in words (the map route's `range`)."
    )


class Auto(_Action):
    """One step of the fight as the game's order and the side's policy play it."""

    kind: Literal["auto"]
    dice: Dice | None = None


class Adjust(_Action):
    """The GM sets a combatant's stat to `value`, or changes it `by` an amount (-7: seven off), within the range
    its game declares for it: one of the two. Several at once (`combatants`): one event listing each change."""

    kind: Literal["adjust"]
    combatant: Name | None = None
    combatants: list[Name] | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="adjust, condition: several combatants at once (instead of `combatant`): one event, each listed.",
    )
    stat: Name
    value: Whole | None = None
    by: Whole | None = Field(default=None, description="adjust: the amount to change the stat by (-7, +3).")


class EndTurn(_Action):
    """The turn that comes ends (the game's own end of turn)."""

    kind: Literal["end_turn"]


class Move(_Action):
    """The GM moves a combatant on the map (a free move) to the square [x, y]."""

    kind: Literal["move"]
    combatant: Name
    to: list[Whole] = Field(min_length=2, max_length=2, description="move: the square [x, y] on the map.")


class Door(_Action):
    """The GM opens or closes a door of the encounter's map: its number in the map's doors."""

    kind: Literal["door"]
    door: Index = Field(description="door: its number in the map's doors (from 0).")
    closed: bool = Field(description="door: true closes it, false opens it.")


class Join(_Action):
    """A combatant joins mid-fight on a side, given as a fight file's combatant, or by name: a copy of one in the
    fight (`copy_of`) or one of the fight file's `bestiary`; `count` of them, numbered ("Bandit 2", "Bandit 3").
    The game places each in the turn order as its rules place a newcomer (docs/fights.md)."""

    kind: Literal["join"]
    side: Name | None = Field(default=None, description="join: the side (default: the copied one's).")
    combatant: dict[str, Any] | Name | None = Field(
        default=None, description="join: a fight file's combatant, or the name of one in the file's `bestiary`."
    )
    copy_of: Name | None = Field(default=None, description="join: a combatant in the fight to copy (its file block).")
    name: Name | None = Field(
        default=None, description="join: the newcomer's name (default: the copied one's or the bestiary's, numbered)."
    )
    count: Annotated[int, Field(ge=1, le=20), BeforeValidator(integral)] = Field(
        default=1, description="join: how many join (numbered after the name: 2, 3, ...)."
    )


class Leave(_Action):
    """A combatant leaves the fight (it no longer acts, is attacked or counts for its side)."""

    kind: Literal["leave"]
    combatant: Name


class Condition(_Action):
    """The GM sets (`on`) or clears a condition the game keeps (its readings of kind condition), named by its
    label or its stat."""

    kind: Literal["condition"]
    combatant: Name | None = None
    combatants: list[Name] | None = Field(default=None, min_length=1, max_length=64)
    condition: str = Field(max_length=200)
    on: bool
    rounds: Annotated[int, Field(ge=1, le=1000), BeforeValidator(integral)] | None = Field(
        default=None, description="condition: it lasts this many of the turns `until` names, then expires."
    )
    until: Literal["start_of_turn", "end_of_turn"] | None = Field(
        default=None, description="condition: it expires at the start or the end of a turn (of `of`)."
    )
    of: Name | None = Field(default=None, description="condition: whose turn counts (default: its own).")


class Note(_Action):
    """The GM's note on a combatant ("flees below 10 LP"), shown on the GM's card, never to the players; an
    empty text clears it."""

    kind: Literal["note"]
    combatant: Name
    text: str = Field(max_length=500)


class Delay(_Action):
    """The combatant whose turn comes delays: it acts after the next one (or after the one named in `after`),
    where the game's order allows it."""

    kind: Literal["delay"]
    combatant: Name
    after: Name | None = Field(default=None, description="delay: act after this combatant (default: the next one).")


class RollDice(_Action):
    """Any roll into the log ("2d6+3", "Perception"), read by the engine's dice parser."""

    kind: Literal["dice"]
    expression: str = Field(max_length=200)
    label: str | None = Field(default=None, max_length=200)


class Reveal(_Action):
    """The GM shows a combatant's stats to the players' view, or hides them (every combatant not on the first
    side starts hidden)."""

    kind: Literal["reveal"]
    combatant: Name
    to_players: bool


class Hide(_Action):
    """The GM hides a combatant entirely from the players' view (an ambusher): absent from every players' read until
    a `reveal` brings it in (docs/players.md)."""

    kind: Literal["hide"]
    combatant: Name


class Undo(_Action):
    """The last action not yet taken back is taken back, by one more event."""

    kind: Literal["undo"]


#: Any one action (a value), and the union as a type to validate against (told apart by `kind`).
AnyAction = (
    Attack
    | Auto
    | Adjust
    | EndTurn
    | Move
    | Door
    | Join
    | Leave
    | Condition
    | RollDice
    | Reveal
    | Hide
    | Note
    | Delay
    | Undo
)
Action = Annotated[AnyAction, Field(discriminator="kind")]
#: The kinds of action, in the order they are listed to a person.
KINDS = (
    "attack", "auto", "adjust", "end_turn", "move", "door", "join", "leave", "condition", "dice", "reveal", "hide",
    "note", "delay", "undo",
)  # fmt: skip
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


#: How pydantic names a member of a union of types in an error's location: `dict[str,list[int]]`, or with a whole
#: number's validator `dict[str,list[function-before[integral(), int]]]` (a creature's name given as a key is
#: none of these).
_MEMBER = re.compile(r"^(?:dict|list)\[.*\]$")


def _is_member(part: Any) -> bool:
    return isinstance(part, str) and _MEMBER.match(part) is not None


def telling_error(errors: Sequence[Any]) -> Any:
    """The error to report of a validation's `errors`: the first; where it is one member's of a union of types, the
    member's error that reaches deepest into the value (a string face in a per-target set is the face's error, not
    the flat set's "a valid list" at the target's name)."""
    first = errors[0]
    loc = tuple(first.get("loc", ()))
    at = next((i for i, p in enumerate(loc) if _is_member(p)), None)
    if at is None:
        return first
    same = [e for e in errors if tuple(e.get("loc", ()))[:at] == loc[:at] and _is_member((*e.get("loc", ()), "")[at])]
    return max(same, key=lambda e: len(e.get("loc", ())))


def union_path(loc: Sequence[Any]) -> list[str]:
    """The parts of an error's location without pydantic's names of a union's members (`dice.dict[str,list[int]]
    .Moblin.to_hit` -> `dice.Moblin.to_hit`); past such a member, a face's index is left off: the field is the
    role's faces, as the dice form names it (`dice.Moblin.to_hit`, not `.0`)."""
    kept = [p for p in loc if not _is_member(p)]
    if len(kept) < len(loc) and kept and isinstance(kept[-1], int):
        kept = kept[:-1]
    return [str(p) for p in kept]


def field_of(loc: tuple[Any, ...] | list[Any], kind: str = "") -> str | None:
    """The field a validation error (of type `kind`) names, without the union's tag (`adjust.value` -> `value`)
    and without pydantic's names of a union's members (`union_path`); an action of no known kind names `kind`."""
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        return ".".join([*(str(p) for p in loc), "kind"])
    parts = union_path(loc)
    if parts and parts[0] in KINDS:
        parts = parts[1:]
    return ".".join(parts) or None


def parse_action(data: Any) -> AnyAction:
    """An action from a mapping (as JSON gives it), or an InputError naming the field."""
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        kind = data.get("kind") if isinstance(data, dict) else None
        raise InputError(f"must be one of {', '.join(KINDS)}, got {kind!r}", field="kind")
    try:
        found: AnyAction = _ADAPTER.validate_python(data)
    except ValidationError as exc:
        first = telling_error(exc.errors())
        raise InputError(str(first.get("msg")), field=field_of(first.get("loc", ()), first.get("type", ""))) from None
    return found
