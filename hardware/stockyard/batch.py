"""Many frames read side by side: one reader per core, answers in the frames' order.

A reader reads one frame at a time, and most of a frame's time is OpenCV's, which lets go of Python
while it works. So readers on two threads count a batch of images (`tableassist vision count`) about
one and a half times as fast on two cores; Python's own share of the work is what they still queue for.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
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

    def map(self, work: Callable[[YardReader, Item], Result], items: Iterable[Item]) -> Iterator[Result]:
        """`work(reader, item)` for every item, side by side; the results in the items' order."""

        def lent(item: Item) -> Result:
            reader = self._idle.get()  # a reader reads one frame at a time: never two threads at once
            try:
                return work(reader, item)
            finally:
                self._idle.put(reader)

        with ThreadPoolExecutor(self.size, thread_name_prefix="yard-reader") as threads:
            yield from threads.map(lent, items)
