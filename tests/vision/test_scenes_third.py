"""Fast checks of the blind third scene generator (tests/vision/scenes_third.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.scenes_third import (
    BOX_LIMITS,
    COLOURS,
    FRAME_H,
    FRAME_W,
    MARKER_IDS,
    _generate,
    _Scene,
    markers_found,
    third_scene_pair,
)

SEEDS = (0, 1, 2, 3, 4, 7, 12, 31)


@pytest.fixture(scope="module")
def scenes() -> dict[int, _Scene]:
    return {seed: _generate(seed, False) for seed in SEEDS}


def test_images_have_frame_shape(scenes: dict[int, _Scene]) -> None:
    for sc in scenes.values():
        for img in (sc.pair.calibration, sc.pair.play.image):
            assert img.shape == (FRAME_H, FRAME_W, 3)
            assert img.dtype == np.uint8
        assert sc.pair.play.cube_mask.shape == (FRAME_H, FRAME_W)
        assert sc.pair.play.cube_mask.dtype == np.bool_
        assert sc.pair.hand is False


def test_deterministic() -> None:
    for hand in (False, True):
        a, b = third_scene_pair(5, hand=hand), third_scene_pair(5, hand=hand)
        assert np.array_equal(a.calibration, b.calibration)
        assert np.array_equal(a.play.image, b.play.image)
        assert np.array_equal(a.play.cube_mask, b.play.cube_mask)
        assert a.play.counts == b.play.counts


def test_counts_match_cubes_drawn_and_limits(scenes: dict[int, _Scene]) -> None:
    for sc in scenes.values():
        counts = sc.pair.play.counts
        assert set(counts) == set(COLOURS)
        for colour in COLOURS:
            assert counts[colour] == sum(1 for c in sc.cubes if c.colour == colour)
            assert 0 <= counts[colour] <= BOX_LIMITS[colour]
        assert sum(counts.values()) <= 20
        for cube in sc.cubes:  # every cube lies inside the yard rectangle
            base = cube.base()
            assert base.min() >= 0
            assert base[:, 0].max() <= sc.layout.yard_w and base[:, 1].max() <= sc.layout.yard_h


def test_all_markers_found(scenes: dict[int, _Scene]) -> None:
    for seed, sc in scenes.items():
        assert markers_found(sc.pair.calibration) == set(MARKER_IDS), seed
        assert markers_found(sc.pair.play.image) == set(MARKER_IDS), seed


def _top_area(sc: _Scene) -> float:
    """Projected area of the cubes' top faces (never hidden by other cubes of equal height)."""
    total = 0.0
    for cube in sc.cubes:
        top = sc.play_camera.project(cube.vertices()[4:])
        total += abs(float(cv2.contourArea(top.astype(np.float32))))
    return total


def test_mask_matches_cubes(scenes: dict[int, _Scene]) -> None:
    for seed, sc in scenes.items():
        mask = sc.pair.play.cube_mask
        n = sum(sc.pair.play.counts.values())
        assert bool(mask.any()) == (n > 0), seed
        if n:
            top = _top_area(sc)
            area = float(mask.sum())
            assert 0.85 * top <= area <= 3.0 * top + 40 * n, seed


def test_mask_area_grows_with_cube_count() -> None:
    # Same seeds' layouts, so per-cube size is comparable: normalise by one cube's top area.
    ratios = []
    for seed in (1, 4, 12):
        sc = _generate(seed, False)
        n = len(sc.cubes)
        if n:
            ratios.append(float(sc.pair.play.cube_mask.sum()) / _top_area(sc))
    assert ratios and all(0.85 <= r <= 3.0 for r in ratios)


def test_hand_scene_differs_only_by_hand() -> None:
    plain, handy = _generate(2, False), _generate(2, True)
    assert handy.pair.hand is True
    assert np.array_equal(plain.pair.calibration, handy.pair.calibration)
    assert plain.pair.play.counts == handy.pair.play.counts
    diff = np.abs(plain.pair.play.image.astype(int) - handy.pair.play.image.astype(int)).max(axis=2) > 40
    assert diff.mean() > 0.02
    assert not np.any(handy.pair.play.cube_mask & ~plain.pair.play.cube_mask)


def test_empty_yard_has_empty_mask() -> None:
    sc = _generate(3, False)
    assert sum(sc.pair.play.counts.values()) == 0
    assert not sc.pair.play.cube_mask.any()
