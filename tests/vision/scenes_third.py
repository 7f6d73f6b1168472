"""Third, independent synthetic scene generator for the stock-yard cube reader.

It draws pairs of 1280x720 BGR frames of the Snowdonia stock yard: a calibration picture of the
empty yard and a play picture of the same board with wooden cubes (iron, stone, coal, event),
together with the true counts and a per-pixel mask of the visible cube faces.

This module was written *blind*: only from the written specification of the feature, without
reading the reader, its calibration code, its tests or any other scene generator, so that it
exercises the reader with assumptions that were made independently.

Choices made here:

* Geometry is in millimetres on the board plane (x right, y down, z into the table; cubes stand
  on z=0 and reach up to negative z).  The yard is 60-120 mm by 40-80 mm.  Four DICT_4X4_50
  markers (ids 0..3 at the top-left, top-right, bottom-right, bottom-left corners) sit on white
  paper squares just outside the corners (diagonally, touching or up to a few mm away, slightly
  rotated), black square 10-25 mm, quiet zone 1-2 cells.
* Camera: a pinhole camera (focal 850-1500 px) looking mostly down, rolled arbitrarily about the
  optical axis, tilted up to 28 degrees in any direction; the markers-plus-yard area covers 45-92%
  of the frame and sits anywhere in it.  Between calibration and play the camera is nudged
  (about a degree, a mm or two, a few % of distance).
* Board: painted once per pair on a board-plane canvas (about one canvas pixel per image pixel
  at the yard) and mapped into each frame with cv2.warpPerspective, so both pictures show the same
  artwork.  Artwork: one of several palettes (ochre/orange-brown, slate grey, dark, cream, meadow,
  sea, heath, random), large soft "ground" regions, mottling, paper grain, an optional printed yard
  panel (tint or gravel dots), hatching, railway tracks, text labels, small printed icons in cube-like
  colours (including flat cube symbols, always smaller than the real cubes), an optional yard border
  line, and sometimes the board edge with a wooden table or cloth beyond it.
* Cubes: true 3D boxes projected by the camera, all the same size in a scene (1/20..1/8 of the yard
  width, smaller in crowded yards), arbitrary yaw, scattered or touching in rows and clusters,
  optionally grouped by colour.  Faces are flat-shaded by one directional light (azimuth anywhere,
  elevation 30-80 deg) plus ambient, textured with a procedural wood grain, a little gloss and a
  light edge highlight; painter's order by distance.  Cast shadows (hull of the base and the
  light-projected top, blurred by a random softness) and contact shadows darken the board.
  Cubes never overlap, stay inside the yard and their silhouettes keep clear of the marker papers.
* Lighting (per picture, independent or nearly equal): white balance warm..cool, brightness
  0.55-1.25, linear gradient, vignetting, optional lamp hot spot with its own colour.
* Optics (per picture): focus blur, occasional motion blur, signal-dependent sensor noise,
  JPEG quality 60-95.  Hand-free pictures are checked with cv2.aruco (default parameters); if a
  marker is missed the picture is re-finished with milder optics (at most twice).
* Hand: on request a hand and forearm (skin tone, optional sleeve, finger pose, soft shadow,
  optional motion blur) reach over the yard in the play picture.  The hand draws from its own
  random stream, so the hand scene is the hand-free scene of the same seed plus the hand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

FRAME_W = 1280
FRAME_H = 720
COLOURS: tuple[str, ...] = ("iron", "stone", "coal", "event")
BOX_LIMITS: dict[str, int] = {"iron": 40, "stone": 24, "coal": 14, "event": 5}
MARKER_IDS: tuple[int, ...] = (0, 1, 2, 3)

F32 = NDArray[np.float32]
F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
Colour = tuple[int, int, int]

_ARUCO_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_DETECTOR = cv2.aruco.ArucoDetector(_ARUCO_DICT, cv2.aruco.DetectorParameters())

# Paint colours of the cubes, RGB 0..255.
_CUBE_RGB: dict[str, Colour] = {
    "iron": (214, 104, 34),
    "stone": (134, 134, 130),
    "coal": (40, 38, 36),
    "event": (234, 230, 214),
}
_GRAIN_STRENGTH: dict[str, float] = {"iron": 0.10, "stone": 0.08, "coal": 0.10, "event": 0.07}

# Board palettes, RGB; the first colour is the ground, the rest are accents.
_PALETTES: dict[str, list[Colour]] = {
    "ochre": [(176, 120, 70), (200, 142, 82), (140, 92, 54), (214, 172, 112), (122, 72, 40)],
    "slate": [(128, 128, 126), (102, 104, 108), (160, 158, 150), (84, 84, 90), (182, 176, 166)],
    "dark": [(46, 46, 52), (30, 30, 36), (72, 66, 60), (58, 70, 82), (92, 86, 80)],
    "cream": [(226, 216, 190), (242, 236, 222), (200, 186, 150), (212, 202, 176), (182, 160, 122)],
    "meadow": [(108, 140, 72), (88, 120, 60), (142, 160, 92), (160, 142, 92), (70, 100, 50)],
    "sea": [(88, 120, 150), (70, 100, 130), (120, 150, 170), (150, 170, 180), (60, 80, 100)],
    "heath": [(120, 90, 110), (150, 110, 120), (96, 80, 70), (170, 140, 150), (80, 60, 70)],
}
_INKS: list[Colour] = [
    (30, 26, 22), (244, 238, 226), (214, 104, 34), (134, 134, 130), (40, 38, 36),
    (234, 230, 214), (150, 40, 30), (40, 60, 120), (190, 150, 60),
]
_SKINS: list[Colour] = [(236, 196, 168), (224, 172, 138), (198, 146, 108), (160, 110, 78), (112, 76, 54), (82, 56, 40)]
_WORDS = ["STOCK YARD", "IRON", "STONE", "COAL", "LLANBERIS", "SNOWDON", "YR WYDDFA", "CLOGWYN", "HALFWAY",
          "SUMMIT", "DEPOT", "1896", "2", "3", "+1", "WORKERS", "TRACK", "STATION", "HEBRON", "ROCKY VALLEY"]
_N_GRAIN = 6
_GRAIN_PX = 48


@dataclass(frozen=True)
class ThirdPlay:
    image: NDArray[np.uint8]
    counts: dict[str, int]
    cube_mask: NDArray[np.bool_]


@dataclass(frozen=True)
class ThirdPair:
    calibration: NDArray[np.uint8]
    play: ThirdPlay
    hand: bool


def _bgr(c: Colour) -> F64:
    return np.array([c[2], c[1], c[0]], np.float64)


def _rot2(a: float) -> F64:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]], np.float64)


# ----------------------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class _Camera:
    f: float
    R: F64  # world -> camera rotation
    C: F64  # camera centre in world mm

    def project(self, pts: F64) -> F64:
        p = np.asarray(pts, np.float64).reshape(-1, pts.shape[-1])
        if p.shape[1] == 2:
            p = np.hstack([p, np.zeros((len(p), 1))])
        pc = (p - self.C) @ self.R.T
        return np.stack([self.f * pc[:, 0] / pc[:, 2] + FRAME_W / 2, self.f * pc[:, 1] / pc[:, 2] + FRAME_H / 2], 1)

    def homography(self) -> F64:
        """Board plane (x, y, 1) in mm -> image pixels."""
        k = np.array([[self.f, 0, FRAME_W / 2], [0, self.f, FRAME_H / 2], [0, 0, 1]], np.float64)
        return k @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])

    def backproject(self, uv: F64) -> F64:
        h = np.linalg.inv(self.homography())
        p = np.hstack([np.asarray(uv, np.float64).reshape(-1, 2), np.ones((len(uv), 1))]) @ h.T
        return p[:, :2] / p[:, 2:3]


@dataclass(frozen=True)
class _CamParams:
    f: float
    yaw: float
    tilt: float
    tilt_axis: float
    target: tuple[float, float]
    dist: float

    def build(self) -> _Camera:
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
        axis = np.array([math.cos(self.tilt_axis), math.sin(self.tilt_axis), 0.0]) * self.tilt
        rt, _ = cv2.Rodrigues(axis)
        r = np.asarray(rt, np.float64) @ rz
        view = r.T @ np.array([0.0, 0.0, 1.0])
        centre = np.array([self.target[0], self.target[1], 0.0]) - self.dist * view
        return _Camera(self.f, r, centre)


# ----------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class _Layout:
    yard_w: float
    yard_h: float
    marker_mm: float
    papers: tuple[F64, ...]  # per marker id: paper corners (4, 2) mm
    blacks: tuple[F64, ...]  # per marker id: black square corners TL, TR, BR, BL (4, 2) mm
    rotations: tuple[float, ...]
    cube_mm: float

    @property
    def yard(self) -> F64:
        return np.array([[0, 0], [self.yard_w, 0], [self.yard_w, self.yard_h], [0, self.yard_h]], np.float64)

    def content(self) -> F64:
        return np.vstack([self.yard, *self.papers])


def _make_layout(rng: np.random.Generator, n_cubes: int) -> _Layout:
    w = float(rng.uniform(60, 120))
    h = float(np.clip(w * rng.uniform(0.45, 0.85), 40, 80))
    m = float(rng.uniform(max(10.0, 0.12 * w), min(25.0, 0.25 * w)))
    quiet = m / 6 * float(rng.uniform(1.0, 2.0))
    side = m + 2 * quiet
    papers, blacks, rots = [], [], []
    signs = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) / 2
    for (sx, sy), (cx, cy) in zip(signs, corners, strict=True):
        rho = float(rng.normal(0, 0.03)) if rng.random() < 0.6 else 0.0
        grow = side / 2 * (abs(math.cos(rho)) + abs(math.sin(rho))) - side / 2
        gx = (0.0 if rng.random() < 0.3 else float(rng.uniform(0, 0.2 * m))) + grow
        gy = (0.0 if rng.random() < 0.3 else float(rng.uniform(0, 0.2 * m))) + grow
        centre = np.array([cx + sx * (gx + side / 2), cy + sy * (gy + side / 2)])
        rot = _rot2(rho)
        papers.append(centre + (sq * side) @ rot.T)
        blacks.append(centre + (sq * m) @ rot.T)
        rots.append(rho)
    cube = w * float(rng.uniform(1 / 20, 1 / 8))
    if n_cubes:
        cube = min(cube, math.sqrt(0.26 * w * h / n_cubes))
    return _Layout(w, h, m, tuple(papers), tuple(blacks), tuple(rots), cube)


def _fits(cam: _Camera, lay: _Layout, margin: float = 10.0) -> bool:
    uv = cam.project(lay.content())
    return bool(uv.min() >= margin and uv[:, 0].max() <= FRAME_W - margin and uv[:, 1].max() <= FRAME_H - margin)


def _marker_px(cam: _Camera, lay: _Layout) -> float:
    sides = []
    for b in lay.blacks:
        uv = cam.project(b)
        sides.extend(np.linalg.norm(uv - np.roll(uv, 1, 0), axis=1))
    return float(min(sides))


def _fit_camera(rng: np.random.Generator, lay: _Layout) -> _CamParams:
    content = lay.content()
    extent = float(np.ptp(content, axis=0).max())
    centre = lay.yard.mean(0)
    while True:
        f = float(rng.uniform(850, 1500))
        yaw = float(rng.uniform(-math.pi, math.pi)) if rng.random() < 0.6 else float(rng.normal(0, 0.15))
        tilt = math.radians(28.0) * math.sqrt(float(rng.random()))
        axis = float(rng.uniform(0, 2 * math.pi))
        frac = float(rng.uniform(0.45, 0.9))
        place = rng.random(2)
        target = centre + rng.normal(0, 0.05 * lay.yard_w, 2)
        dist = f * extent / (frac * FRAME_H)
        params = _CamParams(f, yaw, tilt, axis, (float(target[0]), float(target[1])), dist)
        for _ in range(8):
            cam = params.build()
            uv = cam.project(content)
            lo, size = uv.min(0), np.ptp(uv, axis=0)
            cur = max(size[0] / FRAME_W, size[1] / FRAME_H)
            want = frac
            mk = _marker_px(cam, lay)
            if mk < 32:
                want = min(0.93, max(frac, cur * 32 / mk))
            free = np.maximum(np.array([FRAME_W, FRAME_H]) - 24 - size, 0)
            delta = 12 + place * free - lo
            new_target = cam.backproject(np.array([[FRAME_W / 2, FRAME_H / 2]]) - delta)[0]
            params = _CamParams(f, yaw, tilt, axis, (float(new_target[0]), float(new_target[1])),
                                params.dist * cur / want)
        cam = params.build()
        if _fits(cam, lay) and _marker_px(cam, lay) >= 26 and float(np.min(cam.C[2])) < 0:
            return params


def _nudge(rng: np.random.Generator, p: _CamParams, lay: _Layout) -> _CamParams:
    d = rng.normal(0, 1, 6)
    for k in range(5):
        s = 0.5**k
        q = _CamParams(p.f * (1 + 0.01 * d[0] * s), p.yaw + 0.012 * d[1] * s, abs(p.tilt + 0.015 * d[2] * s),
                       p.tilt_axis, (p.target[0] + 1.5 * d[3] * s, p.target[1] + 1.5 * d[4] * s),
                       p.dist * (1 + 0.02 * d[5] * s))
        cam = q.build()
        if _fits(cam, lay) and _marker_px(cam, lay) >= 24:
            return q
    return p


# ------------------------------------------------------------------------------------------ board


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: float) -> F32:
    gw = max(2, round(cells * w / max(h, w))) + 2
    gh = max(2, round(cells * h / max(h, w))) + 2
    g = rng.random((gh, gw), dtype=np.float32)
    return np.asarray(cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def _palette(rng: np.random.Generator) -> list[F64]:
    names = sorted(_PALETTES)
    if rng.random() < 0.15:
        hue = rng.uniform(0, 180)
        cols = []
        for _ in range(5):
            hsv = np.array([[[int((hue + rng.normal(0, 15)) % 180), int(rng.uniform(40, 200)),
                              int(rng.uniform(40, 230))]]], np.uint8)
            cols.append(cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float64))
        return cols
    pal = _PALETTES[names[int(rng.integers(len(names)))]]
    return [_bgr(c) * rng.uniform(0.9, 1.1) for c in pal]


def _ipt(p: F64) -> tuple[int, int]:
    return int(round(float(p[0]) * 16)), int(round(float(p[1]) * 16))


def _paint_board(rng: np.random.Generator, lay: _Layout, origin: F64, ppm: float, wc: int, hc: int) -> U8:
    def px(p: F64) -> F64:
        return (np.asarray(p, np.float64) - origin) * ppm

    pal = _palette(rng)
    wl, hl = max(16, wc // 2), max(16, hc // 2)
    n1 = _smooth_noise(rng, hl, wl, float(rng.uniform(2, 8)))
    n2 = _smooth_noise(rng, hl, wl, float(rng.uniform(10, 40)))
    t = np.clip((n1 - 0.5) * float(rng.uniform(1.5, 6)) + 0.5, 0, 1)[..., None]
    low = (pal[0].astype(np.float32) * (1 - t) + pal[1].astype(np.float32) * t).astype(np.float32)
    low *= (1 + float(rng.uniform(0.05, 0.3)) * (n2 - 0.5))[..., None]
    for col in pal[2:]:  # large soft regions of illustrated ground
        mask = np.zeros((hl, wl), np.uint8)
        for _ in range(int(rng.integers(0, 5))):
            ec = (int(rng.uniform(0, wl)), int(rng.uniform(0, hl)))
            ax = (int(rng.uniform(0.03, 0.3) * wl) + 1, int(rng.uniform(0.03, 0.3) * hl) + 1)
            cv2.ellipse(mask, ec, ax, float(rng.uniform(0, 180)), 0, 360, 255, -1)
        a = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(1, 12)))[..., None].astype(np.float32)
        a *= float(rng.uniform(0.4, 1.0)) / 255
        low = low * (1 - a) + col.astype(np.float32) * a
    low *= (1 + float(rng.uniform(0.02, 0.08)) * (rng.random((hl, wl, 1), dtype=np.float32) - 0.5))
    canvas = np.clip(cv2.resize(low, (wc, hc), interpolation=cv2.INTER_LINEAR), 0, 255).astype(np.uint8)

    y0, y1 = px(np.zeros(2)), px(np.array([lay.yard_w, lay.yard_h]))
    pad = float(rng.uniform(0, 2)) * ppm
    xa, ya = max(0, int(y0[0] - pad)), max(0, int(y0[1] - pad))
    xb, yb = min(wc, int(y1[0] + pad)), min(hc, int(y1[1] + pad))
    style = rng.random()
    cube_px = lay.cube_mm * ppm
    if style < 0.75:  # printed yard panel
        ppal = _palette(rng) if rng.random() < 0.5 else pal
        roi = canvas[ya:yb, xa:xb].astype(np.float32)
        pn = _smooth_noise(rng, yb - ya, xb - xa, float(rng.uniform(3, 12)))[..., None]
        panel = ppal[0].astype(np.float32) * (0.85 + 0.3 * pn)
        alpha = float(rng.uniform(0.35, 1.0))
        roi = roi * (1 - alpha) + panel * alpha
        canvas[ya:yb, xa:xb] = np.clip(roi, 0, 255).astype(np.uint8)
        if style < 0.4:  # gravel
            n = int((xb - xa) * (yb - ya) / (cube_px**2) * rng.uniform(1, 6))
            for _ in range(min(n, 1500)):
                dc = (int(rng.uniform(xa, xb)) * 16, int(rng.uniform(ya, yb)) * 16)
                dr = max(1, int(cube_px * rng.uniform(0.03, 0.16)))
                col = ppal[int(rng.integers(len(ppal)))] * rng.uniform(0.7, 1.25)
                cv2.circle(canvas, dc, dr * 16, np.clip(col, 0, 255).tolist(), -1, cv2.LINE_AA, 4)
    if rng.random() < 0.4:  # hatching
        ang = rng.uniform(0, math.pi)
        d = np.array([math.cos(ang), math.sin(ang)])
        nrm = np.array([-d[1], d[0]])
        step = float(rng.uniform(1.2, 4)) * ppm
        col = np.clip(pal[0] * rng.uniform(0.6, 0.9), 0, 255).tolist()
        mid = np.array([wc / 2, hc / 2])
        span = float(np.hypot(wc, hc))
        for k in np.arange(-span / 2, span / 2, step):
            p = mid + nrm * k
            cv2.line(canvas, _ipt(p - d * span), _ipt(p + d * span), col, 1, cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(0, 3))):  # railway tracks
        pts = np.array([[rng.uniform(-0.2, 1.2) * wc, rng.uniform(-0.2, 1.2) * hc] for _ in range(3)])
        ts = np.linspace(0, 1, 80)[:, None]
        curve = (1 - ts) ** 2 * pts[0] + 2 * ts * (1 - ts) * pts[1] + ts**2 * pts[2]
        tang = np.gradient(curve, axis=0)
        tang /= np.linalg.norm(tang, axis=1, keepdims=True) + 1e-9
        nrm = np.stack([-tang[:, 1], tang[:, 0]], 1)
        gauge = float(rng.uniform(2.5, 6)) * ppm
        dark = np.clip(_bgr(_INKS[0]) * rng.uniform(1, 3), 0, 255).tolist()
        length = np.concatenate([[0], np.cumsum(np.linalg.norm(np.diff(curve, axis=0), axis=1))])
        spacing = float(rng.uniform(0.45, 0.8)) * gauge
        for s in np.arange(0, length[-1], spacing):
            i = min(int(np.searchsorted(length, s)), len(curve) - 1)
            cv2.line(canvas, _ipt(curve[i] - nrm[i] * gauge * 0.8), _ipt(curve[i] + nrm[i] * gauge * 0.8),
                     (40, 60, 90), max(1, int(gauge * 0.18)), cv2.LINE_AA, 4)
        for side in (-0.5, 0.5):
            rail = np.round((curve + nrm * gauge * side) * 16).astype(np.int32)
            cv2.polylines(canvas, [rail], False, dark, max(1, int(gauge * 0.12)), cv2.LINE_AA, 4)
    lo = px(lay.content().min(0) - 15)
    hi = px(lay.content().max(0) + 15)
    for _ in range(int(rng.integers(3, 16))):  # printed icons, smaller than a cube
        c = np.array([rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1])])
        r = float(cube_px * rng.uniform(0.12, 0.32))
        col = np.clip(_bgr(_INKS[int(rng.integers(len(_INKS)))]) * rng.uniform(0.85, 1.1), 0, 255)
        outline = rng.random() < 0.6
        kind = int(rng.integers(4))
        if kind == 0:
            cv2.circle(canvas, _ipt(c), int(r * 16), col.tolist(), -1, cv2.LINE_AA, 4)
            poly = None
        elif kind == 1:
            poly = c + (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * r) @ _rot2(rng.uniform(0, 1.6)).T
        elif kind == 2:
            poly = c + np.array([[0, -1.2], [1.04, 0.6], [-1.04, 0.6]]) * r
        else:  # flat isometric cube symbol: three shaded rhombi
            hexa = np.array([[math.cos(a), math.sin(a)] for a in np.arange(6) * math.pi / 3 + math.pi / 6]) * r
            for k, shade in enumerate((1.0, 0.75, 0.55)):
                face = c + np.array([[0, 0], hexa[(2 * k + 3) % 6], hexa[(2 * k + 4) % 6], hexa[(2 * k + 5) % 6]])
                cv2.fillConvexPoly(canvas, np.round(face * 16).astype(np.int32), (col * shade).tolist(), cv2.LINE_AA, 4)
            if outline:
                hx = np.round((c + hexa) * 16).astype(np.int32)
                cv2.polylines(canvas, [hx], True, (25, 22, 20), 1, cv2.LINE_AA, 4)
            poly = None
        if poly is not None:
            ip = np.round(poly * 16).astype(np.int32)
            cv2.fillConvexPoly(canvas, ip, col.tolist(), cv2.LINE_AA, 4)
            if outline:
                cv2.polylines(canvas, [ip], True, (25, 22, 20), 1, cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(1, 8))):  # text labels
        word = _WORDS[int(rng.integers(len(_WORDS)))]
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]))
        scale = float(rng.uniform(2.2, 6.0)) * ppm / 22
        thick = max(1, int(scale * rng.uniform(1, 2.5)))
        (tw, th), base = cv2.getTextSize(word, font, scale, thick)
        col = np.clip(_bgr(_INKS[int(rng.integers(len(_INKS)))]), 0, 255).tolist()
        x, y = int(rng.uniform(lo[0], hi[0])), int(rng.uniform(lo[1], hi[1]))
        vertical = rng.random() < 0.25
        bw, bh = (th + base + 4, tw + 4) if vertical else (tw + 4, th + base + 4)
        if x < 0 or y < 0 or x + bw > wc or y + bh > hc:
            continue
        roi = canvas[y:y + bh, x:x + bw]
        work = np.ascontiguousarray(np.rot90(roi)) if vertical else roi.copy()
        cv2.putText(work, word, (2, th + 2), font, scale, col, thick, cv2.LINE_AA)
        canvas[y:y + bh, x:x + bw] = np.rot90(work, -1) if vertical else work
    if rng.random() < 0.75:  # yard border line
        col = np.clip(_bgr(_INKS[int(rng.choice([0, 1, 8, 4]))]), 0, 255).tolist()
        thick = max(1, int(rng.uniform(0.4, 1.6) * ppm))
        p0, p1 = px(np.zeros(2)), px(np.array([lay.yard_w, lay.yard_h]))
        cv2.rectangle(canvas, _ipt(p0), _ipt(p1), col, thick, cv2.LINE_AA, 4)
        if rng.random() < 0.3:
            e = thick * 2.5
            cv2.rectangle(canvas, _ipt(p0 - e), _ipt(p1 + e), col, max(1, thick // 2), cv2.LINE_AA, 4)
    if rng.random() < 0.2:  # board edge and the table beyond it
        side = int(rng.integers(4))
        cmin, cmax = px(lay.content().min(0)), px(lay.content().max(0))
        gap = float(rng.uniform(10, 70)) * ppm
        edge = [int(cmin[0] - gap), int(cmin[1] - gap), int(cmax[0] + gap), int(cmax[1] + gap)][side]
        sl = [np.s_[:, :max(edge, 0)], np.s_[:max(edge, 0), :], np.s_[:, edge:], np.s_[edge:, :]][side]
        region = canvas[sl]
        if region.size:
            rh, rw = region.shape[:2]
            wood = _bgr(_PALETTES["ochre"][int(rng.integers(5))]) * rng.uniform(0.5, 1.0)
            cloth = np.array(rng.uniform(30, 200, 3))
            tcol = wood if rng.random() < 0.6 else cloth
            streak = cv2.resize(rng.random((max(2, rh // 40), 4), dtype=np.float32), (rw, rh),
                                interpolation=cv2.INTER_CUBIC) if side % 2 == 0 else cv2.resize(
                rng.random((4, max(2, rw // 40)), dtype=np.float32), (rw, rh), interpolation=cv2.INTER_CUBIC)
            canvas[sl] = np.clip(tcol.astype(np.float32) * (0.8 + 0.4 * streak[..., None]), 0, 255).astype(np.uint8)
            e2 = max(1, int(ppm * rng.uniform(0.5, 1.5)))
            edge_sl = [np.s_[:, max(edge - e2, 0):max(edge, 0)], np.s_[max(edge - e2, 0):max(edge, 0), :],
                       np.s_[:, edge:edge + e2], np.s_[edge:edge + e2, :]][side]
            canvas[edge_sl] = (canvas[edge_sl] * 0.45).astype(np.uint8)
    _draw_markers(rng, canvas, lay, origin, ppm)
    return canvas


def _draw_markers(rng: np.random.Generator, canvas: U8, lay: _Layout, origin: F64, ppm: float) -> None:
    cell = 12
    paper_col = np.clip(np.array([240, 242, 244]) * rng.uniform(0.92, 1.04) + rng.normal(0, 4, 3), 0, 255)
    ink = float(rng.uniform(15, 45))
    for mid in MARKER_IDS:
        paper = lay.papers[mid]
        side_mm = float(np.linalg.norm(paper[1] - paper[0]))
        n = int(round(6 * cell * side_mm / lay.marker_mm))
        n += (n - 6 * cell) % 2
        img = np.empty((n, n, 3), np.uint8)
        img[:] = paper_col.astype(np.uint8)
        mk = cv2.aruco.generateImageMarker(_ARUCO_DICT, mid, 6 * cell)
        q = (n - 6 * cell) // 2
        img[q:q + 6 * cell, q:q + 6 * cell] = np.where(mk[..., None] > 127, paper_col, ink).astype(np.uint8)
        centre_px = (paper.mean(0) - origin) * ppm
        a = _rot2(lay.rotations[mid]) * (ppm * side_mm / n)
        corners_px = (paper - origin) * ppm
        bx0, by0 = np.floor(corners_px.min(0)).astype(int) - 2
        bx1, by1 = np.ceil(corners_px.max(0)).astype(int) + 2
        bx0, by0 = max(bx0, 0), max(by0, 0)
        bx1, by1 = min(bx1, canvas.shape[1]), min(by1, canvas.shape[0])
        off = centre_px - a @ np.array([n / 2 - 0.5, n / 2 - 0.5]) - np.array([bx0, by0])
        m = np.hstack([a, off[:, None]])
        size = (int(bx1 - bx0), int(by1 - by0))
        warped = cv2.warpAffine(img, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        alpha = cv2.warpAffine(np.full((n, n), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
        al = alpha[..., None].astype(np.float32) / 255
        roi = canvas[by0:by1, bx0:bx1]
        canvas[by0:by1, bx0:bx1] = (roi * (1 - al) + warped * al).astype(np.uint8)


# ------------------------------------------------------------------------------------------ cubes


@dataclass(frozen=True)
class _Cube:
    colour: str
    centre: F64
    size: float
    yaw: float
    paint: F64  # BGR reflectance 0..1
    grain: int

    def base(self) -> F64:
        sq = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * self.size / 2
        return self.centre + sq @ _rot2(self.yaw).T

    def vertices(self) -> F64:
        b = self.base()
        return np.vstack([np.hstack([b, np.zeros((4, 1))]), np.hstack([b, np.full((4, 1), -self.size)])])


@dataclass(frozen=True)
class _Sun:
    light: F64  # unit vector towards the light (z negative = above the board)
    ambient: float
    cast: float
    soft: float
    contact: float


def _random_sun(rng: np.random.Generator) -> _Sun:
    az = float(rng.uniform(0, 2 * math.pi))
    el = math.radians(float(rng.uniform(30, 80)))
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
    ambient = float(rng.uniform(0.3, 0.65))
    return _Sun(light, ambient, (1 - ambient) * float(rng.uniform(0.55, 0.95)), float(rng.uniform(0.04, 0.45)),
                float(rng.uniform(0.3, 0.6)))


def _sample_counts(rng: np.random.Generator) -> dict[str, int]:
    u = rng.random()
    if u < 0.1:
        return dict.fromkeys(COLOURS, 0)
    counts = {
        "iron": int(rng.triangular(0, 5, 12.999)),
        "stone": int(rng.triangular(0, 2, 8.999)),
        "coal": int(rng.choice([0, 0, 1, 1, 2, 3])),
        "event": int(rng.choice([0, 0, 0, 1, 2])),
    }
    if u < 0.25:  # crowded yard
        target = int(rng.integers(14, 21))
        caps = {"iron": 12, "stone": 8, "coal": 3, "event": 2}
        while sum(counts.values()) < target:
            c = str(rng.choice(["iron", "iron", "stone", "stone", "coal", "event"]))
            if counts[c] < caps[c]:
                counts[c] += 1
    return counts


def _separated(a: F64, b: F64, tol: float) -> bool:
    for poly in (a, b):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            axis = np.array([-e[1], e[0]]) / (np.hypot(e[0], e[1]) + 1e-12)
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + tol or pb.max() <= pa.min() + tol:
                return True
    return False


def _hull(uv: F64) -> F64:
    return cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _cube_paint(rng: np.random.Generator, colour: str) -> F64:
    rgb = np.array(_CUBE_RGB[colour], np.float64) * rng.uniform(0.92, 1.08)
    if colour == "iron":
        rgb[1] += rng.normal(0, 10)
    elif colour == "event":
        rgb[2] -= abs(rng.normal(0, 8))
    rgb += rng.normal(0, 3, 3)
    return np.clip(rgb[::-1] / 255, 0.02, 1.0)


def _place_cubes(rng: np.random.Generator, lay: _Layout, cam: _Camera, wanted: dict[str, int]) -> list[_Cube]:
    order = [c for c in COLOURS for _ in range(wanted[c])]
    grouping = rng.random() < 0.5
    if grouping:
        perm = rng.permutation(len(COLOURS))
        order.sort(key=lambda c: int(perm[COLOURS.index(c)]))
    else:
        rng.shuffle(order)
    p_adj = float(rng.uniform(0.1, 0.85))
    aligned = rng.random() < 0.5
    papers = [cam.project(p) for p in lay.papers]
    placed: list[_Cube] = []
    for colour in order:
        s = lay.cube_mm * float(1 + rng.normal(0, 0.015))
        paint = _cube_paint(rng, colour)
        grain = int(rng.integers(_N_GRAIN))
        for _ in range(150):
            if placed and rng.random() < p_adj:
                same = [c for c in placed if c.colour == colour]
                pool = same if grouping and same else placed
                a = pool[int(rng.integers(len(pool)))]
                ang = a.yaw + int(rng.integers(4)) * math.pi / 2
                dyaw = float(rng.normal(0, 0.05))
                gap = float(rng.uniform(0, 0.06)) * s + s * abs(math.sin(dyaw)) + 0.05
                lateral = float(rng.uniform(-0.3, 0.3)) * s if rng.random() < 0.4 else 0.0
                d = np.array([math.cos(ang), math.sin(ang)])
                centre = a.centre + d * (a.size / 2 + s / 2 + gap) + np.array([-d[1], d[0]]) * lateral
                yaw = a.yaw + dyaw
            else:
                centre = rng.uniform(0, 1, 2) * np.array([lay.yard_w - s, lay.yard_h - s]) + 0.5 * s
                yaw = float(rng.normal(0, 0.1)) if aligned else float(rng.uniform(0, math.pi / 2))
            cube = _Cube(colour, centre, s, yaw, paint, grain)
            base = cube.base()
            if base.min() < 0.3 or base[:, 0].max() > lay.yard_w - 0.3 or base[:, 1].max() > lay.yard_h - 0.3:
                continue
            if not all(_separated(base, o.base(), 0.02) for o in placed):
                continue
            hull = _hull(cam.project(cube.vertices()))
            if hull.min() < 3 or hull[:, 0].max() > FRAME_W - 3 or hull[:, 1].max() > FRAME_H - 3:
                continue
            if not all(_separated(hull, p, -3.0) for p in papers):
                continue
            placed.append(cube)
            break
    return placed


def _grain_textures(rng: np.random.Generator) -> list[F32]:
    out = []
    g = _GRAIN_PX
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for _ in range(_N_GRAIN):
        profile = cv2.GaussianBlur(rng.standard_normal((1, 4 * g)).astype(np.float32), (0, 0), 1.2).ravel()
        profile = profile / (np.abs(profile).max() + 1e-6)
        warp = yy * 2 + 3 * np.sin(xx * rng.uniform(0.05, 0.2) + rng.uniform(0, 6)) + xx * rng.uniform(-0.3, 0.3)
        tex = np.interp(np.mod(warp, 4 * g - 1).ravel(), np.arange(4 * g), profile).reshape(g, g)
        tex = tex + 0.35 * rng.standard_normal((g, g))
        out.append(tex.astype(np.float32))
    return out


def _shadows(img: F32, cubes: list[_Cube], cam: _Camera, sun: _Sun) -> None:
    if not cubes:
        return
    cast = np.zeros((FRAME_H, FRAME_W), np.uint8)
    contact = np.zeros((FRAME_H, FRAME_W), np.uint8)
    t = cubes[0].size / -sun.light[2]
    for c in cubes:
        b = c.base()
        top_shadow = b - t * sun.light[:2] * (c.size / cubes[0].size)
        hull = _hull(cam.project(np.vstack([b, top_shadow])))
        cv2.fillConvexPoly(cast, np.round(hull * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        grown = c.centre + (b - c.centre) * 1.14
        cv2.fillConvexPoly(contact, np.round(cam.project(grown) * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    uv = cam.project(cubes[0].base())
    s_px = float(np.linalg.norm(uv[1] - uv[0]))
    soft = max(0.6, sun.soft * s_px)
    cb = cv2.GaussianBlur(cast, (0, 0), soft).astype(np.float32) / 255
    kb = cv2.GaussianBlur(contact, (0, 0), max(0.6, 0.08 * s_px)).astype(np.float32) / 255
    img *= ((1 - sun.cast * cb) * (1 - sun.contact * kb))[..., None]


def _draw_face(img: F32, mask: NDArray[np.bool_], poly: F64, colour: F64, tex: F32, edge: F64 | None) -> None:
    x0, y0 = np.maximum(np.floor(poly.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(poly.max(0)).astype(int) + 2, [FRAME_W, FRAME_H])
    if x1 - x0 < 1 or y1 - y0 < 1:
        return
    local = poly - np.array([x0, y0])
    d1, d2 = local[2] - local[0], local[3] - local[1]
    area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
    if area < 1.0:
        return
    w, h = int(x1 - x0), int(y1 - y0)
    alpha = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(alpha, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    g = float(_GRAIN_PX - 1)
    src = np.array([[0, 0], [g, 0], [g, g], [0, g]], np.float32)
    m = cv2.getPerspectiveTransform(src, local.astype(np.float32))
    t = cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    col = t[..., None] * colour.astype(np.float32)[None, None, :]  # grain-modulated paint
    a = alpha.astype(np.float32)[..., None] / 255
    roi = img[y0:y1, x0:x1]
    roi += (col - roi) * a
    if edge is not None:
        em = np.zeros((h, w), np.uint8)
        cv2.polylines(em, [np.round(local * 16).astype(np.int32)], True, 255, 1, cv2.LINE_AA, 4)
        ea = em.astype(np.float32)[..., None] / 255 * 0.45 * a
        roi += (edge.astype(np.float32) - roi) * ea
    mask[y0:y1, x0:x1] |= alpha >= 128


_SIDE_FACES: tuple[tuple[int, ...], ...] = ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
_SIDE_NORMALS = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], np.float64)


def _draw_cubes(img: F32, cubes: list[_Cube], cam: _Camera, sun: _Sun, grains: list[F32]) -> NDArray[np.bool_]:
    mask = np.zeros((FRAME_H, FRAME_W), np.bool_)
    order = sorted(cubes, key=lambda c: -float(np.linalg.norm(np.append(c.centre, -c.size / 2) - cam.C)))
    for c in order:
        v3 = c.vertices()
        uv = cam.project(v3)
        tex = 1 + _GRAIN_STRENGTH[c.colour] * grains[c.grain]
        faces: list[tuple[tuple[int, ...], F64]] = [((4, 5, 6, 7), np.array([0.0, 0.0, -1.0]))]
        for idx, n2 in zip(_SIDE_FACES, _SIDE_NORMALS, strict=True):
            n = _rot2(c.yaw) @ n2
            faces.append((idx, np.array([n[0], n[1], 0.0])))
        for idx, normal in faces:
            centre = v3[list(idx)].mean(0)
            if float(normal @ (cam.C - centre)) <= 0:
                continue
            lam = max(0.0, float(normal @ sun.light))
            shade = sun.ambient + (1 - sun.ambient) * lam
            colour = c.paint * shade + 0.05 * lam**3
            is_top = idx[0] == 4
            edge = np.minimum(colour * 1.3 + 0.06, 1.0) if is_top else None
            _draw_face(img, mask, uv[list(idx)], colour, tex, edge)
    return mask


# ------------------------------------------------------------------------------------------- hand


def _draw_hand(rng: np.random.Generator, img: F32, cube_mask: NDArray[np.bool_], cam: _Camera, lay: _Layout,
               sun: _Sun) -> None:
    yard = cam.project(lay.yard)
    ppx = math.sqrt(abs(cv2.contourArea(yard.astype(np.float32))) / (lay.yard_w * lay.yard_h))
    u, v = rng.uniform(0.15, 0.85, 2)
    tip = (1 - v) * ((1 - u) * yard[0] + u * yard[1]) + v * ((1 - u) * yard[3] + u * yard[2])
    ang = float(rng.uniform(0, 2 * math.pi))
    d = np.array([math.cos(ang), math.sin(ang)])
    n = np.array([-d[1], d[0]])
    palm_w = float(rng.uniform(72, 92)) * ppx
    palm_l = palm_w * float(rng.uniform(0.95, 1.15))
    finger = palm_l * float(rng.uniform(0.35, 0.85))
    fore_w = palm_w * float(rng.uniform(0.72, 0.85))
    palm_c = tip + d * (finger + palm_l / 2)
    wrist = palm_c + d * palm_l * 0.45
    far = wrist + d * 3000
    m = np.zeros((FRAME_H, FRAME_W), np.uint8)
    arm = np.array([wrist + n * fore_w / 2, far + n * fore_w * 0.65, far - n * fore_w * 0.65, wrist - n * fore_w / 2])
    cv2.fillConvexPoly(m, np.round(arm * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    cv2.ellipse(m, _ipt(palm_c), (int(palm_l / 2 * 16), int(palm_w / 2 * 16)), math.degrees(ang), 0, 360, 255, -1,
                cv2.LINE_AA, 4)
    fw = max(2, int(palm_w * 0.21))
    for i in range(4):
        off = (i - 1.5) / 1.5 * palm_w * 0.34
        start = palm_c - d * palm_l * 0.3 + n * off
        fan = (i - 1.5) * 0.06 + float(rng.normal(0, 0.08))
        fd = _rot2(fan) @ -d
        length = finger * (0.8 if i in (0, 3) else 1.0) * float(rng.uniform(0.85, 1.1))
        cv2.line(m, _ipt(start), _ipt(start + fd * length), 255, fw, cv2.LINE_AA, 4)
    side = 1 if rng.random() < 0.5 else -1
    ts = palm_c + n * side * palm_w * 0.38 + d * palm_l * 0.1
    cv2.line(m, _ipt(ts), _ipt(ts + _rot2(side * float(rng.uniform(0.4, 1.0))) @ -d * finger * 0.8), 255,
             int(fw * 1.1), cv2.LINE_AA, 4)
    alpha = m.astype(np.float32) / 255
    # Soft shadow of the hand, which floats a few cm above the board.
    height = float(rng.uniform(30, 110))
    centre = lay.yard.mean(0)
    disp = -height / math.tan(math.asin(-sun.light[2])) * sun.light[:2] / (np.linalg.norm(sun.light[:2]) + 1e-9)
    shift = cam.project(np.vstack([centre + disp, centre]))
    sh = shift[0] - shift[1]
    shadow = cv2.warpAffine(alpha, np.array([[1, 0, sh[0]], [0, 1, sh[1]]], np.float32), (FRAME_W, FRAME_H))
    shadow = cv2.GaussianBlur(shadow, (0, 0), palm_w * float(rng.uniform(0.05, 0.2)))
    img *= (1 - float(rng.uniform(0.3, 0.55)) * shadow)[..., None]
    # Colour: skin with round shading, optional sleeve.
    skin = _bgr(_SKINS[int(rng.integers(len(_SKINS)))]) / 255 * rng.uniform(0.9, 1.08)
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 5)
    shade = 0.55 + 0.45 * np.sqrt(np.clip(dist / (0.3 * palm_w), 0, 1))
    layer = shade[..., None] * skin.astype(np.float32)[None, None, :]
    if rng.random() < 0.6:
        yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
        along = (xx - wrist[0]) * d[0] + (yy - wrist[1]) * d[1]
        sleeve = along > palm_l * float(rng.uniform(0.2, 1.5))
        cloth = rng.uniform(0.05, 0.8, 3).astype(np.float32)
        layer[sleeve] = shade[sleeve][:, None] * cloth[None, :]
    layer = layer.astype(np.float32)
    if rng.random() < 0.35:
        length = int(rng.uniform(6, 30))
        k = np.zeros((length, length), np.float32)
        a2 = float(rng.uniform(0, math.pi))
        c2 = (length - 1) / 2
        cv2.line(k, (int(round(c2 - math.cos(a2) * c2)), int(round(c2 - math.sin(a2) * c2))),
                 (int(round(c2 + math.cos(a2) * c2)), int(round(c2 + math.sin(a2) * c2))), 1.0, 1)
        k /= k.sum()
        layer = np.asarray(cv2.filter2D(layer * alpha[..., None], -1, k), np.float32)
        alpha = np.asarray(cv2.filter2D(alpha, -1, k), np.float32)
        layer = layer / np.maximum(alpha, 1e-4)[..., None]
    img *= 1 - alpha[..., None]
    img += layer * alpha[..., None]
    cube_mask &= alpha < 0.5


# ------------------------------------------------------------------------------- light and optics


@dataclass(frozen=True)
class _Lighting:
    gain: F64
    lamp: F64
    lamp_xy: tuple[float, float]
    lamp_sigma: float
    grad: tuple[float, float]
    vignette: float


def _random_lighting(rng: np.random.Generator) -> _Lighting:
    temp = float(rng.uniform(-1, 1))
    gain = np.array([1 - 0.25 * temp, 1 + rng.normal(0, 0.03), 1 + 0.22 * temp]) * rng.uniform(0.55, 1.2)
    lamp = np.zeros(3)
    if rng.random() < 0.5:
        lt = float(rng.uniform(0, 1))
        lamp = np.array([1 - 0.35 * lt, 1 - 0.1 * lt, 1 + 0.15 * lt]) * rng.uniform(0.1, 0.55)
    ga = float(rng.uniform(0, 2 * math.pi))
    amp = float(rng.uniform(0, 0.4))
    return _Lighting(gain, lamp, (float(rng.uniform(-0.2, 1.2) * FRAME_W), float(rng.uniform(-0.2, 1.2) * FRAME_H)),
                     float(rng.uniform(250, 800)), (amp * math.cos(ga), amp * math.sin(ga)),
                     float(rng.uniform(0, 0.5)))


def _light_field(li: _Lighting, level: int) -> F32:
    h, w = FRAME_H // 8, FRAME_W // 8
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    xx, yy = (xx + 0.5) * 8, (yy + 0.5) * 8
    base = 1 + li.grad[0] * (xx / FRAME_W - 0.5) + li.grad[1] * (yy / FRAME_H - 0.5)
    r2 = ((xx - FRAME_W / 2) ** 2 + (yy - FRAME_H / 2) ** 2) / ((FRAME_W / 2) ** 2 + (FRAME_H / 2) ** 2)
    base *= 1 - li.vignette * r2
    hot = np.exp(-((xx - li.lamp_xy[0]) ** 2 + (yy - li.lamp_xy[1]) ** 2) / (2 * li.lamp_sigma**2))
    field = base[..., None] * li.gain + hot[..., None] * li.lamp
    if level >= 2:
        field = 0.4 * field + 0.6 * field.mean((0, 1)) / max(float(field.mean()), 1e-3)
    return cv2.resize(field.astype(np.float32), (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)


@dataclass(frozen=True)
class _Optics:
    focus: float
    motion: float
    motion_angle: float
    noise: float
    jpeg: int


def _random_optics(rng: np.random.Generator) -> _Optics:
    motion = float(rng.uniform(2, 6)) if rng.random() < 0.15 else 0.0
    return _Optics(float(rng.uniform(0, 1.4)), motion, float(rng.uniform(0, math.pi)), float(rng.uniform(1, 5)),
                   int(rng.integers(60, 96)))


def _finish(img: F32, li: _Lighting, op: _Optics, level: int, rng: np.random.Generator) -> U8:
    x = img * _light_field(li, level)
    focus = op.focus * 0.5**level
    if focus > 0.3:
        x = np.asarray(cv2.GaussianBlur(x, (0, 0), focus), np.float32)
    if op.motion >= 2 and level == 0:
        n = int(math.ceil(op.motion)) | 1
        k = np.zeros((n, n), np.float32)
        c = (n - 1) / 2
        dx, dy = math.cos(op.motion_angle) * c, math.sin(op.motion_angle) * c
        cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
        x = np.asarray(cv2.filter2D(x, -1, k / k.sum()), np.float32)
    gain = 1 / max(0.5, float(li.gain.mean()))
    sigma = op.noise * 0.5**level / 255 * gain
    noise = rng.standard_normal(x.shape, dtype=np.float32)
    x = x + noise * (sigma * np.sqrt(np.clip(x, 0.01, 1.0) + 0.15))
    out = np.clip(x * 255 + 0.5, 0, 255).astype(np.uint8)
    quality = max(op.jpeg, 80 + 7 * level) if level else op.jpeg
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert ok and decoded is not None
    return np.asarray(decoded, np.uint8)


def markers_found(image: U8) -> set[int]:
    """Ids of the yard markers that cv2.aruco finds with default parameters."""
    _, ids, _ = _DETECTOR.detectMarkers(image)
    return set() if ids is None else {int(i) for i in np.asarray(ids).ravel()} & set(MARKER_IDS)


def _finish_checked(clean: F32, extra: F32 | None, li: _Lighting, op: _Optics, seed: int, which: int) -> U8:
    """Finish `clean` (hand-free); retry with milder optics if a marker is missed.

    If `extra` (the same picture with a hand) is given, it is finished at the level found for `clean`.
    """
    for level in range(3):
        out = _finish(clean, li, op, level, np.random.default_rng((seed, which, level)))
        if level == 2 or markers_found(out) == set(MARKER_IDS):
            break
    if extra is None:
        return out
    return _finish(extra, li, op, level, np.random.default_rng((seed, which, level)))


# ------------------------------------------------------------------------------------------ scene


@dataclass(frozen=True)
class _Scene:
    pair: ThirdPair
    cubes: list[_Cube]
    layout: _Layout
    play_camera: _Camera
    calibration_camera: _Camera


def _generate(seed: int, hand: bool) -> _Scene:
    rng = np.random.default_rng(seed)
    wanted = _sample_counts(rng)
    lay = _make_layout(rng, sum(wanted.values()))
    cal_p = _fit_camera(rng, lay)
    play_p = _nudge(rng, cal_p, lay)
    cal_cam, play_cam = cal_p.build(), play_p.build()

    # Board canvas covering what both cameras see.
    frame = np.array([[-30, -30], [FRAME_W + 30, -30], [FRAME_W + 30, FRAME_H + 30], [-30, FRAME_H + 30]], np.float64)
    pts = np.vstack([cal_cam.backproject(frame), play_cam.backproject(frame), lay.content()])
    centre = lay.yard.mean(0)
    pts = np.clip(pts, centre - 700, centre + 700)
    origin = pts.min(0) - 2
    extent = pts.max(0) + 2 - origin
    yard_px = cal_cam.project(lay.yard)
    scale = float(np.linalg.norm(yard_px[1] - yard_px[0]) + np.linalg.norm(yard_px[2] - yard_px[3])) / (2 * lay.yard_w)
    ppm = min(1.05 * scale, 2200 / float(extent.max()))
    wc, hc = int(math.ceil(extent[0] * ppm)), int(math.ceil(extent[1] * ppm))
    canvas = _paint_board(rng, lay, origin, ppm, wc, hc)
    s_inv = np.array([[1 / ppm, 0, origin[0]], [0, 1 / ppm, origin[1]], [0, 0, 1]], np.float64)

    def board_view(cam: _Camera) -> F32:
        h = cam.homography() @ s_inv
        out = cv2.warpPerspective(canvas, h, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        return out.astype(np.float32) * np.float32(1 / 255)

    cubes = _place_cubes(rng, lay, play_cam, wanted)
    sun = _random_sun(rng)
    grains = _grain_textures(rng)
    cal_light = _random_lighting(rng)
    other = _random_lighting(rng)
    if rng.random() < 0.35:  # nearly the same light in play
        play_light = _Lighting(cal_light.gain * rng.uniform(0.95, 1.05, 3), cal_light.lamp, cal_light.lamp_xy,
                               cal_light.lamp_sigma, cal_light.grad, cal_light.vignette)
    else:
        play_light = other
    cal_optics, play_optics = _random_optics(rng), _random_optics(rng)

    calibration = _finish_checked(board_view(cal_cam), None, cal_light, cal_optics, seed, 0)
    play_f = board_view(play_cam)
    _shadows(play_f, cubes, play_cam, sun)
    cube_mask = _draw_cubes(play_f, cubes, play_cam, sun, grains)
    with_hand: F32 | None = None
    if hand:
        with_hand = play_f.copy()
        _draw_hand(np.random.default_rng((seed, 7919)), with_hand, cube_mask, play_cam, lay, sun)
    play_img = _finish_checked(play_f, with_hand, play_light, play_optics, seed, 1)
    counts = {c: sum(1 for k in cubes if k.colour == c) for c in COLOURS}
    pair = ThirdPair(calibration, ThirdPlay(play_img, counts, cube_mask), hand)
    return _Scene(pair, cubes, lay, play_cam, cal_cam)


def third_scene_pair(seed: int, hand: bool = False) -> ThirdPair:
    """Calibration picture of the empty yard and a play picture with cubes (and a hand if asked)."""
    return _generate(seed, hand).pair
