"""One home for the server's limits (issue 38, item 8): every cap of `tohit serve` is declared once, a field of
server/settings.py with its default, and is the flag `--field-name`; `tohit serve --help` shows the same default;
src/tohit/cli/serve.py writes no default of its own; a server's cap never passes the engine's own ceiling."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tohit.cli import serve as serve_cli
from tohit.cli.app import app as cli
from tohit.engine import requests
from tohit.server.settings import NO_FLAG, Settings

#: The options of `tohit serve` that are not caps of the server: where it listens.
NOT_SETTINGS = {"host", "port"}


def serve_options() -> dict[str, Any]:
    """`tohit serve`'s options by flag (`--max-states`): typer's own click parameters."""
    found = typer.main.get_command(cli).commands["serve"]  # type: ignore[attr-defined]
    return {p.opts[0]: p for p in found.params if p.param_type_name == "option" and p.opts[0] != "--help"}


def flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


FIELDS = [f for f in dataclasses.fields(Settings) if f.name not in NO_FLAG]


@pytest.mark.parametrize("field", FIELDS, ids=[f.name for f in FIELDS])
def test_every_setting_is_a_flag_with_its_default(field: dataclasses.Field[Any]) -> None:
    """Each Settings field (but NO_FLAG's) is the flag `--field-name`, whose default is the field's."""
    options = serve_options()
    assert flag_of(field.name) in options, f"Settings.{field.name} has no flag {flag_of(field.name)}"
    assert options[flag_of(field.name)].default == field.default


def test_the_help_shows_each_settings_default() -> None:
    """`tohit serve --help` shows, beside each flag, its Settings field's default (an empty one: none shown)."""
    shown = CliRunner().invoke(cli, ["serve", "--help"], terminal_width=300, env={"COLUMNS": "300"}).output
    # Each flag's row with the lines its help wraps onto (plain help wraps a long one after the flag).
    rows = {m.group(1): m.group(0) for m in re.finditer(r"(--[a-z-]+) .*?(?=\n\s*[│|]?\s*--[a-z]|\Z)", shown, re.S)}
    for field in FIELDS:
        row = rows[flag_of(field.name)]
        default = re.search(r"\[default: ([^\];]*)[\];]", row)  # click's plain help adds "; 0<=x<=64"
        if field.default == "":
            assert default is None, row
        else:
            assert default is not None and default.group(1) == str(field.default), (field.name, row)


def test_every_flag_of_serve_is_a_setting() -> None:
    """No cap is declared by the command line alone: every option of `tohit serve` (but where it listens) is a
    Settings field, and no field without a flag is a flag."""
    names = {f.name for f in dataclasses.fields(Settings)}
    flags = {flag_of(n) for n in names - set(NO_FLAG)}
    listening = {flag_of(n) for n in NOT_SETTINGS}
    assert set(serve_options()) - listening == flags


def test_serve_writes_no_default_of_its_own() -> None:
    """Each default in `serve`'s signature is read from Settings (`S.field`), never a literal: one home."""
    tree = ast.parse(inspect.getsource(serve_cli))
    (function,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "serve"]
    names = [a.arg for a in function.args.args]
    defaults = dict(zip(names[len(names) - len(function.args.defaults) :], function.args.defaults, strict=True))
    written = {}
    for name, default in defaults.items():
        if name in NOT_SETTINGS:
            continue
        if name == "db":
            assert isinstance(default, ast.Name) and default.id == "DEFAULT_DB"
            continue
        if not (isinstance(default, ast.Attribute) and isinstance(default.value, ast.Name) and default.value.id == "S"):
            written[name] = ast.unparse(default)
    assert not written, f"defaults written in serve.py, not read from Settings: {written}"
    assert Settings.db == serve_cli.DEFAULT_DB


def test_no_cap_passes_the_engines_ceiling() -> None:
    """Each flag's default lies within its range, and the flags of the engine's caps stop at the engine's ceiling
    (a server may lower a cap, never raise it past: engine/requests.py); the server's max_states is the lower
    (its reason is written beside it, server/settings.py)."""
    options = serve_options()
    for field in FIELDS:
        kind = options[flag_of(field.name)]
        low, high = getattr(kind, "min", None), getattr(kind, "max", None)
        assert low is None or field.default >= low, field.name
        assert high is None or field.default <= high, field.name
    ceilings = {
        "--max-states": requests.MAX_STATES,
        "--max-trials": requests.MAX_ATTACKS,
        "--max-fights": requests.MAX_FIGHTS,
        "--max-depth": requests.MAX_DEPTH,
        "--exact-seconds": requests.MAX_SECONDS,
        "--workers": requests.MAX_WORKERS,
    }
    for flag, ceiling in ceilings.items():
        assert getattr(options[flag], "max", None) == ceiling, flag
    assert Settings.max_states < requests.MAX_STATES
    assert "requests.MAX_STATES" in inspect.getsource(Settings)


def test_every_flag_reaches_the_settings(tmp_path: Path, served_settings: list[Settings]) -> None:
    """Each flag given a value other than its default: the server is started with that value in its Settings."""
    options = serve_options()
    given: dict[str, Any] = {"db": f"sqlite:///{tmp_path / 'flags.db'}"}
    for field in FIELDS:
        if field.name == "db":
            continue
        kind = options[flag_of(field.name)]
        high = getattr(kind, "max", None)
        if isinstance(field.default, str):
            given[field.name] = "10.0.0.1"
        elif high is not None and field.default == high:
            given[field.name] = type(field.default)(high - 1)
        else:
            given[field.name] = type(field.default)(field.default + 1)
    given["max_connections"], given["max_connections_per_address"] = 8, 2
    args = ["serve", "--port", "0"] + [x for name, value in given.items() for x in (flag_of(name), str(value))]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (settings,) = served_settings
    assert {name: getattr(settings, name) for name in given} == given
