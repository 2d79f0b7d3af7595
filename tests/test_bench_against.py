"""The fights bench against another tree (`python -m benchmarks fights --against REF`, benchmarks/fight_ab.py): a
REF that is a directory or a git ref gives its `src`, one that is neither is one clear line, and the two workers
play the same case and say whether their results agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks import fight_ab

ROOT = Path(__file__).resolve().parents[1]


def test_a_ref_that_is_a_directory_gives_its_src() -> None:
    with fight_ab.checkout(str(ROOT)) as src:
        assert src == (ROOT / "src").resolve()


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="a git checkout's own refs")
def test_a_ref_that_is_a_git_ref_is_exported_then_removed() -> None:
    with fight_ab.checkout("HEAD") as src:
        assert (src / "tohit" / "__init__.py").is_file()
    assert not src.exists()


def test_a_ref_that_is_neither_is_one_line_and_exit_2() -> None:
    with pytest.raises(fight_ab.RefError, match="no-such-ref-42"), fight_ab.checkout("no-such-ref-42"):
        pass  # pragma: no cover - never reached
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--against", "no-such-ref-42", "fights"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1].startswith("error: --against no-such-ref-42: neither")
    assert "Traceback" not in out.stderr


def test_both_workers_play_the_case_in_turns_and_agree_on_the_same_tree() -> None:
    with fight_ab.sides(str(ROOT)) as (theirs, ours):
        timed = fight_ab.compare(theirs, ours, "kaiser", "1v1", 200, 2)
    assert timed.same
    assert timed.ref > 0 and timed.ours > 0
