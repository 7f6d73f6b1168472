"""The reader runs its cube net on a worker thread: the same readings, and a child forked as a batch forks
its processes still reads."""

from __future__ import annotations

import os
import time

import pytest

import hardware.stockyard.reader as reader_module
from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.pool import no_helper_threads
from tests.vision.scenes import scene_pair


def test_a_forked_child_reads_with_its_own_worker() -> None:
    """A child has none of its parent's threads; waiting on the parent's worker would hang it for ever."""
    pair = scene_pair(6004)
    with no_helper_threads():  # as read_in_processes forks: OpenCV's helpers may not hold its locks then
        reader = YardReader(build_profile(pair.calibration))
        want = reader.read(pair.play.image).reading.counts()  # the parent's worker is running now
        pid = os.fork()
        if pid == 0:  # the child: exit 0 only if it reads the same
            try:
                os._exit(0 if reader.read(pair.play.image).reading.counts() == want else 1)
            finally:
                os._exit(2)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    pytest.fail("the forked child did not finish reading within a minute")


def test_the_worker_gives_what_the_net_gives_in_line() -> None:
    """The threaded read gives the same mask as running the net on the reading thread."""
    pair = scene_pair(6005)
    reader = YardReader(build_profile(pair.calibration))
    threaded = reader.read(pair.play.image)
    assert threaded.frame is not None and threaded.mask is not None
    compared = reader.compare(threaded.frame)
    logits = reader._cube_finder.logits(compared.colours, compared.empty.colours)
    in_line = (logits > reader_module.CUBE_LOGIT) & (compared.allowed > 0)
    assert ((threaded.mask > 0) == in_line).all()
    assert in_line.any()
