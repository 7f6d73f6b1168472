"""Checks of the fifth, independently modelled stock-yard scene generator (tests/vision/scenes_fifth.py)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tests.vision import scenes_fifth as sf

H, W = 720, 1280
MARKER_SEEDS = range(6)
HAND_SEEDS = [s for s in range(3, 60) if sum(sf.fifth_scene(s).counts.values()) > 0][:3]
_pairs: dict[tuple[int, bool], sf.FifthPair] = {}


def pair(seed: int, hand: bool = False) -> sf.FifthPair:
    key = (seed, hand)
    if key not in _pairs:
        _pairs[key] = sf.fifth_scene_pair(seed, hand=hand)
    return _pairs[key]


def detect(img: np.ndarray) -> dict[int, np.ndarray]:
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                  cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(img)
    if ids is None:
        return {}
    return {int(i): np.asarray(c, dtype=np.float64).reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)}


def quad_mask(centres: np.ndarray) -> np.ndarray:
    m = np.zeros((H, W), np.uint8)
    cv2.fillConvexPoly(m, np.round(centres).astype(np.int32), 1)
    return m.astype(bool)


def light_key(lighting: sf._Lighting) -> list[tuple[str, float, tuple[float, ...]]]:
    key = [(li.kind, round(li.power, 3), tuple(np.round(li.rgb, 4))) for li in lighting.lights]
    return key + [("ambient", 0.0, tuple(np.round(lighting.ambient, 3)))]


def test_deterministic_per_seed_and_seeds_differ() -> None:
    a = sf.fifth_scene_pair(5)
    sf.fifth_clear_caches()
    b = sf.fifth_scene_pair(5)
    assert np.array_equal(a.calibration, b.calibration)
    assert np.array_equal(a.play.image, b.play.image)
    assert np.array_equal(a.play.cube_mask, b.play.cube_mask)
    assert a.play.counts == b.play.counts
    c = pair(4)
    assert not np.array_equal(a.calibration, c.calibration)


def test_shapes_and_dtypes() -> None:
    for seed, hand in ((0, False), (3, True)):
        p = pair(seed, hand)
        assert p.hand is hand
        assert p.calibration.shape == (H, W, 3) and p.calibration.dtype == np.uint8
        assert p.play.image.shape == (H, W, 3) and p.play.image.dtype == np.uint8
        assert p.play.cube_mask.shape == (H, W) and p.play.cube_mask.dtype == np.bool_
        assert set(p.play.counts) == {"iron", "stone", "coal", "event"}
        assert all(isinstance(v, int) and v >= 0 for v in p.play.counts.values())


def test_counts_limits_placement_and_empty_share() -> None:
    empty = touching = crowded = 0
    n = 240
    for seed in range(n):
        scene = sf.fifth_scene(seed)
        counts = scene.counts
        for kind, limit in sf.PIECE_LIMITS.items():
            assert 0 <= counts[kind] <= limit
        assert sum(counts.values()) == len(scene.cubes) <= 20
        tally = {k: 0 for k in sf.KINDS}
        for c in scene.cubes:
            tally[c.kind] += 1
            assert 7.4 < c.size < 8.6
            x0, y0, yw, yh = scene.yard
            assert x0 < c.center[0] < x0 + yw and y0 < c.center[1] < y0 + yh
        assert tally == counts
        empty += sum(counts.values()) == 0
        ground = [c for c in scene.cubes if c.level == 0]
        feet = [sf._footprint(c.center[0], c.center[1], math.atan2(c.rot[1, 0], c.rot[0, 0]), c.size) for c in ground]
        for i in range(len(feet)):
            for j in range(i + 1, len(feet)):
                shrunk = [f.mean(axis=0) + (f - f.mean(axis=0)) * 0.97 for f in (feet[i], feet[j])]
                assert not sf._overlap2d(shrunk[0], shrunk[1]), f"cubes intersect in seed {seed}"
        if len(ground) >= 3:
            crowded += 1
            dists = [np.linalg.norm(a.center[:2] - b.center[:2]) for k, a in enumerate(ground) for b in ground[k + 1:]]
            touching += int(min(dists) < 1.2 * ground[0].size)
    assert 0.04 * n <= empty <= 0.12 * n
    assert touching >= 0.8 * crowded
    for seed in (0, 3):
        assert pair(seed).play.counts == sf.fifth_scene(seed).counts


@pytest.mark.parametrize("seed", MARKER_SEEDS)
def test_markers_detected_and_arranged(seed: int) -> None:
    p = pair(seed)
    for img in (p.calibration, p.play.image):
        found = detect(img)
        assert set(found) == {0, 1, 2, 3}
        centres = np.array([found[i].mean(axis=0) for i in range(4)])
        # TL, TR, BR, BL go clockwise on screen (image y points down): positive shoelace sum
        x, y = centres[:, 0], centres[:, 1]
        area = 0.5 * np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
        assert area > 2000
        hull = cv2.convexHull(centres.astype(np.float32))
        assert len(hull) == 4
        # each marker is laid upright in board orientation: its own "up" points from BL (3) towards TL (0)
        board_up = centres[0] - centres[3]
        for i in range(4):
            up = found[i][0] - found[i][3]
            cosang = float(board_up @ up / (np.linalg.norm(board_up) * np.linalg.norm(up)))
            assert cosang > math.cos(math.radians(25))
    mask = p.play.cube_mask
    if mask.any():
        centres = np.array([detect(p.play.image)[i].mean(axis=0) for i in range(4)])
        inside = quad_mask(centres)
        assert (mask & inside).sum() >= 0.99 * mask.sum()


def test_cube_mask_follows_counts() -> None:
    empty_seed = next(s for s in range(400) if sum(sf.fifth_scene(s).counts.values()) == 0)
    busy_seed = next(s for s in range(400) if sum(sf.fifth_scene(s).counts.values()) >= 12)
    e = pair(empty_seed)
    assert not e.play.cube_mask.any()
    b = pair(busy_seed)
    assert b.play.cube_mask.sum() > 12 * 40
    for seed in MARKER_SEEDS:
        p = pair(seed)
        assert p.play.cube_mask.any() == (sum(p.play.counts.values()) > 0)


@pytest.mark.parametrize("seed", HAND_SEEDS)
def test_hand_covers_part_of_the_yard(seed: int) -> None:
    free = pair(seed)
    hand = pair(seed, hand=True)
    assert sum(free.play.counts.values()) > 0
    assert hand.play.counts == free.play.counts
    assert np.array_equal(hand.calibration, free.calibration)
    found = detect(free.play.image)
    yard = quad_mask(np.array([found[i].mean(axis=0) for i in range(4)]))
    diff = np.abs(hand.play.image.astype(np.int16) - free.play.image.astype(np.int16)).max(axis=2)
    assert (diff[yard] > 40).mean() > 0.05
    assert not (hand.play.cube_mask & ~free.play.cube_mask).any()
    assert (free.play.cube_mask & ~hand.play.cube_mask).sum() > 20


def test_calibration_and_play_differ_in_pose_and_light() -> None:
    moved = recoloured = 0
    for seed in MARKER_SEEDS:
        p = pair(seed)
        a, b = detect(p.calibration), detect(p.play.image)
        shift = np.mean([np.linalg.norm(a[i].mean(axis=0) - b[i].mean(axis=0)) for i in range(4)])
        moved += shift > 1.0
        scene = sf.fifth_scene(seed)
        assert light_key(scene.light_cal) != light_key(scene.light_play)
        ca = p.calibration.reshape(-1, 3).astype(np.float64).mean(axis=0)
        pb = p.play.image.reshape(-1, 3).astype(np.float64).mean(axis=0)
        recoloured += np.abs(np.log(ca / ca.mean()) - np.log(pb / pb.mean())).max() > 0.01 or \
            abs(ca.mean() - pb.mean()) > 3
    assert moved == len(MARKER_SEEDS)
    assert recoloured >= len(MARKER_SEEDS) - 1
