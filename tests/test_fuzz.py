"""The fuzz campaign, kept (issue 21 item 10): mutated bundled examples through the Python API, the fight
loader, replay and a sample of CLI invocations. Each gives a result or a clean error (`InputError`; on the
CLI exit 2 and one `error:` line), within time and memory limits.

`make test` runs a bounded number of examples per test (the `fuzz-quick` hypothesis profile); `make fuzz`
runs the long campaign (`--hypothesis-profile=fuzz`, registered in tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import copy
import json
import resource
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.fight import write_log
from tohit.core.errors import InputError
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.fight.replay import chained, replay
from tohit.engine.fight.run import narrate
from tohit.engine.odds import odds
from tohit.engine.roll import roll_many
from tohit.engine.scenario import from_dict
from tohit.engine.simulate import simulate

#: Per example: at most this long, and the process's peak memory grows by at most this much.
SECONDS = 60.0
MEMORY_GROWTH = 1500 * 2**20

SCENARIOS = sorted(p for p in EXAMPLES.glob("*/*.yaml") if p.parent.name != "fights")
FIGHTS = sorted((EXAMPLES / "fights").glob("*.yaml"))
LOADED = {p.name: yaml.safe_load(p.read_text()) for p in [*SCENARIOS, *FIGHTS]}


def profile() -> settings:
    """The examples a test runs: few in `make test`, many in `make fuzz`."""
    name = settings.get_current_profile_name()
    return settings(
        settings.get_profile("fuzz" if name == "fuzz" else "fuzz-quick"),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
    )


@contextmanager
def bounded() -> Iterator[None]:
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.perf_counter()
    yield
    elapsed = time.perf_counter() - start
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - before
    assert elapsed < SECONDS, f"took {elapsed:.1f} s"
    assert grown < MEMORY_GROWTH, f"peak memory grew by {grown / 2**20:.0f} MB"


# -- mutations ----------------------------------------------------------------------------------------------------
def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


ODD_VALUES = st.one_of(
    st.integers(-(10**6), 10**6),
    st.sampled_from([0, -1, 1, 2, 7, 99, 100, 101, 2**31, 2**63, -(2**63), 10**41, 10**5000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=12),
    st.sampled_from(["", "x" * 5000, "d6", "2d6+1", "1d0", "cut", "melee", "fire", "any_line", "first", "east"]),
    st.lists(st.integers(-3, 12), max_size=5),
    st.dictionaries(st.text(max_size=6), st.integers(-3, 12), max_size=3),
    st.builds(nested, st.sampled_from([40, 2000])),
)


def paths(value: Any) -> list[tuple[Any, ...]]:
    """Every place in a document (keys of mappings and indices of lists), 40 levels deep at most."""
    out: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, prefix = stack.pop()
        out.append(prefix)
        if len(prefix) >= 40:
            continue
        if isinstance(node, dict):
            stack.extend((v, (*prefix, k)) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, (*prefix, i)) for i, v in enumerate(node))
    return sorted(out, key=lambda p: (len(p), [str(x) for x in p]))


def mutate(doc: Any, data: st.DataObject) -> Any:
    """One mutation at a random place: a new value, a nudged number, a key removed or added, a list
    element doubled."""
    where = data.draw(st.sampled_from(paths(doc)))
    if not where:
        return data.draw(st.sampled_from([doc, [doc], 5, None, "kaiser"]))
    parent = doc
    for key in where[:-1]:
        parent = parent[key]
    key = where[-1]
    current = parent[key]
    op = data.draw(st.sampled_from(["replace", "nudge", "delete", "add", "double"]))
    if op == "nudge" and isinstance(current, int) and not isinstance(current, bool):
        parent[key] = data.draw(st.sampled_from([current + 1, current - 1, current * 10, -current, 0, current * 1000]))
    elif op == "delete" and isinstance(parent, dict):
        del parent[key]
    elif op == "add" and isinstance(current, dict):
        current[data.draw(st.sampled_from(["extra", "name", "dice", "options", "lp", "type"]))] = data.draw(ODD_VALUES)
    elif op == "double" and isinstance(current, list) and current:
        current.append(current[0])  # the same value twice, as a YAML alias gives it
    else:
        parent[key] = data.draw(ODD_VALUES)
    return doc


def mutated(name: str, data: st.DataObject) -> Any:
    doc = copy.deepcopy(LOADED[name])
    for _ in range(data.draw(st.integers(1, 3))):
        doc = mutate(doc, data)
    return doc


# -- the Python API -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["roll", "odds", "simulate"])
def test_fuzz_scenarios_through_the_python_api(kind: str) -> None:
    """Mutated bundled scenarios: `from_dict`, then roll, odds (depth 3) or simulate (500 attacks)."""

    @profile()
    @given(st.data())
    def run(data: st.DataObject) -> None:
        doc = mutated(data.draw(st.sampled_from([p.name for p in SCENARIOS])), data)
        with bounded():
            try:
                loaded = from_dict(doc, source="fuzz")
                if kind == "roll":
                    roll_many(loaded, 2, seed=1)
                elif kind == "odds":
                    odds(loaded, 3)
                else:
                    simulate(loaded, 500, seed=1)
            except InputError as exc:
                assert len(str(exc)) <= 1200

    run()


def test_fuzz_fights_through_the_fight_loader() -> None:
    """Mutated bundled fights: `fight_from_dict`, then (for short fights) one narrated fight."""

    @profile()
    @given(st.data())
    def run(data: st.DataObject) -> None:
        doc = mutated(data.draw(st.sampled_from([p.name for p in FIGHTS])), data)
        with bounded():
            try:
                fight = fight_from_dict(doc, source="fuzz")
                if fight.max_rounds <= 100 and len(fight.roster.names) <= 8:
                    narrate(fight, 1)
            except InputError as exc:
                assert len(str(exc)) <= 1200

    run()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    out = {}
    for path in FIGHTS[:4]:
        log = tmp_path_factory.mktemp("logs") / f"{path.stem}.jsonl"
        write_log(narrate(load_fight(path), 3), log)
        out[path.stem] = [json.loads(line) for line in log.read_text().splitlines()]
    return out


def test_fuzz_replay(logs: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    """Mutated event logs (a value changed, lines swapped, removed or doubled, the chain recomputed or not):
    replay rebuilds or gives an InputError."""

    @profile()
    @given(st.data())
    def run(data: st.DataObject) -> None:
        original = logs[data.draw(st.sampled_from(sorted(logs)))]
        events = copy.deepcopy(original)
        op = data.draw(st.sampled_from(["value", "swap", "remove", "double"]))
        i = data.draw(st.integers(0, len(events) - 1))
        j = data.draw(st.integers(0, len(events) - 1))
        if op == "value":
            events[i] = mutate(events[i], data)
        elif op == "swap":
            events[i], events[j] = events[j], events[i]
        elif op == "remove":
            del events[i]
        else:
            events.insert(i, copy.deepcopy(events[j]))
        if data.draw(st.booleans()):  # a forger who recomputes the chain
            events = [e if not isinstance(e, dict) else {k: v for k, v in e.items() if k != "prev"} for e in events]
            if all(isinstance(e, dict) for e in events):
                with contextlib.suppress(ValueError, RecursionError):  # too long or deep to hash: left unchained
                    events = list(chained(events))
        path = tmp_path / "fuzz.jsonl"
        try:
            path.write_text("".join(json.dumps(e) + "\n" for e in events))
        except (ValueError, RecursionError):  # too long or too deep for json.dumps: written by hand
            path.write_text(json.dumps(original[0]) + '\n{"kind": "x", "n": ' + "9" * 5000 + "}\n")
        with bounded():
            try:
                replay(path)
            except InputError as exc:
                assert len(str(exc)) <= 1200

    run()


# -- a sample of CLI invocations ----------------------------------------------------------------------------------
def text_mutation(text: str, data: st.DataObject) -> str:
    """A mutated file: characters removed, inserted or replaced, a line doubled or removed."""
    op = data.draw(st.sampled_from(["delete", "insert", "line", "drop", "value"]))
    if not text:
        return text
    i = data.draw(st.integers(0, len(text) - 1))
    if op == "delete":
        return text[:i] + text[i + data.draw(st.integers(1, 8)) :]
    if op == "insert":
        return (
            text[:i]
            + data.draw(st.sampled_from(["{", "[", "&a ", "*a", ":", "- ", "\t", "9" * 50, "'", "\n"]))
            + text[i:]
        )
    lines = text.splitlines(keepends=True)
    k = data.draw(st.integers(0, len(lines) - 1))
    if op == "line":
        return "".join([*lines[: k + 1], lines[k], *lines[k + 1 :]])
    if op == "drop":
        return "".join([*lines[:k], *lines[k + 1 :]])
    doc = yaml.safe_load(text)
    if doc is None:
        return text
    try:
        return yaml.safe_dump(mutate(doc, data))
    except (RecursionError, ValueError):  # too deep or too long for the dumper: a mutation written by hand
        return text + "extra: " + "[" * 2000 + "]" * 2000 + "\n"


def test_fuzz_cli_invocations(tmp_path: Path) -> None:
    """Mutated example files through `roll`, `odds`, `simulate`, `map`, `aim` and `fight`: exit 0, or
    exit 2 with exactly one `error:` line, never a traceback."""

    @profile()
    @given(st.data())
    def run(data: st.DataObject) -> None:
        source = data.draw(st.sampled_from([*SCENARIOS, *FIGHTS]))
        try:
            text = text_mutation(source.read_text(), data)
        except yaml.YAMLError:
            text = source.read_text()[:-3]
        path = tmp_path / source.name
        path.write_text(text)
        if source.parent.name == "fights":
            args = ["fight", str(path), "--seed", "1", "--json"]
        else:
            command = data.draw(st.sampled_from(["roll", "odds", "simulate", "map", "aim"]))
            args = [command, str(path), *({"simulate": ["-n", "300", "--seed", "1"]}.get(command, []))]
            args += ["--json"] if command not in ("map", "aim") else []
        with bounded():
            result = CliRunner().invoke(app, args)
        if result.exit_code == 0:
            return
        lines = [line for line in result.output.splitlines() if line.strip()]
        assert result.exit_code == 2, (args, result.output[-3000:], result.exception)
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.output[-3000:])

    run()
