"""The evidence that a pixel is not the empty yard: texture lost counts on gravel, not in near-black print."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.stockyard.segment import EmptyYard, evidence


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
