"""A command that needs an extra the install lacks says so in one line, with the exact `pip install`, exit code 2
(issue 40, item 1): cli/extras.py decides, for every command. Each command runs in a child process where the
extra's modules cannot be imported, as in a plain `pip install tohit`."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib

import pytest

from tests.conftest import EXAMPLES, ROOT, TOHIT_CODE
from tohit.cli.extras import EXTRAS, extra_for

#: Python code run before the CLI: every module of the named extras (argv[1], comma-separated) is not installed.
WITHOUT = """
import sys
from tohit.cli.extras import EXTRAS
absent = {m for extra in sys.argv.pop(1).split(",") if extra for m in EXTRAS[extra]}
class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in absent:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
"""

CEIL = str(EXAMPLES / "kaiser" / "ceil-vs-bandit.yaml")
DUEL = str(EXAMPLES / "fights" / "kaiser-duel.yaml")
#: `tohit solve` of an attack: exact, in this process (no cluster, no extra).
SOLVE = ["solve", CEIL, "--vary", "attacker.offensive_skill=0..12", "--measure", "p_hit", "--target", "0.5"]
#: A scheduler address nothing listens on: the command fails on the missing extra before it tries it.
NOWHERE = "tcp://127.0.0.1:9"


def tohit_without(extras: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-c", WITHOUT + TOHIT_CODE, extras, *args], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize(
    ("command", "args", "extra"),
    [
        ("tohit serve", ["serve", "--port", "0", "--db", "sqlite:///never.db"], "server"),
        ("tohit db upgrade", ["db", "upgrade", "--db", "sqlite:///never.db"], "server"),
        ("tohit sweep", ["sweep", CEIL, "--vary", "targets[0].defensive_skill=5..6"], "sweep"),
        ("tohit simulate", ["simulate", CEIL, "-n", "100", "--scheduler", NOWHERE], "sweep"),
        ("tohit fight", ["fight", DUEL, "-n", "100", "--scheduler", NOWHERE], "sweep"),
        ("tohit solve", [*SOLVE, "--scheduler", NOWHERE], "sweep"),
    ],
)
def test_a_command_without_its_extra_names_the_pip_install(command: str, args: list[str], extra: str) -> None:
    done = tohit_without("server,sweep", *args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""  # serve prints no login URL for a server that never starts
    pattern = rf"error: {command} needs the {extra} extra \(\w+ is not installed\): pip install 'tohit\[{extra}\]'\n"
    assert re.fullmatch(pattern, done.stderr), done.stderr


def test_the_base_install_rolls_solves_and_fights_without_either_extra() -> None:
    for args in (["roll", CEIL, "--json"], ["fight", DUEL, "--json"], SOLVE):
        done = tohit_without("server,sweep", *args)
        assert done.returncode == 0, (args, done.stderr)


def test_a_module_of_no_extra_is_not_blamed_on_one() -> None:
    assert extra_for("MySQLdb") is None and extra_for("numpy") is None
    assert extra_for("sqlalchemy.dialects") == "server" and extra_for("distributed") == "sweep"


def test_every_requirement_of_an_extra_has_its_modules_listed() -> None:
    """EXTRAS and pyproject.toml's extras name the same things: each requirement's top-level modules (as the
    installed distribution declares them) are listed under its extra."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    modules_of: dict[str, set[str]] = {}
    for module, dists in importlib.metadata.packages_distributions().items():
        for dist in dists:
            modules_of.setdefault(re.sub(r"[-_.]+", "-", dist).lower(), set()).add(module)
    assert set(EXTRAS) == {"server", "sweep"}
    for extra in EXTRAS:
        for requirement in extras[extra]:
            name = re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~; ]", requirement)[0]).lower()
            provided = modules_of.get(name, set())
            assert provided & set(EXTRAS[extra]), f"{extra}: {requirement} brings {provided}, none in EXTRAS"
