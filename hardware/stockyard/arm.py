"""An arm reaching into the picture, told apart from cubes without the cube net.

The cube net marks cubes, and it is right not to mark a bare forearm: a plain skin-coloured band looks
nothing like a cube. But the reading must then be unsure, so this looks for what an arm is instead: a
large region that changed since the empty yard was photographed and that comes in over the edge of what
the camera sees. Cubes lie on the yard, well inside that edge; a change of light moves the whole picture
alike and the matching takes it out.
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


def arm_reaches_in(colours: FloatImage, empty: FloatImage, allowed: NDArray[np.uint8], edge: NDArray[np.uint8],
                   yard_area: float) -> bool:
    """Whether a large changed region touches the edge of the seen canvas. Runs at half resolution."""
    def half(image: NDArray[np.float32] | NDArray[np.uint8]) -> NDArray[np.float32]:
        return np.asarray(cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA), np.float32)

    def smooth_log(image: FloatImage) -> NDArray[np.float32]:
        return np.asarray(cv2.log(cv2.blur(np.maximum(half(image), 0), (SMOOTH, SMOOTH)) + DARK_FLOOR), np.float32)

    change = cv2.absdiff(smooth_log(colours), smooth_log(empty))
    changed = (np.max(change, axis=2) > CHANGED) & (half(allowed) > 0)
    # Opening drops printed lines a nudged camera shifted and the specks of noise.
    changed_u8 = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, _OPEN)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(changed_u8, connectivity=8)
    at_edge = np.unique(labels[(half(edge) > 0) & (changed_u8 > 0)])
    least = ARM_SHARE * yard_area / 4  # four canvas pixels to each at half resolution
    return any(label > 0 and stats[label, cv2.CC_STAT_AREA] >= least for label in at_edge)
