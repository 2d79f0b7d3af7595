"""What the routes answer, as pydantic models for the OpenAPI document (its 2xx response schemas).

The models describe; they do not filter. A route names its model with `ok(Model)` in its decorator's
`responses` and keeps `response_model=None`, so FastAPI neither drops a key the model does not list nor turns
an unexpected value into a 500: the answer is exactly what the route built. Tests hold the models to the real
answers (each bundled example fight, with the GM's and the view token's reads) and schemathesis checks every
answer of a live server against them.

A key that is left out where it does not apply (never sent as null) is declared with `absent(...)`: not
required, and its schema gives no null. Where a part of an answer is the game's own (a combatant's stats, an
attack's outcome, a dice role's faces), it is a mapping of names to values; an event may carry keys of its
game's own beside the ones listed here.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from tohit.core.fight.readings import ReadingKind

#: The health words the view token reads for a hidden combatant, every game's (players_view.WORDS).
HealthText = Literal["unhurt", "wounded", "bloodied", "down", "downed"]
#: A square of the map: [x, y].
Square = list[int]


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def absent(description: str, alias: str | None = None) -> Any:
    """A key the answer leaves out where it does not apply: not required, never null (`default` is only for
    pydantic; the schema shows none)."""
    return Field(default=None, alias=alias, description=description, json_schema_extra=_no_default)


def ok(model: Any, status: int = 200) -> dict[str, Any]:
    """A route decorator's keywords for a route answering `model` as JSON with `status`: the model describes the
    answer in the OpenAPI document (`responses`), and `response_model=None` keeps the answer as built."""
    return {"status_code": status, "response_model": None, "responses": {status: {"model": model}}}


def content(media: dict[str, dict[str, Any]], description: str) -> dict[int | str, dict[str, Any]]:
    """A decorator's `responses` for a 200 that is not JSON: each media type and its schema."""
    return {200: {"content": {kind: {"schema": schema} for kind, schema in media.items()}, "description": description}}


class Closed(BaseModel):
    """An answer's object whose keys are all listed."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# -- shared parts ------------------------------------------------------------------------------------------------
class Exact(Closed):
    """An exact number (a probability, an expected damage): the fraction and its float; a fraction too long to
    write has `fraction` null, with its decimal and the digit counts of its numerator and denominator."""

    fraction: str | None = Field(pattern=r"^-?[0-9]+/[0-9]+$", description='The exact value, "p/q".')
    as_float: float = Field(alias="float", description="The value as a float.")
    decimal: str = absent("The value in decimals (only when `fraction` is null).")
    digits: list[int] = absent("Digits of the numerator and of the denominator (only when `fraction` is null).")


class HiddenCombatant(Closed):
    """A combatant the game master hides, as the view token reads it: its health in words, no numbers."""

    health: HealthText = Field(description="The combatant's health in words.")


class State(Closed):
    """Where the fight stands: the fight's own counters (round, whose turn...) and each combatant's stats, by
    name (the game's stats; a hidden combatant read with the view token: its health word only)."""

    fight: dict[str, int] = Field(description="The fight's counters, by name (the game's).")
    combatants: dict[str, dict[str, int] | HiddenCombatant] = Field(
        description="Each combatant's stats by combatant name, each stat's value by its name (the game's)."
    )


class Change(Closed):
    """One stat an event changed (with the view token, a hidden combatant's change has no values)."""

    who: str | None = Field(description="The combatant whose stat changed (null: a stat of the fight).")
    stat: str = Field(description="The stat's name (the game's).")
    before: int = absent("Its value before.", alias="from")
    to: int = absent("Its value after.")


class TraceStep(Closed):
    """One line of an attack's explanation."""

    text: str = Field(description="What was worked out, in words.")
    clause: str = Field(description="The rule it applies (the rulebook's section).")


class Event(BaseModel):
    """One event of an encounter's log: what happened, in words, and the stats it changed. Events of a kind
    carry that kind's keys (an attack its attacker, target, dice, outcome and trace; the start its sides,
    seed and state; the end its winner and rounds); a game's own events may carry keys of their own. With the
    view token an event is told in the players' words (docs/players.md), and one about a hidden combatant keeps
    only who did what."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    kind: str = Field(description="What kind of event: start, attack, end, undo, join, leave, ... .")
    n: int = Field(description="Its seq: its place in the log, from 0.")
    text: str = Field(description="What happened, as a person reads it.")
    changes: list[Change] = Field(description="The stats it changed.")
    state: State = absent("The state after it (the start, the end, an undo, a combatant joining or leaving).")
    action: int = absent("The seq of the game master's action it belongs to.")
    attacker: str = absent("The attacking combatant.")
    attack: str = absent("The attack used.")
    target: str = absent("The combatant attacked.")
    combatant: str = absent("The combatant it is about (joining, leaving, a condition set).")
    dice: dict[str, list[int]] = absent("The faces rolled, by dice role.")
    outcome: dict[str, str | int | float | bool | None] = absent(
        "The attack's outcome, by the game's outcome fields (the GM's reads, and the view token's where no "
        "hidden combatant is named)."
    )
    result: str = absent("The attack's result (the view token's read of an attack on a hidden combatant).")
    trace: list[TraceStep] = absent("The attack explained step by step.")
    round: int = absent("The round it happened in.")
    rounds: int = absent("Rounds played (the end).")
    winner: str | None = absent("The winning side (the end; null: a draw).")
    sides: dict[str, list[str]] = absent("Each side's combatants by side name (the start, an undo).")
    seed: int = absent("The seed of the dice (the start; the GM's reads only).")
    player: str = absent("The combatant whose player played it with a player's link (absent: the GM).")
    system: str = absent("The game's id (the start).")
    source: str = absent("The fight file it started from (the start).")
    undoes: int = absent("The seq of the action taken back (an undo).")


# -- the stateless routes ----------------------------------------------------------------------------------------
class ScenarioSchema(RootModel[dict[str, Any]]):
    """The JSON Schema (2020-12) of the game's scenario files: an object whose keys are those of JSON Schema
    (its `properties` are the scenario's fields), so it is described here as an object of any keys."""


class Aimed(Closed):
    """One placement of an attack on the map, with its exact expected damage."""

    range: str = Field(description="The attack's range as placed, in words.")
    squares: list[Square] = Field(description="The squares it covers.")
    foes: list[str] = Field(description="The foes it reaches.")
    allies: list[str] = Field(description="The allies it reaches.")
    expected_to_foes: Exact = Field(description="The exact expected damage to the foes it reaches.")
    expected_to_allies: Exact = Field(description="The exact expected damage to the allies it reaches.")
    score: Exact = Field(description="The expected damage to foes minus that to allies (placements are ranked by it).")


class Example(Closed):
    """A bundled example fight a new encounter may start from."""

    id: str = Field(description="Its id, for `example` of POST /v1/encounters.")
    name: str = Field(description="Its file name.")
    title: str = Field(description="What the fight is, in words.")
    system: str | None = Field(description="The game's id.")


# -- encounters --------------------------------------------------------------------------------------------------
class Created(Closed):
    """A new encounter: its id, its tokens (shown this once) and its state."""

    id: str = Field(description="The encounter's id.")
    gm_token: str = Field(description="The game master's token: it reads and acts.")
    view_token: str = Field(description="The view token: the players' read-only view.")
    seq: int = Field(description="The seq of its last event.")
    state: State


class Listed(Closed):
    """An encounter in the admin's list."""

    id: str = Field(description="The encounter's id.")
    name: str = Field(description="Its name.")
    system: str = Field(description="The game's id.")
    seq: int = Field(description="The seq of its last event.")
    round: int | None = Field(description="The round it is in (null where the game counts no rounds).")
    standing: list[str] = Field(description="The combatants still standing.")
    over: bool = Field(description="Whether the fight is over.")


class Reading(Closed):
    """One stat of a combatant as a card shows it."""

    stat: str = Field(description="The stat's name (the game's), for scripts.")
    label: str = Field(description="The stat's name in the rulebook's words.")
    kind: ReadingKind = Field(description="How it reads: health, a number, a condition, ...")
    text: str = Field(description="Its value as a person reads it (a hidden combatant's health: a word).")
    value: int = absent("Its value (health, and a number with a maximum).")
    max: int = absent("Its maximum (health, and a number with a maximum).")
    tracked: bool = absent("false: this fight does not track the stat (a card leaves it out).")
    chips: list[str] = absent("A condition's or reference's words while it is set.")
    hidden: bool = absent("true: the view token's read of a hidden combatant (its health word only).")


class Row(Closed):
    """One row of a side, in the game's words."""

    label: str = Field(description='The row in the game\'s words ("front row").')
    names: list[str] = Field(description="Who stands in it.")


class SideRows(Closed):
    """A side's rows, in order."""

    side: str = Field(description="The side's name.")
    rows: list[Row] = Field(description="Its rows, front first.")


class Duration(Closed):
    """A condition that lasts by the game's clock: how many counts are left, and when it counts."""

    condition: str = Field(description="The condition, in the game's words.")
    left: int = Field(description="How many counts are left (it expires at the last).")
    text: str = Field(description='The count in words, as the card shows it: "2 rounds".')
    ends: str = Field(description='When it counts, in words: "at the end of Ceil\'s turn".')


class Summary(Closed):
    """An encounter now: its state, whose turn it is, who is standing, each combatant's card and conditions in
    words. With the view token a hidden combatant shows its health word only."""

    id: str = Field(description="The encounter's id.")
    name: str = Field(description="Its name.")
    system: str = Field(description="The game's id.")
    seq: int = Field(description="The seq of its last event.")
    state: State
    turn: str | None = Field(description="Who acts next (null: the fight is over).")
    standing: list[str] = Field(description="The combatants still standing.")
    over: bool = Field(description="Whether the fight is over.")
    conditions: dict[str, list[str]] = Field(description="Each combatant's conditions in words, by name.")
    shown: dict[str, list[Reading]] = Field(description="Each combatant's card: its stats as read, by name.")
    rows: list[SideRows] = Field(description="Each side's rows, where the game keeps rows (else none).")
    hidden: list[str] = Field(description="The combatants the game master hides from the players.")
    hidden_entirely: list[str] = Field(
        default_factory=list,
        description="The combatants hidden entirely from the players (`hide`, a fight file's `hidden: true`): the"
        " GM's read; the view token's is empty (docs/players.md).",
    )
    order: list[str] = Field(description="The combatants in the round's order now (a delay changes it).")
    delay_after: list[str] = Field(
        description="Whom the combatant whose turn comes may delay after, in the order their turns come (none: no"
        " delay now)."
    )
    durations: dict[str, list[Duration]] = Field(
        description="Each combatant's conditions that last by the game's clock, by name (none: none running)."
    )
    notes: dict[str, str] = absent("The GM's note on each combatant that has one (the GM token's read only).")


class Renamed(Closed):
    """An encounter's new name."""

    id: str = Field(description="The encounter's id.")
    name: str = Field(description="Its new name.")


class SheetCombatant(Closed):
    """A combatant on the sheet."""

    name: str = Field(description="Its name.")
    side: str = Field(description="Its side.")
    attacks: list[str] = Field(description="Its attacks' names.")
    max_targets: list[int] = Field(
        description="Per attack, how many targets a game master may name in one attack (1: a single target)."
    )
    start: dict[str, int] = Field(description="Its starting stats (the game's; none for a hidden combatant).")
    hidden: bool = absent("true: hidden from the players (the view token's read).")


class Sheet(Closed):
    """What a page shows beside the state."""

    health: str = Field(description="The stat that is health (its name in the state).")
    health_label: str = Field(description="Health in the rulebook's words.")
    sides: list[str] = Field(description="The sides, in the fight file's order.")
    order: list[str] = Field(description="The combatants in the round's order.")
    conditions: list[str] = Field(description="The stats that are conditions.")
    gm_conditions: list[str] = Field(description="The conditions a game master may set by hand, in words.")
    ranges: dict[str, list[int] | None] = Field(
        description="Each stat's values a game master may set, [lowest, highest] (null: the rules keep it)."
    )
    combatants: list[SheetCombatant]
    map: bool = Field(description="Whether the encounter has a map (its game's map rules and a map in its fight).")
    role: Literal["gm", "view", "player"] = Field(
        description="Which token read it: the game master's, the view token or a player's link."
    )
    player: str = absent("The combatant a player's link plays (a player's link's read).")
    hidden: list[str] = absent("The combatants hidden from the players (the view token's read).")
    bestiary: list[str] = Field(description="The names of the fight file's bestiary, that a GM adds (`join`).")
    delay: str | None = Field(description="Why the game's order allows no delay, in its words (null: it allows one).")


class DiceRole(Closed):
    """A dice role of an attack, for faces typed by hand."""

    role: str = Field(description="The role's name (the key of `dice` in an attack).")
    label: str = Field(description="The role in its rulebook's words (what a person reads), beside its key.")
    notation: str = Field(description="Its dice in words.")
    sides: list[int] | None = Field(description="Each die's sides (null: it reads a varying number of faces).")
    scope: str = Field(description="Whether it is rolled once per target or once per attack.")
    when: Literal["always", "conditional", "never"] = absent(
        "Whether the attack needs it: always, conditional (after some faces of the others) or never (absent once "
        "the fight is over)."
    )


class Dice(Closed):
    """The dice roles an attack rolls against its first target, and the creatures it rolls against."""

    seq: int = Field(description="The seq it was read at.")
    roles: list[DiceRole]
    targets: list[str] = Field(
        description="The creatures the attack rolls against (a Multi ability's or an area's every one), the first"
        " named first: an attack's `dice` may give each its own set by name (`{target: {role: faces}}`), a role"
        " rolled once for the whole attack (scope `attack`) typed once, in any one target's set."
    )
    needed: list[str] | dict[str, list[str]] = absent(
        "The roles the faces given still call for (only when `dice` was given); per target name when `dice` was"
        " given per target."
    )


class Cover(Closed):
    """The line that gives a creature cover."""

    segment: list[list[int]] = Field(description="The line: [[x0, y0], [x1, y1]], corners of squares.")
    square: Square | None = Field(description="The solid square it crosses (null: it crosses a wall).")
    wall: bool = Field(description="Whether it crosses a wall.")
    attacker_square: Square = Field(description="The attacker's square it starts from.")
    target_square: Square = Field(description="The creature's square it ends at.")


class Creature(Closed):
    """A creature on the map."""

    name: str = Field(description="Its name.")
    side: str = Field(description="Its side.")
    size: str = Field(description="Its size.")
    squares: list[Square] = Field(description="The squares it stands on.")


class Door(Closed):
    """A door of the map."""

    door: int = Field(description="Its number (for a door action).")
    segment: list[float] = Field(description="[x0, y0, x1, y1] in squares.")
    closed: bool = Field(description="Whether it is closed (a wall).")


class Picture(Closed):
    """The picture under the map (GET .../picture)."""

    pixels_per_grid: int = Field(description="Pixels a square in the image.")


class Placement(BaseModel):
    """Where an attack's range is put: the range's fields that place it (a map's rules may have more)."""

    model_config = ConfigDict(extra="allow")

    target: str = absent("The creature attacked.")
    targets: list[str] = absent("The creatures chosen.")
    at: Square = absent("The corner square of an area.")
    direction: str = absent("Its direction.")
    origin: Square = absent("The square of the attacker it starts from.")
    squares: list[Square] = absent("The squares chosen.")


class Sight(Closed):
    """What the players' characters see on the map (docs/maps.md, "Vision")."""

    party: list[str] = Field(description="The players' characters (the first side): each sees from its squares.")
    rows: list[str] = Field(
        description='One string per row of the map, a character per square: "2" seen now, "1" seen before'
        ' (explored), "0" never seen.'
    )


class MapView(Closed):
    """The encounter's map and the attack placed on it."""

    seq: int = Field(description="The seq it was read at.")
    width: int = Field(description="The board's width in squares.")
    height: int = Field(description="The board's height in squares.")
    solid: list[Square] = Field(description="The solid squares.")
    walls: list[list[float]] = Field(description="Walls: segments [x0, y0, x1, y1] in squares.")
    picture: Picture | None = Field(description="The picture under the map (null: none).")
    doors: list[Door]
    creatures: list[Creature]
    attacker: str = Field(description="The attacking combatant.")
    range_type: str = Field(description="The attack's kind of range.")
    placement_fields: list[str] = Field(description="The fields that place the attack (`placement`).")
    placement: Placement = Field(description="The placement given.")
    range: str = Field(description="The range as placed, in words.")
    squares: list[Square] = Field(description="The squares it covers.")
    cover_rule: str = Field(description="How cover is judged.")
    reached: list[str] = Field(description="The creatures it reaches.")
    cover: dict[str, Cover | None] = Field(description="Each creature's cover line by name (null: no cover).")
    sight: Sight


class Placed(Aimed):
    """One placement of the attack on the encounter's map."""

    placement: Placement = Field(description="How to place it (as the map route takes it).")


class EncounterAim(Closed):
    """The best placements of an attack on the encounter's map."""

    seq: int = Field(description="The seq it was read at.")
    best: list[Placed]
    note: str = absent("In words, when `best` is empty: no placement reaches anyone.")


class Measured(Closed):
    """The distance between two squares of the encounter's map, as its game counts ranges and moves."""

    seq: int = Field(description="The seq it was read at.")
    squares: int = Field(
        description="Squares from one to the other in the grid's count (every second diagonal counts two: 1-2-1)."
    )


class ViewToken(Closed):
    """The new view token (the old one stops working)."""

    view_token: str = Field(description="The view token: the players' read-only view.")


class PlayerToken(Closed):
    """A player's link: the combatant it plays and its token (server/player_links.py)."""

    combatant: str = Field(description="The combatant whose player the link is for.")
    player_token: str = Field(description="The token: the page /encounters/{id}?token=… plays this combatant.")


class PlayerTokens(Closed):
    """The players' links that open the encounter now."""

    player_tokens: list[PlayerToken] = Field(description="One per combatant that has a link, by name.")


class Acted(Closed):
    """What an action did: its events, its explanation and the state it left."""

    seq: int = Field(description="The seq of the last event it appended.")
    events: list[Event] = Field(description="The events it appended.")
    trace: list[TraceStep] = Field(description="Every attack's explanation, in order.")
    state: State
    out_of_turn: bool = absent("true: the attacker acted out of its turn (an attack only).")


class Odds(Closed):
    """The exact odds of an attack on one target: of the first roll against it, as the turn the roll plays makes
    it (on a map from where the game moves the attacker first)."""

    name: str = Field(description="The target's name.")
    result: dict[str, Exact] = Field(description="Each result's probability, by result.")
    mean_damage: Exact = Field(description="The mean damage.")
    beyond_depth: Exact = Field(description="The probability left beyond the open rolls' depth.")
    moves_to: list[int] | None = Field(
        default=None, description="[x, y]: the square the game moves the attacker to before it attacks (a map)."
    )
    move: str | None = Field(default=None, description="The game's words for that move.")


class Unreached(Closed):
    """A target named that the attack will not roll against: the game's words for why, and no odds."""

    name: str = Field(description="The target's name.")
    reach: str = Field(
        description="Why the attack makes no roll against it, in the game's words: the rules refuse the attack now"
        " (out of reach past a wall or a closed door, an ally, a cost unpaid...), or it holds its ground."
    )
    moves_to: list[int] | None = Field(
        default=None, description="[x, y]: the square the game moves the attacker to first (a map)."
    )
    move: str | None = Field(default=None, description="The game's words for that move.")


class HiddenOdds(Closed):
    """A creature the attack also reaches that is hidden from the players (the view token's read): its name only."""

    name: str = Field(description="The creature's name.")
    hidden: Literal[True] = Field(description="Hidden from the players: no odds read from its stats.")


class Preview(Closed):
    """The exact odds of an attack on each target now; nothing changes."""

    seq: int = Field(description="The seq it was read at.")
    targets: list[Odds | Unreached | HiddenOdds]


#: GET .../events.jsonl: application/x-ndjson, one JSON event a line.
NDJSON = content(
    {"application/x-ndjson": {"type": "string"}},
    "The whole log, one event a JSON object a line (as `tohit fight --log` writes it).",
)
#: GET .../picture: the image's bytes, PNG or WebP.
PICTURE = content(
    {"image/png": {"type": "string", "format": "binary"}, "image/webp": {"type": "string", "format": "binary"}},
    "The picture under the map: a PNG or WebP image.",
)
