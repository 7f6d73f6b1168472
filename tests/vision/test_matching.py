"""The frame made comparable with the empty yard: clipped channels undone, the light's change divided out."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.stockyard import matching


def textured(level: float, grain: float, seed: int, shape: tuple[int, int] = (80, 80)) -> np.ndarray:
    """A grey surface of the given brightness with a speckled texture of the given strength."""
    rng = np.random.default_rng(seed)
    speckle = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.8)
    lum = np.clip(level * (1 + grain * speckle / speckle.std()), 0, 1)
    return np.repeat(lum[:, :, None], 3, axis=2).astype(np.float32)


def _saturating(empty: np.ndarray, lamp: float, clip: float) -> tuple[np.ndarray, np.ndarray]:
    """The bare yard under a lamp `lamp` times brighter whose camera clips at `clip` (normalised, as
    seen before the brighter light is divided out again), and where it clipped."""
    seen = np.minimum(empty * lamp, clip)
    return (seen / lamp).astype(np.float32), seen >= clip


def test_print_a_brighter_lamp_saturates_is_the_empty_yard_again() -> None:
    empty = textured(0.8, 0.2, seed=4)
    frame, clipped = _saturating(empty, lamp=1.4, clip=1.05)
    assert clipped.mean() > 0.3 and np.abs(frame - empty)[clipped].min() > 0  # the premise: flattened print
    matched = matching.as_empty_where_clipped(frame, empty, clipped, None)
    assert np.array_equal(matched[clipped], empty[clipped])
    assert np.array_equal(matched[~clipped], frame[~clipped])


def test_a_white_cube_on_darker_print_stays_though_it_saturates() -> None:
    empty = textured(0.45, 0.1, seed=5)
    frame = empty.copy()
    frame[25:55, 25:55] = 1.0
    frame, clipped = _saturating(frame, lamp=1.4, clip=1.05)
    assert clipped[30:50, 30:50].all()  # the premise: the cube's face is clipped
    matched = matching.as_empty_where_clipped(frame, empty, clipped, None)
    assert np.array_equal(matched[25:55, 25:55], frame[25:55, 25:55])  # brighter than the print: still a change


def test_print_that_saturated_in_the_empty_yard_picture_is_the_empty_yard() -> None:
    bare = textured(0.8, 0.2, seed=6)
    empty, clipped = _saturating(bare, lamp=1.4, clip=1.05)  # the calibration was the brighter picture
    frame = bare.copy()
    assert clipped.mean() > 0.3 and not np.array_equal(frame[clipped], empty[clipped])  # the premise
    matched = matching.as_empty_where_clipped(frame, empty, np.zeros_like(clipped), clipped)
    assert np.array_equal(matched[clipped], empty[clipped])


def test_the_light_is_matched_on_channels_that_did_not_clip() -> None:
    rng = np.random.default_rng(7)
    empty = rng.uniform(0.65, 0.95, (90, 90, 3)).astype(np.float32)  # light print: most of it clips
    frame, clipped = _saturating(empty, lamp=1.3, clip=1.0)
    frame = (frame * 1.3).astype(np.float32)  # as the frame's own markers saw it
    allowed = np.full((90, 90), 255, np.uint8)
    naive = matching.match_gain(frame, empty, allowed)
    # The premise: with clipped values in the medians, even the unclipped print comes out too bright.
    assert float(np.median(naive[~clipped] / empty[~clipped])) > 1.03
    matched = matching.match_gain(frame, empty, allowed, unsaturated=~clipped)
    assert np.allclose(matched[~clipped], empty[~clipped], rtol=0.02)


def test_a_lamp_brighter_in_the_middle_is_divided_out() -> None:
    empty = textured(0.5, 0.1, seed=8, shape=(90, 90))
    ys, xs = np.mgrid[0:90, 0:90]
    lamp = (1.5 - 0.6 * np.hypot(ys - 45, xs - 45) / 64).astype(np.float32)
    frame = empty * lamp[:, :, None]
    allowed = np.full((90, 90), 255, np.uint8)
    assert np.median(np.abs(frame / empty - 1)) > 0.1  # the premise
    one_gain = np.median(np.abs(matching.match_gain(frame, empty, allowed, view_cells=1) / empty - 1))
    by_cells = np.median(np.abs(matching.match_gain(frame, empty, allowed) / empty - 1))
    assert by_cells < 0.06 and by_cells < 0.75 * one_gain


def test_a_channel_of_the_print_darker_than_marker_black_keeps_its_gain() -> None:
    # Red print under a warm lamp: its blue is below the markers' black, so 0 in both pictures. That
    # says nothing of the light; taken as a gain of 0 it once multiplied the blue of every cube by 20.
    empty = textured(0.5, 0.1, seed=9)
    empty[:, :, 0] = 0.0
    empty[30:50, 30:50, 0] = 0.4  # a cube-sized patch of something with blue in it (a grey stone)
    frame = empty * np.array([1.0, 1.1, 1.1], np.float32)
    allowed = np.full(empty.shape[:2], 255, np.uint8)
    matched = matching.match_gain(frame, empty, allowed, view_cells=1)
    assert np.allclose(matched[30:50, 30:50, 0], 0.4, rtol=0.05)
    assert np.allclose(matched[:, :, 1:], empty[:, :, 1:], rtol=0.02)


def _lamp_on_one_side(shape: tuple[int, int], centre: tuple[int, int], gain: float) -> np.ndarray:
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32)
    pool = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * (shape[1] / 8) ** 2))
    return (1 + (gain - 1) * pool)[:, :, None].astype(np.float32)


def test_a_lamp_over_one_side_of_the_yard_is_measured_on_the_bare_board() -> None:
    shape = (240, 360)
    empty = textured(0.6, 0.15, seed=7, shape=shape)
    now = empty * _lamp_on_one_side(shape, (90, 80), 1.6)
    cubes = np.zeros(shape, np.uint8)
    cubes[70:88, 80:98] = 255  # a cube under the lamp, darker than the board: no measure of the light
    now[70:88, 80:98] = 0.1
    light = matching.changed_light(now, matching.EmptyYard(empty), np.full(shape, 255, np.uint8), cubes)
    assert 1.35 < light[80, 90] < 1.7  # the lamp's pool, though the cube hides its middle
    assert 0.95 < light[200, 320] < 1.05  # the far corner, unchanged


def test_a_change_over_the_whole_yard_is_left_to_the_markers() -> None:
    shape = (240, 360)
    empty = textured(0.6, 0.15, seed=8, shape=shape)
    dimmer = (empty * 0.7).astype(np.float32)
    light = matching.changed_light(dimmer, matching.EmptyYard(empty), np.full(shape, 255, np.uint8),
                                   np.zeros(shape, np.uint8))
    assert np.allclose(light, 1.0, atol=0.03)


def print_of_every_shade(seed: int, low: float = 0.05, high: float = 0.9, shape: tuple[int, int] = (320, 320),
                         ) -> np.ndarray:
    """Printed artwork from dark to light: broad blotches of every shade between `low` and `high`, a little grain."""
    rng = np.random.default_rng(seed)
    blotches = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 6)
    ranks = blotches.argsort(axis=None).argsort().reshape(shape) / blotches.size  # evenly spread over the shades
    lum = low + (high - low) * ranks + rng.normal(0, 0.01, shape)
    tint = np.array([0.9, 1.0, 1.1], np.float32)  # BGR: a warm print
    return np.clip(lum[:, :, None] * tint, 0, 1).astype(np.float32)


def with_cubes(picture: np.ndarray, seed: int, share: float = 0.15) -> np.ndarray:
    """Squares of one colour each over about `share` of the picture."""
    rng = np.random.default_rng(seed)
    out = picture.copy()
    h, w = picture.shape[:2]
    for _ in range(int(share * h * w / 100)):
        y, x = rng.integers(0, h - 10), rng.integers(0, w - 10)
        out[y:y + 10, x:x + 10] = rng.choice([(0.1, 0.3, 0.9), (0.5, 0.5, 0.5), (0.04, 0.04, 0.04), (0.9, 0.9, 0.9)])
    return out


EVERYWHERE = np.full((320, 320), 255, np.uint8)


def test_a_black_level_that_moved_since_calibration_is_measured_on_the_bare_board_and_undone() -> None:
    # The markers' black read higher in play than at calibration (a sheen on the toner): every value of the frame
    # lower by a seventh, dark print crushed to black, a ratio to the empty yard that no gain matches.
    empty = print_of_every_shade(seed=1)
    now = np.maximum(with_cubes(empty, seed=2) * 1.1 - 0.15, 0).astype(np.float32)
    tone = matching.tone_change(now, empty, EVERYWHERE)
    assert tone is not None
    gains, offsets = tone
    assert np.allclose(gains, 1.1, atol=0.05) and np.allclose(offsets, -0.15, atol=0.02)
    bare = (now == np.maximum(empty * 1.1 - 0.15, 0)).all(axis=2) & (now > 0.02).all(axis=2)
    assert bare.mean() > 0.5  # the premise: most of the yard is bare board the camera did not crush to black
    assert np.abs(matching.undo_tone(now, tone, empty, now <= 0) - empty)[bare].max() < 0.02


def test_print_crushed_to_black_in_both_pictures_stays_as_dark_as_the_empty_yard() -> None:
    # Dark green print that the empty yard's picture crushed to black in blue and red already (0 says only "this
    # dark or darker"), and the frame's too, its black level misread: undoing the tone lifts the frame's zeros by the
    # level's error, to a grey the print never had, and the cube net saw coal there. The empty yard's own zeros
    # explain them. A coal cube on light print, crushed too, is still far darker than the board there.
    empty = print_of_every_shade(seed=7)
    empty[:40, :40] = (0.0, 0.1, 0.0)
    now = np.maximum(empty * 1.1 - 0.15, 0).astype(np.float32)
    coal = np.zeros(empty.shape[:2], bool)
    coal[200:210, 200:210] = True
    now[coal] = 0.0
    tone = matching.tone_change(now, empty, EVERYWHERE)
    assert tone is not None
    lifted = matching.undo_tone(now, tone, empty, np.zeros_like(now, bool))
    assert (lifted[:40, :40, 0] > 0.1).all()  # the premise: the crushed print, lifted with the rest, reads grey
    undone = matching.undo_tone(now, tone, empty, now <= 0)
    assert np.array_equal(undone[:40, :40], empty[:40, :40])
    assert (undone[coal] < empty[coal] - 0.2).all() and (undone[coal] < 0.2).all()
    lit = (now > 0).all(axis=2)
    assert np.array_equal(undone[lit], lifted[lit])  # what the frame did not crush is the tone's to mend alone


def test_a_brighter_room_is_left_to_the_gain_and_an_unchanged_one_to_itself() -> None:
    empty = print_of_every_shade(seed=3)
    assert matching.tone_change(with_cubes(empty * 1.3, seed=4), empty, EVERYWHERE) is None
    assert matching.tone_change(with_cubes(empty, seed=4), empty, EVERYWHERE) is None
    now = np.maximum(empty * 1.1 - 0.1, 0).astype(np.float32)
    assert matching.undo_tone(now, None, empty, now <= 0) is now


def test_print_of_too_few_shades_says_nothing_of_the_tone() -> None:
    # A pale board only: a line fitted through a few close shades could slope any way, and there is no dark print
    # for a black level to crush.
    empty = print_of_every_shade(seed=5, low=0.7, high=0.85)
    assert matching.tone_change(np.maximum(empty * 1.1 - 0.1, 0).astype(np.float32), empty, EVERYWHERE) is None


def test_the_tone_is_measured_where_both_pictures_see_the_yard_only() -> None:
    empty = print_of_every_shade(seed=6)
    now = np.maximum(empty * 1.1 - 0.1, 0).astype(np.float32)
    assert matching.tone_change(now, empty, np.zeros_like(EVERYWHERE)) is None
