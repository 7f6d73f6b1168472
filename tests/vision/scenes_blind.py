"""Blind synthetic stock-yard photographs, written independently of the reader.

``blind_scene_pair(seed)`` renders a calibration photo of the empty stock yard and a play photo of the
same yard with wooden cubes on it, as a Raspberry Pi camera above a living-room table would take them.
Everything is drawn from ``numpy.random.default_rng(seed)``, so a seed always gives the same pair.

Modelling choices
-----------------
World and board
    Millimetres on the table plane ``z = 0``; the yard is an axis-aligned rectangle centred on the origin,
    ``+y`` is the yard's "top".  The yard is 110-230 mm wide and 75-150 mm high (aspect 1.15-1.9).  It is
    printed as a panel (parchment, sand, pale stone, olive or blue-grey; plain, hatched or drawn as planks,
    all low contrast) with a dark printed border 1-2.5 mm wide *inside* the yard rectangle, sometimes with
    a thin decorative frame line just outside it.  Around it lies board artwork: a noise-based landscape
    (muted greens, browns, heather or slate, sometimes posterised, sometimes with contour lines), rivers,
    a rack railway with sleepers, dashed paths, small buildings, station names and numbered circles (text
    and icons are kept well away from the yard and markers).  Beyond the board edge (40-260 mm from the
    yard) is the table: wood grain or a plain cloth, with the board's shadow on it.

Markers
    DICT_4X4_50 ids 0, 1, 2, 3 at the top-left, top-right, bottom-right and bottom-left corners.  Each
    marker (black square 18-30 mm, 10-16 % of the yard width) is printed in the middle of its own white
    paper square with a white margin of 0.4-0.55 marker sides on every side (with tighter margins OpenCV's
    detector often takes the paper outline for the marker).  If a marker would be under 52 px wide in
    either photo it is "reprinted" larger, up to 36 mm.  The papers lie *outside* the yard, diagonally out
    from each corner: the paper's inner corner is 1.5-4 mm out from the yard corner along both axes, plus
    +-1 mm of placement jitter and +-3 degrees of rotation.  So each marker centre is about
    ``gap + marker * (1/2 + margin)`` (roughly 20-40 mm) outside its yard corner along both yard axes, and
    the quadrilateral of marker centres strictly contains the yard.  Markers are upright with the yard.

Cubes
    0-15 cubes (8 % empty, 7 % one or two, 75 % 3-12, 10 % 13-15), kinds drawn with per-scene Dirichlet
    weights.  Cube side 9.4-10.6 mm per scene, +-2 % per cube, i.e. 4-10 % of the yard width; in the image
    a cube is about 13-38 px wide (median 23).  Each cube is a box rendered face by face in 3D
    (perspective, painter's order: side faces far to near, then the tops, which an unstacked neighbour can
    never hide), with bevelled edges, per-face wood grain (long grain on the top and two sides, end-grain
    rings on the other two), Lambert shading from the key light, sky-visibility ambient darkening towards
    the foot of the side faces, and a weak specular sheen.  Cubes lie fully inside the yard's inner area
    (inside the printed border).  Touching clusters: with a per-scene probability of 15-50 % each new cube
    is pushed against a random face of an already placed cube (same yaw +-3 degrees, 0-0.4 mm gap, slid
    along that face by up to 45 %), which makes pairs, rows and L-shapes; overlaps are rejected with a
    separating-axis test.  On the board each cube casts a shadow (its hull projected from the key light,
    blurred by the light's size) and a contact (ambient-occlusion) shadow around its footprint.

Camera
    1280x720, focal length 950-1150 px, principal point within +-12 px of the centre, mild barrel
    distortion (k1 0-0.06 in an inverse radial model), looking down with 0-22 degrees of tilt in any
    azimuth, the image rotated by N(0, 8) degrees (clipped to +-20) and, one time in four, by a further 180
    degrees.  The camera height is chosen so that the marker papers span 70-92 % of the frame in its
    tighter direction.  Between calibration and play the camera is knocked: rotation about each axis
    ~N(0, 0.6 deg) clipped to 1.5 deg, translation ~N(0, 3 mm) clipped to 8 mm.  Rendering is 2x
    supersampled, then lens distortion, area downsampling, optical blur (sigma 0.35-1.0 px), vignetting
    (corners at 55-90 %), centre-weighted auto-exposure (-0.7..+0.4 EV bias, highlights held near clipping),
    shot and read noise growing as the light dims, partial grey-world auto white balance (60-95 %),
    saturation 0.95-1.2, sRGB tone curve, mild unsharp masking and 4:2:0 JPEG at quality 65-95.

Light
    Ambient light (room light 2800-5000 K or daylight 5000-7500 K, with a linear gradient of up to 25 % per
    200 mm) plus a key light: a lamp (point source 350-1000 mm high and 100-600 mm to the side, 2600-4500 K,
    1/r^2 fall-off, so a visible gradient), an overhead lamp, or window light (directional, 25-65 degrees
    elevation, 4800-6800 K).  Key to ambient ratio 0.4-4.  Calibration light is daytime three times in
    four, play light is evening about two times in three, drawn independently, so the two photos differ in
    colour, direction, gradient and exposure; the lamp's warm pool against cooler ambient light also
    varies the white balance across one photo.

Hand
    With ``hand=True`` the play photo also shows a hand and forearm (five skin tones, often a sleeve)
    entering from an image edge with its fingertips over a random point of the yard, 30-90 mm above the
    table (so larger and a little more blurred), with a soft shadow cast along the key light.  The hand is
    drawn from its own random stream: the rest of the pair is identical with and without it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

__all__ = ["KINDS", "WIDTH", "HEIGHT", "BlindShot", "BlindPair", "blind_scene_pair"]

KINDS: tuple[str, ...] = ("iron", "stone", "coal", "event")
WIDTH, HEIGHT = 1280, 720

_SS = 2  # supersampling factor of the internal canvas
_PAD = 40  # canvas margin in output pixels (room for the lens distortion)
_CANVAS_W = (WIDTH + 2 * _PAD) * _SS
_CANVAS_H = (HEIGHT + 2 * _PAD) * _SS
# output pixel (undistorted) -> canvas pixel
_TO_CANVAS = np.array(
    [[_SS, 0.0, _SS * _PAD + (_SS - 1) / 2], [0.0, _SS, _SS * _PAD + (_SS - 1) / 2], [0.0, 0.0, 1.0]]
)
_ARUCO = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_FACE_N = 48  # resolution of one cube-face texture
_MIN_MARKER_PX = 52.0  # markers are printed large enough to be read reliably (about 9 px per cell)
_MAX_MARKER_MM = 36.0

# sRGB (R, G, B) albedo of each cube kind; wood grain amplitude.
_CUBE_SRGB: dict[str, tuple[float, float, float]] = {
    "iron": (222.0, 112.0, 38.0),
    "stone": (148.0, 147.0, 142.0),
    "coal": (40.0, 38.0, 37.0),
    "event": (238.0, 234.0, 224.0),
}
_GRAIN_AMP: dict[str, float] = {"iron": 0.07, "stone": 0.05, "coal": 0.10, "event": 0.035}


# --------------------------------------------------------------------------- public types


@dataclass(frozen=True)
class BlindShot:
    """A play photo with the ground truth of the cubes in it."""

    image: np.ndarray  # (720, 1280, 3) BGR uint8
    counts: dict[str, int]
    cube_centres: np.ndarray  # (N, 2) float: footprint centres in image pixels
    kinds: list[str]


@dataclass(frozen=True)
class BlindPair:
    """A calibration photo of the empty yard and a later play photo of the same yard."""

    calibration: np.ndarray  # (720, 1280, 3) BGR uint8
    play: BlindShot


# --------------------------------------------------------------------------- colour helpers


def _srgb_to_linear(values: np.ndarray) -> np.ndarray:
    a = np.asarray(values, np.float64) / 255.0
    return np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4).astype(np.float32)


_LUT_TO_LINEAR = _srgb_to_linear(np.arange(256, dtype=np.float64))
_LUT_LEVELS = 8192
_lin_axis = np.arange(_LUT_LEVELS, dtype=np.float64) / (_LUT_LEVELS - 1)
_LUT_TO_SRGB = np.clip(
    np.round(255 * np.where(_lin_axis <= 0.0031308, 12.92 * _lin_axis, 1.055 * _lin_axis ** (1 / 2.4) - 0.055)),
    0,
    255,
).astype(np.uint8)


def _lin_bgr(rgb: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    """Linear BGR float32 from an sRGB (R, G, B) triple in 0..255."""
    return _srgb_to_linear(np.asarray(rgb, np.float64)[::-1])


def _to_srgb8(linear: np.ndarray) -> np.ndarray:
    idx = np.clip(linear * (_LUT_LEVELS - 1) + 0.5, 0, _LUT_LEVELS - 1).astype(np.int32)
    return _LUT_TO_SRGB[idx]


def _kelvin(temp: float) -> np.ndarray:
    """Linear BGR colour of a light of ``temp`` kelvin, normalised to green = 1."""
    t = temp / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    lin = _lin_bgr(np.clip([r, g, b], 1.0, 255.0))
    return (lin / lin[1]).astype(np.float32)


def _rot2(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]])


# --------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class _Camera:
    f: float
    cx: float
    cy: float
    k1: float  # inverse radial model: undistorted = distorted * (1 + k1 r_d^2)
    rot: np.ndarray  # world -> camera; rows are image right, image down, optical axis
    pos: np.ndarray  # camera centre, world mm

    def to_undistorted(self, pts: np.ndarray) -> np.ndarray:
        pc = (np.asarray(pts, np.float64).reshape(-1, 3) - self.pos) @ self.rot.T
        return np.stack([self.cx + self.f * pc[:, 0] / pc[:, 2], self.cy + self.f * pc[:, 1] / pc[:, 2]], axis=1)

    def distort(self, uv: np.ndarray) -> np.ndarray:
        c = np.array([self.cx, self.cy])
        xu = (uv - c) / self.f
        xd = xu.copy()
        for _ in range(25):
            xd = xu / (1.0 + self.k1 * np.sum(xd * xd, axis=1, keepdims=True))
        return xd * self.f + c

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points -> final (distorted) image pixels."""
        return self.distort(self.to_undistorted(pts))

    def plane_homography(self) -> np.ndarray:
        """Table plane (x, y, 1) -> undistorted image pixels."""
        k = np.array([[self.f, 0.0, self.cx], [0.0, self.f, self.cy], [0.0, 0.0, 1.0]])
        t = -self.rot @ self.pos
        return k @ np.column_stack([self.rot[:, 0], self.rot[:, 1], t])

    def moved(self, rotvec: np.ndarray, shift: np.ndarray) -> _Camera:
        r, _ = cv2.Rodrigues(np.asarray(rotvec, np.float64).reshape(3, 1))
        return _Camera(self.f, self.cx, self.cy, self.k1, r @ self.rot, self.pos + shift)

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """remap() maps from the supersampled output frame into the undistorted canvas."""
        xs = (np.arange(WIDTH * _SS, dtype=np.float32) - (_SS - 1) / 2) / _SS
        ys = (np.arange(HEIGHT * _SS, dtype=np.float32) - (_SS - 1) / 2) / _SS
        xn = (xs - self.cx) / self.f
        yn = (ys - self.cy) / self.f
        xx, yy = np.meshgrid(xn, yn)
        factor = 1.0 + self.k1 * (xx * xx + yy * yy)
        off = _SS * _PAD + (_SS - 1) / 2
        map_x = (self.cx + self.f * xx * factor) * _SS + off
        map_y = (self.cy + self.f * yy * factor) * _SS + off
        return map_x.astype(np.float32), map_y.astype(np.float32)


def _look_at(target: np.ndarray, tilt: float, azimuth: float, up_angle: float, dist: float,
             intr: tuple[float, float, float, float]) -> _Camera:
    off = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), math.cos(tilt)])
    pos = np.array([target[0], target[1], 0.0]) + dist * off
    fwd = -off
    up = np.array([math.cos(up_angle), math.sin(up_angle), 0.0])
    down = -(up - up.dot(fwd) * fwd)
    down /= np.linalg.norm(down)
    right = np.cross(down, fwd)
    return _Camera(intr[0], intr[1], intr[2], intr[3], np.stack([right, down, fwd]), pos)


# --------------------------------------------------------------------------- light


@dataclass(frozen=True)
class _Light:
    point: bool
    key_vec: np.ndarray  # point light: position (mm); directional: unit vector towards the light
    key_col: np.ndarray  # linear BGR, including strength
    amb_col: np.ndarray
    key_grad: np.ndarray  # relative change per mm in the table plane
    amb_grad: np.ndarray
    penumbra_mm: float  # lamp radius (point) or shadow blur (directional)
    ev_bias: float
    level: float  # absolute brightness, 1 = bright day; dim light means more sensor noise

    def key_at(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit directions towards the key light and its irradiance on a surface facing it (before n.l)."""
        p = np.asarray(pts, np.float64).reshape(-1, 3)
        grad = np.clip(1.0 + p[:, :2] @ self.key_grad, 0.25, None)
        if self.point:
            d = self.key_vec - p
            r = np.linalg.norm(d, axis=1, keepdims=True)
            r0 = float(np.linalg.norm(self.key_vec))
            scale = r0**3 / self.key_vec[2] / r[:, 0] ** 2
            return d / r, scale * grad
        dirs = np.broadcast_to(self.key_vec, p.shape)
        return dirs, grad / self.key_vec[2]

    def ambient_at(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, np.float64).reshape(-1, 3)
        return np.clip(1.0 + p[:, :2] @ self.amb_grad, 0.3, None)

    def shadow_of(self, verts: np.ndarray) -> np.ndarray:
        """Project 3D points onto the table along the key light."""
        if self.point:
            s = self.key_vec[2] / (self.key_vec[2] - verts[:, 2])
            return self.key_vec[:2] + (verts[:, :2] - self.key_vec[:2]) * s[:, None]
        return verts[:, :2] - self.key_vec[:2] * (verts[:, 2] / self.key_vec[2])[:, None]


def _sample_light(rng: np.random.Generator, evening: bool) -> _Light:
    kinds = ("lamp", "overhead", "window")
    probs = (0.6, 0.3, 0.1) if evening else (0.2, 0.3, 0.5)
    kind = kinds[int(rng.choice(3, p=probs))]
    amb_temp = rng.uniform(2800, 5000) if evening else rng.uniform(5000, 7500)
    azimuth = rng.uniform(0, 2 * math.pi)
    point = kind != "window"
    if kind == "lamp":
        radius, height = rng.uniform(100, 600), rng.uniform(350, 1000)
        key_temp = rng.uniform(2600, 3600) if evening else rng.uniform(3000, 4500)
        ratio, penumbra = rng.uniform(0.8, 4.0), rng.uniform(10, 60)
    elif kind == "overhead":
        radius, height = rng.uniform(0, 200), rng.uniform(700, 1600)
        key_temp = rng.uniform(2700, 4200) if evening else rng.uniform(3500, 5500)
        ratio, penumbra = rng.uniform(0.6, 2.5), rng.uniform(30, 150)
    else:
        elevation = rng.uniform(math.radians(25), math.radians(65))
        radius, height = math.cos(elevation), math.sin(elevation)
        key_temp = rng.uniform(4800, 6800)
        ratio, penumbra = rng.uniform(0.4, 3.0), rng.uniform(0.8, 2.0)
    key_vec = np.array([radius * math.cos(azimuth), radius * math.sin(azimuth), height])
    grad_dir = rng.uniform(0, 2 * math.pi)
    amb_grad = rng.uniform(0, 0.25 / 200) * np.array([math.cos(grad_dir), math.sin(grad_dir)])
    key_grad = (rng.uniform(0, 0.15 / 200) if not point else 0.0) * np.array([math.cos(azimuth), math.sin(azimuth)])
    level = rng.uniform(0.12, 0.5) if evening else rng.uniform(0.4, 1.0)
    return _Light(
        point=point,
        key_vec=key_vec,
        key_col=(_kelvin(key_temp) * ratio).astype(np.float32),
        amb_col=_kelvin(amb_temp),
        key_grad=key_grad,
        amb_grad=amb_grad,
        penumbra_mm=float(penumbra),
        ev_bias=float(rng.uniform(-0.7, 0.4)),
        level=float(level),
    )


# --------------------------------------------------------------------------- layout and cubes


@dataclass(frozen=True)
class _Cube:
    kind: str
    x: float
    y: float
    size: float
    yaw: float
    albedo: np.ndarray  # linear BGR

    def footprint(self, grow: float = 0.0) -> np.ndarray:
        h = self.size / 2 + grow
        ang = self.yaw + math.pi / 4 + np.arange(4) * math.pi / 2
        return np.stack([self.x + h * math.sqrt(2) * np.cos(ang), self.y + h * math.sqrt(2) * np.sin(ang)], axis=1)

    def vertices(self) -> np.ndarray:
        foot = self.footprint()
        bottom = np.column_stack([foot, np.zeros(4)])
        top = np.column_stack([foot, np.full(4, self.size)])
        return np.vstack([top, bottom])  # 0-3 top, 4-7 bottom


@dataclass(frozen=True)
class _Layout:
    yard_w: float
    yard_h: float
    border_mm: float
    cube_mm: float
    marker_mm: float  # side of the black marker square
    quiet: float  # white paper margin, in marker sides
    gap_mm: float  # paper's inner corner to the yard corner, along both axes
    jitter: np.ndarray  # (4, 2) placement error of each paper, mm
    paper_angles: np.ndarray  # (4,) radians

    @property
    def paper_mm(self) -> float:
        return self.marker_mm * (1 + 2 * self.quiet)

    @property
    def paper_centres(self) -> np.ndarray:
        """(4, 2) paper (and marker) centres in marker-id order: TL, TR, BR, BL."""
        signs = np.array([[-1, 1], [1, 1], [1, -1], [-1, -1]], dtype=np.float64)
        half = np.array([self.yard_w / 2, self.yard_h / 2])
        return signs * (half + self.gap_mm + self.paper_mm / 2) + self.jitter

    def paper_corners(self, i: int) -> np.ndarray:
        half = self.paper_mm / 2
        sq = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        return sq @ _rot2(float(self.paper_angles[i])).T + self.paper_centres[i]

    def marker_corners(self, i: int) -> np.ndarray:
        half = self.marker_mm / 2
        sq = np.array([[-half, half], [half, half], [half, -half], [-half, -half]])
        return sq @ _rot2(float(self.paper_angles[i])).T + self.paper_centres[i]

    def inner(self) -> tuple[float, float, float, float]:
        m = self.border_mm + 0.6
        return -self.yard_w / 2 + m, self.yard_w / 2 - m, -self.yard_h / 2 + m, self.yard_h / 2 - m


def _sample_layout(rng: np.random.Generator) -> _Layout:
    yard_w = rng.uniform(110, 230)
    return _Layout(
        yard_w=yard_w,
        yard_h=float(np.clip(yard_w / rng.uniform(1.15, 1.9), 75.0, 150.0)),
        border_mm=rng.uniform(1.0, 2.5),
        cube_mm=rng.uniform(9.4, 10.6),
        marker_mm=float(np.clip(yard_w * rng.uniform(0.1, 0.16), 18, 30)),
        quiet=rng.uniform(0.4, 0.55),
        gap_mm=rng.uniform(1.5, 4.0),
        jitter=rng.uniform(-1.0, 1.0, (4, 2)),
        paper_angles=np.radians(rng.uniform(-3, 3, 4)),
    )


def _separated(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex polygons (touching counts as separated)."""
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        for ex, ey in edges:
            axis = np.array([-ey, ex])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return True
    return False


def _sample_count(rng: np.random.Generator) -> int:
    u = rng.random()
    if u < 0.08:
        return 0
    if u < 0.15:
        return int(rng.integers(1, 3))
    if u < 0.90:
        return int(rng.integers(3, 13))
    return int(rng.integers(13, 16))


def _place_cubes(rng: np.random.Generator, layout: _Layout) -> list[_Cube]:
    n = _sample_count(rng)
    weights = rng.dirichlet(np.full(4, 0.9))
    kinds = [KINDS[int(k)] for k in rng.choice(4, size=n, p=weights)]
    p_touch = rng.uniform(0.15, 0.5)
    shades = {k: rng.uniform(0.93, 1.07, 3) for k in KINDS}  # per-scene batch of paint
    x0, x1, y0, y1 = layout.inner()
    cubes: list[_Cube] = []
    for kind in kinds:
        for _ in range(400):
            size = layout.cube_mm * rng.uniform(0.98, 1.02)
            if cubes and rng.random() < p_touch:
                nb = cubes[int(rng.integers(len(cubes)))]
                dyaw = math.radians(rng.normal(0, 3))
                ang = nb.yaw + int(rng.integers(4)) * math.pi / 2
                dist = (nb.size + size) / 2 + abs(math.sin(dyaw)) * size * 0.75 + rng.uniform(0, 0.4)
                slide = rng.uniform(-0.45, 0.45) * min(size, nb.size)
                x = nb.x + dist * math.cos(ang) - slide * math.sin(ang)
                y = nb.y + dist * math.sin(ang) + slide * math.cos(ang)
                yaw = nb.yaw + dyaw
            else:
                x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
                yaw = rng.uniform(0, math.pi / 2)
            albedo = _lin_bgr(np.clip(np.array(_CUBE_SRGB[kind]) * shades[kind] * rng.uniform(0.97, 1.03), 0, 255))
            cube = _Cube(kind, x, y, size, yaw, albedo)
            foot = cube.footprint()
            if foot[:, 0].min() < x0 or foot[:, 0].max() > x1 or foot[:, 1].min() < y0 or foot[:, 1].max() > y1:
                continue
            if all(_separated(foot, c.footprint()) for c in cubes):
                cubes.append(cube)
                break
    return cubes


# --------------------------------------------------------------------------- board artwork


@dataclass(frozen=True)
class _Board:
    albedo: np.ndarray  # linear BGR float32 texture of the table plane
    ps: float  # texture pixels per mm
    x0: float  # world x of texture column 0
    y1: float  # world y of texture row 0

    @property
    def tex_to_world(self) -> np.ndarray:
        return np.array([[1 / self.ps, 0.0, self.x0], [0.0, -1 / self.ps, self.y1], [0.0, 0.0, 1.0]])

    def to_tex(self, xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        return np.stack([(xy[:, 0] - self.x0) * self.ps, (self.y1 - xy[:, 1]) * self.ps], axis=1)


def _fixed(pts: np.ndarray) -> np.ndarray:
    """Points for cv2 drawing with 4 fractional bits."""
    return np.round(np.asarray(pts) * 16).astype(np.int32).reshape(-1, 2)


def _noise(rng: np.random.Generator, h: int, w: int, feature_px: float) -> np.ndarray:
    gh, gw = int(h / feature_px) + 3, int(w / feature_px) + 3
    grid = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _fractal(rng: np.random.Generator, h: int, w: int, feature_px: float, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        out += amp * _noise(rng, h, w, max(2.0, feature_px / 2**o))
        total += amp
        amp *= 0.5
    return out / total


def _palette_map(values: np.ndarray, anchors: list[tuple[int, int, int]], bands: int) -> np.ndarray:
    """Map noise through a colour ramp; with ``bands`` > 0 the ramp is posterised like printed artwork."""
    lo, hi = np.percentile(values[::7, ::7], [2, 98])
    x = np.clip((values - lo) / max(hi - lo, 1e-6), 0, 1)
    if bands:
        level = np.floor(x * bands)
        frac = np.clip((x * bands - level - 0.4) / 0.2, 0, 1)
        x = np.clip((level + frac * frac * (3 - 2 * frac)) / bands, 0, 1)
    idx = (x * 255).astype(np.uint8)
    pos = np.linspace(0, 255, len(anchors))
    rgb = np.array(anchors, np.float64)
    lut = np.stack([np.interp(np.arange(256), pos, rgb[:, c]) for c in (2, 1, 0)], axis=1).astype(np.uint8)
    return lut[idx]


def _curve(rng: np.random.Generator, start: np.ndarray, heading: float, length: float, step: float,
           wiggle: float) -> np.ndarray:
    pts = [start]
    turn = 0.0
    for _ in range(int(length / step)):
        turn = 0.8 * turn + rng.normal(0, wiggle)
        heading += turn
        pts.append(pts[-1] + step * np.array([math.cos(heading), math.sin(heading)]))
    return np.array(pts)


_PALETTES: list[list[tuple[int, int, int]]] = [
    [(74, 104, 58), (104, 138, 72), (150, 162, 98), (146, 126, 88), (128, 122, 116)],
    [(96, 86, 102), (132, 118, 110), (108, 124, 76), (166, 160, 124), (118, 112, 104)],
    [(84, 96, 106), (122, 130, 134), (98, 122, 86), (164, 164, 144), (140, 128, 104)],
    [(112, 126, 70), (142, 150, 88), (176, 162, 110), (126, 100, 70), (90, 110, 60)],
]
_YARD_FILLS: list[tuple[int, int, int]] = [
    (222, 206, 164), (214, 190, 142), (204, 200, 186), (188, 194, 152), (180, 194, 204),
]
_WORDS = ["LLANBERIS", "HEBRON", "HALFWAY", "ROCKY VALLEY", "CLOGWYN", "SUMMIT", "SNOWDON", "QUARRY",
          "WAUNFAWR", "BEDDGELERT", "DEPOT", "STATION"]


def _yard_panel(rng: np.random.Generator, img: np.ndarray, layout: _Layout, board: _Board) -> None:
    ps = board.ps
    tl = board.to_tex(np.array([-layout.yard_w / 2, layout.yard_h / 2]))[0]
    br = board.to_tex(np.array([layout.yard_w / 2, -layout.yard_h / 2]))[0]
    u0, v0 = int(round(tl[0])), int(round(tl[1]))
    u1, v1 = int(round(br[0])), int(round(br[1]))
    h, w = v1 - v0, u1 - u0
    fill = np.array(_YARD_FILLS[int(rng.integers(len(_YARD_FILLS)))], np.float32)[::-1]
    tone = 1.0 + 0.10 * (_fractal(rng, h, w, 40 * ps, 3) - 0.5) + 0.04 * (rng.random((h, w), np.float32) - 0.5)
    style = int(rng.integers(3))
    if style == 0:  # planks of a wooden yard floor
        plank = rng.uniform(12, 25) * ps
        along_x = rng.random() < 0.5
        coord = np.arange(h if along_x else w)
        index = (coord / plank).astype(int)
        plank_tone = rng.uniform(0.95, 1.05, index.max() + 1)[index]
        seam = np.where((coord % plank) < max(1.0, 0.4 * ps), 0.85, 1.0)
        prof = (plank_tone * seam).astype(np.float32)
        grain = _noise(rng, h, w, 3 * ps) if along_x else _noise(rng, h, w, 3 * ps)
        tone = tone * (prof[:, None] if along_x else prof[None, :]) * (0.97 + 0.06 * grain)
    elif style == 1:  # faint hatching
        period = rng.uniform(3, 5) * ps
        yy, xx = np.mgrid[0:h, 0:w]
        tone = tone * np.where(((xx + yy) % period) < max(1.0, 0.3 * ps), 0.94, 1.0)
    panel = np.clip(fill[None, None, :] * tone[..., None], 0, 255)
    img[v0:v1, u0:u1] = panel.astype(np.uint8)
    ink = tuple(int(c) for c in rng.choice([[30, 45, 62], [30, 30, 30], [40, 62, 44]]))
    bw = layout.border_mm * ps
    inset = bw / 2
    rect = np.array([[u0 + inset, v0 + inset], [u1 - 1 - inset, v0 + inset], [u1 - 1 - inset, v1 - 1 - inset],
                     [u0 + inset, v1 - 1 - inset]])
    cv2.polylines(img, [_fixed(rect)], True, ink, max(1, int(round(bw))), cv2.LINE_AA, 4)
    if rng.random() < 0.5:  # decorative outer frame line
        o = rng.uniform(1.5, 3.0) * ps
        outer = rect + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * (o + inset)
        cv2.polylines(img, [_fixed(outer)], True, ink, max(1, int(round(0.5 * ps))), cv2.LINE_AA, 4)


def _artwork(rng: np.random.Generator, layout: _Layout, board: _Board, h: int, w: int) -> np.ndarray:
    ps = board.ps
    # the table around the board
    if rng.random() < 0.65:
        base = np.array(rng.choice([[130, 88, 54], [156, 112, 70], [96, 66, 44], [170, 138, 100]]), np.float32)
        if rng.random() < 0.5:
            streak = _noise(rng, h, max(4, w // 60), 2.0)
            streak = cv2.resize(streak, (w, h), interpolation=cv2.INTER_LINEAR)
        else:
            streak = cv2.resize(_noise(rng, max(4, h // 60), w, 2.0), (w, h), interpolation=cv2.INTER_LINEAR)
        tone = 0.8 + 0.35 * streak + 0.1 * _noise(rng, h, w, 30 * ps)
    else:
        base = np.array(rng.choice([[120, 40, 40], [60, 80, 120], [190, 186, 170], [70, 90, 70]]), np.float32)
        tone = 0.95 + 0.1 * _noise(rng, h, w, 1.0) * _noise(rng, h, w, 25 * ps)
    table = cv2.merge([cv2.convertScaleAbs(tone, alpha=float(c)) for c in base[::-1]])

    # landscape
    # landscape, coloured at half resolution (it is smooth) and then enlarged
    hh, hw = (h + 1) // 2, (w + 1) // 2
    relief = _fractal(rng, hh, hw, rng.uniform(25, 45) * ps)
    bands = int(rng.choice([0, 5, 7, 9]))
    land_half = _palette_map(relief, _PALETTES[int(rng.integers(len(_PALETTES)))], bands)
    shade = 0.94 + 0.12 * _fractal(rng, hh, hw, 4 * ps, 3)
    if rng.random() < 0.6:  # contour lines, as on a printed map
        levels = (relief - relief.min()) / max(float(np.ptp(relief)), 1e-6) * rng.uniform(10, 18)
        near = np.abs(levels - np.round(levels))
        shade = shade * (1 - 0.22 * np.clip(1 - near / 0.035, 0, 1))
    land_half = cv2.multiply(land_half, cv2.merge([shade, shade, shade]), dtype=cv2.CV_8U)
    land = cv2.resize(land_half, (w, h), interpolation=cv2.INTER_LINEAR)
    span = max(h, w) / ps
    centre = board.to_tex(np.zeros((1, 2)))[0]

    def random_start() -> np.ndarray:
        return np.array([rng.uniform(0, w), rng.uniform(0, h)])

    for _ in range(int(rng.integers(0, 3))):  # rivers
        pts = _curve(rng, random_start(), rng.uniform(0, 2 * math.pi), span * ps, 8 * ps, 0.08)
        water = tuple(int(c) for c in rng.choice([[150, 112, 70], [160, 130, 96]]))
        width = rng.uniform(4, 9) * ps
        cv2.polylines(land, [_fixed(pts)], False, (60, 70, 60), int(width + 2 * ps), cv2.LINE_AA, 4)
        cv2.polylines(land, [_fixed(pts)], False, water, int(width), cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(1, 3))):  # rack railway with sleepers
        pts = _curve(rng, random_start(), rng.uniform(0, 2 * math.pi), span * ps, 4 * ps, 0.03)
        d = np.gradient(pts, axis=0)
        nrm = np.stack([-d[:, 1], d[:, 0]], axis=1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-9)
        for p, q in zip(pts[::1], nrm[::1], strict=True):
            cv2.line(land, tuple(_fixed(p - 3 * ps * q)[0]), tuple(_fixed(p + 3 * ps * q)[0]), (40, 60, 80),
                     max(1, int(1.2 * ps)), cv2.LINE_AA, 4)
        for side in (-1.7, 1.7):
            cv2.polylines(land, [_fixed(pts + side * ps * nrm)], False, (50, 50, 50), max(1, int(0.6 * ps)),
                          cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(1, 4))):  # dashed footpaths
        pts = _curve(rng, random_start(), rng.uniform(0, 2 * math.pi), span * ps * 0.6, 3 * ps, 0.15)
        for i in range(0, len(pts) - 1, 2):
            cv2.line(land, tuple(_fixed(pts[i])[0]), tuple(_fixed(pts[i + 1])[0]), (150, 190, 215),
                     max(1, int(1.0 * ps)), cv2.LINE_AA, 4)

    # keep-out zone for text and icons: yard, markers and a margin
    keep = np.array([layout.yard_w / 2 + layout.paper_mm + 20, layout.yard_h / 2 + layout.paper_mm + 20]) * ps

    def far_from_yard(p: np.ndarray, r: float) -> bool:
        return bool(np.any(np.abs(p - centre) > keep + r))

    for _ in range(int(rng.integers(3, 9))):  # buildings
        p = random_start()
        size = rng.uniform(6, 14) * ps
        if not far_from_yard(p, size):
            continue
        box = cv2.boxPoints((tuple(p), (size, size * rng.uniform(0.5, 0.9)), rng.uniform(0, 180)))
        cv2.fillConvexPoly(land, _fixed(box), (170, 180, 190), cv2.LINE_AA, 4)
        cv2.polylines(land, [_fixed(box)], True, (50, 55, 60), max(1, int(0.5 * ps)), cv2.LINE_AA, 4)
    for _ in range(int(rng.integers(2, 6))):  # station names
        word = _WORDS[int(rng.integers(len(_WORDS)))]
        scale = rng.uniform(4, 7) * ps / 22
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, int(scale * 2)))
        p = random_start()
        if not far_from_yard(p + np.array([tw / 2, -th / 2]), max(tw, th) / 2):
            continue
        cv2.putText(land, word, (int(p[0]), int(p[1])), cv2.FONT_HERSHEY_DUPLEX, scale, (30, 40, 60),
                    max(1, int(scale * 2)), cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 5))):  # numbered circles
        p = random_start()
        r = rng.uniform(5, 9) * ps
        if not far_from_yard(p, r):
            continue
        cv2.circle(land, _fixed(p)[0], int(r * 16), (225, 235, 240), -1, cv2.LINE_AA, 4)
        cv2.circle(land, _fixed(p)[0], int(r * 16), (40, 40, 90), max(1, int(0.8 * ps)), cv2.LINE_AA, 4)
        text = str(int(rng.integers(1, 10)))
        scale = r / 14
        cv2.putText(land, text, (int(p[0] - r / 3), int(p[1] + r / 3)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (40, 40, 90), max(1, int(scale * 2)), cv2.LINE_AA)
    _yard_panel(rng, land, layout, board)

    # compose board over table, with a dark board edge and a shadow on the table
    margins = rng.uniform(40, 260, 4)  # left, right, bottom, top
    bl = board.to_tex(np.array([-layout.yard_w / 2 - margins[0], -layout.yard_h / 2 - margins[2]]))[0]
    tr = board.to_tex(np.array([layout.yard_w / 2 + margins[1], layout.yard_h / 2 + margins[3]]))[0]
    mask = np.zeros((h, w), np.uint8)
    rect = np.array([[bl[0], tr[1]], [tr[0], tr[1]], [tr[0], bl[1]], [bl[0], bl[1]]])
    cv2.fillConvexPoly(mask, _fixed(rect), 255, cv2.LINE_AA, 4)
    small = cv2.resize(mask, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    shadow = cv2.resize(cv2.GaussianBlur(small, (0, 0), 2.5 * ps / 4), (w, h), interpolation=cv2.INTER_LINEAR)
    table = cv2.multiply(table, cv2.merge([255 - (shadow * 0.45).astype(np.uint8)] * 3), scale=1 / 255)
    cv2.polylines(land, [_fixed(rect)], True, (35, 30, 30), max(1, int(2 * ps)), cv2.LINE_AA, 4)
    a = cv2.merge([mask] * 3)
    out = cv2.add(cv2.multiply(land, a, scale=1 / 255), cv2.multiply(table, 255 - a, scale=1 / 255))
    grain = (rng.random((h, w), dtype=np.float32) * 0.06 + 0.97).astype(np.float32)  # print and fibre grain
    return cv2.multiply(out, cv2.merge([grain] * 3), dtype=cv2.CV_8U)


def _lay_markers(rng: np.random.Generator, albedo: np.ndarray, layout: _Layout, board: _Board) -> None:
    ps = board.ps
    h, w = albedo.shape[:2]
    paper_col = _lin_bgr(np.array([246.0, 246.0, 242.0]) * rng.uniform(0.96, 1.0))
    ink_col = _lin_bgr((38.0, 38.0, 42.0))
    for i in range(4):
        corners = board.to_tex(layout.paper_corners(i))
        lo = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 6, 0)
        hi = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 7, [w, h])
        rw, rh = int(hi[0] - lo[0]), int(hi[1] - lo[1])
        if rw <= 0 or rh <= 0:
            continue
        roi = albedo[lo[1]:hi[1], lo[0]:hi[0]]
        paper = np.zeros((rh, rw), np.uint8)
        cv2.fillConvexPoly(paper, _fixed(corners - lo), 255, cv2.LINE_AA, 4)
        pa = paper.astype(np.float32) / 255
        shadow = cv2.GaussianBlur(np.roll(pa, (1, 1), axis=(0, 1)), (0, 0), max(0.6, 0.4 * ps))
        roi *= (1 - 0.25 * np.clip(shadow - pa, 0, 1))[..., None]
        roi[:] = roi * (1 - pa[..., None]) + paper_col * pa[..., None]
        side_px = layout.marker_mm * ps
        cells = max(6, int(round(side_px / 6)))
        src = cv2.aruco.generateImageMarker(_ARUCO, i, 6 * cells, borderBits=1)
        ink_src = np.asarray(cv2.copyMakeBorder((255 - src).astype(np.float32) / 255, 2, 2, 2, 2,
                                                cv2.BORDER_CONSTANT, value=0), np.float32)
        scale = side_px / (6 * cells)
        # texture v points down (-y), so a world rotation by +a is a texture rotation by -a
        rot = _rot2(-float(layout.paper_angles[i])) * scale
        centre = board.to_tex(layout.paper_centres[i])[0] - lo
        src_c = np.array([(ink_src.shape[1] - 1) / 2, (ink_src.shape[0] - 1) / 2])
        affine = np.column_stack([rot, centre - rot @ src_c])
        ink = cv2.warpAffine(ink_src, affine, (rw, rh), flags=cv2.INTER_LINEAR, borderValue=0.0)
        roi[:] = roi * (1 - ink[..., None]) + ink_col * ink[..., None]


def _build_board(rng: np.random.Generator, layout: _Layout, cams: list[_Camera]) -> _Board:
    corners = np.array([[-_PAD, -_PAD], [WIDTH + _PAD, -_PAD], [WIDTH + _PAD, HEIGHT + _PAD], [-_PAD, HEIGHT + _PAD]],
                       np.float64)
    pts = []
    for cam in cams:
        hom = np.linalg.inv(cam.plane_homography())
        p = np.column_stack([corners, np.ones(4)]) @ hom.T
        pts.append(p[:, :2] / p[:, 2:3])
    allp = np.vstack(pts)
    lim = np.array([layout.yard_w / 2 + 600, layout.yard_h / 2 + 600])
    lo = np.maximum(allp.min(axis=0) - 5, -lim)
    hi = np.minimum(allp.max(axis=0) + 5, lim)
    area = float(np.prod(hi - lo))
    ps = float(min(6.5, math.sqrt(3.5e6 / area)))
    w, h = int(math.ceil((hi[0] - lo[0]) * ps)), int(math.ceil((hi[1] - lo[1]) * ps))
    board = _Board(np.zeros((1, 1, 3), np.float32), ps, float(lo[0]), float(hi[1]))
    art = _artwork(rng, layout, board, h, w)
    albedo = _LUT_TO_LINEAR[art] * 0.92  # printed inks and board stock never reflect everything
    board = _Board(albedo, ps, float(lo[0]), float(hi[1]))
    _lay_markers(rng, albedo, layout, board)
    return board


# --------------------------------------------------------------------------- rendering


def _illumination(board: _Board, light: _Light, cubes: list[_Cube]) -> np.ndarray:
    """Linear BGR irradiance over the board texture, with cast and contact shadows of the cubes."""
    h, w = board.albedo.shape[:2]
    lw, lh = max(8, w // 16), max(8, h // 16)
    us = (np.arange(lw) + 0.5) * w / lw - 0.5
    vs = (np.arange(lh) + 0.5) * h / lh - 0.5
    uu, vv = np.meshgrid(us, vs)
    pts = np.column_stack([board.x0 + uu.ravel() / board.ps, board.y1 - vv.ravel() / board.ps, np.zeros(uu.size)])
    dirs, e = light.key_at(pts)
    key_small = (e * np.clip(dirs[:, 2], 0, None)).reshape(lh, lw).astype(np.float32)
    amb_small = light.ambient_at(pts).reshape(lh, lw).astype(np.float32)
    key = np.asarray(cv2.resize(key_small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    amb = np.asarray(cv2.resize(amb_small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    if cubes:
        hulls = [board.to_tex(light.shadow_of(c.vertices())) for c in cubes]
        foots = [board.to_tex(c.footprint()) for c in cubes]
        allp = np.vstack(hulls + foots)
        if light.point:
            height = light.key_vec[2] - 10.0
            blur_mm = 0.4 + light.penumbra_mm * 10.0 / max(height, 50.0)
        else:
            blur_mm = light.penumbra_mm
        margin = int(4 * max(blur_mm, 1.8) * board.ps) + 4
        lo = np.maximum(np.floor(allp.min(axis=0)).astype(int) - margin, 0)
        hi = np.minimum(np.ceil(allp.max(axis=0)).astype(int) + margin, [w, h])
        if np.all(hi > lo):
            rh, rw = int(hi[1] - lo[1]), int(hi[0] - lo[0])
            sh = np.zeros((rh, rw), np.uint8)
            ft = np.zeros((rh, rw), np.uint8)
            for hull, foot in zip(hulls, foots, strict=True):
                hull_pts = cv2.convexHull(_fixed(hull - lo))
                cv2.fillConvexPoly(sh, hull_pts, 255, cv2.LINE_AA, 4)
                cv2.fillConvexPoly(ft, _fixed(foot - lo), 255, cv2.LINE_AA, 4)
            shadow = cv2.GaussianBlur(sh.astype(np.float32) / 255, (0, 0), blur_mm * board.ps)
            ao = cv2.GaussianBlur(ft.astype(np.float32) / 255, (0, 0), 1.4 * board.ps)
            sl = (slice(int(lo[1]), int(hi[1])), slice(int(lo[0]), int(hi[0])))
            key[sl] *= (1 - shadow) * (1 - 0.3 * ao)
            amb[sl] *= 1 - 0.7 * ao
    ac, kc = light.amb_col, light.key_col
    return cv2.merge([cv2.addWeighted(amb, float(ac[c]), key, float(kc[c]), 0.0) for c in range(3)])


_UV = np.meshgrid((np.arange(_FACE_N) + 0.5) / _FACE_N, (np.arange(_FACE_N) + 0.5) / _FACE_N)


def _grain(rng: np.random.Generator, amp: float, end_grain: bool) -> np.ndarray:
    u, v = _UV
    fine = _noise(rng, _FACE_N, _FACE_N, 6.0)
    if end_grain:
        cx, cy = rng.uniform(-1.5, 2.5, 2)
        coord = np.hypot(u - cx, v - cy) * rng.uniform(8, 14)
    else:
        a = rng.uniform(-0.15, 0.15) + (math.pi / 2 if rng.random() < 0.5 else 0.0)
        coord = (u * math.cos(a) + v * math.sin(a)) * rng.uniform(6, 12) + 0.6 * _noise(rng, _FACE_N, _FACE_N, 16.0)
    rings = np.sin(2 * math.pi * coord) ** 2
    return (1.0 + amp * (1.2 * rings - 0.6 + 0.8 * (fine - 0.5))).astype(np.float32)


def _face_texture(rng: np.random.Generator, cube: _Cube, normal: np.ndarray, edge_normals: list[np.ndarray],
                  centre: np.ndarray, is_side: bool, end_grain: bool, light: _Light, cam: _Camera) -> np.ndarray:
    u, v = _UV
    dist = [v, 1 - u, 1 - v, u]  # edges: v=0, u=1, v=1, u=0
    bevel = 0.09
    nrm = np.broadcast_to(normal, (_FACE_N, _FACE_N, 3)).astype(np.float64)
    for d, en in zip(dist, edge_normals, strict=True):
        wgt = 0.9 * np.clip(1 - d / bevel, 0, 1) ** 2
        nrm = nrm + wgt[..., None] * en
    nrm /= np.linalg.norm(nrm, axis=2, keepdims=True)
    ldir, e_key = light.key_at(centre)
    ldir, e_key0 = ldir[0], float(e_key[0])
    amb = float(light.ambient_at(centre)[0])
    ndotl = np.clip(nrm @ ldir, 0, None)
    vis = np.clip(0.55 + 0.45 * nrm[..., 2], 0.1, 1.0)
    if is_side:
        vis = vis * (0.62 + 0.38 * np.sqrt(np.clip(1 - v, 0, 1)))
    view = cam.pos - centre
    view /= np.linalg.norm(view)
    half = ldir + view
    half /= np.linalg.norm(half)
    spec = 0.035 * np.clip(nrm @ half, 0, None) ** 24 * e_key0
    albedo = cube.albedo * _grain(rng, _GRAIN_AMP[cube.kind], end_grain)[..., None]
    irr = vis[..., None] * amb * light.amb_col + (ndotl * e_key0)[..., None] * light.key_col
    return (albedo * irr + spec[..., None] * light.key_col).astype(np.float32)


def _paint_quad(canvas: np.ndarray, quad: np.ndarray, tex: np.ndarray) -> None:
    lo = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 2, 0)
    hi = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 3, [canvas.shape[1], canvas.shape[0]])
    if np.any(hi <= lo):
        return
    w, h = int(hi[0] - lo[0]), int(hi[1] - lo[1])
    n = tex.shape[0]
    src = np.array([[-0.5, -0.5], [n - 0.5, -0.5], [n - 0.5, n - 0.5], [-0.5, n - 0.5]], np.float32)
    dst = (quad - lo).astype(np.float32)
    warped = cv2.warpPerspective(tex, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, _fixed(dst), 255, cv2.LINE_AA, 4)
    a = (mask.astype(np.float32) / 255)[..., None]
    roi = canvas[lo[1]:hi[1], lo[0]:hi[0]]
    roi[:] = roi * (1 - a) + warped * a


def _draw_cubes(rng: np.random.Generator, canvas: np.ndarray, cubes: list[_Cube], cam: _Camera,
                light: _Light) -> None:
    def to_canvas(pts: np.ndarray) -> np.ndarray:
        uv = cam.to_undistorted(pts)
        return uv * _SS + _TO_CANVAS[0, 2]

    up, down = np.array([0.0, 0.0, 1.0]), np.array([0.0, 0.0, -1.0])
    order = sorted(cubes, key=lambda c: -float(np.hypot(c.x - cam.pos[0], c.y - cam.pos[1])))
    tops: list[tuple[np.ndarray, np.ndarray]] = []
    for cube in order:
        verts = cube.vertices()
        proj = to_canvas(verts)
        side_normals = [np.array([math.cos(cube.yaw + math.pi / 2 * (i + 1)),
                                  math.sin(cube.yaw + math.pi / 2 * (i + 1)), 0.0]) for i in range(4)]
        faces: list[tuple[np.ndarray, np.ndarray]] = []
        for i in range(4):
            j = (i + 1) % 4
            idx = [i, j, 4 + j, 4 + i]
            centre = verts[idx].mean(axis=0)
            if np.dot(side_normals[i], cam.pos - centre) <= 0:
                continue
            edges = [up, side_normals[j], down, side_normals[(i - 1) % 4]]
            tex = _face_texture(rng, cube, side_normals[i], edges, centre, True, i % 2 == 0, light, cam)
            faces.append((proj[idx], tex))
        top_centre = verts[:4].mean(axis=0)
        top_tex = _face_texture(rng, cube, up, side_normals, top_centre, False, False, light, cam)
        # the silhouette in a dark edge colour first, so that seams between faces read as edges
        edge_col = (0.45 * top_tex.mean(axis=(0, 1)) if not faces
                    else 0.6 * np.mean([t.mean(axis=(0, 1)) for _, t in faces], axis=0))
        hull = cv2.convexHull(_fixed(proj))
        lo = np.maximum(proj.min(axis=0).astype(int) - 2, 0)
        hi = np.minimum(np.ceil(proj.max(axis=0)).astype(int) + 3, [canvas.shape[1], canvas.shape[0]])
        if np.all(hi > lo):
            mask = np.zeros((int(hi[1] - lo[1]), int(hi[0] - lo[0])), np.uint8)
            cv2.fillConvexPoly(mask, hull - _fixed(lo)[0], 255, cv2.LINE_AA, 4)
            a = (mask.astype(np.float32) / 255)[..., None]
            roi = canvas[lo[1]:hi[1], lo[0]:hi[0]]
            roi[:] = roi * (1 - a) + edge_col * a
        for quad, tex in faces:
            _paint_quad(canvas, quad, tex)
        tops.append((proj[:4], top_tex))
    for quad, tex in tops:
        _paint_quad(canvas, quad, tex)


_SKINS: list[tuple[int, int, int]] = [(232, 190, 160), (214, 164, 128), (176, 124, 90), (120, 80, 56),
                                      (240, 200, 178)]
_SLEEVES: list[tuple[int, int, int]] = [(40, 60, 110), (120, 30, 40), (60, 60, 64), (200, 200, 196),
                                        (70, 100, 60)]


def _draw_hand(rng: np.random.Generator, canvas: np.ndarray, cam: _Camera, layout: _Layout,
               light: _Light) -> None:
    x0, x1, y0, y1 = layout.inner()
    tip_world = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1), 0.0])
    hand_z = rng.uniform(30, 90)
    tip = cam.to_undistorted(tip_world)[0] * _SS + _TO_CANVAS[0, 2]
    depth = float(((tip_world - cam.pos) @ cam.rot.T)[2])
    k = _SS * cam.f / depth * depth / max(depth - hand_z, 50.0)  # canvas px per mm at the hand
    edge = int(rng.choice(4, p=[0.3, 0.2, 0.2, 0.3]))  # bottom, left, right, top
    t = rng.uniform(0.1, 0.9)
    cw, ch = _CANVAS_W, _CANVAS_H
    entry = [np.array([t * cw, ch]), np.array([0.0, t * ch]), np.array([cw, t * ch]), np.array([t * cw, 0.0])][edge]
    direction = tip - entry
    direction /= np.linalg.norm(direction)
    perp = np.array([-direction[1], direction[0]])
    palm_len, finger_len, palm_w = 95 * k, rng.uniform(60, 78) * k, rng.uniform(78, 92) * k
    knuckle = tip - direction * finger_len * 0.9
    wrist = knuckle - direction * palm_len
    far = wrist - direction * 3000.0
    arm_w, wrist_w = rng.uniform(70, 85) * k, rng.uniform(55, 62) * k
    mask = np.zeros((ch, cw), np.uint8)
    arm = np.array([far + perp * arm_w / 2, wrist + perp * wrist_w / 2, wrist - perp * wrist_w / 2,
                    far - perp * arm_w / 2])
    cv2.fillConvexPoly(mask, _fixed(arm), 255, cv2.LINE_AA, 4)
    palm = np.array([wrist + perp * wrist_w / 2, knuckle + perp * palm_w / 2, knuckle - perp * palm_w / 2,
                     wrist - perp * wrist_w / 2])
    cv2.fillConvexPoly(mask, _fixed(palm), 255, cv2.LINE_AA, 4)
    for frac, length, spread in zip((-0.375, -0.125, 0.125, 0.375), (0.8, 1.0, 0.95, 0.75),
                                    (-10.0, -3.0, 3.0, 10.0), strict=True):
        base = knuckle + perp * frac * palm_w * 0.9 - direction * 6 * k
        ang = math.radians(spread + rng.normal(0, 4))
        fdir = _rot2(ang) @ direction
        tipf = base + fdir * finger_len * length * rng.uniform(0.55, 1.0)
        cv2.line(mask, tuple(_fixed(base)[0]), tuple(_fixed(tipf)[0]), 255, int(rng.uniform(16, 19) * k),
                 cv2.LINE_AA, 4)
    side = 1.0 if rng.random() < 0.5 else -1.0
    tbase = wrist + direction * 0.3 * palm_len + perp * side * palm_w * 0.4
    tdir = _rot2(side * math.radians(rng.uniform(30, 55))) @ direction
    cv2.line(mask, tuple(_fixed(tbase)[0]), tuple(_fixed(tbase + tdir * 55 * k)[0]), 255, int(21 * k),
             cv2.LINE_AA, 4)

    # shadow on the board and cubes, offset along the key light
    hand_world = tip_world + np.array([0.0, 0.0, hand_z])
    ground = light.shadow_of(hand_world[None, :])[0]
    shadow_tip = cam.to_undistorted(np.array([ground[0], ground[1], 0.0]))[0] * _SS + _TO_CANVAS[0, 2]
    off = np.clip(shadow_tip - tip, -0.4 * cw, 0.4 * cw)
    shifted = cv2.warpAffine(mask, np.array([[1.0, 0.0, off[0]], [0.0, 1.0, off[1]]]), (cw, ch))
    quarter = cv2.resize(shifted, (cw // 4, ch // 4), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    soft = cv2.GaussianBlur(quarter, (0, 0), max(2.0, 0.25 * hand_z * k / 4 * (0.3 if not light.point else 0.5)))
    shadow = cv2.resize(soft, (cw, ch), interpolation=cv2.INTER_LINEAR)
    key_frac = float(np.mean(light.key_col) / (np.mean(light.key_col) + np.mean(light.amb_col)))
    canvas *= (1 - 0.85 * key_frac * shadow)[..., None]

    # skin shading, worked out inside the hand's bounding box only
    sigma = rng.uniform(1.5, 3.5)  # the hand is nearer than the focus plane: a little extra blur
    bx, by, bw, bh = cv2.boundingRect(mask)
    if bw == 0 or bh == 0:
        return
    grow = int(3 * sigma) + 2
    x0r, y0r = max(bx - grow, 0), max(by - grow, 0)
    x1r, y1r = min(bx + bw + grow, cw), min(by + bh + grow, ch)
    alpha = mask[y0r:y1r, x0r:x1r].astype(np.float32) / 255
    rh, rw = alpha.shape

    def blurred(scale_px: float) -> np.ndarray:
        f = 4
        small = cv2.resize(alpha, (max(1, rw // f), max(1, rh // f)), interpolation=cv2.INTER_AREA)
        return cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.8, scale_px / f)), (rw, rh),
                          interpolation=cv2.INTER_LINEAR)

    fine, broad = blurred(4.0 * k), blurred(16.0 * k)
    # rounded limbs: darker towards their silhouette, with a broad fall-off across the forearm
    roundness = 0.5 * np.sqrt(np.clip(fine * 1.8, 0, 1)) + 0.5 * np.sqrt(np.clip(broad * 1.4, 0, 1))
    gy, gx = np.gradient(broad)
    lx, ly = rng.normal(0, 1, 2)
    side_light = np.clip(1 + 6.0 * k * (gx * lx + gy * ly) / math.hypot(lx, ly), 0.7, 1.3)
    shade = (0.4 + 0.6 * roundness) * side_light
    skin = _lin_bgr(np.array(_SKINS[int(rng.integers(len(_SKINS)))], np.float64) * rng.uniform(0.95, 1.05))
    blotch = _noise(rng, rh, rw, 25 * k)
    pores = _noise(rng, rh, rw, 1.2 * k)
    tint = np.stack([1 - 0.06 * (blotch - 0.5), np.ones_like(blotch), 1 + 0.08 * (blotch - 0.5)], axis=2)
    ldir, e_key = light.key_at(hand_world)
    illum = light.amb_col * float(light.ambient_at(hand_world)[0]) + light.key_col * float(e_key[0]) * max(
        0.2, float(ldir[0, 2]))
    colour = (skin * illum) * tint * (0.96 + 0.08 * pores)[..., None]
    if rng.random() < 0.6:  # a sleeve from some way up the forearm
        xs = np.arange(x0r, x1r)[None, :] - wrist[0]
        ys = np.arange(y0r, y1r)[:, None] - wrist[1]
        sleeve = ((xs * direction[0] + ys * direction[1]) < -rng.uniform(40, 120) * k).astype(np.float32)
        weave = 0.92 + 0.16 * _noise(rng, rh, rw, 2.0 * k)
        cloth = _lin_bgr(_SLEEVES[int(rng.integers(len(_SLEEVES)))]) * illum * weave[..., None]
        colour = colour * (1 - sleeve[..., None]) + cloth * sleeve[..., None]
    colour = (colour * shade[..., None]).astype(np.float32)
    colour = cv2.GaussianBlur(colour, (0, 0), sigma)
    a = cv2.GaussianBlur(alpha, (0, 0), sigma)[..., None]
    roi = canvas[y0r:y1r, x0r:x1r]
    roi[:] = roi * (1 - a) + colour * a


@dataclass(frozen=True)
class _Optics:
    vignette: float
    sharpen: float
    saturation: float
    jpeg: int
    awb_strength: float


def _develop(rng: np.random.Generator, frame: np.ndarray, cam: _Camera, light: _Light, optics: _Optics) -> np.ndarray:
    """Sensor and image pipeline: blur, vignetting, auto exposure, noise, white balance, tone, JPEG."""
    frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), rng.uniform(0.35, 1.0)), np.float32)
    xs = (np.arange(WIDTH) - cam.cx) / cam.f
    ys = (np.arange(HEIGHT) - cam.cy) / cam.f
    r2 = xs[None, :] ** 2 + ys[:, None] ** 2
    vig = (1.0 / (1.0 + optics.vignette * r2) ** 2).astype(np.float32)
    frame *= vig[..., None]
    lum = frame @ np.array([0.114, 0.587, 0.299], np.float32)
    centre_weight = (0.3 + vig**4).astype(np.float32)
    mean = float((lum * centre_weight).sum() / centre_weight.sum())
    gain = 0.18 * 2**light.ev_bias / max(mean, 1e-6)
    # like most auto-exposure loops, protect the highlights: at most slight clipping of the white paper
    bright = float(np.percentile(lum[::3, ::3], 99.7))
    frame *= min(gain, 1.08 / max(bright, 1e-6))
    read = 0.0015 + 0.002 * (1 - light.level)
    shot = 0.0004 + 0.0025 * (1 - light.level)
    sigma = np.sqrt(np.clip(frame, 0, None) * shot + read**2)
    frame += sigma * rng.standard_normal(frame.shape, dtype=np.float32)
    means = frame[::4, ::4].reshape(-1, 3).mean(axis=0)
    gains = (means[1] / np.maximum(means, 1e-6)) ** optics.awb_strength * rng.uniform(0.97, 1.03, 3)
    gains /= gains[1]
    frame *= gains.astype(np.float32)
    lum = (frame @ np.array([0.114, 0.587, 0.299], np.float32))[..., None]
    frame = lum + optics.saturation * (frame - lum)
    out = _to_srgb8(frame)
    if optics.sharpen > 0:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + optics.sharpen, soft, -optics.sharpen, 0)
    quality = int(np.clip(optics.jpeg + rng.integers(-3, 4), 60, 95))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if decoded is None:
        raise RuntimeError("JPEG decoding failed")
    return np.asarray(decoded, np.uint8)


def _shoot(rng: np.random.Generator, board: _Board, cam: _Camera, light: _Light, cubes: list[_Cube],
           optics: _Optics, hand: tuple[np.random.Generator, _Layout] | None) -> np.ndarray:
    lit = cv2.multiply(board.albedo, _illumination(board, light, cubes))
    warp = _TO_CANVAS @ cam.plane_homography() @ board.tex_to_world
    canvas = cv2.warpPerspective(lit, warp, (_CANVAS_W, _CANVAS_H), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    _draw_cubes(rng, canvas, cubes, cam, light)
    if hand is not None:
        _draw_hand(hand[0], canvas, cam, hand[1], light)
    map_x, map_y = cam.distortion_maps()
    frame = cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    frame = cv2.resize(frame, (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA)
    return _develop(rng, frame, cam, light, optics)


# --------------------------------------------------------------------------- cameras


def _fits(cam: _Camera, pts: np.ndarray, margin: float) -> bool:
    uv = cam.project(pts)
    return bool(np.all(uv[:, 0] > margin) and np.all(uv[:, 0] < WIDTH - 1 - margin)
                and np.all(uv[:, 1] > margin) and np.all(uv[:, 1] < HEIGHT - 1 - margin))


@dataclass(frozen=True)
class _Rig:
    """How the camera is mounted: everything but its height, which follows from the layout."""

    intr: tuple[float, float, float, float]
    tilt: float
    azimuth: float
    up: float
    target: np.ndarray
    fill: float  # fraction of the frame (in its tighter direction) spanned by the marker papers
    rotvec: np.ndarray
    shift: np.ndarray


def _sample_rig(rng: np.random.Generator, layout: _Layout) -> _Rig:
    return _Rig(
        intr=(rng.uniform(950, 1150), WIDTH / 2 + rng.uniform(-12, 12), HEIGHT / 2 + rng.uniform(-12, 12),
              rng.uniform(0.0, 0.06)),
        tilt=math.radians(rng.uniform(0, 22)),
        azimuth=rng.uniform(0, 2 * math.pi),
        up=math.pi / 2 + math.radians(float(np.clip(rng.normal(0, 8), -20, 20)))
        + (math.pi if rng.random() < 0.25 else 0.0),
        target=rng.uniform(-0.1, 0.1, 2) * np.array([layout.yard_w, layout.yard_h]),
        fill=rng.uniform(0.7, 0.92),
        rotvec=np.clip(rng.normal(0, math.radians(0.6), 3), -math.radians(1.5), math.radians(1.5)),
        shift=np.clip(rng.normal(0, 3.0, 3), -8, 8),
    )


def _mount(rig: _Rig, layout: _Layout) -> tuple[_Camera, _Camera]:
    """Frame the marker papers to the rig's fill, then back off until every paper is in both frames."""
    outer = np.vstack([layout.paper_corners(i) for i in range(4)])
    outer3 = np.column_stack([outer, np.zeros(len(outer))])
    dist = 400.0
    for _ in range(4):
        uv = _look_at(rig.target, rig.tilt, rig.azimuth, rig.up, dist, rig.intr).project(outer3)
        dist *= max(np.ptp(uv[:, 0]) / WIDTH, np.ptp(uv[:, 1]) / HEIGHT) / rig.fill
    while True:
        cal = _look_at(rig.target, rig.tilt, rig.azimuth, rig.up, dist, rig.intr)
        play = cal.moved(rig.rotvec, rig.shift)
        if _fits(cal, outer3, 12) and _fits(play, outer3, 12):
            return cal, play
        dist *= 1.04


def _marker_px(layout: _Layout, cams: tuple[_Camera, _Camera]) -> float:
    """Shortest marker side in either photo, in pixels."""
    sides = []
    for cam in cams:
        for i in range(4):
            uv = cam.project(np.column_stack([layout.marker_corners(i), np.zeros(4)]))
            sides.append(float(np.min(np.linalg.norm(uv - np.roll(uv, 1, axis=0), axis=1))))
    return min(sides)


def _sample_cameras(rng: np.random.Generator, layout: _Layout) -> tuple[_Layout, _Camera, _Camera]:
    """Place the camera; like a user whose markers were not detected, print them larger if they look too small."""
    rig = _sample_rig(rng, layout)
    cams = _mount(rig, layout)
    for _ in range(8):
        px = _marker_px(layout, cams)
        if px >= _MIN_MARKER_PX or layout.marker_mm >= _MAX_MARKER_MM:
            break
        layout = replace(layout, marker_mm=min(_MAX_MARKER_MM, layout.marker_mm * _MIN_MARKER_PX / px * 1.03))
        cams = _mount(rig, layout)
    return layout, cams[0], cams[1]


# --------------------------------------------------------------------------- entry point


def blind_scene_pair(seed: int, *, hand: bool = False) -> BlindPair:
    """Render a calibration photo of the empty yard and a play photo with cubes (and maybe a hand)."""
    rng = np.random.default_rng(seed)
    hand_rng = np.random.default_rng(int(rng.integers(2**62)))  # drawn always: a hand changes nothing else
    layout = _sample_layout(rng)
    cubes = _place_cubes(rng, layout)
    layout, cal_cam, play_cam = _sample_cameras(rng, layout)
    cal_light = _sample_light(rng, evening=rng.random() < 0.25)
    play_light = _sample_light(rng, evening=rng.random() < 0.65)
    optics = _Optics(
        vignette=float(rng.uniform(0.15, 0.7)),
        sharpen=float(rng.uniform(0.0, 0.5)),
        saturation=float(rng.uniform(0.95, 1.2)),
        jpeg=int(rng.integers(68, 93)),
        awb_strength=float(rng.uniform(0.6, 0.95)),
    )
    board = _build_board(rng, layout, [cal_cam, play_cam])
    calibration = _shoot(rng, board, cal_cam, cal_light, [], optics, None)
    play = _shoot(rng, board, play_cam, play_light, cubes, optics, (hand_rng, layout) if hand else None)
    kinds = [c.kind for c in cubes]
    centres = play_cam.project(np.array([[c.x, c.y, 0.0] for c in cubes]).reshape(-1, 3))
    counts = {k: kinds.count(k) for k in KINDS}
    return BlindPair(calibration=calibration, play=BlindShot(play, counts, centres.reshape(-1, 2), kinds))
