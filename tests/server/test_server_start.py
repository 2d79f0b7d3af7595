"""issue 40, item 4 (the server's start): a port in use, a database URL the store cannot use, a driver not
installed, a database that cannot be reached: one line naming the flag, exit 2, and nothing printed before it;
the login URL is printed only once the server listens (its token works at once)."""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.conftest import ROOT
from tests.subprocesses import ending_with_the_run
from tohit.cli.app import app as cli

ADMIN = "admin-token-for-the-start-test"
CODE = "import sys; from tohit.cli.app import main; sys.argv[0] = 'tohit'; main()"


def tohit(*args: str) -> list[str]:
    """The `tohit` command line in a process of its own, from this checkout's sources."""
    return [sys.executable, "-c", CODE, *args]


ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "TOHIT_ADMIN_TOKEN": ADMIN}


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port another server listens on (127.0.0.1)."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield int(other.getsockname()[1])


def test_serve_on_a_port_in_use_is_one_line_naming_port_and_no_login_url(busy_port: int, tmp_path: Path) -> None:
    done = subprocess.run(
        tohit("serve", "--port", str(busy_port), "--db", f"sqlite:///{tmp_path / 'tohit.db'}", "--workers", "0"),
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")  # no login URL: nothing listens with its token
    assert done.stderr == (
        f"error: --port: 127.0.0.1:{busy_port} is in use (another server listens there): stop it, or choose"
        " another --port\n"
    )
    assert not (tmp_path / "tohit.db").exists()  # told before the store is opened


def one_line(args: list[str]) -> str:
    """`tohit serve` in this process: exit 2, one `error:` line on stderr, nothing on stdout."""
    result = CliRunner().invoke(cli, args, prog_name="tohit")
    assert result.exit_code == 2, result.output
    assert result.stdout == "" and "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


CHOICES = "give one like sqlite:///tohit.db or postgresql+psycopg://user@host/db"


IN_MEMORY = "a database in memory (one per thread, gone at the end) cannot hold the store"
#: A URL the store cannot use, and what `--db` says of it.
CANNOT_USE = {
    "another database": (
        "mysql://u:secret@localhost/x",
        f"mysql://u:***@localhost/x: the store runs on SQLite and PostgreSQL, not mysql: {CHOICES}",
    ),
    "not a URL": ("tohit.db", f"'tohit.db' is not a database URL: {CHOICES}"),
    "unknown database": ("nosuch://x", f"nosuch://x: SQLAlchemy knows no database 'nosuch': {CHOICES}"),
    "async driver": (
        "postgresql+asyncpg://u@h/x",
        "postgresql+asyncpg://u@h/x: asyncpg is an asyncio driver; the store's is synchronous: give one like"
        " postgresql+psycopg://user@host/db",
    ),
    "in memory": ("sqlite://", f"sqlite://: {IN_MEMORY}: give a file, like sqlite:///tohit.db"),
    "no folder": (
        "sqlite:////nonexistent/folder/x.db",
        "sqlite:////nonexistent/folder/x.db: the folder '/nonexistent/folder' does not exist",
    ),
    "unreachable": (
        "postgresql+psycopg://u:secret@127.0.0.1:1/x",
        "cannot open postgresql+psycopg://u:***@127.0.0.1:1/x: connection failed: connection to server at"
        ' "127.0.0.1", port 1 failed: Connection refused',
    ),
}


@pytest.mark.parametrize(("db", "says"), CANNOT_USE.values(), ids=CANNOT_USE.keys())
@pytest.mark.parametrize("command", ["serve", "db upgrade"])
def test_serve_and_db_upgrade_on_a_database_url_they_cannot_use_is_one_line_naming_db(
    command: str, db: str, says: str
) -> None:
    """The password of a URL is never printed."""
    assert one_line([*command.split(), *(["--port", "0"] if command == "serve" else []), "--db", db]) == (
        f"error: --db: {says}"
    )


@pytest.mark.skipif(importlib.util.find_spec("psycopg2") is not None, reason="psycopg2 is installed")
def test_serve_with_a_driver_not_installed_says_what_to_install() -> None:
    assert one_line(["serve", "--port", "0", "--db", "postgresql+psycopg2://u@h/x"]) == (
        "error: --db: postgresql+psycopg2://u@h/x: its driver 'psycopg2' is not installed (pip install"
        f" 'psycopg2-binary'), or give another URL, like {CHOICES.removeprefix('give one like ')}"
    )


def test_serve_on_a_host_not_of_this_machine_is_one_line_naming_host() -> None:
    assert one_line(["serve", "--host", "192.0.2.1", "--port", "0"]) == (  # TEST-NET-1: never this machine's
        "error: --host: 192.0.2.1 is not an address of this machine (127.0.0.1: this machine only; 0.0.0.0: all)"
    )


def test_serve_prints_the_login_url_once_it_listens_and_its_token_works_at_once(tmp_path: Path) -> None:
    """`--port 0`: a free port, the one in the login URL. The URL is read as soon as it is printed and used at
    once, with no retry: the server listens by then, and the admin token is the one it checks."""
    args = tohit("serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'tohit.db'}", "--workers", "0")
    with subprocess.Popen(args, env=ENV, stdout=subprocess.PIPE, text=True, **ending_with_the_run()) as proc:
        try:
            assert proc.stdout is not None
            login = proc.stdout.readline()
            found = re.fullmatch(rf"tohit sqlite:///\S+: open (http://127\.0\.0\.1:(\d+))/\?token={ADMIN}\n", login)
            assert found and int(found[2]) > 0, login
            base = found[1]
            listed = httpx.get(f"{base}/v1/encounters", headers={"Authorization": f"Bearer {ADMIN}"}, timeout=10)
            assert listed.status_code == 200 and listed.json() == []
            assert httpx.get(f"{base}/?token={ADMIN}", timeout=10).status_code == 200
        finally:
            proc.terminate()
            proc.wait(timeout=30)
