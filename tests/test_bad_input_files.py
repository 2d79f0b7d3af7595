"""Bad input, second round (issue 21): what a fuzz campaign broke. Each reproducer gives `InputError`, or exit
code 2 and one `error:` line, in seconds and in little memory."""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console
from typer.testing import CliRunner

from tests.conftest import EXAMPLES
from tohit.cli.app import app
from tohit.cli.fight_views import exact_view
from tohit.cli.output import write_file
from tohit.core import loader
from tohit.core.errors import MAX_QUOTE, InputError, short_repr
from tohit.core.exact_text import MAX_FRACTION_DIGITS, digit_count, fraction_json, fraction_text
from tohit.engine.fight.exact import ExactResult
from tohit.engine.fight.load import fight_from_dict, load_fight
from tohit.engine.scenario import from_dict

CEIL = EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml"
DUEL = EXAMPLES / "fights" / "kaiser-duel.yaml"
GRID = EXAMPLES / "rtw" / "grid-cone-behind-pillar.yaml"
#: Every refusal below: within this many seconds of this process's CPU (its own work: not the wall clock, which
#: other work on the machine stretches) and this much memory (Python's and numpy's allocations).
SECONDS = 10.0
MEMORY = 200 * 2**20


@contextmanager
def bounded(seconds: float = SECONDS, memory: int = MEMORY) -> Iterator[None]:
    tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        elapsed = time.process_time() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert elapsed < seconds, f"took {elapsed:.1f} s"
    assert peak < memory, f"peaked at {peak / 2**20:.0f} MB"


def refused(*args: str, needle: str = "") -> str:
    """Run the CLI: exit 2 and exactly one short `error:` line (containing `needle`), in bounds."""
    with bounded():
        result = CliRunner().invoke(app, list(args))
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output[-2000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output[-2000:]
    assert len(lines[0]) < 600, lines[0][:600]
    assert needle in lines[0], lines[0]
    return lines[0]


def raises(action: Callable[[], Any], needle: str = "") -> InputError:
    with bounded(), pytest.raises(InputError) as caught:
        action()
    assert len(str(caught.value)) < 600
    assert needle in str(caught.value), str(caught.value)
    return caught.value


def ceil() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(CEIL.read_text())
    return data


def bomb(levels: int, leaf: str = "lol") -> str:
    """A YAML flow list of `levels` anchors, each nine aliases of the one before: 9**levels values."""
    parts = [f"&l0 [{', '.join([leaf] * 9)}]"]
    parts += [f"&l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "[" + ", ".join(parts) + "]"


# -- 1. integers over 4,300 digits -------------------------------------------------------------------------------
def test_integer_over_4300_digits_in_yaml_is_refused_naming_the_line(tmp_path: Path) -> None:
    """Integers over 4,300 digits raise Python's int-to-str ValueError ... in the YAML parser on the CLI."""
    path = tmp_path / "big.yaml"
    path.write_text(CEIL.read_text().replace("offensive_skill: 12", "offensive_skill: " + "9" * 5000))
    refused("roll", str(path), needle="an integer of 5,000 digits; the cap is 40 digits")
    assert "line " in refused("odds", str(path))


def test_integer_over_4300_digits_in_json_is_refused(tmp_path: Path) -> None:
    """... and in the JSON parser."""
    path = tmp_path / "big.json"
    data = ceil()
    path.write_text(json.dumps(data).replace('"offensive_skill": 12', '"offensive_skill": ' + "9" * 5000))
    refused("roll", str(path), needle="an integer of 5,000 digits")


def test_integer_cap_holds_for_hex_and_for_the_python_api(tmp_path: Path) -> None:
    """Cap number sizes at load: a hex literal, and a mapping given to the Python API, in the registry's
    field (`system`) and in the dice roles' forced faces."""
    path = tmp_path / "hex.yaml"
    path.write_text(CEIL.read_text() + "seed: 0x" + "f" * 300 + "\n")
    refused("roll", str(path), needle="the cap is 40 digits")
    raises(lambda: from_dict({**ceil(), "system": 10**5000}), "system")
    data = ceil()
    data["targets"][0]["dice"]["offense"] = [10**5000, 1]
    assert raises(lambda: from_dict(data)).field == "targets[0].dice.offense[0]"
    data = ceil()
    data["attacker"]["offensive_skill"] = 10**41
    raises(lambda: from_dict(data), "the cap is 40 digits")


def test_integer_over_4300_digits_in_a_fight_file_is_refused(tmp_path: Path) -> None:
    """The fight loader: the same cap."""
    path = tmp_path / "fight.yaml"
    path.write_text(DUEL.read_text().replace("lp: 40", "lp: " + "4" * 5000, 1))
    refused("fight", str(path), needle="the cap is 40 digits")
    data = yaml.safe_load(DUEL.read_text())
    data["max_rounds"] = 10**5000
    raises(lambda: fight_from_dict(data), "the cap is 40 digits")


def test_huge_exact_fractions_print_as_decimals_and_digit_counts() -> None:
    """`fight --exact` printing a fraction with over 4,300 digits: printed as a decimal or by its digit count,
    `--json` too (`fraction` null, `decimal` and `digits` beside the float)."""
    p = Fraction(7**6000, 7**6000 * 2 + 1)
    assert digit_count(p.denominator) == 5071 > 4300
    assert fraction_text(p) == "4.9999999999999999999e-01 (exact fraction of 5,071/5,071 digits)"
    out = fraction_json(p)
    assert out["fraction"] is None and out["decimal"] == "4.9999999999999999999e-01" and out["digits"] == [5071, 5071]
    assert abs(out["float"] - 0.5) < 1e-12
    assert fraction_json(Fraction(1, 3)) == {"fraction": "1/3", "float": 1 / 3}
    assert len(fraction_text(Fraction(1, 10**MAX_FRACTION_DIGITS))) < 80
    fight = load_fight(DUEL)
    result = ExactResult(fight, [p, 1 - p], Fraction(0), Fraction(0), Fraction(0), p * 7, 10, 8)
    with bounded():
        text = json.dumps(result.to_json())
        console = Console(width=100, record=True)
        console.print(exact_view(result))
    assert '"fraction": null' in text
    assert "digit denominator" in console.export_text()


def test_digit_count_matches_the_text() -> None:
    for n in (0, 1, 9, 10, 99, 100, 10**40 - 1, 10**40, 2**4000, 10**4000):
        assert digit_count(n) == len(str(n))


# -- 2. error messages quote a short value; deep nesting refused first -------------------------------------------
def test_alias_bomb_in_system_gives_a_short_error_line(tmp_path: Path) -> None:
    """A 406-byte YAML alias bomb in `system:` ... before it prints a multi-megabyte error line."""
    path = tmp_path / "bomb.yaml"
    path.write_text(CEIL.read_text().replace("system: kaiser", "system: " + bomb(6)))
    assert path.stat().st_size < 1000
    line = refused("roll", str(path), needle="unknown system")
    assert len(line) < 300


def test_alias_bomb_is_refused_before_it_is_expanded(tmp_path: Path) -> None:
    """Aliases that stand for more than MAX_VALUES values are refused while the file is read."""
    path = tmp_path / "bomb.yaml"
    path.write_text(CEIL.read_text().replace("system: kaiser", "system: kaiser\nextra: " + bomb(9)))
    refused("roll", str(path), needle=f"more than {loader.MAX_VALUES:,} values")


def test_rtw_cover_rule_alias_bomb_gives_a_short_error_line(tmp_path: Path) -> None:
    """rtw `options.cover_rule` does the same."""
    data = yaml.safe_load(GRID.read_text())
    data.setdefault("options", {})["cover_rule"] = "PLACEHOLDER"
    path = tmp_path / "cover.yaml"
    path.write_text(yaml.safe_dump(data).replace("PLACEHOLDER", bomb(6)))
    line = refused("roll", str(path), needle="cover_rule")
    assert len(line) < 300
    refused("map", str(path), needle="cover_rule")


def test_nesting_past_the_cap_is_refused_with_its_line(tmp_path: Path) -> None:
    """Nesting over a fixed depth is refused before anything walks it: YAML at the line, JSON and the Python
    API with the field."""
    path = tmp_path / "deep.yaml"
    path.write_text(CEIL.read_text() + "extra: " + "[" * 200 + "]" * 200 + "\n")
    refused("roll", str(path), needle=f"nested more than {loader.MAX_DEPTH} deep")
    path = tmp_path / "deep.json"
    path.write_text('{"system": "kaiser", "extra": ' + "[" * 50_000 + "]" * 50_000 + "}")
    refused("roll", str(path), needle="nested more than")
    deep: Any = 1
    for _ in range(5000):
        deep = [deep]
    assert raises(lambda: from_dict({**ceil(), "options": {"x": deep}})).field is not None


def test_short_repr_never_expands_a_huge_value() -> None:
    """Quote at most a short, truncated repr of any value."""
    shared: list[Any] = ["lol"] * 9
    for _ in range(30):
        shared = [shared] * 9
    cyclic: list[Any] = []
    cyclic.append(cyclic)
    for value in (shared, cyclic, "x" * 10**7, 10**100_000, {"a": shared}, b"y" * 10**6):
        with bounded(seconds=1.0):
            text = short_repr(value)
        assert len(text) <= MAX_QUOTE + 2, text
    assert short_repr("abc") == "'abc'" and short_repr([1, 2]) == "[1, 2]"
    assert short_repr(10**5000) == "<an integer of about 5,000 digits>"


def test_error_messages_are_capped_as_a_backstop() -> None:
    assert len(InputError("x" * 10**6).message) <= 1000


# -- 3. special files ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["roll", "odds", "simulate", "fight", "replay", "map", "aim"])
def test_a_fifo_is_refused_at_once(tmp_path: Path, command: str) -> None:
    """A FIFO given as the scenario file blocks forever (this applies to `replay` too): refuse a file that is
    not a regular file."""
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    refused(command, str(fifo), needle="is not a regular file (a FIFO)")


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
@pytest.mark.parametrize("command", ["roll", "fight", "replay"])
def test_devices_are_refused_without_reading_them(device: str, command: str) -> None:
    """/dev/zero and /dev/urandom grow to 3.6-3.7 GB, because the size check trusts st_size."""
    refused(command, device, needle="a character device")


def test_at_most_the_cap_plus_one_byte_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read at most the cap plus one byte, from any file."""
    path = tmp_path / "big.yaml"
    path.write_text("a: 1\n" * 300)
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 1000)
    read: list[int] = []
    real = os.read

    def counting(fd: int, n: int) -> bytes:
        data = real(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counting)
    raises(lambda: loader.read_text(path, cap=1000), "file is larger than 1,000 bytes")
    assert sum(read) == 1001


def test_unreadable_paths_give_one_line(tmp_path: Path) -> None:
    """A directory, a symlink loop and "not a directory", for scenarios and event logs."""
    loop = tmp_path / "loop"
    loop.symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(loop)
    plain = tmp_path / "plain.yaml"
    plain.write_text("system: kaiser\n")
    for command in ("roll", "replay"):
        refused(command, str(tmp_path), needle="is a directory")
        refused(command, str(loop), needle="cannot be read")
        refused(command, str(plain / "inside"), needle="cannot be read")


# -- 4. big files -------------------------------------------------------------------------------------------------
def test_the_yaml_loader_uses_libyaml_when_present() -> None:
    """The loader uses the pure-Python safe_load although libyaml's C loader is installed."""
    if hasattr(yaml, "CSafeLoader"):
        assert loader._LOADER is yaml.CSafeLoader


def test_a_one_megabyte_scenario_parses_in_seconds(tmp_path: Path) -> None:
    """A valid 1 MB scenario with 11,106 targets (here read and validated)."""
    head = (
        "system: kaiser\nattacker: {offensive_skill: 12, strength: 8, weapon: {damage: 5, damage_type: cut}}\n"
        "attack: {range: hand_to_hand, modifiers: 0, advantage: 0}\ntargets:\n"
    )
    rows = "".join(
        f"  - {{name: Bandit {i}, defensive_skill: 7, absorption: 2, armor: {{cut: 3}}, ap: 6, lp: 40}}\n"
        for i in range(11_106)
    )
    path = tmp_path / "many.yaml"
    path.write_text(head + rows)
    assert path.stat().st_size > 1_000_000
    start = time.process_time()  # this process's work, whatever else runs on the machine
    data = loader.read_document(path)
    assert time.process_time() - start < 10
    assert len(data["targets"]) == 11_106


def test_yaml_features_the_loader_keeps() -> None:
    """Anchors, aliases and merge keys still work; a second document, an unknown tag or a key that is a
    mapping are refused with their line."""
    data = loader.parse_yaml("base: &b {x: 1, y: 2}\nuse: {<<: *b, y: 3}\nlist: [*b, *b]\n", source="t")
    assert data["use"] == {"x": 1, "y": 3} and data["list"] == [{"x": 1, "y": 2}] * 2
    assert loader.parse_yaml("a: 1_000\nb: 0x10\nc: 1.5\nd: null\ne: yes\nf: '12'\n", source="t") == {
        "a": 1000,
        "b": 16,
        "c": 1.5,
        "d": None,
        "e": True,
        "f": "12",
    }
    for text, needle in (
        ("a: 1\n---\nb: 2\n", "line 2: a file holds one YAML document"),
        ("a: !!python/object:os.system x\n", "line 1: the tag"),
        ("? {a: 1}\n: 2\n", "a key must be a plain value"),
        ("a: *nowhere\n", "names no anchor"),
    ):
        with pytest.raises(InputError, match=needle):
            loader.parse_yaml(text, source="t")


# -- issue 20: duplicate keys -------------------------------------------------------------------------------------
def test_duplicate_yaml_key_is_refused_naming_the_line(tmp_path: Path) -> None:
    """A duplicate YAML key (`attacker:` twice) keeps the last one: refused, naming the line."""
    path = tmp_path / "dup.yaml"
    text = CEIL.read_text()
    path.write_text(text + "attacker: {offensive_skill: 1}\n")
    line_no = len(text.splitlines()) + 1
    first = 1 + next(i for i, line in enumerate(text.splitlines()) if line.startswith("attacker:"))
    refused("roll", str(path), needle=f"line {line_no}: duplicate key 'attacker' (first at line {first})")
    path.write_text("system: kaiser\nattacker:\n  strength: 8\n  strength: 9\n")
    refused("roll", str(path), needle="line 4: duplicate key 'strength' (first at line 3)")


def test_duplicate_json_key_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "dup.json"
    path.write_text('{"system": "kaiser",\n "attacker": {"strength": 8,\n  "strength": 9}}\n')
    refused("roll", str(path), needle="line 2: the object that begins here has the key 'strength' twice")


# -- 6. unwritable output paths -----------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["", "DIR", "/dev/full", "/proc/x.jsonl", "/nonexistent/x.jsonl"])
def test_fight_log_to_an_unwritable_path_gives_one_line(tmp_path: Path, target: str) -> None:
    """`fight --log` to '', to a directory, to /dev/full or to /proc/x.jsonl: one line naming the path."""
    path = str(tmp_path) if target == "DIR" else target
    line = refused("fight", str(DUEL), "--seed", "1", "--log", path, needle="--log")
    assert (path or ".") in line
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("target", ["DIR.png", "/proc/x.png"])
@pytest.mark.parametrize(("command", "file", "option"), [("odds", CEIL, "--plot"), ("map", GRID, "--png")])
def test_pictures_to_an_unwritable_path_give_one_line(
    tmp_path: Path, target: str, command: str, file: Path, option: str
) -> None:
    """`odds --plot`, `map --png` or `aim --png` to a directory or to /proc."""
    path = target
    if target == "DIR.png":
        path = str(tmp_path / "folder.png")
        os.mkdir(path)
    refused(command, str(file), option, path, needle=path)
    assert os.listdir(tmp_path) == ([] if target != "DIR.png" else ["folder.png"])


def test_aim_png_to_a_folder_gives_one_line(tmp_path: Path) -> None:
    refused("aim", str(GRID), "--png", str(tmp_path), needle=str(tmp_path))


def test_nothing_half_written_is_left_behind(tmp_path: Path) -> None:
    """A failure while writing leaves neither the file nor a temporary one; success replaces it whole."""
    path = tmp_path / "out.jsonl"

    def failing(temporary: Path) -> None:
        temporary.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(InputError, match="No space left on device"):
        write_file(path, failing, field="--log")
    assert os.listdir(tmp_path) == []
    write_file(path, lambda temporary: temporary.write_text("whole"), field="--log")
    assert os.listdir(tmp_path) == ["out.jsonl"] and path.read_text() == "whole"
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask


# -- 9. a missing value is null in both JSON outputs --------------------------------------------------------------
def test_a_missing_value_is_null_in_odds_and_simulate_json() -> None:
    """A missing value is "null" in the odds JSON and "None" in the simulate JSON; both should be JSON null
    (as an object key: "null", what JSON writes for None)."""
    path = str(EXAMPLES / "kaiser" / "advantage-a2-d3-ranged.yaml")
    odds = CliRunner().invoke(app, ["odds", path, "--json"])
    sim = CliRunner().invoke(app, ["simulate", path, "-n", "2000", "--seed", "1", "--json"])
    assert odds.exit_code == 0 and sim.exit_code == 0
    odds_keys = set(json.loads(odds.output)["targets"][0]["fields"]["counter_bonus"])
    sim_keys = set(json.loads(sim.output)["targets"][0]["fields"]["counter_bonus"])
    assert "null" in odds_keys and "null" in sim_keys
    assert '"None"' not in sim.output and '"True"' not in sim.output and '"False"' not in sim.output


# -- 4 and 7: many targets, and the exact chain's time budget ---------------------------------------------------
def test_a_roll_on_many_targets_traces_the_first_and_lists_the_rest(tmp_path: Path) -> None:
    """A valid 1 MB scenario with 11,106 targets takes 61 s to `roll` (most of it drawing a panel per target):
    past TRACED_TARGETS targets the rest are one line each."""
    from tohit.cli.render import TRACED_TARGETS

    rows = "".join(f"  - {{name: Bandit {i}, defensive_skill: 7, absorption: 2, ap: 6, lp: 40}}\n" for i in range(300))
    path = tmp_path / "many.yaml"
    path.write_text(
        "system: kaiser\nattacker: {offensive_skill: 12, strength: 8, weapon: {damage: 5, damage_type: cut}}\n"
        "attack: {range: hand_to_hand}\ntargets:\n" + rows
    )
    with bounded(seconds=30, memory=400 * 2**20):
        result = CliRunner().invoke(app, ["roll", str(path), "--seed", "1"])
    assert result.exit_code == 0, result.output[-2000:]
    assert f"{300 - TRACED_TARGETS} more targets, one line each" in result.output
    assert "Bandit 299: " in result.output
    assert result.output.count("dice: ") == TRACED_TARGETS


def test_the_exact_chain_has_a_time_budget_checked_inside_the_solver() -> None:
    """A time and state budget must be checked inside the solver."""
    from tohit.engine.fight.exact import exact_duel

    fight = load_fight(DUEL)
    raises(lambda: exact_duel(fight, seconds=0.0), "passed its time budget of 0 s")
