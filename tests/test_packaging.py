"""The wheel is the product (issue 40, items 1-2): built, checked and installed as a user gets it, then run.

Once for the module: the sdist and the wheel built from a copy of the sources (`python -m build --no-isolation`:
the sdist, then the wheel from the sdist, as an index's users get it), both checked by `twine check --strict`,
and the wheel installed with `pip --no-index --no-deps` into a fresh venv, offline. Its dependencies come from
the venv running the tests (a .pth file naming its site-packages, written after the install so that pip sees
only the fresh venv). Then, from that venv and from a folder with no examples: `tohit demo`, `tohit examples`,
`tohit serve` on a free loopback port (GET / and a static file) and a small `tohit sweep` on a local Dask cluster.
"""

from __future__ import annotations

import ctypes
import email
import json
import os
import shutil
import signal
import site
import socket
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES, ROOT
from tests.subprocesses import ending_with_the_run

#: What the build reads: the sources and what MANIFEST.in grafts into the sdist.
SOURCES = ["src", "examples", "docs", "tests", "benchmarks", "README.md", "LICENSE", "Makefile", "pyproject.toml",
           "setup.py", "MANIFEST.in"]  # fmt: skip
#: The folders the sdist holds whole (MANIFEST.in's grafts).
GRAFTED = ["examples", "docs", "tests", "benchmarks"]
ADMIN = "packaging-test-admin-token"
BUILD_ARTEFACTS = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.egg-info", "build", "dist")


@dataclass
class Built:
    """The built distributions and the fresh venv the wheel is installed in."""

    wheel: Path
    sdist: Path
    venv: Path
    home: Path  # an empty folder the commands run in (no examples/ beside them)
    log: str  # what the build printed

    def tohit(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """`tohit ARGS` of the fresh venv, run in `home`."""
        return subprocess.run(
            [str(self.venv / "bin" / "tohit"), *args],
            cwd=self.home,
            env=user_env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=dies_with_this_process,
        )


def user_env() -> dict[str, str]:
    """This environment without what points Python at the checkout's sources, and with no index to reach."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    return {**env, "PIP_NO_INDEX": "1", "PYTHONNOUSERSITE": "1", "COLUMNS": "120"}


def dies_with_this_process() -> None:
    """In a child, before it runs: SIGTERM when the test run ends, even killed (Linux's PR_SET_PDEATHSIG)."""
    if sys.platform == "linux":
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


def run(*args: str | Path, cwd: Path | None = None, both: bool = False) -> str:
    """Run a command to its end (exit code 0): its stdout, or with `both` its stdout and stderr."""
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=user_env(), capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr if both else done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    base = tmp_path_factory.mktemp("packaging")
    sources = base / "sources"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, sources / name, ignore=BUILD_ARTEFACTS)
        elif (ROOT / name).is_file():
            shutil.copy2(ROOT / name, sources / name)
    dist = base / "dist"
    log = run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, sources, both=True)
    (wheel,) = dist.glob("tohit-*.whl")
    (sdist,) = dist.glob("tohit-*.tar.gz")
    venv = base / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-index", "--no-deps", wheel)
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    (purelib / "zz-dependencies-of-the-test-venv.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    home = base / "home"
    home.mkdir()
    return Built(wheel, sdist, venv, home, log)


def test_the_installed_tohit_is_the_wheels(built: Built) -> None:
    where = run(built.venv / "bin" / "python", "-c", "import tohit; print(tohit.__file__)", cwd=built.home)
    assert Path(where.strip()).is_relative_to(built.venv)


def test_the_build_warns_of_nothing_deprecated(built: Built) -> None:
    """The licence table's boxed deprecation (four times a `make demo` before) and any other box are gone."""
    assert "Deprecat" not in built.log and "!!" not in built.log, built.log[-3000:]


def test_twine_check_passes_on_both(built: Built) -> None:
    out = run(sys.executable, "-m", "twine", "check", "--strict", built.wheel, built.sdist)
    assert out.count("PASSED") == 2


def test_the_wheel_carries_the_examples_and_the_licence(built: Built) -> None:
    with zipfile.ZipFile(built.wheel) as wheel:
        names = set(wheel.namelist())
        metadata = email.message_from_bytes(wheel.read("tohit-0.1.0.dist-info/METADATA"))
    examples = {f"tohit/examples/{p.relative_to(EXAMPLES).as_posix()}" for p in EXAMPLES.rglob("*") if p.is_file()}
    assert len(examples) > 50 and examples <= names
    assert "tohit-0.1.0.dist-info/licenses/LICENSE" in names
    assert metadata["License-Expression"] == "MIT" and metadata["Metadata-Version"] >= "2.4"
    assert metadata.get_all("Classifier") and metadata["Keywords"] and metadata["Author"]
    description = metadata.get_payload()
    assert isinstance(description, str) and "tohit" in description
    # The index's page has no repository beside it: no picture or file link is relative there.
    assert "![" not in description and "](docs/" not in description and "](examples/" not in description


def test_the_sdist_holds_the_tests_examples_and_docs(built: Built) -> None:
    with tarfile.open(built.sdist) as sdist:
        names = {name.partition("/")[2] for name in sdist.getnames()}
    assert {"tests/conftest.py", "setup.py", "MANIFEST.in", "LICENSE", "README.md", "Makefile"} <= names
    for folder in GRAFTED:
        files = {
            p.relative_to(ROOT).as_posix()
            for p in (ROOT / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
        }
        assert files and files <= names, f"{folder}: not in the sdist: {sorted(files - names)[:5]}"


def test_demo_runs_the_bundled_examples_from_the_wheel(built: Built) -> None:
    """The demo finds the examples inside the installed package (a small -n: the files, not the sample, matter)."""
    done = built.tohit("demo", "-n", "100")
    assert done.returncode == 0, done.stderr
    assert f"the examples in {built.venv}" in done.stdout.replace("\n", "")
    for name in ("ceil-vs-bandit.yaml", "fights/kaiser-duel.yaml", "rtw/bow-vs-evasion.yaml"):
        assert name in done.stdout


def test_examples_copies_them_out_and_they_run(built: Built) -> None:
    done = built.tohit("examples")
    assert done.returncode == 0, done.stderr
    copied = {p.relative_to(built.home / "examples") for p in (built.home / "examples").rglob("*") if p.is_file()}
    assert copied == {p.relative_to(EXAMPLES) for p in EXAMPLES.rglob("*") if p.is_file()}
    rolled = built.tohit("roll", "examples/kaiser/ceil-vs-bandit.yaml", "--json")
    assert rolled.returncode == 0 and '"system": "kaiser"' in rolled.stdout


@pytest.fixture
def server(built: Built) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`tohit serve` of the wheel on a free loopback port: its address, once / answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen(
        [str(built.venv / "bin" / "tohit"), "serve", "--port", str(port), "--workers", "0",
         "--db", f"sqlite:///{built.home / 'serve.db'}"],
        cwd=built.home, env={**user_env(), "TOHIT_ADMIN_TOKEN": ADMIN}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, **ending_with_the_run(),
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(base + "/", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        assert proc.poll() is None, f"the server ended: {proc.stdout.read() if proc.stdout else ''}"
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_serve_answers_its_page_and_static_files(server: tuple[str, subprocess.Popen[str]]) -> None:
    base, _ = server
    with urllib.request.urlopen(base + "/", timeout=10) as page:
        assert page.status == 200 and "<html" in page.read().decode().lower()
    with urllib.request.urlopen(base + "/static/table.css", timeout=10) as css:
        assert css.read() == (ROOT / "src" / "tohit" / "web" / "static" / "table.css").read_bytes()
    # A new encounter may start from the example fights the wheel carries, not only from each game's starter.
    request = urllib.request.Request(base + "/v1/examples", headers={"Authorization": f"Bearer {ADMIN}"})
    with urllib.request.urlopen(request, timeout=30) as listed:
        ids = {example["id"] for example in json.load(listed)}
    assert {f"file/{p.stem}" for p in (EXAMPLES / "fights").glob("*.yaml")} <= ids


def test_sweep_runs_on_a_local_cluster_from_the_wheel(built: Built) -> None:
    """Two worker processes of a local Dask cluster import tohit from the wheel too; the table is Parquet."""
    import pandas as pd

    fight = built.home / "duel.yaml"
    shutil.copy(EXAMPLES / "fights" / "kaiser-duel.yaml", fight)
    done = built.tohit("sweep", fight.name, "--vary", "count:sides[1].combatants[0]=1..2", "-n", "200",
                       "--seed", "1", "--workers", "2", "--out", "points.parquet")  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = pd.read_parquet(built.home / "points.parquet")
    assert len(table) == 2


def test_the_extras_build_on_each_other() -> None:
    """`dev` names `tohit[server,sweep]` and repeats none of their requirements; the licence is an SPDX expression."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    assert "tohit[server,sweep]" in extras["dev"]
    repeated = set(extras["dev"]) & (set(extras["server"]) | set(extras["sweep"]))
    assert not repeated
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert "setuptools>=77" in requires
