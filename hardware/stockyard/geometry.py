"""The canonical top-down view of the stock yard and what the homography tells about the camera.

The yard quad (the four marker centres) maps to a W×H rectangle inside a canvas with a margin all
round, so an arm reaching in from outside is seen before it covers the cubes. W×H keeps the yard's
true aspect ratio, measured from the markers themselves (they are squares on the board), so the view
is metric: one canvas pixel is the same length in x and y, and the camera position can be recovered.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.markers import CORNER_IDS, MarkerSighting
from hardware.stockyard.medians import median

Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class CanonicalView:
    width: int  # the yard (marker centre to marker centre), canvas pixels
    height: int
    margin: int

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the whole canvas, as OpenCV wants it."""
        return self.width + 2 * self.margin, self.height + 2 * self.margin

    def yard_corners(self) -> NDArray[np.float32]:
        m, w, h = self.margin, self.width, self.height
        return np.array([[m, m], [m + w, m], [m + w, m + h], [m, m + h]], dtype=np.float32)


# The yard's width on the canvas (marker centre to marker centre), pixels: what the cube net and the counter see.
# Measured 2026-11-30 (the shipped net, the six independent generators' 2700 cached scenes and 900 never-seen, read
# exactly; one-thread medians over 20 bench scenes of each generator):
#   width   2700 (cubes wrong)   900 (cubes wrong)   ms a frame
#   320     2158 (1542)          712 (536)           20.2-25.3 (until 2026-11-30)
#   336     2154 (1575)
#   352     2199 (1599)          722 (496)           22.4-27.4
#   368     2180 (1554)
#   384     2171 (1550)
#   448     2161 (1579)
#   512     2119 (1780)
# At 352 every generator but the fourth gains (the fifth most, 198 -> 215), with recounts keeping the first count's
# cube side where no cube lies alone (see reader.py: without it a heap of test_counting read an iron short). What it
# loses are heaps in crowds: the main style's with touching 0.9 read 30 of 40 against 35, each a cube short. A
# crowd's heap grows less than its lone cubes (main 70007: 1.14 against 1.27 times the area at 320), and the
# footprint they measure is too large for it. The net was trained on scenes cut at 320, but that is not the whole
# story: fine-tuned on scenes cut at 352 it reads 31 of the 40. Fine-tunes of the shipped net (10 000 steps at 1e-3)
# read more cubes right but fewer scenes: on the same 4900 training scenes cut at 352, 2167 (1478) of the 2700 and
# 719 (460) of the 900, averaged with the shipped net 2180 (1467); on the 320 scenes shown 1.1 times larger, 2162
# (1516) and 718 (557), averaged 2177. A net trained from the start on scenes cut at 352 (`make cubenet`'s recipe,
# 2026-11-30) reads 2190 (1430) and 722 (454), the crowds 31: again fewer cubes wrong, no more scenes (it misses
# more stones, 189 scenes against 162), and no other cube threshold helps it (reader.CUBE_LOGIT 0.4: 2182, 1.0:
# 2172). Its logits averaged with the shipped net's at every frame read 2201 and 734, for a second net's run
# (3-4 ms a canvas on one thread, most of the slowest style's 4 ms to spare): not kept. Less of a heap's area
# taken for hidden gaps (count.HEAP_GAP 0.1, not 0.2) wins the crowds back (35 of 40) but reads 2195 (1652) and
# 723 (516): a wash, left as it was.
CANVAS_WIDTH = 352


def view_for_aspect(aspect: float, width: int = CANVAS_WIDTH, reach: float = 0.0) -> CanonicalView:
    """The canonical view of a yard of this aspect; `reach` (canvas pixels) is how far the markers
    spread beyond their centres, where a yard marked from inside its corners still lies."""
    height = int(round(width / aspect))
    longest = max(width, height)
    margin = max(MARGIN * longest, reach + ARM_ROOM * longest)
    return CanonicalView(width=width, height=height, margin=int(round(margin)))


MARGIN = 0.16  # of the yard's longer side: room round the marker centres to see an arm reach in
ARM_ROOM = 0.06  # of the longer side: room beyond the markers' outer edges for the same


def marker_reach(sighting: MarkerSighting, to_canvas: Matrix) -> float:
    """How far (canvas pixels) the markers' paper reaches beyond their centres, the median of the four.

    Markers may sit outside the yard's corners, on them or inside them: the yard may reach this far
    past the marker centres, and a cube there is still in the yard.
    """
    reaches = []
    for marker_id in CORNER_IDS:
        quad = cv2.perspectiveTransform(sighting.corners[marker_id].reshape(1, 4, 2).astype(np.float32), to_canvas)[0]
        reaches.append(float(np.abs(quad - quad.mean(axis=0)).max()))
    return PAPER_REACH * median(np.array(reaches))


PAPER_REACH = 1.6  # a marker's paper over its black square's half side: a white border 30 % of the side wide


def yard_aspect(sighting: MarkerSighting) -> float:
    """Width / height of the yard on the board, from how the (square) markers look in a unit-square view.

    A square of any rotation has an isotropic corner covariance; stretched by 1/w and 1/h into the unit
    square it becomes diag(c/w², c/h²), so w/h = sqrt(cov_yy / cov_xx).
    """
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(sighting.centres().astype(np.float32), unit)
    ratios = []
    for marker_id in CORNER_IDS:
        pts = cv2.perspectiveTransform(sighting.corners[marker_id].reshape(1, 4, 2).astype(np.float32), h)[0]
        cov = np.cov(pts.T.astype(np.float64))
        if cov[0, 0] > 0:
            ratios.append(np.sqrt(cov[1, 1] / cov[0, 0]))
    return median(np.array(ratios)) if ratios else 1.0


def image_to_canvas(sighting: MarkerSighting, view: CanonicalView) -> Matrix:
    h = cv2.getPerspectiveTransform(sighting.centres().astype(np.float32), view.yard_corners())
    return np.asarray(h, dtype=np.float64)


@dataclass(frozen=True)
class CameraGeometry:
    """Camera centre over the board in canvas pixels: (x, y) on the board and its height above it."""

    x: float
    y: float
    height: float

    def displacement(self, points: NDArray[np.float64], lift: float) -> NDArray[np.float64]:
        """Where a point `lift` canvas pixels above the board appears to lie, minus where it stands.

        Central projection from the camera onto the board: the top of a cube is pushed away from the
        camera's foot by lift / (height - lift) of its distance to it.
        """
        scale = lift / max(self.height - lift, 1e-6)
        return np.asarray((points - np.array([self.x, self.y])) * scale, dtype=np.float64)


def camera_geometry(canvas_to_image: Matrix, image_size: tuple[int, int]) -> CameraGeometry:
    """Recover the camera centre from the plane homography (principal point at the image centre).

    The focal length comes from the two rotation constraints (r1 ⟂ r2, |r1| = |r2|) solved together
    by least squares; when the camera looks almost straight down they say nothing, so a typical webcam
    focal length stands in (the tops then barely move, so its error hardly matters).
    """
    w, h = image_size
    shift = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], dtype=np.float64)
    a = shift @ canvas_to_image
    a = a / np.linalg.norm(a[:, :2])
    b1 = a[0, 0] * a[0, 1] + a[1, 0] * a[1, 1]
    c1 = a[2, 0] * a[2, 1]
    b2 = a[0, 0] ** 2 + a[1, 0] ** 2 - a[0, 1] ** 2 - a[1, 1] ** 2
    c2 = a[2, 0] ** 2 - a[2, 1] ** 2
    default = 0.85 * max(w, h)
    focal = default
    denom = c1 * c1 + c2 * c2
    if denom > 1e-18:
        f2 = -(b1 * c1 + b2 * c2) / denom
        if f2 > 0 and 0.3 * max(w, h) < np.sqrt(f2) < 3.0 * max(w, h):
            focal = float(np.sqrt(f2))
    k_inv = np.diag([1 / focal, 1 / focal, 1.0])
    m = k_inv @ a
    scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
    r1, r2, t = m[:, 0] / scale, m[:, 1] / scale, m[:, 2] / scale
    r3 = np.cross(r1, r2)
    rotation = np.column_stack([r1, r2, r3 / np.linalg.norm(r3)])
    centre = -rotation.T @ t
    return CameraGeometry(float(centre[0]), float(centre[1]), float(abs(centre[2])))
