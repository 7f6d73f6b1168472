"""Shared helpers for the stock-yard vision tests: scenes are rendered on the fly, never stored."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hardware.stockyard import YardProfile, YardReader, build_profile
from hardware.yard_render import CameraPose, YardScene, render
from tests.vision.scenes import Lighting, apply_lighting


def shoot(scene: YardScene, light: Lighting | None = None, seed: int = 0) -> np.ndarray:
    """Render a scene and pass it through a (default: mild) camera."""
    return apply_lighting(render(scene), light or Lighting(noise=2.0, jpeg=92), np.random.default_rng(seed))


def plain_scene(seed: int = 1, **camera: Any) -> YardScene:
    pose = CameraPose(**{"tilt_deg": 12.0, "azimuth_deg": 80.0, "roll_deg": 5.0, "distance_mm": 330.0,
                         "focal_px": 1000.0, **camera})
    return YardScene(yard_mm=(150.0, 100.0), cube_mm=10.0, marker_mm=20.0, camera=pose, seed=seed)


@pytest.fixture(scope="module")
def plain_profile() -> YardProfile:
    return build_profile(shoot(plain_scene()))


@pytest.fixture(scope="module")
def plain_reader(plain_profile: YardProfile) -> YardReader:
    return YardReader(plain_profile)
