"""Checks of the independent scene generator itself (not of the stock-yard reader).

The expected values here come from outside the generator: OpenCV's own ArUco detector, OpenCV's convex
polygon intersection, and the numbers the brief asks for (frame size, cube counts per kind, yard size).
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import cv2
import numpy as np
import pytest

from tests.vision.scenes_indep import IndepPair, indep_scene_pair

SEEDS = (0, 1, 2, 3, 4, 5)
LIMITS = {"iron": 10, "stone": 6, "coal": 4, "event": 3}


@cache
def scene(seed: int, hand: bool = False) -> IndepPair:
    return indep_scene_pair(seed, hand)


def footprint(x: float, y: float, angle: float, size: float) -> np.ndarray:
    """A cube's square on the board, worked out here rather than taken from the generator."""
    half = size / 2
    offsets = [(-half, -half), (half, -half), (half, half), (-half, half)]
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[x + c * u - s * v, y + s * u + c * v] for u, v in offsets], np.float32)


def test_same_seed_gives_the_same_scene_and_another_seed_another() -> None:
    a, b = indep_scene_pair(3), scene(3)
    assert np.array_equal(a.calibration, b.calibration)
    assert np.array_equal(a.play.image, b.play.image)
    assert a.play.counts == b.play.counts
    other = scene(4)
    assert not np.array_equal(a.calibration, other.calibration)


@pytest.mark.parametrize("seed", SEEDS)
def test_images_are_720p_bgr_bytes(seed: int) -> None:
    pair = scene(seed)
    for image in (pair.calibration, pair.play.image):
        assert image.shape == (720, 1280, 3)
        assert image.dtype == np.uint8
        assert 20 < float(image.mean()) < 235  # a photograph, not a blank frame


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_are_the_cubes_placed(seed: int) -> None:
    pair = scene(seed)
    counts = pair.play.counts
    assert set(counts) == set(LIMITS)
    assert counts == {k: Counter(c.kind for c in pair.play.cubes).get(k, 0) for k in LIMITS}
    assert all(0 <= counts[k] <= LIMITS[k] for k in LIMITS)
    assert sum(counts.values()) <= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_cubes_stand_inside_the_yard_and_never_overlap(seed: int) -> None:
    pair = scene(seed)
    w, h = pair.yard_mm
    squares = [footprint(c.x, c.y, c.angle, c.size) for c in pair.play.cubes]
    for c, sq in zip(pair.play.cubes, squares, strict=True):
        assert 7.5 <= c.size <= 10.5
        assert sq[:, 0].min() >= 0 and sq[:, 0].max() <= w and sq[:, 1].min() >= 0 and sq[:, 1].max() <= h
    for i in range(len(squares)):
        for j in range(i):
            shared, _ = cv2.intersectConvexConvex(squares[i], squares[j])
            assert shared < 0.5, f"cubes {i} and {j} overlap by {shared:.2f} mm²"


def test_crowded_scenes_have_touching_cubes() -> None:
    """Over a run of seeds some yards hold 17+ cubes and some cubes touch (gap under 0.5 mm)."""
    crowded = touching = 0
    for seed in range(40, 52):
        cubes = indep_scene_pair(seed).play.cubes
        crowded += len(cubes) >= 15
        for i, a in enumerate(cubes):
            for b in cubes[:i]:
                grown_a = footprint(a.x, a.y, a.angle, a.size + 1.0)  # 0.5 mm all round
                shared, _ = cv2.intersectConvexConvex(grown_a, footprint(b.x, b.y, b.angle, b.size))
                touching += shared > 0
    assert crowded >= 1
    assert touching >= 5


@pytest.mark.parametrize("seed", SEEDS)
def test_markers_are_found_by_opencv_where_the_generator_put_them(seed: int) -> None:
    pair = scene(seed)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(pair.calibration)
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert set(found) == {0, 1, 2, 3}
    for marker_id, quad in found.items():
        assert np.abs(quad - pair.marker_corners_px[marker_id]).max() < 3.0
    # ids 0..3 sit at the yard's TL, TR, BR, BL: each marker is nearest its own yard corner
    centres = np.array([found[i].mean(axis=0) for i in range(4)])
    yard = pair.calibration_yard_corners_px
    for i in range(4):
        assert int(np.argmin(np.linalg.norm(yard - centres[i], axis=1))) == i


@pytest.mark.parametrize("seed", SEEDS)
def test_camera_frames_the_yard_and_is_knocked_a_little_before_play(seed: int) -> None:
    pair = scene(seed)
    cal, play = pair.calibration_yard_corners_px, pair.play.yard_corners_px
    assert 0.38 <= np.ptp(cal[:, 1]) / 720 <= 0.86
    moved = np.abs(play - cal).max()
    assert 1.0 < moved < 120.0
    w, h = pair.yard_mm
    assert 100 <= w <= 200 and 60 <= h <= 150
    assert 10 <= w / pair.cube_mm <= 22


def test_light_differs_between_calibration_and_play() -> None:
    """The same empty board reads differently: compare the yard's mean colour in both images."""
    shifts = []
    for seed in SEEDS:
        pair = scene(seed)
        colours = []
        for image, quad in ((pair.calibration, pair.calibration_yard_corners_px),
                            (pair.play.image, pair.play.yard_corners_px)):
            mask = np.zeros(image.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255)
            colours.append(np.array(cv2.mean(image, mask)[:3]))
        shifts.append(float(np.abs(colours[0] - colours[1]).max()))
    assert max(shifts) > 15


def test_a_hand_covers_part_of_the_yard_and_leaves_the_truth_alone() -> None:
    plain, hand = scene(2), scene(2, hand=True)
    assert hand.hand and not plain.hand
    assert hand.play.counts == plain.play.counts
    assert np.array_equal(hand.calibration, plain.calibration)
    mask = np.zeros((720, 1280), np.uint8)
    cv2.fillConvexPoly(mask, np.round(plain.play.yard_corners_px).astype(np.int32), 255)
    diff = cv2.absdiff(hand.play.image, plain.play.image).max(axis=2)
    changed = np.count_nonzero((diff > 60) & (mask > 0)) / np.count_nonzero(mask)
    assert changed > 0.05
