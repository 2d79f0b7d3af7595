"""Keep freed memory for the next batch step (glibc's malloc tuning, Linux only).

A batched fight step allocates and frees arrays of a few hundred KiB to a few MiB (one value per fight) dozens
of times. With glibc's defaults such arrays are mapped fresh from the system and returned on free, or the free
top of the heap is trimmed back: either way every step faults its pages in again, which costs a 1v1 fight
batch a fifth of its time. `keep_freed_memory` raises three `mallopt` limits once per process so that those
arrays come from memory the process keeps:

- M_MMAP_THRESHOLD 32 MiB: arrays below it are carved from the heap, not mapped one by one;
- M_TRIM_THRESHOLD 256 MiB: the heap keeps up to that much free memory at its top;
- M_TOP_PAD 64 MiB: the heap grows in large steps.

The cost is memory held after a large fight (at most the trim threshold above what is in use). Set
`TOHIT_MALLOPT=0` to leave the allocator as it is; other C libraries (macOS, musl) are left alone.
"""

from __future__ import annotations

import ctypes
import os
import sys

#: mallopt parameters (malloc.h) and the values set.
M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_THRESHOLD = -1, -2, -3
SETTINGS = ((M_MMAP_THRESHOLD, 32 << 20), (M_TRIM_THRESHOLD, 256 << 20), (M_TOP_PAD, 64 << 20))

_done: list[bool] = []


def keep_freed_memory() -> bool:
    """Set the limits above (once per process; a forked child inherits them). True when they are set."""
    if _done:
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
    return _done[0]
