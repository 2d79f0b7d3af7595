"""What a command needs beyond `pip install tohit`: the one place that decides it, for every command.

The base install rolls, computes odds, simulates, fights, draws maps and runs the demo. Two extras of
pyproject.toml bring the rest: `server` (`tohit serve`, `tohit db upgrade`) and `sweep` (`tohit sweep`, `tohit
solve`, and any simulation sent to a Dask cluster with `--scheduler`). A command imports what it uses when it runs;
when that import fails on a module of an extra, the command group (`cli/errors.py`, `OneLineErrors`) asks
`missing_extra` which extra brings it and prints one line naming the exact `pip install`, exit code 2, instead
of a traceback. So a new command, or a new option that reaches a cluster, is covered without being listed.
"""

from __future__ import annotations

#: Each extra and the top-level modules it installs (tests/test_extras.py keeps it equal to pyproject.toml's
#: lists: every requirement of an extra has its modules here).
EXTRAS: dict[str, tuple[str, ...]] = {
    "server": ("fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "fastapi_offline"),
    "sweep": ("dask", "distributed", "pandas", "pyarrow"),
}


def extra_for(module: str | None) -> str | None:
    """The extra that installs `module` (a dotted name: its top level decides), or None if no extra does."""
    top = (module or "").partition(".")[0]
    return next((extra for extra, modules in EXTRAS.items() if top in modules), None)


def missing_extra(command: str, exc: ModuleNotFoundError) -> str | None:
    """The one line for `command` failing on a module an extra installs, or None (a module of no extra: a bug or a
    database driver, left to whoever imported it)."""
    extra = extra_for(exc.name)
    if extra is None:
        return None
    module = (exc.name or "").partition(".")[0]
    return f"{command} needs the {extra} extra ({module} is not installed): pip install 'tohit[{extra}]'"
