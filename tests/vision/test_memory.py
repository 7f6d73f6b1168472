"""The reader keeps the memory a frame frees, so the next frame does not fault its pages in again."""

from __future__ import annotations

import resource

import numpy as np
import pytest

from hardware.stockyard import memory
from hardware.stockyard.memory import keep_freed_memory


def _page_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _faults_to_fill(megabytes: int) -> int:
    before = _page_faults()
    block = np.ones(megabytes << 18, np.float32)  # written, so every page is mapped
    faults = _page_faults() - before
    del block
    return faults


def test_a_freed_frame_sized_block_is_reused_without_page_faults() -> None:
    assert keep_freed_memory()  # glibc: CI and Raspberry Pi OS
    # By default glibc maps a block this big afresh each time, faulting in every page again; told to
    # keep freed memory, it serves the second block from the first one's pages.
    _faults_to_fill(30)
    assert _faults_to_fill(30) < 20


def test_the_c_library_is_told_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    assert keep_freed_memory()  # every reader asks; only the first asking reaches the C library

    def tune_again() -> bool:
        raise AssertionError("mallopt called a second time")

    monkeypatch.setattr(memory, "_tune_malloc", tune_again)
    assert keep_freed_memory()
