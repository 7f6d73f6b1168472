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


def _yard_with_tails(corners: list[tuple[int, int]], ways: list[tuple[int, int]],
                     room: tuple[float, float, float] = (1.0, 1.0, 1.0), grain: bool = True,
                     cube: tuple[float, float, float] = _IRON) -> tuple[np.ndarray, ...]:
    """Iron cubes (or `cube`'s colour) on sand, each with a shadow `_LONG` pixels long the given way
    (dx, dy); and the mask a foreground would give (cube and shadow as one blob). `room`: the colour of
    the room's light against the lamp's, which is all that lights the shadows. Without `grain`, the
    shadows are flat stone-coloured slabs instead, which hide the sand's grain."""
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
        played[shade > 0] = (played[shade > 0] if grain else np.array(_SAND, np.float32)) * np.array(room)
        mask |= shade
        tails |= shade > 0
        played[y:y + _SIDE, x:x + _SIDE] = cube
        light[y:y + _SIDE, x:x + _SIDE] = 1.0  # the cube's top, in the lamp's light
        tails[y:y + _SIDE, x:x + _SIDE] = False
    frame, _ = _photographed(played, light)
    return frame, empty, zero, mask, tails


def _trimmed(corners: list[tuple[int, int]], ways: list[tuple[int, int]],
             room: tuple[float, float, float] = (1.0, 1.0, 1.0), grain: bool = True,
             cube: tuple[float, float, float] = _IRON) -> tuple[np.ndarray, ...]:
    frame, empty, zero, mask, tails = _yard_with_tails(corners, ways, room, grain, cube)
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


_COOL_ROOM = (1.35, 1.0, 0.75)  # BGR: daylight or a cool bulb in the room, against a warm lamp
# Event cubes: a tinted shadow's soft edge takes in what is darker than the ground beside it, and an iron
# cube 14 pixels wide would keep too little of itself to be told from its shadow.
_EVENT = (0.85, 0.85, 0.85)


def test_shadows_in_the_room_lights_colour_are_cut_off_too() -> None:
    """A warm lamp in a cooler room: the shadows take on the room light's colour, so they are not the
    same ground in less light. All the same colour, and all one way, they are still the shadows."""
    out, mask, tails = _trimmed(_CORNERS, [(1, -1)] * 3, _COOL_ROOM, cube=_EVENT)
    cubes = (mask > 0) & ~tails
    assert (out[cubes] > 0).mean() > 0.95
    assert (out[tails] > 0).mean() < 0.3


def test_slabs_the_shadows_colour_that_hide_the_grain_are_no_shadows() -> None:
    """The same darker colour beside each cube, all one way, but flat: what hides the ground's grain
    lies on it (stones, say)."""
    out, mask, _ = _trimmed(_CORNERS, [(1, -1)] * 3, _COOL_ROOM, grain=False, cube=_EVENT)
    assert np.array_equal(out, mask)


def test_a_lamp_low_over_plain_ground_counts_no_shadow_as_a_stone() -> None:
    """Blind scene 5: twelve cubes on sand, each with a shadow longer than itself, all one way.
    Read as cube and stone each, they gave 15 stones for 3."""
    pair = blind_scene_pair(5)
    reading = YardReader(build_profile(pair.calibration)).read(pair.play.image).reading
    assert reading.counts() == pair.play.counts


def test_a_warm_lamp_in_a_cool_room_counts_no_shadow_as_a_stone() -> None:
    """Blind scene 114: nine cubes on pale green ground, their shadows bluish grey. Read as cube and
    stone each, they gave six stones for one."""
    pair = blind_scene_pair(114)
    reading = YardReader(build_profile(pair.calibration)).read(pair.play.image).reading
    assert reading.counts() == pair.play.counts
