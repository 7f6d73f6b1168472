"""A batch read in processes: the same readings as one reader alone, in the frames' order, and Ctrl-C
stops it with no traceback from any of them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile, read_in_processes
from hardware.stockyard.pool import ReaderDied
from tableassist.ports import YardReading
from tests.vision.conftest import plain_scene, shoot
from tests.vision.scenes import place

LAYOUTS = [
    [("iron", 2, 2), ("coal", 10, 3)],
    [("stone", 4, 5), ("stone", 5, 5), ("event", 12, 7)],
    [],
    [("iron", 1, 1), ("iron", 2, 1), ("coal", 8, 6), ("coal", 13, 2)],
]


def frames() -> list[np.ndarray]:
    shots = []
    for seed, layout in enumerate(LAYOUTS):
        scene = plain_scene(tilt_deg=5.0 * seed)
        scene.cubes = place(scene, layout, 25.0)
        shots.append(shoot(scene, seed=seed))
    shots.insert(2, np.full((720, 1280, 3), 128, np.uint8))  # no markers: an answer all the same, in its place
    return shots


def reading_and_process(reader: YardReader, shot: np.ndarray) -> tuple[YardReading, int]:
    return reader.read(shot).reading, os.getpid()


def test_a_batch_read_in_processes_answers_as_one_reader_alone_in_order() -> None:
    profile = build_profile(shoot(plain_scene()))
    shots = frames()
    alone = [YardReader(profile).read(shot).reading for shot in shots]
    assert [r.counts()["iron"] for r in alone] == [1, 0, 0, 0, 2]  # premise: the frames differ

    answers = list(read_in_processes(profile, reading_and_process, shots, size=2))
    assert [reading for reading, _ in answers] == alone
    assert os.getpid() not in {pid for _, pid in answers}  # read in the children, not here
    assert list(read_in_processes(profile, reading_and_process, [], size=2)) == []
    one = list(read_in_processes(profile, reading_and_process, shots[:2], size=1))
    assert one == [(alone[0], os.getpid()), (alone[1], os.getpid())]  # one process: this one, no child forked


def opencv_threads(reader: YardReader, shot: np.ndarray) -> int:
    return cv2.getNumThreads()


def test_the_children_read_on_one_thread_and_the_parent_gets_its_own_back() -> None:
    """One process per core, each on one thread: forked while OpenCV's helper threads are stopped, so none
    of them held a lock the child then waits on for ever."""
    profile = build_profile(shoot(plain_scene()))
    default = cv2.getNumThreads()
    cv2.setNumThreads(3)  # the parent's own setting, more than one thread whatever this machine's cores
    try:
        assert list(read_in_processes(profile, opencv_threads, frames()[:3], size=2)) == [1, 1, 1]
        assert cv2.getNumThreads() == 3
        batch = read_in_processes(profile, opencv_threads, frames()[:3], size=2)
        assert next(batch) == 1
        batch.close()  # given up early: the setting is back all the same
        assert cv2.getNumThreads() == 3
    finally:
        cv2.setNumThreads(default)


def die(reader: YardReader, shot: np.ndarray) -> None:
    os._exit(3)  # as the kernel's out-of-memory killer would end it: no exception, no answer


def test_a_reading_process_that_dies_is_one_clear_error() -> None:
    profile = build_profile(shoot(plain_scene()))
    with pytest.raises(ReaderDied, match="stopped unexpectedly"):
        list(read_in_processes(profile, die, frames()[:2], size=2))


def _interrupts_heard() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_batch_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C goes to every process of the terminal's group, the children too. One of them waiting for
    work meanwhile must not die of it with a traceback of its own."""
    cv2.imwrite(str(tmp_path / "empty.png"), shoot(plain_scene()))
    scene = plain_scene()
    scene.cubes = place(scene, [("iron", 3, 3), ("coal", 9, 5)])
    play = shoot(scene)
    images = [str(tmp_path / "play1.png"), str(tmp_path / "play2.png"), str(tmp_path / "large.png")]
    cv2.imwrite(images[0], play)
    cv2.imwrite(images[1], play)
    # The last one slow to decode and read: the other child has nothing left to do while it is read.
    cv2.imwrite(images[2], cv2.resize(play, (5120, 2880), interpolation=cv2.INTER_LINEAR))
    tableassist = [sys.executable, "-m", "tableassist", "vision"]
    assert subprocess.run([*tableassist, "calibrate", str(tmp_path / "empty.png"), "--out", str(tmp_path / "cal")],
                          capture_output=True).returncode == 0
    # A session of its own, as a terminal's foreground job: the signal goes to the whole process group. And
    # Ctrl-C heard, as a terminal's job hears it: a test run started in the background by a shell without job
    # control inherits SIGINT ignored, and a Python started so never raises KeyboardInterrupt.
    batch = subprocess.Popen([*tableassist, "count", *images, "--calibration", str(tmp_path / "cal"), "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                             preexec_fn=_interrupts_heard)
    assert batch.stdout is not None
    assert all('"iron": 1' in batch.stdout.readline() for _ in range(2))  # the large one is being read now
    os.killpg(batch.pid, signal.SIGINT)
    out, err = batch.communicate(timeout=60)
    assert batch.returncode == 130 and out == ""  # stopped before the large one was counted
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
