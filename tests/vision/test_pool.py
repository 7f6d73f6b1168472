"""Frames read side by side: the same readings as one reader alone, in the frames' order."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator

import numpy as np

from hardware.stockyard import ReaderPool, YardReader, build_profile
from hardware.stockyard.reader import FrameReading
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


def test_readers_side_by_side_answer_as_one_reader_alone_in_order() -> None:
    profile = build_profile(shoot(plain_scene()))
    shots = frames()
    alone = [YardReader(profile).read(shot).reading for shot in shots]
    assert [r.counts()["iron"] for r in alone] == [1, 0, 0, 0, 2]  # premise: the frames differ

    both_at_once = threading.Barrier(2, timeout=60)  # broken unless two frames are read at the same time
    in_use: set[int] = set()
    lock = threading.Lock()

    def read(reader: YardReader, shot: np.ndarray) -> FrameReading:
        with lock:
            assert id(reader) not in in_use  # a reader is never lent to two threads at once
            in_use.add(id(reader))
        both_at_once.wait()
        try:
            return reader.read(shot)
        finally:
            with lock:
                in_use.discard(id(reader))

    pool = ReaderPool(profile, size=2)
    side_by_side = [result.reading for result in pool.map(read, shots[:4])]
    side_by_side += [result.reading for result in pool.map(lambda reader, shot: reader.read(shot), shots[4:])]
    assert side_by_side == alone



def test_no_more_frames_are_taken_than_there_are_readers_to_read_them() -> None:
    profile = build_profile(shoot(plain_scene()))
    shots = frames()
    taken: list[int] = []

    def endless() -> Iterator[np.ndarray]:
        for i in itertools.count():
            taken.append(i)
            yield shots[i % len(shots)]

    results = ReaderPool(profile, size=2).map(lambda reader, shot: reader.read(shot).reading, endless())
    first = next(results)
    assert first.counts() == YardReader(profile).read(shots[0]).reading.counts()
    assert taken == [0, 1]  # the first answer waited for; the second frame being read meanwhile
    results.close()  # given up: nothing more is taken
    assert taken == [0, 1]
