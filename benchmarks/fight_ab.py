"""The fights bench against another tree (`python -m benchmarks fights --against REF`): the same fights
(benchmarks/fight_cases.py) played by this tree's engine and by REF's, each in a process of its own, taken in
turns (A, B, B, A, ...) so that a busy spell of the machine falls on both alike; each figure is the CPU time of its
process (best of N), which other load disturbs much less than wall time.

REF is a directory holding a tree (its `src/tohit`) or a git ref of this repository, exported to a temporary
directory (`git archive`, nothing written to the repository). Each side is one long-lived worker process (this
module's `serve`) with PYTHONPATH at that tree's `src` and at this tree's root (for the bench's own code): it reads a
case per line on stdin and answers its CPU time and a digest of its result, so the table also says whether the two
trees give the same result for the same seed.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import math
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]


class RefError(Exception):
    """REF names neither a tree nor a git ref of this repository (said in one line)."""


@contextlib.contextmanager
def checkout(ref: str) -> Iterator[Path]:
    """The `src` directory of REF: a directory's own (REF or REF/src holding `tohit`), else the git ref's `src`
    exported to a temporary directory that is removed afterwards."""
    path = Path(ref)
    for src in (path / "src", path):
        if (src / "tohit" / "__init__.py").is_file():
            yield src.resolve()
            return
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        said = archive.stderr.decode(errors="replace").strip().splitlines()
        why = said[-1] if said else ""
        raise RefError(f"--against {ref}: neither a directory with src/tohit nor a git ref ({why})")
    with tempfile.TemporaryDirectory(prefix="tohit-against-") as tmp:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp) / "src"


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[:16]


#: The cases this worker has made, each once (the engine keeps its tables beside a loaded fight: from the second
#: run of a case on, both sides play it with warm tables, as the bench in one process does).
_MADE: dict[str, Any] = {}


def _run_case(game: str, which: str, n: int) -> dict[str, Any]:
    """One case in this process: its CPU time and the digest of its result."""
    from benchmarks.fight_cases import CASES

    if game not in _MADE:
        _MADE[game] = CASES[game]()
    one, four, duel40 = _MADE[game]
    start = time.process_time()
    if which == "exact":
        from tohit.engine.fight.exact import exact_duel

        result: Any = exact_duel(duel40, seconds=math.inf)  # timed: a cap on time would only refuse
    else:
        from tohit.engine.fight.run import simulate_fights

        result = simulate_fights(one if which == "1v1" else four, n, seed=1)
    cpu = time.process_time() - start
    return {"cpu": cpu, "digest": digest(result.to_json()), "states": getattr(result, "states", 0)}


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    """The worker: says which tohit it runs, then answers one case per line (game, which, n) until stdin ends."""
    import tohit

    print(json.dumps({"tohit": str(Path(tohit.__file__).resolve().parent)}), file=stdout, flush=True)
    for line in stdin:
        ask = json.loads(line)
        print(json.dumps(_run_case(ask["game"], ask["which"], ask["n"])), file=stdout, flush=True)


class Side:
    """One tree's worker process."""

    def __init__(self, name: str, src: Path) -> None:
        self.name = name
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(src), str(ROOT)])}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.fight_ab"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(ROOT),
        )
        hello = json.loads(self._read())
        if Path(hello["tohit"]) != (src / "tohit").resolve():  # pragma: no cover - an installed tohit won
            raise RefError(f"{name}: the worker imported tohit from {hello['tohit']}, not from {src}")

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RefError(f"{self.name}: the worker ended (exit {self.proc.wait()}); see its error above")
        return line

    def run(self, game: str, which: str, n: int) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"game": game, "which": which, "n": n}) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self._read())
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


@dataclass
class Timed:
    """One case on both trees: each side's best CPU time, and whether their results agree."""

    ref: float
    ours: float
    same: bool
    states: int


@contextlib.contextmanager
def sides(ref: str) -> Iterator[tuple[Side, Side]]:
    """(REF's worker, this tree's worker), closed afterwards."""
    with checkout(ref) as ref_src:
        theirs = Side(ref, ref_src)
        try:
            ours = Side("this tree", ROOT / "src")
            try:
                yield theirs, ours
            finally:
                ours.close()
        finally:
            theirs.close()


def compare(theirs: Side, ours: Side, game: str, which: str, n: int, repeat: int) -> Timed:
    """The case on both sides, `repeat` times each, in turns (REF first, then this tree first, ...)."""
    best = {id(theirs): float("inf"), id(ours): float("inf")}
    answers: dict[int, dict[str, Any]] = {}
    for i in range(repeat):
        for side in (theirs, ours) if i % 2 == 0 else (ours, theirs):
            answers[id(side)] = answer = side.run(game, which, n)
            best[id(side)] = min(best[id(side)], float(answer["cpu"]))
    same = answers[id(theirs)]["digest"] == answers[id(ours)]["digest"]
    return Timed(best[id(theirs)], best[id(ours)], same, int(answers[id(ours)]["states"]))


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
