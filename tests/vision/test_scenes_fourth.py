"""Fast checks of the fourth synthetic stock-yard scene generator (tests/vision/scenes_fourth.py).

These test the generator itself, not the reader: frame format, determinism, that the reported counts are
the cubes actually drawn, that every hand-free frame shows all four markers to cv2.aruco's default
detector at the places the geometry says, that the cube mask matches the cubes, and that a hand scene is
the hand-free scene plus a hand and its shadow, nothing else.
"""

from __future__ import annotations

import functools
import math
from collections import Counter

import cv2
import numpy as np
import pytest

from tests.vision import scenes_fourth as sf
from tests.vision.scenes_fourth import COLOURS, FRAME_H, FRAME_W, LIMITS, FourthPair, fourth_scene_pair

SEEDS = (0, 1, 2, 3)
HAND_SEEDS = (0, 5)


@functools.cache
def _gen(seed: int, hand: bool = False) -> tuple[FourthPair, sf._Debug]:
    return sf._generate(seed, hand)


@functools.cache
def _empty_seed() -> int:
    for seed in range(500):
        if not sf._plan(np.random.default_rng(seed)).cubes:
            return seed
    raise AssertionError("no empty scene among 500 seeds")


def _detect(img: np.ndarray) -> dict[int, np.ndarray]:
    det = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _rej = det.detectMarkers(img)
    if ids is None:
        return {}
    return {int(i): np.asarray(c).reshape(4, 2) for i, c in zip(np.asarray(ids).ravel(), corners, strict=True)}


@pytest.mark.parametrize("seed", SEEDS)
def test_frame_format(seed: int) -> None:
    pair, _dbg = _gen(seed)
    assert pair.hand is False
    for img in (pair.calibration, pair.play.image):
        assert img.shape == (FRAME_H, FRAME_W, 3)
        assert img.dtype == np.uint8
        assert 20 < float(img.mean()) < 235
    assert pair.play.cube_mask.shape == (FRAME_H, FRAME_W)
    assert pair.play.cube_mask.dtype == np.bool_
    assert tuple(pair.play.counts) == COLOURS
    assert all(isinstance(v, int) and v >= 0 for v in pair.play.counts.values())
    assert (FRAME_W, FRAME_H) == (1280, 720)


def test_deterministic_per_seed() -> None:
    a = fourth_scene_pair(3)
    b, _dbg = _gen(3)
    assert np.array_equal(a.calibration, b.calibration)
    assert np.array_equal(a.play.image, b.play.image)
    assert np.array_equal(a.play.cube_mask, b.play.cube_mask)
    assert a.play.counts == b.play.counts
    c, _dbg1 = _gen(1)
    assert not np.array_equal(a.play.image, c.play.image)


@pytest.mark.parametrize("seed", SEEDS)
def test_counts_are_the_cubes_drawn(seed: int) -> None:
    pair, dbg = _gen(seed)
    drawn = Counter(c.colour for c in dbg.scene.plan.cubes)
    assert pair.play.counts == {c: drawn.get(c, 0) for c in COLOURS}


def test_plans_over_many_seeds() -> None:
    """Counts within the limits, cubes inside the yard, apart from each other and off the marker papers."""
    totals = []
    single_colour = 0
    touching = 0
    for seed in range(300):
        plan = sf._plan(np.random.default_rng(seed))
        counts = plan.counts
        total = sum(counts.values())
        totals.append(total)
        assert set(counts) == set(COLOURS)
        assert 0 <= total <= sf.MAX_TOTAL
        assert all(counts[c] <= LIMITS[c] for c in COLOURS)
        assert counts["event"] <= 2
        assert len(plan.cubes) == total
        single_colour += int(total > 1 and sum(v > 0 for v in counts.values()) == 1)
        s = plan.cube
        assert 8.0 <= s <= 10.0
        assert 1 / 25 <= s / plan.yard_w <= 1 / 9
        rects = [sf._Rect(c.u, c.v, s / 2, s / 2, c.ang) for c in plan.cubes]
        papers = [sh.paper_rect() for sh in plan.sheets]
        assert [sh.marker_id for sh in plan.sheets] == [0, 1, 2, 3]
        for r in rects:
            corners = r.corners()
            assert corners[:, 0].min() > 0 and corners[:, 0].max() < plan.yard_w
            assert corners[:, 1].min() > 0 and corners[:, 1].max() < plan.yard_h
            assert not any(sf._overlap(r, p, 0.5 * s) for p in papers)
        for i, a in enumerate(rects):
            for b in rects[i + 1 :]:
                assert not sf._overlap(a, b)
                touching += int(sf._overlap(a, b, 0.5))
        for i, a in enumerate(papers):
            for b in papers[i + 1 :]:
                assert not sf._overlap(a, b)
    assert totals.count(0) >= 5
    assert max(totals) == sf.MAX_TOTAL
    assert single_colour >= 10
    assert touching >= 100


@pytest.mark.parametrize("seed", SEEDS)
def test_markers_detectable_where_the_geometry_puts_them(seed: int) -> None:
    pair, dbg = _gen(seed)
    sc = dbg.scene
    for img, pose in ((pair.calibration, sc.poses[0]), (pair.play.image, sc.poses[1])):
        found = _detect(img)
        assert {0, 1, 2, 3} <= set(found)
        for sh in sc.plan.sheets:
            centre = np.array([[sh.u, sh.v, 0.0]])
            px, _z = sf._project(sc.ctx.intr, pose, centre)
            assert np.linalg.norm(found[sh.marker_id].mean(axis=0) - px[0]) < 4.0
    # id 0..3 sit at the yard's TL, TR, BR, BL corners (board coordinates, v down)
    us = [sh.u for sh in sc.plan.sheets]
    vs = [sh.v for sh in sc.plan.sheets]
    assert us[0] < us[1] and us[3] < us[2] and vs[0] < vs[3] and vs[1] < vs[2]


@pytest.mark.parametrize("seed", SEEDS)
def test_cube_mask_covers_every_cube(seed: int) -> None:
    pair, dbg = _gen(seed)
    mask = pair.play.cube_mask
    total = sum(pair.play.counts.values())
    assert mask.any() == (total > 0)
    sc = dbg.scene
    for c in sc.plan.cubes:
        top = np.array([[c.u, c.v, -sc.plan.cube]])
        px, _z = sf._project(sc.ctx.intr, sc.poses[1], top)
        x, y = int(round(px[0, 0])), int(round(px[0, 1]))
        assert mask[y, x], f"cube top centre {c} not in the mask"
    if total:
        edge_px = sc.ctx.intr.fx * sc.plan.cube / float(-sc.poses[1].C[2])
        assert mask.sum() > 0.6 * total * edge_px**2


def test_empty_yard_has_empty_mask() -> None:
    pair, _dbg = _gen(_empty_seed())
    assert sum(pair.play.counts.values()) == 0
    assert not pair.play.cube_mask.any()
    assert {0, 1, 2, 3} <= set(_detect(pair.play.image))


@pytest.mark.parametrize("seed", HAND_SEEDS)
def test_hand_scene_is_the_same_scene_plus_a_hand(seed: int) -> None:
    free, _dfree = _gen(seed)
    withh, dh = _gen(seed, True)
    assert withh.hand is True
    assert np.array_equal(free.calibration, withh.calibration)
    assert free.play.counts == withh.play.counts
    assert dh.hand_region is not None
    hand_px = dh.ids_play == 2
    assert hand_px.sum() > 5000
    # reaching in from a frame edge
    assert hand_px[0].any() or hand_px[-1].any() or hand_px[:, 0].any() or hand_px[:, -1].any()
    # over part of the yard
    sc = dh.scene
    yard = np.array(
        [[0, 0, 0], [sc.plan.yard_w, 0, 0], [sc.plan.yard_w, sc.plan.yard_h, 0], [0, sc.plan.yard_h, 0]],
        dtype=np.float64,
    )
    px, _z = sf._project(sc.ctx.intr, sc.poses[1], yard)
    yard_mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
    cv2.fillPoly(yard_mask, [np.round(px).astype(np.int32)], 1)
    assert (hand_px & (yard_mask > 0)).any()
    # identical outside the hand, its shadow, and the blur/JPEG reach around them
    diff = np.any(free.play.image != withh.play.image, axis=2)
    assert diff.sum() > 1000
    near = cv2.dilate(dh.hand_region.astype(np.uint8), np.ones((49, 49), np.uint8)) > 0
    assert not (diff & ~near).any()
    # the cube mask loses exactly the cube pixels the hand covers
    assert np.array_equal(withh.play.cube_mask, free.play.cube_mask & ~hand_px)


def test_hand_stream_is_separate() -> None:
    """The hand comes from its own random stream: the hand-free frame is the same with or without it."""
    withh, dh = _gen(HAND_SEEDS[0], True)
    free, _d = _gen(HAND_SEEDS[0])
    assert np.array_equal(dh.play_free, free.play.image)
    assert math.isfinite(float(withh.play.image.mean()))
