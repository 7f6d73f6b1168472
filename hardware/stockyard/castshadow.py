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

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from hardware.stockyard.count import label_blobs
from hardware.stockyard.segment import EmptyYard, LessLight
from hardware.stockyard.umbra import frame_umbra, keeps_texture, umbra_shadow

Mask = NDArray[np.uint8]

TAIL_DARKER = 0.9  # brightness (from the encoding's zero) over the empty yard's below which ground is in shadow
TAIL_SHARE = 0.2  # of a blob's area: the least its shadowed part and its other part each cover
TAIL_LENGTH = 0.7  # of the rest's width (a side, for a cube or a row): how far a tail reaches past it (0.5: main -1)
TAIL_VOTES = 2  # blobs with a long tail to say which way the light throws shadows (3: 5 fewer blind scenes right)
TAIL_AGREE = 0.8  # the tails' directions' resultant length (1 = all the same way) that confirms the light
TINTED_LENGTH = 1.1  # widths past the rest's centre and half a width: a tinted shadow's long tail (as measured)
SAME_WAY = 0.7  # cosine to the light's direction under which a blob's tail is no cast shadow
_BAND = np.ones((3, 3), np.uint8)  # shadow within a pixel of the cube stays: cubes keep the rim they are measured with
_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def trim_cast_shadows(mask: Mask, colours: FloatImage, empty: EmptyYard,
                      encoding_zero: NDArray[np.float32]) -> Mask:
    """The foreground `mask` without the cast shadows its blobs share, or `mask` itself if they share none."""
    count, labels, stats = label_blobs(mask)
    if count < 1 + TAIL_VOTES:
        return mask
    boxes = {i: (int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 2]), int(stats[i, 3])) for i in range(1, count)}
    blobs = {i: labels[y:y + h, x:x + w] == i for i, (x, y, w, h) in boxes.items()}
    # The blobs are a small part of the yard: each is measured in its own box.
    darker = {i: LessLight(colours, empty, encoding_zero, box) for i, box in boxes.items()}

    def plain(i: int) -> NDArray[np.bool_]:
        """The same ground in less light."""
        return np.asarray(darker[i].same_ground() & (darker[i].now_lum < TAIL_DARKER * darker[i].then_lum))

    found = _light([_Tail.of(boxes[i], blobs[i], plain(i)) for i in boxes])
    if found is None:
        # No shadow of the ground's own colour: perhaps one in the room light's (see `umbra`).
        umbra = frame_umbra([(darker[i], blobs[i]) for i in boxes])
        if umbra is None:
            return mask
        tinted = {i: umbra_shadow(darker[i], blobs[i], umbra) for i in boxes}
        if not keeps_texture(colours, empty, [(boxes[i], tinted[i]) for i in boxes]):
            return mask
        found = _light([_Tail.of(boxes[i], blobs[i], tinted[i], TINTED_LENGTH) for i in boxes])
        if found is None:
            return mask
    tails, light = found
    out = mask.copy()
    for tail in tails:
        if float(tail.direction @ light) >= SAME_WAY:
            tail.cut(out)
    return out


def _light(found: list[_Tail | None]) -> tuple[list[_Tail], NDArray[np.float64]] | None:
    """The blobs' tails and the way the light throws them, if enough long tails agree on it."""
    tails = [tail for tail in found if tail is not None]
    long_ones = [t.direction for t in tails if t.long]
    if len(long_ones) < TAIL_VOTES:
        return None
    mean = np.mean(long_ones, axis=0)
    if float(np.hypot(*mean)) < TAIL_AGREE:
        return None
    return tails, mean / np.hypot(*mean)


class _Tail:
    """One blob's shadowed part, and which way and how far it reaches past the rest of the blob."""

    def __init__(self, box: tuple[int, int, int, int], blob: NDArray[np.bool_], shadow: NDArray[np.bool_],
                 direction: NDArray[np.float64], long: bool) -> None:
        self.box, self.blob, self.shadow, self.direction, self.long = box, blob, shadow, direction, long

    @classmethod
    def of(cls, box: tuple[int, int, int, int], blob: NDArray[np.bool_], shadowed: NDArray[np.bool_],
           past_centre: float | None = None) -> _Tail | None:
        """`blob` and `shadowed` within the blob's `box`. `past_centre`: a tail is long, too, where it reaches
        this many widths past the rest's centre and half a width (for shadows whose ragged far edge is left
        in the rest)."""
        area = np.count_nonzero(blob)
        shadow = shadowed & blob
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
        tip = float(np.max(xs * direction[0] + ys * direction[1]))
        along = xr * direction[0] + yr * direction[1]
        padded = cv2.copyMakeBorder(rest.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
        width = 2 * float(cv2.distanceTransform(padded, cv2.DIST_L2, 5).max()) - 1
        long = tip - float(np.max(along)) >= TAIL_LENGTH * width
        if past_centre is not None:
            long = long or tip - (float(np.mean(along)) + width / 2) >= past_centre * width
        return cls(box, blob, shadow, direction, long)

    def cut(self, mask: Mask) -> None:
        """Take the shadow off the blob in `mask`, but for a pixel's band along the rest of it, and tidy
        the cut: the shadow's ragged edge leaves slivers that are no cube."""
        x, y, w, h = self.box
        rest = (self.blob & ~self.shadow).astype(np.uint8)
        keep = self.blob & ~(self.shadow & (cv2.dilate(rest, _BAND) == 0))
        kept = cv2.morphologyEx(keep.astype(np.uint8) * 255, cv2.MORPH_OPEN, _DISC)
        crop = mask[y:y + h, x:x + w]
        crop[self.blob] = kept[self.blob]
