"""Fifth, independently modelled generator of stock-yard photographs (held-out test data).

Written without looking at the reader it is meant to test: every modelling choice below comes from how
a Raspberry Pi camera photographs wooden cubes on a printed board under home lighting.  Public API:
``fifth_scene_pair(seed, hand=False) -> FifthPair``; helpers: ``fifth_scene(seed)`` (the sampled scene
description), ``fifth_mild_level(seed)``, ``detect_markers(img)`` and ``fifth_clear_caches()``.

Modelling choices (a short design note)
---------------------------------------
World
  * Units are millimetres; the board lies in the plane z = 0, x to the right and y towards the top edge
    of the board as the players see it.  The stock yard is a 150-175 x 100-120 mm printed panel on a
    560-680 x 400-480 mm board, which lies on a table (oak, walnut, white laminate, green cloth or grey).
  * Board artwork is drawn procedurally per seed: painted terrain bands (four of greens, browns, slate,
    parchment) with ink outlines, blotches at several scales, brush streaks and small bushes; jagged
    mountains, a railway with sleepers, parchment action panels with numbered circles, printed cube
    icons (orange, grey, black, white), weather discs, an event track, station names, fold creases.  The
    yard panel is parchment, slate, planks, gravel or grass, with one printed space per cube kind (label
    plus cube icons in the cube colours) and labourer circles.  Paper-fibre noise, ink-density drift and
    the cardboard edge with a contact shadow on the table finish the print.
  * Markers: DICT_4X4_50 ids 0/1/2/3 at the yard's TL/TR/BR/BL corners, upright in board orientation,
    each printed 32-44 mm on its own scissor-cut paper (4-8 mm white margin, slightly irregular cut),
    laid by hand just outside its corner (position error ~2.5 mm, rotation ~4 deg); 70 % of papers curl
    along one axis (edges up to 2.5 mm high, ray-traced and shaded by their normals, with a faint shadow
    round the lifted edge); toner black has a weak sheen.
Cubes
  * Edge 8 mm nominal: the brief and the box give "small" wooden cubes of about 8 mm, the usual size for
    Euro-game resource cubes.  A box's cubes are 7.7-8.3 mm (one production run) and each cube varies by
    a further +-0.15 mm (cutting tolerance).
  * Each cube is a chamfered polyhedron (6 faces, 12 edge bevels, 8 corner facets; bevel 0.35-0.8 mm)
    rasterised with sub-pixel anti-aliasing, back-face culled, drawn far to near.  Faces carry a
    procedural wood texture under the paint (long grain on four faces, end-grain rings on two), paint
    unevenness, and worn edges where raw wood shows through.  Paint: orange / mid grey / black /
    off-white with per-cube jitter.
  * Shading is evaluated at the face corners and bilinearly interpolated: Lambert per light, Blinn-Phong
    sheen with Schlick Fresnel (satin paint), hemispherical sky ambient plus bounce from the board,
    height-based and neighbour-based ambient occlusion, and soft shadows from other cubes (ray-box tests
    against four samples on each light) and from the hand.
  * On the board each cube casts one soft shadow per light (projected from the light, penumbra from the
    light's size) plus ambient occlusion and a tight contact shadow round its footprint.  A shadow takes
    away only its own light, so under a warm lamp with a cool window it is bluish.
  * Placement: ~7.5 % of scenes are empty; otherwise 1-20 cubes (about 50 % iron, 30 % stone, 13 % coal,
    7 % event; within the piece limits), each kind mostly in its printed space (event cubes anywhere in
    the yard), arranged as touching rows, heaps (some cubes resting on top of others) or loose groups;
    no two cubes intersect.
Light
  * Sessions: daylight from a window (directional, 5200-7500 K, wide soft shadows, fall-off across the
    table, cool sky ambient), a warm ceiling lamp (2600-3300 K point light, shade-sized penumbra), a desk
    lamp (spot cone, 2900-4500 K, strong gradient), evening twilight, or mixes; irradiance is roughly lux.
  * Calibration and play differ: a lamp switched on or off, evening (daylight dims and turns blue, often
    a lamp comes on), clouds, a dimmer, plus +-10 % drift on every light.  Light colours come from Planck
    spectra through Gaussian R/G/B sensitivities.
Camera
  * Pinhole, f 950-1150 px (60-68 deg horizontal field), mild barrel distortion, 350-700 mm above the
    board (median ~530), 0-25 deg tilt, any roll (60 % near a multiple of 90 deg), aimed at the yard
    within a few cm, framed so that all marker papers are in view.  Between calibration and play the
    camera is nudged by 0.2-1.2 deg and 1-8 mm.
  * Optics: focus blur (autofocus module sigma 0.4-0.75 px; fixed-focus module focused far away, so
    sigma 0.5-1.4 px growing as the camera comes closer), lateral chromatic aberration, vignetting.
  * Sensor: crosstalk matrix, green-heavy channel sensitivities, auto exposure (centre-weighted, splits
    exposure into time and analogue gain up to 8x, so dim scenes are noisier), RGGB Bayer mosaic, shot
    and read noise before demosaicing, 10-bit quantisation with black level, and in ~13 % of frames lit
    by lamps faint rolling-shutter mains-flicker bands.
  * ISP: edge-aware demosaic, imperfect lens-shading correction (colour cast towards corners), colour
    matrix, auto white balance (grey world snapped to the Planckian locus, blended with the illuminant,
    incomplete adaptation to warm light, small error), saturation, chroma and luma denoising (smear),
    tone curve with a soft shoulder, unsharp-mask sharpening (halos), JPEG quality 72-95, 4:2:0 chroma.
Hand (hand=True)
  * Same scene, camera, light and sensor noise as the hand-free play frame.  A forearm (often in a
    sleeve) with palm, four two-segment fingers and a thumb, built from capsules in 3D, in a reaching,
    pinching or pointing pose, with the fingertips 20-90 mm above the top of a chosen cube (or a point
    of an empty yard) on the camera ray through it, so it covers that part of the yard.  Rendered by
    ray-capsule intersection (half resolution) with wrap-lit skin of several tones, slight motion blur,
    and soft shadows on board and cubes from every light; auto exposure and white balance react to it.
Marker safety
  * Hand-free frames are checked with cv2.aruco's default detector; if a marker is missed the pair is
    re-rendered "milder" (flatter paper, less blur, noise and sheen, better JPEG), same scene otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

IMG_H, IMG_W = 720, 1280
KINDS = ("iron", "stone", "coal", "event")
PIECE_LIMITS = {"iron": 40, "stone": 24, "coal": 14, "event": 5}
CORNER_IDS = {"TL": 0, "TR": 1, "BR": 2, "BL": 3}

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]


@dataclass(frozen=True)
class FifthPlay:
    image: NDArray[np.uint8]
    counts: dict[str, int]
    cube_mask: NDArray[np.bool_]


@dataclass(frozen=True)
class FifthPair:
    calibration: NDArray[np.uint8]
    play: FifthPlay
    hand: bool


# ----------------------------------------------------------------------------------------------- colour


def _f32(a: object) -> F32:
    return np.asarray(a, dtype=np.float32)


def _lin(rgb: tuple[float, float, float] | F64) -> F64:
    """sRGB 0..255 to linear reflectance."""
    c = np.asarray(rgb, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


_WL = np.arange(400.0, 701.0, 10.0)
_SENS = np.stack([np.exp(-0.5 * ((_WL - mu) / sd) ** 2) for mu, sd in ((600, 38), (535, 42), (455, 32))])


def _planck(temp: float) -> F64:
    lam = _WL * 1e-9
    return 1.0 / (lam**5 * (np.exp(1.4388e-2 / (lam * temp)) - 1.0))


_REF = _SENS @ _planck(6500.0)


def _kelvin(temp: float) -> F64:
    """Illuminant colour (G = 1) in the reference space where 6500 K is neutral."""
    c = (_SENS @ _planck(temp)) / _REF
    return c / c[1]


# --------------------------------------------------------------------------------------------- geometry


def _rot(axis: F64 | tuple[float, float, float], ang: float) -> F64:
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(ang) * k + (1 - math.cos(ang)) * (k @ k)


def _unit(v: F64) -> F64:
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class _Cam:
    f: float
    cx: float
    cy: float
    k1: float
    rcw: F64  # columns: camera x, y, z axes in world coordinates
    c: F64  # centre in world mm

    def project(self, pts: F64) -> tuple[F64, F64]:
        pc = (np.asarray(pts, dtype=np.float64).reshape(-1, 3) - self.c) @ self.rcw
        z = np.maximum(pc[:, 2], 1e-6)
        xu, yu = pc[:, 0] / z, pc[:, 1] / z
        ru = np.hypot(xu, yu)
        rd = ru.copy()
        for _ in range(5):  # invert r_u = r_d (1 + k1 r_d^2)
            rd = rd - (rd * (1 + self.k1 * rd * rd) - ru) / (1 + 3 * self.k1 * rd * rd)
        s = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        uv = np.stack([self.f * xu * s + self.cx, self.f * yu * s + self.cy], axis=1)
        return uv, pc[:, 2]

    def rays(self, step: int) -> tuple[F32, F32, F32]:
        """Unit world ray directions for a grid whose samples match cv2.resize of a full image by 1/step."""
        h, w = IMG_H // step, IMG_W // step
        u = (np.arange(w, dtype=np.float32) * step + (step - 1) / 2.0 - self.cx) / self.f
        v = (np.arange(h, dtype=np.float32) * step + (step - 1) / 2.0 - self.cy) / self.f
        xd, yd = np.meshgrid(u, v)
        s = 1 + np.float32(self.k1) * (xd * xd + yd * yd)
        xu, yu = xd * s, yd * s
        r = self.rcw.astype(np.float32)
        dx = r[0, 0] * xu + r[0, 1] * yu + r[0, 2]
        dy = r[1, 0] * xu + r[1, 1] * yu + r[1, 2]
        dz = r[2, 0] * xu + r[2, 1] * yu + r[2, 2]
        n = 1.0 / np.sqrt(dx * dx + dy * dy + dz * dz)
        return dx * n, dy * n, dz * n

    def board(self, step: int) -> tuple[F32, F32, tuple[F32, F32, F32]]:
        dx, dy, dz = self.rays(step)
        t = -np.float32(self.c[2]) / np.minimum(dz, -1e-4)
        return _f32(np.float32(self.c[0]) + t * dx), _f32(np.float32(self.c[1]) + t * dy), (dx, dy, dz)


def _look_camera(target: F64, height: float, tilt: float, azim: float, roll: float, f: float, cx: float,
                 cy: float, k1: float) -> _Cam:
    base = np.array([[1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, -1.0]])  # straight down, board upright
    rcw = base @ _rot((0.0, 0.0, 1.0), roll)
    rcw = _rot((-math.sin(azim), math.cos(azim), 0.0), tilt) @ rcw
    fwd = rcw[:, 2]
    dist = height / max(-fwd[2], 1e-3)
    return _Cam(f, cx, cy, k1, rcw, target - dist * fwd)


def _nudge(cam: _Cam, rng: np.random.Generator) -> _Cam:
    ang = math.radians(rng.uniform(0.2, 1.2))
    axis = _unit(rng.normal(size=3))
    rcw = _rot(axis, ang) @ cam.rcw
    shift = _unit(rng.normal(size=3)) * rng.uniform(1.0, 8.0)
    return replace(cam, rcw=rcw, c=cam.c + shift)


# ------------------------------------------------------------------------------------------------ light


@dataclass(frozen=True)
class _Light:
    kind: str  # "point" or "dir"
    vec: F64  # point: position; dir: unit vector towards the light
    rgb: F64
    power: float  # point: I with E = I cos / d^2; dir: irradiance at normal incidence
    radius: float  # point: emitter radius mm; dir: angular radius rad
    spot_axis: F64 | None = None
    spot_in: float = 1.0
    spot_out: float = -1.0
    grad: F64 | None = None  # dir only: relative irradiance change per mm
    origin: F64 | None = None


@dataclass(frozen=True)
class _Lighting:
    lights: tuple[_Light, ...]
    ambient: F64  # rgb irradiance from the sky / room, upper hemisphere


def _irr(light: _Light, p: F64, n: F64) -> tuple[F64, F64, F64]:
    """Irradiance (no shadows) for points p with normals n; returns (E, l, falloff-only E for n = l)."""
    if light.kind == "point":
        d = light.vec - p
        dist2 = np.maximum(np.sum(d * d, axis=-1), 1.0)
        l_dir = d / np.sqrt(dist2)[..., None]
        e0 = light.power / dist2
        if light.spot_axis is not None:
            cosa = -np.sum(l_dir * light.spot_axis, axis=-1)
            tt = np.clip((cosa - light.spot_out) / max(light.spot_in - light.spot_out, 1e-6), 0, 1)
            e0 = e0 * (0.04 + 0.96 * tt * tt * (3 - 2 * tt))
    else:
        l_dir = np.broadcast_to(light.vec, p.shape).copy()
        e0 = np.full(p.shape[:-1], light.power)
        if light.grad is not None and light.origin is not None:
            e0 = e0 * np.clip(1 + (p[..., :2] - light.origin[:2]) @ light.grad, 0.35, 2.0)
    cos = np.maximum(np.sum(l_dir * n, axis=-1), 0.0)
    return e0 * cos, l_dir, e0


def _board_irr(light: _Light, x: F32, y: F32) -> F32:
    p = np.stack([x, y, np.zeros_like(x)], axis=-1).astype(np.float64)
    e, _, _ = _irr(light, p, np.array([0.0, 0.0, 1.0]))
    return e.astype(np.float32)


def _board_spec(light: _Light, x: F32, y: F32, cam_c: F64, gloss: float) -> F32:
    p = np.stack([x, y, np.zeros_like(x)], axis=-1).astype(np.float64)
    e, l_dir, _ = _irr(light, p, np.array([0.0, 0.0, 1.0]))
    v = _unit(cam_c - p)
    hv = _unit(l_dir + v)
    fres = 0.04 + 0.96 * (1 - np.clip(np.sum(v * hv, axis=-1), 0, 1)) ** 5
    return (e * fres * (gloss + 8) / 8 * np.clip(hv[..., 2], 0, 1) ** gloss).astype(np.float32)


def _light_samples(light: _Light) -> F64:
    """Four sample positions (point) or directions (dir) spread over the emitter, for soft shadows."""
    if light.kind == "point":
        offs = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], dtype=np.float64) * 0.6 * light.radius
        return light.vec + offs
    a = _unit(np.cross(light.vec, [0.0, 0.0, 1.0]) + np.array([1e-6, 0, 0]))
    b = np.cross(light.vec, a)
    r = math.tan(light.radius) * 0.6
    return _unit(np.stack([light.vec + r * a, light.vec - r * a, light.vec + r * b, light.vec - r * b]))


# ------------------------------------------------------------------------------------------------ scene


@dataclass(frozen=True)
class _Cube:
    kind: str
    center: F64
    rot: F64
    size: float
    paint: F64
    gloss: float
    wear: float
    bevel: float
    grain_axis: int
    tex_seed: int
    level: int  # 0 on the board, 1 resting on other cubes


@dataclass(frozen=True)
class _Marker:
    mid: int
    center: F64
    angle: float
    size: float
    margin: float
    cut: F64  # (4, 2) jitter of the paper corners, mm
    curl: float  # mm of lift at the curled edges
    curl_axis: int
    black: float
    white: F64


@dataclass(frozen=True)
class _Capsule:
    a: F64
    b: F64
    r: float
    mat: int  # 0 skin, 1 sleeve


@dataclass(frozen=True)
class _Hand:
    capsules: tuple[_Capsule, ...]
    skin: F64
    sleeve: F64
    blur_px: float
    blur_angle: float


@dataclass(frozen=True)
class _Isp:
    blur: float
    ca: float
    vig: float
    lsc_err: F64
    m_cam: F64
    sens: F64
    ccm_err: F64
    sat: float
    ae_target: float
    awb_w: float
    awb_kappa: float
    awb_err: F64
    full_well: float
    read_e: float
    denoise: float
    contrast: float
    shoulder: float
    sharpen: float
    sharpen_sigma: float
    jpeg_q: int
    flicker: float = 0.0  # amplitude of mains-flicker banding (lamp light only)
    flicker_period: float = 150.0
    flicker_phase: float = 0.0


@dataclass(frozen=True)
class FifthScene:
    """Everything drawn from the seed; rendering adds only sensor noise (from its own stream)."""

    seed: int
    board_w: float
    board_h: float
    yard: F64  # x0, y0, w, h (board mm; y0 is the bottom edge)
    spaces: dict[str, F64]  # kind -> x0, y0, w, h of its printed space
    art_seed: int
    yard_style: int
    table_style: int
    markers: tuple[_Marker, ...]
    cubes: tuple[_Cube, ...]
    cam_cal: _Cam
    cam_play: _Cam
    light_cal: _Lighting
    light_play: _Lighting
    light_change: str
    isp_cal: _Isp
    isp_play: _Isp
    hand: _Hand
    board_gloss: float
    board_ks: float
    noise_seeds: tuple[int, int]

    @property
    def counts(self) -> dict[str, int]:
        return {k: sum(1 for c in self.cubes if c.kind == k) for k in KINDS}


_PAINT = {
    "iron": (230.0, 108.0, 30.0),
    "stone": (148.0, 148.0, 143.0),
    "coal": (36.0, 35.0, 35.0),
    "event": (238.0, 235.0, 226.0),
}
_RAW_WOOD = _lin((214.0, 176.0, 126.0))


def _yard_layout(rng: np.random.Generator, yw: float, yh: float) -> dict[str, F64]:
    band = yh * rng.uniform(0.18, 0.24)
    gap = rng.uniform(4.0, 7.0)
    order = ["iron", "stone", "coal"]
    if rng.random() < 0.3:
        rng.shuffle(order)
    widths = np.array([1.25, 1.0, 0.8]) if rng.random() < 0.6 else np.ones(3)
    avail = yw - 4 * gap
    widths = widths / widths.sum() * avail
    spaces: dict[str, F64] = {}
    x = gap
    for k, wdt in zip(order, widths, strict=True):
        spaces[k] = np.array([x, gap, wdt, yh - band - 2 * gap])
        x += wdt + gap
    spaces["event"] = np.array([gap, gap, yw - 2 * gap, yh - band - 2 * gap])
    return spaces


def _box_corners(center: F64, rot: F64, size: float) -> F64:
    s = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=np.float64)
    return center + (s * size / 2) @ rot.T


def _overlap2d(a: F64, b: F64) -> bool:
    """Separating-axis test of two convex quads (4, 2)."""
    for poly in (a, b):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            ax = np.array([-e[1], e[0]])
            pa, pb = a @ ax, b @ ax
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return False
    return True


def _footprint(x: float, y: float, yaw: float, s: float) -> F64:
    c, sn = math.cos(yaw), math.sin(yaw)
    loc = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=np.float64) * s / 2
    return np.array([x, y]) + loc @ np.array([[c, sn], [-sn, c]])


def _place_cubes(rng: np.random.Generator, counts: dict[str, int], yard: F64, spaces: dict[str, F64],
                 box_size: float) -> list[_Cube]:
    placed: list[tuple[str, float, float, float, float, float]] = []  # kind, x, y, yaw, size, base height
    feet: list[F64] = []
    tops: list[F64] = []
    x0, y0, yw, yh = yard
    for kind in KINDS:
        n = counts[kind]
        if n == 0:
            continue
        sx, sy, sw, sh = spaces[kind]
        sx, sy = sx + x0, sy + y0
        mode = rng.choice(["rows", "heap", "loose"], p=[0.35, 0.4, 0.25])
        base_yaw = rng.uniform(0, math.pi / 2) if mode != "rows" else rng.normal(0, 0.08)
        mine: list[int] = []
        stack_budget = int(mode == "heap" and n >= 4) * rng.integers(0, 1 + n // 4)
        ground_n = n - stack_budget
        for _ in range(ground_n):
            s = box_size + rng.uniform(-0.15, 0.15)
            ok = False
            for attempt in range(80):
                if mine and (mode != "loose" or rng.random() < 0.4) and attempt < 60:
                    j = mine[int(rng.integers(len(mine)))]
                    _, px, py, pyaw, ps, _ = placed[j]
                    k = int(rng.integers(4)) if mode == "heap" else int(rng.choice([0, 2, 0, 2, 1, 3]))
                    ang = pyaw + k * math.pi / 2
                    yaw = pyaw + (rng.normal(0, 0.05) if mode == "rows" else rng.normal(0, 0.3))
                    lateral = rng.uniform(-0.3, 0.3) * s if mode == "heap" else rng.normal(0, 0.04) * s
                    dist = (s + ps) / 2 + rng.uniform(0.0, 0.25)
                    dx, dy = math.cos(ang), math.sin(ang)
                    x, y = px + dx * dist - dy * lateral, py + dy * dist + dx * lateral
                    for _push in range(12):
                        fp = _footprint(x, y, yaw, s)
                        if not any(_overlap2d(fp, g) for g in feet):
                            break
                        x, y = x + dx * 0.35, y + dy * 0.35
                else:
                    x, y = rng.uniform(sx + s, sx + sw - s), rng.uniform(sy + s, sy + sh - s)
                    yaw = base_yaw + rng.normal(0, 0.6 if mode == "loose" else 0.15)
                fp = _footprint(x, y, yaw, s)
                margin = 1.5
                inside = (fp[:, 0].min() > x0 + margin and fp[:, 0].max() < x0 + yw - margin
                          and fp[:, 1].min() > y0 + margin and fp[:, 1].max() < y0 + yh - margin)
                if inside and not any(_overlap2d(fp, g) for g in feet):
                    ok = True
                    break
            if not ok:
                continue
            feet.append(fp)
            mine.append(len(placed))
            placed.append((kind, x, y, yaw, s, 0.0))
        for _ in range(stack_budget):
            ground = [j for j in mine if placed[j][5] == 0]
            if not ground:
                break
            for _attempt in range(20):
                j = ground[int(rng.integers(len(ground)))]
                _, px, py, pyaw, ps, _ = placed[j]
                s = box_size + rng.uniform(-0.15, 0.15)
                x, y = px + rng.uniform(-0.2, 0.2) * ps, py + rng.uniform(-0.2, 0.2) * ps
                yaw = pyaw + rng.normal(0, 0.35)
                fp = _footprint(x, y, yaw, s)
                if not any(_overlap2d(fp, g) for g in tops):
                    tops.append(fp)
                    placed.append((kind, x, y, yaw, s, ps))
                    break
    cubes: list[_Cube] = []
    for kind, x, y, yaw, s, base in placed:
        level = int(base > 0)
        tilt = _rot(_unit(rng.normal(size=3) * np.array([1, 1, 0]) + 1e-9), rng.normal(0, 0.012 + 0.03 * level))
        rot = tilt @ _rot((0.0, 0.0, 1.0), yaw)
        zc = s / 2 + base
        paint = _lin(np.clip(np.array(_PAINT[kind]) + rng.normal(0, 4.0, 3) + rng.normal(0, 4.0), 0, 255))
        gloss = float(rng.uniform(10, 30) if kind != "coal" else rng.uniform(14, 40))
        cubes.append(_Cube(kind, np.array([x, y, zc]), rot, s, paint, gloss, float(0.8 * rng.uniform(0, 1) ** 3),
                           float(rng.uniform(0.35, 0.8)), int(rng.integers(3)), int(rng.integers(2**31)), level))
    return cubes


def _sample_counts(rng: np.random.Generator) -> dict[str, int]:
    if rng.random() < 0.075:
        return dict.fromkeys(KINDS, 0)
    total = int(np.clip(round(rng.gamma(3.2, 3.0)), 1, 20))
    p = np.array([0.5, 0.3, 0.13, 0.07])
    c = rng.multinomial(total, p)
    counts = {k: int(min(v, PIECE_LIMITS[k])) for k, v in zip(KINDS, c, strict=True)}
    return counts


def _sample_lighting(rng: np.random.Generator, centre: F64) -> tuple[_Lighting, _Lighting, str]:
    scen = rng.choice(["day", "day_lamp", "evening", "desk"], p=[0.3, 0.25, 0.25, 0.2])

    def window(temp: float, level: float) -> _Light:
        az = rng.uniform(0, 2 * math.pi)
        el = math.radians(rng.uniform(18, 50))
        vec = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el), math.sin(el)])
        grad = -vec[:2] / np.linalg.norm(vec[:2]) * rng.uniform(0.0004, 0.0015) * -1
        return _Light("dir", vec, _kelvin(temp), level / vec[2], math.radians(rng.uniform(8, 20)),
                      grad=grad, origin=centre.copy())

    def ceiling(temp: float, level: float) -> _Light:
        h = rng.uniform(1200, 1900)
        off = rng.uniform(0, 800)
        a = rng.uniform(0, 2 * math.pi)
        pos = centre + np.array([off * math.cos(a), off * math.sin(a), h])
        d = np.linalg.norm(pos - centre)
        return _Light("point", pos, _kelvin(temp), float(level * d**3 / h), rng.uniform(40, 150))

    def desk(temp: float, level: float) -> _Light:
        h = rng.uniform(320, 600)
        off = rng.uniform(200, 550)
        a = rng.uniform(0, 2 * math.pi)
        pos = centre + np.array([off * math.cos(a), off * math.sin(a), h])
        aim = centre + np.r_[rng.normal(0, 60, 2), 0.0]
        d = np.linalg.norm(pos - centre)
        half = math.radians(rng.uniform(35, 60))
        return _Light("point", pos, _kelvin(temp), float(level * d**3 / h), rng.uniform(15, 40),
                      spot_axis=_unit(aim - pos), spot_in=math.cos(half * 0.55), spot_out=math.cos(half))

    if scen == "day":
        t = rng.uniform(5200, 7500)
        lv = rng.uniform(450, 1800)
        lights = [window(t, lv)]
        amb = _kelvin(t + rng.uniform(500, 2500)) * lv * rng.uniform(0.3, 0.6)
        change = str(rng.choice(["lamp_on", "clouds", "evening"]))
    elif scen == "day_lamp":
        t = rng.uniform(5200, 7000)
        lv = rng.uniform(300, 1000)
        lights = [window(t, lv), ceiling(rng.uniform(2600, 3300), rng.uniform(120, 300))]
        amb = (_kelvin(t + 1000) * 0.6 + _kelvin(3000) * 0.4) * lv * rng.uniform(0.25, 0.5)
        change = str(rng.choice(["lamp_off", "clouds", "evening"]))
    elif scen == "evening":
        lv = rng.uniform(130, 380)
        lights = [ceiling(rng.uniform(2600, 3300), lv)]
        if rng.random() < 0.5:
            lights.append(window(rng.uniform(9000, 13000), lv * rng.uniform(0.1, 0.4)))
        amb = _kelvin(rng.uniform(2700, 3400)) * lv * rng.uniform(0.15, 0.35)
        change = str(rng.choice(["lamp_on", "dimmer", "evening"]))
    else:
        lv = rng.uniform(250, 800)
        lights = [desk(rng.uniform(2900, 4500), lv)]
        if rng.random() < 0.6:
            lights.append(ceiling(rng.uniform(2600, 3200), rng.uniform(60, 160)))
        amb = _kelvin(rng.uniform(2800, 3600)) * lv * rng.uniform(0.08, 0.2)
        change = str(rng.choice(["lamp_off", "dimmer"]))

    cal = list(lights)
    play = list(lights)
    amb_play = amb.copy()
    if change in ("lamp_on", "lamp_off"):
        if change == "lamp_off" and len(lights) > 1:
            play = play[:-1]
        else:
            extra = ceiling(rng.uniform(2600, 3200), rng.uniform(120, 350)) if rng.random() < 0.6 else \
                desk(rng.uniform(2900, 4200), rng.uniform(250, 600))
            if change == "lamp_on":
                play = play + [extra]
            else:
                cal = cal + [extra]
    elif change == "clouds":
        k = rng.uniform(0.45, 1.6)
        play = [replace(li, power=li.power * k) if li.kind == "dir" else li for li in play]
        amb_play = amb_play * rng.uniform(0.6, 1.3)
    elif change == "evening":
        k = rng.uniform(0.2, 0.6)
        play = [replace(li, power=li.power * k, rgb=_kelvin(rng.uniform(7500, 11000))) if li.kind == "dir" else li
                for li in play]
        amb_play = amb_play * k * np.array([0.9, 1.0, 1.15])
        if rng.random() < 0.6:
            play.append(ceiling(rng.uniform(2600, 3200), rng.uniform(100, 300)))
    else:
        k = rng.uniform(0.55, 1.45)
        play = [replace(li, power=li.power * k) if li.kind == "point" else li for li in play]
        amb_play = amb_play * (0.5 + 0.5 * k)
    play = [replace(li, power=li.power * rng.uniform(0.9, 1.1)) for li in play]
    cal = [replace(li, power=li.power * rng.uniform(0.9, 1.1)) for li in cal]
    return _Lighting(tuple(cal), amb), _Lighting(tuple(play), amb_play), change


def _sample_isp(rng: np.random.Generator, height: float, base: _Isp | None = None) -> _Isp:
    if base is None:
        if rng.random() < 0.5:  # autofocus module
            blur = rng.uniform(0.4, 0.75)
        else:  # fixed-focus module focused far away: the closer, the softer
            blur = 0.5 + 0.9 * float(np.clip((650 - height) / 300, 0, 1)) + abs(rng.normal(0, 0.12))
        m = np.array([[0.78, 0.18, 0.04], [0.12, 0.78, 0.10], [0.03, 0.2, 0.77]]) + rng.normal(0, 0.02, (3, 3))
        m = m / m.sum(axis=1, keepdims=True)
        return _Isp(
            blur=float(blur), ca=float(rng.uniform(0.0, 0.0014)), vig=float(rng.uniform(0.25, 0.5)),
            lsc_err=rng.normal(0, 0.05, 3), m_cam=m, sens=np.array([0.62, 1.0, 0.78]) * rng.uniform(0.93, 1.07, 3),
            ccm_err=rng.normal(0, 0.025, (3, 3)), sat=float(rng.uniform(1.0, 1.15)),
            ae_target=float(rng.uniform(0.14, 0.19)), awb_w=float(rng.uniform(0.45, 0.8)),
            awb_kappa=float(rng.uniform(0.75, 0.95)), awb_err=rng.normal(0, 0.02, 3),
            full_well=float(rng.uniform(3000, 5000)), read_e=float(rng.uniform(2.0, 4.0)),
            denoise=float(rng.uniform(0.5, 1.0)), contrast=float(rng.uniform(0.1, 0.35)),
            shoulder=float(rng.uniform(0.75, 0.9)), sharpen=float(rng.uniform(0.3, 0.9)),
            sharpen_sigma=float(rng.uniform(0.9, 1.5)), jpeg_q=int(rng.integers(75, 95)))
    # the play frame: same camera module, the auto algorithms and focus drift a little
    return replace(base, blur=float(np.clip(base.blur + rng.normal(0, 0.08), 0.4, 1.5)),
                   ae_target=float(base.ae_target * rng.uniform(0.93, 1.07)), awb_err=rng.normal(0, 0.02, 3),
                   jpeg_q=int(np.clip(base.jpeg_q + rng.integers(-3, 4), 70, 95)))


def _mild(isp: _Isp, level: int) -> _Isp:
    if level == 0:
        return isp
    k = 0.6 if level == 1 else 0.3
    return replace(isp, blur=isp.blur * k, ca=isp.ca * k, full_well=isp.full_well * (3 if level == 1 else 8),
                   jpeg_q=max(isp.jpeg_q, 90 if level == 1 else 95), sharpen=isp.sharpen * k)


def _sample_hand(rng: np.random.Generator, cam: _Cam, cubes: tuple[_Cube, ...], yard: F64) -> _Hand:
    if cubes:
        cube = cubes[int(rng.integers(len(cubes)))]
        tgt = cube.center.copy()
        tgt[2] = cube.center[2] + cube.size / 2
    else:
        tgt = np.array([yard[0] + rng.uniform(0.2, 0.8) * yard[2], yard[1] + rng.uniform(0.2, 0.8) * yard[3], 0.0])
    h_tip = tgt[2] + rng.uniform(20, 90)
    t = (h_tip - tgt[2]) / max(cam.c[2] - tgt[2], 1.0)
    tip = tgt + t * (cam.c - tgt)  # on the camera ray through the target: the fingers cover it
    az = rng.uniform(0, 2 * math.pi)
    fwd = np.array([math.cos(az), math.sin(az), 0.0])
    side = np.array([-fwd[1], fwd[0], 0.0])
    up = np.array([0.0, 0.0, 1.0])
    scale = rng.uniform(0.88, 1.1)
    right = rng.random() < 0.85

    def back(p: F64, length: float, pitch_deg: float) -> F64:
        pitch = math.radians(pitch_deg)
        return p - fwd * length * math.cos(pitch) + up * length * math.sin(pitch)

    finger_len = 78 * scale
    knuck = back(tip, finger_len * 0.8, rng.uniform(20, 50))
    wrist = back(knuck, 85 * scale, rng.uniform(5, 25))
    elbow = back(wrist, 250 * scale, rng.uniform(10, 30))
    upper_top = back(elbow, 280 * scale, rng.uniform(45, 70))
    ceiling_z = cam.c[2] - 70
    if upper_top[2] > ceiling_z:
        k = max((ceiling_z - elbow[2]) / max(upper_top[2] - elbow[2], 1e-6), 0.0)
        upper_top = elbow + (upper_top - elbow) * k
    caps: list[_Capsule] = []
    sleeve = rng.random() < 0.65
    cut = rng.uniform(0.3, 0.95)
    mid = wrist + (elbow - wrist) * 0.5
    caps.append(_Capsule(wrist, mid, 26 * scale, 0))  # a sleeve, if any, reaches from the elbow to 'cut'
    caps.append(_Capsule(mid, elbow, 34 * scale, 1 if sleeve else 0))
    if sleeve and cut > 0.5:
        caps.append(_Capsule(wrist + (elbow - wrist) * (1 - cut), mid, 33 * scale, 1))
    if np.linalg.norm(upper_top - elbow) > 20:
        caps.append(_Capsule(elbow, upper_top, 42 * scale, 1 if sleeve else 0))
    for o in (-17.0, 0.0, 17.0):
        caps.append(_Capsule(wrist + side * o * 0.7 * scale, knuck + side * o * scale, 14 * scale, 0))
    pose = str(rng.choice(["reach", "pinch", "point"], p=[0.45, 0.35, 0.2]))
    tside = side if right else -side  # palm down: a right hand has its thumb on the left
    fingers = ((27.0, 0.92, 8.6), (9.0, 1.0, 8.4), (-9.0, 0.95, 8.0), (-27.0, 0.78, 7.2))  # index .. little
    for i, (o, lf, rf) in enumerate(fingers):
        spread = tside * o * scale * rng.uniform(0.95, 1.1)
        k0 = knuck + spread
        ln = finger_len * lf * rng.uniform(0.95, 1.05)
        if pose == "reach":
            aim, b1, b2 = tip + spread * rng.uniform(1.0, 1.3), rng.uniform(0, 15), rng.uniform(5, 30)
        elif pose == "pinch":
            aim, b1, b2 = tip + spread * 0.3, rng.uniform(10, 30), rng.uniform(25, 50)
        elif i == 0:
            aim, b1, b2 = tip, rng.uniform(0, 8), rng.uniform(0, 12)
        else:
            aim, b1, b2 = tip + spread, rng.uniform(55, 75), rng.uniform(70, 100)
        d1 = _rot(side, math.radians(b1)) @ _unit(aim - k0)
        j1 = k0 + d1 * ln * 0.5
        j2 = j1 + (_rot(side, math.radians(b2)) @ d1) * ln * 0.5
        caps.append(_Capsule(k0, j1, rf * scale, 0))
        caps.append(_Capsule(j1, j2, rf * 0.9 * scale, 0))
    t0 = wrist + fwd * 22 * scale + tside * 28 * scale - up * 6
    tdir = _unit(tip - t0) if pose == "pinch" else _unit(fwd * 0.8 + tside * 0.5 - up * 0.35)
    t1 = t0 + tdir * 38 * scale
    t2 = t1 + _unit(tdir + fwd * 0.3 - tside * 0.3 - up * 0.2) * 30 * scale
    caps.append(_Capsule(t0, t1, 10.5 * scale, 0))
    caps.append(_Capsule(t1, t2, 9.0 * scale, 0))
    tones = [(226, 178, 146), (205, 150, 115), (180, 125, 90), (140, 95, 68), (96, 64, 46)]
    skin = _lin(np.array(tones[int(rng.integers(len(tones)))], dtype=np.float64) + rng.normal(0, 5, 3))
    sleeves = [(40, 50, 90), (120, 120, 125), (150, 40, 40), (40, 90, 60), (230, 228, 220), (30, 30, 32),
               (170, 140, 100), (70, 110, 160)]
    sl = _lin(np.array(sleeves[int(rng.integers(len(sleeves)))], dtype=np.float64))
    return _Hand(tuple(caps), skin, sl, float(rng.uniform(0, 9)), float(rng.uniform(0, math.pi)))


def _frame_fits(cam: _Cam, pts: F64, margin: float) -> bool:
    uv, z = cam.project(pts)
    return bool(np.all(z > 50) and np.all(uv[:, 0] > margin) and np.all(uv[:, 0] < IMG_W - margin)
                and np.all(uv[:, 1] > margin) and np.all(uv[:, 1] < IMG_H - margin))


def _marker_paper(m: _Marker) -> F64:
    half = m.size / 2 + m.margin
    loc = np.array([[-half, half], [half, half], [half, -half], [-half, -half]]) + m.cut
    c, s = math.cos(m.angle), math.sin(m.angle)
    return m.center + loc @ np.array([[c, s], [-s, c]])


@lru_cache(maxsize=64)
def fifth_scene(seed: int) -> FifthScene:
    """The scene description for a seed (cubes, markers, cameras, lights, pipeline, hand)."""
    rng = np.random.default_rng(np.random.SeedSequence([0x5F1F7, int(seed)]))
    bw, bh = rng.uniform(560, 680), rng.uniform(400, 480)
    yw, yh = rng.uniform(150, 175), rng.uniform(100, 120)
    msize = rng.uniform(32, 44)
    mmargin = rng.uniform(4, 8)
    reach = msize + 2 * mmargin + 40
    yx = rng.uniform(reach, bw - yw - reach)
    yy = rng.uniform(reach, bh - yh - reach)
    yard = np.array([yx, yy, yw, yh])
    spaces = _yard_layout(rng, yw, yh)
    markers = []
    corners = {0: (yx, yy + yh, -1, 1), 1: (yx + yw, yy + yh, 1, 1), 2: (yx + yw, yy, 1, -1), 3: (yx, yy, -1, -1)}
    for mid in range(4):
        cx_, cy_, sx, sy = corners[mid]
        off = (msize / 2 + mmargin) * rng.uniform(0.85, 1.25)
        centre = np.array([cx_ + sx * off, cy_ + sy * off]) + rng.normal(0, 2.5, 2)
        white = _lin(np.array([244.0, 244.0, 240.0]) + rng.normal(0, 3, 3)) * rng.uniform(0.92, 1.0)
        markers.append(_Marker(mid, centre, float(rng.normal(0, math.radians(4))), msize, mmargin,
                               rng.normal(0, 1.0, (4, 2)), float(rng.uniform(0, 2.5) * (rng.random() < 0.7)),
                               int(rng.integers(2)), float(_lin((rng.uniform(28, 55),) * 3)[0]), white))
    counts = _sample_counts(rng)
    box_size = rng.uniform(7.7, 8.3)
    cubes = tuple(_place_cubes(rng, counts, yard, spaces, box_size))
    centre = np.array([yx + yw / 2, yy + yh / 2, 0.0])
    light_cal, light_play, change = _sample_lighting(rng, centre)

    pts = [np.r_[p, 0.0] for m in markers for p in _marker_paper(m)]
    frame_pts = np.array(pts)
    cam_cal = cam_play = None
    for attempt in range(60):
        f = rng.uniform(950, 1150)
        height = (rng.uniform(350, 700) if rng.random() < 0.4 else rng.uniform(350, 540)) if attempt < 40 else \
            rng.uniform(600, 700)
        tilt = math.radians(rng.uniform(0, 25))
        roll = math.radians(rng.choice([0, 90, 180, 270]) + rng.normal(0, 10)) if rng.random() < 0.6 else \
            rng.uniform(0, 2 * math.pi)
        aim = centre + np.r_[rng.normal(0, 25, 2), 0.0]
        cc = _look_camera(aim, height, tilt, rng.uniform(0, 2 * math.pi), roll, f,
                          IMG_W / 2 + rng.normal(0, 8), IMG_H / 2 + rng.normal(0, 8), rng.uniform(0.0, 0.07))
        cp = _nudge(cc, rng)
        if _frame_fits(cc, frame_pts, 30) and _frame_fits(cp, frame_pts, 30):
            cam_cal, cam_play = cc, cp
            break
    if cam_cal is None or cam_play is None:
        cam_cal = _look_camera(centre, 700.0, 0.0, 0.0, 0.0, 1000.0, IMG_W / 2, IMG_H / 2, 0.02)
        cam_play = _nudge(cam_cal, rng)
    isp_cal = _sample_isp(rng, float(cam_cal.c[2]))
    isp_play = _sample_isp(rng, float(cam_cal.c[2]), isp_cal)
    flick = [rng.random() < 0.2 and any(li.kind == "point" for li in lt.lights) for lt in (light_cal, light_play)]
    period, phase = rng.uniform(90, 260), rng.uniform(0, 2 * math.pi)
    isp_cal = replace(isp_cal, flicker=float(rng.uniform(0.01, 0.035)) * flick[0], flicker_period=period,
                      flicker_phase=phase)
    isp_play = replace(isp_play, flicker=float(rng.uniform(0.01, 0.035)) * flick[1], flicker_period=period,
                       flicker_phase=float(rng.uniform(0, 2 * math.pi)))
    hand = _sample_hand(rng, cam_play, cubes, yard)
    return FifthScene(
        seed=int(seed), board_w=bw, board_h=bh, yard=yard, spaces=spaces, art_seed=int(rng.integers(2**31)),
        yard_style=int(rng.integers(5)), table_style=int(rng.integers(5)), markers=tuple(markers), cubes=cubes,
        cam_cal=cam_cal, cam_play=cam_play, light_cal=light_cal, light_play=light_play, light_change=change,
        isp_cal=isp_cal, isp_play=isp_play, hand=hand, board_gloss=float(rng.uniform(5, 14)),
        board_ks=float(rng.uniform(0.3, 0.9)), noise_seeds=(int(rng.integers(2**31)), int(rng.integers(2**31))))


# ---------------------------------------------------------------------------------------------- artwork


def _srgb_u8(rgb: tuple[float, float, float] | F64) -> tuple[int, int, int]:
    c = np.clip(np.asarray(rgb, dtype=np.float64), 0, 255)
    return int(c[0]), int(c[1]), int(c[2])


class _Canvas:
    """An sRGB drawing surface in board millimetres (x right, y up)."""

    def __init__(self, x0: float, y0: float, x1: float, y1: float, ppm: float) -> None:
        self.x0, self.y1, self.ppm = x0, y1, ppm
        self.w = int(math.ceil((x1 - x0) * ppm))
        self.h = int(math.ceil((y1 - y0) * ppm))
        self.img = np.zeros((self.h, self.w, 3), np.uint8)

    def px(self, pts: F64) -> F64:
        p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
        return np.stack([(p[:, 0] - self.x0) * self.ppm - 0.5, (self.y1 - p[:, 1]) * self.ppm - 0.5], axis=1)

    def ipx(self, pts: F64) -> NDArray[np.int32]:
        return np.round(self.px(pts) * 16).astype(np.int32)

    def lw(self, mm: float) -> int:
        return max(1, round(mm * self.ppm))

    def poly(self, pts: F64, fill: tuple[int, int, int] | None, line: tuple[int, int, int] | None = None,
             width: float = 0.35, closed: bool = True) -> None:
        ip = self.ipx(pts)
        if fill is not None:
            cv2.fillPoly(self.img, [ip], fill, cv2.LINE_AA, 4)
        if line is not None:
            cv2.polylines(self.img, [ip], closed, line, self.lw(width), cv2.LINE_AA, 4)

    def rrect(self, x: float, y: float, w: float, h: float, r: float, fill: tuple[int, int, int] | None,
              line: tuple[int, int, int] | None = None, width: float = 0.4) -> None:
        r = min(r, w / 2, h / 2)
        pts = []
        arcs = ((x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180), (x + w - r, y + r, 270))
        for cx, cy, a0 in arcs:
            for a in np.radians(np.linspace(a0, a0 + 90, 7)):
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        self.poly(np.array(pts), fill, line, width)

    def circle(self, x: float, y: float, r: float, fill: tuple[int, int, int] | None,
               line: tuple[int, int, int] | None = None, width: float = 0.4) -> None:
        a = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        self.poly(np.stack([x + r * np.cos(a), y + r * np.sin(a)], axis=1), fill, line, width)

    def text(self, s: str, x: float, y: float, h_mm: float, color: tuple[int, int, int], font: int = 0,
             centre: bool = True) -> None:
        fonts = (cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX)
        fnt = fonts[font % len(fonts)]
        (tw, th), _ = cv2.getTextSize(s, fnt, 1.0, 1)
        scale = h_mm * self.ppm / max(th, 1)
        thick = max(1, round(scale * 1.6))
        p = self.px(np.array([[x, y]]))[0]
        if centre:
            p = p + np.array([-tw * scale / 2, th * scale / 2])
        cv2.putText(self.img, s, (int(p[0]), int(p[1])), fnt, scale, color, thick, cv2.LINE_AA)

    def cube_icon(self, x: float, y: float, s: float, rgb: tuple[float, float, float]) -> None:
        c = np.array(rgb)
        top = np.array([[x, y + s * 0.5], [x + s * 0.5, y + s * 0.25], [x, y], [x - s * 0.5, y + s * 0.25]])
        left = np.array([[x - s * 0.5, y + s * 0.25], [x, y], [x, y - s * 0.55], [x - s * 0.5, y - s * 0.3]])
        right = np.array([[x + s * 0.5, y + s * 0.25], [x, y], [x, y - s * 0.55], [x + s * 0.5, y - s * 0.3]])
        ink = (35, 28, 24)
        self.poly(top, _srgb_u8(np.minimum(c * 1.15 + 12, 255)), ink, 0.25)
        self.poly(left, _srgb_u8(c * 0.85), ink, 0.25)
        self.poly(right, _srgb_u8(c * 0.62), ink, 0.25)


_STATIONS = ("LLANBERIS", "HEBRON", "HALFWAY", "CLOGWYN", "YR WYDDFA", "WATERFALL", "ROCKY VALLEY", "TWO VIADUCTS")


def _noise(rng: np.random.Generator, h: int, w: int, cells: tuple[int, int]) -> F32:
    g = rng.random((max(cells[1], 2) + 3, max(cells[0], 2) + 3)).astype(np.float32)
    big = cv2.resize(g, (w + 2 * w // max(cells[0], 2), h + 2 * h // max(cells[1], 2)), interpolation=cv2.INTER_CUBIC)
    oy, ox = h // max(cells[1], 2), w // max(cells[0], 2)
    return np.ascontiguousarray(big[oy:oy + h, ox:ox + w])


@dataclass(frozen=True)
class _Art:
    levels: tuple[F32, ...]  # linear albedo mip levels
    x0: float
    y1: float
    ppm: float


def _visible_region(scene: FifthScene) -> tuple[float, float, float, float]:
    xs: list[float] = []
    ys: list[float] = []
    centre = scene.yard[:2] + scene.yard[2:] / 2
    for cam in (scene.cam_cal, scene.cam_play):
        x, y, _ = cam.board(8)
        for arr, out, c in ((x, xs, centre[0]), (y, ys, centre[1])):
            a = np.clip(arr, c - 1100, c + 1100)
            out.extend([float(a.min()), float(a.max())])
    return min(xs) - 25, min(ys) - 25, max(xs) + 25, max(ys) + 25


@lru_cache(maxsize=8)
def _artwork(seed: int) -> _Art:
    scene = fifth_scene(seed)
    rng = np.random.default_rng(scene.art_seed)
    x0, y0, x1, y1 = _visible_region(scene)
    density = scene.cam_cal.f / scene.cam_cal.c[2]
    ppm = float(np.clip(1.3 * density, 1.3, 4.0))
    ppm = min(ppm, math.sqrt(3.2e6 / ((x1 - x0) * (y1 - y0))))
    cv = _Canvas(x0, y0, x1, y1, ppm)
    h, w = cv.h, cv.w
    # table
    tables = [(150, 108, 70), (92, 60, 40), (226, 224, 218), (52, 96, 70), (128, 128, 124)]
    tb = np.array(tables[scene.table_style], dtype=np.float32) + rng.normal(0, 6, 3).astype(np.float32)
    ga = rng.uniform(0, math.pi)
    h2, w2 = max(h // 2, 8), max(w // 2, 8)
    yy, xx = np.mgrid[0:h2, 0:w2].astype(np.float32)
    across = (xx * math.cos(ga) + yy * math.sin(ga)) / (ppm / 2)
    prof = np.cumsum(rng.normal(0, 1, 4096)).astype(np.float32)
    prof = _f32(cv2.GaussianBlur(prof.reshape(1, -1), (0, 0), 3)).ravel()
    prof = (prof - prof.mean()) / (prof.std() + 1e-6)
    grain = np.interp(across.ravel() * 0.8 % 4000, np.arange(4096), prof).reshape(across.shape).astype(np.float32)
    grain_amp = 0.08 if scene.table_style in (0, 1) else 0.02
    tex = 1 + grain_amp * grain + 0.05 * (_noise(rng, h2, w2, (max(2, w // 200), max(2, h // 200))) - 0.5)
    # board terrain
    bw, bh = scene.board_w, scene.board_h
    bmask2 = np.zeros((h2, w2), np.uint8)
    corners = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]])
    cv2.fillPoly(bmask2, [np.round(cv.px(corners) * 8).astype(np.int32)], 255, cv2.LINE_AA, 4)
    shadow = cv2.GaussianBlur(bmask2, (0, 0), max(1.0, 1.5 * ppm)).astype(np.float32) / 255.0
    table = (tex * (1 - 0.35 * shadow))[..., None] * tb
    cv.img[:] = cv2.resize(np.clip(table, 0, 255).astype(np.uint8), (w, h))
    swatches = np.array([(78, 110, 62), (128, 150, 80), (104, 132, 66), (160, 138, 96), (132, 112, 80),
                         (120, 126, 126), (96, 104, 108), (176, 164, 122)], dtype=np.float32)
    pick = rng.choice(len(swatches), 4, replace=False)
    pal = swatches[pick] + rng.normal(0, 6, (4, 3)).astype(np.float32)
    hq, wq = h2, w2

    def cells(mm: float) -> tuple[int, int]:
        return max(2, int((x1 - x0) / mm)), max(2, int((y1 - y0) / mm))

    n1 = _noise(rng, hq, wq, cells(90))
    n2 = _noise(rng, hq, wq, cells(25))
    t = n1 + 0.35 * n2
    q = np.quantile(t[::4, ::4], [0.3, 0.55, 0.8])
    band = (t > q[0]).astype(np.uint8) + (t > q[1]).astype(np.uint8) + (t > q[2]).astype(np.uint8)
    # painted texture: blotches at several scales, brush streaks, a little hue drift
    n3 = _noise(rng, hq, wq, cells(9))
    n4 = _noise(rng, hq // 2, wq // 2, cells(3))
    streak_dir = rng.uniform(0, math.pi)
    ln = max(3, int(6 * ppm / 2))
    ker = np.zeros((2 * ln + 1, 2 * ln + 1), np.float32)
    cv2.line(ker, (int(ln - ln * math.cos(streak_dir)), int(ln - ln * math.sin(streak_dir))),
             (int(ln + ln * math.cos(streak_dir)), int(ln + ln * math.sin(streak_dir))), 1.0, 1)
    streak = cv2.filter2D(rng.random((hq, wq)).astype(np.float32), -1, ker / ker.sum())
    streak = (streak - streak.mean()) / (streak.std() + 1e-6)
    lum = (1 + 0.16 * (n2 - 0.5) + 0.14 * (n3 - 0.5) + 0.1 * (cv2.resize(n4, (wq, hq)) - 0.5) + 0.035 * streak)
    hue = (n3 - 0.5)[..., None] * np.array([0.08, -0.03, -0.06], np.float32)
    terr = pal[band] * (lum[..., None] + hue)
    edge = cv2.morphologyEx(band, cv2.MORPH_GRADIENT, np.ones((2, 2), np.uint8)) > 0
    terr[edge] = terr[edge] * 0.5
    terr_full = cv2.resize(np.clip(terr, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    bmask = np.zeros((h, w), np.uint8)
    cv2.fillPoly(bmask, [cv.ipx(corners)], 255, cv2.LINE_AA, 4)
    af = bmask.astype(np.float32) / 255.0
    cv.img[:] = cv2.blendLinear(terr_full, cv.img, af, 1 - af)
    greenish = [k for k in range(4) if pal[k, 1] > pal[k, 0] + 8]
    for _ in range(int(rng.integers(60, 260))):  # bushes and trees in green areas
        tx, ty = rng.uniform(5, scene.board_w - 5), rng.uniform(5, scene.board_h - 5)
        c = cv.px(np.array([[tx, ty]]))[0]
        ci, ri = int(c[0] / 2), int(c[1] / 2)
        if not (0 <= ri < hq and 0 <= ci < wq) or int(band[ri, ci]) not in greenish:
            continue
        r = rng.uniform(1.5, 4.5)
        dark = pal[int(band[ri, ci])] * rng.uniform(0.5, 0.7)
        cv.circle(tx, ty, r, _srgb_u8(dark), _srgb_u8(dark * 0.6), 0.3)
        cv.circle(tx - r * 0.3, ty + r * 0.3, r * 0.45, _srgb_u8(np.minimum(dark * 1.6, 255)))
    ink = (38, 30, 26)
    yx, yy0, yw, yh = scene.yard
    keep = (yx - 50, yy0 - 50, yx + yw + 50, yy0 + yh + 50)

    def clear(x: float, y: float, r: float) -> bool:
        return not (keep[0] - r < x < keep[2] + r and keep[1] - r < y < keep[3] + r)

    # mountains
    for _ in range(int(rng.integers(3, 8))):
        mx, my = rng.uniform(0, bw), rng.uniform(0, bh)
        mw = rng.uniform(60, 180)
        xs = np.linspace(mx - mw / 2, mx + mw / 2, int(rng.integers(6, 12)))
        tops = my + np.abs(rng.normal(0, 1, len(xs))) * mw * 0.25 * np.sin(np.linspace(0, math.pi, len(xs)))
        pts = np.concatenate([np.stack([xs, tops], 1), [[mx + mw / 2, my], [mx - mw / 2, my]]])
        col = _srgb_u8(np.array([(118, 124, 122), (96, 104, 112), (140, 138, 126)][int(rng.integers(3))]) +
                       rng.normal(0, 6, 3))
        cv.poly(pts, col, ink, 0.35)
        for k in range(1, len(xs) - 1, 2):
            cv.poly(np.array([[xs[k], tops[k]], [xs[k] + mw * 0.05, my + (tops[k] - my) * 0.3]]), None,
                    _srgb_u8((200, 200, 196)), 0.5, closed=False)
    # railway
    ctrl = np.stack([np.linspace(-20, bw + 20, 6), rng.uniform(0.1, 0.9, 6) * bh], axis=1)
    tt = np.linspace(0, 1, 120)
    path = np.stack([np.interp(tt, np.linspace(0, 1, 6), ctrl[:, 0]), np.interp(tt, np.linspace(0, 1, 6), ctrl[:, 1])],
                    axis=1)
    path = np.asarray(cv2.GaussianBlur(path.reshape(-1, 1, 2), (1, 0), 4), dtype=np.float64).reshape(-1, 2)
    seg = np.diff(path, axis=0)
    nrm = _unit(np.stack([-seg[:, 1], seg[:, 0]], axis=1))
    step = 0
    for i in range(len(seg)):
        step += 1
        if step % 2 == 0:
            c = path[i]
            cv.poly(np.array([c - nrm[i] * 5, c + nrm[i] * 5]), None, _srgb_u8((96, 70, 48)), 1.2, closed=False)
    for side in (-2.6, 2.6):
        cv.poly(path[:-1] + nrm * side, None, _srgb_u8((70, 70, 74)), 0.6, closed=False)
    # action panels
    cube_rgb = {k: np.array(_PAINT[k]) for k in KINDS}
    parch = [(228, 212, 172), (214, 196, 150), (236, 226, 196), (200, 184, 150)]
    for _ in range(int(rng.integers(5, 10))):
        pw_, ph_ = rng.uniform(60, 140), rng.uniform(32, 70)
        px_, py_ = rng.uniform(0, bw - pw_), rng.uniform(0, bh - ph_)
        if not clear(px_ + pw_ / 2, py_ + ph_ / 2, max(pw_, ph_) / 2):
            continue
        fill = _srgb_u8(np.array(parch[int(rng.integers(len(parch)))]) + rng.normal(0, 5, 3))
        cv.rrect(px_, py_, pw_, ph_, rng.uniform(2, 6), fill, ink, 0.5)
        cv.text("ABCDEFG"[int(rng.integers(7))], px_ + 7, py_ + ph_ - 7, 6, ink, int(rng.integers(4)))
        nspots = int(rng.integers(2, 5))
        for k in range(nspots):
            cxs = px_ + pw_ * (k + 1) / (nspots + 1)
            cv.circle(cxs, py_ + ph_ * 0.45, 7, _srgb_u8((245, 240, 225)), ink, 0.4)
            cv.text(str(k + 1), cxs, py_ + ph_ * 0.45, 5, ink, 0)
        for k in range(int(rng.integers(0, 4))):
            kind = KINDS[int(rng.integers(4))]
            cv.cube_icon(px_ + pw_ * rng.uniform(0.15, 0.85), py_ + ph_ * 0.12 + k, rng.uniform(6, 10),
                         tuple(cube_rgb[kind]))
        if rng.random() < 0.4:
            wcol = [(236, 200, 40), (60, 110, 200), (150, 150, 150)][int(rng.integers(3))]
            cv.circle(px_ + pw_ - 10, py_ + ph_ - 10, 6, _srgb_u8(wcol), ink, 0.3)
    # event track
    ex, ey = rng.uniform(20, bw - 180), rng.uniform(20, bh - 30)
    if clear(ex + 80, ey + 8, 90):
        for k in range(10):
            cv.rrect(ex + k * 16, ey, 14, 14, 2, _srgb_u8((222, 214, 190)), ink, 0.4)
            if rng.random() < 0.35:
                cv.cube_icon(ex + k * 16 + 7, ey + 6, 8, tuple(cube_rgb["event"]))
    for _ in range(int(rng.integers(3, 7))):
        tx, ty = rng.uniform(40, bw - 40), rng.uniform(10, bh - 10)
        if clear(tx, ty, 50):
            name = _STATIONS[int(rng.integers(len(_STATIONS)))]
            cv.text(name, tx, ty, rng.uniform(3.5, 6), ink, int(rng.integers(4)))
    # the stock yard panel
    styles = [((226, 210, 168), (238, 226, 194)), ((104, 114, 120), (132, 138, 140)), ((146, 104, 66), (172, 132, 88)),
              ((158, 152, 138), (186, 178, 160)), ((112, 138, 76), (226, 214, 178))]
    yfill, sfill = styles[scene.yard_style]
    cv.rrect(yx - 2, yy0 - 2, yw + 4, yh + 4, 4, _srgb_u8(yfill), ink, 0.8)
    if scene.yard_style == 2:
        for k in range(1, int(yh // 11)):
            cv.poly(np.array([[yx, yy0 + k * 11], [yx + yw, yy0 + k * 11]]), None, _srgb_u8((104, 72, 44)), 0.4,
                    closed=False)
    if scene.yard_style == 3:
        for _ in range(int(yw * yh / 14)):
            gx, gy = rng.uniform(yx, yx + yw), rng.uniform(yy0, yy0 + yh)
            g = rng.choice([70.0, 120.0, 190.0, 225.0])
            cv.circle(gx, gy, rng.uniform(0.4, 1.4), _srgb_u8(np.array([g, g * 0.97, g * 0.92])))
    band_y = yy0 + scene.spaces["iron"][1] + scene.spaces["iron"][3]
    band_h = yy0 + yh - band_y
    cv.rrect(yx + 2, band_y + 1.5, yw - 4, band_h - 3, 2, _srgb_u8(np.array(yfill) * 0.8), ink, 0.4)
    cv.text("STOCK YARD", yx + yw * 0.42, band_y + band_h / 2, min(6.0, band_h * 0.4), _srgb_u8((245, 238, 220)),
            int(rng.integers(4)))
    cv.circle(yx + 9, band_y + band_h / 2, min(6.0, band_h * 0.35), _srgb_u8((245, 238, 220)), ink, 0.4)
    cv.text("A", yx + 9, band_y + band_h / 2, min(5.0, band_h * 0.3), ink, 0)
    for k in range(3):
        cxs = yx + yw * 0.74 + k * 13
        cv.circle(cxs, band_y + band_h / 2, min(5.5, band_h * 0.33), _srgb_u8((250, 246, 232)), ink, 0.4)
        cv.text(str(k + 1), cxs, band_y + band_h / 2, 3.5, ink, 0)
    names = {"iron": "IRON ORE", "stone": "STONE", "coal": "COAL"}
    for kind in ("iron", "stone", "coal"):
        sx, sy, sw, sh = scene.spaces[kind]
        sx, sy = sx + yx, sy + yy0
        cv.rrect(sx, sy, sw, sh, 3, _srgb_u8(np.array(sfill) + rng.normal(0, 4, 3)), ink, 0.5)
        cv.text(names[kind], sx + sw / 2, sy + sh - 5, 3.6, ink, int(rng.integers(4)))
        for k in range(int(rng.integers(1, 4))):
            cv.cube_icon(sx + 8 + k * 11, sy + sh - 14, rng.uniform(7, 10), tuple(cube_rgb[kind]))
        if rng.random() < 0.5:
            cv.cube_icon(sx + sw - 10, sy + 9, 9, tuple(cube_rgb[kind]))
    # fold creases of the board: a dark groove beside a worn light line
    folds_x = [bw / 2] + ([bw / 4, 3 * bw / 4] if rng.random() < 0.3 else [])
    img_f = cv.img.astype(np.float32)
    for fx in folds_x:
        c = int(round((fx - x0) * ppm))
        r0, r1 = int(max((y1 - bh) * ppm, 0)), int(min(y1 * ppm, h))
        if 1 <= c < w - 2 and r1 > r0:
            img_f[r0:r1, c - 1:c] *= 0.78
            img_f[r0:r1, c:c + 1] += (255 - img_f[r0:r1, c:c + 1]) * 0.35
    r = int(round((y1 - bh / 2) * ppm))
    c0, c1 = int(max(-x0 * ppm, 0)), int(min((bw - x0) * ppm, w))
    if 1 <= r < h - 2 and c1 > c0:
        img_f[r - 1:r, c0:c1] *= 0.78
        img_f[r:r + 1, c0:c1] += (255 - img_f[r:r + 1, c0:c1]) * 0.35
    cv.img[:] = np.clip(img_f, 0, 255).astype(np.uint8)
    # print to linear albedo with paper fibre and ink density variation
    lut = _lin(np.arange(256.0)).astype(np.float32)
    lin = _f32(cv2.LUT(cv.img, lut))
    fib = rng.normal(0, 0.025, (h2, w2)).astype(np.float32)
    dens = _f32(cv2.resize(_noise(rng, hq, wq, (max(2, w // 300), max(2, h // 300))), (w2, h2)))
    fac = 0.92 * (1 + fib + 0.06 * (dens - 0.5))
    lin *= _f32(cv2.resize(fac, (w, h)))[..., None]
    np.clip(lin, 0.003, 0.95, out=lin)
    l1 = _f32(cv2.pyrDown(lin))
    l2 = _f32(cv2.pyrDown(l1))
    return _Art((lin, l1, l2), x0, y1, ppm)


def _sample_art(art: _Art, x: F32, y: F32, xq: F32, yq: F32) -> F32:
    mx = (x - np.float32(art.x0)) * np.float32(art.ppm) - 0.5
    my = (np.float32(art.y1) - y) * np.float32(art.ppm) - 0.5
    out = _f32(cv2.remap(art.levels[0], mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT))
    # texel footprint per pixel (from the quarter-res grid) decides the mip blend
    gx = np.abs(np.diff(xq, axis=1, append=xq[:, -1:])) + np.abs(np.diff(yq, axis=1, append=yq[:, -1:]))
    gy = np.abs(np.diff(xq, axis=0, append=xq[-1:, :])) + np.abs(np.diff(yq, axis=0, append=yq[-1:, :]))
    fp = np.maximum(gx, gy) / 4 * art.ppm * 0.8
    lev = np.clip(np.log2(np.maximum(fp, 1e-3)), 0, 2).astype(np.float32)
    if float(lev.max()) < 0.2:
        return out
    lev_f = cv2.resize(lev, (IMG_W, IMG_H))
    for k in (1, 2):
        s = np.float32(0.5**k)
        lk = cv2.remap(art.levels[k], (mx + 0.5) * s - 0.5, (my + 0.5) * s - 0.5, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REFLECT)
        wk = np.clip(lev_f - (k - 1), 0, 1)[..., None]
        out = _f32(out * (1 - wk) + lk * wk)
    return out


# -------------------------------------------------------------------------------------------- rendering

_MARKER_PPM = 8.0


def _marker_texture(m: _Marker) -> tuple[F32, F32, F32, float]:
    """Albedo, alpha and ink mask of a marker's paper in its own mm frame (centre at the middle)."""
    half = m.size / 2 + m.margin + 2.5
    n = int(math.ceil(2 * half * _MARKER_PPM))
    dic = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    mod = max(2, round(m.size * _MARKER_PPM / 6))
    mk = cv2.aruco.generateImageMarker(dic, m.mid, mod * 6, borderBits=1)
    mk = cv2.resize(mk, (round(m.size * _MARKER_PPM),) * 2, interpolation=cv2.INTER_NEAREST)
    ink = np.zeros((n, n), np.float32)
    o = (n - mk.shape[0]) // 2
    ink[o:o + mk.shape[0], o:o + mk.shape[1]] = 1.0 - mk.astype(np.float32) / 255.0
    ink = _f32(cv2.GaussianBlur(ink, (0, 0), 0.6))
    alpha = np.zeros((n, n), np.uint8)
    hm = m.size / 2 + m.margin
    loc = np.array([[-hm, hm], [hm, hm], [hm, -hm], [-hm, -hm]]) + m.cut
    pts = np.stack([(loc[:, 0] + n / (2 * _MARKER_PPM)) * _MARKER_PPM - 0.5,
                    (n / (2 * _MARKER_PPM) - loc[:, 1]) * _MARKER_PPM - 0.5], axis=1)
    cv2.fillConvexPoly(alpha, np.round(pts * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    alb = (m.white[None, None, :] * (1 - ink[..., None]) + m.black * ink[..., None]).astype(np.float32)
    return alb, alpha.astype(np.float32) / 255.0, ink, n / (2 * _MARKER_PPM)


def _roi(uv: F64, pad: int) -> tuple[int, int, int, int] | None:
    x0 = max(int(math.floor(uv[:, 0].min())) - pad, 0)
    y0 = max(int(math.floor(uv[:, 1].min())) - pad, 0)
    x1 = min(int(math.ceil(uv[:, 0].max())) + pad + 1, IMG_W)
    y1 = min(int(math.ceil(uv[:, 1].max())) + pad + 1, IMG_H)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _hand_shadow(hand: _Hand, light: _Light | None, x: F64 | F32, y: F64 | F32) -> F64:
    """Visibility (0..1) of a light, or of the sky when light is None, at board points behind the hand."""
    px = np.asarray(x, dtype=np.float64)
    py = np.asarray(y, dtype=np.float64)
    shade = np.zeros(px.shape)
    for cap in hand.capsules:
        ends = []
        for p in (cap.a, cap.b):
            z = max(float(p[2]), 1.0)
            if light is None:
                ends.append((p[0], p[1], cap.r * 1.4, 0.9 * z + 10.0))
            elif light.kind == "point":
                lz = float(light.vec[2])
                if z >= lz - 5:
                    ends.append((p[0], p[1], 0.0, 1.0))
                    continue
                k = lz / (lz - z)
                q = light.vec[:2] + (p[:2] - light.vec[:2]) * k
                ends.append((q[0], q[1], cap.r * k, light.radius * 2 * z / (lz - z) + 1.0))
            else:
                q = p[:2] - z * light.vec[:2] / max(light.vec[2], 0.05)
                ends.append((q[0], q[1], cap.r, 2 * z * math.tan(light.radius) + 1.0))
        (ax, ay, ra, wa), (bx, by, rb, wb) = ends
        ex, ey = bx - ax, by - ay
        ll = ex * ex + ey * ey
        t = np.clip(((px - ax) * ex + (py - ay) * ey) / max(ll, 1e-9), 0, 1)
        d = np.hypot(px - ax - t * ex, py - ay - t * ey)
        r = ra + t * (rb - ra)
        wdt = wa + t * (wb - wa)
        s = np.clip((r + wdt / 2 - d) / wdt, 0, 1)
        shade = np.maximum(shade, s * s * (3 - 2 * s))
    return 1.0 - (0.45 if light is None else 1.0) * shade


def _occlusion(p: F64, light: _Light, centres: F64, rots: F64, halves: F64) -> F64:
    """Fraction of the light's samples visible from points p, tested against boxes (ray-box slabs)."""
    if len(centres) == 0:
        return np.ones(len(p))
    smp = _light_samples(light)
    if light.kind == "point":
        ends = np.broadcast_to(smp[None], (len(p), 4, 3))
    else:
        ends = p[:, None, :] + smp[None] * 3000.0
    pl = np.einsum("knj,nji->kni", p[:, None, :] - centres[None], rots)
    el = np.einsum("ksnj,nji->ksni", ends[:, :, None, :] - centres[None, None], rots)
    d = el - pl[:, None]
    d = np.where(np.abs(d) < 1e-9, 1e-9, d)
    hv = halves[None, None, :, None]
    t1 = (-hv - pl[:, None]) / d
    t2 = (hv - pl[:, None]) / d
    tmin = np.minimum(t1, t2).max(axis=-1)
    tmax = np.maximum(t1, t2).min(axis=-1)
    hit = (tmax >= np.maximum(tmin, 1e-4)) & (tmin <= 1.0)
    return np.asarray(1.0 - hit.any(axis=2).mean(axis=1), dtype=np.float64)


def _cube_mesh(h: float, b: float) -> list[tuple[F64, F64, int]]:
    """Chamfered cube: (vertices, normal, kind) with kind 0 face, 1 edge bevel, 2 corner facet."""
    e = np.eye(3)
    a = h - b
    polys: list[tuple[F64, F64, int]] = []
    for k in range(3):
        u, v = e[(k + 1) % 3], e[(k + 2) % 3]
        for s in (-1.0, 1.0):
            n = s * e[k]
            polys.append((np.array([h * n - a * u - a * v, h * n + a * u - a * v, h * n + a * u + a * v,
                                    h * n - a * u + a * v]), n, 0))
    for i in range(3):
        for j in range(i + 1, 3):
            w = e[3 - i - j]
            for si in (-1.0, 1.0):
                for sj in (-1.0, 1.0):
                    n1, n2 = si * e[i], sj * e[j]
                    polys.append((np.array([h * n1 + a * n2 - a * w, h * n1 + a * n2 + a * w, a * n1 + h * n2 + a * w,
                                            a * n1 + h * n2 - a * w]), _unit(n1 + n2), 1))
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            for sz in (-1.0, 1.0):
                s3 = np.array([sx, sy, sz])
                polys.append((np.array([[h * sx, a * sy, a * sz], [a * sx, h * sy, a * sz], [a * sx, a * sy, h * sz]]),
                              _unit(s3), 2))
    return polys


def _face_texture(cube: _Cube, face_idx: int, axis: int, t: int) -> tuple[F64, F64]:
    """Painted wood albedo (t, t, 3) and a specular modulation (t, t) for one face."""
    rng = np.random.default_rng([cube.tex_seed, face_idx])
    uu, vv = np.meshgrid((np.arange(t) + 0.5) / t, (np.arange(t) + 0.5) / t)
    warp = cv2.resize(rng.normal(0, 1, (4, 4)), (t, t), interpolation=cv2.INTER_CUBIC)
    if axis == cube.grain_axis:  # end grain: rings around a centre off the face
        cu, cvv = rng.uniform(-1.5, 2.5, 2)
        r = np.hypot(uu - cu, vv - cvv)
        g = (0.5 + 0.5 * np.sin(2 * math.pi * (r * rng.uniform(3, 6) + 0.12 * warp))) ** 3
    else:
        along_u = (axis + 1) % 3 == cube.grain_axis
        across = vv if along_u else uu
        g = (0.5 + 0.5 * np.sin(2 * math.pi * (across * rng.uniform(3, 7) + 0.25 * warp))) ** 3
    amp = {"iron": 0.07, "stone": 0.06, "coal": 0.18, "event": 0.05}[cube.kind]
    fine = rng.normal(0, 0.025, (t, t))
    alb = cube.paint[None, None, :] * (1 - amp * g + amp * 0.3 + fine)[..., None]
    if cube.wear > 0.05:
        edge = np.minimum(np.minimum(uu, 1 - uu), np.minimum(vv, 1 - vv))
        spots = cv2.resize(rng.random((6, 6)), (t, t), interpolation=cv2.INTER_LINEAR)
        wear = np.clip((0.09 - edge) / 0.05, 0, 1) * (spots > 1 - 0.5 * cube.wear)
        alb = alb * (1 - wear[..., None]) + _RAW_WOOD * wear[..., None] * (1 + fine[..., None])
    return np.clip(alb, 0.002, 0.95), 1.0 + 0.6 * (g - 0.3)


@dataclass
class _ShadeCtx:
    lights: tuple[_Light, ...]
    ambient: F64
    cam_c: F64
    centres: F64
    rots: F64
    halves: F64
    sizes: F64
    hand: _Hand | None
    bounce: float


def _shade(ctx: _ShadeCtx, idx: int, cube: _Cube, p: F64, n: F64) -> tuple[F64, F64]:
    others = np.arange(len(ctx.centres)) != idx
    diff = np.zeros((len(p), 3))
    spec = np.zeros((len(p), 3))
    v = _unit(ctx.cam_c - p)
    cx, cy = np.array([cube.center[0]]), np.array([cube.center[1]])
    e_tot = np.zeros(3)
    for light in ctx.lights:
        e, l_dir, _ = _irr(light, p, n)
        vis = _occlusion(p + n * 0.06, light, ctx.centres[others], ctx.rots[others], ctx.halves[others])
        if ctx.hand is not None:
            vis = vis * float(_hand_shadow(ctx.hand, light, cx, cy)[0])
        diff += (e * vis)[:, None] * light.rgb
        hv = _unit(l_dir + v)
        fres = 0.04 + 0.96 * (1 - np.clip(np.sum(v * hv, axis=1), 0, 1)) ** 5
        ndh = np.clip(np.sum(n * hv, axis=1), 0, 1)
        spec += (0.45 * e * vis * fres * (cube.gloss + 8) / 8 * ndh**cube.gloss)[:, None] * light.rgb
        e_up, _, _ = _irr(light, np.array([[cube.center[0], cube.center[1], 0.0]]), np.array([[0.0, 0.0, 1.0]]))
        e_tot += float(e_up[0]) * light.rgb
    base_z = cube.center[2] - cube.size / 2
    zrel = np.clip((p[:, 2] - base_z) / cube.size, 0, 1)
    side = np.abs(n[:, 2]) < 0.5
    ao = np.where(side, 0.5 + 0.5 * np.clip(zrel * 1.6, 0, 1), np.where(n[:, 2] < -0.5, 0.25, 1.0))
    if others.any():
        vec = ctx.centres[others][None] - p[:, None]
        dist = np.linalg.norm(vec, axis=-1)
        facing = np.clip(np.sum(vec * n[:, None], axis=-1) / np.maximum(dist, 1e-6), 0, 1)
        dsurf = np.maximum(dist - 0.6 * ctx.sizes[others][None], 0)
        ao = ao * np.prod(1 - 0.5 * facing * np.exp(-dsurf / (0.4 * cube.size)), axis=1)
    amb_vis = 1.0
    if ctx.hand is not None:
        amb_vis = float(_hand_shadow(ctx.hand, None, cx, cy)[0])
    sky = ctx.ambient[None] * (0.5 + 0.5 * n[:, 2:3])
    bounce = (e_tot + ctx.ambient)[None] * ctx.bounce * (0.5 - 0.5 * n[:, 2:3])
    diff += (sky + bounce) * (ao * amb_vis)[:, None]
    return diff, spec


def _draw_cube(rad: F32, cov: F32, cube: _Cube, idx: int, cam: _Cam, ctx: _ShadeCtx) -> None:
    h = cube.size / 2
    mesh = _cube_mesh(h, min(cube.bevel, 0.3 * h))
    vis_polys = []
    for pi, (verts, n, kind) in enumerate(mesh):
        wv = cube.center + verts @ cube.rot.T
        wn = cube.rot @ n
        if float(np.dot(wn, cam.c - wv.mean(axis=0))) > 0:
            vis_polys.append((pi, wv, wn, kind))
    allw = np.concatenate([p[1] for p in vis_polys])
    uv_all, _ = cam.project(allw)
    box = _roi(uv_all, 2)
    if box is None:
        return
    x0, y0, x1, y1 = box
    rw, rh = x1 - x0, y1 - y0
    # shading points: 4 corners of each visible face, the centre of each bevel / corner facet
    pts, nrm = [], []
    for _pi, wv, wn, kind in vis_polys:
        if kind == 0:
            c = wv.mean(axis=0)
            pts.extend(c + (wv - c) * 0.88)
            nrm.extend([wn] * 4)
        else:
            pts.append(wv.mean(axis=0))
            nrm.append(wn)
    diff, spec = _shade(ctx, idx, cube, np.array(pts), np.array(nrm))
    acc = np.zeros((rh, rw, 3), np.float32)
    wsum = np.zeros((rh, rw), np.float32)
    off = np.array([x0, y0], dtype=np.float64)
    k = 0
    m8 = np.zeros((rh, rw), np.uint8)
    for pi, wv, _wn, kind in vis_polys:
        uv, _ = cam.project(wv)
        uv = uv - off
        m8[:] = 0
        cv2.fillConvexPoly(m8, np.round(uv * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        c = m8.astype(np.float32) / 255.0
        if kind == 0:
            side = float(np.max(np.linalg.norm(np.diff(np.vstack([uv, uv[:1]]), axis=0), axis=1)))
            t = int(np.clip(side * 1.3 + 2, 8, 40))
            axis = int(np.argmax(np.abs(mesh[pi][1])))
            alb, smod = _face_texture(cube, pi, axis, t)
            g = (np.arange(t) + 0.5) / t
            wu, wv_ = np.meshgrid(g, g)
            wts = [(1 - wu) * (1 - wv_), wu * (1 - wv_), wu * wv_, (1 - wu) * wv_]
            dimg = sum(wts[j][..., None] * diff[k + j] for j in range(4))
            simg = sum(wts[j][..., None] * spec[k + j] for j in range(4))
            lit = (alb * dimg + simg * smod[..., None]).astype(np.float32)
            src = np.array([[-0.5, -0.5], [t - 0.5, -0.5], [t - 0.5, t - 0.5], [-0.5, t - 0.5]], np.float32)
            hm = cv2.getPerspectiveTransform(src, uv.astype(np.float32))
            img = cv2.warpPerspective(lit, hm, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            k += 4
        else:
            worn = cube.paint * (1 - 0.5 * cube.wear) + _RAW_WOOD * 0.5 * cube.wear
            img = np.broadcast_to((worn * diff[k] + spec[k] * 1.2).astype(np.float32), (rh, rw, 3))
            k += 1
        acc += img * c[..., None]
        wsum += c
    hull = cv2.convexHull((uv_all - off).astype(np.float32))
    m8[:] = 0
    cv2.fillConvexPoly(m8, np.round(hull.reshape(-1, 2) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    alpha = m8.astype(np.float32) / 255.0
    col = acc / np.maximum(wsum, 1e-3)[..., None]
    sub = rad[y0:y1, x0:x1]
    sub[:] = sub * (1 - alpha[..., None]) + col * alpha[..., None]
    cov[y0:y1, x0:x1] = np.maximum(cov[y0:y1, x0:x1], alpha)


def _render_hand(hand: _Hand, cam: _Cam, lighting: _Lighting) -> tuple[F32, F32]:
    """Premultiplied colour and coverage of the hand at full resolution (ray-capsule, half-res)."""
    step = 2
    dx, dy, dz = cam.rays(step)
    hh, ww = dx.shape
    pts: list[F64] = []
    behind = False
    for cap in hand.capsules:
        uv, z = cam.project(np.stack([cap.a, cap.b]))
        if np.any(z <= 10):
            behind = True
            break
        rpx = cap.r * cam.f / z * 1.3 + 3
        pts.extend(uv - rpx[:, None])
        pts.extend(uv + rpx[:, None])
    x0, y0, x1, y1 = 0, 0, ww, hh
    if not behind:
        box = _roi(np.array(pts) / step, 2)
        if box is None:
            return np.zeros((IMG_H, IMG_W, 3), np.float32), np.zeros((IMG_H, IMG_W), np.float32)
        x0, y0, x1, y1 = (min(box[0], ww), min(box[1], hh), min(box[2], ww), min(box[3], hh))
    d = np.stack([dx[y0:y1, x0:x1], dy[y0:y1, x0:x1], dz[y0:y1, x0:x1]], axis=-1).astype(np.float64)
    tbest = np.full(d.shape[:2], np.inf)
    nbest = np.zeros(d.shape)
    mat = np.zeros(d.shape[:2], np.int32)
    o = cam.c
    for cap in hand.capsules:
        ba = cap.b - cap.a
        oa = o - cap.a
        baba = float(ba @ ba)
        baoa = float(ba @ oa)
        oaoa = float(oa @ oa)
        bard = d @ ba
        rdoa = d @ oa
        a = baba - bard * bard
        b = baba * rdoa - baoa * bard
        c = baba * oaoa - baoa * baoa - cap.r * cap.r * baba
        disc = b * b - a * c
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(disc >= 0, (-b - np.sqrt(np.maximum(disc, 0))) / np.where(np.abs(a) < 1e-9, 1e-9, a), np.inf)
            y = baoa + t * bard
            body = (disc >= 0) & (y > 0) & (y < baba)
            ocx = np.where((y <= 0)[..., None], oa, o - cap.b)
            b2 = np.sum(d * ocx, axis=-1)
            c2 = np.sum(ocx * ocx, axis=-1) - cap.r * cap.r
            h2 = b2 * b2 - c2
            tcap = np.where(h2 > 0, -b2 - np.sqrt(np.maximum(h2, 0)), np.inf)
        t = np.where(body, t, np.where(disc >= 0, tcap, np.inf))
        t = np.where(t > 1.0, t, np.inf)
        better = t < tbest
        if not better.any():
            continue
        pos = o + d[better] * t[better][:, None]
        pa = pos - cap.a
        hcl = np.clip((pa @ ba) / baba, 0, 1)
        nbest[better] = (pa - hcl[:, None] * ba) / cap.r
        tbest[better] = t[better]
        mat[better] = cap.mat
    hit = np.isfinite(tbest)
    rgb = np.zeros(d.shape, np.float32)
    if hit.any():
        pos = o + d[hit] * tbest[hit][:, None]
        n = _unit(nbest[hit])
        v = -d[hit]
        alb = np.where((mat[hit] == 0)[:, None], hand.skin, hand.sleeve)
        wrap = np.where(mat[hit] == 0, 0.35, 0.1)
        col = np.zeros((len(pos), 3))
        for light in lighting.lights:
            e0 = _irr(light, pos, n)[2]
            l_dir = _irr(light, pos, n)[1]
            ndl = np.sum(n * l_dir, axis=1)
            diffuse = np.clip((ndl + wrap) / (1 + wrap), 0, None)
            hv = _unit(l_dir + v)
            sp = 0.03 * 2.5 * np.clip(np.sum(n * hv, axis=1), 0, 1) ** 12 * (ndl > 0)
            col += (e0 * diffuse)[:, None] * light.rgb * alb + (e0 * sp)[:, None] * light.rgb
        col += lighting.ambient[None] * (0.6 + 0.4 * n[:, 2:3]) * alb
        blot = cv2.resize(np.random.default_rng(int(hand.blur_angle * 1e6)).random((6, 6)).astype(np.float32),
                          (x1 - x0, y1 - y0))[hit]
        rgb[hit] = (col * (0.93 + 0.14 * blot[:, None])).astype(np.float32)
    full_rgb = np.zeros((hh, ww, 3), np.float32)
    full_a = np.zeros((hh, ww), np.float32)
    full_a[y0:y1, x0:x1] = hit.astype(np.float32)
    full_rgb[y0:y1, x0:x1] = rgb
    a_up = cv2.resize(full_a, (IMG_W, IMG_H), interpolation=cv2.INTER_LINEAR)
    pm_up = cv2.resize(full_rgb * full_a[..., None], (IMG_W, IMG_H), interpolation=cv2.INTER_LINEAR)
    if hand.blur_px >= 1.0:
        ln = int(round(hand.blur_px))
        ker = np.zeros((2 * ln + 1, 2 * ln + 1), np.float32)
        cc = np.array([ln, ln], dtype=np.float64)
        dv = np.array([math.cos(hand.blur_angle), math.sin(hand.blur_angle)]) * ln / 2
        p0, p1 = np.round(cc - dv).astype(int), np.round(cc + dv).astype(int)
        cv2.line(ker, (int(p0[0]), int(p0[1])), (int(p1[0]), int(p1[1])), 1.0, 1)
        ker /= ker.sum()
        a_up = cv2.filter2D(a_up, -1, ker)
        pm_up = cv2.filter2D(pm_up, -1, ker)
    return _f32(pm_up), _f32(np.clip(a_up, 0, 1))


def _board_shadows(cubes: tuple[_Cube, ...], lights: tuple[_Light, ...], cam: _Cam) -> tuple[
        list[F32], F32, F32, tuple[int, int, int, int] | None]:
    """Per-light visibility on the board from cube shadows, ambient occlusion and contact darkening."""
    vis = [np.ones((IMG_H, IMG_W), np.float32) for _ in lights]
    ao = np.ones((IMG_H, IMG_W), np.float32)
    contact = np.ones((IMG_H, IMG_W), np.float32)
    if not cubes:
        return vis, ao, contact, None
    polys: list[list[F64]] = [[] for _ in lights]
    feet: list[F64] = []
    allpts = []
    for cube in cubes:
        corners = _box_corners(cube.center, cube.rot, cube.size)
        for i, light in enumerate(lights):
            if light.kind == "point":
                k = light.vec[2] / np.maximum(light.vec[2] - corners[:, 2], 1.0)
                q = light.vec[:2] + (corners[:, :2] - light.vec[:2]) * k[:, None]
            else:
                q = corners[:, :2] - corners[:, 2:3] * light.vec[None, :2] / max(light.vec[2], 0.05)
            hull = cv2.convexHull(q.astype(np.float32)).reshape(-1, 2).astype(np.float64)
            uv, _ = cam.project(np.c_[hull, np.zeros(len(hull))])
            polys[i].append(uv)
            allpts.append(uv)
        if cube.level == 0:
            bottom = corners[corners[:, 2] < cube.center[2]]
            hull = cv2.convexHull(bottom[:, :2].astype(np.float32)).reshape(-1, 2).astype(np.float64)
            uv, _ = cam.project(np.c_[hull, np.zeros(len(hull))])
            feet.append(uv)
    px_mm = cam.f / max(float(cam.c[2]), 1.0)
    spx = float(np.mean([c.size for c in cubes])) * px_mm
    box = _roi(np.concatenate(allpts), int(3 * spx + 10))
    if box is None:
        return vis, ao, contact, None
    x0, y0, x1, y1 = box
    off = np.array([x0, y0], dtype=np.float64)
    m8 = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for i, light in enumerate(lights):
        m8[:] = 0
        for uv in polys[i]:
            cv2.fillConvexPoly(m8, np.round((uv - off) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        if light.kind == "point":
            pen = light.radius * 8.0 / max(light.vec[2] - 8.0, 1.0)
        else:
            pen = 8.0 * math.tan(light.radius)
        sig = max(0.6, 0.5 * pen * px_mm)
        vis[i][y0:y1, x0:x1] = 1.0 - cv2.GaussianBlur(m8, (0, 0), sig).astype(np.float32) / 255.0
    m8[:] = 0
    for uv in feet:
        cv2.fillConvexPoly(m8, np.round((uv - off) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    f = m8.astype(np.float32) / 255.0
    ao[y0:y1, x0:x1] = 1.0 - 0.75 * np.clip(cv2.GaussianBlur(f, (0, 0), max(0.8, 0.35 * spx)) * 1.3, 0, 1)
    contact[y0:y1, x0:x1] = 1.0 - 0.3 * np.clip(cv2.GaussianBlur(f, (0, 0), max(0.6, 0.1 * spx)) * 1.5, 0, 1)
    return vis, ao, contact, box


def _draw_papers(rad: F32, scene: FifthScene, cam: _Cam, lighting: _Lighting, e_full: list[F32], vis: list[F32],
                 amb_full: F32, rays: tuple[F32, F32, F32], level: int) -> None:
    curl_k = (1.0, 0.3, 0.0)[level]
    gloss_k = (1.0, 0.3, 0.0)[level]
    for m in scene.markers:
        paper = _marker_paper(m)
        uv, _ = cam.project(np.c_[paper, np.zeros(4)])
        box = _roi(uv, 6)
        if box is None:
            continue
        x0, y0, x1, y1 = box
        dx, dy, dz = (r[y0:y1, x0:x1].astype(np.float64) for r in rays)
        ca, sa = math.cos(m.angle), math.sin(m.angle)
        half = m.size / 2 + m.margin
        curl = m.curl * curl_k
        z = np.zeros(dx.shape)
        for _ in range(3):
            t = (z - cam.c[2]) / np.minimum(dz, -1e-4)
            px, py = cam.c[0] + t * dx - m.center[0], cam.c[1] + t * dy - m.center[1]
            lu, lv = px * ca + py * sa, -px * sa + py * ca
            q = lu if m.curl_axis == 0 else lv
            z = curl * (q / half) ** 2
        alb_t, alpha_t, ink_t, half_t = _marker_texture(m)
        mx = ((lu + half_t) * _MARKER_PPM - 0.5).astype(np.float32)
        my = ((half_t - lv) * _MARKER_PPM - 0.5).astype(np.float32)
        alb = cv2.remap(alb_t, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        alpha = cv2.remap(alpha_t, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        ink = cv2.remap(ink_t, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        slope = 2 * curl * q / half**2
        gu, gv = (slope, np.zeros_like(slope)) if m.curl_axis == 0 else (np.zeros_like(slope), slope)
        nx, ny = -(gu * ca - gv * sa), -(gu * sa + gv * ca)
        n = _unit(np.stack([nx, ny, np.ones_like(nx)], axis=-1))
        v = -np.stack([dx, dy, dz], axis=-1)
        pc = np.array([[m.center[0], m.center[1], 0.0]])
        irr = amb_full[y0:y1, x0:x1].astype(np.float64) * (0.5 + 0.5 * n[..., 2:3])
        spec = np.zeros_like(irr)
        for i, light in enumerate(lighting.lights):
            _, l_dir, _ = _irr(light, pc, np.array([[0.0, 0.0, 1.0]]))
            lvec = l_dir[0]
            fac = np.clip(n @ lvec, 0, None) / max(lvec[2], 0.05)
            e = e_full[i][y0:y1, x0:x1] * vis[i][y0:y1, x0:x1] * fac
            irr += e[..., None] * light.rgb
            hv = _unit(lvec[None, None] + v)
            ndh = np.clip(np.sum(n * hv, axis=-1), 0, 1)
            sp = 0.03 * (4 + 8) / 8 * ndh**4 + gloss_k * ink * 0.05 * (22 + 8) / 8 * ndh**22
            spec += (e * sp)[..., None] * light.rgb
        col = alb * irr + spec
        a3 = alpha[..., None]
        sub = rad[y0:y1, x0:x1]
        lift = 0.1 + 0.3 * min(curl / 2.5, 1.0)
        around = cv2.GaussianBlur(alpha, (0, 0), max(1.0, 1.2 * cam.f / cam.c[2]))
        sub *= (1 - lift * around * (1 - alpha))[..., None]
        sub[:] = sub * (1 - a3) + col * a3


_R2: F32 | None = None


def _radius2() -> F32:
    global _R2
    if _R2 is None:
        yy, xx = np.mgrid[0:IMG_H, 0:IMG_W].astype(np.float32)
        _R2 = (((xx - IMG_W / 2) ** 2 + (yy - IMG_H / 2) ** 2) / ((IMG_W / 2) ** 2 + (IMG_H / 2) ** 2)).astype(
            np.float32)
    return _R2


def _tone_lut(isp: _Isp) -> F32:
    x = np.linspace(0, 2, 4096)
    sh = isp.shoulder
    y = np.where(x > sh, sh + (1 - sh) * np.tanh((x - sh) / (1 - sh)), x)
    y = np.where(y <= 0.0031308, 12.92 * y, 1.055 * np.power(np.maximum(y, 0.0031308), 1 / 2.4) - 0.055)
    y = (1 - isp.contrast) * y + isp.contrast * (3 * y * y - 2 * y**3)
    return np.clip(y, 0, 1).astype(np.float32)


def _develop(rad: F32, isp: _Isp, rng: np.random.Generator, illum: F64, lamp_frac: float = 0.0) -> NDArray[np.uint8]:
    """Optics, sensor and ISP of a small camera module: linear scene RGB in, JPEG-decoded BGR out."""
    img = rad
    if isp.ca > 1e-5:
        for ch, s in ((0, 1 + isp.ca), (2, 1 - isp.ca)):
            mat = np.array([[s, 0, (1 - s) * IMG_W / 2], [0, s, (1 - s) * IMG_H / 2]], np.float32)
            img[..., ch] = cv2.warpAffine(np.ascontiguousarray(img[..., ch]), mat, (IMG_W, IMG_H),
                                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img = _f32(cv2.GaussianBlur(img, (0, 0), isp.blur))
    r2 = _radius2()
    vig = 1.0 / (1 + isp.vig * r2) ** 2
    img *= vig[..., None]
    sensor = (isp.m_cam * isp.sens[:, None]).astype(np.float32)
    raw3 = cv2.transform(img, sensor)
    small = cv2.resize(raw3, (160, 90), interpolation=cv2.INTER_AREA)
    yy, xx = np.mgrid[0:90, 0:160]
    wgt = 0.3 + np.exp(-(((xx - 80) / 50.0) ** 2 + ((yy - 45) / 30.0) ** 2))
    lum = small @ np.array([0.25, 0.55, 0.2], np.float32)
    meter = float(np.sum(lum * wgt) / np.sum(wgt))
    k_total = isp.ae_target / max(meter, 1e-9)
    s_tmax = 6e-4
    gain = float(np.clip(k_total / s_tmax, 1.0, 8.0))
    expo = min(k_total, 8.0 * s_tmax)
    digital = float(np.clip(k_total / expo, 1.0, 2.0))
    mos = np.empty((IMG_H, IMG_W), np.float32)
    mos[0::2, 0::2] = raw3[0::2, 0::2, 0]
    mos[0::2, 1::2] = raw3[0::2, 1::2, 1]
    mos[1::2, 0::2] = raw3[1::2, 0::2, 1]
    mos[1::2, 1::2] = raw3[1::2, 1::2, 2]
    mos *= np.float32(expo)
    if isp.flicker > 0 and lamp_frac > 0:  # rolling shutter under mains-driven lamps: faint horizontal bands
        rows = np.arange(IMG_H, dtype=np.float32)
        band = 1 + isp.flicker * lamp_frac * np.sin(2 * math.pi * rows / isp.flicker_period + isp.flicker_phase)
        mos *= band.astype(np.float32)[:, None]
    var = np.maximum(mos, 0) * np.float32(gain / isp.full_well) + np.float32((isp.read_e * gain / isp.full_well) ** 2
                                                                             + (0.6 / 1023) ** 2)
    mos += np.sqrt(var) * rng.standard_normal((IMG_H, IMG_W), dtype=np.float32)
    dn = np.clip(np.round(64 + mos * 959), 0, 1023).astype(np.uint16)
    rgb = cv2.cvtColor(dn * np.uint16(64), cv2.COLOR_BayerRGGB2RGB_EA).astype(np.float32)
    rgb = (rgb / 64.0 - 64.0) / 959.0
    lsc = np.stack([(1 + isp.vig * (1 + isp.lsc_err[c]) * r2) ** 2 for c in range(3)], axis=-1)
    rgb *= lsc
    # colour pipeline: undo channel sensitivities and crosstalk (the per-colour-temperature CCM of a tuned
    # ISP), then white balance in that space, then saturation with a small calibration error
    unmix = np.linalg.inv(isp.m_cam) @ np.diag(1.0 / isp.sens)
    small = cv2.resize(rgb, (160, 90), interpolation=cv2.INTER_AREA).reshape(-1, 3) @ unmix.T
    ok = (small.max(axis=1) < 0.9) & (small.min(axis=1) > 0.01)
    means = small[ok].mean(axis=0) if ok.sum() > 50 else small.mean(axis=0)
    g_gw = means[1] / np.maximum(means, 1e-6)
    # auto white balance: grey world snapped to the Planckian locus (so its errors are warm/cool shifts, not
    # green/magenta), blended with the true illuminant adapted only partly (warm light stays a bit warm)
    temps = np.arange(2200.0, 12001.0, 100.0)
    g_locus = np.array([1.0 / _kelvin(float(t)) for t in temps])
    err = np.sum((np.log(g_locus[:, [0, 2]]) - np.log(np.maximum(g_gw[[0, 2]], 1e-6))) ** 2, axis=1)
    g_gw = g_locus[int(np.argmin(err))]
    g_true = illum[1] / illum
    g_part = np.exp(isp.awb_kappa * np.log(g_true))
    g = np.exp(isp.awb_w * np.log(g_part) + (1 - isp.awb_w) * np.log(g_gw) + isp.awb_err)
    g = g / g[1]
    lmat = np.tile(np.array([0.2126, 0.7152, 0.0722]), (3, 1))
    ccm = lmat + isp.sat * (np.eye(3) - lmat) + isp.ccm_err
    ccm = ccm / ccm.sum(axis=1, keepdims=True)
    rgb = _f32(cv2.transform(rgb, (ccm @ np.diag(g) @ unmix * digital).astype(np.float32)))
    # ISP denoise: chroma smear and a little luma smoothing, stronger at high gain
    yl = rgb @ np.array([0.299, 0.587, 0.114], np.float32)
    cr = rgb[..., 0] - yl
    cb = rgb[..., 2] - yl
    csig = isp.denoise * (1.0 + 0.5 * math.log2(gain * digital))
    cr = _f32(cv2.GaussianBlur(cr, (0, 0), csig))
    cb = _f32(cv2.GaussianBlur(cb, (0, 0), csig))
    lk = min(0.12 * gain * digital * isp.denoise, 0.7)
    yl = yl + (cv2.GaussianBlur(yl, (0, 0), 0.8) - yl) * np.float32(lk)
    r = yl + cr
    b = yl + cb
    gg = (yl - 0.299 * r - 0.114 * b) / 0.587
    rgb = np.stack([r, gg, b], axis=-1)
    lut = _tone_lut(isp)
    idx = np.clip(rgb * 2047.5, 0, 4095).astype(np.int32)
    out = lut[idx]
    yg = out @ np.array([0.299, 0.587, 0.114], np.float32)
    det = yg - cv2.GaussianBlur(yg, (0, 0), isp.sharpen_sigma)
    det *= np.clip((np.abs(det) - 0.004) / 0.01, 0, 1)
    out += (isp.sharpen * det)[..., None]
    u8 = np.clip(out * 255 + 0.5, 0, 255).astype(np.uint8)
    bgr = np.ascontiguousarray(u8[..., ::-1])
    okj, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, isp.jpeg_q, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                                          cv2.IMWRITE_JPEG_SAMPLING_FACTOR_420])
    if not okj:
        return bgr
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)


def _render_frame(scene: FifthScene, which: str, with_hand: bool, level: int) -> tuple[NDArray[np.uint8],
                                                                                       NDArray[np.bool_]]:
    art = _artwork(scene.seed)
    play = which == "play"
    cam = scene.cam_play if play else scene.cam_cal
    lighting = scene.light_play if play else scene.light_cal
    isp = _mild(scene.isp_play if play else scene.isp_cal, level)
    cubes = scene.cubes if play else ()
    hand = scene.hand if (play and with_hand) else None
    x, y, rays = cam.board(1)
    xq, yq, _ = cam.board(4)
    albedo = _sample_art(art, x, y, xq, yq)
    # board light at quarter resolution (smooth), shadows at full resolution
    e_q = []
    e_sum = np.zeros(xq.shape + (3,), np.float32)
    s_sum = np.zeros(xq.shape + (3,), np.float32)
    for light in lighting.lights:
        e = _board_irr(light, xq, yq)
        sp = _board_spec(light, xq, yq, cam.c, scene.board_gloss) * np.float32(scene.board_ks)
        if hand is not None:
            hv = _hand_shadow(hand, light, xq, yq).astype(np.float32)
            e, sp = e * hv, sp * hv
        e_q.append(e)
        e_sum += e[..., None] * light.rgb.astype(np.float32)
        s_sum += sp[..., None] * light.rgb.astype(np.float32)
    amb_q = np.ones(xq.shape, np.float32)
    if hand is not None:
        amb_q = _hand_shadow(hand, None, xq, yq).astype(np.float32)
    amb = _f32(cv2.resize(amb_q[..., None] * lighting.ambient.astype(np.float32), (IMG_W, IMG_H)))
    irr = _f32(cv2.resize(e_sum, (IMG_W, IMG_H)))
    spec = _f32(cv2.resize(s_sum, (IMG_W, IMG_H)))
    e_full = [_f32(cv2.resize(e, (IMG_W, IMG_H))) for e in e_q]
    vis, ao, contact, box = _board_shadows(cubes, lighting.lights, cam)
    if box is not None:
        x0, y0, x1, y1 = box
        for i, light in enumerate(lighting.lights):
            lost = (e_full[i][y0:y1, x0:x1] * (1 - vis[i][y0:y1, x0:x1] * contact[y0:y1, x0:x1]))[..., None]
            irr[y0:y1, x0:x1] -= lost * light.rgb.astype(np.float32)
            spec[y0:y1, x0:x1] *= vis[i][y0:y1, x0:x1, None]
        amb[y0:y1, x0:x1] *= ao[y0:y1, x0:x1, None]
    rad = albedo * (irr + amb) + spec
    _draw_papers(rad, scene, cam, lighting, e_full, vis, amb, rays, level)
    cov = np.zeros((IMG_H, IMG_W), np.float32)
    if cubes:
        ctx = _ShadeCtx(lighting.lights, lighting.ambient, cam.c, np.array([c.center for c in cubes]),
                        np.array([c.rot for c in cubes]), np.array([c.size / 2 * 0.98 for c in cubes]),
                        np.array([c.size for c in cubes]), hand, float(np.clip(np.median(albedo), 0.05, 0.4)))
        order = np.argsort([-np.linalg.norm(c.center - cam.c) for c in cubes])
        for i in order:
            _draw_cube(rad, cov, cubes[int(i)], int(i), cam, ctx)
    if hand is not None:
        pm, ha = _render_hand(hand, cam, lighting)
        rad = rad * (1 - ha[..., None]) + pm
        cov *= 1 - ha
    centre = np.r_[scene.yard[:2] + scene.yard[2:] / 2, 0.0][None]
    illum = lighting.ambient.copy()
    lamp = 0.0
    for light in lighting.lights:
        e_c = float(_irr(light, centre, np.array([[0.0, 0.0, 1.0]]))[0][0])
        illum += e_c * light.rgb
        lamp += e_c * float(light.rgb[1]) * (light.kind == "point")
    noise_rng = np.random.default_rng(scene.noise_seeds[1 if play else 0])
    img = _develop(np.ascontiguousarray(rad, dtype=np.float32), isp, noise_rng, illum, lamp / float(illum[1]))
    return img, cov >= 0.5


# ------------------------------------------------------------------------------------------------ API

_DETECTOR: cv2.aruco.ArucoDetector | None = None


def detect_markers(img: NDArray[np.uint8]) -> dict[int, F32]:
    """Marker id -> (4, 2) corners, with cv2.aruco's default detector parameters."""
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                            cv2.aruco.DetectorParameters())
    corners, ids, _ = _DETECTOR.detectMarkers(img)
    out: dict[int, F32] = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel(), strict=True):
            out[int(i)] = np.asarray(c, dtype=np.float32).reshape(4, 2)
    return out


def _markers_ok(img: NDArray[np.uint8]) -> bool:
    return set(detect_markers(img)) >= {0, 1, 2, 3}


@lru_cache(maxsize=6)
def _hand_free(seed: int) -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.bool_], int]:
    scene = fifth_scene(seed)
    level = 0
    while True:
        cal, _ = _render_frame(scene, "cal", False, level)
        play, mask = _render_frame(scene, "play", False, level)
        if level == 2 or (_markers_ok(cal) and _markers_ok(play)):
            return cal, play, mask, level
        level += 1


def fifth_mild_level(seed: int) -> int:
    """0 if the scene rendered as sampled; 1 or 2 if markers needed a milder re-render."""
    return _hand_free(int(seed))[3]


def fifth_scene_pair(seed: int, hand: bool = False) -> FifthPair:
    """A calibration picture of the empty yard and a play picture of the same session (see module doc)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # the same pixels whatever the caller's threads; the caller's setting comes back after
    try:
        seed = int(seed)
        scene = fifth_scene(seed)
        cal, play, mask, level = _hand_free(seed)
        if hand:
            play, mask = _render_frame(scene, "play", True, level)
    finally:
        cv2.setNumThreads(threads)
    return FifthPair(calibration=cal.copy(), play=FifthPlay(image=play.copy(), counts=scene.counts,
                                                            cube_mask=mask.copy()), hand=bool(hand))


def fifth_clear_caches() -> None:
    """Forget cached scenes, artwork and renders (so that a second call really renders again)."""
    fifth_scene.cache_clear()
    _artwork.cache_clear()
    _hand_free.cache_clear()
