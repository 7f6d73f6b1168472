"""Independent synthetic stock-yard scenes: a blind test set for the stock-yard reader.

Written from the issue text alone (issue 4 and DESIGN.md "Stock-yard vision conventions"), with its own
renderer and its own choices of paint, paper, board and light, so it shares no assumptions with the
project's reader or the project's own scene generators.

A scene is a printed board seen by a webcam: a stock yard printed on the board, four ArUco markers on
white paper at its corners, wooden cubes standing in it, and living-room light. ``indep_scene_pair``
draws one scene from a seed and photographs it twice: the empty yard (calibration) and, later, under
another light with the camera knocked a little, the yard with cubes (play).

Conventions: the board is a plane in millimetres, X to the right along the yard's top edge, Y down the
yard, Z into the board (so anything above the board has a negative Z; this keeps X, Y, Z right-handed
with an image-like Y). The yard spans (0, 0) to (yard_w, yard_h). Everything is rendered in linear light
(albedo times illumination) and only the simulated camera turns it into sRGB bytes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import ArrayLike, NDArray

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
Rng = np.random.Generator

FRAME_W, FRAME_H = 1280, 720
KINDS = ("iron", "stone", "coal", "event")
MARKER_IDS = (0, 1, 2, 3)  # at the yard's top-left, top-right, bottom-right and bottom-left corners
_ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_UP = np.array([0.0, 0.0, -1.0])  # the board's normal, pointing at the camera


# ----------------------------------------------------------------------------------------------- colour


def srgb_to_linear(c: ArrayLike) -> F64:
    """sRGB (0..1) to linear light, so paints and prints can be written down as they look."""
    a = np.asarray(c, dtype=np.float64)
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)


def _encode_lut() -> NDArray[np.uint8]:
    x = np.linspace(0.0, 1.0, 4096)
    s = np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055)
    return np.clip(s * 255 + 0.5, 0, 255).astype(np.uint8)


_SRGB_LUT = _encode_lut()


def linear_to_srgb8(img: F32) -> NDArray[np.uint8]:
    """Linear light to 8-bit sRGB through a table (a camera's tone curve; clips like a sensor does)."""
    idx = np.clip(img * 4095 + 0.5, 0, 4095).astype(np.int32)
    return _SRGB_LUT[idx]


def _jitter(rng: Rng, srgb: tuple[float, float, float], amount: float) -> F64:
    """A palette colour as one particular print run came out."""
    return srgb_to_linear(np.clip(np.asarray(srgb) + rng.uniform(-amount, amount, 3), 0.0, 1.0))


def kelvin_rgb(kelvin: float) -> F64:
    """Linear RGB of a black-body light (Tanner Helland's fit), scaled so the strongest channel is 1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    lin = srgb_to_linear(np.clip(np.array([r, g, b]) / 255.0, 0.0, 1.0))
    return lin / lin.max()


# ---------------------------------------------------------------------------------------------- camera


def _rot_x(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], dtype=np.float64)


def _rot_z(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], dtype=np.float64)


def _rot_axis(axis: F64, a: float) -> F64:
    """Rodrigues: rotation by a about a unit axis (the knock the camera gets between frames)."""
    k = axis / np.linalg.norm(axis)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(a) * kx + (1 - math.cos(a)) * (kx @ kx)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: focal length in pixels, rotation board->camera, centre in board millimetres."""

    f: float
    rot: F64
    centre: F64

    @property
    def k(self) -> F64:
        return np.array([[self.f, 0, (FRAME_W - 1) / 2], [0, self.f, (FRAME_H - 1) / 2], [0, 0, 1]])

    def to_cam(self, pts: F64) -> F64:
        return (np.asarray(pts, dtype=np.float64) - self.centre) @ self.rot.T

    def project(self, pts: F64) -> F64:
        pc = self.to_cam(pts)
        return pc[:, :2] / pc[:, 2:3] * self.f + np.array([(FRAME_W - 1) / 2, (FRAME_H - 1) / 2])

    def board_homography(self) -> F64:
        """Board plane (X, Y, 1) in mm to pixels: K [r1 r2 t]."""
        t = -self.rot @ self.centre
        return self.k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], t])

    def board_point(self, px: F64) -> F64:
        """Where the rays through pixels meet the board (the camera always looks down at it)."""
        pts = np.asarray(px, dtype=np.float64)
        rays = np.column_stack([(pts - np.array([(FRAME_W - 1) / 2, (FRAME_H - 1) / 2])) / self.f,
                                np.ones(len(pts))]) @ self.rot
        t = -self.centre[2] / rays[:, 2]
        return self.centre[:2] + rays[:, :2] * t[:, None]


def _on_board(pts2: ArrayLike, z: float = 0.0) -> F64:
    pts = np.asarray(pts2, dtype=np.float64).reshape(-1, 2)
    return np.column_stack([pts, np.full(len(pts), z)])


def _look_at(target: F64, tilt: float, azimuth: float, roll: float, distance: float, f: float) -> Camera:
    # Straight down is the identity (camera x right, y down, z into the board); the camera is then
    # leaned by `tilt` towards some side of the table and turned about its own axis by `roll`.
    rot = _rot_z(roll) @ _rot_x(tilt) @ _rot_z(azimuth)
    axis = rot.T @ np.array([0.0, 0.0, 1.0])
    return Camera(f=f, rot=rot, centre=np.array([target[0], target[1], 0.0]) - distance * axis)


def _fits(cam: Camera, pts: F64, margin: float) -> bool:
    if np.any(cam.to_cam(pts)[:, 2] <= 1.0):
        return False
    px = cam.project(pts)
    return bool(np.all(px[:, 0] >= margin) and np.all(px[:, 0] <= FRAME_W - 1 - margin)
                and np.all(px[:, 1] >= margin) and np.all(px[:, 1] <= FRAME_H - 1 - margin))


def _height_fraction(cam: Camera, yard: F64) -> float:
    px = cam.project(_on_board(yard))
    return float((px[:, 1].max() - px[:, 1].min()) / FRAME_H)


def _place_camera(rng: Rng, layout: YardLayout) -> tuple[Camera, Camera, float]:
    """A calibration camera framing the yard as asked, and the same camera knocked a little for play."""
    yard = layout.corners()
    papers = _on_board(np.concatenate([m.paper() for m in layout.markers]))
    for _ in range(200):
        f = rng.uniform(850, 1250)  # 1280x720 webcams and the Pi camera: roughly 55-75 degrees across
        tilt = math.radians(rng.uniform(0, 35))
        azimuth = rng.uniform(-math.pi, math.pi)
        roll = rng.uniform(-math.pi, math.pi) if rng.random() < 0.3 else math.radians(rng.normal(0, 8))
        target = np.array([layout.w, layout.h]) * (0.5 + rng.uniform(-0.08, 0.08, 2))
        frac = rng.uniform(0.40, 0.85)
        while frac >= 0.40:
            lo, hi = 40.0, 4000.0  # the yard's height on screen falls as the camera backs away
            for _ in range(40):
                mid = math.sqrt(lo * hi)
                if _height_fraction(_look_at(target, tilt, azimuth, roll, mid, f), yard) > frac:
                    lo = mid
                else:
                    hi = mid
            cal = _look_at(target, tilt, azimuth, roll, hi, f)
            if _fits(cal, papers, 14):
                play = _nudge(rng, cal, papers)
                if play is not None:
                    return cal, play, _height_fraction(cal, yard)
                break
            frac -= 0.03
    raise RuntimeError("no camera pose frames this yard")  # not reached for the sampled yard sizes


def _nudge(rng: Rng, cam: Camera, must_see: F64) -> Camera | None:
    """The camera knocked between calibration and play: a few mm and 1-3 degrees."""
    for _ in range(30):
        axis = rng.normal(size=3)
        rot = _rot_axis(axis, math.radians(rng.uniform(1, 3))) @ cam.rot
        shift = rng.normal(size=3)
        centre = cam.centre + shift / np.linalg.norm(shift) * rng.uniform(1, 5)
        moved = Camera(f=cam.f, rot=rot, centre=centre)
        if _fits(moved, must_see, 4):
            return moved
    return None


# ----------------------------------------------------------------------------------------- yard layout


@dataclass(frozen=True)
class Marker:
    """An ArUco marker printed on a square of white paper lying on the board."""

    marker_id: int
    centre: F64  # mm on the board
    size: float  # the black square, mm
    quiet: float  # white paper around it, mm
    angle: float  # radians, how crookedly it was laid down
    paper_srgb: float
    ink_srgb: float

    def _square(self, half: float) -> F64:
        c, s = math.cos(self.angle), math.sin(self.angle)
        local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        return self.centre + local @ np.array([[c, s], [-s, c]])

    def paper(self) -> F64:
        return self._square(self.size / 2 + self.quiet)

    def black_square(self) -> F64:
        return self._square(self.size / 2)


@dataclass(frozen=True)
class YardLayout:
    w: float
    h: float
    cube_size: float
    markers: tuple[Marker, ...]
    placement: str  # "centred" on the yard's corners or "outside" them

    def corners(self) -> F64:
        return np.array([[0, 0], [self.w, 0], [self.w, self.h], [0, self.h]], dtype=np.float64)


def _sample_layout(rng: Rng) -> YardLayout:
    cube = rng.uniform(8.0, 10.0)
    # A cube is 1/10 to 1/22 of the yard's width; the yard is 100-200 mm wide and 60-150 mm high.
    w = rng.uniform(max(100.0, 10 * cube), min(200.0, 22 * cube))
    h = rng.uniform(60.0, 150.0)
    size = rng.uniform(15.0, 30.0)
    placement = "centred" if rng.random() < 0.5 else "outside"
    paper = rng.uniform(0.90, 0.97)
    ink = rng.uniform(0.05, 0.13)
    quiet_frac = rng.uniform(0.17, 0.40)
    markers = []
    for marker_id, corner, out in zip(MARKER_IDS, [(0, 0), (w, 0), (w, h), (0, h)],
                                      [(-1, -1), (1, -1), (1, 1), (-1, 1)], strict=True):
        if placement == "centred":
            centre = np.array(corner) + rng.uniform(-1.5, 1.5, 2)
        else:  # the black square's inner corner sits 0-4 mm out from the yard's corner
            centre = np.array(corner) + np.array(out) * (size / 2 + rng.uniform(0.0, 4.0, 2))
        markers.append(Marker(marker_id, centre, size, quiet_frac * size, math.radians(rng.normal(0, 1.5)),
                              paper + rng.uniform(-0.01, 0.01), ink))
    return YardLayout(w, h, cube, tuple(markers), placement)


# ----------------------------------------------------------------------------------------------- cubes

# sRGB paints (centre, spread per channel). A set's paint batch shifts the centre; each cube varies a bit.
_PAINTS: dict[str, tuple[tuple[float, float, float], float]] = {
    "iron": ((0.90, 0.44, 0.12), 0.05),
    "stone": ((0.58, 0.58, 0.56), 0.05),
    "coal": ((0.14, 0.14, 0.15), 0.03),
    "event": ((0.91, 0.90, 0.86), 0.03),
}


@dataclass(frozen=True)
class Cube:
    kind: str
    x: float  # centre on the board, mm
    y: float
    angle: float  # about the vertical, radians
    size: float  # edge, mm
    paint: tuple[float, float, float]  # linear RGB albedo
    grain: tuple[float, float, float]  # wood grain: frequency, phase, strength

    def footprint(self) -> F64:
        return _square(self.x, self.y, self.angle, self.size)


def _square(x: float, y: float, angle: float, size: float) -> F64:
    c, s = math.cos(angle), math.sin(angle)
    h = size / 2
    local = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    return np.array([x, y]) + local @ np.array([[c, s], [-s, c]])


def _overlap(a: F64, b: F64) -> float:
    """Penetration depth of two convex polygons (separating axes); <= 0 when apart or just touching."""
    depth = math.inf
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        for e in edges:
            axis = np.array([-e[1], e[0]]) / math.hypot(e[0], e[1])
            pa, pb = a @ axis, b @ axis
            depth = min(depth, min(pa.max(), pb.max()) - max(pa.min(), pb.min()))
            if depth <= 0:
                return depth
    return depth


def _sample_counts(rng: Rng) -> dict[str, int]:
    if rng.random() < 0.06:  # a nearly empty yard now and then
        counts = {k: int(rng.integers(0, 2)) for k in KINDS}
    else:
        counts = {"iron": int(rng.integers(0, 11)), "stone": int(rng.integers(0, 7)),
                  "coal": int(rng.integers(0, 5)), "event": int(rng.integers(0, 4))}
    while sum(counts.values()) > 20:
        kind = str(rng.choice([k for k in KINDS if counts[k] > 0]))
        counts[kind] -= 1
    return counts


def _group_cells(rng: Rng, remaining: int) -> list[tuple[float, float]]:
    """Lattice cells of one group of cubes as players leave them: singles, pairs, rows, clusters, blocks."""
    shapes = ["single", "pair", "row", "cluster", "block"]
    weights = np.array([0.45, 0.22, 0.10, 0.15, 0.08])
    while True:
        shape = str(rng.choice(shapes, p=weights))
        if shape == "single":
            return [(0.0, 0.0)]
        if shape == "pair" and remaining >= 2:
            return [(0.0, 0.0), (1.0, float(rng.uniform(-0.6, 0.6)) if rng.random() < 0.5 else 0.0)]
        if shape == "row" and remaining >= 3:
            return [(float(i), 0.0) for i in range(int(rng.integers(3, min(4, remaining) + 1)))]
        if shape == "block" and remaining >= 4:
            return [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)]
        if shape == "cluster" and remaining >= 3:
            n = int(rng.integers(3, min(5, remaining) + 1))
            cells = {(0, 0)}
            while len(cells) < n:
                ci, cj = list(cells)[int(rng.integers(len(cells)))]
                di, dj = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
                cells.add((ci + di, cj + dj))
            return [(float(i), float(j)) for i, j in sorted(cells)]


def _arrange_group(rng: Rng, cells: list[tuple[float, float]], sizes: list[float]) -> list[F64]:
    """Cubes of a group pushed together: touching, a little crooked, never overlapping (squares in mm,
    around the group's middle)."""
    pitch = max(sizes) + rng.uniform(0.0, 0.25)
    local = np.array(cells) * pitch
    local -= local.mean(axis=0)
    placed: list[F64] = []
    for (x, y), size in zip(local, sizes, strict=True):
        angle = math.radians(rng.normal(0, 3.0))
        centre = np.array([x, y])
        for _ in range(80):  # slide outwards until it no longer cuts into a neighbour
            sq = _square(centre[0], centre[1], angle, size)
            hit = [p for p in placed if _overlap(sq, p) > 0.005]
            if not hit:
                break
            away = centre - hit[0].mean(axis=0)
            centre = centre + away / (np.linalg.norm(away) + 1e-9) * 0.05
        placed.append(_square(centre[0], centre[1], angle, size))
    return placed


def _place_cubes(rng: Rng, layout: YardLayout, counts: dict[str, int]) -> list[Cube]:
    kinds = [k for k in KINDS for _ in range(counts[k])]
    rng.shuffle(kinds)
    no_go = [m.paper() for m in layout.markers]
    batch = {k: np.asarray(c) + rng.uniform(-s, s, 3) * 0.6 for k, (c, s) in _PAINTS.items()}
    squares: list[F64] = []
    poses: list[tuple[float, float, float, float]] = []

    def free(sq: F64) -> bool:
        inside = (np.all(sq[:, 0] >= 0.4) and np.all(sq[:, 0] <= layout.w - 0.4)
                  and np.all(sq[:, 1] >= 0.4) and np.all(sq[:, 1] <= layout.h - 0.4))
        return bool(inside and all(_overlap(sq, p) <= -0.3 for p in no_go)
                    and all(_overlap(sq, q) <= 0.01 for q in squares))

    remaining = len(kinds)
    while remaining > 0:
        cells = _group_cells(rng, remaining)
        size = layout.cube_size
        for split in (False, True):  # a group that will not fit anywhere is scattered instead
            groups = [[c] for c in cells] if split else [cells]
            done = 0
            for group in groups:
                sizes = [size + float(rng.normal(0, 0.12)) for _ in group]  # wooden cubes are not all alike
                arranged = _arrange_group(rng, group, sizes)
                for _ in range(150):
                    turn = rng.uniform(0, math.pi / 2)
                    c, s = math.cos(turn), math.sin(turn)
                    move = np.array([[c, s], [-s, c]])
                    at = np.array([rng.uniform(0, layout.w), rng.uniform(0, layout.h)])
                    sqs = [sq @ move + at for sq in arranged]
                    if all(free(q) for q in sqs):
                        squares.extend(sqs)
                        for sq, e in zip(sqs, sizes, strict=True):
                            mid, edge = sq.mean(axis=0), sq[1] - sq[0]
                            poses.append((float(mid[0]), float(mid[1]), math.atan2(edge[1], edge[0]), e))
                        done += len(sqs)
                        break
            if done or split:
                remaining -= len(cells)
                break
    cubes = []
    for kind, (x, y, a, e) in zip(kinds, poses, strict=False):
        base, spread = np.asarray(batch[kind]), _PAINTS[kind][1]
        paint = srgb_to_linear(np.clip(base + rng.uniform(-spread, spread, 3) * 0.5
                                       + rng.uniform(-spread, spread) * 0.5, 0, 1))
        grain = (float(rng.uniform(6, 14)), float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0.015, 0.05)))
        cubes.append(Cube(kind, x, y, a, e, (float(paint[0]), float(paint[1]), float(paint[2])), grain))
    return cubes


# ----------------------------------------------------------------------------------------------- light


@dataclass(frozen=True)
class Light:
    """The room's light and the camera's response to it for one photograph."""

    kelvin: float
    awb: float  # how much of the light's colour the camera's auto white balance takes out
    tint: tuple[float, float, float]
    exposure: float
    elevation: float  # of the main lamp, radians above the board
    azimuth: float
    ambient: float  # share of the light that comes from everywhere (walls, ceiling)
    gradient: float
    gradient_dir: float
    vignette: float
    spot: tuple[float, float, float, float]  # x, y (fraction of frame), radius (fraction of width), gain
    gloss: float
    penumbra_mm: float
    blur: float  # defocus of the lens, pixels (in linear light, where optics blur)
    smooth: float  # the camera's demosaicing and noise reduction, pixels (on the encoded image)
    sharpen: float  # the camera's own unsharp mask, as webcams do
    noise: tuple[float, float]  # read noise and shot-noise gain, linear units
    jpeg: int  # 0 = stored losslessly

    def direction(self) -> F64:
        """Unit vector from the board towards the lamp."""
        ce = math.cos(self.elevation)
        return np.array([ce * math.cos(self.azimuth), ce * math.sin(self.azimuth), -math.sin(self.elevation)])

    def colour(self) -> F64:
        cast = kelvin_rgb(self.kelvin) ** (1 - self.awb) * np.asarray(self.tint)
        return np.asarray(cast / cast.max())

    def board_irradiance(self) -> float:
        return self.ambient + (1 - self.ambient) * max(0.0, float(_UP @ self.direction()))


def _sample_light(rng: Rng, warm: bool) -> Light:
    kelvin = rng.uniform(2500, 3600) if warm else rng.uniform(5200, 8000)
    tint = (1.0, 1.0, 1.0)
    if rng.random() < 0.4:  # a green or magenta cast from cheap LEDs or a coloured wall
        g = rng.uniform(-0.06, 0.06)
        tint = (1.0 - g / 2, 1.0 + g, 1.0 - g / 2)
    return Light(
        kelvin=kelvin, awb=rng.uniform(0.3, 0.85), tint=tint, exposure=rng.uniform(0.55, 1.2),
        elevation=math.radians(rng.uniform(30, 80)), azimuth=rng.uniform(-math.pi, math.pi),
        ambient=rng.uniform(0.3, 0.65), gradient=rng.uniform(0.05, 0.4), gradient_dir=rng.uniform(0, 2 * math.pi),
        vignette=rng.uniform(0.1, 0.4),
        spot=(rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9), rng.uniform(0.25, 0.7), rng.uniform(0.0, 0.6)),
        gloss=rng.uniform(0.0, 0.06), penumbra_mm=rng.uniform(0.4, 1.6), blur=rng.uniform(0.3, 0.8),
        smooth=rng.uniform(0.0, 0.6), sharpen=rng.uniform(0.0, 0.8),
        noise=(rng.uniform(0.002, 0.006), rng.uniform(0.0004, 0.002)),
        jpeg=int(rng.integers(55, 96)) if rng.random() < 0.6 else 0,
    )


def _light_field(light: Light) -> F32:
    """Brightness across the frame: a gradient, a soft spotlight and vignetting, peak = exposure."""
    w, h = 160, 90
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    u, v = xs / (w - 1), ys / (h - 1)
    ramp = (u - 0.5) * math.cos(light.gradient_dir) + (v - 0.5) * h / w * math.sin(light.gradient_dir)
    fieldv = 1 - light.gradient * (ramp - ramp.min()) / (np.ptp(ramp) + 1e-9)
    sx, sy, sr, sg = light.spot
    fieldv *= 1 + sg * np.exp(-(((u - sx) ** 2 + ((v - sy) * h / w) ** 2) / (2 * sr**2)))
    r2 = ((u - 0.5) ** 2 + ((v - 0.5) * h / w) ** 2) / (0.25 + 0.25 * (h / w) ** 2)
    fieldv *= 1 - light.vignette * r2
    fieldv *= light.exposure / fieldv.max()
    return np.asarray(cv2.resize(fieldv.astype(np.float32), (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR))


def _photograph(scene: F32, light: Light, rng: Rng) -> NDArray[np.uint8]:
    """What the webcam stores: light colour and field, defocus, sensor noise, tone curve, maybe JPEG."""
    img = scene * _light_field(light)[:, :, None] * light.colour().astype(np.float32)
    img = np.asarray(cv2.GaussianBlur(img, (0, 0), light.blur))
    read, shot = light.noise
    sigma = np.sqrt(read**2 + shot * np.clip(img, 0, None)).astype(np.float32)
    img = img + rng.standard_normal(img.shape, dtype=np.float32) * sigma
    bgr = np.ascontiguousarray(linear_to_srgb8(img)[:, :, ::-1])
    if light.smooth > 0.2:
        bgr = np.asarray(cv2.GaussianBlur(bgr, (0, 0), light.smooth))
    if light.sharpen > 0.05:
        soft = cv2.GaussianBlur(bgr, (0, 0), 1.5)
        bgr = np.asarray(cv2.addWeighted(bgr, 1 + light.sharpen, soft, -light.sharpen, 0))
    if light.jpeg:
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, light.jpeg])
        bgr = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))
    return bgr


# -------------------------------------------------------------------------------------- raster helpers


class View:
    """One photograph's geometry: the camera, its board homography and board coordinates of every pixel."""

    def __init__(self, cam: Camera, layout: YardLayout) -> None:
        self.cam = cam
        self.h = cam.board_homography()
        hinv = np.asarray(np.linalg.inv(self.h), np.float64)
        self.bx, self.by = self._board_coords(hinv, 1)
        # Half-resolution coordinates (pixel centres of a 2x2-binned frame) for the smooth landscape layer.
        self.bx2, self.by2 = self._board_coords(hinv, 2)
        self.px_per_mm = self.scale_at(np.array([layout.w / 2, layout.h / 2]))

    @staticmethod
    def _board_coords(hinv: F64, binning: int) -> tuple[F32, F32]:
        ys, xs = np.mgrid[0:FRAME_H // binning, 0:FRAME_W // binning].astype(np.float32)
        xs, ys = xs * binning + (binning - 1) / 2, ys * binning + (binning - 1) / 2
        den = hinv[2, 0] * xs + hinv[2, 1] * ys + hinv[2, 2]
        bx = ((hinv[0, 0] * xs + hinv[0, 1] * ys + hinv[0, 2]) / den).astype(np.float32)
        by = ((hinv[1, 0] * xs + hinv[1, 1] * ys + hinv[1, 2]) / den).astype(np.float32)
        return bx, by

    def scale_at(self, pt: F64) -> float:
        """Pixels per millimetre of board around a point (square root of the Jacobian's area)."""
        q = self.to_px(np.array([pt, pt + [1.0, 0.0], pt + [0.0, 1.0]]))
        (ax, ay), (bx, by) = q[1] - q[0], q[2] - q[0]
        return math.sqrt(abs(float(ax * by - ay * bx)))

    def to_px(self, pts: F64) -> F64:
        p = np.column_stack([pts, np.ones(len(pts))]) @ self.h.T
        return p[:, :2] / p[:, 2:3]

    def visible(self, pts: F64) -> bool:
        return bool(np.all(self.cam.to_cam(_on_board(pts))[:, 2] > 1.0))


def _roi(px: F64, pad: int) -> tuple[int, int, int, int] | None:
    x0 = max(int(math.floor(px[:, 0].min())) - pad, 0)
    y0 = max(int(math.floor(px[:, 1].min())) - pad, 0)
    x1 = min(int(math.ceil(px[:, 0].max())) + pad + 1, FRAME_W)
    y1 = min(int(math.ceil(px[:, 1].max())) + pad + 1, FRAME_H)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def fill_px(img: F32, polys: list[F64], colour: F64, alpha: float = 1.0) -> None:
    """Paint anti-aliased polygons given in pixels with one colour."""
    polys = [p for p in polys if len(p) >= 3 and np.all(np.abs(p) < 1e6)]
    if not polys:
        return
    box = _roi(np.concatenate(polys), 2)
    if box is None:
        return
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for p in polys:
        cv2.fillPoly(mask, [np.round((p - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    a = (mask.astype(np.float32) * (alpha / 255.0))[:, :, None]
    roi = img[y0:y1, x0:x1]
    roi += (colour.astype(np.float32) - roi) * a


def fill_mm(img: F32, view: View, polys: list[F64], colour: F64, alpha: float = 1.0) -> None:
    """Paint polygons printed on the board (given in mm)."""
    fill_px(img, [view.to_px(p) for p in polys if view.visible(p)], colour, alpha)


def paste_tile(img: F32, tile: F32, alpha: F32, tile_to_px: F64) -> None:
    """Warp a small raster (premultiplied by alpha) into the frame through a homography."""
    th, tw = alpha.shape
    corners = np.array([[-0.5, -0.5], [tw - 0.5, -0.5], [tw - 0.5, th - 0.5], [-0.5, th - 0.5]])
    p = np.column_stack([corners, np.ones(4)]) @ tile_to_px.T
    if np.any(p[:, 2] <= 0):
        return
    box = _roi(p[:, :2] / p[:, 2:3], 2)
    if box is None:
        return
    x0, y0, x1, y1 = box
    m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], dtype=np.float64) @ tile_to_px
    size = (x1 - x0, y1 - y0)
    col = cv2.warpPerspective(tile * alpha[:, :, None], m, size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=0)
    roi = img[y0:y1, x0:x1]
    roi *= 1 - np.asarray(a)[:, :, None]
    roi += np.asarray(col).reshape(roi.shape)


def _stroke(pts: F64, width: float) -> list[F64]:
    """A printed line as quads, one per segment, in mm."""
    quads = []
    for p, q in zip(pts[:-1], pts[1:], strict=True):
        d = q - p
        n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9) * width / 2
        quads.append(np.array([p + n, q + n, q - n, p - n]))
    return quads


def _circle(c: F64, r: float, n: int = 40) -> F64:
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([c[0] + r * np.cos(t), c[1] + r * np.sin(t)])


def _rect(x0: float, y0: float, x1: float, y1: float, angle: float = 0.0) -> F64:
    pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64)
    c = pts.mean(axis=0)
    ca, sa = math.cos(angle), math.sin(angle)
    return c + (pts - c) @ np.array([[ca, sa], [-sa, ca]])


def _smoothstep(e0: float, e1: float, x: F32) -> F32:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return np.asarray(t * t * (3 - 2 * t), dtype=np.float32)


class _Noise:
    """Smooth value noise on the board: a wrapped random grid sampled at board coordinates."""

    def __init__(self, rng: Rng, cell_mm: float, n: int = 96) -> None:
        self.grid = rng.standard_normal((n, n)).astype(np.float32)
        self.cell, self.n = cell_mm, n
        self.off = rng.uniform(0, n, 2)

    def at(self, bx: F32, by: F32) -> F32:
        mx = np.mod(bx / self.cell + self.off[0], self.n).astype(np.float32)
        my = np.mod(by / self.cell + self.off[1], self.n).astype(np.float32)
        return np.asarray(cv2.remap(self.grid, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_WRAP))


# ----------------------------------------------------------------------------------------- board print

_SKIES = [(0.55, 0.72, 0.88), (0.86, 0.80, 0.64), (0.95, 0.72, 0.42), (0.30, 0.34, 0.50), (0.80, 0.84, 0.87),
          (0.70, 0.62, 0.72)]
_LANDS = [(0.33, 0.52, 0.24), (0.55, 0.64, 0.30), (0.52, 0.38, 0.24), (0.45, 0.48, 0.52), (0.45, 0.40, 0.50),
          (0.62, 0.62, 0.60), (0.15, 0.17, 0.18), (0.78, 0.60, 0.30), (0.86, 0.50, 0.20), (0.88, 0.88, 0.86),
          (0.25, 0.40, 0.30)]
# Yard grounds; grey gravel, slate, coal-dark, snow-white and orange clay are the hard ones for a cube reader.
_GROUNDS = [((0.56, 0.55, 0.52), 2.0), ((0.50, 0.38, 0.26), 2.0), ((0.80, 0.70, 0.50), 1.5), ((0.38, 0.42, 0.47), 1.0),
            ((0.18, 0.18, 0.20), 1.0), ((0.87, 0.88, 0.89), 1.0), ((0.78, 0.46, 0.22), 1.0), ((0.42, 0.55, 0.32), 1.5)]
_CUBE_LOOKS = [(0.90, 0.46, 0.14), (0.58, 0.58, 0.56), (0.13, 0.13, 0.14), (0.92, 0.91, 0.88)]
_INKS = [(0.10, 0.09, 0.08), (0.30, 0.20, 0.12), (0.95, 0.94, 0.90), (0.20, 0.24, 0.35)]
_WORDS = ["STOCK YARD", "IRON", "STONE", "COAL", "LLANBERIS", "YR WYDDFA", "SITE OFFICE", "WORK RATE",
          "SURVEYOR", "LABOURER", "CLOGWYN", "HEBRON", "1", "2", "3", "4", "5", "+2", "x3", "EVENT"]


@dataclass
class _Print:
    """One printed element: polygons in mm with a colour, or a text label."""

    polys: list[F64]
    colour: F64
    alpha: float = 1.0
    text: str = ""
    text_pose: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # x, y, height mm, angle
    font: int = cv2.FONT_HERSHEY_SIMPLEX
    bold: int = 1


@dataclass
class BoardArt:
    """The printed board around and under the yard, drawn once per scene and rendered for any camera."""

    yard_w: float
    yard_h: float
    land_angle: float
    sky: tuple[F64, F64]
    ridges: list[tuple[float, F64, F64, F64, F64, F64]]  # base, amps, freqs, phases, colour near, far
    ridge_noise: _Noise
    tone: list[_Noise]
    fine: _Noise
    halftone: tuple[float, float, float]  # pitch mm, angle, strength
    halftone_mask: _Noise
    ground: F64
    speckle: list[tuple[F64, float]]  # colour, threshold
    ground_noise: list[_Noise]
    outside: list[_Print] = field(default_factory=list)
    inside: list[_Print] = field(default_factory=list)


def _sample_art(rng: Rng, layout: YardLayout, region: F64) -> BoardArt:
    x0, y0, x1, y1 = region
    land_angle = math.radians(rng.choice([0.0, 90.0, 180.0, 270.0]) + rng.normal(0, 15))
    span = max(x1 - x0, y1 - y0)
    ridges = []
    for i in range(int(rng.integers(2, 5))):
        base = -span / 2 + span * (i + rng.uniform(0.2, 0.9)) / 4
        ridges.append((base, rng.uniform(3, 30, 3), rng.uniform(0.004, 0.03, 3), rng.uniform(0, 6.3, 3),
                       _jitter(rng, _LANDS[int(rng.integers(len(_LANDS)))], 0.06),
                       _jitter(rng, _LANDS[int(rng.integers(len(_LANDS)))], 0.06)))
    sky_i = int(rng.integers(len(_SKIES)))
    weights = np.array([g[1] for g in _GROUNDS])
    ground_i = int(rng.choice(len(_GROUNDS), p=weights / weights.sum()))
    speckles = [(_jitter(rng, _CUBE_LOOKS[int(rng.integers(4))] if rng.random() < 0.5 else
                         _LANDS[int(rng.integers(len(_LANDS)))], 0.05), float(rng.uniform(1.0, 2.2)))
                for _ in range(int(rng.integers(1, 4)))]
    art = BoardArt(
        yard_w=layout.w, yard_h=layout.h, land_angle=land_angle,
        sky=(_jitter(rng, _SKIES[sky_i], 0.05), _jitter(rng, _SKIES[(sky_i + 1) % len(_SKIES)], 0.05)),
        ridges=ridges, ridge_noise=_Noise(rng, rng.uniform(25, 60)),
        tone=[_Noise(rng, rng.uniform(20, 60)), _Noise(rng, rng.uniform(2, 6))],
        fine=_Noise(rng, rng.uniform(0.25, 0.6)),
        halftone=(rng.uniform(1.0, 1.8), rng.uniform(0, math.pi / 2), rng.uniform(0.0, 0.25)),
        halftone_mask=_Noise(rng, rng.uniform(20, 50)),
        ground=_jitter(rng, _GROUNDS[ground_i][0], 0.05), speckle=speckles,
        ground_noise=[_Noise(rng, rng.uniform(0.5, 1.4)), _Noise(rng, rng.uniform(4, 12))],
    )
    art.outside = _sample_outside_prints(rng, layout, region)
    art.inside = _sample_yard_prints(rng, layout)
    return art


def _random_ink(rng: Rng) -> F64:
    return _jitter(rng, _INKS[int(rng.integers(len(_INKS)))], 0.04)


def _sample_outside_prints(rng: Rng, layout: YardLayout, region: F64) -> list[_Print]:
    """Illustration around the yard: roads, rails, panels, tokens, printed cube icons, linework, labels."""
    x0, y0, x1, y1 = region
    area = (x1 - x0) * (y1 - y0)
    n = int(min(90, max(12, area / 2500)))
    prints: list[_Print] = []

    def anywhere() -> F64:
        return np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])

    def near_yard() -> F64:  # the ring around the yard, where look-alikes hurt most
        side = int(rng.integers(4))
        t = rng.uniform(-0.1, 1.1)
        gap = rng.uniform(6, 40)
        return np.array([[t * layout.w, -gap], [layout.w + gap, t * layout.h], [t * layout.w, layout.h + gap],
                         [-gap, t * layout.h]][side])

    for _ in range(int(rng.integers(0, 3))):  # roads and rivers: wide wandering bands
        p, ang = anywhere(), rng.uniform(0, 2 * math.pi)
        pts = [p]
        for _ in range(12):
            ang += rng.normal(0, 0.3)
            pts.append(pts[-1] + 40 * np.array([math.cos(ang), math.sin(ang)]))
        colour = _jitter(rng, [(0.45, 0.60, 0.78), (0.60, 0.58, 0.55), (0.62, 0.50, 0.36)][int(rng.integers(3))], 0.05)
        prints.append(_Print(_stroke(np.array(pts), rng.uniform(5, 20)), colour))
    for _ in range(int(rng.integers(0, 3))):  # railway lines: sleepers then two rails
        p, ang = anywhere(), rng.uniform(0, 2 * math.pi)
        d = np.array([math.cos(ang), math.sin(ang)])
        nrm = np.array([-d[1], d[0]])
        length, gauge = rng.uniform(150, 500), rng.uniform(3, 6)
        sleepers = [np.array([p + d * t + nrm * gauge, p + d * (t + 1.2) + nrm * gauge,
                              p + d * (t + 1.2) - nrm * gauge, p + d * t - nrm * gauge])
                    for t in np.arange(0, length, rng.uniform(3, 5))]
        prints.append(_Print(sleepers, _jitter(rng, (0.40, 0.28, 0.18), 0.05)))
        rail = _jitter(rng, (0.25, 0.25, 0.27), 0.05)
        for side in (-1, 1):
            prints.append(_Print(_stroke(np.array([p + nrm * side * gauge * 0.7,
                                                   p + d * length + nrm * side * gauge * 0.7]), 0.7), rail))
    for _ in range(n // 3):  # houses and trees of the illustration
        c = anywhere()
        s = rng.uniform(4, 14)
        if rng.random() < 0.5:
            prints.append(_Print([_circle(c, s)], _jitter(rng, _LANDS[int(rng.integers(len(_LANDS)))], 0.06)))
        else:
            wall = _jitter(rng, _LANDS[int(rng.integers(len(_LANDS)))], 0.06)
            prints.append(_Print([_rect(c[0] - s, c[1] - s / 2, c[0] + s, c[1] + s)], wall))
            prints.append(_Print([np.array([[c[0] - s * 1.2, c[1] - s / 2], [c[0], c[1] - s * 1.4],
                                            [c[0] + s * 1.2, c[1] - s / 2]])], _random_ink(rng)))
    for _ in range(int(rng.integers(1, 4))):  # information panels with text
        c = near_yard() if rng.random() < 0.5 else anywhere()
        pw, ph = rng.uniform(20, 80), rng.uniform(12, 40)
        ang = math.radians(rng.normal(0, 4))
        panel = _jitter(rng, [(0.93, 0.90, 0.80), (0.85, 0.85, 0.83), (0.30, 0.28, 0.26)][int(rng.integers(3))], 0.03)
        prints.append(_Print([_rect(c[0] - pw / 2, c[1] - ph / 2, c[0] + pw / 2, c[1] + ph / 2, ang)], panel))
        ink = _random_ink(rng)
        prints.append(_Print(_stroke(np.vstack([_rect(c[0] - pw / 2, c[1] - ph / 2, c[0] + pw / 2, c[1] + ph / 2,
                                                      ang)] * 2)[:5], 0.6), ink))
        prints.append(_text_print(rng, c, ph * 0.35, ang, ink))
    for _ in range(n // 4):  # round tokens and score-track spaces, some with numbers
        c = near_yard() if rng.random() < 0.3 else anywhere()
        r = rng.uniform(3, 12)
        ring = _jitter(rng, [(0.95, 0.94, 0.90), (0.15, 0.14, 0.13)][int(rng.integers(2))], 0.03)
        prints.append(_Print([_circle(c, r)], ring))
        prints.append(_Print([_circle(c, r * 0.82)], _jitter(rng, (_LANDS + _CUBE_LOOKS)[int(rng.integers(15))],
                                                               0.06)))
        if rng.random() < 0.5:
            prints.append(_text_print(rng, c, r, 0.0, _random_ink(rng), str(int(rng.integers(1, 10)))))
    for _ in range(int(rng.integers(3, 15))):  # printed cube icons: flat squares in cube colours
        c = near_yard() if rng.random() < 0.6 else anywhere()
        s = rng.uniform(6, 12)
        ang = math.radians(rng.normal(0, 10))
        look = _jitter(rng, _CUBE_LOOKS[int(rng.integers(4))], 0.05)
        sq = _rect(c[0] - s / 2, c[1] - s / 2, c[0] + s / 2, c[1] + s / 2, ang)
        prints.append(_Print([sq], look))
        if rng.random() < 0.6:
            prints.append(_Print(_stroke(np.vstack([sq, sq[:1]]), 0.5), _random_ink(rng)))
    for _ in range(n // 3):  # ink linework of the illustration
        p, ang = anywhere(), rng.uniform(0, 2 * math.pi)
        pts = [p]
        for _ in range(int(rng.integers(3, 12))):
            ang += rng.normal(0, 0.5)
            pts.append(pts[-1] + rng.uniform(3, 15) * np.array([math.cos(ang), math.sin(ang)]))
        prints.append(_Print(_stroke(np.array(pts), rng.uniform(0.3, 1.2)), _random_ink(rng), rng.uniform(0.6, 1)))
    for _ in range(int(rng.integers(2, 7))):  # labels
        prints.append(_text_print(rng, near_yard() if rng.random() < 0.5 else anywhere(), rng.uniform(3, 10),
                                  math.radians(rng.normal(0, 5)), _random_ink(rng)))
    return prints


def _text_print(rng: Rng, c: F64, height: float, angle: float, ink: F64, text: str = "") -> _Print:
    fonts = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX]
    return _Print([], ink, text=text or str(rng.choice(_WORDS)), text_pose=(float(c[0]), float(c[1]), height, angle),
                  font=fonts[int(rng.integers(len(fonts)))], bold=int(rng.integers(1, 3)))


def _sample_yard_prints(rng: Rng, layout: YardLayout) -> list[_Print]:
    """What is printed inside the yard: spaces, rails, the odd cube-like icon, and the yard's frame."""
    w, h = layout.w, layout.h
    prints: list[_Print] = []
    if rng.random() < 0.6:  # outlined spaces
        cell = layout.cube_size * rng.uniform(1.6, 3.5)
        cols, rows = max(1, int(w // cell)), max(1, int(h // cell))
        ink = _random_ink(rng)
        width = rng.uniform(0.3, 0.9)
        inset = rng.uniform(0.8, 2.5)
        for i in range(cols):
            for j in range(rows):
                r = _rect(i * w / cols + inset, j * h / rows + inset, (i + 1) * w / cols - inset,
                          (j + 1) * h / rows - inset)
                prints.append(_Print(_stroke(np.vstack([r, r[:1]]), width), ink, rng.uniform(0.5, 0.9)))
    if rng.random() < 0.35:  # a siding running through the yard
        horizontal = rng.random() < 0.5
        at = rng.uniform(0.2, 0.8) * (h if horizontal else w)
        length = w if horizontal else h
        gauge = rng.uniform(3, 5)
        sleepers = []
        for t in np.arange(0, length, rng.uniform(3, 5)):
            r = _rect(t, at - gauge, t + 1.2, at + gauge)
            sleepers.append(r if horizontal else r[:, ::-1].copy())
        prints.append(_Print(sleepers, _jitter(rng, (0.40, 0.28, 0.18), 0.05)))
        for side in (-1, 1):
            line = np.array([[0, at + side * gauge * 0.7], [length, at + side * gauge * 0.7]])
            prints.append(_Print(_stroke(line if horizontal else line[:, ::-1].copy(), 0.7),
                                 _jitter(rng, (0.25, 0.25, 0.27), 0.05)))
    if rng.random() < 0.3:  # printed cube-like icons that are not cubes
        for _ in range(int(rng.integers(1, 4))):
            s = rng.uniform(6, 9)
            c = np.array([rng.uniform(s, w - s), rng.uniform(s, h - s)])
            prints.append(_Print([_rect(c[0] - s / 2, c[1] - s / 2, c[0] + s / 2, c[1] + s / 2, rng.uniform(0, 1.5))],
                                 _jitter(rng, _CUBE_LOOKS[int(rng.integers(4))], 0.05), rng.uniform(0.6, 1.0)))
    frame_w = rng.uniform(1.0, 4.0)
    out = rng.uniform(0.0, 1.0) * frame_w  # the printed frame sits on the yard's edge or just outside it
    frame = _rect(-out, -out, w + out, h + out)
    frame_colour = _jitter(rng, [(0.10, 0.09, 0.08), (0.35, 0.22, 0.12), (0.95, 0.94, 0.90), (0.80, 0.62, 0.25),
                                 (0.55, 0.55, 0.55)][int(rng.integers(5))], 0.03)
    prints.append(_Print(_stroke(np.vstack([frame, frame[:1]]), frame_w), frame_colour))
    return prints


def render_board(art: BoardArt, view: View, markers: tuple[Marker, ...]) -> F32:
    """The printed board and the marker papers as this camera sees them, in linear albedo."""
    img = _landscape(art, view)
    aa = 1.0 / view.px_per_mm  # edge softness: about a pixel
    for p in art.outside:
        _draw_print(img, view, p)
    _draw_yard_ground(img, view, art, aa)
    for p in art.inside:
        _draw_print(img, view, p)
    _print_texture(img, view, art)
    for m in markers:
        _draw_marker(img, view, m)
    return img


def _landscape(art: BoardArt, view: View) -> F32:
    """Sky and layered hills, smooth enough to paint at half resolution (it is the slow, per-pixel part)."""
    bx, by = view.bx2 - art.yard_w / 2, view.by2 - art.yard_h / 2
    ca, sa = math.cos(art.land_angle), math.sin(art.land_angle)
    along, down = bx * ca + by * sa, -bx * sa + by * ca
    aa = 2.0 / view.px_per_mm
    t = _smoothstep(-300, 300, down)[:, :, None]
    img = (art.sky[0] * (1 - t) + art.sky[1] * t).astype(np.float32)
    for i, (base, amps, freqs, phases, near, far) in enumerate(art.ridges):
        # A hill line: two slow waves and noise along it, so no two ridges look machine-made.
        wobble = art.ridge_noise.at(along, np.full_like(along, 13.0 * i))
        ridge = base + amps[0] * np.sin(freqs[0] * along + phases[0]) + amps[1] * np.sin(freqs[1] * along + phases[1])
        ridge = ridge + 0.5 * amps[2] * wobble
        below = down - ridge
        m = _smoothstep(-aa, aa, below)[:, :, None]
        depth = _smoothstep(0, 120, below)[:, :, None]
        img += (far * (1 - depth) + near * depth - img) * m
    img *= (1 + 0.12 * art.tone[0].at(view.bx2, view.by2))[:, :, None]
    img *= (1 + 0.05 * art.tone[1].at(view.bx2, view.by2))[:, :, None]
    return np.asarray(cv2.resize(img, (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR), np.float32)


def _draw_yard_ground(img: F32, view: View, art: BoardArt, aa: float) -> None:
    box = _roi(view.to_px(np.array([[0, 0], [art.yard_w, 0], [art.yard_w, art.yard_h], [0, art.yard_h]])), 3)
    if box is None:
        return
    x0, y0, x1, y1 = box
    bx, by = view.bx[y0:y1, x0:x1], view.by[y0:y1, x0:x1]
    inside = (_smoothstep(-aa, aa, bx) * _smoothstep(-aa, aa, art.yard_w - bx)
              * _smoothstep(-aa, aa, by) * _smoothstep(-aa, aa, art.yard_h - by))[:, :, None]
    ground = art.ground * (1 + 0.15 * art.ground_noise[1].at(bx, by))[:, :, None]
    fine = art.ground_noise[0].at(bx, by)
    for i, (colour, thr) in enumerate(art.speckle):  # gravel: speckles far smaller than a cube
        grain = fine if i == 0 else art.ground_noise[0].at(bx * 1.3 + 17 * i, by * 1.3 - 11 * i)
        s = _smoothstep(thr, thr + 0.4, grain if i % 2 == 0 else -grain)[:, :, None]
        ground = ground + (colour - ground) * s
    roi = img[y0:y1, x0:x1]
    roi += (ground.astype(np.float32) - roi) * inside


def _draw_print(img: F32, view: View, p: _Print) -> None:
    if not p.text:
        fill_mm(img, view, p.polys, p.colour, p.alpha)
        return
    x, y, height, angle = p.text_pose
    res = max(2.0, 1.5 * view.scale_at(np.array([x, y])))  # tile pixels per mm
    if height * res < 3:
        return
    scale = cv2.getFontScaleFromHeight(p.font, int(height * res), p.bold)
    (tw, th), base = cv2.getTextSize(p.text, p.font, scale, p.bold)
    if tw * th > 4_000_000:
        return
    alpha = np.zeros((th + base + 4, tw + 4), np.uint8)
    cv2.putText(alpha, p.text, (2, th + 2), p.font, scale, 255, p.bold, cv2.LINE_AA)
    tile = np.empty((*alpha.shape, 3), np.float32)
    tile[:] = p.colour.astype(np.float32)
    ca, sa = math.cos(angle), math.sin(angle)
    # tile pixels -> mm: centre the text on (x, y), scale by 1/res, turn by angle
    a = np.array([[ca / res, -sa / res, x], [sa / res, ca / res, y], [0, 0, 1]]) @ np.array(
        [[1, 0, -alpha.shape[1] / 2], [0, 1, -alpha.shape[0] / 2], [0, 0, 1]])
    paste_tile(img, tile, alpha.astype(np.float32) / 255.0 * p.alpha, view.h @ a)


def _print_texture(img: F32, view: View, art: BoardArt) -> None:
    """Printing and paper: a coarse halftone screen in places and a fine paper grain everywhere."""
    pitch, ang, strength = art.halftone
    if strength > 0.02 and pitch * view.px_per_mm > 2.5:  # a screen finer than the camera resolves is moot
        u = (view.bx * math.cos(ang) + view.by * math.sin(ang)) * (2 * math.pi / pitch)
        v = (-view.bx * math.sin(ang) + view.by * math.cos(ang)) * (2 * math.pi / pitch)
        dots = (0.5 + 0.5 * np.cos(u) * np.cos(v)).astype(np.float32)
        where = _smoothstep(0.3, 0.8, art.halftone_mask.at(view.bx, view.by))
        img *= (1 - strength * dots * where)[:, :, None]
    img *= (1 + 0.03 * art.fine.at(view.bx, view.by))[:, :, None]


def _draw_marker(img: F32, view: View, m: Marker) -> None:
    res = max(2.0, 1.5 * view.scale_at(m.centre))
    module = max(2, int(round(m.size / 6 * res)))
    code = cv2.aruco.generateImageMarker(_ARUCO, m.marker_id, module * 6)
    res = module * 6 / m.size  # tile pixels per mm, exact for the black square
    q = int(round(m.quiet * res))
    paper = float(srgb_to_linear(m.paper_srgb))
    ink = float(srgb_to_linear(m.ink_srgb))
    grey = np.full((module * 6 + 2 * q, module * 6 + 2 * q), 1.0, np.float32)
    grey[q:q + module * 6, q:q + module * 6] = np.asarray(code, np.float32) / 255.0
    tile = np.repeat((ink + (paper - ink) * grey)[:, :, None], 3, axis=2)
    ca, sa = math.cos(m.angle), math.sin(m.angle)
    n = grey.shape[0]
    # tile pixel centres run 0..n-1 over n/res mm; centre of the tile lands on the marker's centre
    a = np.array([[ca / res, -sa / res, m.centre[0]], [sa / res, ca / res, m.centre[1]], [0, 0, 1]]) @ np.array(
        [[1, 0, -(n - 1) / 2], [0, 1, -(n - 1) / 2], [0, 0, 1]])
    paste_tile(img, tile, np.ones((n, n), np.float32), view.h @ a)


# ------------------------------------------------------------------------------------------ cube render


def _cube_corners(c: Cube) -> tuple[F64, F64]:
    foot = c.footprint()
    return _on_board(foot), _on_board(foot, -c.size)


def _shadows(view: View, cubes: list[Cube], light: Light) -> F32:
    """Brightness factor of the board under the cubes' cast shadows and the dark rims where they stand."""
    cast = np.zeros((FRAME_H, FRAME_W), np.float32)
    rim = np.zeros((FRAME_H, FRAME_W), np.float32)
    ldir = light.direction()
    reach = ldir[:2] / -ldir[2]  # a point h above the board throws its shadow h * reach away from the lamp
    for c in cubes:
        foot = c.footprint()
        tip = foot - reach * c.size
        hull = cv2.convexHull(np.vstack([foot, tip]).astype(np.float32)).reshape(-1, 2).astype(np.float64)
        fill_px(cast[:, :, None], [view.to_px(hull)], np.array([1.0]))
        grown = _square(c.x, c.y, c.angle, c.size + 1.2)
        fill_px(rim[:, :, None], [view.to_px(grown)], np.array([1.0]))
    sigma = max(0.5, light.penumbra_mm * view.px_per_mm)
    cast = np.asarray(cv2.GaussianBlur(cast, (0, 0), sigma))
    rim = np.asarray(cv2.GaussianBlur(rim, (0, 0), max(0.5, 0.8 * view.px_per_mm)))
    lit = light.board_irradiance()
    shade = light.ambient * 0.85 / lit  # what is left where the lamp is blocked
    return np.asarray((1 - (1 - shade) * np.clip(cast, 0, 1)) * (1 - 0.45 * np.clip(rim, 0, 1)), np.float32)


def _face_tile(c: Cube, n: int, shade: float, spec: float, top: bool) -> F32:
    """A face of a painted wooden cube: faint grain, darker rounded edges, darker near the board."""
    v, u = np.mgrid[0:n, 0:n].astype(np.float32) / (n - 1)
    freq, phase, strength = c.grain
    along = u if top else v
    grain = 1 + strength * np.sin(2 * math.pi * freq * (along + 0.03 * np.sin(7 * (1 - along) + phase)) + phase)
    edge = np.minimum(np.minimum(u, 1 - u), np.minimum(v, 1 - v))
    rounded = 1 - 0.3 * np.exp(-edge / 0.035)
    foot = np.ones_like(u) if top else 1 - 0.25 * v**3
    level = (shade * grain * rounded * foot)[:, :, None]
    return np.asarray(np.asarray(c.paint, np.float32) * level + spec, np.float32)


def _draw_cube(img: F32, view: View, c: Cube, light: Light) -> None:
    bottom, top = _cube_corners(c)
    cam = view.cam
    ldir = light.direction()
    lit = light.board_irradiance()
    faces: list[tuple[F64, F64, bool]] = [(top, _UP, True)]
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([top[i], top[j], bottom[j], bottom[i]])
        mid = quad.mean(axis=0)
        normal = mid - np.array([c.x, c.y, -c.size / 2])
        faces.append((quad, normal / np.linalg.norm(normal), False))
    corners_px = cam.project(np.vstack([bottom, top]))
    tiles = []
    for quad, normal, is_top in faces:
        mid = quad.mean(axis=0)
        to_cam = cam.centre - mid
        if normal @ to_cam <= 0:
            continue  # facing away from the camera
        amb = light.ambient * (1.0 if is_top else 0.8)  # a side sees half the room, and the board
        shade = (amb + (1 - light.ambient) * max(0.0, float(normal @ ldir))) / lit
        half = ldir + to_cam / np.linalg.norm(to_cam)
        spec = light.gloss * max(0.0, float(normal @ half / np.linalg.norm(half))) ** 30 / lit
        tiles.append((cam.project(quad), _face_tile(c, 24, shade, spec, is_top), shade))
    # The silhouette first, in the darkest face's colour, so seams between faces never show the board.
    hull = cv2.convexHull(corners_px.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    fill_px(img, [hull], np.asarray(c.paint) * min(t[2] for t in tiles) * 0.8)
    for quad_px, tile, _ in tiles:
        n = tile.shape[0]
        src = np.array([[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5], [-0.5, n - 0.5]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad_px.astype(np.float32))
        paste_tile(img, tile, np.ones((n, n), np.float32), np.asarray(m, np.float64))


def _draw_cubes(img: F32, view: View, cubes: list[Cube], light: Light) -> None:
    img *= _shadows(view, cubes, light)[:, :, None]
    depth = [float(view.cam.to_cam(_on_board([[c.x, c.y]], -c.size / 2))[0, 2]) for c in cubes]
    for i in np.argsort(depth)[::-1]:  # painter's order: farthest first
        _draw_cube(img, view, cubes[int(i)], light)


# ------------------------------------------------------------------------------------------------ hand

_SKINS = [(0.93, 0.76, 0.65), (0.87, 0.66, 0.52), (0.76, 0.55, 0.40), (0.58, 0.40, 0.28), (0.38, 0.25, 0.17)]


def _draw_hand(img: F32, view: View, layout: YardLayout, rng: Rng) -> None:
    """A player's hand reaching in from the edge of the frame over part of the yard, and its shadow."""
    # The knuckles are over the yard, so the fingers always cover some of it.
    reach_mm = np.array([rng.uniform(0.2, 0.8) * layout.w, rng.uniform(0.2, 0.8) * layout.h])
    reach = view.to_px(reach_mm[None])[0]
    depth = float(view.cam.to_cam(_on_board(reach_mm[None]))[0, 2])
    # Height above the board (never more than half way up to a close camera): a hand looks bigger than the
    # board under it, by depth / (depth - lift).
    lift = min(rng.uniform(30, 120), 0.45 * depth)
    s = view.scale_at(reach_mm) * depth / (depth - lift)
    edge = int(rng.choice(4, p=[0.15, 0.15, 0.5, 0.2]))  # top, left, bottom (the player's side), right
    along = rng.uniform(0.1, 0.9)
    entry = np.array([[along * FRAME_W, -80], [-80, along * FRAME_H], [along * FRAME_W, FRAME_H + 80],
                      [FRAME_W + 80, along * FRAME_H]][edge])
    mask, wrist, d = _hand_mask(rng, entry, reach, s)
    alpha = mask.astype(np.float32) / 255.0
    # Shadow on the board, offset away from the lamp and soft because the hand is well above the board.
    shift = rng.normal(size=2)
    shift = shift / np.linalg.norm(shift) * rng.uniform(0.1, 0.4) * lift * s
    moved = cv2.warpAffine(alpha, np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32), (FRAME_W, FRAME_H))
    shadow = np.asarray(cv2.GaussianBlur(moved, (0, 0), max(2.0, 0.04 * lift * s)))
    img *= (1 - rng.uniform(0.3, 0.55) * shadow)[:, :, None]
    colour = _skin(rng, mask, wrist, d, s)
    if rng.random() < 0.5:  # the hand is moving
        k = int(rng.integers(3, 15))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (k, k)))
        kernel /= kernel.sum()
        colour = np.asarray(cv2.filter2D(colour * alpha[:, :, None], -1, kernel))
        alpha = np.asarray(cv2.filter2D(alpha, -1, kernel))
        img *= 1 - alpha[:, :, None]
        img += colour
        return
    img += (colour - img) * alpha[:, :, None]


def _hand_mask(rng: Rng, entry: F64, reach: F64, s: float) -> tuple[NDArray[np.uint8], F64, F64]:
    """Silhouette of forearm, palm, four tapering fingers and a thumb, knuckles at `reach` (pixels);
    s = pixels per mm at the hand."""
    d = (reach - entry) / np.linalg.norm(reach - entry)
    nrm = np.array([-d[1], d[0]])
    finger_len, palm_len, palm_w = rng.uniform(65, 80) * s, rng.uniform(85, 100) * s, rng.uniform(75, 90) * s
    wrist = reach - d * palm_len * 0.85
    arm_w = rng.uniform(0.65, 0.8) * palm_w
    mask = np.zeros((FRAME_H, FRAME_W), np.uint8)

    def poly(pts: list[F64]) -> None:
        cv2.fillPoly(mask, [np.round(np.array(pts) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)

    def disc(c: F64, r: float) -> None:
        cv2.circle(mask, (int(round(c[0] * 16)), int(round(c[1] * 16))), int(round(r * 16)), 255, -1, cv2.LINE_AA, 4)

    poly([entry + nrm * arm_w * 0.7, wrist + nrm * arm_w / 2, wrist - nrm * arm_w / 2, entry - nrm * arm_w * 0.7])
    # Palm: a rounded trapezoid, wider at the knuckles than at the wrist.
    knuckles = wrist + d * palm_len * 0.85
    poly([wrist + nrm * arm_w * 0.55, knuckles + nrm * palm_w / 2, knuckles - nrm * palm_w / 2,
          wrist - nrm * arm_w * 0.55])
    disc(knuckles + nrm * palm_w * 0.3 - d * palm_w * 0.15, palm_w * 0.22)
    disc(knuckles - nrm * palm_w * 0.3 - d * palm_w * 0.15, palm_w * 0.22)
    spread = rng.uniform(0.0, 0.3)
    heading = math.atan2(d[1], d[0])
    for k, off in enumerate(np.linspace(-0.37, 0.37, 4)):
        base = knuckles + nrm * off * palm_w - d * palm_w * 0.05
        ang = heading + off * spread + rng.normal(0, 0.04)
        fd = np.array([math.cos(ang), math.sin(ang)])
        fn = np.array([-fd[1], fd[0]])
        length = finger_len * (0.78 if k in (0, 3) else 1.0) * rng.uniform(0.85, 1.05)
        width = palm_w * 0.24 * (0.85 if k in (0, 3) else 1.0)
        end = base + fd * length
        poly([base + fn * width / 2, end + fn * width * 0.38, end - fn * width * 0.38, base - fn * width / 2])
        disc(end, width * 0.38)
    side = 1 if rng.random() < 0.5 else -1
    thumb0 = wrist + d * palm_len * 0.25 + nrm * side * arm_w * 0.45
    thumb_dir = d * 0.55 + nrm * side * 0.85
    thumb1 = thumb0 + thumb_dir / np.linalg.norm(thumb_dir) * finger_len * 0.7
    tn = np.array([-thumb_dir[1], thumb_dir[0]]) / np.linalg.norm(thumb_dir)
    tw = palm_w * 0.27
    poly([thumb0 + tn * tw / 2, thumb1 + tn * tw * 0.4, thumb1 - tn * tw * 0.4, thumb0 - tn * tw / 2])
    disc(thumb1, tw * 0.4)
    return mask, wrist, d


def _skin(rng: Rng, mask: NDArray[np.uint8], wrist: F64, d: F64, s: float) -> F32:
    """Skin (or a sleeve) with round shading across limbs, ruddier edges and a mottled texture."""
    dist = np.asarray(cv2.distanceTransform(mask, cv2.DIST_L2, 3))
    roundness = np.sqrt(np.clip(dist / (9.0 * s), 0, 1))[:, :, None]
    skin = _jitter(rng, _SKINS[int(rng.integers(len(_SKINS)))], 0.04).astype(np.float32)
    colour = np.empty((FRAME_H, FRAME_W, 3), np.float32)
    colour[:] = skin
    ys, xs = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    behind_wrist = (xs - wrist[0]) * d[0] + (ys - wrist[1]) * d[1]
    if rng.random() < 0.5:
        sleeve_end = rng.uniform(20, 80) * s
        sleeve = _jitter(rng, (_LANDS + _CUBE_LOOKS)[int(rng.integers(15))], 0.05).astype(np.float32)
        colour[behind_wrist < -sleeve_end] = sleeve
    ruddy = np.array([1.0, 0.82, 0.78], np.float32)  # thin skin at the edges lets the blood show
    colour *= ruddy + (1 - ruddy) * roundness
    colour *= 0.45 + 0.6 * roundness
    mottle = cv2.resize(rng.normal(0, 1, (FRAME_H // 16, FRAME_W // 16)).astype(np.float32), (FRAME_W, FRAME_H),
                        interpolation=cv2.INTER_CUBIC)
    colour *= (1 + 0.04 * np.asarray(mottle))[:, :, None]
    return colour


# ----------------------------------------------------------------------------------------------- scene


@dataclass(frozen=True)
class IndepPlay:
    image: NDArray[np.uint8]  # BGR, 720 x 1280
    counts: dict[str, int]  # the truth: cubes placed in the yard, by kind
    cubes: tuple[Cube, ...]
    yard_corners_px: F64  # where the yard's TL, TR, BR, BL corners are in this image


@dataclass(frozen=True)
class IndepPair:
    calibration: NDArray[np.uint8]  # BGR, 720 x 1280, the empty yard
    play: IndepPlay
    hand: bool
    yard_mm: tuple[float, float]
    cube_mm: float
    calibration_yard_corners_px: F64
    marker_corners_px: dict[int, F64]  # black squares in the calibration image, TL TR BR BL of each
    notes: dict[str, float | str]  # the drawn conditions, to explain a failure


def _board_region(cams: list[Camera], layout: YardLayout) -> F64:
    """The part of the board any of the cameras can see (clamped: far-off board is a few pixels anyway)."""
    frame = np.array([[0, 0], [FRAME_W - 1, 0], [FRAME_W - 1, FRAME_H - 1], [0, FRAME_H - 1]], np.float64)
    pts = np.vstack([c.board_point(frame) for c in cams])
    lo = np.maximum(pts.min(axis=0) - 20, [-600, -600])
    hi = np.minimum(pts.max(axis=0) + 20, [layout.w + 600, layout.h + 600])
    return np.concatenate([lo, hi])


def indep_scene_pair(seed: int, hand: bool = False) -> IndepPair:
    """One stock-yard scene from a seed: the empty yard for calibration and, later, the yard in play."""
    rng = np.random.default_rng(seed)
    layout = _sample_layout(rng)
    cal_cam, play_cam, height_frac = _place_camera(rng, layout)
    art = _sample_art(rng, layout, _board_region([cal_cam, play_cam], layout))
    cubes = _place_cubes(rng, layout, _sample_counts(rng))
    warm_first = rng.random() < 0.5
    same_family = rng.random() < 0.15  # sometimes only the strength and direction of the light change
    cal_light = _sample_light(rng, warm_first)
    play_light = _sample_light(rng, warm_first if same_family else not warm_first)

    cal_view = View(cal_cam, layout)
    calibration = _photograph(render_board(art, cal_view, layout.markers), cal_light, rng)

    play_view = View(play_cam, layout)
    scene = render_board(art, play_view, layout.markers)
    _draw_cubes(scene, play_view, cubes, play_light)
    if hand:
        _draw_hand(scene, play_view, layout, rng)
    play_image = _photograph(scene, play_light, rng)

    counts = Counter(c.kind for c in cubes)
    notes: dict[str, float | str] = {
        "placement": layout.placement, "marker_mm": layout.markers[0].size, "height_frac": height_frac,
        "px_per_mm": play_view.px_per_mm, "tilt_deg": math.degrees(math.acos(abs(cal_cam.rot[2, 2]))),
        "cal_kelvin": cal_light.kelvin, "play_kelvin": play_light.kelvin, "cal_exposure": cal_light.exposure,
        "play_exposure": play_light.exposure, "cal_jpeg": cal_light.jpeg, "play_jpeg": play_light.jpeg,
    }
    return IndepPair(
        calibration=calibration,
        play=IndepPlay(play_image, {k: counts.get(k, 0) for k in KINDS}, tuple(cubes),
                       play_cam.project(_on_board(layout.corners()))),
        hand=hand, yard_mm=(layout.w, layout.h), cube_mm=layout.cube_size,
        calibration_yard_corners_px=cal_cam.project(_on_board(layout.corners())),
        marker_corners_px={m.marker_id: cal_cam.project(_on_board(m.black_square())) for m in layout.markers},
        notes=notes,
    )


def write_examples(out_dir: Path, seeds: list[tuple[int, bool]]) -> None:
    """PNG pairs for a person to look at: seed_<n>_calibration.png and seed_<n>_play.png."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for seed, hand in seeds:
        pair = indep_scene_pair(seed, hand)
        cv2.imwrite(str(out_dir / f"seed_{seed}_calibration.png"), pair.calibration)
        cv2.imwrite(str(out_dir / f"seed_{seed}_play.png"), pair.play.image)
        print(seed, "hand" if hand else "", pair.play.counts, pair.notes)


if __name__ == "__main__":
    write_examples(Path("/tmp/indep_examples"), [(1, False), (2, False), (3, True), (4, False)])
