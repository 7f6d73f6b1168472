"""Keep the memory one frame frees for the next frame.

Reading a frame allocates and frees some 25 MB of canvas-sized arrays. By default glibc hands big
freed blocks back to the system, so the next frame faults every page in again: about 6000 page faults
a frame, some 2 µs each on a virtual machine, a fifth of the reading time. Told to keep what it frees
(a higher trim threshold) and to serve big arrays from its own heap (a higher mmap threshold), it
reuses pages that are already mapped, from the second frame on. The price is that the process keeps
its largest frame's memory, tens of megabytes.
"""

from __future__ import annotations

import ctypes

_M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3
KEEP_BYTES = 256 << 20  # freed memory kept before any goes back to the system
HEAP_UP_TO = 32 << 20  # blocks up to this size come from the heap, so freeing them keeps them (glibc's limit)

_done: bool | None = None


def keep_freed_memory() -> bool:
    """Tell the C library to keep freed memory, once per process. False where it has no `mallopt`
    (not glibc): there nothing changes. Mapping memory up front as well was tried: 20-140 ms at start,
    no less than the first frame's faults it saves."""
    global _done
    if _done is None:
        _done = _tune_malloc()
    return _done


def _tune_malloc() -> bool:
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library already loaded into this process
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_TRIM_THRESHOLD, KEEP_BYTES)) and bool(mallopt(_M_MMAP_THRESHOLD, HEAP_UP_TO))
