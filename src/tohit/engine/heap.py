"""Keep freed memory for the next batch step (glibc's malloc tuning, Linux only).

A batched fight step allocates and frees arrays of a few hundred KiB to a few MiB (one value per fight) dozens
of times. With glibc's defaults such arrays are mapped fresh from the system and returned on free, or the free
top of the heap is trimmed back: either way every step faults its pages in again, which costs a 1v1 fight
batch a fifth of its time. `keep_freed_memory` raises three `mallopt` limits once per process so that those
arrays come from memory the process keeps:

- M_MMAP_THRESHOLD 32 MiB: arrays below it are carved from the heap, not mapped one by one;
- M_TRIM_THRESHOLD 256 MiB: the heap keeps up to that much free memory at its top;
- M_TOP_PAD 64 MiB: the heap grows in large steps.

The cost is memory held after a large fight (at most the trim threshold above what is in use).

Then the heap asks for transparent huge pages (`advise_huge_pages`: madvise MADV_HUGEPAGE over the heap; what
glibc's own `glibc.malloc.hugetlb=1` tunable does, which is read only when a process starts). A step reads its
arrays at scattered cells (a gather of one combatant a row, a table read per fight), and with 4 KiB pages such
reads miss the TLB: with 2 MiB pages the bench's fights ran 3-13% faster (the slowest duel 9-11%), with the same
resident memory. The first call grows the heap by `HEAP_GROWTH` of address space first (no memory until touched,
and kept by the trim threshold; from the main thread, whose arena the heap is), so that the first batch's arrays
are faulted in as huge pages; each batch of fights advises the whole heap again where it has moved since the last
advice (its end, the program break: reading /proc/self/maps costs some 0.3 ms, so an unmoved heap is not read
again), so that the pages it has grown by since are faulted in as huge ones from then on. A heap trimmed and grown
back to the very same end between two batches would keep its regrown part unadvised: a hint lost, never a result.
A kernel whose transparent huge pages are `never` ignores the advice.

Set `TOHIT_MALLOPT=0` to leave the allocator and the heap as they are; other C libraries (macOS, musl) are left
alone. None of this can change a result: only where the arrays live.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

#: The program break when the heap was last advised whole (`advise_huge_pages`), while that advice holds.
_advised: list[int] = []
#: mallopt parameters (malloc.h) and the values set.
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
SETTINGS = ((M_MMAP_THRESHOLD, 32 << 20), (M_TRIM_THRESHOLD, 256 << 20), (M_TOP_PAD, 64 << 20))
#: madvise's advice for transparent huge pages (linux/mman.h).
MADV_HUGEPAGE = 14
#: The heap's first growth, in blocks below the mmap threshold (so they come from the heap), freed at once: with the
#: top pad it stays below the trim threshold, so the heap keeps it.
HEAP_GROWTH = (30 << 20,) * 4

_done: list[bool] = []
_libc: list[ctypes.CDLL] = []


def keep_freed_memory() -> bool:
    """Set the limits above (once per process; a forked child inherits them), and advise huge pages over the heap
    as it is now (on every call: the heap may have grown). True when the limits are set."""
    if _done:
        if _done[0]:
            advise_huge_pages()
        return _done[0]
    _done.append(False)
    if not sys.platform.startswith("linux") or os.environ.get("TOHIT_MALLOPT", "1") == "0":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # not glibc
        return False
    _done[0] = all([mallopt(param, value) == 1 for param, value in SETTINGS])  # each is tried
    if _done[0]:
        _libc.append(libc)
        if threading.current_thread() is threading.main_thread():  # another thread would grow its own arena
            _grow_heap(libc)
        advise_huge_pages()
    return _done[0]


def _grow_heap(libc: ctypes.CDLL) -> None:
    """Grow the heap by `HEAP_GROWTH` (malloc, then free: address space, no memory until touched). From the main
    thread only: malloc serves another thread from an arena of its own, which is not the heap advised."""
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(size) for size in HEAP_GROWTH]
    for block in blocks:
        libc.free(block)  # free(NULL), where one failed, does nothing


def heap_range() -> tuple[int, int] | None:
    """(start, end) of this process's heap, or None where it has none to read. /proc/self/maps may list the heap in
    several pieces, each `[heap]` (the kernel splits it where the advice or numpy's own for a large array covers only
    a part): they follow one another, so the heap runs from the first's start to the last's end."""
    found: tuple[int, int] | None = None
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                if line.rstrip().endswith("[heap]"):
                    start, end = (int(part, 16) for part in line.split(maxsplit=1)[0].split("-"))
                    found = (start, end) if found is None else (found[0], end)
    except OSError:
        return None
    return found


def advise_huge_pages() -> bool:
    """Advise transparent huge pages (MADV_HUGEPAGE) over the whole heap as it is now: the pages faulted in it from
    then on may be 2 MiB ones (pages already faulted stay as they are, unless the kernel's khugepaged merges them).
    True when madvise accepted the advice (it does even where the kernel's huge pages are `never`); False with
    nothing to advise (the limits not set, no heap to read). A hint: nothing depends on it."""
    if not _libc:
        return False
    libc = _libc[0]
    top = _program_break(libc)
    if _advised and _advised[0] == top:  # the heap ends where it did at the last advice: advised whole already
        return True
    found = heap_range()
    if found is None:
        return False
    madvise = libc.madvise
    madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    start, end = found
    accepted = bool(madvise(start, end - start, MADV_HUGEPAGE) == 0)
    _advised[:] = [top] if accepted else []
    return accepted


def _program_break(libc: ctypes.CDLL) -> int:
    """The program break (sbrk(0)): where the heap ends now. It moves as the heap grows or is trimmed, so an advice
    made at this break covers the heap as long as it stays (reading /proc/self/maps again costs some 0.3 ms)."""
    libc.sbrk.restype = ctypes.c_void_p
    libc.sbrk.argtypes = [ctypes.c_ssize_t]
    top = libc.sbrk(0)
    return int(top or 0)
