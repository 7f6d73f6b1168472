"""White balance from the frame itself, and classification in the normalised colour space."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.stockyard.classify import classify, colour_groups, grey_split
from hardware.stockyard.colour import measure_reference, normalise
from hardware.stockyard.count import Cube, settle_darks, settle_greys
from hardware.stockyard.frame import prepare, to_gray
from hardware.stockyard.geometry import view_for_aspect
from hardware.stockyard.markers import find_markers
from tests.vision.conftest import plain_scene, shoot
from tests.vision.scenes import Lighting

WARM_LAMP = Lighting(gain=(0.7, 0.95, 1.2), exposure=0.75, ramp=(0.2, 0.1, 0.0), vignette=0.3, noise=2.0)
COOL_DAY = Lighting(gain=(1.2, 1.0, 0.8), exposure=1.0, noise=2.0)


def test_markers_give_paper_white_and_printed_black() -> None:
    image = shoot(plain_scene(), WARM_LAMP)
    sighting = find_markers(to_gray(image))
    ref = measure_reference(image, sighting)
    # The renderer's paper is 246 grey and its ink 0, seen through the warm lamp (B×0.7, R×1.2) at 0.75.
    blue, red = ref.white[:, 0].mean(), ref.white[:, 2].mean()
    assert red > 1.3 * blue
    assert ref.black.max() < 40


def test_a_camera_out_of_focus_keeps_the_printed_black(monkeypatch: pytest.MonkeyPatch) -> None:
    """Markers 30 pixels across (cells of 5) blurred by 2 pixels: the middles of their border cells grey with the
    white beside them, the points deepest in their black cells do not."""
    from hardware.stockyard import colour

    sharp = shoot(plain_scene(focal_px=500.0))
    blurred = np.asarray(cv2.GaussianBlur(sharp, (0, 0), 2.0), np.uint8)
    sharp_sighting, blurred_sighting = find_markers(to_gray(sharp)), find_markers(to_gray(blurred))
    black = measure_reference(sharp, sharp_sighting).black
    assert sharp_sighting.side_px() < 32
    assert np.abs(measure_reference(blurred, blurred_sighting).black - black).max() < 8
    monkeypatch.setattr(colour, "BLUR_SHOWS", float("inf"))  # the premise: the border's middles alone
    assert measure_reference(blurred, blurred_sighting).black.min() > black.max() + 30
    # In focus, the border's middles are as black as the deepest points: they give the black as they always did.
    assert np.array_equal(measure_reference(sharp, sharp_sighting).black, black)


def test_the_same_board_looks_the_same_under_a_warm_lamp_and_cool_daylight() -> None:
    scene = plain_scene()
    view = view_for_aspect(170 / 120)
    warm = prepare(shoot(scene, WARM_LAMP), view)
    cool = prepare(shoot(scene, COOL_DAY), view)
    inside = (warm.valid > 0) & (warm.markers == 0)
    raw_gap = np.abs(warm.canvas.astype(float) - cool.canvas.astype(float))[inside].mean() / 255
    normalised_gap = np.abs(warm.colours - cool.colours)[inside].mean()
    assert raw_gap > 0.12  # the light really changed...
    assert normalised_gap < 0.05  # ...and normalisation takes it out


def test_normalisation_maps_reference_levels_to_zero_and_one() -> None:
    image = shoot(plain_scene(), COOL_DAY)
    sighting = find_markers(to_gray(image))
    ref = measure_reference(image, sighting)
    view = view_for_aspect(170 / 120)
    canvas = np.zeros((view.size[1], view.size[0], 3), np.uint8)
    canvas[:] = np.round(ref.white.mean(axis=0)).astype(np.uint8)
    out = normalise(canvas, ref, view)
    m = view.margin
    assert out[m + view.height // 2, m + view.width // 2] == pytest.approx([1, 1, 1], abs=0.06)
    canvas[:] = np.round(ref.black).astype(np.uint8)
    assert normalise(canvas, ref, view)[m, m] == pytest.approx([0, 0, 0], abs=0.02)


def _cube_pixels(top: tuple[float, float, float], side_factor: float) -> np.ndarray:
    """Half the pixels a lit top, half darker sides, with a little noise (normalised BGR)."""
    rng = np.random.default_rng(3)
    top_px = np.array(top, np.float32) + rng.normal(0, 0.02, (60, 3)).astype(np.float32)
    side_px = np.array(top, np.float32) * side_factor + rng.normal(0, 0.02, (60, 3)).astype(np.float32)
    return np.clip(np.concatenate([top_px, side_px]), 0, 1.5)


@pytest.mark.parametrize(("top", "kind"), [
    ((0.12, 0.45, 0.95), "iron"),  # orange
    ((0.05, 0.30, 0.75), "iron"),  # deep orange in dim light
    ((0.52, 0.53, 0.51), "stone"),
    ((0.40, 0.40, 0.42), "stone"),  # darker grey
    ((0.62, 0.62, 0.60), "stone"),  # lighter grey
    ((0.74, 0.75, 0.74), "stone"),  # the lightest stone paint under a bright lamp: not yet an event cube
    ((0.06, 0.06, 0.07), "coal"),
    ((0.16, 0.15, 0.16), "coal"),
    ((0.95, 0.97, 0.96), "event"),
    ((0.85, 0.88, 0.90), "event"),
])
def test_cube_colours_are_classified_from_the_lit_top(top: tuple[float, float, float], kind: str) -> None:
    assert classify(_cube_pixels(top, side_factor=0.55)).kind == kind


def test_colour_groups_keep_shaded_white_apart_from_black_and_orange() -> None:
    # BGR, normalised: lit orange, a white cube's shaded side (grey), a coal top, and dim board in between.
    pixels = np.array([[0.1, 0.45, 0.95], [0.5, 0.5, 0.52], [0.08, 0.08, 0.09], [0.28, 0.3, 0.31]], np.float32)
    orange, dark, light = colour_groups(pixels)
    assert orange.tolist() == [True, False, False, False]
    assert dark.tolist() == [False, False, True, False]
    assert light.tolist() == [False, True, False, False]


def test_a_shadow_on_brown_print_is_not_a_coal_top() -> None:
    """Dark is coal only when it is also about neutral: a cube's shadow on brown or red print is as dark,
    but keeps the print's colour, and read as coal it made a lone cube two (a block of two colours)."""
    from hardware.stockyard.classify import GROUP_DARK, saturations

    # BGR, normalised: a cube's shadow on brown print, and a coal top with the sensor's noise in it.
    pixels = np.array([[0.05, 0.09, 0.17], [0.07, 0.08, 0.10]], np.float32)
    orange, dark, _ = colour_groups(pixels)
    assert not orange.any() and (pixels.mean(axis=1) < GROUP_DARK).all()  # both dark, neither orange
    assert saturations(pixels)[0] > 0.6  # the shadow is far more coloured than the noisy coal top
    assert dark.tolist() == [False, True]


def _greys(*tops: float) -> list[Cube]:
    """Neutral cubes (coal, stone, event) as the counter hands them over: classified by the fixed lines, with their
    lit tops."""
    cubes = []
    for i, lum in enumerate(tops):
        kind = classify(_cube_pixels((lum, lum, lum), side_factor=0.55)).kind
        cubes.append(Cube(kind, (10.0 * i, 0.0), np.zeros((0, 2), np.int32), 1.0, lum))
    return cubes


def test_an_event_in_a_dim_corner_is_told_from_the_stones_beside_it() -> None:
    # Third independent scene 14: stones lit to 0.34-0.39 and events to 0.68 and 0.8 (the lamp dimmer on the
    # yard than on the markers); the fixed line at 0.78 made the first event a stone.
    cubes = _greys(0.34, 0.35, 0.39, 0.39, 0.68, 0.8)
    assert [c.kind for c in cubes].count("event") == 1
    assert [c.kind for c in settle_greys(cubes)] == ["stone"] * 4 + ["event"] * 2


def test_stones_under_a_hot_lamp_stay_stones_beside_an_event() -> None:
    cubes = _greys(0.84, 0.86, 1.45)
    assert [c.kind for c in cubes] == ["event"] * 3
    assert [c.kind for c in settle_greys(cubes)] == ["stone", "stone", "event"]


@pytest.mark.parametrize("tops", [
    (0.30, 0.45, 0.47),  # a stone in its neighbour's shadow is no darker stone beside events
    (0.52, 0.58, 0.63),  # stones of one paint, unevenly lit: no gap
    (0.75, 0.85),  # too close to split: the fixed line decides
])
def test_without_two_groups_the_fixed_lines_decide(tops: tuple[float, ...]) -> None:
    cubes = _greys(*tops)
    assert grey_split(list(tops)) is None
    assert [c.kind for c in settle_greys(cubes)] == [c.kind for c in cubes]


def test_stones_beside_events_whose_white_tops_clipped_stay_stones() -> None:
    # Main-style scene 60000 under a lamp 1.4 times as bright at play: the events' tops clipped at the
    # paper's white (1.0), so their true ratio to the stones (about 1.75) shows only as 1.2, and two
    # stones at 0.83 passed the fixed line as events.
    cubes = _greys(0.74, 0.83, 0.83, 1.0, 1.0)
    assert [c.kind for c in cubes].count("event") == 4
    assert [c.kind for c in settle_greys(cubes)] == ["stone"] * 3 + ["event"] * 2


def test_a_small_gap_below_tops_short_of_white_splits_nothing() -> None:
    # The same gap of 1.2 between tops that did not clip is no sure sign of two kinds.
    assert grey_split([0.7, 0.84]) is None
    assert grey_split([0.74, 0.83, 0.83, 1.0, 1.0]) is not None


def test_a_heap_of_like_coal_astride_the_line_is_all_coal() -> None:
    # Fourth independent scene 200042: nine coal cubes lit to 0.21-0.30, on both sides of the fixed line at 0.28
    # (and the darker ones beside them taken for those "stones'" shaded sides): six read as stones.
    cubes = _greys(0.21, 0.214, 0.23, 0.247, 0.263, 0.273, 0.284, 0.294, 0.302)
    assert {c.kind for c in cubes} == {"coal", "stone"}
    assert [c.kind for c in settle_darks(cubes)] == ["coal"] * 9


def test_like_grey_stones_astride_the_line_are_all_stones() -> None:
    cubes = _greys(0.26, 0.3, 0.32, 0.35)
    assert [c.kind for c in cubes].count("coal") == 1
    assert [c.kind for c in settle_darks(cubes)] == ["stone"] * 4


@pytest.mark.parametrize("tops", [
    (0.1, 0.12, 0.4, 0.45),  # coal and stones, far apart: each keeps its own
    (0.25, 0.3, 0.32),  # too few to say they are one kind
    (0.2, 0.22, 0.24, 0.27),  # all coal already
])
def test_unlike_or_few_darks_keep_their_kinds(tops: tuple[float, ...]) -> None:
    cubes = _greys(*tops)
    assert [c.kind for c in settle_darks(cubes)] == [c.kind for c in cubes]


def test_settling_the_darks_leaves_iron_and_events_alone() -> None:
    cubes = _greys(0.22, 0.25, 0.3, 0.31, 0.9) + [Cube("iron", (99.0, 0.0), np.zeros((0, 2), np.int32), 1.0, 0.5)]
    assert [c.kind for c in settle_darks(cubes)] == ["coal"] * 4 + ["event", "iron"]


def test_the_brighter_lamp_scene_reads_right() -> None:
    from hardware.stockyard import YardReader, build_profile
    from tests.vision.scenes import scene_pair

    pair = scene_pair(60_000, play_exposure=1.4)
    assert YardReader(build_profile(pair.calibration)).read(pair.play.image).reading.counts() == pair.play.counts
