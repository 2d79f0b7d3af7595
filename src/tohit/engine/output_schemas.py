"""The JSON Schemas (2020-12) of what `--json` prints (`tohit schema SYSTEM --output KIND`).

One schema per output: `roll`, `odds`, `simulate` (a scenario's), `fight` (one narrated fight), `fights` (`fight
-n`), `exact` (`fight --exact`) and `replay`. A system's outcome fields (its `fields`) are named in the schemas
of its outputs; a system's extra keys (e.g. a grid's squares and cover, `scenario_json` / `target_json`) are
allowed beside the keys every system prints. A missing value is JSON null.
"""

from __future__ import annotations

from typing import Any

from tohit.core.models import SCHEMA_DIALECT
from tohit.core.system import AnySystem

KINDS = ("roll", "odds", "simulate", "fight", "fights", "exact", "replay")

INT = {"type": "integer"}
NUM = {"type": "number"}
STR = {"type": "string"}
SCALAR = {"type": ["string", "number", "integer", "boolean", "null"]}
#: An exact probability: "p/q" and its float; a fraction too long to write has null, a decimal and digit counts.
EXACT = {
    "type": "object",
    "required": ["fraction", "float"],
    "properties": {
        "fraction": {"type": ["string", "null"], "pattern": "^[0-9]+/[0-9]+$"},
        "float": NUM,
        "decimal": STR,
        "digits": {"type": "array", "items": INT, "minItems": 2, "maxItems": 2},
    },
    "additionalProperties": False,
}
CI = {"type": "array", "items": NUM, "minItems": 2, "maxItems": 2}
COUNTED: dict[str, Any] = {
    "type": "object",
    "required": ["count", "p", "ci95"],
    "properties": {"count": INT, "p": NUM, "ci95": CI},
    "additionalProperties": False,
}
#: A distribution keyed by value as text (JSON keys are text; a missing value is the key "null").
EXACT_BY_VALUE = {"type": "object", "additionalProperties": EXACT}


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None, *, closed: bool = True) -> dict[str, Any]:
    return {
        "type": "object",
        "required": list(required),
        "properties": {**required, **(optional or {})},
        "additionalProperties": not closed,
    }


def _outcome(system: AnySystem) -> dict[str, Any]:
    """One attack's outcome row: the system's fields (scalars), and any extra keys it prints."""
    return _obj({f.name: SCALAR for f in system.fields}, closed=False)


def output_schema(system: AnySystem, kind: str) -> dict[str, Any]:
    """The JSON Schema of `kind`'s `--json` output for `system` (KeyError for an unknown kind)."""
    body = _BUILDERS[kind](system)
    return {"$schema": SCHEMA_DIALECT, "title": f"tohit {kind} --json ({system.id})", **body}


def _roll(system: AnySystem) -> dict[str, Any]:
    one = _obj(
        {
            "system": {"const": system.id},
            "seed": INT,
            "targets": {"type": "array", "items": {**_outcome(system), "required": ["name"]}},
            "dice": {"type": "object", "additionalProperties": {"type": "object"}},
            "trace": {
                "type": "array",
                "items": _obj({"target": STR, "step": STR, "text": STR, "clause": STR}, {"value": {}}),
            },
        },
        closed=False,
    )
    many = _obj({"system": {"const": system.id}, "seed": INT, "times": INT, "rolls": {"type": "array", "items": one}})
    return {"anyOf": [one, many]}


def _odds(system: AnySystem) -> dict[str, Any]:
    target = _obj(
        {
            "name": STR,
            "result": EXACT_BY_VALUE,
            "damage": EXACT_BY_VALUE,
            "mean_damage": EXACT,
            "beyond_depth": EXACT,
            "fields": _obj({}, {f.name: EXACT_BY_VALUE for f in system.fields}),
        },
        closed=False,
    )
    return _obj(
        {"system": {"const": system.id}, "depth": INT, "targets": {"type": "array", "items": target}}, closed=False
    )


def _simulate(system: AnySystem) -> dict[str, Any]:
    damage = _obj(
        {
            "mean": NUM,
            "sd": NUM,
            "percentiles": {"type": "object", "additionalProperties": INT},
            "histogram": {"type": "object", "additionalProperties": INT},
        }
    )
    target = _obj(
        {
            "name": STR,
            "n": INT,
            "result": {"type": "object", "additionalProperties": COUNTED},
            "damage": damage,
            "fields": _obj({}, {f.name: {"type": "object", "additionalProperties": NUM} for f in system.fields}),
        },
        closed=False,
    )
    return _obj(
        {
            "system": {"const": system.id},
            "n": INT,
            "seed": INT,
            "method": {"enum": ["table", "direct"]},
            "targets": {"type": "array", "items": target},
        },
        closed=False,
    )


STATE = _obj(
    {
        "fight": {"type": "object", "additionalProperties": INT},
        "combatants": {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": INT}},
    }
)
CHANGE = _obj({"who": {"type": ["string", "null"]}, "stat": STR, "from": INT, "to": INT})
EVENT = _obj(
    {"kind": STR, "text": STR, "changes": {"type": "array", "items": CHANGE}, "n": INT},
    {"state": STATE, "winner": {"type": ["string", "null"]}, "rounds": INT, "prev": STR},
    closed=False,
)


def _fight(system: AnySystem) -> dict[str, Any]:
    return _obj(
        {
            "seed": INT,
            "winner": {"type": ["string", "null"]},
            "rounds": INT,
            "events": {"type": "array", "items": EVENT, "minItems": 2},
        }
    )


def _fights(system: AnySystem) -> dict[str, Any]:
    combatant = _obj(
        {
            "name": STR,
            "side": STR,
            "survives": COUNTED,
            "health_if_standing": {"type": ["number", "null"]},
            "health_mean": NUM,
            "damage_dealt_mean": NUM,
        }
    )
    rounds = _obj({"mean": NUM, "sd": NUM, "percentiles": {"type": "object", "additionalProperties": INT}})
    return _obj(
        {
            "system": {"const": system.id},
            "n": INT,
            "seed": INT,
            "max_rounds": INT,
            "health": STR,
            "sides": {
                "type": "array",
                "items": {
                    **COUNTED,
                    "required": ["name", "count", "p", "ci95"],
                    "properties": {**COUNTED["properties"], "name": STR},
                },
            },
            "draws": COUNTED,
            "rounds": rounds,
            "combatants": {"type": "array", "items": combatant},
        }
    )


def _exact(system: AnySystem) -> dict[str, Any]:
    return _obj(
        {
            "system": {"const": system.id},
            "sides": {"type": "array", "items": _obj({"name": STR, "p": EXACT})},
            "draw": EXACT,
            "never_ends": EXACT,
            "beyond_depth": EXACT,
            "expected_rounds": {"anyOf": [EXACT, {"type": "null"}]},
            "states": INT,
            "depth": INT,
            "stalemate": {"type": ["string", "null"]},
        }
    )


def _replay(system: AnySystem) -> dict[str, Any]:
    return _obj(
        {
            "events": INT,
            "until": INT,
            "state": STATE,
            "matches_recorded_end": {"type": "boolean"},
            "mismatches": {"type": "array", "items": STR},
            "finished": {"type": "boolean"},
            "standing": {"type": ["string", "null"]},
        }
    )


_BUILDERS = {
    "roll": _roll,
    "odds": _odds,
    "simulate": _simulate,
    "fight": _fight,
    "fights": _fights,
    "exact": _exact,
    "replay": _replay,
}
