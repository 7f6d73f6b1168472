"""The debug view: the warped yard with every cube outlined in its class colour, the parts taken for a lamp's
shadows outlined thinly in a colour of their own, and the outline of whatever reaches in over the edge when that
made the reading unsure (for a person to check)."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.classify import OUTLINE
from hardware.stockyard.reader import FrameReading

ARM_OUTLINE = (255, 0, 255)  # BGR magenta: no cube's outline colour
SHADOW_OUTLINE = (0, 255, 255)  # BGR yellow: neither a cube's, an arm's nor the yard's


def debug_view(result: FrameReading, scale: int = 2) -> NDArray[np.uint8] | None:
    if result.frame is None:
        return None
    canvas = cv2.resize(result.frame.canvas, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    view = result.frame.view
    corners = (view.yard_corners() * scale).astype(np.int32)
    cv2.polylines(canvas, [corners], True, (255, 200, 0), 1, cv2.LINE_AA)
    if result.count is not None:
        for cube in result.count.cubes:
            colour = OUTLINE[cube.kind]
            hull = (cube.outline * scale).astype(np.int32)
            cv2.polylines(canvas, [hull], True, (0, 0, 0), 4, cv2.LINE_AA)  # dark halo: white outlines show
            cv2.polylines(canvas, [hull], True, colour, 2, cv2.LINE_AA)
        # Thin, without a halo: what was seen and left out, not counted.
        for shadow in result.count.shadows:
            cv2.polylines(canvas, [(shadow.outline * scale).astype(np.int32)], True, SHADOW_OUTLINE, 1)
    if result.arm is not None:
        region = cv2.resize(result.arm, (canvas.shape[1], canvas.shape[0]), interpolation=cv2.INTER_NEAREST)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(canvas, contours, -1, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.drawContours(canvas, contours, -1, ARM_OUTLINE, 2, cv2.LINE_AA)
    reading = result.reading
    text = f"iron {reading.iron}  stone {reading.stone}  coal {reading.coal}  event {reading.event}"
    text += f"  conf {reading.confidence:.2f}"
    if reading.unsure:
        text += f"  UNSURE: {reading.unsure}"
    cv2.putText(canvas, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(canvas, text, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA)
    return np.asarray(canvas, np.uint8)
