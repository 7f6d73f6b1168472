"""Long cast shadows: the tail that one lamp gives every cube in a frame, all pointing the same way.

A low lamp throws each cube's shadow a side or two across the board. On coloured print `segment.shadow`
knows it by its unchanged chromaticity, but on plain sand or grey ground a grey cube darkens the ground
just as a shadow does: the cube and its shadow make one blob, counted as the cube and a stone.

One blob cannot tell, but the frame can. One light throws every shadow the same way, so where several
blobs each end in a long darker tail of the ground's own colour, and the tails all point one way, they
are shadows: those tails are taken off. A stone lying next to a cube is beside it in any direction,
and the contact shadow round a cube's foot or its own shaded side is no tail a cube long.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from hardware.stockyard.count import label_blobs
from hardware.stockyard.segment import EmptyYard, LessLight

Mask = NDArray[np.uint8]

TAIL_DARKER = 0.9  # brightness (from the encoding's zero) over the empty yard's below which ground is in shadow
TAIL_SHARE = 0.2  # of a blob's area: the least its shadowed part and its other part each cover
TAIL_LENGTH = 0.7  # of the rest's width (a side, for a cube or a row): how far a tail reaches past it (0.5: main -1)
TAIL_VOTES = 2  # blobs with a long tail to say which way the light throws shadows (3: 5 fewer blind scenes right)
TAIL_AGREE = 0.8  # the tails' directions' resultant length (1 = all the same way) that confirms the light
SAME_WAY = 0.7  # cosine to the light's direction under which a blob's tail is no cast shadow
_BAND = np.ones((3, 3), np.uint8)  # shadow within a pixel of the cube stays: cubes keep the rim they are measured with
_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def trim_cast_shadows(mask: Mask, colours: FloatImage, empty: EmptyYard,
                      encoding_zero: NDArray[np.float32]) -> Mask:
    """The foreground `mask` without the cast shadows its blobs share, or `mask` itself if they share none."""
    count, labels, stats = label_blobs(mask)
    if count < 1 + TAIL_VOTES:
        return mask

    def shadowed(box: tuple[int, int, int, int]) -> NDArray[np.bool_]:
        """The same ground in less light, within a blob's box: the blobs are a small part of the yard."""
        darker = LessLight(colours, empty, encoding_zero, box)
        return np.asarray(darker.same_ground() & (darker.now_lum < TAIL_DARKER * darker.then_lum))

    tails = [tail for i in range(1, count) if (tail := _Tail.of(i, labels, stats[i], shadowed)) is not None]
    long_ones = [t.direction for t in tails if t.long]
    if len(long_ones) < TAIL_VOTES:
        return mask
    mean = np.mean(long_ones, axis=0)
    if float(np.hypot(*mean)) < TAIL_AGREE:
        return mask
    light = mean / np.hypot(*mean)
    out = mask.copy()
    for tail in tails:
        if float(tail.direction @ light) >= SAME_WAY:
            tail.cut(out)
    return out


class _Tail:
    """One blob's shadowed part, and which way and how far it reaches past the rest of the blob."""

    def __init__(self, box: tuple[int, int, int, int], blob: NDArray[np.bool_], shadow: NDArray[np.bool_],
                 direction: NDArray[np.float64], long: bool) -> None:
        self.box, self.blob, self.shadow, self.direction, self.long = box, blob, shadow, direction, long

    @classmethod
    def of(cls, label: int, labels: NDArray[np.int32], stats: NDArray[np.int32],
           shadowed: Callable[[tuple[int, int, int, int]], NDArray[np.bool_]]) -> _Tail | None:
        x, y, w, h, area = (int(v) for v in stats)
        blob = labels[y:y + h, x:x + w] == label
        shadow = shadowed((x, y, w, h)) & blob
        rest = blob & ~shadow
        if np.count_nonzero(shadow) < TAIL_SHARE * area or np.count_nonzero(rest) < TAIL_SHARE * area:
            return None
        ys, xs = np.nonzero(shadow)
        yr, xr = np.nonzero(rest)
        offset = np.array([xs.mean() - xr.mean(), ys.mean() - yr.mean()])
        if np.hypot(*offset) < 1:
            return None
        direction = offset / np.hypot(*offset)
        # How far the shadowed part reaches past the rest's far edge, against the rest's width (a row of
        # cubes is one cube wide): a long way for a cast shadow, a pixel or two for a cube's shaded side.
        reach = float(np.max(xs * direction[0] + ys * direction[1]) - np.max(xr * direction[0] + yr * direction[1]))
        padded = cv2.copyMakeBorder(rest.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
        width = 2 * float(cv2.distanceTransform(padded, cv2.DIST_L2, 5).max()) - 1
        return cls((x, y, w, h), blob, shadow, direction, reach >= TAIL_LENGTH * width)

    def cut(self, mask: Mask) -> None:
        """Take the shadow off the blob in `mask`, but for a pixel's band along the rest of it, and tidy
        the cut: the shadow's ragged edge leaves slivers that are no cube."""
        x, y, w, h = self.box
        rest = (self.blob & ~self.shadow).astype(np.uint8)
        keep = self.blob & ~(self.shadow & (cv2.dilate(rest, _BAND) == 0))
        kept = cv2.morphologyEx(keep.astype(np.uint8) * 255, cv2.MORPH_OPEN, _DISC)
        crop = mask[y:y + h, x:x + w]
        crop[self.blob] = kept[self.blob]
