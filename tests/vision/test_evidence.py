"""The evidence that a pixel is not the empty yard: texture lost counts on gravel, not in near-black print."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.stockyard import segment
from hardware.stockyard.colour import ColourReference
from hardware.stockyard.segment import EmptyYard, evidence, shadow


def textured(level: float, grain: float, seed: int, shape: tuple[int, int] = (80, 80)) -> np.ndarray:
    """A grey surface of the given brightness with a speckled texture of the given strength."""
    rng = np.random.default_rng(seed)
    speckle = cv2.GaussianBlur(rng.normal(0, 1, shape).astype(np.float32), (0, 0), 0.8)
    lum = np.clip(level * (1 + grain * speckle / speckle.std()), 0, 1)
    return np.repeat(lum[:, :, None], 3, axis=2).astype(np.float32)


def test_a_smooth_face_over_gravel_is_evidence() -> None:
    empty = textured(0.5, 0.4, seed=1)
    frame = empty.copy()
    frame[25:55, 25:55] = 0.5  # a grey cube's flat face, as bright as the gravel it hides
    score = evidence(frame, EmptyYard(empty))
    assert np.median(score[30:50, 30:50]) > 1.0
    assert np.median(score[:15, :15]) < 1.0


def test_smoother_noise_in_near_black_print_is_no_evidence() -> None:
    """Near black, relative texture is sensor noise: a quieter exposure there is not a cube."""
    empty = textured(0.03, 0.5, seed=2)
    frame = textured(0.03, 0.1, seed=3)
    score = evidence(frame, EmptyYard(empty))
    assert np.mean(score > 1.0) < 0.1  # without the fade: nearly all of it


# A camera as the reader sees it: linear light to sRGB, then normalised between the printed black
# (4 % reflectance) and paper white (85 %) that the markers show.
_BLACK, _WHITE = 0.04, 0.85


def _srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0, 1)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


def _photographed(reflectance: np.ndarray, light: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Normalised colours of a surface under a light field, and where the encoding's zero lies."""
    black, white = float(_srgb(np.array(_BLACK))), float(_srgb(np.array(_WHITE)))
    encoded = _srgb(reflectance * light[:, :, None])
    zero = np.full(3, -(black + 0.055) / (white - black), np.float32)
    return ((encoded - black) / (white - black)).astype(np.float32), zero


def _yard(ground: tuple[float, float, float], seed: int) -> np.ndarray:
    """Reflectance of a slightly speckled ground of one colour (BGR), 80×80."""
    grain = textured(1.0, 0.08, seed)
    return (grain * np.array(ground, np.float32)).astype(np.float32)


_CLAY = (0.08, 0.25, 0.55)  # orange-brown ground, BGR reflectance
_GRAVEL = (0.3, 0.3, 0.3)


def _shadow_and_cube(ground: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    reflectance = _yard(ground, seed=4)
    lit = np.ones((80, 80), np.float32)
    empty, zero = _photographed(reflectance, lit)
    light = lit.copy()
    light[10:70, 5:35] = 0.35  # a cube's cast shadow: the lamp blocked, the room's light left
    played = reflectance.copy()
    played[25:55, 45:75] = 0.05  # a coal cube
    frame, _ = _photographed(played, light)
    return frame, empty, zero


def test_a_cast_shadow_on_coloured_ground_is_told_from_a_cube() -> None:
    frame, empty, zero = _shadow_and_cube(_CLAY)
    shaded = shadow(frame, EmptyYard(empty), zero)
    assert shaded[15:65, 10:30].mean() > 0.9
    assert shaded[30:50, 50:70].mean() < 0.05  # the coal cube is no shadow


def test_a_shadow_on_grey_ground_is_not_judged() -> None:
    """Grey on grey: a shadow and a neutral cube look alike, so neither is taken for a shadow."""
    frame, empty, zero = _shadow_and_cube(_GRAVEL)
    assert shadow(frame, EmptyYard(empty), zero).mean() < 0.05


def test_a_shadow_counts_for_little_but_the_cube_still_counts() -> None:
    frame, empty, zero = _shadow_and_cube(_CLAY)
    yard = EmptyYard(empty)
    without, with_shadows = evidence(frame, yard), evidence(frame, yard, encoding_zero=zero)
    shade, cube = (slice(15, 65), slice(10, 30)), (slice(30, 50), slice(50, 70))
    assert np.median(without[shade]) > 1.0  # the shadow reads as a cube without the test
    assert np.median(with_shadows[shade]) < 0.4 * np.median(without[shade])
    assert np.median(with_shadows[cube]) == np.median(without[cube]) > 1.0


def test_the_markers_levels_give_the_encodings_zero() -> None:
    """Printed black and paper white as an 8-bit sRGB camera stores them place no light where the
    simulated camera above puts it."""
    black, white = float(_srgb(np.array(_BLACK))) * 255, float(_srgb(np.array(_WHITE))) * 255
    reference = ColourReference(white=np.full((4, 3), white, np.float32), black=np.full(3, black, np.float32))
    _, zero = _photographed(np.zeros((1, 1, 3), np.float32), np.ones((1, 1), np.float32))
    assert np.allclose(reference.encoding_zero(), zero, atol=1e-4)


def test_a_stone_a_little_lighter_than_grey_gravel_is_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stone's face with a grain of its own, over speckled grey gravel: within the range the speckles
    span pixel by pixel, but lighter than their average."""
    empty = textured(0.5, 0.3, seed=5)
    frame = empty.copy()
    frame[25:55, 25:55] = textured(0.5 * 1.15, 0.3, seed=6, shape=(30, 30))
    score = evidence(frame, EmptyYard(empty))
    assert np.median(score[30:50, 30:50]) > 1.0
    assert np.median(score[:15, :15]) < 0.5  # bare gravel
    monkeypatch.setattr(segment, "MEAN_BRIGHTER", 1e6)  # the premise: pixel by pixel, the stone is lost
    assert np.median(evidence(frame, EmptyYard(empty))[30:50, 30:50]) < 1.0


def test_ground_darker_on_average_is_no_evidence_of_a_stone() -> None:
    """A shadow darkens the ground's average as a face lightens it: only lighter counts."""
    empty = textured(0.5, 0.3, seed=7)
    frame = empty.copy()
    frame[25:55, 25:55] *= 0.87
    assert np.median(evidence(frame, EmptyYard(empty))[30:50, 30:50]) < 1.0


def _saturating(empty: np.ndarray, lamp: float, clip: float) -> tuple[np.ndarray, np.ndarray]:
    """The bare yard under a lamp `lamp` times brighter whose camera clips at `clip` (normalised, as
    seen before the brighter light is divided out again), and where it clipped."""
    seen = np.minimum(empty * lamp, clip)
    return (seen / lamp).astype(np.float32), seen >= clip


def test_print_a_brighter_lamp_saturates_is_no_evidence() -> None:
    empty = textured(0.8, 0.2, seed=4)
    frame, clipped = _saturating(empty, lamp=1.4, clip=1.05)
    assert clipped.mean() > 0.3  # the premise: much of the light print saturates
    assert np.mean(evidence(frame, EmptyYard(empty)) > 1.0) > 0.2  # flattened, it reads as cubes
    frame = segment.as_empty_where_clipped(frame, empty, clipped, None)
    assert np.mean(evidence(frame, EmptyYard(empty)) > 1.0) < 0.02


def test_a_white_cube_on_darker_print_keeps_its_evidence_though_it_saturates() -> None:
    empty = textured(0.45, 0.1, seed=5)
    frame = empty.copy()
    frame[25:55, 25:55] = 1.0
    frame, clipped = _saturating(frame, lamp=1.4, clip=1.05)
    assert clipped[30:50, 30:50].all()  # the premise: the cube's face is clipped
    frame = segment.as_empty_where_clipped(frame, empty, clipped, None)
    score = evidence(frame, EmptyYard(empty))
    assert np.median(score[30:50, 30:50]) > 1.0
    assert np.median(score[:15, :15]) < 1.0


def test_print_that_saturated_in_the_empty_yard_picture_is_no_evidence() -> None:
    bare = textured(0.8, 0.2, seed=6)
    empty, clipped = _saturating(bare, lamp=1.4, clip=1.05)  # the calibration was the brighter picture
    frame = bare.copy()
    assert np.mean(evidence(frame, EmptyYard(empty)) > 1.0) > 0.2  # the premise
    frame = segment.as_empty_where_clipped(frame, empty, np.zeros_like(clipped), clipped)
    assert np.mean(evidence(frame, EmptyYard(empty)) > 1.0) < 0.02


def test_the_light_is_matched_on_channels_that_did_not_clip() -> None:
    rng = np.random.default_rng(7)
    empty = rng.uniform(0.65, 0.95, (90, 90, 3)).astype(np.float32)  # light print: most of it clips
    frame, clipped = _saturating(empty, lamp=1.3, clip=1.0)
    frame = (frame * 1.3).astype(np.float32)  # as the frame's own markers saw it
    allowed = np.full((90, 90), 255, np.uint8)
    naive = segment.match_gain(frame, empty, allowed)
    # The premise: with clipped values in the medians, even the unclipped print comes out too bright.
    assert float(np.median(naive[~clipped] / empty[~clipped])) > 1.03
    matched = segment.match_gain(frame, empty, allowed, unsaturated=~clipped)
    assert np.allclose(matched[~clipped], empty[~clipped], rtol=0.02)
