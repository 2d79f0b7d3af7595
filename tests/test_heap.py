"""engine/heap.py: the allocator limits a batched fight sets once per process (glibc only), the huge pages it
advises over the heap, and the opt-out."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

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


#: Whether the heap's mapping is advised huge pages: "hg" among its VmFlags in /proc/self/smaps (MADV_HUGEPAGE).
ADVISED = """
from tohit.engine.heap import keep_freed_memory
keep_freed_memory()
with open("/proc/self/smaps") as smaps:
    lines = smaps.read().splitlines()
start = next(i for i, line in enumerate(lines) if line.endswith("[heap]"))
flags = next(line for line in lines[start:] if line.startswith("VmFlags:"))
print("hg" in flags.split())
"""


def _advised(env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", ADVISED], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or not Path("/sys/kernel/mm/transparent_hugepage").is_dir(),
    reason="glibc on a Linux kernel with transparent huge pages",
)
def test_keep_freed_memory_advises_huge_pages_over_the_heap_unless_tohit_mallopt_0() -> None:
    assert _advised({}) == "True"
    assert _advised({"TOHIT_MALLOPT": "0"}) == "False"
