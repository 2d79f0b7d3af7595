"""engine/heap.py: the allocator limits a batched fight sets once per process (glibc only), and the opt-out."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

CHECK = "from tohit.engine.heap import keep_freed_memory as k; print(k(), k())"


def _run(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", CHECK], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's mallopt only")
def test_keep_freed_memory_sets_the_limits_once_per_process() -> None:
    assert _run({}) == "True True"


def test_keep_freed_memory_is_left_alone_with_tohit_mallopt_0() -> None:
    assert _run({"TOHIT_MALLOPT": "0"}) == "False False"
