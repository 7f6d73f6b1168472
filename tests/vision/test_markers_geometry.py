"""Markers found under tilt and blur; the warp is metric; the camera position is recovered."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hardware.stockyard.frame import to_gray
from hardware.stockyard.geometry import camera_geometry, image_to_canvas, view_for_aspect, yard_aspect
from hardware.stockyard.markers import _DETECTOR, _PATIENT_DETECTOR, _detect, find_markers
from hardware.yard_render import YardScene, camera_matrices, project
from tests.vision.conftest import plain_scene, shoot
from tests.vision.scenes import Lighting


def true_centres(scene: YardScene) -> np.ndarray:
    yw, yh = scene.yard_mm
    h = scene.marker_mm / 2
    pts = np.array([[-h, -h, 0], [yw + h, -h, 0], [yw + h, yh + h, 0], [-h, yh + h, 0]], float)
    return project(pts, scene)


@pytest.mark.parametrize(("tilt", "roll", "blur"), [(0, 0, 0.0), (30, 40, 1.2), (38, 170, 1.5), (20, 275, 0.8)])
def test_markers_found_under_tilt_rotation_and_blur(tilt: float, roll: float, blur: float) -> None:
    scene = plain_scene(tilt_deg=tilt, roll_deg=roll, distance_mm=420.0)
    image = shoot(scene, Lighting(blur=blur, noise=4.0, jpeg=75))
    sighting = find_markers(to_gray(image))
    assert sighting.complete
    # Centres within a pixel or so of where the renderer put them (it pastes markers on whole texels).
    assert np.abs(sighting.centres() - true_centres(scene)).max() < 1.2


@pytest.mark.parametrize(("distance", "blur"), [(600.0, 2.0), (700.0, 2.0), (800.0, 1.5)])
def test_small_blurred_markers_are_read_sharpened(distance: float, blur: float) -> None:
    """Markers 24-32 pixels wide, their cells blurred into grey: the unsharp mask brings them back."""
    scene = plain_scene(distance_mm=distance)
    gray = to_gray(shoot(scene, Lighting(blur=blur, noise=2.0, jpeg=92)))
    plainly = {**_detect(gray, 1.0, _DETECTOR), **_detect(gray, 1.0, _PATIENT_DETECTOR)}
    assert len(plainly) < 4  # premise: without sharpening, even the patient pass misses one
    sighting = find_markers(gray)
    assert sighting.complete
    assert np.abs(sighting.centres() - true_centres(scene)).max() < 1.2


def test_a_hidden_marker_is_named() -> None:
    scene = dataclasses.replace(plain_scene(), hidden_markers=(2,))
    sighting = find_markers(to_gray(shoot(scene)))
    assert sighting.missing == [2]
    assert "bottom-right" in sighting.missing_reason()


@pytest.mark.parametrize("tilt", [0.0, 25.0])
def test_yard_aspect_is_measured_from_the_square_markers(tilt: float) -> None:
    scene = plain_scene(tilt_deg=tilt, azimuth_deg=30.0)
    sighting = find_markers(to_gray(shoot(scene)))
    # Marker centres sit half a marker outside the yard: (150 + 20) / (100 + 20).
    assert yard_aspect(sighting) == pytest.approx(170 / 120, rel=0.03)


def test_camera_position_is_recovered_from_the_homography() -> None:
    scene = plain_scene(tilt_deg=28.0, azimuth_deg=60.0, focal_px=1100.0)
    sighting = find_markers(to_gray(shoot(scene)))
    view = view_for_aspect(170 / 120)
    to_canvas = image_to_canvas(sighting, view)
    geometry = camera_geometry(np.asarray(np.linalg.inv(to_canvas), np.float64), (1280, 720))
    _, _, centre = camera_matrices(scene)
    scale = view.width / 170.0  # canvas pixels per millimetre
    expected = (view.margin + (centre[0] + 10) * scale, view.margin + (centre[1] + 10) * scale, -centre[2] * scale)
    assert geometry.x == pytest.approx(expected[0], abs=0.05 * expected[2])
    assert geometry.y == pytest.approx(expected[1], abs=0.05 * expected[2])
    assert geometry.height == pytest.approx(expected[2], rel=0.05)
