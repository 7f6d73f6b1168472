"""Keep the memory one frame frees for the next frame.

Reading a frame allocates and frees some 25 MB of canvas-sized arrays. By default glibc hands big
freed blocks back to the system, so the next frame faults every page in again: about 6000 page faults
a frame, some 2 µs each on a virtual machine, a quarter of the reading time on a cold frame. Told to
keep what it frees (a higher trim threshold) and to serve big arrays from its own heap (a higher mmap
threshold), it reuses pages that are already mapped. The price is that the process keeps its
largest frame's memory, tens of megabytes.
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
KEEP_BYTES = 256 << 20  # freed memory kept before any goes back to the system
HEAP_UP_TO = 32 << 20  # blocks up to this size (glibc allows no more) come from the heap, so freeing them keeps them
WARM_BYTES = 48 << 20  # about two frames' arrays, mapped once at start rather than during the first frames
WARM_BLOCK = 16 << 20

_done: bool | None = None


def keep_freed_memory() -> bool:
    """Tell the C library to keep freed memory, once per process, and map one frame's worth up front.
    False where the C library has no `mallopt` (not glibc): there nothing changes."""
    global _done
    if _done is None:
        _done = _tune_malloc()
        if _done:
            # Touched, so mapped; freed, so kept. In blocks under HEAP_UP_TO, which the heap serves.
            warm = [np.ones(WARM_BLOCK // 4, np.float32) for _ in range(WARM_BYTES // WARM_BLOCK)]
            del warm
    return _done


def _tune_malloc() -> bool:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_TRIM_THRESHOLD, KEEP_BYTES)) and bool(mallopt(_M_MMAP_THRESHOLD, HEAP_UP_TO))
