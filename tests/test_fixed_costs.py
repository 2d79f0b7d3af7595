"""Fixed costs (issue 19): what the engine keeps per validated scenario is reused, and only for that scenario; a
kept roll is the roll the dice give; commands import only what they use."""

from __future__ import annotations

import copy
import gc
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import EXAMPLES
from tohit.cli.demo import scenario_files
from tohit.core.system import AnySystem, Dice
from tohit.engine import joint, memo
from tohit.engine.odds import odds
from tohit.engine.roll import _roll_batch, roll, roll_many
from tohit.engine.roll_rows import scenario_rows
from tohit.engine.scenario import from_dict, load

SWORD = {"name": "sword", "attack_power": 5, "acc": 3, "damage_type": "sharp", "crit_range": 1}
BASIC: dict[str, Any] = {
    "system": "rtw",
    "attacker": {"accuracy": 2, "combat": 3, "weapon": SWORD},
    "attack": {"name": "Strike", "kind": "basic", "damage": {"trait": "combat", "multiplier": 2}},
    "targets": [
        {"name": "Bokoblin", "evasion": 12, "vitality": 12, "defense": 2, "health": 14, "hearts": 4},
        {"name": "Knight", "evasion": 9, "vitality": 14, "defense": 5, "reaction": "deflect"},
    ],
}


def other(data: dict[str, Any]) -> dict[str, Any]:
    """The same attack by a more accurate attacker: another scenario."""
    return {**data, "attacker": {**data["attacker"], "accuracy": data["attacker"]["accuracy"] + 1}}


class Counted:
    """Counts the calls of a system's `resolve` (and the rows it was given)."""

    def __init__(self, system: AnySystem, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[int] = []
        original = system.resolve

        def resolve(scenario: Any, target: Any, dice: Dice, steps: Any) -> Any:
            out = original(scenario, target, dice, steps)
            self.calls.append(out.n)
            return out

        monkeypatch.setattr(system, "resolve", resolve)


def test_roll_resolves_a_scenario_once_per_combination_then_reuses_its_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = from_dict(copy.deepcopy(BASIC))
    memo.clear(loaded.scenario)
    counted = Counted(loaded.system, monkeypatch)
    roll(loaded, seed=1)
    assert counted.calls == [1, 1]  # the first roll: one resolution per target
    roll(loaded, seed=2)
    assert counted.calls == [1, 1, 11, 11]  # the second: each target's 11 To-Hit totals, resolved in one pass
    for seed in range(3, 60):
        roll(loaded, seed=seed)
    assert len(counted.calls) == 4  # every later roll finds its rows
    roll(from_dict(other(BASIC)), seed=1)
    assert counted.calls[4:] == [1, 1]  # another scenario has rows of its own


def test_a_kept_roll_is_the_roll_its_dice_give() -> None:
    """Every example, cold and warm, at many seeds: the same JSON (dice, rows, trace) as resolving the drawn
    dice directly."""
    for path in scenario_files(EXAMPLES):
        loaded = load(path)
        memo.clear(loaded.scenario)
        for seed in range(12):
            direct = _roll_batch(loaded, 1, np.random.default_rng(seed), seed)[0]
            assert roll(loaded, seed=seed).to_json() == direct.to_json(), (path, seed)


def test_a_kept_trace_tells_each_rolls_own_faces() -> None:
    """Two rolls with the same total share a row, but each trace names its own faces."""
    data = copy.deepcopy(BASIC)
    data["targets"] = data["targets"][:1]
    one = roll(from_dict({**data, "dice": {"to_hit": [3, 4]}}), seed=1)
    two = roll(from_dict({**data, "dice": {"to_hit": [5, 2]}}), seed=1)
    assert one.targets[0].row == two.targets[0].row
    texts = [" ".join(s.text for s in r.targets[0].steps) for r in (one, two)]
    assert "(3, 4)" in texts[0] and "(5, 2)" in texts[1] and "(5, 2)" not in texts[0]
    assert "\x00" not in texts[0] + texts[1]


def test_odds_keep_the_joint_table_of_their_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    original = joint.build

    def counting(system: Any, scenario: Any, target: Any, *args: Any, **kwargs: Any) -> joint.JointTable:
        built.append(target.name)
        return original(system, scenario, target, *args, **kwargs)

    monkeypatch.setattr(joint, "build", counting)
    loaded = from_dict(copy.deepcopy(BASIC))
    memo.clear(loaded.scenario)
    first = odds(loaded).to_json()
    assert built == ["Bokoblin", "Knight"]
    assert odds(loaded).to_json() == first and len(built) == 2
    odds(from_dict(other(BASIC)))
    assert built[2:] == ["Bokoblin", "Knight"]


def test_from_dict_validates_a_document_once() -> None:
    a = from_dict(copy.deepcopy(BASIC), source="doc")
    assert from_dict(copy.deepcopy(BASIC), source="doc") is a
    assert from_dict(other(BASIC), source="doc") is not a
    assert from_dict(copy.deepcopy(BASIC), source="elsewhere") is not a


def test_the_engines_memo_goes_with_its_model() -> None:
    class Model:
        pass

    model = Model()
    memo.memo(model)["x"] = 1
    assert memo.memo(model) == {"x": 1}
    key = id(model)
    del model
    gc.collect()
    assert key not in memo._MEMOS


def _modules_after(argv: list[str]) -> set[str]:
    """The modules a `tohit` command imports, run in a process of its own."""
    code = (
        "import json, sys\n"
        "from tohit.cli.app import main\n"
        f"sys.argv = ['tohit', *{argv!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


def _loaded(modules: set[str], *prefixes: str) -> list[str]:
    return sorted(m for m in modules if m.startswith(prefixes))


def test_help_imports_neither_numpy_nor_pydantic_nor_the_engine() -> None:
    modules = _modules_after(["--help"])
    assert not _loaded(modules, "numpy", "pydantic", "yaml", "tohit.engine.scenario", "tohit.systems.")


def test_roll_imports_only_what_a_roll_uses(examples: Path) -> None:
    path = examples / "kaiser" / "ceil-vs-bandit.yaml"
    modules = _modules_after(["roll", str(path), "--seed", "1"])
    assert "tohit.engine.roll" in modules and "tohit.systems.kaiser" in modules
    unused = ("matplotlib", "fastapi", "sqlalchemy", "uvicorn", "tohit.server", "tohit.engine.fight")
    # The server's settings are the defaults of `tohit serve`'s flags, read when the command line declares them: a
    # module of the standard library only (fastapi, uvicorn and the rest of the server stay unloaded, as checked).
    light = {"tohit.server", "tohit.server.settings"}
    found = _loaded(modules, *unused, "tohit.engine.simulate", "tohit.cli.grid_draw", "tohit.cli.fight_views")
    assert not [m for m in found if m not in light]
    others = {m.split(".")[2] for m in _loaded(modules, "tohit.systems.")}
    assert others == {"kaiser"}  # every registered game is tohit's own: the others are not loaded


def test_roll_times_on_a_tiny_support_looks_its_rows_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--times N` of a scenario whose every combination is kept: one pass fills the rows, then no `resolve`."""
    loaded = from_dict(copy.deepcopy(BASIC))
    memo.clear(loaded.scenario)
    counted = Counted(loaded.system, monkeypatch)
    first = [r.to_json() for r in roll_many(loaded, 300, seed=5)]
    assert counted.calls == [11, 11]
    assert [r.to_json() for r in roll_many(loaded, 300, seed=5)] == first and len(counted.calls) == 2


def test_a_kept_batch_is_the_batch_its_dice_give() -> None:
    """Every example whose game traces a batch: `roll --times` from the kept rows (where the support is tiny)
    gives the JSON of the vectorised batch on the same dice."""
    kept = 0
    for path in scenario_files(EXAMPLES):
        loaded = load(path)
        if not loaded.system.batch_trace:
            continue
        memo.clear(loaded.scenario)
        kept += all(t.complete() for t in scenario_rows(loaded).targets)
        for seed in range(3):
            direct = _roll_batch(loaded, 25, np.random.default_rng(seed), seed)
            assert [r.to_json() for r in roll_many(loaded, 25, seed)] == [r.to_json() for r in direct], (path, seed)
    assert kept >= 5  # the kept path was taken
