"""The grid count of a heap: cubes pushed square to each other, seen as one footprint."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from hardware.stockyard.lattice import edge_angle, lattice_fits, lattice_pitch


def lattice_count(foot: np.ndarray, pitch: float) -> tuple[int, float]:
    """The count the best-fitting grid gives, and its misfit (0 and inf when nothing fits)."""
    fits = lattice_fits(foot, pitch)
    if not fits:
        return 0, float("inf")
    n = min(fits, key=lambda k: fits[k])
    return n, fits[n]


HEAPS = {
    "row of three": [(0, 0), (1, 0), (2, 0)],
    "row of five": [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
    "block of four": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "L of four": [(0, 0), (0, 1), (0, 2), (1, 2)],
    "T of four": [(0, 0), (1, 0), (2, 0), (1, 1)],
    "S of four": [(0, 0), (1, 0), (1, 1), (2, 1)],
    "block of six": [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)],
    "plus of five": [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
}


def cell_centre(i: int, j: int, pitch: float, turn: float, size: int) -> tuple[float, float]:
    """Where cell (i, j) of a lattice of this pitch, turned by `turn` radians, lies in a square picture."""
    return (size / 2 + pitch * ((i - 1) * math.cos(turn) - (j - 1) * math.sin(turn)),
            size / 2 + pitch * ((i - 1) * math.sin(turn) + (j - 1) * math.cos(turn)))


def draw_heap(cells: list[tuple[int, int]], side: float, turn_deg: float, rng: np.random.Generator,
              crooked_deg: float = 2.0, rim: int = 1) -> np.ndarray:
    """Squares on a lattice, each a little crooked and a little apart, turned as a whole, with a blur rim."""
    size = int(side * 8)
    mask = np.zeros((size, size), np.uint8)
    turn = math.radians(turn_deg)
    pitch = side * (1 + rng.uniform(0, 0.03))
    for i, j in cells:
        cx, cy = cell_centre(i, j, pitch, turn, size)
        a = turn + math.radians(rng.normal(0, crooked_deg))
        half = side / 2
        corners = [(cx + half * (u * math.cos(a) - v * math.sin(a)), cy + half * (u * math.sin(a) + v * math.cos(a)))
                   for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        cv2.fillConvexPoly(mask, np.round(np.array(corners) * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    mask = np.where(mask > 127, 255, 0).astype(np.uint8)
    if rim:
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rim + 1, 2 * rim + 1))
        mask = np.asarray(cv2.dilate(mask, disc), np.uint8)
    ys, xs = np.nonzero(mask)
    return np.ascontiguousarray(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


@pytest.mark.parametrize("name", sorted(HEAPS))
def test_a_heap_is_counted_by_its_cells_at_any_turn(name: str) -> None:
    cells = HEAPS[name]
    rng = np.random.default_rng(len(name))
    wrong = []
    for turn in np.linspace(0, 87, 12):
        side = float(rng.uniform(14, 26))
        foot = draw_heap(cells, side, float(turn), rng)
        n, misfit = lattice_count(foot, side)
        if n != len(cells):
            wrong.append((round(float(turn)), n, round(misfit, 2)))
    assert not wrong, f"{name}: (turn, counted, misfit) {wrong}"


def test_the_grid_is_right_where_the_area_with_its_rim_is_not() -> None:
    """A two-pixel rim of blur adds a cube's worth of area round a row of five small cubes; the
    grid still counts five."""
    rng = np.random.default_rng(5)
    side = 12.0
    foot = draw_heap(HEAPS["row of five"], side, 30.0, rng, rim=2)
    assert round(np.count_nonzero(foot) / side**2) >= 6
    assert lattice_count(foot, side)[0] == 5


def test_the_outline_gives_the_lattices_turn() -> None:
    rng = np.random.default_rng(3)
    for turn in (0.0, 17.0, 40.0, 71.0):
        foot = draw_heap(HEAPS["L of four"], 20.0, turn, rng, crooked_deg=0.0, rim=0)
        found = edge_angle(foot)
        assert min(abs(found - turn), 90 - abs(found - turn)) <= 3, (turn, found)


def test_cubes_pushed_together_crooked_fit_a_grid_worse_than_a_tidy_block() -> None:
    """Four cubes each at its own angle leave many cells of any grid half full."""
    rng = np.random.default_rng(8)
    side = 20.0
    crooked = np.zeros((120, 120), np.uint8)
    for (i, j), a in zip([(0, 0), (1, 0), (0, 1), (1, 1)], (0.0, 20.0, 40.0, 60.0), strict=True):
        box = cv2.boxPoints(((35 + 26 * i, 35 + 26 * j), (side, side), a))
        cv2.fillConvexPoly(crooked, np.round(box).astype(np.int32), 255)
    crooked = np.asarray(cv2.dilate(crooked, np.ones((3, 3), np.uint8)), np.uint8)
    tidy = draw_heap(HEAPS["block of four"], side, 25.0, rng)
    assert lattice_count(crooked, side)[1] > 1.5 * lattice_count(tidy, side)[1]


def test_every_count_a_grid_gives_is_offered_with_its_best_fit() -> None:
    rng = np.random.default_rng(11)
    foot = draw_heap(HEAPS["block of six"], 18.0, 10.0, rng)
    fits = lattice_fits(foot, 18.0)
    assert min(fits, key=lambda n: fits[n]) == 6
    assert len(fits) >= 3  # offsets and pitches that cut the heap badly give other counts, worse
    assert all(fits[n] > fits[6] for n in fits if n != 6)


def test_nothing_to_count() -> None:
    assert lattice_fits(np.zeros((10, 10), np.uint8), 18.0) == {}
    assert lattice_count(np.zeros((10, 10), np.uint8), 18.0) == (0, float("inf"))


def photograph_heap(cells: list[tuple[int, int]], pitch: float, turn_deg: float, rng: np.random.Generator,
                    lines: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """A heap's mask and brightness: tops of a little different shades, each with a darker bevel round
    it where two cubes meet (`lines`), or one flat patch of the same outline (no lines)."""
    size = int(pitch * 9)
    mask = np.zeros((size, size), np.uint8)
    lum = np.full((size, size), 0.3, np.float32)
    turn = math.radians(turn_deg)
    for i, j in cells:
        cx, cy = cell_centre(i, j, pitch, turn, size)
        box = np.round(cv2.boxPoints(((cx, cy), (pitch, pitch), turn_deg)) * 16).astype(np.int32)
        cv2.fillConvexPoly(mask, box, 255, cv2.LINE_AA, shift=4)
        top = float(rng.uniform(0.6, 0.75)) if lines else 0.7
        cv2.fillConvexPoly(lum, box, top, cv2.LINE_AA, shift=4)
        if lines:
            cv2.polylines(lum, [box], True, 0.45, 2, cv2.LINE_AA, shift=4)
    lum = np.asarray(cv2.GaussianBlur(lum + rng.normal(0, 0.02, lum.shape).astype(np.float32), (0, 0), 0.8),
                     np.float32)
    mask = np.where(mask > 127, 255, 0).astype(np.uint8)
    ys, xs = np.nonzero(mask)
    crop = np.s_[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    return np.ascontiguousarray(mask[crop]), np.ascontiguousarray(lum[crop])


@pytest.mark.parametrize("name", ["block of four", "block of six", "plus of five", "row of five", "L of four"])
def test_the_lines_between_a_heaps_cubes_give_its_pitch(name: str) -> None:
    """However large the heap looks as a whole, the lines between its cubes repeat one cube apart."""
    rng = np.random.default_rng(len(name) + 40)
    wrong = []
    for turn in (0.0, 17.0, 33.0, 61.0, 80.0):
        pitch = float(rng.uniform(10, 24))
        mask, lum = photograph_heap(HEAPS[name], pitch, turn, rng)
        found = lattice_pitch(mask, lum, 6.0, 60.0)
        if found is None or abs(found[0] / pitch - 1) > 0.12:
            wrong.append((turn, round(pitch, 1), found))
    assert not wrong, f"{name}: (turn, pitch, found) {wrong}"


def test_a_heap_without_lines_between_cubes_gives_no_pitch() -> None:
    """One flat top of a heap's outline (a cloth, a box lid) has no lines inside to measure."""
    rng = np.random.default_rng(2)
    mask, lum = photograph_heap(HEAPS["block of six"], 18.0, 20.0, rng, lines=False)
    found = lattice_pitch(mask, lum, 6.0, 60.0)
    assert found is None or found[1] < 0.3, found
    assert lattice_pitch(np.zeros((2, 9), np.uint8), np.zeros((2, 9), np.float32), 6.0, 60.0) is None
