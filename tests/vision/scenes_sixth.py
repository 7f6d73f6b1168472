"""Sixth synthetic stock-yard photograph generator, written blind as held-out test data for the yard reader.

Design note -- modelling choices
================================
World units are millimetres.  The board is the plane Z = 0; X runs along the yard's top edge (marker 0 -> 1),
Y down the yard (marker 0 -> 3) and Z points *into* the table, so a height h above the board is Z = -h.  This
frame is right-handed, so a camera looking straight down with the identity rotation (OpenCV axes: x right,
y down, z forward) sees the board un-mirrored, and the printed ArUco markers keep their handedness.

Yard and markers: the yard is the quadrilateral of the four marker centres (DICT_4X4_50, ids 0..3 at
top-left, top-right, bottom-right, bottom-left).  Its width is 12..25 cube sides and its aspect 0.5..0.95.
Each marker (side 12..18 % of the yard width, 15..40 mm) is printed on its own small sheet of white paper
(quiet zone 0.2..0.45 marker side) laid by hand (a few degrees of rotation, a millimetre or two of jitter) at
or just outside the printed yard panel's corner, with a thin contact shadow along the paper edge.  Marker ink
is a dull toner black, not zero reflectance.

Artwork (drawn with OpenCV primitives into a board texture at 3..14 texels/mm, then warped by the camera's
ground homography): soft terrain regions from blended value noise in a Snowdonia palette, painterly mottle,
rivers/roads, railway tracks with sleepers, a score track, action-space circles with numbers, Hershey-font
words (Welsh place names, rule text), isometric cube icons in orange/grey/black/white, pawn icons, a hinge
crease.  The printed yard panel has one of several fills (gravel of printed grey stones, parchment, planks,
slate tiles, grass, sand) with border lines, a title banner and printed cube icons, so the background has
colours close to every cube colour.  Paper grain noise and a slight print blur finish it.  Beyond the board's
edge is a table (wood planks or cloth) with the board's edge shadow.

Cubes: true 3D boxes (side 8..10 mm, +-2 % per cube) at any yaw, singly, in touching rows of 2..4 and 2x2
blocks, placed by rejection sampling (separating-axis overlap test, away from marker sheets, the whole
projected cube inside the marker-centre quadrilateral in the play image).  Each visible face is a
48x48 texture warped into the image: painted albedo (iron orange, stone grey, coal black, event white, each
with per-cube hue/value jitter) modulated by a 3D wood-grain field (growth rings around an off-cube pith, so
end-grain faces show arcs and long-grain faces stripes), paint mottle and occasional worn edges showing raw
wood.  Faces are shaded per texel (Lambert for every light with 1/d^2 fall-off, spot cones and occluders,
hemispherical ambient lower on the sides, ambient occlusion towards the bottom of the sides, bounce light
from the board, Blinn-Phong sheen), and rounded edges are drawn as thin bevels lit with the half-way normal.
Painter's order by distance from the camera.  On the board each cube casts a contact (ambient-occlusion)
shadow and, per light, a projected shadow polygon blurred by that light's penumbra.

Light: linear-light rendering.  A hemispherical ambient term (colour temperature 2700..6500 K) plus 0..2
direct lights: overhead lamp, low desk lamp (point lights with size-dependent penumbra and 1/d^2 gradients)
or window daylight (directional).  The board has a satin print finish (weak specular glare).  Between the
calibration and the play photo 1..3 events are applied: a lamp switched on or off, evening dimming (dimmer and
warmer), a colour-temperature shift, a local pool of light (spot lamp) or a pool of shadow (soft occluder
blob, e.g. a person leaning over), daylight brightening.

Camera: pinhole with horizontal FOV 55..78 deg, principal point jitter, radial distortion (k1 -0.08..0.02) and
slight lateral chromatic aberration; tilt 0..35 deg from straight down, any azimuth and any roll; the yard's
bounding box fills 25..70 % of the frame width, with every marker sheet inside the frame and every marker at
least 38 px on its shortest projected side.  Between calibration and play the camera is nudged (0.2..1.5
deg rotation about a random axis, 0.5..5 mm translation).  Rendering is done at 2x supersampling with a
padded frame, then area-downsampled and remapped through the lens distortion.

Sensor: vignetting, lens blur (sigma 0.4..0.95 px) with a depth-dependent defocus part, centre-weighted auto
exposure of partial strength (0.2..1; the result kept within 0.5..1.9x of full metering), grey-world auto white
balance of partial strength plus a per-camera bias (so warm scenes stay warm and cool scenes cool), shot + read
noise (gain rises in dim light) with slightly blurred chroma noise, sRGB tone curve with contrast/saturation,
optional unsharp masking, 8-bit quantisation and JPEG (quality 60..95) through cv2.imencode / cv2.imdecode.

Hand (hand=True): a 3D hand with forearm (palm, four fingers with individual curl, thumb; optional sleeve)
hovering 25..120 mm above the yard (at most a quarter of the camera height), the middle fingertip seen over a
random yard point (parallax of the raised hand accounted for), rising towards the body and leaving through an
image edge; polygons are clipped at the camera's near plane.  Skin tones from light to dark with mottle; rounded
shading from normals of a blurred-silhouette height field (Lambert with a little wrap-around for subsurface
scattering, redder towards the rims, weak sheen), defocus and sometimes motion blur; it casts a penumbral
shadow from every light and a broad ambient-occlusion shadow on the board and the cubes beneath it.  The
scene, cubes, lights and camera are identical to the hand=False pair of the same seed; only the play photo
gains the hand.

Every pair is checked: all four markers must be detected in the calibration and (no-hand) play photos and
every cube must be visibly drawn; otherwise the scene is re-drawn from the next deterministic sub-seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = ["KINDS", "LIMITS", "SixthPair", "SixthPlay", "sixth_scene_pair"]

W_IMG, H_IMG = 1280, 720
SS = 2
PAD = 32
RW, RH = (W_IMG + 2 * PAD) * SS, (H_IMG + 2 * PAD) * SS
GRID = 8
KINDS = ("iron", "stone", "coal", "event")
LIMITS = {"iron": 20, "stone": 20, "coal": 12, "event": 5}  # the box holds 5 event cubes
_DICT = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
_UP = np.array([0.0, 0.0, -1.0])
_LUMA = np.array([0.2126, 0.7152, 0.0722])


@dataclass(frozen=True)
class SixthPlay:
    image: NDArray[np.uint8]
    counts: dict[str, int]
    cube_mask: NDArray[np.bool_]


@dataclass(frozen=True)
class SixthPair:
    calibration: NDArray[np.uint8]
    play: SixthPlay
    hand: bool


# ----------------------------------------------------------------------------------------------- colour helpers


def _srgb_to_lin(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


def _lin_to_srgb(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055).astype(np.float32)


_LUT = _srgb_to_lin(np.arange(256) / 255.0).astype(np.float32)


def _lin(rgb: tuple[float, float, float] | np.ndarray) -> np.ndarray:
    """sRGB 0..255 -> linear reflectance."""
    return _srgb_to_lin(np.asarray(rgb, dtype=np.float64) / 255.0)


def _kelvin(t_k: float) -> np.ndarray:
    """Linear RGB of a black body (Tanner Helland fit), normalised to luminance 1."""
    t = t_k / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    lin = _lin(np.clip([r, g, b], 1.0, 255.0))
    return np.asarray(lin / float(lin @ _LUMA))


def _noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 3) -> np.ndarray:
    """Smooth value noise, roughly unit standard deviation."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp * amp
        amp *= 0.5
        cell = max(1.0, cell / 2)
    return out / math.sqrt(total)


def _blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; large kernels are done on a downscaled copy (same result to within a few percent)."""
    img = np.asarray(img, np.float32)
    if sigma <= 6:
        return np.asarray(cv2.GaussianBlur(img, (0, 0), sigma))
    h, w = img.shape[:2]
    k = sigma / 3.0
    sw, sh = max(2, int(round(w / k))), max(2, int(round(h / k)))
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma * sw / w)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))


def _smoothstep(a: float, b: float, x: np.ndarray) -> np.ndarray:
    t = np.clip((x - a) / (b - a + 1e-9), 0.0, 1.0)
    return t * t * (3 - 2 * t)


# ----------------------------------------------------------------------------------------------- camera


@dataclass(frozen=True)
class _Cam:
    f: float
    cx: float
    cy: float
    R: np.ndarray
    C: np.ndarray
    k1: float
    k2: float

    def to_cam(self, p: np.ndarray) -> np.ndarray:
        return np.asarray((np.atleast_2d(p) - self.C) @ self.R.T)

    def project(self, p: np.ndarray) -> np.ndarray:
        """World points -> ideal (undistorted) pixel coordinates of the 1280x720 frame."""
        pc = self.to_cam(p)
        z = np.maximum(pc[:, 2], 1e-3)
        return np.stack([self.f * pc[:, 0] / z + self.cx, self.f * pc[:, 1] / z + self.cy], axis=1)

    def project_ss(self, p: np.ndarray) -> np.ndarray:
        return (self.project(p) + PAD + 0.5) * SS - 0.5

    def project_poly_ss(self, poly: np.ndarray, near: float = 10.0) -> np.ndarray:
        """Project a planar-ish 3D polygon, clipped against the plane `near` mm in front of the camera."""
        pc = self.to_cam(poly)
        out = []
        n = len(pc)
        for i in range(n):
            a, b = pc[i], pc[(i + 1) % n]
            ina, inb = a[2] >= near, b[2] >= near
            if ina:
                out.append(a)
            if ina != inb:
                t = (near - a[2]) / (b[2] - a[2])
                out.append(a + t * (b - a))
        if len(out) < 3:
            return np.zeros((0, 2))
        q = np.array(out)
        uv = np.stack([self.f * q[:, 0] / q[:, 2] + self.cx, self.f * q[:, 1] / q[:, 2] + self.cy], axis=1)
        return np.asarray(np.clip((uv + PAD + 0.5) * SS - 0.5, -2e5, 2e5))

    def k_ss(self) -> np.ndarray:
        o = (PAD + 0.5) * SS - 0.5
        return np.array([[self.f * SS, 0, self.cx * SS + o], [0, self.f * SS, self.cy * SS + o], [0, 0, 1.0]])

    def h_ground_ss(self) -> np.ndarray:
        """Homography world (X, Y, 1) on the board -> supersampled render pixels."""
        m = np.stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C], axis=1)
        return np.asarray(self.k_ss() @ m)

    def ground_of_ss(self, uv: np.ndarray) -> np.ndarray:
        hinv = np.linalg.inv(self.h_ground_ss())
        q = np.concatenate([uv, np.ones((len(uv), 1))], axis=1) @ hinv.T
        return np.asarray(q[:, :2] / q[:, 2:3])


def _look_at(target: np.ndarray, tilt: float, az: float, roll: float, dist: float) -> tuple[np.ndarray, np.ndarray]:
    d = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), -math.cos(tilt)])
    c = target + dist * d
    z = -d
    ref = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    y0 = np.cross(z, ref)
    y0 /= np.linalg.norm(y0)
    x0 = np.cross(y0, z)
    y = math.cos(roll) * y0 + math.sin(roll) * x0
    x = np.cross(y, z)
    return np.stack([x, y, z]), c


def _rodrigues(axis: np.ndarray, angle: float) -> np.ndarray:
    rv = (axis / np.linalg.norm(axis) * angle).reshape(3, 1)
    rot, _ = cv2.Rodrigues(rv)
    return np.asarray(rot)


# ----------------------------------------------------------------------------------------------- light


@dataclass
class _Light:
    kind: str  # "point" or "dir"
    vec: np.ndarray  # position (point) or unit direction towards the light (dir)
    colour: np.ndarray  # linear RGB, luminance 1
    power: float  # irradiance at normal incidence at reference distance
    ref_d: float
    radius: float  # mm for a point light, radians for a directional one
    spot: tuple[np.ndarray, float, float] | None = None  # axis from the light, cos outer, cos inner
    occ: tuple[float, float, float, float] | None = None  # occluder blob on the board: X, Y, radius, depth

    def towards(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unit vectors from points p (N,3) towards the light and the unshadowed intensity there."""
        if self.kind == "point":
            v = self.vec[None, :] - p
            d2 = np.maximum((v * v).sum(1), 1.0)
            ln = v / np.sqrt(d2)[:, None]
            inten = self.power * self.ref_d**2 / d2
        else:
            ln = np.broadcast_to(self.vec, p.shape).copy()
            inten = np.full(len(p), self.power)
        if self.spot is not None:
            axis, co, ci = self.spot
            inten = inten * _smoothstep(co, ci, -(ln @ axis))
        if self.occ is not None:
            ox, oy, r0, depth = self.occ
            r = np.hypot(p[:, 0] - ox, p[:, 1] - oy)
            inten = inten * (1 - depth * (1 - _smoothstep(0.55 * r0, 1.45 * r0, r)))
        return ln, inten

    def irradiance(self, p: np.ndarray, n: np.ndarray) -> np.ndarray:
        ln, inten = self.towards(p)
        cos = np.clip((ln * n).sum(1) if n.ndim == 2 else ln @ n, 0.0, None)
        return np.asarray((inten * cos)[:, None] * self.colour[None, :])

    def penumbra(self, height: float) -> float:
        """Penumbra width (mm) on the board behind an edge `height` mm above it."""
        if self.kind == "point":
            lh = max(-float(self.vec[2]), height + 10)
            return self.radius * height / (lh - height)
        return self.radius * height

    def ground_shadow(self, v: np.ndarray) -> np.ndarray:
        """Project world points (N,3) from this light onto the board (N,2)."""
        if self.kind == "point":
            lz = self.vec[2]
            t = lz / (lz - v[:, 2])
            t = np.clip(t, 0.0, 8.0)
            return np.asarray(self.vec[None, :2] + (v[:, :2] - self.vec[None, :2]) * t[:, None])
        t = -v[:, 2] / self.vec[2]
        return np.asarray(v[:, :2] + self.vec[None, :2] * t[:, None])


@dataclass
class _Lighting:
    amb_colour: np.ndarray
    amb_power: float
    amb_bias: np.ndarray
    lights: list[_Light]
    amb_occ: list[tuple[float, float, float, float]] = field(default_factory=list)
    gloss: float = 0.02
    gloss_pow: float = 40.0

    def ambient_at(self, xy: np.ndarray) -> np.ndarray:
        f = np.ones(len(xy))
        for ox, oy, r0, depth in self.amb_occ:
            r = np.hypot(xy[:, 0] - ox, xy[:, 1] - oy)
            f *= 1 - depth * (1 - _smoothstep(0.5 * r0, 1.6 * r0, r))
        return np.asarray(f[:, None] * self.amb_colour[None, :] * self.amb_power)


# ----------------------------------------------------------------------------------------------- world objects


@dataclass
class _Marker:
    mid: int
    centre: np.ndarray
    size: float
    paper: float
    angle: float

    def _square(self, side: float) -> np.ndarray:
        c, s = math.cos(self.angle), math.sin(self.angle)
        h = side / 2
        loc = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        return np.asarray(self.centre + loc @ np.array([[c, s], [-s, c]]))

    def corners(self) -> np.ndarray:
        return self._square(self.size)

    def paper_poly(self, grow: float = 0.0) -> np.ndarray:
        return self._square(self.paper + 2 * grow)


@dataclass
class _Cube:
    kind: str
    x: float
    y: float
    yaw: float
    s: float
    albedo: np.ndarray
    grain_axis: int
    pith: tuple[float, float]
    ring: float
    grain_amp: float
    warp: tuple[float, float, float, float]
    ks: float
    kpow: float
    wear: float

    def axes(self) -> tuple[np.ndarray, np.ndarray]:
        a = np.array([math.cos(self.yaw), math.sin(self.yaw), 0.0])
        b = np.array([-math.sin(self.yaw), math.cos(self.yaw), 0.0])
        return a, b

    def footprint(self, grow: float = 0.0) -> np.ndarray:
        a, b = self.axes()
        h = self.s / 2 + grow
        c = np.array([self.x, self.y])
        return np.array([c + sa * h * a[:2] + sb * h * b[:2] for sa, sb in ((-1, -1), (1, -1), (1, 1), (-1, 1))])

    def verts(self) -> np.ndarray:
        fp = self.footprint()
        bot = np.concatenate([fp, np.zeros((4, 1))], axis=1)
        top = bot + _UP * self.s
        return np.concatenate([bot, top], axis=0)

    def faces(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(outward normal, corners p00 p10 p11 p01) of the top and the four sides (sides: v runs top->bottom)."""
        a, b = self.axes()
        c = np.array([self.x, self.y, 0.0])
        h = self.s / 2
        up = _UP * self.s
        top = [c - a * h - b * h + up, c + a * h - b * h + up, c + a * h + b * h + up, c - a * h + b * h + up]
        out = [(_UP.copy(), np.array(top))]
        for n, t in ((a, b), (-a, -b), (b, -a), (-b, a)):
            p00 = c + n * h - t * h + up
            p10 = c + n * h + t * h + up
            out.append((n, np.array([p00, p10, p10 - up, p00 - up])))
        return out


@dataclass
class _Tex:
    img: np.ndarray  # uint8 sRGB RGB
    x0: float
    y0: float
    ppm: float

    def tex_to_world(self) -> np.ndarray:
        return np.array([[1 / self.ppm, 0, self.x0 + 0.5 / self.ppm], [0, 1 / self.ppm, self.y0 + 0.5 / self.ppm],
                         [0, 0, 1.0]])

    def px(self, pts: np.ndarray) -> np.ndarray:
        """mm -> cv2 fixed point (shift 3) pixel coordinates."""
        q = (np.atleast_2d(pts) - [self.x0, self.y0]) * self.ppm - 0.5
        return np.round(q * 8).astype(np.int32)

    def pt(self, p: np.ndarray | tuple[float, float]) -> tuple[int, int]:
        q = self.px(np.asarray(p, dtype=np.float64))[0]
        return int(q[0]), int(q[1])

    def r(self, mm: float) -> int:
        return max(1, int(round(mm * self.ppm * 8)))

    def t(self, mm: float) -> int:
        return max(1, int(round(mm * self.ppm)))


@dataclass
class _HandSpec:
    skin: list[np.ndarray]
    sleeve: list[np.ndarray]
    skin_albedo: np.ndarray
    sleeve_albedo: np.ndarray
    height: float
    centre: np.ndarray
    motion: float
    motion_dir: float
    ks: float


@dataclass
class _Sensor:
    blur: float
    defocus: float
    vign: float
    noise_k: float
    read: float
    jpeg: int
    sat: float
    contrast: float
    sharpen: float
    awb: float
    ae: float
    wb_bias: np.ndarray
    ca: float
    target: float


@dataclass
class _Scene:
    board: _Tex
    table: _Tex
    board_rect: tuple[float, float, float, float]
    markers: list[_Marker]
    cubes: list[_Cube]
    cams: tuple[_Cam, _Cam]
    lights: tuple[_Lighting, _Lighting]
    sensor: _Sensor
    board_mean: np.ndarray
    s: float


# ----------------------------------------------------------------------------------------------- geometry utils


def _sat_overlap(a: np.ndarray, b: np.ndarray, tol: float = 0.05) -> bool:
    for poly in (a, b):
        for i in range(len(poly)):
            e = poly[(i + 1) % len(poly)] - poly[i]
            n = np.array([-e[1], e[0]])
            pa, pb = a @ n / np.linalg.norm(n), b @ n / np.linalg.norm(n)
            if pa.max() - pb.min() <= tol or pb.max() - pa.min() <= tol:
                return False
    return True


def _inside_convex(poly: np.ndarray, pts: np.ndarray, margin: float = 0.0) -> bool:
    """All pts inside the convex polygon, at least `margin` from every edge (either orientation)."""
    area = 0.0
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        area += p[0] * q[1] - q[0] * p[1]
    sgn = 1.0 if area > 0 else -1.0
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        e = q - p
        d = sgn * (e[0] * (pts[:, 1] - p[1]) - e[1] * (pts[:, 0] - p[0])) / np.linalg.norm(e)
        if (d < margin).any():
            return False
    return True


# ----------------------------------------------------------------------------------------------- board artwork

_TERRAIN = [(112, 138, 78), (86, 112, 66), (150, 132, 96), (126, 120, 110), (98, 112, 124), (176, 166, 132),
            (140, 150, 104), (122, 96, 78), (160, 170, 176), (88, 96, 84), (196, 184, 150), (134, 104, 112)]
_INKS = [(30, 28, 26), (52, 40, 34), (24, 40, 60), (70, 30, 26), (20, 20, 22)]
_CREAMS = [(236, 228, 205), (230, 222, 196), (242, 238, 226), (226, 214, 180)]
_WORDS = ["LLANBERIS", "STOCK YARD", "YR WYDDFA", "CLOGWYN", "HEBRON", "WORKS", "SITE OFFICE", "EXCAVATION",
          "LAY TRACK", "BUILD", "SURVEYOR", "IARD STOC", "GWAITH", "PUB", "ENGINE SHED", "HALFWAY", "ROCKY VALLEY",
          "take 3 cubes", "max 1 coal", "1 steel = 2 iron", "draw from bag", "WEATHER", "Snowdon Mountain Railway"]
_FONTS = [cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX]
_ICON_COLOURS = {"orange": (232, 118, 34), "grey": (140, 140, 136), "black": (34, 34, 36), "white": (240, 238, 230)}


def _jit(rng: np.random.Generator, c: tuple[float, ...] | np.ndarray, amt: float = 12) -> tuple[int, int, int]:
    v = np.clip(np.asarray(c) + rng.normal(0, amt, 3), 0, 255)
    return int(v[0]), int(v[1]), int(v[2])


def _text(tex: _Tex, rng: np.random.Generator, centre: np.ndarray, height_mm: float, text: str,
          colour: tuple[int, int, int], rot: int) -> None:
    font = _FONTS[int(rng.integers(len(_FONTS)))]
    hpx = height_mm * tex.ppm
    if hpx < 4:
        return
    scale = hpx / 22.0
    th = max(1, int(round(scale * rng.uniform(1.2, 2.4))))
    (tw, tht), base = cv2.getTextSize(text, font, scale, th)
    patch = np.zeros((tht + base + 2 * th + 2, tw + 2 * th + 2), np.uint8)
    cv2.putText(patch, text, (th + 1, tht + th), font, scale, 255, th, cv2.LINE_AA)
    patch = np.rot90(patch, rot % 4)
    _paste(tex.img, patch.astype(np.float32) / 255.0, np.array(colour, np.float32),
           (centre - [tex.x0, tex.y0]) * tex.ppm)


def _paste(img: np.ndarray, alpha: np.ndarray, colour: np.ndarray, centre_px: np.ndarray) -> None:
    h, w = alpha.shape
    x0, y0 = int(round(centre_px[0] - w / 2)), int(round(centre_px[1] - h / 2))
    ix0, iy0 = max(0, x0), max(0, y0)
    ix1, iy1 = min(img.shape[1], x0 + w), min(img.shape[0], y0 + h)
    if ix1 <= ix0 or iy1 <= iy0:
        return
    a = alpha[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0, None]
    roi = img[iy0:iy1, ix0:ix1].astype(np.float32)
    img[iy0:iy1, ix0:ix1] = np.clip(roi * (1 - a) + colour * a, 0, 255).astype(np.uint8)


def _cube_icon(tex: _Tex, c: np.ndarray, size: float, col: tuple[int, int, int], ink: tuple[int, int, int],
               ang: float) -> None:
    r = size / 2
    pts = [c + r * np.array([math.cos(ang + k * math.pi / 3), math.sin(ang + k * math.pi / 3)]) for k in range(6)]
    cen = c
    base = np.asarray(col, np.float64)
    shades = [np.clip(base * 1.12 + 10, 0, 255), base * 0.85, base * 0.65]
    quads = [[cen, pts[0], pts[1], pts[2]], [cen, pts[2], pts[3], pts[4]], [cen, pts[4], pts[5], pts[0]]]
    for q, sh in zip(quads, shades, strict=True):
        cv2.fillPoly(tex.img, [tex.px(np.array(q))], tuple(int(v) for v in sh), cv2.LINE_AA, 3)
    cv2.polylines(tex.img, [tex.px(np.array(pts))], True, ink, tex.t(size * 0.06), cv2.LINE_AA, 3)


def _rails(tex: _Tex, rng: np.random.Generator, p0: np.ndarray, p1: np.ndarray) -> None:
    gauge = rng.uniform(3.5, 6.0)
    d = p1 - p0
    ln = float(np.linalg.norm(d))
    if ln < 1:
        return
    d /= ln
    n = np.array([-d[1], d[0]])
    sleeper = _jit(rng, (110, 82, 58), 15)
    for t in np.arange(0, ln, rng.uniform(2.5, 4.0)):
        q = p0 + d * t
        cv2.line(tex.img, tex.pt(q - n * gauge * 0.9), tex.pt(q + n * gauge * 0.9), sleeper, tex.t(1.0),
                 cv2.LINE_AA, 3)
    rail = _jit(rng, (60, 58, 56), 8)
    for sgn in (-1, 1):
        cv2.line(tex.img, tex.pt(p0 + sgn * n * gauge / 2), tex.pt(p1 + sgn * n * gauge / 2), rail, tex.t(0.5),
                 cv2.LINE_AA, 3)


def _fill_panel(tex: _Tex, rng: np.random.Generator, rect: tuple[float, float, float, float], s: float) -> None:
    x0, y0, x1, y1 = rect
    style = str(rng.choice(["gravel", "parchment", "planks", "slate", "grass", "sand"],
                           p=[0.28, 0.18, 0.16, 0.14, 0.12, 0.12]))
    poly = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    bases = {"gravel": (150, 140, 122), "parchment": _CREAMS[int(rng.integers(4))], "planks": (150, 112, 72),
             "slate": (96, 100, 108), "grass": (112, 140, 76), "sand": (206, 186, 140)}
    cv2.fillPoly(tex.img, [tex.px(poly)], _jit(rng, bases[style], 10), cv2.LINE_AA, 3)
    area = (x1 - x0) * (y1 - y0)
    if style == "gravel":
        for _ in range(int(area / rng.uniform(10, 30))):
            c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
            ax = rng.uniform(1.0, 0.55 * s)
            g = rng.uniform(80, 200)
            col = _jit(rng, (g, g * 0.98, g * 0.93), 6)
            ang = rng.uniform(0, 180)
            cv2.ellipse(tex.img, tex.pt(c), (tex.r(ax), tex.r(ax * rng.uniform(0.5, 0.9))), ang, 0, 360, col, -1,
                        cv2.LINE_AA, 3)
            if rng.random() < 0.5:
                cv2.ellipse(tex.img, tex.pt(c), (tex.r(ax), tex.r(ax * 0.7)), ang, 0, 360, (60, 56, 52),
                            tex.t(0.25), cv2.LINE_AA, 3)
    elif style == "planks":
        pw = rng.uniform(0.8, 2.0) * s
        vertical = rng.random() < 0.5
        k = 0
        for t in np.arange(x0 if vertical else y0, x1 if vertical else y1, pw):
            k += 1
            a, b = ((np.array([t, y0]), np.array([t, y1])) if vertical else (np.array([x0, t]), np.array([x1, t])))
            q = [a, b, b + ([pw, 0] if vertical else [0, pw]), a + ([pw, 0] if vertical else [0, pw])]
            tone = np.array(bases["planks"], np.float64) * rng.uniform(0.82, 1.15)
            cv2.fillPoly(tex.img, [tex.px(np.array(q))], _jit(rng, tuple(int(v) for v in np.clip(tone, 0, 255)), 4),
                         cv2.LINE_AA, 3)
            cv2.line(tex.img, tex.pt(a), tex.pt(b), (70, 50, 34), tex.t(0.4), cv2.LINE_AA, 3)
    elif style == "slate":
        tw = rng.uniform(1.2, 3.0) * s
        for ty in np.arange(y0, y1, tw * 0.6):
            for tx in np.arange(x0 - tw * rng.random(), x1, tw):
                tile = np.clip(np.array([[tx, ty], [tx + tw, ty], [tx + tw, ty + tw * 0.6], [tx, ty + tw * 0.6]]),
                               [x0, y0], [x1, y1])
                g = rng.uniform(0.8, 1.2)
                cv2.fillPoly(tex.img, [tex.px(tile)], _jit(rng, (int(96 * g), int(100 * g), int(108 * g)), 4),
                             cv2.LINE_AA, 3)
                cv2.polylines(tex.img, [tex.px(tile)], True, (50, 52, 58), tex.t(0.3), cv2.LINE_AA, 3)
    elif style == "grass":
        for _ in range(int(area / 6)):
            c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
            d = np.array([rng.normal(0, 0.3), -1.0]) * rng.uniform(1, 3)
            cv2.line(tex.img, tex.pt(c), tex.pt(c + d), _jit(rng, (80, 120, 56), 20), tex.t(0.3), cv2.LINE_AA, 3)
    else:  # parchment, sand: blotches
        for _ in range(int(area / 60)):
            c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
            tone = np.clip(np.asarray(bases[style], np.float64) * rng.uniform(0.9, 1.06), 0, 255)
            cv2.circle(tex.img, tex.pt(c), tex.r(rng.uniform(1, 6)), _jit(rng, tuple(int(v) for v in tone), 3), -1,
                       cv2.LINE_AA, 3)
    # printed content in the panel
    ink = _INKS[int(rng.integers(len(_INKS)))]
    for _ in range(int(rng.integers(0, 9))):
        c = np.array([rng.uniform(x0 + s, x1 - s), rng.uniform(y0 + s, y1 - s)])
        name = str(rng.choice(list(_ICON_COLOURS)))
        _cube_icon(tex, c, rng.uniform(0.5, 1.3) * s, _jit(rng, _ICON_COLOURS[name], 8), ink,
                   rng.uniform(0, math.pi))
    for _ in range(int(rng.integers(0, 4))):
        c = np.array([rng.uniform(x0 + s, x1 - s), rng.uniform(y0 + s, y1 - s)])
        rr = rng.uniform(0.8, 1.6) * s
        cv2.circle(tex.img, tex.pt(c), tex.r(rr), _jit(rng, _CREAMS[0], 10), -1, cv2.LINE_AA, 3)
        cv2.circle(tex.img, tex.pt(c), tex.r(rr), ink, tex.t(0.6), cv2.LINE_AA, 3)
        _text(tex, rng, c, rr * 0.9, str(int(rng.integers(1, 5))), ink, 0)
    if rng.random() < 0.35:
        _rails(tex, rng, np.array([x0 - 5, rng.uniform(y0, y1)]), np.array([x1 + 5, rng.uniform(y0, y1)]))
    if rng.random() < 0.6:
        # grey rubble-like printed blobs
        for _ in range(int(rng.integers(3, 20))):
            c = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
            pts = c + rng.uniform(0.2, 0.6) * s * np.array(
                [[math.cos(a) * rng.uniform(0.6, 1.2), math.sin(a) * rng.uniform(0.6, 1.2)]
                 for a in np.linspace(0, 2 * math.pi, 7)[:-1]])
            g = rng.uniform(70, 190)
            cv2.fillPoly(tex.img, [tex.px(pts)], _jit(rng, (g, g, g * 0.96), 5), cv2.LINE_AA, 3)
    for _ in range(int(rng.integers(0, 3))):
        c = np.array([rng.uniform(x0 + 2 * s, x1 - 2 * s), rng.uniform(y0 + s, y1 - s)])
        _text(tex, rng, c, rng.uniform(1.5, 3.5), str(rng.choice(_WORDS)), ink, 0)
    # border and title banner
    cv2.polylines(tex.img, [tex.px(poly)], True, ink, tex.t(rng.uniform(0.6, 2.0)), cv2.LINE_AA, 3)
    if rng.random() < 0.6:
        inner = poly + np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * rng.uniform(1.5, 3.0)
        cv2.polylines(tex.img, [tex.px(inner)], True, _jit(rng, _CREAMS[2], 8), tex.t(0.5), cv2.LINE_AA, 3)
    if rng.random() < 0.7:
        bh = rng.uniform(0.6, 1.2) * s
        top = rng.random() < 0.5
        yb = y0 if top else y1 - bh
        band = np.array([[x0 + 0.3 * (x1 - x0), yb], [x1 - 0.3 * (x1 - x0), yb], [x1 - 0.3 * (x1 - x0), yb + bh],
                         [x0 + 0.3 * (x1 - x0), yb + bh]])
        bc = _jit(rng, [(150, 40, 34), (40, 70, 50), (30, 30, 34), (200, 170, 90)][int(rng.integers(4))], 10)
        cv2.fillPoly(tex.img, [tex.px(band)], bc, cv2.LINE_AA, 3)
        _text(tex, rng, np.array([(x0 + x1) / 2, yb + bh / 2]), bh * 0.55, str(rng.choice(["STOCK YARD", "A",
              "IARD STOC", "STOCK YARD  A"])), _jit(rng, _CREAMS[2], 6), 0)


def _paint_board(rng: np.random.Generator, tex: _Tex, board_rect: tuple[float, float, float, float],
                 panel: tuple[float, float, float, float], markers: list[_Marker], s: float) -> None:
    h, w = tex.img.shape[:2]
    # 1. terrain regions (low resolution, then upsampled)
    lw, lh = max(4, int(w / tex.ppm / 4)), max(4, int(h / tex.ppm / 4))
    k = int(rng.integers(3, 6))
    idx = rng.choice(len(_TERRAIN), k, replace=False)
    cols = np.array([_TERRAIN[i] for i in idx], np.float32) + rng.normal(0, 8, (k, 3)).astype(np.float32)
    fields = np.stack([_noise(rng, lh, lw, rng.uniform(10, 40), 3) for _ in range(k)])
    temp = rng.uniform(0.12, 0.45)
    wts = np.exp((fields - fields.max(0, keepdims=True)) / temp)
    wts /= wts.sum(0, keepdims=True)
    low = np.einsum("khw,kc->hwc", wts, cols)
    low += _noise(rng, lh, lw, 3, 2)[..., None] * rng.uniform(4, 12)
    tex.img[:] = np.clip(cv2.resize(low, (w, h), interpolation=cv2.INTER_CUBIC), 0, 255).astype(np.uint8)
    bx0, by0, bx1, by1 = board_rect
    vx0, vy0 = tex.x0, tex.y0
    vx1, vy1 = tex.x0 + w / tex.ppm, tex.y0 + h / tex.ppm
    area = (vx1 - vx0) * (vy1 - vy0)
    px0, py0, px1, py1 = panel
    ink = _INKS[int(rng.integers(len(_INKS)))]

    def rand_pt() -> np.ndarray:
        return np.array([rng.uniform(vx0, vx1), rng.uniform(vy0, vy1)])

    # 2. rivers / roads
    for _ in range(int(rng.integers(0, 3))):
        pts = [rand_pt()]
        d = rng.uniform(0, 2 * math.pi)
        for _ in range(12):
            d += rng.normal(0, 0.35)
            pts.append(pts[-1] + 40 * np.array([math.cos(d), math.sin(d)]))
        col = _jit(rng, [(92, 130, 168), (160, 140, 110), (190, 180, 150)][int(rng.integers(3))], 10)
        cv2.polylines(tex.img, [tex.px(np.array(pts))], False, col, tex.t(rng.uniform(3, 10)), cv2.LINE_AA, 3)
    # 3. frame around the yard panel and rails
    if rng.random() < 0.6:
        g = rng.uniform(2, 10)
        fr = np.array([[px0 - g, py0 - g], [px1 + g, py0 - g], [px1 + g, py1 + g], [px0 - g, py1 + g]])
        cv2.polylines(tex.img, [tex.px(fr)], True, _jit(rng, _TERRAIN[int(rng.integers(len(_TERRAIN)))], 20),
                      tex.t(rng.uniform(2, 6)), cv2.LINE_AA, 3)
    for _ in range(int(rng.integers(0, 3))):
        _rails(tex, rng, rand_pt(), rand_pt())
    # 4. icons, spaces, words, score track
    n_items = int(area / rng.uniform(900, 2500))
    for _ in range(min(n_items, 400)):
        c = rand_pt()
        if px0 - 3 < c[0] < px1 + 3 and py0 - 3 < c[1] < py1 + 3:
            continue
        kind = rng.random()
        if kind < 0.3:
            name = str(rng.choice(list(_ICON_COLOURS)))
            _cube_icon(tex, c, rng.uniform(0.5, 1.4) * s, _jit(rng, _ICON_COLOURS[name], 8), ink,
                       rng.uniform(0, math.pi))
        elif kind < 0.5:
            rr = rng.uniform(5, 14)
            cv2.circle(tex.img, tex.pt(c), tex.r(rr), _jit(rng, _CREAMS[int(rng.integers(4))], 8), -1, cv2.LINE_AA,
                       3)
            cv2.circle(tex.img, tex.pt(c), tex.r(rr), ink, tex.t(0.7), cv2.LINE_AA, 3)
            _text(tex, rng, c, rr * 0.8, str(int(rng.integers(1, 10))), ink, 0)
        elif kind < 0.8:
            _text(tex, rng, c, rng.uniform(2, 6), str(rng.choice(_WORDS)),
                  ink if rng.random() < 0.7 else _jit(rng, _CREAMS[2], 5), int(rng.integers(0, 4)) if
                  rng.random() < 0.2 else 0)
        elif kind < 0.9:
            col = _jit(rng, [(60, 70, 150), (200, 60, 50), (230, 190, 40), (120, 60, 140), (50, 140, 70)][
                int(rng.integers(5))], 10)
            cv2.circle(tex.img, tex.pt(c - [0, 4]), tex.r(2.5), col, -1, cv2.LINE_AA, 3)
            tri = np.array([c + [-4, 6], c + [4, 6], c + [1.5, -2], c + [-1.5, -2]])
            cv2.fillPoly(tex.img, [tex.px(tri)], col, cv2.LINE_AA, 3)
        else:
            rr = rng.uniform(6, 20)
            box = np.array([c + [-rr, -rr * 0.6], c + [rr, -rr * 0.6], c + [rr, rr * 0.6], c + [-rr, rr * 0.6]])
            cv2.fillPoly(tex.img, [tex.px(box)], _jit(rng, _CREAMS[int(rng.integers(4))], 8), cv2.LINE_AA, 3)
            cv2.polylines(tex.img, [tex.px(box)], True, ink, tex.t(0.5), cv2.LINE_AA, 3)
            _text(tex, rng, c, rr * 0.3, str(rng.choice(_WORDS))[:6], ink, 0)
    if rng.random() < 0.7:
        # score track along a board edge
        edge = int(rng.integers(4))
        step = rng.uniform(9, 14)
        y = (by0 + 4, by1 - 4 - step, bx0 + 4, bx1 - 4 - step)[edge]
        for i, t in enumerate(np.arange(bx0 if edge < 2 else by0, bx1 if edge < 2 else by1, step)):
            q = np.array([t, y]) if edge < 2 else np.array([y, t])
            box = np.array([q, q + [step, 0], q + [step, step], q + [0, step]])
            cv2.fillPoly(tex.img, [tex.px(box)], _jit(rng, _CREAMS[i % 2 * 2], 6), cv2.LINE_AA, 3)
            cv2.polylines(tex.img, [tex.px(box)], True, ink, tex.t(0.4), cv2.LINE_AA, 3)
            if vx0 - 20 < q[0] < vx1 + 20 and vy0 - 20 < q[1] < vy1 + 20:
                _text(tex, rng, q + step / 2, step * 0.45, str(i), ink, 0)
    # 5. the printed yard panel
    _fill_panel(tex, rng, panel, s)
    # 6. hinge crease
    if rng.random() < 0.3:
        if rng.random() < 0.5:
            xc = rng.uniform(vx0, vx1)
            a, b = np.array([xc, by0]), np.array([xc, by1])
        else:
            yc = rng.uniform(vy0, vy1)
            a, b = np.array([bx0, yc]), np.array([bx1, yc])
        cv2.line(tex.img, tex.pt(a), tex.pt(b), (40, 36, 32), tex.t(0.4), cv2.LINE_AA, 3)
    # 7. print texture: mottle + paper grain + slight blur
    img = tex.img.astype(np.float32)
    img += _noise(rng, h, w, max(4.0, 6 * tex.ppm), 2)[..., None] * rng.uniform(2, 6)
    img += rng.standard_normal((h, w), dtype=np.float32)[..., None] * rng.uniform(2, 6)
    img = _blur(img, max(0.3, 0.05 * tex.ppm))
    tex.img[:] = np.clip(img, 0, 255).astype(np.uint8)
    # 8. marker sheets
    for m in markers:
        _marker_sheet(tex, rng, m)


def _marker_sheet(tex: _Tex, rng: np.random.Generator, m: _Marker) -> None:
    poly = m.paper_poly()
    # contact shadow of the paper edge
    sh = m.paper_poly(0.4) + rng.normal(0, 0.2, 2)
    bb = tex.px(sh) / 8.0
    x0, y0 = np.floor(bb.min(0)).astype(int) - 6
    x1, y1 = np.ceil(bb.max(0)).astype(int) + 6
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(tex.img.shape[1], x1), min(tex.img.shape[0], y1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [tex.px(sh) - [x0 * 8, y0 * 8]], 255, cv2.LINE_AA, 3)
    mk = _blur(mask.astype(np.float32) / 255, max(0.7, 0.4 * tex.ppm))
    roi = tex.img[y0:y1, x0:x1].astype(np.float32) * (1 - 0.35 * mk[..., None])
    tex.img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    paper = _jit(rng, (244, 245, 242), 4)
    cv2.fillPoly(tex.img, [tex.px(poly)], paper, cv2.LINE_AA, 3)
    # the marker itself
    cells = 60
    mark = cv2.aruco.generateImageMarker(_DICT, m.mid, 6 * cells).astype(np.float32) / 255.0
    side_px = m.size * tex.ppm
    c, s_ = math.cos(m.angle), math.sin(m.angle)
    ctr = (m.centre - [tex.x0, tex.y0]) * tex.ppm - 0.5
    sc = side_px / (6 * cells)
    # patch pixel (i, j) centre -> canvas
    a = np.array([[c * sc, -s_ * sc, 0.0], [s_ * sc, c * sc, 0.0]])
    a[:, 2] = ctr - a[:, :2] @ np.array([3 * cells - 0.5, 3 * cells - 0.5])
    bb2 = np.array([ctr - side_px, ctr + side_px])
    x0, y0 = np.maximum(np.floor(bb2[0]).astype(int), 0)
    x1, y1 = np.ceil(bb2[1]).astype(int)
    x1, y1 = min(x1, tex.img.shape[1]), min(y1, tex.img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    if sc < 1:
        pre = max(1, int(round(6 * cells * sc * 3)))
        mark = np.asarray(cv2.resize(mark, (pre, pre), interpolation=cv2.INTER_AREA), np.float32)
        a[:, :2] *= (6 * cells) / pre
        a[:, 2] = ctr - a[:, :2] @ np.array([pre / 2 - 0.5, pre / 2 - 0.5])
    a[:, 2] -= [x0, y0]
    wm = cv2.warpAffine(mark, a, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                        borderValue=1.0)
    ink = np.array(_jit(rng, (34, 33, 36), 5), np.float32)
    roi = tex.img[y0:y1, x0:x1].astype(np.float32)
    wm = wm[..., None]
    tex.img[y0:y1, x0:x1] = np.clip(roi * wm + ink * (1 - wm), 0, 255).astype(np.uint8)


def _paint_table(rng: np.random.Generator, tex: _Tex, board_rect: tuple[float, float, float, float]) -> None:
    h, w = tex.img.shape[:2]
    if rng.random() < 0.6:  # wooden table
        base = np.array(_jit(rng, [(130, 90, 58), (170, 128, 86), (90, 62, 42), (190, 160, 120)][
            int(rng.integers(4))], 10), np.float32)
        plank = rng.uniform(70, 160) * tex.ppm
        ang = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * math.cos(ang) + yy * math.sin(ang)
        v = -xx * math.sin(ang) + yy * math.cos(ang)
        idx = np.floor(v / plank)
        n = _noise(rng, h, w, max(6.0, 30 * tex.ppm), 3)
        grain = np.sin(v * 0.9 / tex.ppm + 3 * n + np.sin(u / (40 * tex.ppm)) * 2)
        tone = 1 + 0.08 * np.sin(idx * 12.9898) + 0.06 * grain
        img = base[None, None, :] * tone[..., None]
        seam = (np.abs(v / plank - np.round(v / plank)) * plank < 0.6 * tex.ppm)
        img[seam] *= 0.55
    else:  # cloth
        base = np.array(_jit(rng, [(40, 90, 60), (120, 120, 124), (40, 46, 80), (200, 190, 170), (120, 40, 40)][
            int(rng.integers(5))], 12), np.float32)
        img = base[None, None, :] * (1 + 0.06 * _noise(rng, h, w, max(6.0, 60 * tex.ppm), 3))[..., None]
        img = img * (1 + 0.04 * rng.standard_normal((h, w), dtype=np.float32))[..., None]
    # shadow of the board's edge on the table
    mask = np.zeros((h, w), np.uint8)
    bx0, by0, bx1, by1 = board_rect
    rect = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]]) + rng.normal(0, 0.6, 2)
    cv2.fillPoly(mask, [tex.px(rect)], 255, cv2.LINE_AA, 3)
    mk = _blur(mask.astype(np.float32) / 255, max(0.8, 2.5 * tex.ppm))
    img *= (1 - 0.45 * mk)[..., None]
    tex.img[:] = np.clip(img, 0, 255).astype(np.uint8)


# ----------------------------------------------------------------------------------------------- scene sampling


def _sample_counts(rng: np.random.Generator) -> dict[str, int]:
    u = rng.random()
    if u < 0.12:
        return dict.fromkeys(KINDS, 0)
    if u < 0.22:
        c = {"iron": 7, "stone": 4, "coal": 1, "event": 0}
        for _ in range(int(rng.integers(0, 3))):
            k = str(rng.choice(["iron", "stone"]))
            c[k] -= 1
        return c
    if u < 0.28:
        k = str(rng.choice(KINDS, p=[0.45, 0.3, 0.15, 0.1]))
        return {kk: (int(rng.integers(1, LIMITS[k] + 1)) if kk == k else 0) for kk in KINDS}
    ns = np.arange(1, 21)
    p = np.exp(-((ns - 8.0) ** 2) / (2 * 5.5**2))
    n = int(rng.choice(ns, p=p / p.sum()))
    probs = rng.dirichlet(np.array([0.44, 0.28, 0.16, 0.12]) * 12)
    vals = rng.multinomial(n, probs)
    c = {k: int(v) for k, v in zip(KINDS, vals, strict=True)}
    for k in ("event", "coal"):
        extra = max(0, c[k] - LIMITS[k])
        c[k] -= extra
        c["iron"] += extra
    return c


_CUBE_SRGB = {"iron": (232, 116, 30), "stone": (140, 140, 136), "coal": (34, 33, 32), "event": (238, 236, 228)}


def _make_cube(rng: np.random.Generator, kind: str, x: float, y: float, yaw: float, s: float) -> _Cube:
    base = np.asarray(_CUBE_SRGB[kind], np.float64)
    if kind == "iron":
        base = base + [rng.normal(0, 8), rng.normal(0, 12), rng.normal(0, 8)]
    elif kind == "stone":
        g = rng.normal(0, 14)
        base = base + g + rng.normal(0, 3, 3)
    elif kind == "coal":
        base = base + rng.normal(0, 5) + rng.normal(0, 1.5, 3)
    else:
        base = base + rng.normal(0, 4, 3) - [0, 0, abs(rng.normal(0, 6))]
    alb = _lin(np.clip(base, 5, 250))
    amp = {"iron": 0.07, "stone": 0.06, "coal": 0.12, "event": 0.04}[kind] * rng.uniform(0.5, 1.5)
    ang, dist = rng.uniform(0, 2 * math.pi), rng.uniform(6, 30)
    return _Cube(kind=kind, x=x, y=y, yaw=yaw, s=s * rng.uniform(0.98, 1.02), albedo=alb,
                 grain_axis=int(rng.integers(3)), pith=(dist * math.cos(ang), dist * math.sin(ang)),
                 ring=rng.uniform(0.7, 2.0), grain_amp=amp,
                 warp=(rng.uniform(0.1, 0.6), rng.uniform(0, 6.3), rng.uniform(0.2, 0.9), rng.uniform(0, 6.3)),
                 ks=(0.06 if kind == "coal" else 0.03) * rng.uniform(0.4, 1.6), kpow=rng.uniform(10, 40),
                 wear=float(rng.uniform(0, 1) if rng.random() < 0.3 else 0.0))


def _place_cubes(rng: np.random.Generator, counts: dict[str, int], s: float, quad: np.ndarray,
                 markers: list[_Marker], cam: _Cam) -> list[_Cube]:
    kinds = [k for k in KINDS for _ in range(counts[k])]
    if rng.random() < 0.5:
        rng.shuffle(kinds)
    img_quad = cam.project(np.concatenate([quad, np.zeros((4, 1))], axis=1))
    papers = [m.paper_poly(0.25 * s) for m in markers]
    placed: list[_Cube] = []
    i = 0
    while i < len(kinds):
        left = len(kinds) - i
        u = rng.random()
        if left >= 4 and u < 0.15:
            offs = [(0, 0), (1, 0), (0, 1), (1, 1)]
        elif left >= 2 and u < 0.45:
            offs = [(j, 0) for j in range(int(rng.integers(2, min(4, left) + 1)))]
        else:
            offs = [(0, 0)]
        ok = False
        for _ in range(60 if len(offs) > 1 else 120):
            uu, vv = rng.random(2)
            anchor = (quad[0] * (1 - uu) * (1 - vv) + quad[1] * uu * (1 - vv) + quad[2] * uu * vv
                      + quad[3] * (1 - uu) * vv)
            yaw = rng.uniform(0, math.pi / 2)
            pitch = s * rng.uniform(1.01, 1.06)
            a = np.array([math.cos(yaw), math.sin(yaw)])
            b = np.array([-a[1], a[0]])
            group: list[_Cube] = []
            for ox, oy in offs:
                p = anchor + a * ox * pitch + b * oy * pitch
                group.append(_make_cube(rng, kinds[i + len(group)], float(p[0]), float(p[1]),
                                        yaw + (rng.normal(0, 0.02) if len(offs) > 1 else 0.0), s))
            if all(_cube_ok(c, quad, papers, placed + group[:j], img_quad, cam) for j, c in enumerate(group)):
                placed.extend(group)
                ok = True
                break
        if not ok and len(offs) > 1:
            continue  # retry these cubes as another (likely smaller) group
        i += len(offs)  # a single that found no room is dropped; counts are taken from what was placed
    return placed


def _cube_ok(c: _Cube, quad: np.ndarray, papers: list[np.ndarray], others: list[_Cube], img_quad: np.ndarray,
             cam: _Cam) -> bool:
    fp = c.footprint()
    if not _inside_convex(quad, fp, 0.2 * c.s):
        return False
    if any(_sat_overlap(fp, p) for p in papers):
        return False
    if any(_sat_overlap(fp, o.footprint(), 0.05) for o in others):
        return False
    uv = cam.project(c.verts())
    if not _inside_convex(img_quad, uv, 3.0):
        return False
    return bool((uv[:, 0] > 4).all() and (uv[:, 0] < W_IMG - 4).all() and (uv[:, 1] > 4).all()
                and (uv[:, 1] < H_IMG - 4).all())


def _sample_camera(rng: np.random.Generator, quad: np.ndarray, papers: np.ndarray, marks: np.ndarray,
                   easy: bool) -> _Cam:
    hfov = math.radians(rng.uniform(55, 78))
    f = 640 / math.tan(hfov / 2)
    cx, cy = 640 + rng.normal(0, 6), 360 + rng.normal(0, 6)
    k1 = rng.uniform(-0.08, 0.02)
    k2 = rng.uniform(-0.01, 0.01)
    centre = quad.mean(0)
    ext = np.ptp(quad, axis=0)
    q3 = np.concatenate([quad, np.zeros((4, 1))], axis=1)
    p3 = np.concatenate([papers, np.zeros((len(papers), 1))], axis=1)
    for attempt in range(200):
        tilt = math.radians(rng.uniform(0, 20 if easy else 35))
        az, roll = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
        lo, hi = 0.25, (0.5 if easy else 0.70)
        if attempt > 100:
            hi = 0.45
        frac = rng.uniform(lo, hi)
        target = np.array([*(centre + rng.uniform(-0.12, 0.12, 2) * ext), 0.0])
        dist = f * float(ext.max()) / (frac * W_IMG)
        cam = None
        for _ in range(4):
            R, C = _look_at(target, tilt, az, roll, dist)
            cam = _Cam(f, cx, cy, R, C, k1, k2)
            uv = cam.project(q3)
            wfrac = np.ptp(uv[:, 0]) / W_IMG
            dist *= wfrac / frac
        R, C = _look_at(target, tilt, az, roll, dist)
        cam = _Cam(f, cx, cy, R, C, k1, k2)
        uv = cam.project(p3)
        m = 40
        mk = cam.project(marks).reshape(-1, 4, 2)
        side = float(np.linalg.norm(mk - np.roll(mk, 1, axis=1), axis=2).min())
        if (uv[:, 0] > m).all() and (uv[:, 0] < W_IMG - m).all() and (uv[:, 1] > m).all() and (
                uv[:, 1] < H_IMG - m).all() and side >= (44 if easy else 38):
            return cam
    R, C = _look_at(np.array([*centre, 0.0]), 0.0, 0.0, 0.0, f * float(np.linalg.norm(ext)) / (0.6 * H_IMG))
    return _Cam(f, cx, cy, R, C, k1, k2)


def _nudge(rng: np.random.Generator, cam: _Cam, papers: np.ndarray) -> _Cam:
    p3 = np.concatenate([papers, np.zeros((len(papers), 1))], axis=1)
    for k in range(30):
        sc = 1.0 if k < 15 else 0.3
        rot = _rodrigues(rng.normal(size=3), math.radians(rng.uniform(0.2, 1.5) * sc))
        d = rng.normal(size=3)
        d = d / np.linalg.norm(d) * rng.uniform(0.5, 5.0) * sc
        new = _Cam(cam.f, cam.cx, cam.cy, rot @ cam.R, cam.C + d, cam.k1, cam.k2)
        uv = new.project(p3)
        if (uv[:, 0] > 20).all() and (uv[:, 0] < W_IMG - 20).all() and (uv[:, 1] > 20).all() and (
                uv[:, 1] < H_IMG - 20).all():
            return new
    return cam


def _sample_lighting(rng: np.random.Generator, centre: np.ndarray, width: float) -> _Lighting:
    t_amb = rng.uniform(2700, 6500)
    amb = _Lighting(amb_colour=_kelvin(t_amb), amb_power=1.0, amb_bias=rng.normal(0, 0.15, 2), lights=[],
                    gloss=rng.uniform(0.0, 0.05), gloss_pow=rng.uniform(15, 120))
    scen = rng.choice(["overhead", "desk", "window", "diffuse", "two"], p=[0.3, 0.25, 0.2, 0.1, 0.15])
    if scen in ("overhead", "two"):
        amb.lights.append(_point_light(rng, centre, rng.uniform(500, 1200), rng.uniform(0, 450),
                                       rng.uniform(2700, 4200), rng.uniform(1.0, 4.0), rng.uniform(15, 150)))
    if scen in ("desk", "two"):
        amb.lights.append(_point_light(rng, centre, rng.uniform(250, 500), rng.uniform(150, 500),
                                       rng.uniform(2700, 5000), rng.uniform(1.5, 5.0), rng.uniform(8, 40)))
    if scen == "window":
        amb.lights.append(_dir_light(rng, rng.uniform(5000, 6500), rng.uniform(0.5, 3.0)))
        amb.amb_colour = _kelvin(rng.uniform(5000, 7500))
    return amb


def _point_light(rng: np.random.Generator, centre: np.ndarray, height: float, off: float, temp: float, ratio: float,
                 radius: float) -> _Light:
    a = rng.uniform(0, 2 * math.pi)
    pos = np.array([centre[0] + off * math.cos(a), centre[1] + off * math.sin(a), -height])
    return _Light("point", pos, _kelvin(temp), ratio, float(np.linalg.norm(pos - [*centre, 0])), radius)


def _dir_light(rng: np.random.Generator, temp: float, ratio: float) -> _Light:
    el, az = math.radians(rng.uniform(20, 60)), rng.uniform(0, 2 * math.pi)
    v = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
    return _Light("dir", v, _kelvin(temp), ratio / math.sin(el), 1.0, math.radians(rng.uniform(0.5, 3)))


def _change_lighting(rng: np.random.Generator, lt: _Lighting, centre: np.ndarray, width: float) -> _Lighting:
    new = _Lighting(amb_colour=lt.amb_colour.copy(), amb_power=lt.amb_power * rng.uniform(0.9, 1.1),
                    amb_bias=lt.amb_bias.copy(),
                    lights=[_Light(li.kind, li.vec.copy(), li.colour.copy(), li.power * rng.uniform(0.9, 1.1),
                                   li.ref_d, li.radius, li.spot, li.occ) for li in lt.lights],
                    amb_occ=list(lt.amb_occ), gloss=lt.gloss, gloss_pow=lt.gloss_pow)
    events = ["lamp_on", "lamp_off", "dimming", "temp_shift", "pool_light", "pool_shadow", "brighter"]
    chosen = rng.choice(events, size=int(rng.integers(1, 4)), replace=False,
                        p=[0.18, 0.14, 0.18, 0.16, 0.12, 0.14, 0.08])
    for ev in chosen:
        if ev == "lamp_off" and new.lights:
            new.lights.pop(int(rng.integers(len(new.lights))))
            new.amb_power *= rng.uniform(0.8, 1.0)
        elif ev in ("lamp_on", "lamp_off"):
            new.lights.append(_point_light(rng, centre, rng.uniform(250, 900), rng.uniform(100, 500),
                                           rng.uniform(2700, 4500), rng.uniform(1.5, 5.0), rng.uniform(10, 100)))
        elif ev == "dimming":
            new.amb_power *= rng.uniform(0.3, 0.7)
            for li in new.lights:
                li.power *= rng.uniform(0.4, 0.9)
            t = _temp_of(new.amb_colour) - rng.uniform(500, 1500)
            new.amb_colour = _kelvin(max(2200.0, t))
        elif ev == "temp_shift":
            t = _temp_of(new.amb_colour)
            t2 = t + rng.choice([-1, 1]) * rng.uniform(1000, 2500)
            if not 2500 < t2 < 7500:
                t2 = t - (t2 - t)
            new.amb_colour = _kelvin(float(np.clip(t2, 2500, 7500)))
            for li in new.lights:
                li.colour = _kelvin(rng.uniform(2700, 6500))
        elif ev == "pool_light":
            tgt = np.array([*(centre + rng.normal(0, 0.25 * width, 2)), 0.0])
            li = _point_light(rng, tgt[:2], rng.uniform(300, 800), rng.uniform(0, 250), rng.uniform(2700, 5000),
                              rng.uniform(1.5, 4.0), rng.uniform(10, 40))
            axis = tgt - li.vec
            axis /= np.linalg.norm(axis)
            half = math.atan(rng.uniform(0.3, 0.9) * width / float(np.linalg.norm(tgt - li.vec)))
            li.spot = (axis, math.cos(half * 1.5), math.cos(half * 0.6))
            new.lights.append(li)
        elif ev == "pool_shadow":
            c = centre + rng.normal(0, 0.3 * width, 2)
            r0 = rng.uniform(0.3, 1.0) * width
            depth = rng.uniform(0.4, 0.85)
            for li in new.lights:
                li.occ = (float(c[0]), float(c[1]), r0, depth)
            new.amb_occ.append((float(c[0]), float(c[1]), r0 * 1.3, depth * rng.uniform(0.3, 0.6)))
        elif ev == "brighter":
            new.amb_power *= rng.uniform(1.4, 2.5)
            for li in new.lights:
                li.power *= rng.uniform(1.2, 2.0)
    return new


def _temp_of(rgb: np.ndarray) -> float:
    """Inverse of _kelvin by search (colour -> temperature)."""
    ts = np.linspace(2000, 9000, 141)
    errs = [float(np.abs(np.log(_kelvin(t) / rgb)).sum()) for t in ts]
    return float(ts[int(np.argmin(errs))])


def _sample_sensor(rng: np.random.Generator, easy: bool) -> _Sensor:
    return _Sensor(blur=rng.uniform(0.4, 0.7 if easy else 0.95), defocus=rng.uniform(0.0, 1.0),
                   vign=rng.uniform(0.08, 0.45), noise_k=rng.uniform(0.0004, 0.004), read=rng.uniform(0.0015, 0.007),
                   jpeg=int(rng.integers(75 if easy else 60, 96)), sat=rng.uniform(0.85, 1.25),
                   contrast=rng.uniform(-0.05, 0.15), sharpen=rng.uniform(0, 0.8) if rng.random() < 0.6 else 0.0,
                   awb=rng.uniform(0.2, 0.85), ae=rng.uniform(0.2, 0.5) if rng.random() < 0.25 else
                   rng.uniform(0.6, 1.0), wb_bias=np.exp(rng.normal(0, 0.05, 3)), ca=rng.uniform(0, 0.0008),
                   target=rng.uniform(0.15, 0.24))


def _make_scene(rng: np.random.Generator, counts: dict[str, int], easy: bool) -> _Scene:
    s = rng.uniform(8.0, 10.0)
    n = sum(counts.values())
    for _ in range(100):
        k = rng.uniform(12, 25)
        aspect = rng.uniform(0.5, 0.95)
        if k * k * aspect >= 6 * n + 40:
            break
    wq, hq = k * s, k * s * aspect
    msize = float(np.clip(wq * rng.uniform(0.12, 0.18), 15, 40))
    if easy:
        msize = float(np.clip(msize * 1.2, 14, 45))
    markers = []
    for mid, (cx, cy) in enumerate([(0, 0), (wq, 0), (wq, hq), (0, hq)]):
        centre = np.array([cx, cy]) + rng.normal(0, 1.0, 2)
        markers.append(_Marker(mid, centre, msize, msize * (1 + 2 * rng.uniform(0.2, 0.45)),
                               math.radians(rng.normal(0, 2.5))))
    quad = np.array([m.centre for m in markers])
    papers = np.concatenate([m.paper_poly() for m in markers])
    marks = np.concatenate([np.c_[m.corners(), np.zeros(4)] for m in markers])
    cam_c = _sample_camera(rng, quad, papers, marks, easy)
    cam_p = _nudge(rng, cam_c, papers)
    cubes = _place_cubes(rng, counts, s, quad, markers, cam_p)
    # board extent and textures
    mg = [rng.uniform(msize + 15, 350) for _ in range(4)]
    board_rect = (-mg[0], -mg[1], wq + mg[2], hq + mg[3])
    vis = np.concatenate([_visible_ground(c) for c in (cam_c, cam_p)])
    vx0, vy0 = np.maximum(vis.min(0), quad.mean(0) - 2500) - 20
    vx1, vy1 = np.minimum(vis.max(0), quad.mean(0) + 2500) + 20
    bx0, by0 = max(vx0, board_rect[0]), max(vy0, board_rect[1])
    bx1, by1 = min(vx1, board_rect[2]), min(vy1, board_rect[3])
    depth = float(min(np.min(cam_c.to_cam(np.array([[*p, 0.0] for p in vis]))[:, 2]),
                      np.min(cam_c.to_cam(np.concatenate([quad, np.zeros((4, 1))], 1))[:, 2])))
    ppm = float(np.clip(cam_c.f * SS / depth * 0.9, 3.0, 14.0))
    while (bx1 - bx0) * (by1 - by0) * ppm * ppm > 6.0e6:
        ppm *= 0.92
    board = _Tex(np.zeros((max(2, int((by1 - by0) * ppm)), max(2, int((bx1 - bx0) * ppm)), 3), np.uint8), bx0, by0,
                 ppm)
    inset = rng.uniform(0.0, 0.45) * msize
    panel = (inset, inset, wq - inset, hq - inset)
    _paint_board(rng, board, board_rect, panel, markers, s)
    tppm = 1.2
    while (vx1 - vx0) * (vy1 - vy0) * tppm * tppm > 3.0e6:
        tppm *= 0.9
    table = _Tex(np.zeros((max(2, int((vy1 - vy0) * tppm)), max(2, int((vx1 - vx0) * tppm)), 3), np.uint8), vx0, vy0,
                 tppm)
    _paint_table(rng, table, board_rect)
    centre = quad.mean(0)
    lc = _sample_lighting(rng, centre, wq)
    lp = _change_lighting(rng, lc, centre, wq)
    sensor = _sample_sensor(rng, easy)
    bm = _LUT[board.img[::4, ::4].reshape(-1, 3)].mean(0)
    return _Scene(board, table, board_rect, markers, cubes, (cam_c, cam_p), (lc, lp), sensor, bm, s)


def _visible_ground(cam: _Cam) -> np.ndarray:
    uv = np.array([[0, 0], [RW, 0], [RW, RH], [0, RH], [RW / 2, 0], [RW / 2, RH], [0, RH / 2], [RW, RH / 2]],
                  np.float64)
    return cam.ground_of_ss(uv)


# ----------------------------------------------------------------------------------------------- rendering


HW, HH = RW // SS, RH // SS  # ground shading resolution (= padded output resolution)


def _grid_world(cam: _Cam) -> tuple[np.ndarray, tuple[int, int]]:
    """World points on the board under a coarse grid of shading pixels (every GRID/SS half-res pixels)."""
    step = GRID // SS
    gw, gh = HW // step, HH // step
    xs = (np.arange(gw) * step + (step - 1) / 2 + 0.5) * SS - 0.5
    ys = (np.arange(gh) * step + (step - 1) / 2 + 0.5) * SS - 0.5
    uu, vv = np.meshgrid(xs, ys)
    xy = cam.ground_of_ss(np.stack([uu.ravel(), vv.ravel()], 1))
    return np.concatenate([xy, np.zeros((len(xy), 1))], 1), (gh, gw)


def _up(field_lr: np.ndarray, shape: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    return np.asarray(cv2.resize(field_lr.reshape(*shape, -1).astype(np.float32), size,
                                 interpolation=cv2.INTER_LINEAR))


def _poly_mask(mask: np.ndarray, pts_ss: np.ndarray, scale: float = 1.0) -> None:
    """Fill a polygon given in supersampled coordinates into a mask of SS/`scale` resolution."""
    if len(pts_ss) < 3:
        return
    q = np.clip((pts_ss + 0.5) / scale - 0.5, -2e5, 2e5)
    cv2.fillPoly(mask, [np.round(q * 8).astype(np.int32)], 255, cv2.LINE_AA, 3)


def _render(sc: _Scene, which: int, hand: _HandSpec | None) -> tuple[np.ndarray, np.ndarray]:
    """Linear radiance at supersampled resolution (RH, RW, 3) and the cube id buffer."""
    cam, lt = sc.cams[which], sc.lights[which]
    cubes = sc.cubes if which == 1 else []
    hg = cam.h_ground_ss()
    alb8 = cv2.warpPerspective(sc.table.img, hg @ sc.table.tex_to_world(), (RW, RH), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    cv2.warpPerspective(sc.board.img, hg @ sc.board.tex_to_world(), (RW, RH), dst=alb8, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    grid, gshape = _grid_world(cam)
    view = cam.C[None, :] - grid
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    ppm_h = cam.f / max(1.0, float(np.mean(cam.to_cam(grid)[:, 2])))  # board px/mm at shading resolution
    hsize = (HW, HH)
    # ambient with contact shadows: a tight dark crevice and a wider soft occlusion
    ao_t = np.zeros((HH, HW), np.uint8)
    ao_w = np.zeros((HH, HW), np.uint8)
    for c in cubes:
        _poly_mask(ao_t, cam.project_ss(np.concatenate([c.footprint(0.06 * c.s), np.zeros((4, 1))], 1)), SS)
        _poly_mask(ao_w, cam.project_ss(np.concatenate([c.footprint(0.3 * c.s), np.zeros((4, 1))], 1)), SS)
    aof = _blur(ao_t, max(0.6, 0.07 * sc.s * ppm_h)).astype(np.float32) * (0.55 / 255)
    aof += _blur(ao_w, max(1.0, 0.3 * sc.s * ppm_h)).astype(np.float32) * (0.35 / 255)
    hand_sh: list[np.ndarray] = []
    if hand is not None:
        hao = np.zeros((HH, HW), np.uint8)
        for poly in hand.skin + hand.sleeve:
            g3 = poly.copy()
            g3[:, 2] = 0
            _poly_mask(hao, cam.project_poly_ss(g3), SS)
        aof += _blur(hao, max(2.0, 0.7 * hand.height * ppm_h)).astype(np.float32) * (0.3 / 255)
    e_tot = _up(lt.ambient_at(grid[:, :2]), gshape, hsize)
    e_tot *= (1 - np.clip(aof, 0, 0.85))[..., None]
    spec = np.zeros_like(e_tot) if lt.gloss > 0.004 else None
    for li in lt.lights:
        sh = np.zeros((HH, HW), np.uint8)
        for c in cubes:
            g = li.ground_shadow(c.verts())
            hull = cv2.convexHull(g.astype(np.float32)).reshape(-1, 2).astype(np.float64)
            _poly_mask(sh, cam.project_poly_ss(np.concatenate([hull, np.zeros((len(hull), 1))], 1)), SS)
        sig = max(0.4, li.penumbra(sc.s * 0.6) * ppm_h * 0.5)
        shf = _blur(sh, sig).astype(np.float32) / 255
        if hand is not None:
            hs = np.zeros((HH, HW), np.uint8)
            for poly in hand.skin + hand.sleeve:
                g = li.ground_shadow(poly)
                _poly_mask(hs, cam.project_poly_ss(np.concatenate([g, np.zeros((len(g), 1))], 1)), SS)
            hsf = _blur(hs, max(1.0, li.penumbra(hand.height) * ppm_h * 0.5)).astype(
                np.float32) / 255
            hand_sh.append(hsf)
            shf = np.maximum(shf, hsf)
        ln, inten = li.towards(grid)
        e_lr = (inten * np.clip(ln @ _UP, 0, None))[:, None] * li.colour[None, :]
        lit = (1 - shf)[..., None]
        e_tot += _up(e_lr, gshape, hsize) * lit
        if spec is not None:
            hvec = ln + view
            hvec /= np.linalg.norm(hvec, axis=1, keepdims=True)
            s_lr = (lt.gloss * inten * np.clip(hvec @ _UP, 0, None) ** lt.gloss_pow)[:, None] * li.colour[None, :]
            spec += _up(s_lr, gshape, hsize) * lit
    rad = _LUT[alb8]
    del alb8
    rad *= cv2.resize(e_tot, (RW, RH), interpolation=cv2.INTER_LINEAR)
    if spec is not None:
        rad += cv2.resize(spec, (RW, RH), interpolation=cv2.INTER_LINEAR)
    del e_tot, spec
    ids = np.zeros((RH, RW), np.int16)
    if cubes:
        order = sorted(range(len(cubes)), key=lambda j: -float(np.linalg.norm(
            cam.C - np.array([cubes[j].x, cubes[j].y, -cubes[j].s / 2]))))
        for j in order:
            c = cubes[j]
            if hand is not None:
                p = (cam.project_ss(np.array([[c.x, c.y, 0.0]]))[0] + 0.5) / SS - 0.5
                xi, yi = int(np.clip(p[0], 0, HW - 1)), int(np.clip(p[1], 0, HH - 1))
                hand_factor = [1 - float(h[yi, xi]) for h in hand_sh]
            else:
                hand_factor = [1.0] * len(lt.lights)
            _draw_cube(rad, ids, j + 1, c, cam, lt, hand_factor, sc.board_mean)
    return rad, ids


_T = 48


def _face_radiance(c: _Cube, n: np.ndarray, corners: np.ndarray, is_top: bool, cam: _Cam, lt: _Lighting,
                   hf: list[float], board_mean: np.ndarray) -> np.ndarray:
    uu, vv = np.meshgrid(np.linspace(0, 1, _T), np.linspace(0, 1, _T))
    p00, p10, _, p01 = corners
    pts = p00[None, None, :] + uu[..., None] * (p10 - p00) + vv[..., None] * (p01 - p00)
    p = pts.reshape(-1, 3)
    a, b = c.axes()
    q = p - np.array([c.x, c.y, -c.s / 2])
    loc = np.stack([q @ a, q @ b, q @ _UP], 1)
    ax = c.grain_axis
    o1, o2 = [i for i in range(3) if i != ax]
    r = np.hypot(loc[:, o1] - c.pith[0], loc[:, o2] - c.pith[1])
    w1, ph1, w2, ph2 = c.warp
    warp = 0.8 * np.sin(loc[:, ax] * w1 + ph1) + 0.4 * np.sin(loc[:, o1] * w2 + loc[:, ax] * 0.3 + ph2)
    grain = (0.5 + 0.5 * np.sin(2 * math.pi * r / c.ring + warp)) ** 3
    alb = c.albedo[None, :] * (1 - c.grain_amp * grain)[:, None]
    fine = np.sin(p[:, 0] * 7.1 + p[:, 1] * 5.3 + p[:, 2] * 3.7) * np.sin(p[:, 0] * 3.3 - p[:, 1] * 8.9)
    alb *= (1 + 0.02 * fine)[:, None]
    end_grain = abs(float([n @ a, n @ b, n @ _UP][ax])) > 0.9
    if end_grain:
        alb *= 0.94
    if c.wear > 0:
        edge = np.minimum(np.minimum(uu, 1 - uu), np.minimum(vv, 1 - vv)).ravel() * c.s
        spots = np.sin(p[:, 0] * 2.3 + c.wear * 10) * np.sin(p[:, 1] * 2.9 - p[:, 2] * 1.7 + c.wear * 5)
        wmask = ((edge < 0.6) & (spots > 0.2)).astype(np.float64) * c.wear
        alb = alb * (1 - wmask[:, None]) + _lin((214, 178, 128))[None, :] * wmask[:, None]
    amb = lt.ambient_at(p[:, :2])
    if is_top:
        irr = amb * 1.0
    else:
        side = 0.5 + float(lt.amb_bias @ n[:2])
        aov = 1 - 0.45 * vv.ravel() ** 2
        irr = amb * (side * aov)[:, None]
        irr += amb * (0.25 * vv.ravel())[:, None] * board_mean[None, :]
    view = cam.C[None, :] - p
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    spec = np.zeros_like(irr)
    for li, f in zip(lt.lights, hf, strict=True):
        ln, inten = li.towards(p)
        cos = np.clip(ln @ n, 0, None)
        irr += (f * inten * cos)[:, None] * li.colour[None, :]
        h = ln + view
        h /= np.linalg.norm(h, axis=1, keepdims=True)
        spec += (f * c.ks * inten * np.clip(h @ n, 0, None) ** c.kpow * (cos > 0))[:, None] * li.colour[None, :]
    return (alb * irr + spec).reshape(_T, _T, 3).astype(np.float32)


def _draw_cube(rad: np.ndarray, ids: np.ndarray, cid: int, c: _Cube, cam: _Cam, lt: _Lighting, hf: list[float],
               board_mean: np.ndarray) -> None:
    verts_ss = cam.project_ss(c.verts())
    x0, y0 = np.floor(verts_ss.min(0)).astype(int) - 3
    x1, y1 = np.ceil(verts_ss.max(0)).astype(int) + 3
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(RW, x1), min(RH, y1)
    if x1 <= x0 or y1 <= y0:
        return
    rw, rh = x1 - x0, y1 - y0
    layer = np.zeros((rh, rw, 3), np.float32)
    alpha = np.zeros((rh, rw), np.float32)
    org = np.array([x0, y0], np.float64)
    centre = np.array([c.x, c.y, -c.s / 2])
    vis_faces = []
    for fi, (n, corners) in enumerate(c.faces()):
        fc = corners.mean(0)
        if float(n @ (cam.C - fc)) <= 0:
            continue
        vis_faces.append((fi, n, corners))
    for fi, n, corners in vis_faces:
        tex = _face_radiance(c, n, corners, fi == 0, cam, lt, hf, board_mean)
        dst = (cam.project_ss(corners) - org).astype(np.float32)
        src = np.array([[0, 0], [_T - 1, 0], [_T - 1, _T - 1], [0, _T - 1]], np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(tex, m, (rw, rh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        fm = np.zeros((rh, rw), np.uint8)
        cv2.fillConvexPoly(fm, np.round(dst * 8).astype(np.int32), 255, cv2.LINE_AA, 3)
        a = fm.astype(np.float32) / 255
        layer = layer * (1 - a[..., None]) + warped * a[..., None]
        alpha = np.maximum(alpha, a)
    # rounded edges: thin bevels lit with the half-way normal
    bevel_px = max(1, int(round(0.045 * c.s * cam.f * SS / max(1.0, float(cam.to_cam(centre[None])[0, 2])))))
    for _fi, n, corners in vis_faces:
        fc = corners.mean(0)
        for k in range(4):
            pa, pb = corners[k], corners[(k + 1) % 4]
            mid = (pa + pb) / 2
            out = mid - fc
            out /= np.linalg.norm(out)
            if out[2] > 0.5:  # bottom edge of a side face touches the board
                continue
            nb = n + out
            nb /= np.linalg.norm(nb)
            col = _point_radiance(c, mid, nb, cam, lt, hf)
            lm = np.zeros((rh, rw), np.uint8)
            pp = np.round((cam.project_ss(np.stack([pa, pb])) - org) * 8).astype(np.int32)
            cv2.line(lm, (int(pp[0, 0]), int(pp[0, 1])), (int(pp[1, 0]), int(pp[1, 1])), 255, bevel_px, cv2.LINE_AA,
                     3)
            a = (lm.astype(np.float32) / 255 * 0.7) * alpha
            layer = layer * (1 - a[..., None]) + col[None, None, :] * a[..., None]
    roi = rad[y0:y1, x0:x1]
    roi *= (1 - alpha)[..., None]
    roi += layer * alpha[..., None]
    ids[y0:y1, x0:x1][alpha > 0.5] = cid


def _point_radiance(c: _Cube, p: np.ndarray, n: np.ndarray, cam: _Cam, lt: _Lighting, hf: list[float]) -> np.ndarray:
    p2 = p[None, :]
    irr = lt.ambient_at(p2[:, :2])[0] * (0.8 + 0.2 * float(-n[2]))
    v = cam.C - p
    v /= np.linalg.norm(v)
    spec = np.zeros(3)
    for li, f in zip(lt.lights, hf, strict=True):
        ln, inten = li.towards(p2)
        cos = max(0.0, float(ln[0] @ n))
        irr = irr + f * float(inten[0]) * cos * li.colour
        h = ln[0] + v
        h /= np.linalg.norm(h)
        spec += f * 1.5 * c.ks * float(inten[0]) * max(0.0, float(h @ n)) ** c.kpow * li.colour
    return np.asarray(c.albedo * 1.05 * irr + spec, np.float32)


# ----------------------------------------------------------------------------------------------- hand


def _capsule(p0: np.ndarray, p1: np.ndarray, r: float, n: int = 7) -> np.ndarray:
    d = p1 - p0
    ang = math.atan2(d[1], d[0])
    pts = [p1 + r * np.array([math.cos(ang + t), math.sin(ang + t)]) for t in np.linspace(-math.pi / 2, math.pi / 2, n)]
    pts += [p0 + r * np.array([math.cos(ang + t), math.sin(ang + t)])
            for t in np.linspace(math.pi / 2, 3 * math.pi / 2, n)]
    return np.array(pts)


def _sample_hand(rng: np.random.Generator, sc: _Scene) -> _HandSpec:
    cam = sc.cams[1]
    quad = np.array([m.centre for m in sc.markers])
    uu, vv = rng.uniform(0.2, 0.8, 2)
    ground = quad[0] * (1 - uu) * (1 - vv) + quad[1] * uu * (1 - vv) + quad[2] * uu * vv + quad[3] * (1 - uu) * vv
    phi = rng.uniform(0, 2 * math.pi)
    scale = rng.uniform(0.85, 1.15)
    side = 1.0 if rng.random() < 0.5 else -1.0
    ex = np.array([math.cos(phi), math.sin(phi)])
    ey = np.array([-ex[1], ex[0]]) * side
    cam_h = -float(cam.C[2])
    lamp_h = [-float(li.vec[2]) for li in sc.lights[1].lights if li.kind == "point"]
    cap = min([0.45 * cam_h] + [0.7 * h for h in lamp_h])
    h0 = min(rng.uniform(25, 120), 0.25 * cam_h, 0.6 * cap)
    h0 = max(h0, sc.s + 8)
    slope = rng.uniform(0.1, 0.45)
    lens = np.array([60, 72, 80, 74]) * scale  # little, ring, middle, index
    curl = rng.uniform(0.45, 1.0, 4)
    # the middle fingertip hovers over a yard point *as seen by the camera* (parallax of the raised hand)
    ray = ground - cam.C[:2]
    h_tip = h0 + 0.05 * lens[2] * curl[2]
    tip = cam.C[:2] + ray * (cam_h - h_tip) / cam_h
    origin = tip + ex * lens[2] * curl[2]

    def to3(pts: np.ndarray) -> np.ndarray:
        xy = origin[None, :] + pts[:, :1] * ex[None, :] + pts[:, 1:2] * ey[None, :]
        h = h0 + np.maximum(pts[:, 0], 0) * slope - np.minimum(pts[:, 0], 0) * 0.05
        h = np.minimum(h, cap)
        return np.concatenate([xy, -h[:, None]], 1)

    skin: list[np.ndarray] = []
    lp = 95 * scale
    palm = np.array([[0, -42], [-4, -20], [-5, 0], [-4, 20], [0, 42], [30, 45], [60, 41], [lp, 31], [lp, -31],
                     [60, -40], [30, -44]]) * [1, scale]
    skin.append(to3(palm))
    spread = rng.uniform(0.0, 0.15)
    for i, yk in enumerate((-30.0, -10.0, 10.0, 30.0)):
        a = math.pi + (i - 1.5) * spread + rng.normal(0, 0.04)
        base = np.array([-2.0, yk * scale])
        end = base + lens[i] * curl[i] * np.array([math.cos(a), math.sin(a)])
        skin.append(to3(_capsule(base, end, (8 + 0.5 * (i > 0)) * scale)))
    ta = math.pi - rng.uniform(0.5, 1.2)
    tb = np.array([45.0, 40.0 * scale])
    thumb_end = tb + 55 * scale * rng.uniform(0.7, 1.0) * np.array([math.cos(ta), math.sin(ta)])
    skin.append(to3(_capsule(tb, thumb_end, 10.5 * scale)))
    fl = 1400.0
    arm = np.array([[lp - 8, -31], [lp + 120, -36], [lp + 300, -40], [fl, -44], [fl, 44], [lp + 300, 40],
                    [lp + 120, 36], [lp - 8, 31]]) * [1, scale]
    skin.append(to3(arm))
    sleeve: list[np.ndarray] = []
    if rng.random() < 0.6:
        xs = rng.uniform(150, 450)
        sl = np.array([[xs, -46], [fl, -52], [fl, 52], [xs, 46]]) * [1, scale]
        sleeve.append(to3(sl))
    tones = [(224, 172, 150), (241, 194, 167), (198, 134, 102), (180, 120, 90), (160, 104, 72), (110, 70, 50),
             (88, 56, 40)]
    tone = np.asarray(tones[int(rng.integers(len(tones)))], np.float64) + rng.normal(0, 6, 3)
    cloth = _jit(rng, [(40, 60, 120), (150, 30, 40), (60, 60, 64), (230, 230, 226), (30, 30, 32), (210, 110, 40),
                       (60, 110, 60), (140, 140, 140)][int(rng.integers(8))], 12)
    return _HandSpec(skin=skin, sleeve=sleeve, skin_albedo=_lin(np.clip(tone, 0, 255)), sleeve_albedo=_lin(cloth),
                     height=float(h0), centre=to3(np.array([[40.0, 0.0]]))[0],
                     motion=float(rng.uniform(2, 12) if rng.random() < 0.3 else 0.0),
                     motion_dir=float(phi), ks=float(rng.uniform(0.02, 0.06)))


def _composite_hand(rad: np.ndarray, ids: np.ndarray, hand: _HandSpec, sc: _Scene) -> np.ndarray:
    """Draw the hand over the radiance (shaded at half resolution, it is out of focus anyway); returns alpha."""
    cam, lt = sc.cams[1], sc.lights[1]
    skin = np.zeros((HH, HW), np.uint8)
    sleeve = np.zeros((HH, HW), np.uint8)
    for poly in hand.skin:
        _poly_mask(skin, cam.project_poly_ss(poly), SS)
    for poly in hand.sleeve:
        _poly_mask(sleeve, cam.project_poly_ss(poly), SS)
    mask = np.maximum(skin, sleeve).astype(np.float32) / 255
    depth = float(cam.to_cam(hand.centre[None])[0, 2])
    finger_px = 9 * cam.f / max(depth, 1.0)
    # rounded height field from the silhouette -> normals (camera frame; -z faces the camera)
    hmap = _blur(mask, max(1.0, 0.9 * finger_px))
    gx = cv2.Sobel(hmap, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(hmap, cv2.CV_32F, 0, 1, ksize=3) / 8
    k = 1.6 * finger_px
    ncam = np.stack([-k * gx, -k * gy, -np.ones_like(gx)], -1)
    ncam /= np.linalg.norm(ncam, axis=-1, keepdims=True)
    facing = -ncam[..., 2]
    amb = lt.ambient_at(hand.centre[None, :2])[0]
    irr = amb[None, None, :] * (0.35 + 0.65 * facing)[..., None]
    spec = np.zeros_like(irr)
    vcam = np.array([0.0, 0.0, -1.0])
    for li in lt.lights:
        ln, inten = li.towards(hand.centre[None])
        lc = cam.R @ ln[0]
        cos = np.clip(ncam @ lc, 0, None)
        wrap = np.clip((ncam @ lc + 0.25) / 1.25, 0, None)  # skin scatters light a little past the terminator
        irr += (float(inten[0]) * (0.7 * cos + 0.3 * wrap))[..., None] * li.colour[None, None, :]
        hv = lc + vcam
        hv /= np.linalg.norm(hv)
        spec += (hand.ks * float(inten[0]) * np.clip(ncam @ hv, 0, None) ** 14)[..., None] * li.colour[None, None, :]
    rng = np.random.default_rng(int(abs(hand.centre[0] * 1000)) % (2**31))
    mott = 1 + 0.07 * cv2.resize(_noise(rng, HH // 4, HW // 4, 5, 2), (HW, HH), interpolation=cv2.INTER_LINEAR)
    sa = (sleeve.astype(np.float32) / 255)[..., None]
    redden = np.clip(1 - facing, 0, 1)[..., None] * np.array([0.08, -0.05, -0.06], np.float32)
    skin_alb = hand.skin_albedo[None, None, :] * (mott[..., None] + redden)
    cloth_alb = hand.sleeve_albedo[None, None, :] * (1 + 0.05 * rng.standard_normal((HH, HW, 1))).astype(np.float32)
    alb = skin_alb * (1 - sa) + cloth_alb * sa
    col = (alb * irr + spec * (1 - sa)).astype(np.float32)
    prem = col * mask[..., None]
    sig = 0.4 + 2.0 * hand.height / max(depth, 1.0)
    prem = _blur(prem, sig)
    a = _blur(mask, sig)
    if hand.motion > 0:
        ln_px = int(hand.motion) | 1
        ker = np.zeros((ln_px, ln_px), np.float32)
        dvec = cam.R[:2, :2] @ np.array([math.cos(hand.motion_dir), math.sin(hand.motion_dir)])
        ang = math.atan2(dvec[1], dvec[0])
        cc = ln_px // 2
        cv2.line(ker, (int(cc - cc * math.cos(ang)), int(cc - cc * math.sin(ang))),
                 (int(cc + cc * math.cos(ang)), int(cc + cc * math.sin(ang))), 1.0, 1)
        ker /= max(float(ker.sum()), 1.0)
        prem = cv2.filter2D(prem, -1, ker)
        a = cv2.filter2D(a, -1, ker)
    prem = cv2.resize(prem, (RW, RH), interpolation=cv2.INTER_LINEAR)
    a = cv2.resize(a, (RW, RH), interpolation=cv2.INTER_LINEAR)
    rad *= (1 - a)[..., None]
    rad += prem
    ids[a > 0.5] = 0
    return np.asarray(a)


# ----------------------------------------------------------------------------------------------- sensor


_MAP_CACHE: dict[tuple[float, ...], list[tuple[np.ndarray, np.ndarray]]] = {}


def _distortion_maps(cam: _Cam, ca: float) -> list[tuple[np.ndarray, np.ndarray]]:
    key = (cam.f, cam.cx, cam.cy, cam.k1, cam.k2, ca)
    if key in _MAP_CACHE:
        return _MAP_CACHE[key]
    if len(_MAP_CACHE) > 4:
        _MAP_CACHE.clear()
    uu, vv = np.meshgrid(np.arange(W_IMG, dtype=np.float64), np.arange(H_IMG, dtype=np.float64))
    xd, yd = (uu - cam.cx) / cam.f, (vv - cam.cy) / cam.f
    xu, yu = xd.copy(), yd.copy()
    for _ in range(4):
        r2 = xu * xu + yu * yu
        fac = 1 + cam.k1 * r2 + cam.k2 * r2 * r2
        xu, yu = xd / fac, yd / fac
    maps = []
    for sc in (1 + ca, 1.0, 1 - ca):  # R, G, B
        mx = (xu * sc * cam.f + cam.cx + PAD).astype(np.float32)
        my = (yu * sc * cam.f + cam.cy + PAD).astype(np.float32)
        maps.append((mx, my))
    _MAP_CACHE[key] = maps
    return maps


def _depth_map(cam: _Cam) -> np.ndarray:
    gw, gh = W_IMG // 16, H_IMG // 16
    uu, vv = np.meshgrid(np.arange(gw) * 16 + 7.5, np.arange(gh) * 16 + 7.5)
    r = np.stack([(uu - cam.cx) / cam.f, (vv - cam.cy) / cam.f, np.ones_like(uu)], -1)
    d = r @ cam.R  # world direction (R^T r)
    t = -cam.C[2] / np.where(np.abs(d[..., 2]) < 1e-6, 1e-6, d[..., 2])
    return np.asarray(cv2.resize(np.abs(t).astype(np.float32), (W_IMG, H_IMG), interpolation=cv2.INTER_LINEAR))


def _develop(rad: np.ndarray, cam: _Cam, sen: _Sensor, exposure: float, gains: np.ndarray,
             rng: np.random.Generator) -> np.ndarray:
    small = cv2.resize(rad, (W_IMG + 2 * PAD, H_IMG + 2 * PAD), interpolation=cv2.INTER_AREA)
    maps = _distortion_maps(cam, sen.ca)
    img = np.stack([cv2.remap(np.ascontiguousarray(small[..., ch]), mx, my, cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT) for ch, (mx, my) in enumerate(maps)], -1)
    depth = _depth_map(cam)
    dfoc = float(np.median(depth))
    wdef = np.clip(np.abs(depth - dfoc) / dfoc * 4 * sen.defocus, 0, 1)[..., None]
    b1 = _blur(img, sen.blur)
    b2 = _blur(img, sen.blur + 0.7)
    img = b1 * (1 - wdef) + b2 * wdef
    uu, vv = np.meshgrid(np.arange(W_IMG), np.arange(H_IMG))
    rr = ((uu - cam.cx) ** 2 + (vv - cam.cy) ** 2) / (640.0**2 + 360.0**2)
    img *= (1 - sen.vign * rr - 0.1 * sen.vign * rr * rr).astype(np.float32)[..., None]
    img *= (exposure * gains).astype(np.float32)[None, None, :]
    gain = float(np.clip(exposure / 4.0, 0.7, 4.0))
    sig = np.sqrt(sen.noise_k * gain * np.clip(img, 0, None) + (sen.read * gain) ** 2)
    lum = rng.standard_normal((H_IMG, W_IMG), dtype=np.float32)
    chroma = cv2.GaussianBlur(rng.standard_normal((H_IMG, W_IMG, 3), dtype=np.float32), (0, 0), 0.8) * 1.2
    img = img + sig * (0.7 * lum[..., None] + 0.5 * chroma)
    img = _lin_to_srgb(img)
    y = img @ _LUMA.astype(np.float32)
    img = y[..., None] + (img - y[..., None]) * sen.sat
    img = (img - 0.5) * (1 + sen.contrast) + 0.5
    if sen.sharpen > 0:
        img = img + sen.sharpen * (img - _blur(img, 1.0))
    out = np.clip(np.round(img * 255), 0, 255).astype(np.uint8)
    bgr = np.ascontiguousarray(out[..., ::-1])
    ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, sen.jpeg])
    assert ok
    dec = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return np.asarray(dec, np.uint8)


def _meter(rad: np.ndarray) -> tuple[float, np.ndarray]:
    small = cv2.resize(rad, (RW // 16, RH // 16), interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    wt = np.exp(-(((xx - w / 2) / (0.45 * w)) ** 2 + ((yy - h / 2) / (0.45 * h)) ** 2))
    mean = (small * wt[..., None]).sum((0, 1)) / wt.sum()
    return float(mean @ _LUMA), mean


def _play_exposure(e_c: float, lum_c: float, lum_p: float, sen: _Sensor) -> float:
    """Auto exposure of partial strength, kept within the range a real camera's metering would allow."""
    e_p = e_c * (lum_c / max(lum_p, 1e-6)) ** sen.ae
    full = sen.target / max(lum_p, 1e-6)
    return float(np.clip(e_p, 0.5 * full, 1.9 * full))


def _awb_gains(mean: np.ndarray, sen: _Sensor) -> np.ndarray:
    g = np.array([mean[1] / mean[0], 1.0, mean[1] / mean[2]]) ** sen.awb * sen.wb_bias
    return np.asarray(g / g[1])


def _mask_1x(ids: np.ndarray, cam: _Cam) -> NDArray[np.bool_]:
    m = (ids > 0).astype(np.float32)
    small = cv2.resize(m, (W_IMG + 2 * PAD, H_IMG + 2 * PAD), interpolation=cv2.INTER_AREA)
    mx, my = _distortion_maps(cam, 0.0)[1]
    out = cv2.remap(small, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(out > 0.5)


def detect_markers(img: np.ndarray) -> dict[int, np.ndarray]:
    """Detect the DICT_4X4_50 markers in a BGR image: id -> (4, 2) corners (only ids seen exactly once)."""
    det = cv2.aruco.ArucoDetector(_DICT, cv2.aruco.DetectorParameters())
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    flat = [int(i) for i in np.asarray(ids).ravel()]
    for i, c in zip(flat, corners, strict=True):
        if flat.count(i) == 1:
            out[i] = np.asarray(c).reshape(4, 2)
    return out


# ----------------------------------------------------------------------------------------------- public API


def sixth_scene_pair(seed: int, hand: bool = False) -> SixthPair:
    """Render a (calibration, play) photo pair of the stock yard; see the module docstring."""
    prev = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return _pair(seed, hand)
    finally:
        cv2.setNumThreads(prev)


def _pair(seed: int, hand: bool) -> SixthPair:
    counts0 = _sample_counts(np.random.default_rng([seed, 99]))
    for attempt in range(10):
        rng = np.random.default_rng([seed, attempt])
        sc = _make_scene(rng, counts0, easy=attempt >= 3)
        sen = sc.sensor
        rad_c, _ = _render(sc, 0, None)
        lum_c, mean_c = _meter(rad_c)
        e_c = sen.target / max(lum_c, 1e-6) * float(rng.uniform(0.9, 1.1))
        calib = _develop(rad_c, sc.cams[0], sen, e_c, _awb_gains(mean_c, sen),
                         np.random.default_rng([seed, attempt, 1]))
        del rad_c
        if len(set(detect_markers(calib)) & {0, 1, 2, 3}) != 4:
            continue
        rad_p, ids = _render(sc, 1, None)
        visible = np.bincount(ids.ravel(), minlength=len(sc.cubes) + 1)[1:]
        if (visible < 40).any():
            continue
        lum_p, mean_p = _meter(rad_p)
        e_p = _play_exposure(e_c, lum_c, lum_p, sen)
        play = _develop(rad_p, sc.cams[1], sen, e_p, _awb_gains(mean_p, sen), np.random.default_rng([seed, attempt, 2]))
        if len(set(detect_markers(play)) & {0, 1, 2, 3}) != 4:
            continue
        mask = _mask_1x(ids, sc.cams[1])
        del rad_p
        counts = dict.fromkeys(KINDS, 0)
        for c in sc.cubes:
            counts[c.kind] += 1
        if hand:
            play, mask = _hand_play(seed, attempt, sc, e_c, lum_c)
        return SixthPair(calibration=calib, play=SixthPlay(image=play, counts=counts, cube_mask=mask), hand=hand)
    raise RuntimeError(f"sixth_scene_pair: no valid scene for seed {seed}")


def _hand_play(seed: int, attempt: int, sc: _Scene, e_c: float, lum_c: float) -> tuple[np.ndarray, np.ndarray]:
    sen = sc.sensor
    img: np.ndarray = np.zeros((H_IMG, W_IMG, 3), np.uint8)
    mask: np.ndarray = np.zeros((H_IMG, W_IMG), bool)
    for hat in range(4):
        hrng = np.random.default_rng([seed, attempt, 555, hat])
        spec = _sample_hand(hrng, sc)
        rad, ids = _render(sc, 1, spec)
        a = _composite_hand(rad, ids, spec, sc)
        lum, mean = _meter(rad)
        e_p = _play_exposure(e_c, lum_c, lum, sen)
        img = _develop(rad, sc.cams[1], sen, e_p, _awb_gains(mean, sen), np.random.default_rng([seed, attempt, 2]))
        mask = _mask_1x(ids, sc.cams[1])
        # markers not covered by the hand must still be detected
        cam = sc.cams[1]
        found = detect_markers(img)
        ok = True
        for m in sc.markers:
            p = cam.project_ss(np.array([[*m.centre, 0.0]]))[0]
            cover = a[int(np.clip(p[1], 0, RH - 1)), int(np.clip(p[0], 0, RW - 1))]
            uv = cam.project_ss(np.concatenate([m.paper_poly(), np.zeros((4, 1))], 1))
            x0, y0 = np.clip(uv.min(0).astype(int), 0, [RW - 1, RH - 1])
            x1, y1 = np.clip(uv.max(0).astype(int) + 1, 1, [RW, RH])
            cover = max(cover, float(a[y0:y1, x0:x1].max()))
            if cover < 0.02 and m.mid not in found:
                ok = False
        if ok:
            break
    return img, mask
