"""What the server's pages read of a live encounter (the read-models move out of the engine into
the server): the sheet beside the state, each combatant's stats in words and conditions, the dice roles an attack
rolls by hand, the fight's map and the best placements on it. Each is a function of an `engine.encounter.Encounter`
that changes nothing; the rules and the fight (state, standing, next turn, act, preview, events) stay the
engine's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from tohit.core.errors import InputError
from tohit.core.exact_text import fraction_json
from tohit.core.fight import order
from tohit.core.fight.readings import chip_words, read_combatant, reading_of
from tohit.core.grid.squares import count_121
from tohit.core.grid.walls import WALL_SCALE
from tohit.engine import durations, gm_hand, gm_many, turn_delay
from tohit.engine.aim import Aimer
from tohit.engine.dice_needs import still_needed, when_needed
from tohit.engine.doors import map_extras
from tohit.engine.encounter import Encounter
from tohit.engine.vision import vision


# -- the sheet and the cards -------------------------------------------------------------------------------------
def round_order(enc: Encounter) -> list[int]:
    """The combatants in the round's order: by each one's place (its `turn` stat) where the fight keeps its order
    (an Initiative, or the file's order as a live encounter keeps it, a delay moving a turn), else the file's
    order, sides alternating (core/fight/order.py)."""
    return order.round_order(enc.fight, enc.state)


def sheet(enc: Encounter) -> dict[str, Any]:
    """What a page shows beside the state, read from the fight (never from a game's name): the stat that is
    health (with its word and each combatant's starting value), the sides, each combatant's side and attacks
    (with how many targets each may take), and the starting stats."""
    roster, rules = enc.fight.roster, enc.fight.rules
    start = starts(enc)
    return {
        "health": rules.health,
        "health_label": rules.health_label,
        "sides": list(roster.side_names),
        "order": [roster.names[c] for c in round_order(enc)],
        "conditions": list(rules.condition_stats),
        "gm_conditions": [label for _, label, _ in gm_hand.settable(enc)],
        "bestiary": [str(b.get("name")) for b in enc.data.get("bestiary") or [] if isinstance(b, dict)],
        "delay": turn_delay.refused(enc),
        "ranges": ranges(enc),
        "combatants": [
            {
                "name": name,
                "side": roster.side_names[roster.side[c]],
                "attacks": [a.name for a in enc.fight.combatants[c].attacks],
                # Per attack, how many targets the game master may name (the game's `max_targets`).
                "max_targets": [
                    rules.max_targets(enc.fight, c, a) for a in range(len(enc.fight.combatants[c].attacks))
                ],
                "start": start[name],
            }
            for c, name in enumerate(roster.names)
        ],
    }


def ranges(enc: Encounter) -> dict[str, list[int] | None]:
    """Each per-combatant stat's values a game master may set ([lowest, highest]), None where the game's rules
    keep it (the game's `stat_range`)."""
    rules = enc.fight.rules
    found = {stat: rules.stat_range(enc.fight, stat) for stat in enc.state.per}
    return {stat: None if r is None else [int(r[0]), int(r[1])] for stat, r in found.items()}


def shown(enc: Encounter) -> dict[str, list[dict[str, Any]]]:
    """Each combatant's stats now as a person reads them, for a page's cards: the game's `readings`
    (core/fight/readings.py `read_combatant`): per stat not internal, its key, label, kind and text; a
    condition's or reference's chips (`grappling: Kulu`); health against its maximum; a per-weapon stat labelled
    with its weapon's name (the game's `item_names`)."""
    fight, start = enc.fight, starts(enc)
    names = list(fight.roster.names)
    return {
        name: read_combatant(
            fight.rules.readings,
            stats,
            names,
            attacks=[a.name for a in fight.combatants[c].attacks],
            start=start[name],
            named=fight.rules.narrate_value,
            items=fight.rules.item_names(fight, c),
        )
        for c, (name, stats) in enumerate(enc.state_json()["combatants"].items())
    }


def starts(enc: Encounter) -> dict[str, dict[str, int]]:
    """Each combatant's starting stats: the start event's, a newcomer's as it joined."""
    found = dict(enc.events[0]["state"]["combatants"])
    for e in enc.events:
        if e["kind"] == "join":
            found[e["combatant"]] = e["state"]["combatants"][e["combatant"]]
    return found


def cards(enc: Encounter) -> dict[str, Any]:
    """What an encounter's summary shows beside its state: each combatant's conditions and card, each side's rows,
    the round's order now (a delay changes it) and whom the turn that comes may delay after, the durations running
    and the GM's notes (server/players_view.py leaves the notes out)."""
    return {
        "order": [enc.fight.roster.names[c] for c in round_order(enc)],
        "delay_after": turn_delay.choices(enc),
        "conditions": conditions(enc),
        "shown": shown(enc),
        "rows": rows(enc),
        "durations": durations_now(enc),
        "notes": gm_many.notes(enc.events),
    }


def durations_now(enc: Encounter) -> dict[str, list[dict[str, Any]]]:
    """Each combatant's conditions that last by the game's clock (engine/durations.py): the count left in words."""
    found: dict[str, list[dict[str, Any]]] = {}
    for t in durations.timers(enc):
        found.setdefault(t.who, []).append(
            {"condition": t.condition, "left": t.left, "text": t.words(), "ends": t.ends()}
        )
    return found


#: The stat a game keeps for where each combatant stands among its side's rows (a front row and a back row): the
#: page's Rows panel shows each side's rows in the game's words for its values.
ROW_STAT = "row"


def rows(enc: Encounter) -> list[dict[str, Any]]:
    """Each side's rows where the game keeps a `row` stat (none where it does not): per side, its rows in order,
    each in the game's words ("front row", the stat's reading: never its number) with who stands in it."""
    per, roster = enc.state.per, enc.fight.roster
    if ROW_STAT not in per:
        return []
    reading = reading_of(enc.fight.rules.readings, ROW_STAT)
    noun = reading.label.lower() if reading is not None else ROW_STAT
    out: list[dict[str, Any]] = []
    for s, side in enumerate(roster.side_names):
        members = [c for c in range(roster.size) if roster.side[c] == s]
        values = sorted({int(per[ROW_STAT][0, c]) for c in members})
        lines = [
            {
                "label": f"{gm_hand.value_text(enc, ROW_STAT, v)} {noun}",
                "names": [roster.names[c] for c in members if int(per[ROW_STAT][0, c]) == v],
            }
            for v in values
        ]
        out.append({"side": side, "rows": lines})
    return out


def conditions(enc: Encounter) -> dict[str, list[str]]:
    """Each combatant's conditions now, in the game's words, as its card's chips (the game's `condition_stats` that
    are not 0, read by the game's `readings`: "Flat-Footed", "Grappling: Kulu", a status's or bonus's names)."""
    rules, per = enc.fight.rules, enc.state.per
    names = list(enc.fight.roster.names)
    out: dict[str, list[str]] = {}
    for c, name in enumerate(names):
        chips: list[str] = []
        for stat in rules.condition_stats:
            value = int(per[stat][0, c])
            reading = reading_of(rules.readings, stat)
            if reading is not None:
                chips.extend(chip_words(reading, stat, value, names, rules.narrate_value))
            elif value:
                chips.append(stat.replace("_", " "))
        out[name] = chips
    return out


# -- dice typed by hand ------------------------------------------------------------------------------------------
def _roles(enc: Encounter, actor: int, a: int, t: int) -> list[dict[str, Any]]:
    return [
        {"role": name, "label": role.label, "notation": role.notation, "sides": role.die_sides(), "scope": role.scope}
        for name, role in enc.fight.roles(actor, a, t).items()
    ]


def dice(enc: Encounter, attacker: str, attack: str | None, target: str) -> list[dict[str, Any]]:
    """The dice roles an attack rolls against `target`, for faces typed by hand: each role's name, its label in
    the rulebook's words (the game's `role_labels`), its dice in words, the sides of each die where every face
    is read as rolled (None: the role reads a varying number of faces, e.g. open rolls), whether it is rolled
    once per target or once per attack, and `when` it is needed ("always", "conditional": only after some faces
    of the others, "never"; engine/dice_needs)."""
    actor, a, t = enc.attack_of(attacker, attack, target)
    roles = _roles(enc, actor, a, t)
    if enc.over:
        return roles
    action = {"kind": "attack", "attacker": attacker, "attack": attack, "targets": [target]}
    when = when_needed(enc, action, roles)
    return [{**r, "when": when[r["role"]]} for r in roles]


def dice_needed(
    enc: Encounter, attacker: str, attack: str | None, targets: list[str], faces: Any
) -> list[str] | dict[str, list[str]]:
    """The roles still to roll by hand after `faces` (role -> faces typed so far): those whose faces would
    change what the attack does (a critical's dice after a Critical Hit); bad faces are an InputError on
    `dice.<role>`, as the attack itself would answer. Faces by target name (target -> role -> faces): per
    target, the roles its own roll still needs (errors on `dice.<target>.<role>`)."""
    action = {"kind": "attack", "attacker": attacker, "attack": attack, "targets": targets}
    enc.fork().act({**action, "dice": faces})  # refuses faces off their die, naming the role
    if not (faces and all(isinstance(v, dict) for v in faces.values())):
        return still_needed(enc, action, dice(enc, attacker, attack, targets[0]), faces)
    actor, a, _ = enc.attack_of(attacker, attack, targets[0])
    names = enc.fight.roster.names
    return {
        who: still_needed(
            enc,
            action,
            _roles(enc, actor, a, names.index(who)),
            given,
            (who, {k: v for k, v in faces.items() if k != who}),
        )
        for who, given in faces.items()
    }


def dice_answer(
    enc: Encounter, attacker: str, attack: str | None, targets: list[str], placement: str | None, faces: Any
) -> dict[str, Any]:
    """The dice route's answer: the roles against the first target, the creatures the attack rolls against
    (`targets`: each its own set of a role rolled per target, one set of a role rolled once per attack), and
    with `faces`, the roles they still call for (`dice_needed`). The targets are checked first as the attack
    checks them (more than it may take: an InputError on `targets`), never listed beyond what it can take."""
    enc.check_targets(attacker, attack, targets)
    found: dict[str, Any] = {"roles": dice(enc, attacker, attack, targets[0])}
    found["targets"] = enc.reached(attacker, attack, targets, placement) if not enc.over else list(targets)
    if faces is not None:
        found["needed"] = dice_needed(enc, attacker, attack, targets, faces)
    return found


# -- the map -----------------------------------------------------------------------------------------------------
def _map(enc: Encounter, attacker: str, attack: str | None, placement: dict[str, Any] | None) -> tuple[Any, Any, int]:
    """The game's map rules, the scenario of the attack on the fight's map, and the attacker's number."""
    actor, a, _ = enc.attack_of(attacker, attack, attacker)
    rules = enc.fight.system.map_rules()
    data = rules.fight_scenario(enc.fight, enc.state, actor, a, placement) if rules is not None else None
    if rules is None or data is None:
        raise InputError("this encounter has no map (its game has no map rules, or its fight no map)", field="map")
    return rules, data, actor


def map_view(enc: Encounter, attacker: str, attack: str | None, placement: dict[str, Any] | None) -> dict[str, Any]:
    """The fight's map as `tohit map --json` draws a scenario (the game's map rules): the board's size and
    solid squares, the creatures (their side and squares), the attack's range as placed by `placement` (its
    squares, the creatures it reaches, each creature's cover line), which fields place it, and the party's sight
    (`engine.vision`)."""
    rules, data, actor = _map(enc, attacker, attack, placement)
    view = rules.view(data, place=bool(placement))
    board, sides = view.field.board, enc.fight.roster.side_names
    rng = data["attack"]["range"]
    fields = [f for f in type(view.range).model_fields if f not in ("type", "size", "count", "within")]
    return {
        "width": board.width,
        "height": board.height,
        "solid": [[int(x), int(y)] for y, x in zip(*np.nonzero(board.solid), strict=True)],
        "walls": (board.walls / WALL_SCALE).tolist(),
        **map_extras(enc.fight),
        "creatures": [
            {
                "name": c.name,
                "side": sides[int(c.side)] if c.side.isdigit() else c.side,
                "size": c.size,
                "squares": [list(sq) for sq in c.footprint.squares()],
            }
            for c in view.field.creatures
        ],
        "attacker": enc.fight.roster.names[actor],
        "range_type": view.range.type,
        "placement_fields": fields,
        "placement": {k: rng[k] for k in fields if k in rng},
        **view.to_json(),
        "reached": list(view.reach.distinct) if view.reach is not None else [],
        "cover": {k: (c.to_json() if c is not None else None) for k, c in view.covers.items()},
        "sight": vision(enc).to_json(),  # the players' characters' sight: the GM's map outlines it
    }


def aim(enc: Encounter, attacker: str, attack: str | None, n: int) -> list[dict[str, Any]]:
    """`tohit aim` for the attack on the fight's map: the best `n` placements by exact expected damage to
    foes minus allies, each with its `placement` (the range's fields that place it, as the map route takes)."""
    rules, data, _ = _map(enc, attacker, attack, None)
    view = rules.view(data, place=False)
    fixed = ("type", "size", "count", "within")  # the range's own fields; the rest place it (as map_view)
    return [
        {**a.to_json(), "placement": a.reach.range.model_dump(mode="json", exclude_none=True, exclude=set(fixed))}
        for a in Aimer(data, view, rules).rank()[:n]
    ]


def measure(enc: Encounter, start: list[int], end: list[int]) -> int:
    """Squares from `start` to `end` on the fight's map, as the grid counts a range or a move between two squares
    (`count_121`: every second diagonal square counts two, as the ranges and moves count); a square off the board is
    an InputError naming `from` or `to`."""
    rules, data, _ = _map(enc, enc.fight.roster.names[0], None, None)
    board = rules.view(data, place=False).field.board
    for field, (x, y) in (("from", start), ("to", end)):
        if not (0 <= x < board.width and 0 <= y < board.height):
            raise InputError(f"[{x}, {y}] is off the map ({board.width} by {board.height} squares)", field=field)
    return count_121(end[0] - start[0], end[1] - start[1])


def exact(value: Any) -> Any:
    """Fractions (at any depth) as the CLI's JSON gives them."""
    if isinstance(value, Fraction):
        return fraction_json(value)
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value
