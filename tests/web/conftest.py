"""The web table's browser tests (issue 17): `tohit serve` in-process (uvicorn in a thread on 127.0.0.1, a free
port, a throwaway SQLite store), driven by pytest-playwright in Debian's `chromium` (never `playwright install`:
`executable_path` points at the system browser; `.ci/run` installs it when it is missing).

Screenshots are written to `artifacts/` (gitignored) as test artefacts."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, BrowserType, Playwright, sync_playwright

from tests.server.conftest import free_port
from tohit.server.app import Settings, create_app

ADMIN = "admin-token-for-the-browser"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
DOCS = ARTIFACTS.parent / "docs"
#: Set in the environment (to anything but "0"): the screenshots the docs show are saved to docs/ too (`shot`).
DOCS_SHOTS = "TOHIT_DOCS_SHOTS"
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium")) if p and Path(p).exists()), None)


@dataclass
class Table:
    """The running server: its base URL and a client for the /v1 routes."""

    base: str
    http: httpx.Client

    def create(self, **body: Any) -> dict[str, Any]:
        """A new encounter; a fight given as a file keeps the file's own seed (`keep_seed`), as the tests' dice
        were written for it."""
        if "fight" in body or "text" in body:
            body.setdefault("keep_seed", True)
        answer = self.http.post("/v1/encounters", json=body)
        assert answer.status_code == 201, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def get(self, eid: str, token: str) -> dict[str, Any]:
        found: dict[str, Any] = self.http.get(f"/v1/encounters/{eid}", headers=bearer(token)).json()
        return found

    def url(self, eid: str, token: str) -> str:
        return f"{self.base}/encounters/{eid}?token={token}"


def docs_shots() -> bool:
    """Whether the pictures the docs show are asked for (DOCS_SHOTS set, and not to "0": `make docs-shots`)."""
    return os.environ.get(DOCS_SHOTS, "") not in ("", "0")


def without_chromium() -> None:
    """Skip a browser test where Debian's chromium is missing; fail it where the docs' pictures were asked for, so
    that `make docs-shots` never ends well having taken none."""
    said = "Debian's chromium is not installed (.ci/run installs it)"
    if docs_shots():
        pytest.fail(said)
    pytest.skip(said)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="session")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """`tohit serve` in a thread: the app on uvicorn, on 127.0.0.1 and a free port."""
    if CHROMIUM is None:
        without_chromium()
    db = tmp_path_factory.mktemp("web") / "tohit.db"
    app = create_app(Settings(db=f"sqlite:///{db}", admin_token=ADMIN, workers=0, poll=0.05))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    # A new connection a request: uvicorn closes a connection idle for 5 s (its keep-alive), and a request sent on a
    # pooled one just as it closes gets no answer ("Server disconnected without sending a response"). Between the
    # session's requests a test drives the browser for seconds, so a pooled connection would meet that race.
    with httpx.Client(base_url=base, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as http:
        yield Table(base, http)
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright launches the system chromium."""
    if CHROMIUM is None:
        without_chromium()
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


# pytest-playwright's Playwright, browser type and browser, made once for this folder instead of once for the session.
# While Playwright runs, the main thread's event loop is marked running between its calls, and asyncio.run() in any
# later test of the process refuses ("cannot be called from a running event loop": the server's deadline tests).
# Run in one process, these tests came last; under pytest-xdist a worker runs other files after them, so Playwright
# stops when the worker leaves this folder. (pytest-playwright's own, but for their scope; no `connect_options`.)
@pytest.fixture(scope="package")
def playwright(_pw_api_request_contexts: Any) -> Iterator[Playwright]:
    pw = sync_playwright().start()
    if _pw_api_request_contexts:  # --tracing
        _pw_api_request_contexts.instrument(pw)
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    found: BrowserType = getattr(playwright, browser_name)
    return found


@pytest.fixture(scope="package")
def launch_browser(browser_type_launch_args: dict[str, Any], browser_type: BrowserType) -> Callable[..., Browser]:
    def launch(**kwargs: Any) -> Browser:
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    launched = launch_browser()
    yield launched
    launched.close()


@pytest.fixture(scope="package")
def browser_context_args(pytestconfig: pytest.Config, _pw_artifacts_folder: Any) -> dict[str, Any]:
    """A page's window and downloads; pytest-playwright's own (for the folder's Playwright above) adds only what
    --device, --base-url and --video ask for: the tests name no device nor base URL, --video is kept."""
    video = pytestconfig.getoption("--video") in ("on", "retain-on-failure")
    recorded = {"record_video_dir": _pw_artifacts_folder.name} if video else {}
    return {"viewport": {"width": 1280, "height": 900}, "accept_downloads": True, **recorded}


def scroll_to_map(page: Any) -> None:
    """The page scrolled to its map's svg, as it is now: the page may draw the map again at any time (a locator's
    element handle then comes loose from the page, "not attached to the DOM"), and the scroll stays with the map's
    box."""
    page.evaluate("() => document.querySelector('#map-svg svg').scrollIntoView({block: 'nearest'})")


def shot(page: Any, name: str, full: bool = True, *, docs: bool = False) -> Path:
    """Save a screenshot under artifacts/: the full page, or (`full=False`) what the viewport shows. `docs`: a
    picture the docs show, copied to docs/ too when DOCS_SHOTS is set in the environment (`make docs-shots`); a
    plain test run leaves the committed pictures as they are."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full)
    if docs and docs_shots():
        shutil.copyfile(path, DOCS / path.name)
    return path


@pytest.fixture(scope="session")
def base_url() -> str | None:
    """No base URL: the tests open the whole URL of the server they start. Defined here because the fixture
    pytest-playwright falls back on when pytest-base-url is not installed is a session fixture written as an
    instance method, which pytest deprecates (a warning in every run of the browser tests); this one takes its
    place, with what it gives when no --base-url is set (issue 40, item 5)."""
    return None
