"""Finding the four corner markers (ArUco DICT_4X4_50, ids 0-3 = TL, TR, BR, BL) in a frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np
from numpy.typing import NDArray

CORNER_IDS = (0, 1, 2, 3)
DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
CORNER_NAMES = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}

Points = NDArray[np.float64]


def _detector(patient: bool = False, quick: bool = False) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    # Sub-pixel corners: the warp (and so the comparison with the empty yard) depends on them.
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Read each cell from 8×8 samples, not 4×4: a small, blurred marker far from the camera is then
    # still decoded (a quarter of such markers were missed with OpenCV's default), at no cost in speed.
    params.perspectiveRemovePixelPerCell = 8
    # Thresholding windows of 3 and 23 pixels, not 3, 13 and 23: a third quicker, and on 1,308 generated
    # frames one more missed a marker at half size (the full-size passes then find it).
    params.adaptiveThreshWinSizeStep = 20
    if quick:
        # The 23-pixel window alone finds all four markers on 97 % of frames at half the time; the
        # rest go on to both windows.
        params.adaptiveThreshWinSizeMin = 23
        params.adaptiveThreshWinSizeMax = 23
    if patient:
        # Many thresholding windows, from a few pixels to a marker's width: markers in a dark corner,
        # under glare or strong blur. Slower (~100 ms here), so only for markers the other passes missed.
        params.adaptiveThreshWinSizeMin = 3
        params.adaptiveThreshWinSizeMax = 53
        params.adaptiveThreshWinSizeStep = 4
        params.polygonalApproxAccuracyRate = 0.08  # blurred corners round off the outline
    return cv2.aruco.ArucoDetector(DICTIONARY, params)


_DETECTOR = _detector()
_QUICK_DETECTOR = _detector(quick=True)
_PATIENT_DETECTOR = _detector(patient=True)


@dataclass(frozen=True)
class MarkerSighting:
    """The corner markers seen in one frame: id → its 4 corners (pixel coordinates, marker order)."""

    corners: dict[int, Points]

    @property
    def missing(self) -> list[int]:
        return [i for i in CORNER_IDS if i not in self.corners]

    @property
    def complete(self) -> bool:
        return not self.missing

    def centre(self, marker_id: int) -> NDArray[np.float64]:
        """The marker's centre: where its diagonals cross (exact under perspective, unlike the mean)."""
        p = self.corners[marker_id]
        return _intersect(p[0], p[2], p[1], p[3])

    def centres(self) -> Points:
        return np.array([self.centre(i) for i in CORNER_IDS], dtype=np.float64)

    def side_px(self) -> float:
        sides = [np.linalg.norm(p - np.roll(p, 1, axis=0), axis=1).mean() for p in self.corners.values()]
        return float(np.mean(sides)) if sides else 0.0

    def missing_reason(self) -> str:
        names = ", ".join(f"{i} ({CORNER_NAMES[i]})" for i in self.missing)
        return f"marker {names} not visible" if len(self.missing) == 1 else f"markers {names} not visible"


def _intersect(a0: NDArray[np.float64], a1: NDArray[np.float64],
               b0: NDArray[np.float64], b1: NDArray[np.float64]) -> NDArray[np.float64]:
    da, db = a1 - a0, b1 - b0
    denom = da[0] * db[1] - da[1] * db[0]
    if abs(denom) < 1e-9:
        return np.asarray((a0 + a1 + b0 + b1) / 4, dtype=np.float64)
    t = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / denom
    return np.asarray(a0 + t * da, dtype=np.float64)


def find_markers(gray: NDArray[np.uint8]) -> MarkerSighting:
    """Detect on a half-size image first (fast); fall back to full size when a marker is missing, and then
    to a sharpened copy of the frame."""
    found: dict[int, Points] = {}
    if min(gray.shape[:2]) >= 480:
        small = np.asarray(cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA),
                           np.uint8)
        for detector in (_QUICK_DETECTOR, _DETECTOR):
            if len(found) < 4:
                found.update(_unseen(found, _detect(small, scale=2.0, detector=detector)))
        if found:
            found = _refine(gray, found)
    if len(found) < 4:
        found.update(_unseen(found, _detect(gray, scale=1.0)))
    if len(found) < 4:
        # Still missing: a small marker under blur, its cells smeared into grey, reads again sharpened. On the
        # six independent generators' cached scenes (3000 frames) blurred a further 1.5 or 2 pixels, the plain
        # passes missed 17 and 131 markers, these 1 and 22; unblurred, neither missed any. The patient detector
        # reads the sharpened frame rather than the plain one: as good on every frame tried. A frame where a
        # hand truly hides a marker takes longer to give up on (140 ms against 103 here).
        sharp = sharpened(gray)
        for detector in (_DETECTOR, _PATIENT_DETECTOR):
            if len(found) < 4 and (new := _unseen(found, _detect(sharp, scale=1.0, detector=detector))):
                # Corners settled on the frame itself: the sharpened one's overshoot moves them a little.
                found.update(_refine(gray, new))
    return MarkerSighting(found)


def _unseen(found: dict[int, Points], seen: dict[int, Points]) -> dict[int, Points]:
    """The markers of `seen` that `found` does not hold yet: an earlier, surer pass keeps its corners."""
    return {k: v for k, v in seen.items() if k not in found}


SHARPEN_SIGMA = 2.0  # pixels: about a small marker's cell (a 24-pixel marker has cells of 4)


Image = TypeVar("Image", NDArray[np.uint8], NDArray[np.float32])


def sharpened(image: Image, sigma: float = SHARPEN_SIGMA) -> Image:
    """An unsharp mask: the image plus its difference from a copy blurred by `sigma` pixels, restoring the
    contrast blur took from fine detail such as a marker's cells or a cube's edges. Of the image's own type
    (bytes saturate)."""
    soft = cv2.GaussianBlur(image, (0, 0), sigma)
    return np.asarray(cv2.addWeighted(image, 2.0, soft, -1.0, 0), image.dtype)


_SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)


def _refine(gray: NDArray[np.uint8], found: dict[int, Points]) -> dict[int, Points]:
    """Corners found at half size are only half as exact: settle them on the full-size image."""
    ids = list(found)
    pts = np.concatenate([found[i] for i in ids]).astype(np.float32).reshape(-1, 1, 2)
    refined = cv2.cornerSubPix(gray, pts, (4, 4), (-1, -1), _SUBPIX_CRITERIA).reshape(-1, 4, 2)
    return {i: np.asarray(refined[k], np.float64) for k, i in enumerate(ids)}


def _detect(gray: NDArray[np.uint8], scale: float, detector: cv2.aruco.ArucoDetector = _DETECTOR
            ) -> dict[int, Points]:
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, Points] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel(), strict=True):
        mid = int(marker_id)
        if mid in CORNER_IDS and mid not in found:
            # Pixel centres: half-size pixel (i) covers full-size pixels 2i, 2i+1, centred at 2i + 0.5.
            pts = np.asarray(quad, dtype=np.float64).reshape(4, 2)
            found[mid] = (pts + 0.5) * scale - 0.5
    return found
