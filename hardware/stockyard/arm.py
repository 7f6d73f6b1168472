"""An arm reaching into the picture, told apart from cubes without the cube net.

The cube net marks cubes, and it is right not to mark a bare forearm: a plain skin-coloured band looks
nothing like a cube. But the reading must then be unsure, so this looks for what an arm is instead: a
large region that changed since the empty yard was photographed and that comes in over the edge of what
the camera sees. Cubes lie on the yard, well inside that edge; a change of light moves the whole picture
alike and the matching takes it out.

A lamp switched on over one side, or a shadow across a corner, changes a large region at the edge too.
It relights the board's print and leaves it showing; an arm covers it. So a region whose print still
shows is no arm (see `covers_the_print`).
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage

CHANGED = 0.15  # log units: 16 % brighter or 14 % darker in some channel, over a neighbourhood
ARM_SHARE = 0.06  # of the yard's area: the least a region coming in over the edge must cover
# Colours are compared smoothed and with this floor under them: print's speckles and a dark board's sensor
# noise change much, pixel by pixel, between two pictures; an arm changes a whole region a little.
DARK_FLOOR = 0.1
SMOOTH = 7  # half-resolution pixels
_OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def _half(image: NDArray[np.float32] | NDArray[np.uint8]) -> NDArray[np.float32]:
    return np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.float32)


def _smooth_log(image: FloatImage) -> NDArray[np.float32]:
    return np.asarray(cv2.log(cv2.blur(np.maximum(image, 0), (SMOOTH, SMOOTH)) + DARK_FLOOR), np.float32)


class ArmWatch:
    """Looks for an arm reaching in, frame after frame, against the empty yard.

    The empty yard at half resolution, smoothed, and its grain are the same for every frame read against it:
    they are worked out once and kept (by identity: a reader hands over the same array each time). One watch
    per reader, like its cube net, so two readers never see each other's empty yard.
    """

    def __init__(self) -> None:
        self._empty: FloatImage | None = None
        self._then: NDArray[np.float32] = np.zeros((0, 0, 3), np.float32)
        self._smooth_then: NDArray[np.float32] = self._then
        self._then_grain: NDArray[np.float32] | None = None  # worked out when a frame first needs it

    def region(self, colours: FloatImage, empty: FloatImage, allowed: NDArray[np.uint8], edge: NDArray[np.uint8],
               yard_area: float) -> NDArray[np.uint8] | None:
        """Where something reaches in over the edge of the seen canvas (255 there, canvas-sized), or None.
        Worked out at half resolution."""
        if empty is not self._empty:
            self._empty, self._then = empty, _half(empty)
            self._smooth_then = _smooth_log(self._then)
            self._then_grain = None
        then = self._then
        now = _half(colours)
        change = cv2.absdiff(_smooth_log(now), self._smooth_then)
        blue, green, red = cv2.split(change)  # the largest of three planes: numpy's max over a last axis of 3 is slow
        changed = (cv2.max(cv2.max(blue, green), red) > CHANGED) & (_half(allowed) > 0)
        # Opening drops printed lines a nudged camera shifted and the specks of noise.
        changed_u8 = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, _OPEN)
        _, labels, stats, _ = cv2.connectedComponentsWithStats(changed_u8, connectivity=8)
        at_edge = np.unique(labels[(_half(edge) > 0) & (changed_u8 > 0)])
        least = ARM_SHARE * yard_area / 4  # four canvas pixels to each at half resolution
        large = [label for label in at_edge if label > 0 and stats[label, cv2.CC_STAT_AREA] >= least]
        if not large:
            return None
        if self._then_grain is None:
            self._then_grain = grain(then)
        now_grain = grain(now)
        arms = [label for label in large if covers_the_print(now_grain, self._then_grain, labels == label)]
        if not arms:
            return None
        region = np.isin(labels, arms).astype(np.uint8) * 255
        height, width = edge.shape[:2]
        return np.asarray(cv2.resize(region, (width, height), interpolation=cv2.INTER_NEAREST), np.uint8)


# Measured on the cached scenes of eight generators (853 without a hand, 72 with one; the sixth's 120 and
# the fifth's 150 never tuned on before): a region a lamp or a shadow changed gives slopes from -0.33 to
# +0.35, an arm's from -0.5 to -0.9. Without this test 66 of the 853 read "something reaches in", with it 8;
# every hand still read unsure, and no count changed.
COVERED = -0.4  # the slope below which the print is covered
GRAINLESS = 0.01  # mean squared grain (log units, summed over channels) below which ground is plain
GRAIN_FINE, GRAIN_COARSE = 1.0, 4.0  # Gaussian sigmas (half-resolution pixels) the grain lies between


def grain(colours: FloatImage) -> NDArray[np.float32]:
    """The picture's fine detail in log colours: print and texture, without the light's slow changes
    (which a log turns into a sum, and the coarser blur takes out)."""
    logs = np.asarray(cv2.log(np.maximum(colours, 0) + DARK_FLOOR), np.float32)
    return np.asarray(cv2.GaussianBlur(logs, (0, 0), GRAIN_FINE) - cv2.GaussianBlur(logs, (0, 0), GRAIN_COARSE),
                      np.float32)


def covers_the_print(now_grain: NDArray[np.float32], then_grain: NDArray[np.float32],
                     region: NDArray[np.bool_]) -> bool:
    """Whether something in `region` covers the board's print, rather than relighting it.

    A change of light multiplies the colours, adds in logs, and leaves the grain as it was: the grain
    now less the grain then is nothing, and its regression on the grain then has slope 0. Something
    opaque brings its own grain, which owes nothing to the print's: the difference is minus the print's
    grain, slope -1. Plain ground has no grain to tell them by; then the region counts as covered, as an
    arm is the safer guess.
    """
    then = then_grain[region]
    energy = float(np.mean(np.sum(then * then, axis=1)))
    if energy < GRAINLESS:
        return True
    difference = now_grain[region] - then
    slope = float(np.mean(np.sum(difference * then, axis=1))) / energy
    return slope < COVERED
