"""Colour and brightness correction from the frame itself: the markers' black and the paper around them.

Each marker gives a black level (its printed border, or where blur has greyed that, the middle of its
black cells) and a white level (the paper just outside it).
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
from hardware.stockyard.markers import CORNER_IDS, DICTIONARY, MarkerSighting
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


def _deep_black(marker_id: int, depth: float) -> NDArray[np.float32]:
    """Points (marker coordinates, 0..1) at least `depth` cells from any white: the marker's own white
    cells or the paper round it."""
    per_cell = 24
    cells = cv2.aruco.generateImageMarker(DICTIONARY, marker_id, 6)  # a pixel a cell, black border included
    drawn = cv2.resize(cells, (6 * per_cell, 6 * per_cell), interpolation=cv2.INTER_NEAREST)
    drawn = cv2.copyMakeBorder(drawn, per_cell, per_cell, per_cell, per_cell, cv2.BORDER_CONSTANT, value=255)
    from_white = cv2.distanceTransform(np.asarray(drawn < 128, np.uint8), cv2.DIST_L2, 5) / per_cell
    grid = (np.arange(24, dtype=np.float32) + 0.5) / 24  # a quarter of a cell apart
    at = np.round((grid * 6 + 1) * per_cell).astype(np.intp)
    ys, xs = np.nonzero(from_white[np.ix_(at, at)] >= depth)
    return np.column_stack([grid[xs], grid[ys]]).astype(np.float32)


# The border cells are 1/6 of the marker: their middles, half a cell from the paper outside and from any
# white cell inside, give the black. A camera out of focus mixes that much white into them: the six
# independent generators' scenes blurred 2 pixels more after calibrating (a camera that lost its focus;
# markers 30 pixels across have cells of 5) read a black of 45 to 80 where it was 15 to 45, and every
# colour of the yard came out wrong against the empty yard's (their median misfit 0.10 instead of 0.01),
# so its print read as cubes and as arms reaching in. The points at least DEEP_BLACK cells from any white
# (36 to 60 of each marker's, where its black cells lie together) stay black under that blur. Where the
# middles of the border read lighter than them by more than BLUR_SHOWS of the way to the paper's white,
# the blur shows and the deep points give the black instead. Not always: in sharp frames the two differ by a few
# levels either way (one generator's printed cells are a shade lighter inside), and the readings churned
# with them (bench seeds: 429 of 600 exact instead of 431, 50 more cubes wrong).
# Measured (2026-11-29), exact counts: blurred 2 pixels, the bench's 600 seeds 357 -> 396 and 400 of the
# cached indep and third scenes 255 -> 305; blurred 1.5 pixels, the fresh 600 (seeds 70 000-) 423 -> 431.
# Sharp, where it is the same black nearly everywhere: the 1500 cached scenes 1127 -> 1124, the fresh 600
# 440 -> 441, the bench's 431 -> 433, our main and alt scenes 246 of 250 as before. BLUR_SHOWS 0.05:
# blurred 393, sharp 1126, 439 and 431.
DEEP_BLACK = 0.75  # cells
BLUR_SHOWS = 0.03
_DEEP_BLACK = {marker_id: _deep_black(marker_id, DEEP_BLACK) for marker_id in CORNER_IDS}
_BORDER_BLACK = _ring(1 / 12, 8)
_WHITE_RING = _ring(-0.12, 10)  # a little more than half a cell outside
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)


def _sample(image: NDArray[np.uint8], points: NDArray[np.float32]) -> tuple[NDArray[np.float32], NDArray[np.bool_]]:
    """Mean of the 3×3 pixels around each point inside the image, and which points those are."""
    h, w = image.shape[:2]
    xy = np.round(points).astype(np.int64)
    keep = (xy[:, 0] >= 1) & (xy[:, 0] < w - 1) & (xy[:, 1] >= 1) & (xy[:, 1] < h - 1)
    xy = xy[keep]
    # All nine neighbours in one gather; their sums are whole numbers, exact in any order.
    nine = image[xy[:, 1, None] + _NEIGHBOURS[:, 0], xy[:, 0, None] + _NEIGHBOURS[:, 1]]
    return np.asarray(nine.astype(np.float32).sum(axis=1) / 9, np.float32), keep


_NEIGHBOURS = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.int64)
# Each marker's points, mapped and sampled at once: its border's middles, its deepest black, the paper round it.
_POINTS = {marker_id: np.concatenate([_BORDER_BLACK, _DEEP_BLACK[marker_id], _WHITE_RING]).reshape(1, -1, 2)
           for marker_id in CORNER_IDS}
_GROUPS = {marker_id: np.repeat([0, 1, 2], [len(_BORDER_BLACK), len(_DEEP_BLACK[marker_id]), len(_WHITE_RING)])
           for marker_id in CORNER_IDS}


def measure_reference(image: NDArray[np.uint8], sighting: MarkerSighting) -> ColourReference:
    whites, blacks = [], []
    for marker_id in CORNER_IDS:
        h = cv2.getPerspectiveTransform(_UNIT, sighting.corners[marker_id].astype(np.float32))
        values, keep = _sample(image, cv2.perspectiveTransform(_POINTS[marker_id], h)[0])
        group = _GROUPS[marker_id][keep]
        border, deep, wv = values[group == 0], values[group == 1], values[group == 2]
        b = border
        if len(border) and len(deep) and len(wv):
            border_lum, deep_lum = median(border.mean(axis=1)), median(deep.mean(axis=1))
            if border_lum - deep_lum > BLUR_SHOWS * (float(wv.mean()) - deep_lum):
                b = deep  # out of focus: the border's middles are greyed by the white beside them
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
