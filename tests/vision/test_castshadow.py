"""Long cast shadows on plain ground: tails that all point one way are taken off the cubes' blobs."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.castshadow import trim_cast_shadows
from hardware.stockyard.segment import EmptyYard
from tests.vision.scenes_blind import blind_scene_pair
from tests.vision.test_evidence import _photographed, _yard

_SAND = (0.35, 0.5, 0.6)  # pale sand, BGR reflectance: too little colour of its own for `segment.shadow`
_IRON = (0.05, 0.3, 0.8)
_SIDE, _LONG = 14, 14  # a cube's side, and how far its shadow reaches along each axis (pixels)


def _yard_with_tails(corners: list[tuple[int, int]], ways: list[tuple[int, int]]) -> tuple[np.ndarray, ...]:
    """Iron cubes on sand, each with a shadow `_LONG` pixels long the given way (dx, dy); and the mask
    a foreground would give (cube and shadow as one blob)."""
    reflectance = _yard(_SAND, seed=7)
    reflectance = np.pad(reflectance, ((0, 40), (0, 80), (0, 0)), mode="reflect")  # 120 × 160
    lit = np.ones(reflectance.shape[:2], np.float32)
    empty, zero = _photographed(reflectance, lit)
    light, played = lit.copy(), reflectance.copy()
    mask = np.zeros(lit.shape, np.uint8)
    tails = np.zeros(lit.shape, bool)
    for (x, y), (dx, dy) in zip(corners, ways, strict=True):
        # The shadow: the hull of the cube's square and that square moved `_LONG` along the light.
        square = np.array([[x, y], [x + _SIDE, y], [x + _SIDE, y + _SIDE], [x, y + _SIDE]])
        hull = cv2.convexHull(np.vstack([square, square + np.array([dx, dy]) * _LONG]).astype(np.int32))
        shade = np.zeros(lit.shape, np.uint8)
        cv2.fillConvexPoly(shade, hull, 255)
        light[shade > 0] = 0.35  # the lamp blocked, the room's light left
        mask |= shade
        tails |= shade > 0
        played[y:y + _SIDE, x:x + _SIDE] = _IRON
        tails[y:y + _SIDE, x:x + _SIDE] = False
    frame, _ = _photographed(played, light)
    return frame, empty, zero, mask, tails


def _trimmed(corners: list[tuple[int, int]], ways: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    frame, empty, zero, mask, tails = _yard_with_tails(corners, ways)
    return trim_cast_shadows(mask, frame, EmptyYard(empty), zero), mask, tails


_CORNERS = [(10, 60), (60, 60), (110, 60)]


def test_tails_all_pointing_one_way_are_cut_off() -> None:
    out, mask, tails = _trimmed(_CORNERS, [(1, -1)] * 3)
    cubes = (mask > 0) & ~tails
    assert (out[cubes] > 0).mean() > 0.95  # the cubes stay whole
    assert (out[tails] > 0).mean() < 0.3  # their shadows go, but for the band along each cube


def test_tails_pointing_every_way_are_no_cast_shadows() -> None:
    """Darker ground beside a cube in a different direction each time: one light cannot do that (a stone
    lying beside each cube might)."""
    out, mask, _ = _trimmed(_CORNERS, [(1, -1), (-1, 1), (-1, -1)])
    assert np.array_equal(out, mask)


def test_one_tail_alone_says_nothing_about_the_light() -> None:
    out, mask, _ = _trimmed(_CORNERS[:1], [(1, -1)])
    assert np.array_equal(out, mask)


def test_a_lamp_low_over_plain_ground_counts_no_shadow_as_a_stone() -> None:
    """Blind scene 5: twelve cubes on sand, each with a shadow longer than itself, all one way.
    Read as cube and stone each, they gave 15 stones for 3."""
    pair = blind_scene_pair(5)
    reading = YardReader(build_profile(pair.calibration)).read(pair.play.image).reading
    assert reading.counts() == pair.play.counts
