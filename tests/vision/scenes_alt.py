"""A second, deliberately different scene style, to catch tuning to the main generator.

Other artwork (bold stripes, checks, hatching and lettering instead of mottled landscape), markers always
centred on the yard's corners, cube sizes only at the extremes (1/12 and 1/20 of the yard), other cube
paints (a redder iron, lighter stone, brownish coal, ivory event), harder shadows and a squarer yard.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from hardware.yard_render import CameraPose, YardScene, render
from tests.vision.scenes import ScenePair, Shot, _fits, apply_lighting, play_scene, random_lighting

ALT_PALETTE = {"iron": (35, 85, 215), "stone": (150, 152, 150), "coal": (35, 38, 45), "event": (215, 228, 232)}


def alt_artwork(width: int, height: int, rng: np.random.Generator) -> np.ndarray:
    palette = [tuple(int(c) for c in rng.integers(30, 230, 3)) for _ in range(4)]
    img = np.zeros((height, width, 3), np.uint8)
    img[:] = palette[0]
    style = int(rng.integers(3))
    step = int(rng.integers(30, 90))
    if style == 0:  # stripes
        for x in range(-height, width, step):
            cv2.line(img, (x, 0), (x + height, height), palette[1], step // 3)
    elif style == 1:  # checks
        for y in range(0, height, step):
            for x in range(0, width, step):
                if (x // step + y // step) % 2:
                    img[y:y + step, x:x + step] = palette[1]
    else:  # hatching
        for y in range(0, height, 9):
            cv2.line(img, (0, y), (width, y + int(rng.integers(-20, 20))), palette[1], 2)
    for _ in range(6):
        cv2.putText(img, "SNOWDON", (int(rng.integers(0, width)), int(rng.integers(0, height))),
                    cv2.FONT_HERSHEY_DUPLEX, float(rng.uniform(1, 3)), palette[2], 3, cv2.LINE_AA)
    grain = rng.normal(0, 5, (height, width, 1)).astype(np.float32)
    return np.clip(img.astype(np.float32) + grain, 0, 255).astype(np.uint8)


def alt_scene_pair(seed: int) -> ScenePair:
    rng = np.random.default_rng(10_000 + seed)
    yw = float(rng.uniform(100, 140))
    yh = float(yw * rng.uniform(0.75, 1.0))
    cube = yw / float(rng.choice([12.0, 20.0]))
    marker = float(rng.uniform(0.14, 0.2) * yw)
    art = alt_artwork(int((yw + 180) * 4), int((yh + 180) * 4), rng)
    scene: YardScene | None = None
    for _ in range(200):
        focal = float(rng.uniform(0.8, 1.0) * 1280)
        extent = math.hypot(yw, yh) + marker
        camera = CameraPose(tilt_deg=float(rng.uniform(5, 25)), azimuth_deg=float(rng.uniform(0, 360)),
                            roll_deg=float(rng.uniform(-30, 30)), focal_px=focal,
                            distance_mm=focal * extent / (float(rng.uniform(0.6, 0.85)) * 720))
        candidate = YardScene(yard_mm=(yw, yh), cube_mm=cube, marker_mm=marker, markers="centred", camera=camera,
                              light_dir=(0.7, 0.2, -0.68), ambient=0.3, board=art, palette=ALT_PALETTE, shadow=0.6,
                              seed=int(rng.integers(1 << 30)))
        if _fits(candidate):
            scene = candidate
            break
    assert scene is not None
    calibration = apply_lighting(render(scene), random_lighting(rng), rng)
    play, got = play_scene(scene, None, rng, touching=0.3, most=12)
    return ScenePair(calibration, Shot(apply_lighting(render(play), random_lighting(rng), rng), got), play)
