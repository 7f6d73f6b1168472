"""A batch of frames read side by side, one process per core, the answers in the frames' order.

A reader holds Python's lock for much of a frame (its counting is Python), so readers on threads of one
process queue for it: two threads counted a batch 29-31 ms an image against 33 one at a time here (160
frames of 20 scenes, 2026-11-28). Processes each have their own lock. This machine's second core is shared
all the same (two busy processes got 1.45 and 1.9 times one's work in two tries), and a single reader
already runs its cube net beside the rest. The table session's camera keeps one reader: for the three
frames of a steady reading, two readers brought it no sooner (159 ms against 145, here).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TypeVar

import cv2

from hardware.stockyard.profile import YardProfile
from hardware.stockyard.reader import YardReader
from tableassist.errors import UserError

Item = TypeVar("Item")
Result = TypeVar("Result")


class ReaderDied(UserError):
    """A child process of a batch ended without an answer (killed, out of memory): one line, no traceback."""


# The reader a forked batch process reads with: its parent's, copied with the rest of its memory.
_forked_reader: YardReader | None = None


def _leave_interrupts_to_the_parent() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent stops the batch, and a child
    # waiting for work must not die of it with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def no_helper_threads() -> Iterator[None]:
    """OpenCV and the cube net on this thread alone while the batch's processes are forked, and the
    reader they copy made so.

    A fork copies only the thread that forks. A helper thread of OpenCV's that held its pool's lock at that
    moment (going back to sleep after a frame) leaves the lock held for ever in the child, and the child's
    first parallel OpenCV call waits on it: 3 forked children in 60 hung so under load here. OpenCV on one
    thread stops its helpers (they are joined), the net's session made now gets none of its own, and each
    child then reads on one thread, as one process per core should. The parent's setting is put back after.
    """
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(threads)


def _read_in_child(work: Callable[[YardReader, Item], Result], item: Item) -> Result:
    assert _forked_reader is not None, "only in a process forked by read_in_processes"
    return work(_forked_reader, item)


def read_in_processes(profile: YardProfile, work: Callable[[YardReader, Item], Result], items: Iterable[Item],
                      size: int | None = None) -> Generator[Result, None, None]:
    """`work(reader, item)` for every item of a finite batch in `size` processes (one per core unless told),
    the results in the items' order: the images of `tableassist vision count`.

    Processes, not threads, because each has its own Python lock. Measured here (2026-11-28): 60 PNG frames of
    one scene counted in 1.72 s against 2.0 s by two reader threads (24 ms an image against 29, nearly half of
    it decoding the PNG); batches of 24 frames already decoded, 17.8 ms a frame against 18-20 by threads and
    22 by one reader. A batch of a few images gains nothing: starting the processes costs what they save.
    They are forked, with one reader made here first: each child reads with its own copy, and a missing cube
    net is one error, raised here. Each child reads on one thread (see no_helper_threads): 60 PNG frames of
    one scene, 2.33-2.65 s against 2.56-2.76 s with two each (2026-11-29, a busier machine than above).
    `work`, the items and the results go between processes, so they must pickle (a module's function, paths,
    plain records).
    """
    global _forked_reader
    size = max(1, size if size is not None else os.cpu_count() or 1)
    if size == 1:  # no child to fork for: read here
        reader = YardReader(profile)
        yield from (work(reader, item) for item in items)
        return
    with no_helper_threads():
        _forked_reader = YardReader(profile)
        processes = ProcessPoolExecutor(size, mp_context=multiprocessing.get_context("fork"),
                                        initializer=_leave_interrupts_to_the_parent)
        try:
            yield from processes.map(functools.partial(_read_in_child, work), items)
        except BrokenProcessPool as err:
            raise ReaderDied("a process reading the images stopped unexpectedly (out of memory?)") from err
        finally:
            # Given up early (or interrupted): nothing more is started; the frames being read finish.
            processes.shutdown(wait=True, cancel_futures=True)
            _forked_reader = None
