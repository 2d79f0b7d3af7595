"""issue 20, item 8 (CLI polish): `--version`; every error on one line, typer's included; exit 2 for a missing
examples folder. issue 14, item 5: the CLI has one error printer.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tohit
from tests.conftest import EXAMPLES, ROOT
from tohit.cli.app import app

runner = CliRunner()
CEIL = str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")
DUEL = str(EXAMPLES / "fights" / "kaiser-duel.yaml")
CLI = ROOT / "src" / "tohit" / "cli"


def one_error_line(args: list[str]) -> str:
    """Run the CLI; it must exit 2 with exactly one `error: ` line on stderr and nothing on stdout."""
    result = runner.invoke(app, args, prog_name="tohit")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "╭" not in result.stderr and "Usage:" not in result.stderr and "Traceback" not in result.stderr
    return lines[0]


def test_version_prints_tohit_and_its_version() -> None:
    """issue 20, item 8: `tohit --version` prints `tohit <version>`."""
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"tohit {tohit.__version__}\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["roll"], "error: tohit roll: Missing argument 'file' (see 'tohit roll --help')"),
        (["roll", CEIL, "--times", "0"], "error: tohit roll: Invalid value for '--times': "),
        (["odds", CEIL, "--depth", "41"], "error: tohit odds: Invalid value for '--depth': "),
        (["roll", CEIL, "extra"], "error: tohit roll: Got unexpected extra argument"),
        (["roll", CEIL, "--bogus"], "error: tohit roll: No such option: --bogus"),
        (["fight", DUEL, "-n", "many"], "error: tohit fight: Invalid value for '-n' / '--n': "),
        (["nosuchcommand"], "error: tohit: No such command 'nosuchcommand' (see 'tohit --help')"),
        (["--bogus"], "error: tohit: No such option: --bogus"),
    ],
    ids=[
        "missing argument",
        "out of range",
        "depth cap",
        "extra argument",
        "unknown option",
        "not a number",
        "unknown command",
        "unknown group option",
    ],
)
def test_usage_errors_are_one_error_line_with_exit_2(args: list[str], says: str) -> None:
    """issue 20, item 8: "every error on one line, typer's included" (no boxed multi-line panel)."""
    assert one_error_line(args).startswith(says)


def test_tohit_alone_still_prints_the_help() -> None:
    """No command at all is not an error to shorten: the help is printed, as before."""
    result = runner.invoke(app, [])
    assert "Usage" in result.output and "simulate" in result.output and "error:" not in result.output


def test_input_errors_keep_their_one_line() -> None:
    """The same printer as before for the tool's own errors (source, field, message)."""
    assert one_error_line(["roll", "/nonexistent.yaml"]) == "error: /nonexistent.yaml: no such file"
    assert one_error_line(["simulate", CEIL, "--method", "magic"]) == (
        "error: --method: must be table or direct, got 'magic'"
    )
    grid = one_error_line(["map", CEIL])  # cli/grid.py: no copy of its own any more
    assert grid == f"error: {CEIL}: system: system 'kaiser' has no map: map and aim need a game with a map (rtw)"


def test_demo_with_a_missing_examples_folder_exits_2(tmp_path: Path) -> None:
    """issue 20, item 8: `tohit demo --examples /nonexistent` gives one error line and exit 2."""
    missing = tmp_path / "nonexistent"
    assert one_error_line(["demo", "--examples", str(missing)]) == f"error: --examples: folder {missing} does not exist"


def test_demo_on_an_empty_folder_still_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["demo", "--examples", str(tmp_path)])
    assert result.exit_code == 0
    assert " ".join(result.stdout.split()) == f"no example scenarios under {tmp_path}"  # the console may wrap it


def _main(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "COLUMNS": "80"}
    code = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_the_console_script_entry_point_prints_one_line_too() -> None:
    """Through `main()` in a real process: `--version`, a usage error and a missing examples folder."""
    version = _main("--version")
    assert (version.returncode, version.stdout, version.stderr) == (0, f"tohit {tohit.__version__}\n", "")
    usage = _main("roll", CEIL, "--times", "0")
    assert usage.returncode == 2 and usage.stdout == ""
    assert usage.stderr.startswith("error: tohit roll: Invalid value for '--times': ") and usage.stderr.count("\n") == 1
    demo = _main("demo", "--examples", "/nonexistent")
    assert (demo.returncode, demo.stdout, demo.stderr) == (
        2,
        "",
        "error: --examples: folder /nonexistent does not exist\n",
    )


def test_the_cli_has_one_error_printer() -> None:
    """issue 14, item 5: only cli/errors.py writes `error:`; every command module imports its `fail`/`guarded`."""
    writers = []
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        if any(s.startswith("error:") for s in strings):
            writers.append(path.name)
    assert writers == ["errors.py"]
    for name in ("app.py", "demo.py", "fight.py", "grid.py"):
        assert "from tohit.cli.errors import" in (CLI / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize("command", [["roll"], ["odds"], ["simulate", "-n", "100"], ["aim"]])
def test_a_fight_file_given_to_an_attack_command_says_so(command: list[str]) -> None:
    """issue 41, item 6: `tohit odds` on a fight file said "max_rounds: unknown field"."""
    line = one_error_line([command[0], DUEL, *command[1:]])
    assert line == f"error: {DUEL} is a fight file (it has sides): use tohit fight {DUEL}"


@pytest.mark.parametrize("extra", [[], ["-n", "100"], ["--exact"]])
def test_a_scenario_file_given_to_fight_says_so(extra: list[str]) -> None:
    """issue 41, item 6: `tohit fight` on an attack's scenario file said "sides: required"."""
    line = one_error_line(["fight", CEIL, *extra])
    assert line.startswith(f"error: {CEIL} is an attack's scenario file (it has attacker, no sides): use tohit odds")


def test_which_kind_a_file_is_is_decided_in_one_place() -> None:
    """The loader's `check_kind` decides, not each command: no command module names `sides` to tell them apart."""
    for path in CLI.glob("*.py"):
        assert "is a fight file" not in path.read_text(encoding="utf-8"), path
