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


#: Each piece of the heap (each `[heap]` of /proc/self/smaps): whether it is advised huge pages ("hg" among its
#: VmFlags: MADV_HUGEPAGE), printed as a list; "unknown" where smaps gives no VmFlags.
PIECES = """
def pieces():
    with open("/proc/self/smaps") as smaps:
        lines = smaps.read().splitlines()
    found = []
    for i, line in enumerate(lines):
        if line.endswith("[heap]"):
            flags = next((f for f in lines[i:] if f.startswith("VmFlags:")), None)
            if flags is None:
                print("unknown")
                raise SystemExit(0)
            found.append("hg" in flags.split())
    return found
"""
ADVISED = (
    PIECES
    + """
from tohit.engine.heap import keep_freed_memory
keep_freed_memory()
print(pieces())
"""
)
#: The heap grown past the part advised (blocks kept), then a fight played: each batch advises the whole heap.
GROWN = (
    PIECES
    + """
import ctypes
from tohit.engine.fight.load import load_fight
from tohit.engine.fight.run import simulate_fights
from tohit.engine.heap import keep_freed_memory
keep_freed_memory()
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
kept = [libc.malloc(30 << 20) for _ in range(10)]
grown = pieces()
simulate_fights(load_fight(sys.argv[1]), 1, seed=1)
print(grown, pieces())
"""
)
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "fights" / "kaiser-duel.yaml"


def _advised(script: str, env: dict[str, str], *args: str) -> str:
    """The script's answer in a fresh process (glibc's own huge-page tunable left out of its environment)."""
    environ = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    done = subprocess.run(
        [sys.executable, "-c", "import sys\n" + script, *args],
        env={**environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    out = done.stdout.strip()
    if out == "unknown":
        pytest.skip("this kernel's smaps gives no VmFlags")
    return out


HUGE_PAGES = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or not Path("/sys/kernel/mm/transparent_hugepage").is_dir(),
    reason="glibc on a Linux kernel with transparent huge pages",
)


@HUGE_PAGES
def test_keep_freed_memory_advises_huge_pages_over_the_heap_unless_tohit_mallopt_0() -> None:
    assert _advised(ADVISED, {}) == "[True]"
    assert _advised(ADVISED, {"TOHIT_MALLOPT": "0"}) == "[False]"


@HUGE_PAGES
def test_a_batch_of_fights_advises_every_piece_of_a_heap_grown_since() -> None:
    """The heap grown by 300 MiB after the first advice lists as pieces (`[heap]` each), the new ones not advised;
    the next batch advises them all."""
    grown, after = _advised(GROWN, {}, str(EXAMPLE)).split("] [")
    assert "False" in grown  # the heap grew past the advice: a piece of it not advised
    assert "False" not in after and "True" in after


#: Advised, then asked again with the heap ending where it did: /proc/self/maps is not read again; the heap grown past
#: it (blocks kept): read, and the whole heap advised.
AGAIN = (
    PIECES
    + """
import ctypes
import tohit.engine.heap as heap
heap.keep_freed_memory()
reads = []
real = heap.heap_range
heap.heap_range = lambda: reads.append(1) or real()
same = [heap.advise_huge_pages() for _ in range(3)]
before = len(reads)
libc = ctypes.CDLL("libc.so.6")
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
kept = [libc.malloc(30 << 20) for _ in range(10)]
grown = heap.advise_huge_pages()
print(same, before, len(reads), grown, pieces())
"""
)


@HUGE_PAGES
def test_the_heap_is_advised_again_only_once_it_ends_elsewhere() -> None:
    """`advise_huge_pages` on a heap whose end (the program break) has not moved since its last advice reads no
    /proc/self/maps (some 0.3 ms a batch); once the heap has grown, it reads it and advises every piece."""
    answer = _advised(AGAIN, {})
    assert answer.startswith("[True, True, True] 0 1 True ["), answer
    assert "False" not in answer.split(" True [", 1)[1]
