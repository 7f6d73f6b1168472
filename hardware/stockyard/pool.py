"""Frames read side by side: one reader per core, answers in the frames' order.

A reader reads one frame at a time, and most of a frame's time is OpenCV's, which lets go of Python
while it works. So readers on two threads count a batch of images (`tableassist vision count`) faster
on two cores: 29-31 ms an image against 33 one at a time, here (160 frames of 20 scenes, 2026-11-28). Not
twice as fast: a single reader already runs its cube net beside the rest, Python's own share of the work is
what they queue for, and this machine's second core is shared (two busy processes got 1.45 and 1.9 times
one's work in two tries).
The table session's camera keeps one reader: for the three frames of a steady reading, two readers
brought it no sooner (159 ms against 145, here).
"""

from __future__ import annotations

import os
import queue
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from hardware.stockyard.profile import YardProfile
from hardware.stockyard.reader import YardReader

Item = TypeVar("Item")
Result = TypeVar("Result")


class ReaderPool:
    """`size` readers of one profile (one per core unless told), lent to a thread each in turn."""

    def __init__(self, profile: YardProfile, size: int | None = None) -> None:
        self.size = max(1, size if size is not None else os.cpu_count() or 1)
        self._idle: queue.SimpleQueue[YardReader] = queue.SimpleQueue()
        for _ in range(self.size):
            self._idle.put(YardReader(profile))  # raises ModelMissing before any thread starts

    def map(self, work: Callable[[YardReader, Item], Result], items: Iterable[Item]) -> Generator[Result, None, None]:
        """`work(reader, item)` for every item, side by side; the results in the items' order.

        No more items are taken than there are readers to work on them, so `items` may be endless (a
        stream of frames): stop iterating, and what was taken is finished, the rest left untaken.
        """

        def lent(item: Item) -> Result:
            reader = self._idle.get()  # a reader reads one frame at a time: never two threads at once
            try:
                return work(reader, item)
            finally:
                self._idle.put(reader)

        threads = ThreadPoolExecutor(self.size, thread_name_prefix="yard-reader")
        pending: deque[Future[Result]] = deque()
        try:
            for item in items:
                pending.append(threads.submit(lent, item))
                if len(pending) == self.size:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        finally:
            # Given up early: nothing more is started, and a frame being read finishes on its own (its
            # reader goes back to the pool then) rather than hold up what the caller already has.
            threads.shutdown(wait=False, cancel_futures=True)
