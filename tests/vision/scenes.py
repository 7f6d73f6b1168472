"""Synthetic stock-yard scenes: an empty-yard calibration shot and a play shot under other light.

Built on hardware.yard_render (board artwork, markers, 3D-shaded cubes with grain and contact shadows,
pinhole camera) with the nuisances of a living room added here: camera tilt, rotation and a nudge
between shots, warm-to-cool white balance, exposure, gradients, vignetting, blur, sensor noise, JPEG,
touching cubes and a hand reaching in. Everything is drawn from one seed; nothing is stored.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.yard_render import (
    CameraPose,
    CubePlacement,
    YardScene,
    default_artwork,
    project,
    render,
    scatter_cubes,
)

Image = NDArray[np.uint8]

SKIN = [(140, 170, 225), (110, 150, 205), (80, 115, 170), (60, 85, 130), (160, 185, 235)]


@dataclass(frozen=True)
class Lighting:
    gain: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR white balance
    exposure: float = 1.0
    ramp: tuple[float, float, float] = (0.0, 0.0, 0.0)  # a*x + b*y across the frame (−1..1), c unused
    vignette: float = 0.0
    black: float = 4.0
    blur: float = 0.0
    noise: float = 2.0
    jpeg: int = 92


@dataclass
class Shot:
    image: Image
    counts: dict[str, int]
    hand: bool = False


def random_lighting(rng: np.random.Generator) -> Lighting:
    warmth = rng.uniform(-1, 1)  # −1 cool daylight … +1 warm lamp
    gain = (1.0 - 0.22 * warmth, 1.0, 1.0 + 0.2 * warmth)
    angle = rng.uniform(0, 2 * math.pi)
    strength = rng.uniform(0, 0.3)
    return Lighting(gain=gain, exposure=float(rng.uniform(0.6, 1.15)),
                    ramp=(strength * math.cos(angle), strength * math.sin(angle), 0.0),
                    vignette=float(rng.uniform(0, 0.35)), black=float(rng.uniform(2, 14)),
                    blur=float(rng.uniform(0, 1.2)), noise=float(rng.uniform(1, 5)), jpeg=int(rng.integers(60, 96)))


def apply_lighting(image: Image, light: Lighting, rng: np.random.Generator) -> Image:
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (xx - w / 2) / (w / 2), (yy - h / 2) / (h / 2)
    field = light.exposure * (1 + light.ramp[0] * x + light.ramp[1] * y) * (1 - light.vignette * (x * x + y * y) / 2)
    out = image.astype(np.float32) * field[:, :, None] * np.array(light.gain, np.float32)
    out += light.black
    if light.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), light.blur)
    out += rng.normal(0, light.noise, out.shape).astype(np.float32)
    img = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)


def lamp_pool(image: Image, centre: tuple[float, float], radius: float, gain: float = 1.6) -> Image:
    """The picture with a lamp's round pool of light on it: `gain` times brighter at `centre` (pixels),
    falling off over `radius` (pixels). Light paper and white cubes clip in it, as they would."""
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    pool = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius ** 2))
    return np.clip(image * (1 + (gain - 1) * pool)[:, :, None], 0, 255).astype(np.uint8)


def draw_hand(image: Image, target: tuple[float, float], rng: np.random.Generator, width_px: float) -> None:
    """An arm from the nearest frame edge ending in a hand over `target` (pixels)."""
    h, w = image.shape[:2]
    tx, ty = target
    edges = [(tx, h + 40), (tx, -40), (-40, ty), (w + 40, ty)]
    dist = [h - ty, ty, tx, w - tx]
    ex, ey = edges[int(np.argmin(dist))] if rng.random() < 0.7 else edges[int(rng.integers(4))]
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float64)
    layer = np.zeros((h, w), np.uint8)
    cv2.line(layer, (int(ex), int(ey)), (int(tx), int(ty)), 255, int(width_px * 0.8), cv2.LINE_AA)
    cv2.ellipse(layer, (int(tx), int(ty)), (int(width_px * 0.6), int(width_px * 0.5)),
                float(math.degrees(math.atan2(ty - ey, tx - ex))), 0, 360, 255, -1, cv2.LINE_AA)
    ang = math.atan2(ty - ey, tx - ex)
    for k in range(4):
        fa = ang + (k - 1.5) * 0.25
        fx, fy = tx + math.cos(fa) * width_px * 1.1, ty + math.sin(fa) * width_px * 1.1
        cv2.line(layer, (int(tx), int(ty)), (int(fx), int(fy)), 255, max(3, int(width_px * 0.16)), cv2.LINE_AA)
    alpha = cv2.GaussianBlur(layer, (0, 0), 1.0).astype(np.float32) / 255
    shade = 0.8 + 0.3 * rng.random() + np.linspace(-0.15, 0.15, w, dtype=np.float32)[None, :]
    colour = skin[None, None, :] * shade[:, :, None]
    # The arm's shadow on the board.
    sh = cv2.GaussianBlur(np.roll(layer, (int(width_px * 0.3), int(width_px * 0.2)), (0, 1)), (0, 0), width_px * 0.2)
    base = image.astype(np.float32) * (1 - 0.4 * sh.astype(np.float32)[:, :, None] / 255)
    out = base * (1 - alpha[:, :, None]) + colour * alpha[:, :, None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def random_counts(rng: np.random.Generator, most: int = 15) -> dict[str, int]:
    counts = {"iron": int(rng.integers(0, 9)), "stone": int(rng.integers(0, 6)),
              "coal": int(rng.integers(0, 4)), "event": int(rng.integers(0, 3))}
    while sum(counts.values()) > most:
        k = max(counts, key=lambda c: counts[c])
        counts[k] -= 1
    return counts


def _fits(scene: YardScene, margin: float = 0.03) -> bool:
    yw, yh = scene.yard_mm
    reach = scene.marker_mm * 1.4 + (scene.marker_mm * 0.6 if scene.markers == "outside" else 0)
    pts = np.array([[-reach, -reach, 0], [yw + reach, -reach, 0], [yw + reach, yh + reach, 0],
                    [-reach, yh + reach, 0]], np.float64)
    px = project(pts, scene)
    w, h = scene.camera.width, scene.camera.height
    return bool(np.all(px[:, 0] > w * margin) and np.all(px[:, 0] < w * (1 - margin))
                and np.all(px[:, 1] > h * margin) and np.all(px[:, 1] < h * (1 - margin)))


def random_scene(rng: np.random.Generator, width: int = 1280, height: int = 720,
                 max_tilt: float = 30.0) -> YardScene:
    yw = float(rng.uniform(110, 170))
    yh = float(yw * rng.uniform(0.5, 0.9))
    cube = yw / float(rng.uniform(12, 20))
    marker = float(rng.uniform(0.11, 0.17) * yw)
    art = default_artwork(int((yw + 180) * 4), int((yh + 180) * 4), rng)
    for _ in range(200):
        focal = float(rng.uniform(0.7, 1.1) * width)
        tilt = float(rng.uniform(0, max_tilt))
        frac = float(rng.uniform(0.55, 0.9))
        extent = math.hypot(yw, yh) + 2 * marker
        camera = CameraPose(tilt_deg=tilt, azimuth_deg=float(rng.uniform(0, 360)),
                            roll_deg=float(rng.normal(0, 12) if rng.random() < 0.7 else rng.uniform(0, 360)),
                            distance_mm=focal * extent / (frac * height), focal_px=focal,
                            aim_mm=(float(rng.normal(0, 4)), float(rng.normal(0, 4))), width=width, height=height)
        light = rng.normal(0, 0.4, 3)
        light[2] = -abs(rng.uniform(0.6, 1.0))
        scene = YardScene(yard_mm=(yw, yh), cube_mm=cube, marker_mm=marker,
                          markers="outside" if rng.random() < 0.7 else "centred", camera=camera,
                          light_dir=(float(light[0]), float(light[1]), float(light[2])),
                          ambient=float(rng.uniform(0.35, 0.6)), board=art, seed=int(rng.integers(1 << 30)))
        if _fits(scene):
            return scene
    raise RuntimeError("no camera placement fits the frame")


def nudge(camera: CameraPose, rng: np.random.Generator) -> CameraPose:
    """A camera knocked a little between calibration and play."""
    return dataclasses.replace(
        camera, tilt_deg=max(0.0, camera.tilt_deg + float(rng.normal(0, 1.5))),
        azimuth_deg=camera.azimuth_deg + float(rng.normal(0, 4)), roll_deg=camera.roll_deg + float(rng.normal(0, 2)),
        distance_mm=camera.distance_mm * float(rng.uniform(0.95, 1.05)),
        aim_mm=(camera.aim_mm[0] + float(rng.normal(0, 3)), camera.aim_mm[1] + float(rng.normal(0, 3))))


@dataclass
class ScenePair:
    calibration: Image
    play: Shot
    scene: YardScene


def play_scene(scene: YardScene, counts: dict[str, int] | None, rng: np.random.Generator, touching: float,
               most: int = 15) -> tuple[YardScene, dict[str, int]]:
    """The scene at play time: the camera nudged a little since calibration (kept in view), the cubes
    scattered (`counts`, or random ones of at most `most` cubes, drawn after the nudge so seeds keep their
    scenes), and the true counts of what was scattered."""
    play = dataclasses.replace(scene, camera=scene.camera)
    for _ in range(20):
        play.camera = nudge(scene.camera, rng)
        if _fits(play):
            break
    else:
        play.camera = scene.camera
    if counts is None:
        counts = random_counts(rng, most=most)
    play.cubes = scatter_cubes(counts, play, rng, touching=touching)
    got = {k: 0 for k in ("iron", "stone", "coal", "event")}
    for cube in play.cubes:
        got[cube.kind] += 1
    return play, got


def scene_pair(seed: int, *, counts: dict[str, int] | None = None, hand: bool = False,
               touching: float = 0.35, max_tilt: float = 30.0, cubes_across: float | None = None,
               most: int = 15, play_exposure: float | None = None, low_lamp: bool = False) -> ScenePair:
    """A calibration shot and a play shot of one random scene. `cubes_across` fixes the cube side at
    that share of the yard's width (normally 1/12 to 1/20); `most` caps the cubes scattered;
    `play_exposure` sets the play shot's exposure (normally 0.6 to 1.15: above it, a brighter lamp);
    `low_lamp` lights the play shot from low down, so each cube casts a shadow 1.5 to 5 sides long."""
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, max_tilt=max_tilt)
    if cubes_across is not None:
        scene = dataclasses.replace(scene, cube_mm=scene.yard_mm[0] / cubes_across)
    calibration = apply_lighting(render(scene), random_lighting(rng), rng)
    play, got = play_scene(scene, counts, rng, touching=touching, most=most)
    if low_lamp:  # drawn apart from the seed's own numbers, so the scene is the same but for its light
        play = with_low_lamp(play, np.random.default_rng([seed, 1]))
    image = render(play)
    if hand:
        yw, yh = play.yard_mm
        target = project(np.array([[rng.uniform(0.2, 0.8) * yw, rng.uniform(0.2, 0.8) * yh, -30.0]]), play)[0]
        marker_px = np.linalg.norm(project(np.array([[0, 0, 0], [play.marker_mm, 0, 0]], float), play)[1]
                                   - project(np.array([[0, 0, 0]], float), play)[0])
        draw_hand(image, (float(target[0]), float(target[1])), rng, width_px=float(marker_px) * 2.2)
    lighting = random_lighting(rng)
    if play_exposure is not None:
        lighting = dataclasses.replace(lighting, exposure=play_exposure)
    shot = Shot(apply_lighting(image, lighting, rng), got, hand)
    return ScenePair(calibration, shot, play)


def with_low_lamp(scene: YardScene, rng: np.random.Generator) -> YardScene:
    """The scene lit by a lamp low beside the table: long cast shadows, 35-70 % dark."""
    way = rng.uniform(0, 2 * math.pi)
    slant = rng.uniform(1.5, 5.0)  # shadow length over cube height
    light = np.array([math.cos(way) * slant, math.sin(way) * slant, -1.0])
    light /= np.linalg.norm(light)
    return dataclasses.replace(scene, light_dir=(float(light[0]), float(light[1]), float(light[2])),
                               cast=float(rng.uniform(0.35, 0.7)))


def place(scene: YardScene, cubes: Sequence[tuple[str, float, float]], angle: float = 0.0) -> list[CubePlacement]:
    """Cubes at given places in cube sides from the yard's top-left corner (for hand-made layouts)."""
    s = scene.cube_mm
    return [CubePlacement(kind, x * s, y * s, angle) for kind, x, y in cubes]
