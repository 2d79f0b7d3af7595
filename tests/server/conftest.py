"""The server's test fixtures: an app on a throwaway SQLite store (and PostgreSQL, from Debian's package)."""

from __future__ import annotations

import gc
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from glob import glob
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.spies import first_arguments
from tohit.server import collector
from tohit.server.app import Settings, create_app

ADMIN = "admin-token-for-tests"


@pytest.fixture(autouse=True)
def _collector_unfrozen() -> Iterator[None]:
    """`tohit serve` run in the test's process freezes what the process holds (kept out of the collector's
    full passes), and then each full pass's survivors; each test leaves the collector as it found it."""
    yield
    collector.stop_freezing()
    gc.unfreeze()


def client_for(db: str) -> TestClient:
    return TestClient(create_app(Settings(db=db, admin_token=ADMIN, workers=0, poll=0.05)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(f"sqlite:///{tmp_path / 'tohit.db'}") as c:
        yield c


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin() -> Path | None:
    found = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A throwaway PostgreSQL (initdb and pg_ctl in a temp dir, on 127.0.0.1): its SQLAlchemy URL."""
    binaries = pg_bin()
    if binaries is None:
        pytest.skip("Debian's postgresql is not installed (.ci/run installs it)")
    root = Path(tempfile.mkdtemp(prefix="tohit-pg-"))  # outside pytest's root-only folder: postgres reads it
    data = root / "data"
    env = dict(os.environ)
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: as the package's postgres user
        shutil.chown(root, "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*run_as, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "tohit"], check=True,
                   capture_output=True, env=env)  # fmt: skip
    port = free_port()
    options = f"-k {root} -h 127.0.0.1 -p {port}"
    subprocess.run([*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-w", "-l",
                    str(root / "log"), "start"], check=True, capture_output=True, env=env)  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        url = f"postgresql+psycopg://tohit@127.0.0.1:{port}/postgres"
        while time.monotonic() < deadline:
            try:
                import psycopg

                psycopg.connect(f"host=127.0.0.1 port={port} user=tohit dbname=postgres").close()
                break
            except Exception:
                time.sleep(0.2)
        yield url
    finally:
        subprocess.run([*run_as, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, env=env)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A store's URL: a throwaway SQLite file, and the throwaway PostgreSQL."""
    if request.param == "postgresql":
        found: str = request.getfixturevalue("postgres")
        return found
    return f"sqlite:///{tmp_path / 'store.db'}"


@pytest.fixture
def served_settings(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    """The Settings each `tohit serve` run in this test starts its app with (appended as it starts), the server
    announcing itself at once instead of listening, with ADMIN as its admin token."""
    import tohit.server.app as server
    from tohit.server import listening

    seen: list[Settings] = first_arguments(monkeypatch, server, "create_app")
    monkeypatch.setattr(listening, "run", lambda app, sock, announce, options: announce(8000) or True)
    monkeypatch.setenv("TOHIT_ADMIN_TOKEN", ADMIN)
    return seen
