"""Tests of the blind scene generator itself (no reader is involved)."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from tests.vision import scenes_blind
from tests.vision.scenes_blind import KINDS, BlindPair, blind_scene_pair

SEEDS = (0, 1, 2, 5, 7)
_DETECTOR = cv2.aruco.ArucoDetector(
    cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
)


@cache
def _pair(seed: int, hand: bool = False) -> BlindPair:
    return blind_scene_pair(seed, hand=hand)


def _marker_centres(image: np.ndarray) -> dict[int, np.ndarray]:
    corners, ids, _ = _DETECTOR.detectMarkers(image)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).mean(axis=0) for c, i in zip(corners, ids.ravel(), strict=True)}


def test_same_seed_same_pair() -> None:
    a, b = _pair(3), blind_scene_pair(3)
    assert np.array_equal(a.calibration, b.calibration)
    assert np.array_equal(a.play.image, b.play.image)
    assert a.play.counts == b.play.counts
    assert a.play.kinds == b.play.kinds
    assert np.array_equal(a.play.cube_centres, b.play.cube_centres)
    assert not np.array_equal(a.play.image, _pair(SEEDS[0]).play.image)


@pytest.mark.parametrize("seed", SEEDS)
def test_images_are_720p_bgr(seed: int) -> None:
    pair = _pair(seed)
    for image in (pair.calibration, pair.play.image):
        assert image.shape == (720, 1280, 3)
        assert image.dtype == np.uint8
        assert 30 < float(image.mean()) < 225  # neither black nor blown out


@pytest.mark.parametrize("seed", SEEDS)
def test_all_four_markers_detected_in_both_photos(seed: int) -> None:
    pair = _pair(seed)
    for image in (pair.calibration, pair.play.image):
        assert sorted(_marker_centres(image)) == [0, 1, 2, 3]


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_match_kinds(seed: int) -> None:
    shot = _pair(seed).play
    assert list(shot.counts) == list(KINDS)
    assert shot.counts == {k: shot.kinds.count(k) for k in KINDS}
    assert set(shot.kinds) <= set(KINDS)
    assert 0 <= sum(shot.counts.values()) <= 15
    assert shot.cube_centres.shape == (len(shot.kinds), 2)
    assert np.issubdtype(shot.cube_centres.dtype, np.floating)


def test_cube_numbers_over_many_scenes() -> None:
    """Layout only (no rendering): totals span the range, mixes vary, and cubes touch in some scenes."""
    totals, touching, kinds_seen = [], 0, set()
    for seed in range(80):
        rng = np.random.default_rng(seed)
        layout = scenes_blind._sample_layout(rng)
        cubes = scenes_blind._place_cubes(rng, layout)
        totals.append(len(cubes))
        kinds_seen |= {c.kind for c in cubes}
        centres = np.array([[c.x, c.y] for c in cubes]).reshape(-1, 2)
        d = np.linalg.norm(centres[:, None] - centres[None, :], axis=2) + np.eye(len(cubes)) * 1e9
        touching += bool(len(cubes) > 1 and d.min() < layout.cube_mm * 1.1)
    assert min(totals) == 0 and max(totals) >= 13 and max(totals) <= 15
    assert 3 <= float(np.median(totals)) <= 12
    assert kinds_seen == set(KINDS)
    assert touching >= 10


@pytest.mark.parametrize("seed", SEEDS)
def test_play_differs_from_calibration(seed: int) -> None:
    pair = _pair(seed)
    diff = np.abs(pair.play.image.astype(np.int16) - pair.calibration.astype(np.int16))
    assert float(diff.mean()) > 3.0
    # the lighting changed too, not only the cubes and the camera: the mean colour moved
    shift = np.abs(pair.play.image.reshape(-1, 3).mean(axis=0) - pair.calibration.reshape(-1, 3).mean(axis=0))
    assert float(shift.max()) > 2.0


@pytest.mark.parametrize("seed", SEEDS)
def test_cube_centres_inside_marker_quadrilateral(seed: int) -> None:
    shot = _pair(seed).play
    markers = _marker_centres(shot.image)
    quad = np.array([markers[i] for i in range(4)], np.float32)
    for x, y in shot.cube_centres:
        assert cv2.pointPolygonTest(quad, (float(x), float(y)), False) > 0


@pytest.mark.parametrize("seed", SEEDS)
def test_cubes_are_where_the_centres_say(seed: int) -> None:
    """Each centre lies on something the calibration photo did not show, and no two centres coincide."""
    pair = _pair(seed)
    centres = pair.play.cube_centres
    if len(centres) > 1:
        d = np.linalg.norm(centres[:, None] - centres[None, :], axis=2) + np.eye(len(centres)) * 1e9
        assert d.min() > 10.0
    play = cv2.GaussianBlur(pair.play.image, (0, 0), 1.5).astype(np.float32)
    for x, y in centres:
        xi, yi = int(round(x)), int(round(y))
        patch = play[yi - 2:yi + 3, xi - 2:xi + 3].reshape(-1, 3).mean(axis=0)
        ring = np.concatenate([play[yi - 25, xi - 25:xi + 26], play[yi + 25, xi - 25:xi + 26],
                               play[yi - 25:yi + 26, xi - 25], play[yi - 25:yi + 26, xi + 25]])
        # the cube differs from the yard floor around it in at least one channel
        assert float(np.abs(patch - np.median(ring, axis=0)).max()) > 12.0


def test_hand_only_changes_the_play_photo() -> None:
    plain, with_hand = _pair(SEEDS[1]), _pair(SEEDS[1], hand=True)
    assert np.array_equal(plain.calibration, with_hand.calibration)
    assert plain.play.counts == with_hand.play.counts
    assert np.array_equal(plain.play.cube_centres, with_hand.play.cube_centres)
    changed = np.abs(plain.play.image.astype(np.int16) - with_hand.play.image.astype(np.int16)).max(axis=2) > 40
    assert changed.mean() > 0.02  # a hand covers a good part of the frame
    edges = np.concatenate([changed[0], changed[-1], changed[:, 0], changed[:, -1]])
    assert edges.any()  # and it comes in from an image edge
