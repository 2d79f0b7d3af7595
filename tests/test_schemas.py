"""`tohit schema SYSTEM` and `tohit schema SYSTEM --fight` are standard JSON Schemas (2020-12) that accept what
the loader accepts (issue 20, item 2), checked with the `jsonschema` package:

- every bundled example and every starter file (`tohit new`) is valid;
- a hypothesis stream of mutated examples: whatever the loader accepts, the schema accepts;
- invalid files (an unknown field; true/false or text for a number; a number or text for true/false; a
  value outside a closed list) are refused by both (a field that takes a number or a flag, such as Last
  Odyssey's `shell`, is accepted by both).

The schema leaves to the loader only the checks across fields that a schema cannot state (unique names,
forced faces that fit a role's dice, a field one rule needs given another).
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tests.test_fuzz import mutated
from tohit.cli.app import app
from tohit.core.errors import InputError
from tohit.engine import registry
from tohit.engine.fight.load import fight_from_dict
from tohit.engine.scenario import from_dict

SCENARIOS = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.parent.name != "fights")
FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))
LOADED = {p.name: yaml.safe_load(p.read_text()) for p in [*SCENARIOS, *FIGHTS]}
SYSTEMS = sorted(registry.systems())
STREAM = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@cache
def schema(system: str, fight: bool) -> jsonschema.Draft202012Validator:
    """The schema as the CLI prints it."""
    result = CliRunner().invoke(app, ["schema", system, *(["--fight"] if fight else [])])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    jsonschema.Draft202012Validator.check_schema(found)
    return jsonschema.Draft202012Validator(found)


def load(doc: Any, fight: bool) -> bool:
    """Whether the loader accepts `doc` (any refusal is an InputError)."""
    try:
        (fight_from_dict if fight else from_dict)(doc, source="schema-test")
    except InputError:
        return False
    return True


def as_json(doc: Any) -> bool:
    """Whether `doc` is plain JSON (a mutation may make NaN or nest past Python's recursion limit)."""
    try:
        json.dumps(doc, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return False
    return isinstance(doc, dict)


@pytest.mark.parametrize("path", [*SCENARIOS, *FIGHTS], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_example_is_valid(path: Path) -> None:
    doc = LOADED[path.name]
    errors = list(schema(doc["system"], path.parent.name == "fights").iter_errors(doc))
    assert not errors, [f"{e.json_path}: {e.message[:200]}" for e in errors[:3]]


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("fight", [False, True], ids=["scenario", "fight"])
def test_every_starter_is_valid(system: str, fight: bool) -> None:
    text = registry.get(system).starter(fight=fight)
    if text is None:
        pytest.skip(f"{system} ships no starter")
    doc = yaml.safe_load(text)
    assert load(doc, fight)
    errors = list(schema(system, fight).iter_errors(doc))
    assert not errors, [f"{e.json_path}: {e.message[:200]}" for e in errors[:3]]


def test_the_schema_names_its_system_and_dialect() -> None:
    found = schema("kaiser", True).schema
    assert found["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert found["properties"]["system"]["const"] == "kaiser"
    assert "options" not in found.get("required", [])


@pytest.mark.parametrize("fight", [False, True], ids=["scenarios", "fights"])
def test_what_the_loader_accepts_the_schema_accepts(fight: bool) -> None:
    """A stream of mutated examples: every one the loader accepts is valid under the schema (the stream
    must hold accepted and refused files both)."""
    seen = {True: 0, False: 0}

    @STREAM
    @given(st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from([p.name for p in (FIGHTS if fight else SCENARIOS)]))
        doc = mutated(name, data)
        if not as_json(doc):
            return
        accepted = load(doc, fight)
        seen[accepted] += 1
        if accepted:
            errors = list(schema(LOADED[name]["system"], fight).iter_errors(doc))
            assert not errors, [f"{e.json_path}: {e.message[:200]}" for e in errors[:3]]

    run()
    assert seen[True] and seen[False], seen


def _leaves(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    out: list[tuple[tuple[Any, ...], Any]] = [(prefix, doc)]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_leaves(v, (*prefix, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_leaves(v, (*prefix, i)))
    return out


def _set(doc: Any, where: tuple[Any, ...], value: Any) -> None:
    for key in where[:-1]:
        doc = doc[key]
    doc[where[-1]] = value


def _wrong(data: st.DataObject, doc: Any) -> bool:
    """Make `doc` invalid in one place; False when it has no place of the drawn kind."""
    kind = data.draw(st.sampled_from(["unknown field", "number", "flag", "closed list"]))
    places = _leaves(doc)
    if kind == "unknown field":
        # A mapping of fields with a name (not one keyed by names, such as `dice` or `armor`), or the file.
        maps = [w for w, v in places if (isinstance(v, dict) and "name" in v) or w == ()]
        where = data.draw(st.sampled_from(maps))
        target = doc
        for key in where:
            target = target[key]
        target["no_such_field"] = data.draw(st.sampled_from([1, "x", True, None]))
        return True
    if kind == "number":
        numbers = [w for w, v in places if isinstance(v, int) and not isinstance(v, bool) and w]
        if not numbers:
            return False
        _set(doc, data.draw(st.sampled_from(numbers)), data.draw(st.sampled_from([True, False, "5", "1/2", "x"])))
        return True
    if kind == "flag":
        flags = [w for w, v in places if isinstance(v, bool) and w]
        if not flags:
            return False
        _set(doc, data.draw(st.sampled_from(flags)), data.draw(st.sampled_from([0, 1, "yes", "true"])))
        return True
    words = [w for w, v in places if isinstance(v, str) and w and w[-1] in ("range", "policy", "kind", "rounding")]
    if not words:
        return False
    _set(doc, data.draw(st.sampled_from(words)), "no-such-value")
    return True


@pytest.mark.parametrize("fight", [False, True], ids=["scenarios", "fights"])
def test_invalid_files_are_refused_by_both(fight: bool) -> None:
    @STREAM
    @given(st.data())
    def run(data: st.DataObject) -> None:
        name = data.draw(st.sampled_from([p.name for p in (FIGHTS if fight else SCENARIOS)]))
        doc = copy.deepcopy(LOADED[name])
        if not _wrong(data, doc):
            return
        accepted = load(doc, fight)
        valid = schema(LOADED[name]["system"], fight).is_valid(doc)
        # A fight's rules may refuse more (e.g. a Shell given as true in a fight): a check across fields.
        assert accepted == valid or (fight and valid and not accepted), (
            f"loader {'accepts' if accepted else 'refuses'}, schema {'accepts' if valid else 'refuses'}"
        )
        accepted = valid
        seen[accepted] += 1

    seen = {True: 0, False: 0}
    run()
    assert seen[False] > seen[True], seen  # mostly refused: a field that takes a number or a flag both is rare
