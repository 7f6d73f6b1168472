"""A renderer of the stock yard as a camera would see it: board artwork, ArUco markers, shaded cubes.

The headless demo's simulated camera shows these frames, and the test-scene generator builds on them.
Everything is laid out in millimetres on the board plane (x right, y down the board, z into the table,
so a cube's top lies at z = -size) and projected through a pinhole camera, so cubes show a lit top,
darker sides and the perspective a real webcam on a stand gives.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]
MarkerPlacement = Literal["outside", "centred", "inside"]

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50

# Albedo (BGR, 0-255) of the wooden cubes; the renderer jitters them per cube.
CUBE_COLOURS: dict[str, tuple[int, int, int]] = {
    "iron": (30, 110, 230),
    "stone": (135, 135, 130),
    "coal": (28, 28, 30),
    "event": (232, 236, 236),
}
KINDS = ("iron", "stone", "coal", "event")


@dataclass(frozen=True)
class CubePlacement:
    kind: str
    x_mm: float  # centre, in yard coordinates (0,0 = the yard's top-left corner)
    y_mm: float
    angle_deg: float = 0.0


@dataclass(frozen=True)
class CameraPose:
    tilt_deg: float = 0.0  # 0 = looking straight down
    azimuth_deg: float = 90.0  # where the camera stands around the yard (90 = the player's side)
    roll_deg: float = 0.0  # rotation of the picture about the viewing axis
    distance_mm: float = 300.0
    focal_px: float = 1000.0
    aim_mm: tuple[float, float] = (0.0, 0.0)  # aim point, offset from the yard centre
    width: int = 1280
    height: int = 720


@dataclass
class YardScene:
    yard_mm: tuple[float, float] = (150.0, 100.0)
    cube_mm: float = 9.0
    marker_mm: float = 20.0
    # Where each marker sits on its yard corner: "outside" (its black square's inner corner on it),
    # "centred" on it, or "inside" (its paper's outer corner on it).
    markers: MarkerPlacement = "outside"
    cubes: list[CubePlacement] = field(default_factory=list)
    camera: CameraPose = field(default_factory=CameraPose)
    light_dir: tuple[float, float, float] = (-0.4, -0.5, -0.77)  # towards the light; z<0 is up
    ambient: float = 0.45
    board: Image | None = None  # artwork covering the board around the yard, see board_extent_mm
    board_px_per_mm: float = 4.0
    board_margin_mm: float = 90.0
    hidden_markers: tuple[int, ...] = ()
    palette: dict[str, tuple[int, int, int]] | None = None  # cube albedo overrides
    shadow: float = 0.45  # darkening right at a cube's foot
    # Darkening in each cube's cast shadow, the whole length the light's slant gives it (0: none, the
    # contact shadow only; a low lamp casts shadows several cubes long).
    cast: float = 0.0
    seed: int = 0


def marker_image(marker_id: int, size_px: int) -> Image:
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    return np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, size_px), dtype=np.uint8)


def default_artwork(width: int, height: int, rng: np.random.Generator) -> Image:
    """Board artwork: a mottled landscape with printed shapes and lines (colours of its own)."""
    base = np.array(rng.choice([(90, 140, 120), (120, 160, 190), (100, 120, 140), (150, 170, 175)]), np.float32)
    # Mostly brightness mottling with a little colour, like printed landscape artwork.
    small = (height // 16 + 2, width // 16 + 2)
    noise = rng.normal(0, 1, (*small, 1)) * 16 + rng.normal(0, 1, (*small, 3)) * 7
    noise = np.asarray(cv2.resize(noise.astype(np.float32), (width, height), interpolation=cv2.INTER_CUBIC))
    art = base + noise
    fine = rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    art = art + fine
    img = np.clip(art, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(6, 14))):
        colour = tuple(int(c) for c in rng.integers(40, 220, 3))
        x, y = int(rng.integers(0, width)), int(rng.integers(0, height))
        shape = rng.integers(0, 3)
        if shape == 0:
            cv2.rectangle(img, (x, y), (x + int(rng.integers(40, 300)), y + int(rng.integers(20, 160))), colour, -1)
        elif shape == 1:
            cv2.circle(img, (x, y), int(rng.integers(20, 120)), colour, -1, cv2.LINE_AA)
        else:
            cv2.line(img, (x, y), (int(rng.integers(0, width)), int(rng.integers(0, height))), colour,
                     int(rng.integers(3, 14)), cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(img, (0, 0), 1.2), np.uint8)


def _yard_origin_mm(scene: YardScene) -> tuple[float, float]:
    """Where the yard's top-left corner sits in board-texture millimetres."""
    return scene.board_margin_mm, scene.board_margin_mm


def board_texture(scene: YardScene) -> Image:
    """The board around the yard with the markers on white paper and the cubes' contact shadows."""
    ppm = scene.board_px_per_mm
    yw, yh = scene.yard_mm
    m = scene.board_margin_mm
    width, height = int((yw + 2 * m) * ppm), int((yh + 2 * m) * ppm)
    rng = np.random.default_rng(scene.seed)
    if scene.board is None:
        tex = default_artwork(width, height, rng)
    else:
        tex = np.asarray(cv2.resize(scene.board, (width, height), interpolation=cv2.INTER_AREA), np.uint8)
    tex = tex.copy()
    ox, oy = _yard_origin_mm(scene)
    # The printed yard: a frame line, as boards have.
    cv2.rectangle(tex, (int(ox * ppm), int(oy * ppm)), (int((ox + yw) * ppm), int((oy + yh) * ppm)),
                  (60, 70, 80), max(1, int(0.6 * ppm)), cv2.LINE_AA)
    _shadows(tex, scene)
    corners = [(0.0, 0.0), (yw, 0.0), (yw, yh), (0.0, yh)]
    size = scene.marker_mm
    quiet = size * 0.25
    for marker_id, (cx, cy) in enumerate(corners):
        sx = -1 if cx == 0 else 1
        sy = -1 if cy == 0 else 1
        if scene.markers == "inside":
            mx, my = cx - sx * (size / 2 + quiet), cy - sy * (size / 2 + quiet)
        elif scene.markers == "outside":
            mx, my = cx + sx * size / 2, cy + sy * size / 2
        else:
            mx, my = cx, cy
        x0, y0 = (ox + mx - size / 2 - quiet) * ppm, (oy + my - size / 2 - quiet) * ppm
        side = int(round((size + 2 * quiet) * ppm))
        paper = np.full((side, side, 3), 246, np.uint8)
        if marker_id not in scene.hidden_markers:
            inner = int(round(size * ppm))
            q = (side - inner) // 2
            paper[q:q + inner, q:q + inner] = marker_image(marker_id, inner)[:, :, None]
        _paste(tex, paper, int(round(x0)), int(round(y0)))
    return tex


def _paste(dst: Image, src: Image, x: int, y: int) -> None:
    h, w = src.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, dst.shape[1]), min(y + h, dst.shape[0])
    if x1 > x0 and y1 > y0:
        dst[y0:y1, x0:x1] = src[y0 - y:y1 - y, x0 - x:x1 - x]


def _shadows(tex: Image, scene: YardScene) -> None:
    """Soft contact shadows: darker board right around each cube, pushed away from the light."""
    if not scene.cubes:
        return
    ppm = scene.board_px_per_mm
    ox, oy = _yard_origin_mm(scene)
    shade = np.zeros(tex.shape[:2], np.float32)
    lx, ly, _ = scene.light_dir
    for cube in scene.cubes:
        cx = (ox + cube.x_mm - lx * scene.cube_mm * 0.3) * ppm
        cy = (oy + cube.y_mm - ly * scene.cube_mm * 0.3) * ppm
        half = scene.cube_mm * 0.6 * ppm
        rect = ((cx, cy), (2 * half, 2 * half), cube.angle_deg)
        pts = cv2.boxPoints(rect).astype(np.int32)
        cv2.fillConvexPoly(shade, pts, 1.0, cv2.LINE_AA)
    sigma = scene.cube_mm * 0.18 * ppm
    shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), sigma), np.float32)
    factor = 1.0 - scene.shadow * np.clip(shade, 0, 1)
    if scene.cast > 0:
        factor *= 1.0 - scene.cast * _cast_shadows(tex.shape[:2], scene)
    tex[:] = np.clip(tex.astype(np.float32) * factor[:, :, None], 0, 255).astype(np.uint8)


def _cast_shadows(shape: tuple[int, ...], scene: YardScene) -> NDArray[np.float32]:
    """1 where a cube blocks the light from the board: its foot swept to where its top's shadow falls."""
    ppm = scene.board_px_per_mm
    ox, oy = _yard_origin_mm(scene)
    lx, ly, lz = scene.light_dir
    # A top corner's shadow lies away from the light, a cube's height times the light's slant along.
    reach = np.array([-lx, -ly]) * scene.cube_mm / max(-lz, 0.05)
    cast = np.zeros(shape, np.float32)
    for cube in scene.cubes:
        foot = cv2.boxPoints(((ox + cube.x_mm, oy + cube.y_mm), (scene.cube_mm, scene.cube_mm), cube.angle_deg))
        sweep = np.vstack([foot, foot + reach]) * ppm
        cv2.fillConvexPoly(cast, cv2.convexHull(sweep.astype(np.float32)).astype(np.int32), 1.0, cv2.LINE_AA)
    # A lamp is no point: the shadow's edge blurs the farther it falls.
    return np.asarray(cv2.GaussianBlur(cast, (0, 0), scene.cube_mm * 0.08 * ppm), np.float32)


def camera_matrices(scene: YardScene) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """K, R and the camera centre C in yard millimetres (z into the table, so the camera has C_z < 0)."""
    cam = scene.camera
    yw, yh = scene.yard_mm
    target = np.array([yw / 2 + cam.aim_mm[0], yh / 2 + cam.aim_mm[1], 0.0])
    tilt, az = math.radians(cam.tilt_deg), math.radians(cam.azimuth_deg)
    offset = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), -math.cos(tilt)])
    centre = target + cam.distance_mm * offset
    forward = (target - centre) / np.linalg.norm(target - centre)
    hint = np.array([0.0, 1.0, 0.0]) if abs(forward[1]) < 0.99 else np.array([1.0, 0.0, 0.0])
    x_axis = np.cross(hint, forward)
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(forward, x_axis)
    roll = math.radians(cam.roll_deg)
    xr = math.cos(roll) * x_axis + math.sin(roll) * y_axis
    yr = -math.sin(roll) * x_axis + math.cos(roll) * y_axis
    rotation = np.stack([xr, yr, forward])
    k = np.array([[cam.focal_px, 0, cam.width / 2], [0, cam.focal_px, cam.height / 2], [0, 0, 1.0]])
    return k, rotation, centre


def project(points_mm: NDArray[np.float64], scene: YardScene) -> NDArray[np.float64]:
    """Yard millimetres (N×3) to pixel coordinates (N×2)."""
    k, rotation, centre = camera_matrices(scene)
    cam = (points_mm - centre) @ rotation.T
    pix = cam @ k.T
    return np.asarray(pix[:, :2] / pix[:, 2:3], dtype=np.float64)


def render(scene: YardScene) -> Image:
    """The camera frame: the board warped into view, then the cubes drawn far to near."""
    k, rotation, centre = camera_matrices(scene)
    tex = board_texture(scene)
    ppm = scene.board_px_per_mm
    ox, oy = _yard_origin_mm(scene)
    # Texel i covers [i, i+1) / ppm millimetres: its centre is (i + 0.5) / ppm.
    tex_to_mm = np.array([[1 / ppm, 0, 0.5 / ppm - ox], [0, 1 / ppm, 0.5 / ppm - oy], [0, 0, 1]])
    translation = -rotation @ centre
    plane = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    h = plane @ tex_to_mm
    cam = scene.camera
    frame = np.asarray(cv2.warpPerspective(tex, h, (cam.width, cam.height), flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_CONSTANT, borderValue=(70, 95, 125)), np.uint8)
    _draw_cubes(frame, scene, centre)
    return frame


def _draw_cubes(frame: Image, scene: YardScene, centre: NDArray[np.float64]) -> None:
    rng = np.random.default_rng(scene.seed + 7)
    light = np.array(scene.light_dir, np.float64)
    light /= np.linalg.norm(light)
    lit_top = scene.ambient + (1 - scene.ambient) * max(0.0, -float(light[2]))
    s = scene.cube_mm
    order = sorted(scene.cubes, key=lambda c: -float(np.hypot(c.x_mm - centre[0], c.y_mm - centre[1])))
    grain = _wood_grain(frame.shape[0], frame.shape[1], rng)
    mask = np.zeros(frame.shape[:2], np.uint8)
    for cube in order:
        albedo = np.array((scene.palette or CUBE_COLOURS)[cube.kind], np.float64) * rng.uniform(0.92, 1.06)
        a = math.radians(cube.angle_deg)
        u = np.array([math.cos(a), math.sin(a), 0.0]) * s / 2
        v = np.array([-math.sin(a), math.cos(a), 0.0]) * s / 2
        c0 = np.array([cube.x_mm, cube.y_mm, 0.0])
        up = np.array([0.0, 0.0, -s])
        bottom = [c0 - u - v, c0 + u - v, c0 + u + v, c0 - u + v]
        top = [p + up for p in bottom]
        faces = [(top, np.array([0.0, 0.0, -1.0]))]
        for i in range(4):
            j = (i + 1) % 4
            quad = [bottom[i], bottom[j], top[j], top[i]]
            mid = (bottom[i] + bottom[j]) / 2 - c0
            faces.append((quad, mid / np.linalg.norm(mid)))
        for quad, normal in faces:
            face_centre = np.mean(quad, axis=0)
            if float(np.dot(normal, centre - face_centre)) <= 0:
                continue
            # Relative to the board (lit like the top face), so a top face matches its printed albedo.
            shade = (scene.ambient + (1 - scene.ambient) * max(0.0, float(np.dot(normal, light)))) / lit_top
            colour = np.clip(albedo * shade, 0, 255)
            pts = project(np.array(quad), scene)
            poly = np.round(pts * 16).astype(np.int32)
            cv2.fillConvexPoly(frame, poly, tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)
            cv2.fillConvexPoly(mask, poly, 255, cv2.LINE_8, shift=4)
    if scene.cubes:
        sel = mask > 0
        frame[sel] = np.clip(frame[sel].astype(np.float32) * grain[sel][:, None], 0, 255).astype(np.uint8)


def _wood_grain(height: int, width: int, rng: np.random.Generator) -> NDArray[np.float32]:
    """A multiplicative grain field (about ±6 %) so cube faces are not flat colour."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    along = xx * math.cos(angle) + yy * math.sin(angle)
    wobble = cv2.resize(rng.normal(0, 1, (height // 32 + 2, width // 32 + 2)).astype(np.float32), (width, height))
    grain = 1.0 + 0.05 * np.sin(along * 0.9 + 4 * wobble) + rng.normal(0, 0.015, (height, width)).astype(np.float32)
    return grain.astype(np.float32)


def scatter_cubes(counts: dict[str, int], scene: YardScene, rng: np.random.Generator,
                  touching: float = 0.3) -> list[CubePlacement]:
    """Cubes at random places inside the yard; some pushed against a neighbour so they touch."""
    s = scene.cube_mm
    yw, yh = scene.yard_mm
    placed: list[CubePlacement] = []
    corners = [(0.0, 0.0), (yw, 0.0), (yw, yh), (0.0, yh)]
    keep_off = scene.marker_mm * (1.5 if scene.markers == "inside" else 0.8) + s
    kinds = [k for k in KINDS for _ in range(counts.get(k, 0))]
    rng.shuffle(kinds)
    for kind in kinds:
        for _ in range(400):
            if placed and rng.random() < touching:
                other = placed[int(rng.integers(len(placed)))]
                a = math.radians(other.angle_deg)
                side = int(rng.integers(4))
                dx, dy = [(1, 0), (0, 1), (-1, 0), (0, -1)][side]
                gap = s * rng.uniform(1.0, 1.04)
                x = other.x_mm + gap * (dx * math.cos(a) - dy * math.sin(a))
                y = other.y_mm + gap * (dx * math.sin(a) + dy * math.cos(a))
                cand = CubePlacement(kind, x, y, other.angle_deg)
                min_gap = s * 0.98
            else:
                x = rng.uniform(s, yw - s)
                y = rng.uniform(s, yh - s)
                cand = CubePlacement(kind, x, y, rng.uniform(0, 90))
                min_gap = s * 1.6
            if not (s * 0.8 <= cand.x_mm <= yw - s * 0.8 and s * 0.8 <= cand.y_mm <= yh - s * 0.8):
                continue
            if scene.markers != "outside" and any(
                    abs(cand.x_mm - cx) < keep_off and abs(cand.y_mm - cy) < keep_off for cx, cy in corners):
                continue  # markers on or inside the corners: cubes stay off them
            if all(math.hypot(cand.x_mm - p.x_mm, cand.y_mm - p.y_mm) >= min_gap for p in placed):
                placed.append(cand)
                break
    return placed


def render_stock_yard(counts: dict[str, int], seed: int = 0, width: int = 1280, height: int = 720) -> Image:
    """A plausible frame of a stock yard holding `counts` cubes (for the simulated camera)."""
    rng = np.random.default_rng(seed)
    scene = YardScene(seed=seed, camera=CameraPose(tilt_deg=15.0, width=width, height=height,
                                                    focal_px=width * 0.8))
    scene.cubes = scatter_cubes(counts, scene, rng, touching=0.2)
    return render(scene)
