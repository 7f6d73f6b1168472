"""Colour and brightness correction from the frame itself: the markers' black and the paper around them.

Each marker gives a black level (its printed border) and a white level (the paper just outside it).
The white level is interpolated bilinearly between the four corners, so a lamp to one side or
vignetting towards a corner is divided out as well as the white balance and the overall exposure.
After correction 0 means printed black and 1 means paper white, whatever the light.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.geometry import CanonicalView
from hardware.stockyard.markers import CORNER_IDS, MarkerSighting
from hardware.stockyard.medians import column_medians, median

FloatImage = NDArray[np.float32]


@dataclass(frozen=True)
class ColourReference:
    white: NDArray[np.float32]  # 4×3 BGR, one per corner marker (TL, TR, BR, BL)
    black: NDArray[np.float32]  # 3 BGR

    @property
    def clipped(self) -> bool:
        """Paper so bright a channel saturates: its white, and so the colours, are off in that channel."""
        return bool(np.any(self.white >= 250))

    def contrast(self) -> float:
        """How far paper white stands above printed black (0-255); small means too dark to read."""
        return float(np.min(self.white.mean(axis=1)) - self.black.mean())


def _ring(inset: float, count: int) -> NDArray[np.float32]:
    """Points on a square ring in marker coordinates (0..1), `inset` from the marker's edge."""
    t = np.linspace(0.08, 0.92, count, dtype=np.float32)
    lo, hi = np.full_like(t, inset), np.full_like(t, 1 - inset)
    return np.concatenate([np.stack([t, lo], 1), np.stack([t, hi], 1),
                           np.stack([lo, t], 1), np.stack([hi, t], 1)]).astype(np.float32)


# The border cells are 1/6 of the marker; the paper is sampled a little more than half a cell outside.
_BLACK_RING = _ring(1 / 12, 8)
_WHITE_RING = _ring(-0.12, 10)
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)


def _sample(image: NDArray[np.uint8], points: NDArray[np.float32]) -> NDArray[np.float32]:
    """Mean of the 3×3 pixels around each point (points outside the image are dropped)."""
    h, w = image.shape[:2]
    xy = np.round(points).astype(np.int64)
    keep = (xy[:, 0] >= 1) & (xy[:, 0] < w - 1) & (xy[:, 1] >= 1) & (xy[:, 1] < h - 1)
    xy = xy[keep]
    # All nine neighbours in one gather; their sums are whole numbers, exact in any order.
    nine = image[xy[:, 1, None] + _NEIGHBOURS[:, 0], xy[:, 0, None] + _NEIGHBOURS[:, 1]]
    return np.asarray(nine.astype(np.float32).sum(axis=1) / 9, np.float32)


_NEIGHBOURS = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.int64)


def measure_reference(image: NDArray[np.uint8], sighting: MarkerSighting) -> ColourReference:
    whites, blacks = [], []
    for marker_id in CORNER_IDS:
        h = cv2.getPerspectiveTransform(_UNIT, sighting.corners[marker_id].astype(np.float32))
        black_pts = cv2.perspectiveTransform(_BLACK_RING.reshape(1, -1, 2), h)[0]
        white_pts = cv2.perspectiveTransform(_WHITE_RING.reshape(1, -1, 2), h)[0]
        b = _sample(image, black_pts)
        wv = _sample(image, white_pts)
        blacks.append(column_medians(b) if len(b) else np.zeros(3, np.float32))
        if len(wv):
            # The brighter half: a finger or a shadow on part of the paper must not drag white down.
            lum = wv.mean(axis=1)
            whites.append(column_medians(wv[lum >= median(lum)]))
        else:
            whites.append(np.full(3, 255, np.float32))
    black = column_medians(np.array(blacks, np.float32))
    white = np.maximum(np.array(whites, np.float32), black[None, :] + 8)
    return ColourReference(white=white.astype(np.float32), black=black)


def white_field(ref: ColourReference, view: CanonicalView, step: int = 8) -> FloatImage:
    """Paper white over the canvas, bilinear between the four markers (built small, then enlarged)."""
    cw, ch = view.size
    u = np.clip((np.arange(0, cw + step, step, dtype=np.float32) - view.margin) / view.width, -0.25, 1.25)
    v = np.clip((np.arange(0, ch + step, step, dtype=np.float32) - view.margin) / view.height, -0.25, 1.25)
    uu, vv = u[None, :, None], v[:, None, None]
    w = ref.white
    small = (1 - uu) * (1 - vv) * w[0] + uu * (1 - vv) * w[1] + uu * vv * w[2] + (1 - uu) * vv * w[3]
    big = cv2.resize(small.astype(np.float32), (len(u) * step, len(v) * step), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(big[:ch, :cw])


def normalise(canvas: NDArray[np.uint8], ref: ColourReference, view: CanonicalView) -> FloatImage:
    """Canvas colours as fractions between printed black (0) and paper white (1), per channel."""
    # OpenCV's per-channel scalars and in-place steps: numpy broadcasting a 3-vector over the canvas,
    # and a fresh canvas-sized array per step, cost three times the arithmetic (same numbers).
    black: Any = (*(float(v) for v in ref.black), 0.0)  # a tuple is OpenCV's per-channel scalar; its stubs lack it
    span = white_field(ref, view)
    cv2.subtract(span, black, dst=span)
    np.maximum(span, 4.0, out=span)
    out = canvas.astype(np.float32)
    cv2.subtract(out, black, dst=out)
    cv2.divide(out, span, dst=out)
    return np.asarray(np.clip(out, 0.0, 1.6, out=out), np.float32)
