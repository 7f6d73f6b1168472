"""One frame made ready for reading: markers found, yard warped top-down, colours normalised."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import ColourReference, FloatImage, measure_reference, normalise
from hardware.stockyard.geometry import (
    CameraGeometry,
    CanonicalView,
    Matrix,
    camera_geometry,
    image_to_canvas,
)
from hardware.stockyard.markers import CORNER_IDS, MarkerSighting, find_markers

Mask = NDArray[np.uint8]
# The markers (and their printed edge) are never a cube; the paper round them is the profile's business.
MARKER_MARGIN = 1.2


class MarkersMissing(Exception):
    """Not all four corner markers are visible; the message names the missing ones."""

    def __init__(self, sighting: MarkerSighting) -> None:
        super().__init__(sighting.missing_reason())
        self.sighting = sighting


@dataclass(frozen=True)
class PreparedFrame:
    canvas: NDArray[np.uint8]  # the warped yard as the camera saw it (BGR)
    colours: FloatImage  # normalised: 0 = printed black, 1 = paper white
    valid: Mask  # 255 where the canvas lies inside the camera picture
    markers: Mask  # 255 over the markers and their paper: never a cube
    view: CanonicalView
    to_canvas: Matrix
    camera: CameraGeometry
    reference: ColourReference
    sighting: MarkerSighting


def marker_mask(sighting: MarkerSighting, to_canvas: Matrix, view: CanonicalView, scale: float,
                marker_ids: tuple[int, ...] = CORNER_IDS) -> Mask:
    """255 over each marker (of `marker_ids`) grown by `scale` about its centre, in canvas pixels."""
    mask = np.zeros((view.size[1], view.size[0]), np.uint8)
    for marker_id in marker_ids:
        quad = sighting.corners[marker_id]
        centre = quad.mean(axis=0)
        grown = centre + (quad - centre) * scale
        pts = cv2.perspectiveTransform(grown.reshape(1, 4, 2).astype(np.float32), to_canvas)[0]
        cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 255)
    return mask


def to_gray(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    if image.ndim == 2:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=np.uint8)


def to_bgr(image: NDArray[np.uint8]) -> NDArray[np.uint8]:
    if image.ndim == 2:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    if image.shape[2] == 4:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGRA2BGR), dtype=np.uint8)
    return image


def prepare(image: NDArray[np.uint8], view: CanonicalView, sighting: MarkerSighting | None = None) -> PreparedFrame:
    image = to_bgr(image)
    if sighting is None:
        sighting = find_markers(to_gray(image))
    if not sighting.complete:
        raise MarkersMissing(sighting)
    reference = measure_reference(image, sighting)
    h = image_to_canvas(sighting, view)
    source, source_h = image, h
    # Warping samples, it does not average: shrink big yards first so noise is averaged, not aliased.
    yard_px = float(np.linalg.norm(sighting.centres()[1] - sighting.centres()[0]))
    while yard_px > 2.4 * view.width:  # a 4K camera may need two halvings
        source = np.asarray(cv2.pyrDown(source), np.uint8)
        up = np.array([[2, 0, 0.5], [0, 2, 0.5], [0, 0, 1]], dtype=np.float64)  # half-size → full-size pixel
        source_h = source_h @ up
        yard_px /= 2
    canvas = np.asarray(cv2.warpPerspective(source, source_h, view.size, flags=cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)), np.uint8)
    colours = normalise(canvas, reference, view)
    img_h, img_w = image.shape[:2]
    frame_corners = np.array([[[0, 0], [img_w - 1, 0], [img_w - 1, img_h - 1], [0, img_h - 1]]], np.float32)
    valid = np.zeros((view.size[1], view.size[0]), np.uint8)
    cv2.fillConvexPoly(valid, np.round(cv2.perspectiveTransform(frame_corners, h)[0]).astype(np.int32), 255)
    valid = np.asarray(cv2.erode(valid, np.ones((5, 5), np.uint8)), np.uint8)
    markers = marker_mask(sighting, h, view, MARKER_MARGIN)
    camera = camera_geometry(np.asarray(np.linalg.inv(h), np.float64), (img_w, img_h))
    return PreparedFrame(canvas, colours, valid, markers, view, h, camera, reference, sighting)
