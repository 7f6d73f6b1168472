"""Checks of the sixth (blind) synthetic stock-yard generator: the conventions the yard reader relies on."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes_sixth import KINDS, LIMITS, SixthPair, sixth_scene_pair

SEEDS = (0, 1, 2, 3, 4, 6)  # seed 6 is an empty yard
HAND_SEEDS = (0, 1)

_cache: dict[tuple[int, bool], SixthPair] = {}


def pair(seed: int, hand: bool = False) -> SixthPair:
    key = (seed, hand)
    if key not in _cache:
        _cache[key] = sixth_scene_pair(seed, hand=hand)
    return _cache[key]


def markers(img: np.ndarray) -> dict[int, np.ndarray]:
    """id -> marker centre, using OpenCV's ArucoDetector directly; ids seen twice are dropped."""
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                  cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    if ids is None:
        return {}
    flat = [int(i) for i in ids.ravel()]
    return {i: np.asarray(c).reshape(4, 2).mean(0) for i, c in zip(flat, corners, strict=True) if flat.count(i) == 1}


def quad_mask(img: np.ndarray, grow: float = 0.0) -> np.ndarray:
    """Filled quadrilateral of the marker centres 0-1-2-3, scaled about its centroid by (1 + grow)."""
    found = markers(img)
    q = np.array([found[i] for i in range(4)], np.float64)
    q = q.mean(0) + (q - q.mean(0)) * (1 + grow)
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(q).astype(np.int32)], 1)
    return m.astype(bool)


def test_deterministic() -> None:
    a = pair(3)
    b = sixth_scene_pair(3)
    assert np.array_equal(a.calibration, b.calibration)
    assert np.array_equal(a.play.image, b.play.image)
    assert np.array_equal(a.play.cube_mask, b.play.cube_mask)
    assert a.play.counts == b.play.counts
    assert not np.array_equal(a.calibration, pair(4).calibration)


@pytest.mark.parametrize("seed", SEEDS)
def test_shapes_and_types(seed: int) -> None:
    p = pair(seed)
    assert p.hand is False
    for img in (p.calibration, p.play.image):
        assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
        assert 20 < float(img.mean()) < 235 and float(img.std()) > 10
    assert p.play.cube_mask.shape == (720, 1280) and p.play.cube_mask.dtype == np.bool_
    assert list(p.play.counts) == list(KINDS)
    assert all(isinstance(v, int) for v in p.play.counts.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_all_markers_detected_in_both_photos(seed: int) -> None:
    p = pair(seed)
    for img in (p.calibration, p.play.image):
        found = markers(img)
        assert set(found) >= {0, 1, 2, 3}
        q = np.array([found[i] for i in range(4)], np.float32)
        # 0-1-2-3 must go round the yard (a convex, non-self-intersecting quadrilateral)
        assert cv2.isContourConvex(q.reshape(-1, 1, 2))
        assert cv2.contourArea(q) > 0.02 * 1280 * 720


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_and_mask_agree(seed: int) -> None:
    p = pair(seed)
    c = p.play.counts
    assert all(0 <= c[k] <= LIMITS[k] for k in KINDS)
    assert sum(c.values()) <= 20
    n = sum(c.values())
    area = int(p.play.cube_mask.sum())
    assert (area > 0) == (n > 0)
    if n:
        # each cube is at least partly visible and none is absurdly large
        assert 30 * n <= area <= 6000 * n
        n_blobs = cv2.connectedComponents(p.play.cube_mask.astype(np.uint8))[0] - 1
        assert 1 <= n_blobs <= n


def test_some_seeds_empty_and_some_full() -> None:
    totals = [sum(pair(s).play.counts.values()) for s in SEEDS]
    assert 0 in totals
    assert max(totals) >= 8


@pytest.mark.parametrize("seed", SEEDS)
def test_cube_mask_inside_marker_quadrilateral(seed: int) -> None:
    p = pair(seed)
    inside = quad_mask(p.play.image)
    inside = cv2.dilate(inside.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    assert not (p.play.cube_mask & ~inside).any()


def test_play_has_cubes_where_mask_says() -> None:
    """The play photo differs from the (empty) calibration photo mostly where the cube mask is."""
    hits = 0
    for seed in SEEDS:
        p = pair(seed)
        if not p.play.cube_mask.any():
            continue
        hsv = cv2.cvtColor(p.play.image, cv2.COLOR_BGR2HSV).astype(np.float32)
        on = p.play.cube_mask
        ring = cv2.dilate(on.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(bool) & ~on
        # cube pixels are more saturated (orange) or more extreme in value (white/black/grey paint) than around
        sat_gap = abs(float(hsv[..., 1][on].mean() - hsv[..., 1][ring].mean()))
        val_gap = abs(float(hsv[..., 2][on].mean() - hsv[..., 2][ring].mean()))
        hits += (sat_gap > 8) or (val_gap > 8)
    assert hits >= 3


def _board_stats(img: np.ndarray, yard: np.ndarray) -> tuple[float, float, float]:
    px = img[~yard].astype(np.float64)
    b, g, r = px[:, 0].mean(), px[:, 1].mean(), px[:, 2].mean()
    return (b + g + r) / 3, r / g, b / g


def test_lighting_changes_between_calibration_and_play() -> None:
    changed = 0
    for seed in SEEDS:
        p = pair(seed)
        yard = quad_mask(p.calibration, grow=0.4) | quad_mask(p.play.image, grow=0.4)
        y0, rg0, bg0 = _board_stats(p.calibration, yard)
        y1, rg1, bg1 = _board_stats(p.play.image, yard)
        changed += abs(y1 - y0) > 4 or abs(rg1 - rg0) > 0.025 or abs(bg1 - bg0) > 0.025
    assert changed >= 4


def test_camera_nudged_between_photos() -> None:
    moved = 0
    for seed in SEEDS:
        p = pair(seed)
        a, b = markers(p.calibration), markers(p.play.image)
        shift = max(float(np.linalg.norm(a[i] - b[i])) for i in range(4))
        assert shift < 80
        moved += shift > 0.5
    assert moved >= 4


def _skinlike(img: np.ndarray) -> np.ndarray:
    """Skin-coloured: a red-orange hue, moderately saturated, not too dark (holds for light to dark skin)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.int32)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    return ((h <= 17) | (h >= 172)) & (s > 40) & (s < 200) & (v > 30)


@pytest.mark.parametrize("seed", HAND_SEEDS)
def test_hand_adds_skin_over_the_yard(seed: int) -> None:
    plain, withhand = pair(seed), pair(seed, hand=True)
    assert withhand.hand is True
    # same scene and cubes; only the play photo gains the hand
    assert np.array_equal(plain.calibration, withhand.calibration)
    assert plain.play.counts == withhand.play.counts
    assert not np.array_equal(plain.play.image, withhand.play.image)
    assert not (withhand.play.cube_mask & ~plain.play.cube_mask).any()  # the hand can only hide cubes
    yard = quad_mask(plain.calibration, grow=0.05)
    diff = np.abs(plain.play.image.astype(np.int32) - withhand.play.image.astype(np.int32)).sum(-1)
    changed = (diff > 45) & yard
    assert changed.sum() > 0.03 * yard.sum()
    skin_hand, skin_plain = _skinlike(withhand.play.image), _skinlike(plain.play.image)
    assert (skin_hand & changed).sum() > 0.4 * changed.sum()
    assert (skin_hand & ~skin_plain & yard).sum() > 0.01 * yard.sum()
