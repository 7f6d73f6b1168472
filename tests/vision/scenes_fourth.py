"""Fourth, independently modelled family of synthetic stock-yard scenes.

Written blind from the product spec (markers 0-3 of ``DICT_4X4_50`` at the TL, TR, BR, BL corners of the
stock yard; an empty-yard calibration picture; play pictures with iron/orange, stone/grey, coal/black and
event/white cubes; "unsure" when a hand is over the yard).  Nothing here was tuned against the reader.

``fourth_scene_pair(seed, hand=False)`` returns an empty-yard calibration frame and a play frame of the
same board, both 1280x720 BGR, with the exact cube counts and a per-pixel mask of visible cube faces.
``_generate(seed, hand)`` also returns the scene description (plan, poses, lights, hand region) for the
generator's own tests.

Modelling choices
-----------------
- One world in millimetres whose z axis points *into* the board (the OpenCV camera convention), so a
  camera hanging at height H above the board sits at z = -H.  Board coordinates (u right, v down) put
  the yard's top-left corner at the origin.
- Camera: a real pinhole (horizontal FOV 52-68 deg, principal point jittered) with mild barrel
  distortion (k1 in [-0.16, -0.02], small k2).  Every pixel gets its own undistorted ray and the board
  is found by intersecting the rays with the plane z = 0, so perspective and distortion are exact, not a
  homography warp.  Tilt up to 20 deg about a random horizontal axis; roll small (about +-10 deg) in
  most scenes, a rough quarter/half turn (the Pi stands on another side of the board) in about 27 %,
  and any angle in 8 %.  The distance (it comes out at 250-900 mm) is solved so the marker papers fill
  70-94 % of the frame's limiting dimension.  Between calibration and play the camera is knocked:
  0.15-1.9 deg about a random axis and 0.3-4 mm.
- Yard and cubes: cube edge 8-10 mm (one size per scene), yard width 11-23 cube edges, height 0.4-0.72
  of the width (grown when many cubes need room).  Cubes are 3D rounded boxes (bevel radius 0.5-1.1
  mm), ray-traced per pixel (slab test, then sphere tracing of the rounded-box SDF), lying flat, turned
  arbitrarily about the vertical, never overlapping (separating-axis test).
- Layouts: scattered singles, touching rows, tight heaps of 2-6 touching cubes (each new cube slid
  against an existing one until contact, leaving a 0.02-0.35 mm gap), mixtures, and "sorted" scenes
  where cubes sit in the printed space of their type.  Cubes stay inside the yard and at least 0.8 cube
  edges away from every marker paper, so they never hide a marker.
- Counts: 0-20 cubes, about 8 % empty; mixed (Dirichlet weights around iron 0.5, stone 0.33, coal 0.17),
  single-colour, two-colour, and bag-draw scenes (multivariate hypergeometric from a 4-player bag);
  event cubes 0-2; the limits of components.md (iron 40, stone 24, coal 14, event 5) hold.
- Cube materials: a colour batch per scene (orange, grey, black, cream-white) with per-cube jitter, wood
  growth rings from a virtual tree axis (straight grain on the sides, arcs on the end grain), uneven
  paint, worn edges showing raw wood on the bevels, semi-gloss Blinn-Phong highlights.
- Markers: printed on white paper squares (marker 16-38 mm, white quiet zone 0.18-0.45 of the marker)
  laid by hand: turned up to +-4 deg, shifted up to +-1.5 mm; in about 9 % of scenes one or more prints
  lie a quarter/half turn round.  Placement per scene: paper just outside the corner, outside with a 2-8 mm
  gap, the black square's inner corner on the yard corner, marker centred on the corner, or paper
  inside the corner.  Papers never overlap (markers shrink down to 15 mm, else the papers go outside).
- Board artwork (procedural, painted): fractal landscape coloured through a meadow/bracken/rock/scree
  palette, thousands of brush strokes along the terrain contours, painted mountains (jagged ridge, lit
  and shaded flanks, snow caps, gullies), gravel paths with pebble speckles, a printed railway, a river,
  station banners with text, legend boxes with printed cube icons; the yard panel itself (earth and
  gravel, planks, parchment or slate) with printed border, section lines, labels, isometric cube icons
  (same colours, smaller than real cubes) and numbered labourer spaces.  In about a third of the
  scenes the board edge and the table (wood or cloth) are in view.  Card-stock grain over all.
- Light, in linear RGB: sky ambient, an optional window (directional, soft shadows) and an optional
  lamp (point/area light with inverse-square fall-off, optional shade cone, penumbra from its radius);
  colour temperatures from a black-body fit.  Cubes cast shadows on the board (projected hulls blurred
  by the penumbra) and on each other (shadow rays), and get SDF ambient occlusion (contact shadows at
  the base and in the crevices between touching cubes); the board gets ambient occlusion around cube
  footprints and a soft lamp glare (semi-gloss print).  A "lighting story" links calibration and play:
  steady, lamp switched on, lamp switched off, evening, clouds, lamp moved, night.
- Camera pipeline per picture: centre-weighted auto-exposure with a per-picture target, imperfect auto
  white balance (partial adaptation plus error), vignetting, lens blur, shot and read noise growing with
  the gain, tone curve with contrast and saturation, mild sharpening, JPEG quality 70-95.  Calibration
  and play meter and encode independently.
- Hand (hand=True, its own random stream default_rng((seed, 0x68616E64))): skin-toned (light to dark)
  forearm and upper arm, palm (ellipsoid), fingers and thumb as ray-traced rounded cones, palm down,
  fingers curled and spread, nails; a sleeve in about 65 % of hands.  It reaches in from a frame edge
  toward a point of the yard at a height that clears the cubes, and is drawn again (up to 4 times) if it
  covers under 5 % of the yard in the picture.  It casts soft window and lamp shadows and dims the sky
  light under it.  Exposure, white balance and sensor noise are those of the hand-free frame, so the
  two frames differ only around the hand and its shadow; the counts stay those of the cubes on the
  board, and the cube mask loses the cube pixels the hand covers.
- If a hand-free frame does not show all four markers to cv2.aruco's default detector, the pair is
  rendered again with milder optics (less blur and noise, better JPEG; then also no lens distortion).
  That happens for about 2 % of seeds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

FRAME_W = 1280
FRAME_H = 720
COLOURS: tuple[str, str, str, str] = ("iron", "stone", "coal", "event")
LIMITS: dict[str, int] = {"iron": 40, "stone": 24, "coal": 14, "event": 5}
MAX_TOTAL = 20

Arr = NDArray[Any]

_HAND_STREAM = 0x68616E64  # "hand": the hand's random stream is default_rng((seed, _HAND_STREAM))
_ARUCO_DICT = cv2.aruco.DICT_4X4_50


@dataclass(frozen=True)
class FourthPlay:
    image: NDArray[np.uint8]
    counts: dict[str, int]
    cube_mask: NDArray[np.bool_]


@dataclass(frozen=True)
class FourthPair:
    calibration: NDArray[np.uint8]
    play: FourthPlay
    hand: bool


# ----------------------------------------------------------------------------------------------------
# small helpers


def _srgb_to_lin(x: Arr) -> Arr:
    x = np.asarray(x, dtype=np.float64)
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


_LIN_LUT: Arr = _srgb_to_lin(np.arange(256) / 255.0).astype(np.float32)
_ENC_N = 4096
_ENC_X = np.linspace(0.0, 1.0, _ENC_N)
_ENC_LUT: Arr = np.where(_ENC_X <= 0.0031308, _ENC_X * 12.92, 1.055 * _ENC_X ** (1 / 2.4) - 0.055)


def _lin(rgb: tuple[float, float, float] | Arr) -> Arr:
    return _srgb_to_lin(np.asarray(rgb, dtype=np.float64) / 255.0)


def _lum(rgb: Arr) -> Any:
    return 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]


def _kelvin(k: float) -> Arr:
    """Linear RGB of a black body at k kelvin (Tanner Helland fit), normalised to luminance 1."""
    t = k / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    if t >= 66:
        b = 255.0
    elif t <= 19:
        b = 0.0
    else:
        b = 138.5177312231 * math.log(t - 10) - 305.0447927307
    lin = _lin(tuple(float(np.clip(c, 1.0, 255.0)) for c in (r, g, b)))  # type: ignore[arg-type]
    return lin / float(_lum(lin))


def _rot(axis: Arr, angle: float) -> Arr:
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    rv = (a * angle).reshape(3, 1)
    r, _ = cv2.Rodrigues(rv)
    return np.asarray(r, dtype=np.float64)


def _unit(v: Arr) -> Arr:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _smoothstep(e0: float, e1: float, x: Arr) -> Arr:
    t = np.clip((x - e0) / (e1 - e0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def _fractal(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 4, gain: float = 0.5) -> Arr:
    """Band-limited value noise: a sum of bicubically upsampled random grids, roughly unit variance."""
    out = np.zeros((h, w), np.float32)
    amp, tot = 1.0, 0.0
    for o in range(octaves):
        c = max(cell / (2.0**o), 1.0)
        gh, gw = int(h / c) + 3, int(w / c) + 3
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        up: Arr
        if c <= 1.0:
            up = g[:h, :w]
        else:
            # upsample to a slightly bigger canvas and crop so the grid is not pinned to the corners
            up = cv2.resize(g, (int(gw * c), int(gh * c)), interpolation=cv2.INTER_CUBIC)[:h, :w]
        out += amp * up
        tot += amp * amp
        amp *= gain
    return out / math.sqrt(tot)


def _bilinear(img: Arr, x: Arr, y: Arr) -> Arr:
    """Sample a 2-D float map at fractional texel coordinates (clamped)."""
    h, w = img.shape[:2]
    x = np.clip(x, 0.0, w - 1.001)
    y = np.clip(y, 0.0, h - 1.001)
    x0 = x.astype(np.int64)
    y0 = y.astype(np.int64)
    fx = x - x0
    fy = y - y0
    a = img[y0, x0] * (1 - fx) + img[y0, x0 + 1] * fx
    b = img[y0 + 1, x0] * (1 - fx) + img[y0 + 1, x0 + 1] * fx
    return a * (1 - fy) + b * fy


_SNAP = 0.998


def _snap_one(a: Arr) -> Arr:
    """Make 'no shadow' exactly 1.0, so hand-free and hand frames stay bit-identical away from the hand."""
    return np.where(a > _SNAP, np.float32(1.0), a).astype(np.float32)


# ----------------------------------------------------------------------------------------------------
# scene plan: sizes, markers, counts and cube placement (cheap, no pixels)


@dataclass(frozen=True)
class _Rect:
    """An oriented square/rectangle footprint on the board (mm)."""

    u: float
    v: float
    hu: float
    hv: float
    ang: float

    def corners(self) -> Arr:
        c, s = math.cos(self.ang), math.sin(self.ang)
        loc = np.array([[-self.hu, -self.hv], [self.hu, -self.hv], [self.hu, self.hv], [-self.hu, self.hv]])
        rot = np.array([[c, -s], [s, c]])
        return np.asarray(loc @ rot.T + np.array([self.u, self.v]), dtype=np.float64)


def _overlap(a: _Rect, b: _Rect, gap: float = 0.0) -> bool:
    """Separating-axis test of two oriented rectangles, inflated by gap/2 each."""
    du, dv = b.u - a.u, b.v - a.v
    ra_max = math.hypot(a.hu, a.hv)
    rb_max = math.hypot(b.hu, b.hv)
    if du * du + dv * dv > (ra_max + rb_max + gap) ** 2:
        return False
    for ang in (a.ang, a.ang + math.pi / 2, b.ang, b.ang + math.pi / 2):
        cx, sx = math.cos(ang), math.sin(ang)
        da = a.ang - ang
        db = b.ang - ang
        ra = a.hu * abs(math.cos(da)) + a.hv * abs(math.sin(da))
        rb = b.hu * abs(math.cos(db)) + b.hv * abs(math.sin(db))
        if abs(du * cx + dv * sx) >= ra + rb + gap:
            return False
    return True


@dataclass(frozen=True)
class _Cube:
    u: float
    v: float
    ang: float
    colour: str


@dataclass(frozen=True)
class _Sheet:
    marker_id: int
    u: float
    v: float
    marker: float  # side of the printed black square (mm)
    paper: float  # side of the paper sheet (mm)
    ang: float
    quarter: int  # extra quarter turns of the print on its paper

    def paper_rect(self) -> _Rect:
        return _Rect(self.u, self.v, self.paper / 2, self.paper / 2, self.ang)

    def marker_rect(self) -> _Rect:
        return _Rect(self.u, self.v, self.marker / 2, self.marker / 2, self.ang)


@dataclass(frozen=True)
class _Plan:
    cube: float
    yard_w: float
    yard_h: float
    sheets: tuple[_Sheet, ...]
    marker_style: str
    sections: dict[str, tuple[float, float, float, float]]
    strip: tuple[float, float, float, float] | None
    section_axis: str
    layout: str
    cubes: tuple[_Cube, ...]
    counts: dict[str, int]


def _draw_counts(rng: np.random.Generator) -> dict[str, int]:
    counts = dict.fromkeys(COLOURS, 0)
    if rng.random() < 0.08:
        return counts
    if rng.random() < 0.5:
        n = int(rng.integers(1, MAX_TOTAL + 1))
    else:
        n = int(np.clip(round(rng.gamma(2.2, 4.0)), 1, MAX_TOTAL))
    mode = str(rng.choice(["mixed", "single", "two", "bag"], p=[0.55, 0.15, 0.15, 0.15]))
    if mode == "single":
        r = rng.random()
        if r < 0.05:
            counts["event"] = min(n, int(rng.integers(1, 3)))
        else:
            colour = str(rng.choice(["iron", "stone", "coal"], p=[0.45, 0.35, 0.2]))
            counts[colour] = n
    elif mode == "two":
        pair = rng.choice(["iron", "stone", "coal"], size=2, replace=False)
        k = int(rng.binomial(n, rng.uniform(0.2, 0.8)))
        if n >= 2:
            k = min(max(k, 1), n - 1)
        counts[str(pair[0])] = k
        counts[str(pair[1])] = n - k
    elif mode == "bag":
        drawn = rng.multivariate_hypergeometric([27, 16, 6, 5], n)
        for c, k in zip(COLOURS, drawn, strict=True):
            counts[c] = int(k)
    else:
        ev = int(rng.choice([0, 1, 2], p=[0.55, 0.3, 0.15]))
        ev = min(ev, n)
        counts["event"] = ev
        w = rng.dirichlet([5.0, 3.4, 1.8])
        for c, k in zip(("iron", "stone", "coal"), rng.multinomial(n - ev, w), strict=True):
            counts[c] = int(k)
    counts["event"] = min(counts["event"], 2)
    for c in COLOURS:
        excess = counts[c] - LIMITS[c]
        if excess > 0:
            counts[c] -= excess
            counts["iron"] += excess if c != "iron" else 0
    return counts


def _grow_group(rng: np.random.Generator, kind: str, n: int, s: float) -> list[tuple[float, float, float]]:
    """Local layout of a row or heap of n touching cubes: (x, y, angle)."""
    h = s / 2
    out: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)]
    contact_gap = float(rng.uniform(0.02, 0.35))

    def hits(x: float, y: float, a: float, gap: float) -> bool:
        r = _Rect(x, y, h, h, a)
        return any(_overlap(r, _Rect(px, py, h, h, pa), gap) for px, py, pa in out)

    for _ in range(n - 1):
        for _attempt in range(40):
            if kind == "row":
                bx, by, ba = out[-1]
                side = 0
                slide = float(rng.normal(0.0, 0.05 * s))
                ang = ba + float(rng.normal(0.0, math.radians(3.0)))
            else:
                bx, by, ba = out[int(rng.integers(len(out)))]
                side = int(rng.integers(4))
                slide = float(rng.uniform(-0.55, 0.55) * s)
                if rng.random() < 0.75:
                    ang = ba + float(rng.uniform(-0.2, 0.2))
                else:
                    ang = float(rng.uniform(0, math.pi / 2))
            da = ba + side * math.pi / 2
            ux, uy = math.cos(da), math.sin(da)

            def pos(
                d: float, ux: float = ux, uy: float = uy, bx: float = bx, by: float = by, slide: float = slide
            ) -> tuple[float, float]:
                return bx + ux * d - uy * slide, by + uy * d + ux * slide

            lo, hi = 0.0, 2.6 * s
            if hits(*pos(hi), ang, 0.0):
                continue
            for _b in range(16):
                mid = 0.5 * (lo + hi)
                if hits(*pos(mid), ang, 0.0):
                    lo = mid
                else:
                    hi = mid
            x, y = pos(hi + contact_gap)
            if hits(x, y, ang, 0.01):
                continue
            out.append((x, y, ang))
            break
    return out


def _sections(
    rng: np.random.Generator, yw: float, yh: float
) -> tuple[dict[str, tuple[float, float, float, float]], tuple[float, float, float, float] | None, str]:
    axis = str(rng.choice(["strip_cols", "cols", "rows"], p=[0.5, 0.25, 0.25]))
    strip: tuple[float, float, float, float] | None = None
    top, bottom = 0.0, yh
    if axis == "strip_cols":
        sh = yh * float(rng.uniform(0.18, 0.28))
        if rng.random() < 0.5:
            strip = (0.0, 0.0, yw, sh)
            top = sh
        else:
            strip = (0.0, yh - sh, yw, yh)
            bottom = yh - sh
    order = ["iron", "stone", "coal"]
    if rng.random() < 0.3:
        order = [str(c) for c in rng.permutation(order)]
    w = rng.dirichlet([6.0, 4.5, 3.0])
    w = 0.7 * w + 0.3 / 3
    cuts = np.concatenate([[0.0], np.cumsum(w)])
    secs: dict[str, tuple[float, float, float, float]] = {}
    for i, c in enumerate(order):
        if axis == "rows":
            secs[c] = (0.0, float(cuts[i] * yh), yw, float(cuts[i + 1] * yh))
        else:
            secs[c] = (float(cuts[i] * yw), top, float(cuts[i + 1] * yw), bottom)
    return secs, strip, axis


def _make_sheets(rng: np.random.Generator, yw: float, yh: float) -> tuple[tuple[_Sheet, ...], str]:
    m = float(np.clip(min(yw, 1.7 * yh) * rng.uniform(0.1, 0.19), 16.0, 38.0))
    q = m * float(rng.uniform(0.18, 0.45))
    style = str(rng.choice(["outside", "gap", "marker_corner", "centred", "inside"], p=[0.3, 0.15, 0.25, 0.2, 0.1]))
    turned = rng.random() < 0.1
    corners = [(0.0, 0.0, -1, -1), (yw, 0.0, 1, -1), (yw, yh, 1, 1), (0.0, yh, -1, 1)]
    jit = rng.uniform(-1.5, 1.5, (4, 2))
    angs = np.radians(rng.uniform(-4.0, 4.0, 4))
    gaps = rng.uniform(0.0, 1.0, 4) if style != "gap" else rng.uniform(2.0, 8.0, 4)
    quarters = [int(rng.integers(1, 4)) if (turned and rng.random() < 0.5) else 0 for _ in range(4)]
    sheets: list[_Sheet] = []
    for _shrink in range(20):
        paper = m + 2 * q
        sheets = []
        for mid, (cu, cv, sx, sy) in enumerate(corners):
            if style in ("outside", "gap"):
                off = paper / 2 + float(gaps[mid])
            elif style == "marker_corner":
                off = m / 2
            elif style == "centred":
                off = 0.0
            else:
                off = -paper / 2 - float(gaps[mid])
            u = cu + sx * off + float(jit[mid, 0])
            v = cv + sy * off + float(jit[mid, 1])
            sheets.append(_Sheet(mid, u, v, m, paper, float(angs[mid]), quarters[mid]))
        rects = [sh.paper_rect() for sh in sheets]
        # papers laid by hand never overlap, and leave a fair part of the yard's short side free
        crowded = any(_overlap(a, b, 4.0) for i, a in enumerate(rects) for b in rects[i + 1 :])
        if style == "inside":
            crowded |= 2 * paper > 0.6 * min(yw, yh)
        elif style == "centred":
            crowded |= paper > 0.6 * min(yw, yh)
        if not crowded:
            break
        if m * 0.9 < 15.0:
            style = "outside"
        else:
            m *= 0.9
            q *= 0.9
    return tuple(sheets), style


def _plan(rng: np.random.Generator) -> _Plan:
    s = float(rng.uniform(8.0, 10.0))
    counts = _draw_counts(rng)
    n = sum(counts.values())
    ratio = float(rng.uniform(11.0, 23.0))
    yw = s * ratio
    yh = yw * float(rng.uniform(0.4, 0.72))
    sheets, style = _make_sheets(rng, yw, yh)
    # make sure the yard has room: free area (minus paper that intrudes) >= (3.6 n + 8) s^2
    for _ in range(40):
        intr = 0.0
        for sh in sheets:
            inside = max(0.0, min(sh.paper, sh.paper / 2 + abs(sh.u - (0.0 if sh.u < yw / 2 else yw))) + 0.8 * s)
            if style in ("outside", "gap"):
                inside = 0.8 * s
            intr += inside * inside
        if yw * yh - intr >= (3.6 * n + 8.0) * s * s:
            break
        if yh < 0.95 * yw:
            yh *= 1.06
        else:
            yw *= 1.05
            yh *= 1.05
        sheets, style = _make_sheets(rng, yw, yh)
    sections, strip, axis = _sections(rng, yw, yh)
    layout = str(rng.choice(["scatter", "clusters", "rows", "sorted", "mixed"], p=[0.2, 0.25, 0.15, 0.2, 0.2]))
    cubes = _place(rng, counts, layout, s, yw, yh, sheets, sections)
    final = dict.fromkeys(COLOURS, 0)
    for c in cubes:
        final[c.colour] += 1
    return _Plan(s, yw, yh, sheets, style, sections, strip, axis, layout, tuple(cubes), final)


def _place(
    rng: np.random.Generator,
    counts: dict[str, int],
    layout: str,
    s: float,
    yw: float,
    yh: float,
    sheets: tuple[_Sheet, ...],
    sections: dict[str, tuple[float, float, float, float]],
) -> list[_Cube]:
    h = s / 2
    colours = [c for c in COLOURS for _ in range(counts[c])]
    groups: list[tuple[str, list[str], str | None]] = []  # (kind, colours, region colour)

    def chunk(items: list[str], kinds: list[str], region: str | None) -> None:
        i = 0
        while i < len(items):
            kind = str(rng.choice(kinds))
            size = 1 if kind == "single" else int(rng.integers(2, 6 if kind == "row" else 7))
            groups.append((kind, items[i : i + size], region))
            i += size

    if layout == "sorted":
        for c in COLOURS:
            items = [c] * counts[c]
            chunk(items, ["single", "heap", "heap", "row"], c if c != "event" else None)
    else:
        order = list(colours)
        if rng.random() < 0.5:
            order = [str(c) for c in rng.permutation(order)]
        kinds = {
            "scatter": ["single"],
            "clusters": ["heap", "heap", "heap", "single"],
            "rows": ["row", "row", "single"],
            "mixed": ["single", "single", "row", "heap"],
        }[layout]
        chunk(order, kinds, None)

    placed: list[_Rect] = []
    cubes: list[_Cube] = []
    margin = 0.25 * s
    papers = [sh.paper_rect() for sh in sheets]

    def fits(r: _Rect, region: tuple[float, float, float, float] | None) -> bool:
        ext = h * (abs(math.cos(r.ang)) + abs(math.sin(r.ang)))
        if r.u - ext < margin or r.u + ext > yw - margin or r.v - ext < margin or r.v + ext > yh - margin:
            return False
        if region is not None:
            x0, y0, x1, y1 = region
            if not (x0 + 0.3 * s <= r.u <= x1 - 0.3 * s and y0 + 0.3 * s <= r.v <= y1 - 0.3 * s):
                return False
        if any(_overlap(r, p, 0.8 * s) for p in papers):
            return False
        return not any(_overlap(r, p, 0.02) for p in placed)

    def try_place(local: list[tuple[float, float, float]], cols: list[str], region_key: str | None, tries: int) -> bool:
        region = sections.get(region_key) if region_key else None
        mx = sum(p[0] for p in local) / len(local)
        my = sum(p[1] for p in local) / len(local)
        rx0, ry0, rx1, ry1 = region if region is not None else (0.0, 0.0, yw, yh)
        for _ in range(tries):
            th = float(rng.uniform(0, 2 * math.pi))
            cx = float(rng.uniform(rx0 + h, max(rx0 + h + 1e-3, rx1 - h)))
            cy = float(rng.uniform(ry0 + h, max(ry0 + h + 1e-3, ry1 - h)))
            ct, st = math.cos(th), math.sin(th)
            rects = []
            for x, y, a in local:
                x, y = x - mx, y - my
                rects.append(_Rect(cx + ct * x - st * y, cy + st * x + ct * y, h, h, a + th))
            ok = True
            for i, r in enumerate(rects):
                if not fits(r, region) or any(_overlap(r, q, 0.01) for q in rects[:i]):
                    ok = False
                    break
            if ok:
                for r, c in zip(rects, cols, strict=True):
                    placed.append(r)
                    cubes.append(_Cube(r.u, r.v, r.ang % (math.pi / 2), c))
                return True
        return False

    for kind, cols, region in groups:
        local = _grow_group(rng, kind, len(cols), s) if kind != "single" else [(0.0, 0.0, 0.0)]
        if len(local) == len(cols) and try_place(local, cols, region, 150):
            continue
        for c in cols:  # fall back to singles; a cube that finds no room at all is left out
            if not try_place([(0.0, 0.0, 0.0)], [c], region, 200):
                try_place([(0.0, 0.0, 0.0)], [c], None, 400)
    return cubes


# ----------------------------------------------------------------------------------------------------
# camera


@dataclass(frozen=True)
class _Intr:
    fx: float
    fy: float
    cx: float
    cy: float
    k1: float
    k2: float


@dataclass(frozen=True)
class _Pose:
    R: Arr  # world -> camera
    C: Arr  # camera centre (world)


def _project(intr: _Intr, pose: _Pose, pts: Arr) -> tuple[Arr, Arr]:
    xc = (np.asarray(pts, dtype=np.float64) - pose.C) @ pose.R.T
    z = xc[:, 2]
    zs = np.where(z > 1e-6, z, 1e-6)
    x = xc[:, 0] / zs
    y = xc[:, 1] / zs
    r2 = x * x + y * y
    f = 1 + intr.k1 * r2 + intr.k2 * r2 * r2
    # far outside the field of view the distortion polynomial folds back; flag those points (z = -1)
    r2_lim = 1.5 * ((FRAME_W / 2 / intr.fx) ** 2 + (FRAME_H / 2 / intr.fy) ** 2)
    z = np.where(r2 > r2_lim, -1.0, z)
    return np.stack([intr.fx * x * f + intr.cx, intr.fy * y * f + intr.cy], axis=1), z


def _pixel_rays(intr: _Intr) -> Arr:
    xs = ((np.arange(FRAME_W, dtype=np.float32) - intr.cx) / intr.fx).astype(np.float32)
    ys = ((np.arange(FRAME_H, dtype=np.float32) - intr.cy) / intr.fy).astype(np.float32)
    xd, yd = np.meshgrid(xs, ys)
    xu, yu = xd.copy(), yd.copy()
    for _ in range(8):
        r2 = xu * xu + yu * yu
        f = 1 + np.float32(intr.k1) * r2 + np.float32(intr.k2) * r2 * r2
        xu = xd / f
        yu = yd / f
    n = np.sqrt(xu * xu + yu * yu + 1)
    return np.stack([xu / n, yu / n, 1 / n], axis=-1).astype(np.float32)


def _camera(rng: np.random.Generator, plan: _Plan) -> tuple[_Intr, _Pose, _Pose]:
    hfov = math.radians(float(rng.uniform(52.0, 68.0)))
    fx = (FRAME_W / 2) / math.tan(hfov / 2)
    intr = _Intr(
        fx,
        fx * float(rng.uniform(0.995, 1.005)),
        FRAME_W / 2 + float(rng.normal(0, 6)),
        FRAME_H / 2 + float(rng.normal(0, 6)),
        -float(rng.uniform(0.02, 0.16)),
        float(rng.uniform(-0.01, 0.04)),
    )
    r = rng.random()
    if r < 0.08:  # camera standing anywhere around the board
        roll = float(rng.uniform(-math.pi, math.pi))
    elif r < 0.35:  # camera on another side of the board: a quarter/half turn, roughly
        roll = math.radians(90.0 * int(rng.integers(1, 4)) + float(rng.normal(0, 12)))
    else:
        roll = math.radians(float(rng.normal(0, 10)))
    tilt = math.radians(float(min(rng.uniform(0, 20), rng.uniform(0, 24))))
    az = float(rng.uniform(0, 2 * math.pi))
    r_cw = _rot(np.array([math.cos(az), math.sin(az), 0.0]), tilt) @ _rot(np.array([0.0, 0.0, 1.0]), roll)
    fill = float(rng.uniform(0.7, 0.94))
    target = np.array(
        [plan.yard_w / 2 + rng.normal(0, 0.05 * plan.yard_w), plan.yard_h / 2 + rng.normal(0, 0.05 * plan.yard_h), 0.0]
    )
    nudge_axis = _unit(rng.normal(size=3))
    nudge_ang = math.radians(float(rng.uniform(0.15, 1.9)))
    nudge_t = _unit(rng.normal(size=3)) * float(rng.uniform(0.3, 4.0))
    pts = np.concatenate([np.column_stack([sh.paper_rect().corners(), np.zeros(4)]) for sh in plan.sheets])
    pts = np.concatenate(
        [
            pts,
            np.array(
                [[0, 0, 0], [plan.yard_w, 0, 0], [plan.yard_w, plan.yard_h, 0], [0, plan.yard_h, 0]], dtype=np.float64
            ),
        ]
    )
    axis = r_cw[:, 2]
    margin = 14.0
    for _ in range(12):
        d = 300.0
        for _it in range(6):
            pose = _Pose(r_cw.T, target - d * axis)
            px, _z = _project(intr, pose, pts)
            e = max(
                np.max(np.abs(px[:, 0] - intr.cx)) / (FRAME_W / 2), np.max(np.abs(px[:, 1] - intr.cy)) / (FRAME_H / 2)
            )
            d *= e / fill
        calib = _Pose(r_cw.T, target - d * axis)
        r_play = _rot(nudge_axis, nudge_ang) @ r_cw
        play = _Pose(r_play.T, calib.C + nudge_t)
        ok = True
        for pose in (calib, play):
            px, z = _project(intr, pose, pts)
            if (
                np.any(z < 50)
                or px[:, 0].min() < margin
                or px[:, 1].min() < margin
                or px[:, 0].max() > FRAME_W - margin
                or px[:, 1].max() > FRAME_H - margin
            ):
                ok = False
        if ok:
            return intr, calib, play
        fill -= 0.04
    return intr, calib, play


# ----------------------------------------------------------------------------------------------------
# lights and camera pipeline settings


@dataclass(frozen=True)
class _Lights:
    amb: Arr
    win: Arr
    win_dir: Arr  # unit, towards the light (z < 0 means up)
    win_soft: float
    lamp: Arr  # rgb irradiance on the board at the yard centre
    lamp_pos: Arr
    lamp_axis: Arr
    lamp_cos_in: float
    lamp_cos_out: float
    lamp_radius: float
    lamp_i: float  # normalisation of the lamp's fall-off

    @property
    def lamp_on(self) -> bool:
        return bool(np.max(self.lamp) > 0)

    @property
    def win_on(self) -> bool:
        return bool(np.max(self.win) > 0)

    def lamp_gain(self, p: Arr) -> tuple[Arr, Arr, Arr]:
        """(unit vectors towards the lamp, distance, fall-off factor without the incidence cosine)."""
        lv = self.lamp_pos - p
        dist = np.sqrt(np.sum(lv * lv, axis=-1))
        ldir = lv / dist[..., None]
        cosang = -np.sum(ldir * self.lamp_axis, axis=-1)
        cone = _smoothstep(self.lamp_cos_out, self.lamp_cos_in, cosang) if self.lamp_cos_out > -1 else 1.0
        return ldir, dist, self.lamp_i * cone / (dist * dist)


def _with(lights: _Lights, **kw: Any) -> _Lights:
    d = dict(lights.__dict__)
    d.update(kw)
    return _Lights(**d)


def _lamp_geometry(rng: np.random.Generator, centre: Arr) -> dict[str, Any]:
    r = float(rng.uniform(60, 500))
    a = float(rng.uniform(0, 2 * math.pi))
    hgt = float(rng.uniform(330, 950))
    pos = np.array([centre[0] + r * math.cos(a), centre[1] + r * math.sin(a), -hgt])
    aim = centre + np.array([rng.normal(0, 40), rng.normal(0, 40), 0.0])
    axis = _unit(aim - pos)
    if rng.random() < 0.55:
        inner = math.radians(float(rng.uniform(28, 55)))
        outer = inner + math.radians(float(rng.uniform(10, 25)))
        cin, cout = math.cos(inner), math.cos(outer)
    else:
        cin, cout = 1.0, -2.0
    radius = float(rng.uniform(10, 60))
    lv = pos - centre
    dist = float(np.linalg.norm(lv))
    cosang = float(np.dot(-lv / dist, axis))
    cone = float(_smoothstep(cout, cin, np.array(cosang))) if cout > -1 else 1.0
    cos_inc = hgt / dist
    lamp_i = dist * dist / max(cone * cos_inc, 0.05)
    return {
        "lamp_pos": pos,
        "lamp_axis": axis,
        "lamp_cos_in": cin,
        "lamp_cos_out": cout,
        "lamp_radius": radius,
        "lamp_i": lamp_i,
    }


def _lights_pair(rng: np.random.Generator, plan: _Plan) -> tuple[_Lights, _Lights, str]:
    centre = np.array([plan.yard_w / 2, plan.yard_h / 2, 0.0])

    def window(elev_lo: float, elev_hi: float, k_lo: float, k_hi: float, i_lo: float, i_hi: float) -> dict[str, Any]:
        el = math.radians(float(rng.uniform(elev_lo, elev_hi)))
        az = float(rng.uniform(0, 2 * math.pi))
        d = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])
        return {
            "win": _kelvin(float(rng.uniform(k_lo, k_hi))) * float(rng.uniform(i_lo, i_hi)),
            "win_dir": d,
            "win_soft": float(rng.uniform(0.05, 0.28)),
        }

    def lamp_colour() -> Arr:
        kind = rng.random()
        if kind < 0.55:
            k = rng.uniform(2600, 3300)
        else:
            k = rng.uniform(3800, 4600) if kind < 0.8 else rng.uniform(5000, 6500)
        return _kelvin(float(k)) * float(rng.uniform(0.5, 2.2))

    zero = np.zeros(3)
    day_w = (
        window(20, 65, 4800, 6500, 0.3, 1.3)
        if rng.random() < 0.75
        else {"win": zero, "win_dir": np.array([0.0, 0.0, -1.0]), "win_soft": 0.2}
    )
    geo = _lamp_geometry(rng, centre)
    day = _Lights(
        amb=_kelvin(float(rng.uniform(5200, 7500))) * float(rng.uniform(0.35, 0.8)), lamp=zero, **day_w, **geo
    )
    eve_w = (
        window(6, 25, 2500, 3800, 0.1, 0.5)
        if rng.random() < 0.5
        else {"win": zero, "win_dir": np.array([0.0, 0.0, -1.0]), "win_soft": 0.2}
    )
    evening = _Lights(
        amb=_kelvin(float(rng.uniform(3800, 5200))) * float(rng.uniform(0.05, 0.2)), lamp=lamp_colour(), **eve_w, **geo
    )
    story = str(
        rng.choice(
            ["steady", "lamp_on", "lamp_off", "evening", "cloud", "lamp_moved", "night"],
            p=[0.14, 0.2, 0.12, 0.18, 0.12, 0.1, 0.14],
        )
    )

    def jitter(lt: _Lights) -> _Lights:
        return _with(
            lt,
            amb=lt.amb * float(rng.uniform(0.9, 1.1)),
            win=lt.win * float(rng.uniform(0.9, 1.1)),
            lamp=lt.lamp * float(rng.uniform(0.93, 1.07)),
        )

    if story == "steady":
        calib, play = day, jitter(day)
    elif story == "lamp_on":
        calib, play = day, _with(jitter(day), lamp=lamp_colour())
    elif story == "lamp_off":
        calib, play = _with(day, lamp=lamp_colour()), jitter(day)
    elif story == "evening":
        calib, play = day, evening if rng.random() < 0.75 else _with(evening, lamp=evening.lamp * 0.0 + 0.0)
        if not play.lamp_on and not play.win_on:
            play = _with(play, amb=play.amb * 3.0)
    elif story == "cloud":
        f = float(rng.uniform(0.15, 0.5)) if rng.random() < 0.5 else float(rng.uniform(1.6, 3.0))
        calib = day if day.win_on else _with(day, **window(25, 60, 5000, 6000, 0.4, 1.0))
        play = _with(calib, win=calib.win * f, amb=calib.amb * float(rng.uniform(0.7, 1.3)))
    elif story == "lamp_moved":
        calib = evening
        play = _with(evening, **_lamp_geometry(rng, centre))
    else:
        calib, play = evening, jitter(evening)
    return calib, play, story


@dataclass(frozen=True)
class _Optics:
    blur: float
    shot: float
    read: float
    jpeg: int
    target: float
    awb_strength: float
    awb_err: Arr
    vig: float
    contrast: float
    saturation: float
    sharpen: float

    def milder(self, level: int) -> _Optics:
        if level <= 0:
            return self
        f = 0.5 if level == 1 else 0.25
        return _Optics(
            self.blur * f + 0.3 * (1 - f),
            self.shot * f * f,
            self.read * f,
            max(self.jpeg, 92),
            self.target * (0.85 if level == 1 else 0.75),
            self.awb_strength,
            self.awb_err,
            self.vig * f,
            self.contrast * f,
            self.saturation,
            0.0,
        )


def _optics_pair(rng: np.random.Generator) -> tuple[_Optics, _Optics]:
    blur = float(rng.uniform(0.5, 1.15))
    vig = float(rng.uniform(0.08, 0.35))
    contrast = float(rng.uniform(0.0, 0.45))
    sat = float(rng.uniform(0.95, 1.25))
    sharpen = float(rng.uniform(0.0, 0.6))
    shot = float(rng.uniform(0.0004, 0.0025))
    read = float(rng.uniform(0.0008, 0.004))

    def one() -> _Optics:
        return _Optics(
            blur * float(rng.uniform(0.95, 1.05)),
            shot,
            read,
            int(rng.integers(70, 96)),
            float(rng.uniform(0.13, 0.24)),
            float(rng.uniform(0.55, 1.0)),
            np.exp(rng.normal(0, 0.035, 3)),
            vig,
            contrast,
            sat,
            sharpen,
        )

    return one(), one()


# ----------------------------------------------------------------------------------------------------
# board artwork


_PALETTES = [
    # valley, meadow, light grass, bracken, rock, light rock, snow (sRGB)
    [(52, 88, 48), (88, 128, 58), (138, 158, 82), (140, 118, 74), (124, 118, 108), (168, 162, 150), (226, 229, 233)],
    [(60, 80, 52), (104, 122, 64), (150, 150, 90), (136, 104, 66), (110, 108, 104), (150, 148, 142), (220, 224, 230)],
    [(44, 84, 60), (76, 122, 70), (126, 150, 86), (120, 110, 78), (132, 126, 120), (176, 170, 160), (232, 234, 236)],
]

_ICON_SRGB = {"iron": (228, 118, 38), "stone": (158, 158, 156), "coal": (44, 44, 46), "event": (244, 243, 238)}
_WORDS = [
    "LLANBERIS",
    "HEBRON",
    "HALFWAY",
    "CLOGWYN",
    "ROCKY VALLEY",
    "WATERFALL",
    "YR WYDDFA",
    "Snowdon",
    "Works",
    "Site Office",
    "Excavation",
    "Lay Track",
    "Build",
]


def _draw_icon(canvas: Arr, x: float, y: float, a: float, colour: str, outline: tuple[int, int, int]) -> None:
    """Isometric cube icon (printed, flat) centred at texel (x, y) with hexagon radius a."""
    base = np.array(_ICON_SRGB[colour], dtype=np.float64)
    hexv = [
        (x + a * math.cos(math.radians(-90 + 60 * k)), y + a * math.sin(math.radians(-90 + 60 * k))) for k in range(6)
    ]
    c = (x, y)
    faces = [
        ([c, hexv[5], hexv[0], hexv[1]], 1.18),
        ([c, hexv[1], hexv[2], hexv[3]], 0.68),
        ([c, hexv[3], hexv[4], hexv[5]], 0.88),
    ]
    for poly, shade in faces:
        col = np.clip(base * shade + (12 if shade > 1 else 0), 0, 255)
        pts = np.round(np.array(poly) * 16).astype(np.int32)
        cv2.fillPoly(canvas, [pts], tuple(int(v) for v in col), cv2.LINE_AA, shift=4)
    pts = np.round(np.array(hexv) * 16).astype(np.int32)
    th = max(1, int(round(a * 0.09)))
    cv2.polylines(canvas, [pts], True, outline, th, cv2.LINE_AA, shift=4)
    for k in (1, 3, 5):
        cv2.line(
            canvas,
            (int(round(x * 16)), int(round(y * 16))),
            (int(round(hexv[k][0] * 16)), int(round(hexv[k][1] * 16))),
            outline,
            th,
            cv2.LINE_AA,
            shift=4,
        )


def _put_text(
    canvas: Arr,
    text: str,
    x: float,
    y: float,
    height: float,
    colour: tuple[int, int, int],
    font: int = cv2.FONT_HERSHEY_TRIPLEX,
    centre: bool = True,
) -> None:
    th = max(1, int(round(height / 11)))
    (tw, tht), _ = cv2.getTextSize(text, font, 1.0, th)
    scale = height / max(tht, 1)
    (tw, tht), _ = cv2.getTextSize(text, font, scale, th)
    ox = x - tw / 2 if centre else x
    cv2.putText(canvas, text, (int(round(ox)), int(round(y + tht / 2))), font, scale, colour, th, cv2.LINE_AA)


def _paint_board(rng: np.random.Generator, plan: _Plan, ext: tuple[float, float, float, float], sc: float) -> Arr:
    u0, v0, u1, v1 = ext
    wt = int(math.ceil((u1 - u0) * sc))
    ht = int(math.ceil((v1 - v0) * sc))
    s = plan.cube

    def tx(u: float) -> float:
        return (u - u0) * sc - 0.5

    def ty(v: float) -> float:
        return (v - v0) * sc - 0.5

    def ipt(x: float, y: float) -> tuple[int, int]:
        return int(round(x)), int(round(y))

    # --- painted landscape
    low = 4
    hl, wl = ht // low + 1, wt // low + 1
    elev = _fractal(rng, hl, wl, float(rng.uniform(45, 90)) * sc / low, octaves=5, gain=0.55)
    mid = _fractal(rng, hl, wl, 10.0 * sc / low, octaves=3)
    elev = cv2.resize(elev, (wt, ht), interpolation=cv2.INTER_LINEAR)
    midf = cv2.resize(mid, (wt, ht), interpolation=cv2.INTER_LINEAR)
    fine = _fractal(rng, ht, wt, 1.4 * sc, octaves=2)
    pal = np.array(_PALETTES[int(rng.integers(len(_PALETTES)))], dtype=np.float64)
    pal = np.clip(pal * rng.uniform(0.9, 1.1, (1, 3)) * rng.uniform(0.9, 1.1), 0, 255)
    stops = np.array([-2.4, -1.0, -0.3, 0.45, 1.05, 1.7, 2.7])
    xs = np.linspace(-3.0, 3.0, 1024)
    lut = np.stack([np.interp(xs, stops, pal[:, c]) for c in range(3)], axis=1).astype(np.float32)
    key = 0.9 * elev + 0.25 * midf + float(rng.uniform(-0.6, 0.35))
    idx = np.clip(((key + 3.0) / 6.0 * 1023).astype(np.int32), 0, 1023)
    img = lut[idx]
    img *= (1.0 + 0.09 * midf + 0.05 * fine)[..., None]
    canvas = np.clip(img, 0, 255).astype(np.uint8)

    keep_out = (
        -plan.sheets[0].paper,
        -plan.sheets[0].paper,
        plan.yard_w + plan.sheets[0].paper,
        plan.yard_h + plan.sheets[0].paper,
    )

    def outside_spot(pad: float) -> tuple[float, float]:
        for _ in range(60):
            u = float(rng.uniform(u0 + pad * 0.3, u1 - pad * 0.3))
            v = float(rng.uniform(v0 + pad * 0.3, v1 - pad * 0.3))
            if not (keep_out[0] - pad < u < keep_out[2] + pad and keep_out[1] - pad < v < keep_out[3] + pad):
                return u, v
        return u0 + pad * 0.3, v0 + pad * 0.3

    # painted mountains (side view, as on a board illustration): jagged ridge, lit and shaded flanks,
    # colour rising from scrub to rock, a snow cap with a ragged lower edge, dark gullies
    for _ in range(int(rng.choice([0, 1, 1, 2]))):
        bw = float(rng.uniform(80, 200))
        mh = bw * float(rng.uniform(0.35, 0.7))
        cu, cv = outside_spot(bw * 0.5)
        xs = np.linspace(0.0, 1.0, 48)
        xp = float(rng.uniform(0.35, 0.65))
        prof = np.clip(1 - np.abs(xs - xp) / max(xp, 1 - xp), 0, 1) ** float(rng.uniform(0.8, 1.3))
        xp2 = float(rng.uniform(0.15, 0.85))
        prof = np.maximum(prof, float(rng.uniform(0.4, 0.75)) * np.clip(1 - np.abs(xs - xp2) / 0.3, 0, 1))
        walk = np.cumsum(rng.normal(0, 0.035, xs.size))
        prof = np.clip(prof + (walk - np.linspace(walk[0], walk[-1], xs.size)) * prof, 0, 1.05)
        prof[0] = prof[-1] = 0.0
        ridge = np.column_stack([tx(cu - bw / 2) + xs * bw * sc, ty(cv + mh / 2) - prof * mh * sc])
        poly = np.vstack([ridge, [[ridge[-1, 0], ridge[0, 1]]]])
        bx0, by0 = max(0, int(poly[:, 0].min()) - 2), max(0, int(poly[:, 1].min()) - 2)
        bx1, by1 = min(wt, int(poly[:, 0].max()) + 3), min(ht, int(poly[:, 1].max()) + 3)
        if bx1 - bx0 < 4 or by1 - by0 < 4:
            continue
        msk = np.zeros((by1 - by0, bx1 - bx0), np.float32)
        cv2.fillPoly(msk, [np.round((poly - np.array([bx0, by0])) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        yy, xx = np.mgrid[by0:by1, bx0:bx1].astype(np.float32)
        tv = np.clip((ty(cv + mh / 2) - yy) / (mh * sc), 0, 1)
        split = tx(cu - bw / 2) + (xp + (1 - tv) * float(rng.uniform(-0.15, 0.15))) * bw * sc
        lit_side = (xx < split).astype(np.float32)
        scrub = np.array([104, 122, 80]) * rng.uniform(0.9, 1.1)
        rock = np.array([168, 162, 170]) * rng.uniform(0.9, 1.1)
        col = scrub[None, None, :] * (1 - tv[..., None]) + rock[None, None, :] * tv[..., None]
        col = col * (0.72 + 0.28 * lit_side)[..., None]
        snow_lvl = float(rng.uniform(0.62, 0.8)) + 0.06 * np.sin(xx / (6 * sc) + float(rng.uniform(0, 6)))
        snow = (tv > snow_lvl).astype(np.float32)
        snow_col = np.array([236, 238, 242]) * (0.8 + 0.2 * lit_side)[..., None]
        col = col * (1 - snow[..., None]) + snow_col * snow[..., None]
        gully = np.zeros_like(msk)
        for _g in range(int(rng.integers(4, 10))):
            gx0 = float(rng.uniform(bx0, bx1))
            k = int(np.argmin(np.abs(ridge[:, 0] - gx0)))
            p0 = ridge[k]
            p1 = p0 + np.array([float(rng.normal(0, 0.1)), 1.0]) * float(rng.uniform(0.2, 0.6)) * mh * sc
            cv2.line(
                gully,
                (int(p0[0] - bx0), int(p0[1] - by0)),
                (int(p1[0] - bx0), int(p1[1] - by0)),
                1.0,
                max(1, int(0.6 * sc)),
                cv2.LINE_AA,
            )
        col = col * (1 - 0.35 * gully[..., None])
        patch = canvas[by0:by1, bx0:bx1].astype(np.float32)
        canvas[by0:by1, bx0:bx1] = np.clip(patch * (1 - msk[..., None]) + col * msk[..., None], 0, 255).astype(np.uint8)

    # river
    if rng.random() < 0.3:
        p = np.array(outside_spot(30))
        a = float(rng.uniform(0, 2 * math.pi))
        pts = []
        for _ in range(30):
            pts.append((tx(p[0]), ty(p[1])))
            a += float(rng.normal(0, 0.25))
            p = p + 15 * np.array([math.cos(a), math.sin(a)])
        cv2.polylines(
            canvas,
            [np.round(np.array(pts) * 16).astype(np.int32)],
            False,
            (84, 118, 140),
            max(1, int(rng.uniform(4, 10) * sc)),
            cv2.LINE_AA,
            4,
        )

    # brush strokes along the terrain contours
    gy, gx = np.gradient(cv2.resize(elev, (wl, hl), interpolation=cv2.INTER_AREA))
    n_str = int(min(4200, (u1 - u0) * (v1 - v0) / 30))
    sx = rng.uniform(0, wt - 1, n_str)
    sy = rng.uniform(0, ht - 1, n_str)
    lens = rng.uniform(2.0, 7.0, n_str) * sc
    thick = np.maximum(1, np.round(rng.uniform(0.45, 1.3, n_str) * sc)).astype(int)
    jit = rng.normal(1.0, 0.025, (n_str, 3)) * rng.normal(1.0, 0.09, (n_str, 1))
    angn = rng.normal(0.0, 0.35, n_str)
    xi = sx.astype(np.int64)
    yi = sy.astype(np.int64)
    ang = np.arctan2(gy[yi // low, xi // low], gx[yi // low, xi // low]) + math.pi / 2 + angn
    ddx = np.cos(ang) * lens / 2
    ddy = np.sin(ang) * lens / 2
    cols = np.clip(canvas[yi, xi].astype(np.float64) * jit, 0, 255).astype(np.int64).tolist()
    p1x = np.round(sx - ddx).astype(np.int64).tolist()
    p1y = np.round(sy - ddy).astype(np.int64).tolist()
    p2x = np.round(sx + ddx).astype(np.int64).tolist()
    p2y = np.round(sy + ddy).astype(np.int64).tolist()
    thl = thick.tolist()
    for i in range(n_str):
        cv2.line(canvas, (p1x[i], p1y[i]), (p2x[i], p2y[i]), cols[i], thl[i], cv2.LINE_AA)

    # gravel path
    gravel_mask = np.zeros((ht, wt), np.uint8)
    if rng.random() < 0.7:
        p = (
            np.array([float(rng.uniform(u0, u1)), v0 - 5.0])
            if rng.random() < 0.5
            else np.array([u0 - 5.0, float(rng.uniform(v0, v1))])
        )
        a = math.atan2(plan.yard_h / 2 - p[1], plan.yard_w / 2 - p[0]) + float(rng.normal(0, 0.5))
        pts = []
        for _ in range(60):
            pts.append((tx(p[0]), ty(p[1])))
            a += float(rng.normal(0, 0.15))
            p = p + 12 * np.array([math.cos(a), math.sin(a)])
        arr = np.round(np.array(pts) * 16).astype(np.int32)
        wpath = float(rng.uniform(5, 11)) * sc
        cv2.polylines(canvas, [arr], False, (120, 104, 84), int(wpath * 1.2), cv2.LINE_AA, 4)
        cv2.polylines(canvas, [arr], False, (178, 166, 142), int(wpath), cv2.LINE_AA, 4)
        cv2.polylines(gravel_mask, [arr], False, 255, int(wpath), cv2.LINE_8, 4)

    # printed railway
    if rng.random() < 0.6:
        p = (
            np.array([u0 - 5.0, float(rng.uniform(v0, v1))])
            if rng.random() < 0.5
            else np.array([float(rng.uniform(u0, u1)), v1 + 5.0])
        )
        a = math.atan2(plan.yard_h / 2 - p[1], plan.yard_w / 2 - p[0]) + float(rng.choice([-1, 1])) * 0.9
        for _ in range(200):
            a += float(rng.normal(0, 0.05))
            q = p + 3.0 * np.array([math.cos(a), math.sin(a)])
            nrm = np.array([-math.sin(a), math.cos(a)])
            c1, c2 = p + nrm * 3.2, p - nrm * 3.2
            cv2.line(
                canvas,
                ipt(tx(c1[0]), ty(c1[1])),
                ipt(tx(c2[0]), ty(c2[1])),
                (92, 70, 52),
                max(1, int(0.8 * sc)),
                cv2.LINE_AA,
            )
            for off in (2.2, -2.2):
                r1, r2 = p + nrm * off, q + nrm * off
                cv2.line(
                    canvas,
                    ipt(tx(r1[0]), ty(r1[1])),
                    ipt(tx(r2[0]), ty(r2[1])),
                    (58, 58, 62),
                    max(1, int(0.45 * sc)),
                    cv2.LINE_AA,
                )
            p = q
            if not (u0 - 20 < p[0] < u1 + 20 and v0 - 20 < p[1] < v1 + 20):
                break

    # station banners and legend boxes with printed cube icons
    outline = (46, 34, 26)
    for _ in range(int(rng.integers(1, 4))):
        word = str(rng.choice(_WORDS))
        bu, bv = outside_spot(25)
        bwid = len(word) * 4.2 + 8
        x0, y0, x1, y1 = tx(bu - bwid / 2), ty(bv - 5), tx(bu + bwid / 2), ty(bv + 5)
        cv2.rectangle(canvas, ipt(x0, y0), ipt(x1, y1), (226, 212, 176), -1, cv2.LINE_AA)
        cv2.rectangle(canvas, ipt(x0, y0), ipt(x1, y1), outline, max(1, int(0.6 * sc)), cv2.LINE_AA)
        _put_text(canvas, word, tx(bu), ty(bv), 5.0 * sc, outline)
    for _ in range(int(rng.integers(1, 4))):
        bu, bv = outside_spot(20)
        lw, lh = float(rng.uniform(28, 50)), float(rng.uniform(11, 16))
        cv2.rectangle(
            canvas,
            ipt(tx(bu - lw / 2), ty(bv - lh / 2)),
            ipt(tx(bu + lw / 2), ty(bv + lh / 2)),
            (214, 198, 160),
            -1,
            cv2.LINE_AA,
        )
        cv2.rectangle(
            canvas,
            ipt(tx(bu - lw / 2), ty(bv - lh / 2)),
            ipt(tx(bu + lw / 2), ty(bv + lh / 2)),
            outline,
            max(1, int(0.5 * sc)),
            cv2.LINE_AA,
        )
        col = str(rng.choice(COLOURS))
        a = s * float(rng.uniform(0.22, 0.33)) * sc
        _put_text(canvas, str(int(rng.integers(1, 4))), tx(bu - lw / 2 + 5), ty(bv), 5.0 * sc, outline)
        _draw_icon(canvas, tx(bu - lw / 2 + 13), ty(bv), a, col, outline)
        _put_text(canvas, "->", tx(bu + 2), ty(bv), 3.5 * sc, outline, cv2.FONT_HERSHEY_SIMPLEX)
        _draw_icon(canvas, tx(bu + lw / 2 - 9), ty(bv), a, str(rng.choice(COLOURS)), outline)

    # --- the stock-yard panel
    yx0, yy0, yx1, yy1 = tx(0), ty(0), tx(plan.yard_w), ty(plan.yard_h)
    ix0, iy0 = max(0, int(round(yx0))), max(0, int(round(yy0)))
    ix1, iy1 = min(wt, int(round(yx1))), min(ht, int(round(yy1)))
    style = str(rng.choice(["earth", "planks", "parchment", "slate"], p=[0.35, 0.25, 0.25, 0.15]))
    ph, pw = iy1 - iy0, ix1 - ix0
    pnoise = _fractal(rng, ph, pw, 9.0 * sc, octaves=3)
    if style == "earth":
        base = np.array([172, 146, 106]) * rng.uniform(0.85, 1.1, 3)
        panel = base[None, None, :] * (1 + 0.12 * pnoise)[..., None]
        gravel_mask[iy0:iy1, ix0:ix1] = 255
    elif style == "planks":
        base = np.array([150, 110, 72]) * rng.uniform(0.85, 1.15, 3)
        horiz = rng.random() < 0.5
        coord = (np.arange(ph)[:, None] if horiz else np.arange(pw)[None, :]) / sc
        along = (np.arange(pw)[None, :] if horiz else np.arange(ph)[:, None]) / sc
        pwid = float(rng.uniform(10, 22))
        plank = np.floor(coord / pwid)
        tone = 1 + 0.12 * np.sin(plank * 12.9898 + 4.1) * np.sin(plank * 78.233)
        grain = 1 + 0.06 * np.sin(2 * np.pi * (coord * 1.7 + 0.3 * np.sin(along / 7.0 + plank)))
        seam = np.where((coord % pwid) < 0.5, 0.55, 1.0)
        panel = base[None, None, :] * (tone * grain * seam * (1 + 0.06 * pnoise))[..., None]
    elif style == "parchment":
        base = np.array([226, 210, 170]) * rng.uniform(0.92, 1.05, 3)
        yy, xx = np.mgrid[0:ph, 0:pw]
        edge = np.minimum(np.minimum(xx, pw - 1 - xx), np.minimum(yy, ph - 1 - yy)) / sc
        burn = 1 - 0.25 * np.exp(-edge / 6.0)
        panel = base[None, None, :] * ((1 + 0.07 * pnoise) * burn)[..., None]
    else:
        base = np.array([92, 96, 106]) * rng.uniform(0.85, 1.15, 3)
        panel = base[None, None, :] * (1 + 0.18 * pnoise)[..., None]
    canvas[iy0:iy1, ix0:ix1] = np.clip(panel, 0, 255).astype(np.uint8)

    # gravel speckles (paths and earth yards): small painted pebbles, grey and brown
    if gravel_mask.any():
        speck = cv2.GaussianBlur(rng.random((ht, wt)).astype(np.float32), (0, 0), max(0.6, 0.35 * sc))
        thr = float(np.quantile(speck[:: max(1, ht // 200), :: max(1, wt // 200)], 0.88))
        sel = (speck > thr) & (gravel_mask > 0)
        tint = np.where(rng.random((ht, wt)) < 0.5, 0.72, 1.22).astype(np.float32)
        cf = canvas.astype(np.float32)
        cf[sel] = np.clip(cf[sel] * tint[sel][:, None] * np.array([0.98, 0.98, 1.02]), 0, 255)
        canvas = cf.astype(np.uint8)

    ink = outline if style != "slate" else (230, 226, 214)
    lw = max(1, int(round(float(rng.uniform(0.6, 1.8)) * sc)))
    cv2.rectangle(canvas, ipt(yx0, yy0), ipt(yx1, yy1), ink, lw, cv2.LINE_AA)
    if rng.random() < 0.4:
        g = 2.0 * sc
        cv2.rectangle(canvas, ipt(yx0 + g, yy0 + g), ipt(yx1 - g, yy1 - g), ink, max(1, lw // 2), cv2.LINE_AA)
    dashed = rng.random() < 0.35
    for c, (a0, b0, a1, b1) in plan.sections.items():
        # section separators
        for pa, pb in (((a0, b0), (a1, b0)), ((a0, b0), (a0, b1))):
            if pa[0] <= 0.01 and pb[0] <= 0.01 or pa[1] <= 0.01 and pb[1] <= 0.01:
                continue
            pa_t, pb_t = (tx(pa[0]), ty(pa[1])), (tx(pb[0]), ty(pb[1]))
            if dashed:
                n_d = int(max(2, math.hypot(pb_t[0] - pa_t[0], pb_t[1] - pa_t[1]) / (3 * sc)))
                for k in range(0, n_d, 2):
                    t0, t1 = k / n_d, (k + 1) / n_d
                    cv2.line(
                        canvas,
                        ipt(pa_t[0] + (pb_t[0] - pa_t[0]) * t0, pa_t[1] + (pb_t[1] - pa_t[1]) * t0),
                        ipt(pa_t[0] + (pb_t[0] - pa_t[0]) * t1, pa_t[1] + (pb_t[1] - pa_t[1]) * t1),
                        ink,
                        max(1, lw // 2),
                        cv2.LINE_AA,
                    )
            else:
                cv2.line(canvas, ipt(*pa_t), ipt(*pb_t), ink, max(1, lw // 2), cv2.LINE_AA)
        # label and printed cube icons
        label = {"iron": "IRON ORE", "stone": "STONE", "coal": "COAL"}[c]
        cu, cv_ = (a0 + a1) / 2, b0 + (b1 - b0) * float(rng.uniform(0.14, 0.25))
        th = min(4.5, (a1 - a0) / max(len(label), 1) * 1.4)
        _put_text(canvas, label, tx(cu), ty(cv_), th * sc, ink, cv2.FONT_HERSHEY_COMPLEX)
        n_icons = int(rng.integers(1, 4))
        a_icon = s * float(rng.uniform(0.26, 0.4)) * sc
        iv = b0 + (b1 - b0) * float(rng.uniform(0.35, 0.85))
        for k in range(n_icons):
            iu = a0 + (a1 - a0) * (k + 1) / (n_icons + 1)
            _draw_icon(canvas, tx(iu), ty(iv), a_icon, c, outline)
    if plan.strip is not None:
        a0, b0, a1, b1 = plan.strip
        cy = ty((b0 + b1) / 2)
        rr = (b1 - b0) * 0.36 * sc
        cv2.circle(canvas, ipt(tx(a0) + rr * 1.4, cy), int(rr), (150, 40, 34), -1, cv2.LINE_AA)
        _put_text(canvas, "A", tx(a0) + rr * 1.4, cy, rr * 1.1, (245, 240, 230))
        n_sp = int(rng.integers(3, 5))
        for k in range(n_sp):
            cx = tx(a0) + rr * 4.0 + k * rr * 2.6
            if cx + rr > tx(a1) - rr * 6:
                break
            cv2.circle(canvas, ipt(cx, cy), int(rr), (236, 230, 214), -1, cv2.LINE_AA)
            cv2.circle(canvas, ipt(cx, cy), int(rr), ink, max(1, lw // 2), cv2.LINE_AA)
            _put_text(canvas, str(k + 1), cx, cy, rr * 0.9, ink)
        _put_text(canvas, "STOCK YARD", tx(a1) - rr * 3.5, cy, rr * 0.8, ink, cv2.FONT_HERSHEY_DUPLEX)

    # board edge and the table beyond it
    if rng.random() < 0.35:
        side = int(rng.integers(4))
        far = plan.sheets[0].paper + float(rng.uniform(8, 70))
        yy, xx = np.mgrid[0:ht, 0:wt]
        uu = u0 + (xx + 0.5) / sc
        vv = v0 + (yy + 0.5) / sc
        dist = [-far - vv, uu - plan.yard_w - far, vv - plan.yard_h - far, -far - uu][side]
        table = dist > 0
        if table.any():
            if rng.random() < 0.6:
                wood = np.array([120, 80, 48]) * rng.uniform(0.7, 1.2)
                along = uu if side in (0, 2) else vv
                across = vv if side in (0, 2) else uu
                warp = cv2.resize(_fractal(rng, ht // 8 + 1, wt // 8 + 1, 6.0 * sc, octaves=3), (wt, ht))
                ph = across * float(rng.uniform(0.25, 0.5)) + 2.2 * warp + 0.6 * np.sin(along * 0.013)
                gr = 1 + 0.1 * np.sin(ph) ** 3 + 0.05 * np.sin(ph * 5.3) + 0.04 * warp
                tex = wood[None, None, :] * gr[..., None]
            else:
                cloth = np.array(rng.choice([[180, 40, 40], [40, 70, 120], [200, 196, 186], [60, 90, 60]]), float)
                weave = 1 + 0.05 * np.sin(uu * 8.0) * np.sin(vv * 8.0)
                tex = cloth[None, None, :] * weave[..., None]
            cf = canvas.astype(np.float32)
            cf[table] = tex[table]
            rim = (dist > -1.6) & (dist <= 0)
            cf[rim] = cf[rim] * 0.25 + np.array([20, 24, 36]) * 0.75
            canvas = np.clip(cf, 0, 255).astype(np.uint8)

    # card-stock grain
    grain = _fractal(rng, ht, wt, 0.8 * sc, octaves=2)
    canvas = np.clip(canvas.astype(np.float32) * (1 + 0.025 * grain)[..., None], 0, 255).astype(np.uint8)

    # --- marker papers
    dic = cv2.aruco.getPredefinedDictionary(_ARUCO_DICT)
    paper = np.array([rng.uniform(238, 250), rng.uniform(238, 250), rng.uniform(232, 250)])
    ink_m = float(rng.uniform(18, 36))
    for sh in plan.sheets:
        corners = sh.paper_rect().corners()
        ppts = np.round(((corners - np.array([u0, v0])) * sc - 0.5) * 16).astype(np.int32)
        cv2.fillPoly(canvas, [ppts], tuple(float(c) for c in paper), cv2.LINE_AA, 4)
        cv2.polylines(canvas, [ppts], True, tuple(float(c) * 0.8 for c in paper), 1, cv2.LINE_AA, 4)
        ppc = max(4, int(math.ceil(sh.marker / 6 * sc)))
        side = 6 * ppc
        mk = cv2.aruco.generateImageMarker(dic, sh.marker_id, side, borderBits=1)
        mk = np.ascontiguousarray(np.rot90(mk, k=sh.quarter))
        kscale = sh.marker * sc / side
        cth, sth = math.cos(sh.ang), math.sin(sh.ang)
        a_mat = kscale * np.array([[cth, -sth], [sth, cth]])
        ctr = np.array([(sh.u - u0) * sc - 0.5, (sh.v - v0) * sc - 0.5])
        b = ctr - a_mat @ np.array([(side - 1) / 2, (side - 1) / 2])
        mc = (sh.marker_rect().corners() - np.array([u0, v0])) * sc - 0.5
        bx0 = max(0, int(mc[:, 0].min()) - 3)
        by0 = max(0, int(mc[:, 1].min()) - 3)
        bx1 = min(wt, int(mc[:, 0].max()) + 4)
        by1 = min(ht, int(mc[:, 1].max()) + 4)
        if bx1 <= bx0 or by1 <= by0:
            continue
        m_aff = np.hstack([a_mat, (b - np.array([bx0, by0])).reshape(2, 1)]).astype(np.float64)
        warped = cv2.warpAffine(
            mk, m_aff, (bx1 - bx0, by1 - by0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=255
        )
        inkw = (1.0 - warped.astype(np.float32) / 255.0)[..., None]
        patch = canvas[by0:by1, bx0:bx1].astype(np.float32)
        canvas[by0:by1, bx0:bx1] = np.clip(patch * (1 - inkw) + ink_m * inkw, 0, 255).astype(np.uint8)
    return canvas


# ----------------------------------------------------------------------------------------------------
# hand geometry


@dataclass(frozen=True)
class _Prim:
    kind: str  # "cone" (rounded cone) or "ell" (ellipsoid)
    a: Arr
    b: Arr
    ra: float
    rb: float
    axes: Arr  # ellipsoid axes (columns) for "ell"
    radii: Arr
    material: str  # skin, sleeve
    tip: bool = False  # distal finger segment (gets a nail)
    up: Arr = field(default_factory=lambda: np.array([0.0, 0.0, -1.0]))


@dataclass(frozen=True)
class _Hand:
    prims: tuple[_Prim, ...]
    skin: Arr  # linear albedo
    sleeve: Arr
    sleeve_stripes: float
    height: float  # typical height of the hand above the board (mm)


def _cone_hit(ro: Arr, rd: Arr, pa: Arr, pb: Arr, ra: float, rb: float) -> tuple[Arr, Arr]:
    """Ray / rounded-cone intersection (after Inigo Quilez).  Returns (t, normal); t = inf for misses."""
    ba = pb - pa
    oa = ro - pa
    ob = ro - pb
    rr = ra - rb
    m0 = float(ba @ ba)
    m1 = oa @ ba
    m2 = rd @ ba
    m3 = np.einsum("ij,ij->i", rd, oa)
    m5 = np.einsum("ij,ij->i", oa, oa)
    m6 = np.einsum("ij,ij->i", ob, rd)
    m7 = np.einsum("ij,ij->i", ob, ob)
    d2 = m0 - rr * rr
    k2 = d2 - m2 * m2
    k1 = d2 * m3 - m1 * m2 + m2 * rr * ra
    k0 = d2 * m5 - m1 * m1 + m1 * rr * ra * 2.0 - m0 * ra * ra
    h = k1 * k1 - k0 * k2
    ok = h >= 0
    k2s = np.where(np.abs(k2) > 1e-9, k2, 1e-9)
    t_body = (-np.sqrt(np.where(ok, h, 0.0)) - k1) / k2s
    y = m1 - ra * rr + t_body * m2
    body = ok & (y > 0) & (y < d2) & (t_body > 0)
    h1 = m3 * m3 - m5 + ra * ra
    h2 = m6 * m6 - m7 + rb * rb
    t1 = np.where(h1 > 0, -m3 - np.sqrt(np.maximum(h1, 0.0)), np.inf)
    t2 = np.where(h2 > 0, -m6 - np.sqrt(np.maximum(h2, 0.0)), np.inf)
    t1 = np.where(t1 > 0, t1, np.inf)
    t2 = np.where(t2 > 0, t2, np.inf)
    use2 = t2 < t1
    t_cap = np.where(use2, t2, t1)
    t = np.where(body, t_body, np.where(ok, t_cap, np.inf))
    tf = np.where(np.isfinite(t), t, 0.0)
    p_oa = oa + tf[:, None] * rd
    with np.errstate(invalid="ignore"):
        n_body = _unit(d2 * p_oa - ba[None, :] * y[:, None])
        n_cap = np.where(use2[:, None], (ob + tf[:, None] * rd) / rb, p_oa / ra)
    n = np.where(body[:, None], n_body, n_cap)
    return t, n


def _ell_hit(ro: Arr, rd: Arr, centre: Arr, axes: Arr, radii: Arr) -> tuple[Arr, Arr]:
    ol = ((ro - centre) @ axes) / radii
    dl = (rd @ axes) / radii
    a = np.sum(dl * dl, axis=-1)
    b = np.sum(ol * dl, axis=-1)
    c = np.sum(ol * ol, axis=-1) - 1.0
    h = b * b - a * c
    t = np.where(h > 0, (-b - np.sqrt(np.maximum(h, 0.0))) / a, np.inf)
    t = np.where(t > 0, t, np.inf)
    pl = ol + np.where(np.isfinite(t), t, 0.0)[:, None] * dl
    n = _unit((pl / radii) @ axes.T + 1e-12)
    return t, n


def _prim_hit(p: _Prim, ro: Arr, rd: Arr) -> tuple[Arr, Arr]:
    """Hit distance (inf for a miss) and normal; rays far from the bounding sphere are skipped cheaply."""
    if p.kind == "cone":
        centre = 0.5 * (p.a + p.b)
        radius = 0.5 * float(np.linalg.norm(p.b - p.a)) + max(p.ra, p.rb)
    else:
        centre = p.a
        radius = float(p.radii.max())
    oc = centre - ro
    tca = np.einsum("ij,ij->i", oc, rd)
    d2 = np.einsum("ij,ij->i", oc, oc) - tca * tca
    cand = np.nonzero((d2 <= radius * radius) & (tca > -radius))[0]
    t = np.full(ro.shape[0], np.inf)
    n = np.zeros((ro.shape[0], 3))
    if cand.size == 0:
        return t, n
    if p.kind == "cone":
        tc, nc = _cone_hit(ro[cand], rd[cand], p.a, p.b, p.ra, p.rb)
    else:
        tc, nc = _ell_hit(ro[cand], rd[cand], p.a, p.axes, p.radii)
    t[cand] = tc
    n[cand] = nc
    return t, n


_SKIN = [(238, 200, 176), (226, 184, 150), (200, 150, 112), (168, 116, 82), (120, 80, 56), (92, 62, 46)]
_SLEEVES = [
    (40, 52, 86),
    (70, 70, 74),
    (26, 26, 30),
    (150, 36, 40),
    (60, 96, 62),
    (214, 208, 194),
    (82, 110, 150),
    (196, 150, 60),
]


def _make_hand(rng: np.random.Generator, plan: _Plan, intr: _Intr, pose: _Pose, rays: Arr) -> _Hand:
    s = plan.cube
    sc = float(rng.uniform(0.88, 1.1))
    # where the arm enters the picture
    edge = int(rng.choice(4, p=[0.3, 0.3, 0.2, 0.2]))
    f = float(rng.uniform(0.12, 0.88))
    px = [
        (f * (FRAME_W - 1), 0.0),
        (f * (FRAME_W - 1), FRAME_H - 1.0),
        (0.0, f * (FRAME_H - 1)),
        (FRAME_W - 1.0, f * (FRAME_H - 1)),
    ][edge]
    d_c = rays[int(px[1]), int(px[0])].astype(np.float64)
    d_w = pose.R.T @ d_c
    t = -pose.C[2] / max(d_w[2], 1e-3)
    entry = pose.C + t * d_w
    tip = np.array([float(rng.uniform(0.1, 0.9)) * plan.yard_w, float(rng.uniform(0.1, 0.9)) * plan.yard_h, 0.0])
    back = entry - tip
    back[2] = 0.0
    if np.linalg.norm(back) < 1:
        back = np.array([1.0, 0.0, 0.0])
    back = _unit(back)
    up = np.array([0.0, 0.0, -1.0])
    pitch = math.radians(float(rng.uniform(5, 28)))
    fwd = _unit(-back * math.cos(pitch) - up * math.sin(pitch))
    lat = _unit(np.cross(up, fwd))
    palm_n = _unit(np.cross(fwd, lat))
    if palm_n[2] < 0:
        palm_n = -palm_n
    roll = math.radians(float(rng.uniform(-25, 25)))
    rm = _rot(fwd, roll)
    lat, palm_n = rm @ lat, rm @ palm_n
    side = 1.0 if rng.random() < 0.5 else -1.0  # handedness: thumb side

    lp, wp, tp = 92 * sc, 82 * sc, 26 * sc
    fl = np.array([72, 80, 75, 60]) * sc
    fr = np.array([9.2, 9.6, 9.0, 8.0]) * sc
    h_tip = float(rng.uniform(22, 70))
    wrist = tip + np.array([0, 0, -h_tip]) - fwd * (lp + 0.75 * fl[1])
    prims: list[_Prim] = []
    ey = np.eye(3)

    def cone(
        a: Arr, b: Arr, ra: float, rb: float, mat: str = "skin", is_tip: bool = False, upv: Arr | None = None
    ) -> None:
        prims.append(_Prim("cone", a, b, ra, rb, ey, np.ones(3), mat, is_tip, -palm_n if upv is None else upv))

    palm_c = wrist + fwd * (lp * 0.5) + palm_n * 2.0
    prims.append(
        _Prim(
            "ell",
            palm_c,
            palm_c,
            0,
            0,
            np.column_stack([fwd, lat, palm_n]),
            np.array([lp * 0.55, wp * 0.5, tp * 0.5]),
            "skin",
            False,
            -palm_n,
        )
    )
    spread = math.radians(float(rng.uniform(0, 22)))
    curls = rng.uniform(5, 40, 4)
    for i, xi in enumerate((0.72, 0.24, -0.24, -0.72)):
        k = wrist + fwd * (lp * (0.98 - 0.06 * abs(i - 1.2))) + lat * (side * xi * wp / 2)
        d0 = _rot(palm_n, -side * xi * spread) @ fwd
        seg = [0.45, 0.3, 0.25]
        p = k
        bend = 0.0
        r0 = fr[i]
        for j, frac in enumerate(seg):
            bend += math.radians(float(curls[i]) * (0.6 + 0.4 * j))
            dj = _unit(d0 * math.cos(bend) + palm_n * math.sin(bend))
            q = p + dj * fl[i] * frac
            cone(p, q, r0 * (1 - 0.08 * j), r0 * (1 - 0.08 * (j + 1)), is_tip=(j == 2))
            p = q
    # thumb
    tb = wrist + fwd * (lp * 0.22) + lat * (side * wp * 0.42) + palm_n * 6
    td = _unit(fwd * 0.5 + lat * side * 0.75 + palm_n * 0.28)
    t1 = tb + td * 42 * sc
    td2 = _unit(td + fwd * 0.5)
    cone(tb, t1, 12 * sc, 10 * sc)
    cone(t1, t1 + td2 * 30 * sc, 10 * sc, 8.5 * sc, is_tip=True)
    # forearm (and a sleeve)
    beta = math.radians(float(rng.uniform(10, 32)))
    arm_dir = _unit(back * math.cos(beta) + up * math.sin(beta))
    lf = 260 * sc
    elbow = wrist + arm_dir * lf
    cam_h = -float(pose.C[2])
    if -elbow[2] > 0.62 * cam_h:  # keep the elbow well below the camera
        lf *= max(0.35, (0.62 * cam_h - (-wrist[2])) / max(-(elbow[2] - wrist[2]), 1.0))
        elbow = wrist + arm_dir * lf
    cone(wrist + fwd * 8, wrist - arm_dir * 4, 24 * sc, 25 * sc)
    sleeve = rng.random() < 0.65
    s_frac = float(rng.uniform(0.05, 0.6))
    if sleeve:
        sp = wrist + arm_dir * (lf * s_frac)
        cone(wrist, sp + arm_dir * 5, 25 * sc, (25 + 11 * s_frac) * sc)
        cone(sp, elbow + arm_dir * 30, (31 + 11 * s_frac) * sc, 44 * sc, "sleeve")
    else:
        cone(wrist, elbow, 25 * sc, 36 * sc)
    # the upper arm carries on outwards (out of the picture), never climbing near the camera
    lu = 320 * sc
    room = (0.7 * cam_h - (-float(elbow[2]))) / lu
    b2 = math.asin(float(np.clip(room, 0.0, math.sin(math.radians(float(rng.uniform(0, 25)))))))
    shoulder = elbow + _unit(back * math.cos(b2) + up * math.sin(b2)) * lu
    cone(elbow, shoulder, 40 * sc, 48 * sc, "sleeve" if (sleeve or rng.random() < 0.5) else "skin")
    # keep every part clear of the cubes
    low = max(float(pr.a[2] + (pr.ra if pr.kind == "cone" else pr.radii.max())) for pr in prims)
    low = max([low] + [float(pr.b[2] + pr.rb) for pr in prims if pr.kind == "cone"])
    lift = low - (-(s + 4.0))
    if lift > 0:
        shift = np.array([0.0, 0.0, -lift])
        prims = [
            _Prim(pr.kind, pr.a + shift, pr.b + shift, pr.ra, pr.rb, pr.axes, pr.radii, pr.material, pr.tip, pr.up)
            for pr in prims
        ]
    ti = float(rng.uniform(0, 1))
    idx = min(int(ti * (len(_SKIN) - 1)), len(_SKIN) - 2)
    fr_ = ti * (len(_SKIN) - 1) - idx
    skin_srgb = np.array(_SKIN[idx]) * (1 - fr_) + np.array(_SKIN[idx + 1]) * fr_
    skin = _lin(np.clip(skin_srgb * rng.uniform(0.95, 1.05, 3), 0, 255))
    slv = _lin(np.array(_SLEEVES[int(rng.integers(len(_SLEEVES)))]) * rng.uniform(0.85, 1.1))
    stripes = float(rng.uniform(4, 12)) if rng.random() < 0.25 else 0.0
    height = float(np.mean([-(pr.a[2]) for pr in prims]))
    return _Hand(tuple(prims), skin, slv, stripes, height)


# ----------------------------------------------------------------------------------------------------
# rendering


@dataclass
class _Ctx:
    plan: _Plan
    intr: _Intr
    rays: Arr
    tex: Arr
    ext: tuple[float, float, float, float]
    tex_sc: float
    g_sc: float
    g_shape: tuple[int, int]
    h_sc: float
    h_shape: tuple[int, int]
    cube_alb: list[Arr]
    cube_mat: list[dict[str, Any]]
    bevel: float
    wood: Arr
    board_gloss: tuple[float, float]
    neighbours: list[list[int]]
    ao_board: Arr
    vignette: Arr
    hand_maps: tuple[Arr, Arr, Arr] | None = None


def _grid_uv(ext: tuple[float, float, float, float], sc: float, shape: tuple[int, int]) -> tuple[Arr, Arr]:
    u = ext[0] + (np.arange(shape[1], dtype=np.float32) + 0.5) / sc
    v = ext[1] + (np.arange(shape[0], dtype=np.float32) + 0.5) / sc
    return np.meshgrid(u, v)


def _cube_corners(c: _Cube, s: float) -> Arr:
    h = s / 2
    ca, sa = math.cos(c.ang), math.sin(c.ang)
    pts = []
    for z in (0.0, -s):
        for x, y in ((-h, -h), (h, -h), (h, h), (-h, h)):
            pts.append((c.u + ca * x - sa * y, c.v + sa * x + ca * y, z))
    return np.array(pts)


def _shadow_polys(ctx: _Ctx, lights: _Lights, point: bool) -> Arr:
    """Mask (E-grid) of the cubes' cast shadows for the lamp (point=True) or the window."""
    mask = np.zeros(ctx.g_shape, np.float32)
    s = ctx.plan.cube
    for c in ctx.plan.cubes:
        v = _cube_corners(c, s)
        if point:
            lp = lights.lamp_pos
            k = lp[2] / (lp[2] - v[:, 2])
            proj = lp[None, :2] + (v[:, :2] - lp[None, :2]) * k[:, None]
        else:
            d = lights.win_dir
            proj = v[:, :2] - d[None, :2] * (v[:, 2] / d[2])[:, None]
        g = (proj - np.array(ctx.ext[:2])) * ctx.g_sc - 0.5
        hull = cv2.convexHull(np.round(g * 16).astype(np.int32))
        cv2.fillPoly(mask, [hull], 1.0, cv2.LINE_AA, 4)
    return mask


@dataclass
class _BoardLight:
    amb: Arr  # AO factor (E-grid)
    win_s: Arr  # window visibility
    lamp_g: Arr  # lamp fall-off * visibility * incidence cos


def _board_light(ctx: _Ctx, lights: _Lights, cubes: bool) -> _BoardLight:
    uu, vv = _grid_uv(ctx.ext, ctx.g_sc, ctx.g_shape)
    s = ctx.plan.cube
    ones = np.ones(ctx.g_shape, np.float32)
    amb = ctx.ao_board if cubes else ones
    win_s = ones
    if cubes and lights.win_on:
        m = _shadow_polys(ctx, lights, False)
        sig = (0.5 * s * math.tan(lights.win_soft) + 0.25) * ctx.g_sc
        win_s = 1.0 - cv2.GaussianBlur(m, (0, 0), sig)
    lamp_g = np.zeros(ctx.g_shape, np.float32)
    if lights.lamp_on:
        p = np.stack([uu, vv, np.zeros_like(uu)], axis=-1).astype(np.float64)
        ldir, _dist, g = lights.lamp_gain(p)
        lamp_g = (g * np.maximum(-ldir[..., 2], 0.0)).astype(np.float32)
        if cubes:
            m = _shadow_polys(ctx, lights, True)
            hgt = -float(lights.lamp_pos[2])
            sig = (0.5 * s * lights.lamp_radius / max(hgt - s, 50.0) + 0.2) * ctx.g_sc
            lamp_g = lamp_g * (1.0 - cv2.GaussianBlur(m, (0, 0), sig))
    return _BoardLight(amb.astype(np.float32), win_s.astype(np.float32), lamp_g.astype(np.float32))


def _hand_maps(ctx: _Ctx, lights: _Lights, hand: _Hand) -> tuple[Arr, Arr, Arr]:
    """Hand shadow factors on a coarse board grid: (sky, window, lamp); exactly 1.0 where unaffected."""
    uu, vv = _grid_uv(ctx.ext, ctx.h_sc, ctx.h_shape)
    ro_all = np.stack([uu.ravel(), vv.ravel(), np.zeros(uu.size, np.float32)], axis=1).astype(np.float64)
    bpts = []
    for pr in hand.prims:
        rmax = max(pr.ra, pr.rb) if pr.kind == "cone" else float(pr.radii.max())
        for c in [pr.a, pr.b] if pr.kind == "cone" else [pr.a]:
            bpts.append(c[None, :] + rmax * np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]))
    bp = np.concatenate(bpts)

    def blocked(mode: str) -> Arr:
        if mode == "sky":
            proj = bp[:, :2]
        elif mode == "win":
            dw = lights.win_dir
            proj = bp[:, :2] - dw[None, :2] * (bp[:, 2] / dw[2])[:, None]
        else:
            lp = lights.lamp_pos
            k = lp[2] / np.minimum(lp[2] - bp[:, 2], -1.0)
            proj = lp[None, :2] + (bp[:, :2] - lp[None, :2]) * k[:, None]
        lo = proj.min(axis=0) - 2.0
        hi = proj.max(axis=0) + 2.0
        sel = np.nonzero(
            (ro_all[:, 0] >= lo[0]) & (ro_all[:, 0] <= hi[0]) & (ro_all[:, 1] >= lo[1]) & (ro_all[:, 1] <= hi[1])
        )[0]
        out = np.zeros(ro_all.shape[0], np.float32)
        if sel.size:
            ro = ro_all[sel]
            tmax: Arr | None = None
            if mode == "sky":
                rd = np.broadcast_to(np.array([0.0, 0.0, -1.0]), ro.shape)
            elif mode == "win":
                rd = np.broadcast_to(lights.win_dir, ro.shape)
            else:
                lv = lights.lamp_pos[None, :] - ro
                tmax = np.linalg.norm(lv, axis=1)
                rd = lv / tmax[:, None]
            hit = np.zeros(sel.size, bool)
            for p in hand.prims:
                t, _n = _prim_hit(p, ro, rd)
                hit |= np.isfinite(t) if tmax is None else (t < tmax)
            out[sel] = hit
        return out.reshape(ctx.h_shape)

    hgt = max(hand.height, 20.0)
    sky = 1.0 - 0.4 * cv2.GaussianBlur(blocked("sky"), (0, 0), max(0.8, 0.3 * hgt * ctx.h_sc))
    win = np.ones(ctx.h_shape, np.float32)
    if lights.win_on:
        win = 1.0 - cv2.GaussianBlur(
            blocked("win"), (0, 0), max(0.8, (math.tan(lights.win_soft) * hgt + 1.0) * ctx.h_sc)
        )
    lamp = np.ones(ctx.h_shape, np.float32)
    if lights.lamp_on:
        lh = -float(lights.lamp_pos[2])
        sig = lights.lamp_radius * hgt / max(lh - hgt, 40.0) + 1.0
        lamp = 1.0 - cv2.GaussianBlur(blocked("lamp"), (0, 0), max(0.8, sig * ctx.h_sc))
    return _snap_one(sky), _snap_one(win), _snap_one(lamp)


def _sample_h(ctx: _Ctx, m: Arr, u: Arr, v: Arr) -> Arr:
    out = _bilinear(m, (u - ctx.ext[0]) * ctx.h_sc - 0.5, (v - ctx.ext[1]) * ctx.h_sc - 0.5)
    return np.where(out > _SNAP, 1.0, out)


def _box_hit(o: Arr, d: Arr, h: float) -> tuple[Arr, Arr]:
    """Slab test against the axis-aligned box [-h, h]^3 in local coordinates; (t_near, hit)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / np.where(np.abs(d) > 1e-12, d, 1e-12)
        t1 = (-h - o) * inv
        t2 = (h - o) * inv
    tmin = np.max(np.minimum(t1, t2), axis=-1)
    tmax = np.min(np.maximum(t1, t2), axis=-1)
    return tmin, tmax >= np.maximum(tmin, 0.0)


def _to_local(c: _Cube, s: float, p: Arr) -> Arr:
    ca, sa = math.cos(c.ang), math.sin(c.ang)
    x = p[..., 0] - c.u
    y = p[..., 1] - c.v
    z = p[..., 2] + s / 2
    return np.stack([ca * x + sa * y, -sa * x + ca * y, z], axis=-1)


def _dir_local(c: _Cube, d: Arr) -> Arr:
    ca, sa = math.cos(c.ang), math.sin(c.ang)
    return np.stack([ca * d[..., 0] + sa * d[..., 1], -sa * d[..., 0] + ca * d[..., 1], d[..., 2]], axis=-1)


def _rbox_sdf(p: Arr, h: float, r: float) -> Arr:
    q = np.abs(p) - (h - r)
    out = np.linalg.norm(np.maximum(q, 0.0), axis=-1) + np.minimum(np.max(q, axis=-1), 0.0) - r
    return out


def _render(
    ctx: _Ctx, pose: _Pose, lights: _Lights, cubes: bool, hand: _Hand | None, bl: _BoardLight
) -> tuple[Arr, Arr, Arr | None]:
    """Linear-RGB radiance of one frame, an id buffer (0 board, 1 cube, 2 hand), and the hand-shadow factor."""
    R = pose.R.astype(np.float32)
    C = pose.C
    d = ctx.rays @ R
    t_b = (-C[2] / d[..., 2]).astype(np.float32)
    bu = (C[0] + t_b * d[..., 0]).astype(np.float32)
    bv = (C[1] + t_b * d[..., 1]).astype(np.float32)
    u0, v0 = ctx.ext[0], ctx.ext[1]
    mx = (bu - u0) * ctx.tex_sc - 0.5
    my = (bv - v0) * ctx.tex_sc - 0.5
    alb8 = cv2.remap(ctx.tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    alb = _LIN_LUT[alb8]

    hm = ctx.hand_maps if hand is not None else None
    amb_f, win_f, lamp_f = bl.amb, bl.win_s, bl.lamp_g
    hand_fac: Arr | None = None
    if hm is not None:
        up = [cv2.resize(m, (ctx.g_shape[1], ctx.g_shape[0]), interpolation=cv2.INTER_LINEAR) for m in hm]
        up = [_snap_one(m) for m in up]
        amb_f = amb_f * up[0]
        win_f = win_f * up[1]
        lamp_f = lamp_f * up[2]
        worst = np.minimum(np.minimum(up[0], up[1] if lights.win_on else 1.0), up[2] if lights.lamp_on else 1.0)
    cos_w = max(-float(lights.win_dir[2]), 0.0)
    e_grid = amb_f[..., None] * lights.amb.astype(np.float32)
    if lights.win_on:
        e_grid = e_grid + (win_f * cos_w)[..., None] * lights.win.astype(np.float32)
    if lights.lamp_on:
        e_grid = e_grid + lamp_f[..., None] * lights.lamp.astype(np.float32)
    gx = (bu - u0) * ctx.g_sc - 0.5
    gy = (bv - v0) * ctx.g_sc - 0.5
    e_img = cv2.remap(e_grid.astype(np.float32), gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    rad = alb * e_img
    if hm is not None:
        hand_fac = cv2.remap(worst.astype(np.float32), gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if lights.lamp_on:
        # soft glare of the lamp on the semi-gloss print, computed on a coarse image grid
        ks, ex = ctx.board_gloss
        step = 8
        su, sv = bu[::step, ::step].astype(np.float64), bv[::step, ::step].astype(np.float64)
        p = np.stack([su, sv, np.zeros_like(su)], axis=-1)
        ldir, _dist, _g = lights.lamp_gain(p)
        vdir = _unit(C - p)
        hv = _unit(ldir + vdir)
        spec = ks * np.maximum(-hv[..., 2], 0.0) ** ex
        spec_img = cv2.resize(spec.astype(np.float32), (FRAME_W, FRAME_H), interpolation=cv2.INTER_LINEAR)
        lamp_img = cv2.remap(lamp_f, gx, gy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        rad = rad + (spec_img * lamp_img)[..., None] * lights.lamp.astype(np.float32)

    ids = np.zeros((FRAME_H, FRAME_W), np.uint8)
    zbuf = t_b.copy()
    if cubes:
        _draw_cubes(ctx, pose, lights, d, rad, ids, zbuf, hm)
    if hand is not None:
        _draw_hand(ctx, pose, lights, hand, d, rad, ids, zbuf)
    return rad, ids, hand_fac


def _bbox(ctx: _Ctx, pose: _Pose, pts: Arr, pad: int = 2) -> tuple[int, int, int, int] | None:
    px, z = _project(ctx.intr, pose, pts)
    if np.any(z < 5.0):
        return 0, 0, FRAME_W, FRAME_H
    x0 = max(0, int(math.floor(px[:, 0].min())) - pad)
    y0 = max(0, int(math.floor(px[:, 1].min())) - pad)
    x1 = min(FRAME_W, int(math.ceil(px[:, 0].max())) + pad + 1)
    y1 = min(FRAME_H, int(math.ceil(px[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _draw_cubes(
    ctx: _Ctx, pose: _Pose, lights: _Lights, d: Arr, rad: Arr, ids: Arr, zbuf: Arr, hm: tuple[Arr, Arr, Arr] | None
) -> None:
    plan = ctx.plan
    s = plan.cube
    h = s / 2
    r = ctx.bevel
    C = pose.C.astype(np.float64)
    up = np.array([0.0, 0.0, -1.0])
    for i, c in enumerate(plan.cubes):
        bb = _bbox(ctx, pose, _cube_corners(c, s))
        if bb is None:
            continue
        x0, y0, x1, y1 = bb
        dd = d[y0:y1, x0:x1].reshape(-1, 3).astype(np.float64)
        o = _to_local(c, s, C[None, :])[0]
        dl = _dir_local(c, dd)
        tmin, hit = _box_hit(o[None, :], dl, h)
        if not hit.any():
            continue
        idx = np.nonzero(hit)[0]
        dl = dl[idx]
        t = np.maximum(tmin[idx], 0.0)
        for _ in range(7):
            p = o + t[:, None] * dl
            t = t + _rbox_sdf(p, h, r)
        p = o + t[:, None] * dl
        ok = _rbox_sdf(p, h, r) < 0.03
        zsub = zbuf[y0:y1, x0:x1].reshape(-1)
        ok &= t < zsub[idx]
        if not ok.any():
            continue
        idx, t, p = idx[ok], t[ok], p[ok]
        dw = dd[idx]
        q = np.abs(p) - (h - r)
        qp = np.maximum(q, 0.0)
        nl = np.sign(p) * qp
        nl = _unit(nl + 1e-9)
        ca, sa = math.cos(c.ang), math.sin(c.ang)
        nw = np.stack([ca * nl[:, 0] - sa * nl[:, 1], sa * nl[:, 0] + ca * nl[:, 1], nl[:, 2]], axis=1)
        pw = C[None, :] + t[:, None] * dw
        mat = ctx.cube_mat[i]
        # albedo: batch colour, wood rings, uneven paint, worn edges
        ring_r = np.sqrt((p[:, 1] - mat["y0"]) ** 2 + (p[:, 2] - mat["z0"]) ** 2) + mat["wob"] * np.sin(
            p[:, 0] * mat["wob_f"] + mat["ph"]
        )
        g = (0.5 + 0.5 * np.sin(2 * np.pi * ring_r / mat["ring"])) ** 3
        paint = 1 + mat["paint"] * np.sin(p @ mat["k1"] + mat["p1"]) * np.sin(p @ mat["k2"] + mat["p2"])
        alb = ctx.cube_alb[i][None, :] * ((1 - mat["grain"] * g) * paint)[:, None]
        on_edge = (np.sum(q > 0, axis=1) >= 2).astype(np.float64)
        wear = on_edge * mat["wear"] * (0.5 + 0.5 * np.sin(p @ mat["k3"] + mat["p3"]))
        alb = alb * (1 - wear[:, None]) + ctx.wood[None, :] * wear[:, None]
        # ambient occlusion: ground plane and touching neighbours
        ao = np.ones(len(idx))
        for dk, wk in ((0.45, 0.34), (1.1, 0.3), (2.4, 0.22)):
            dk = dk * s / 9.0
            qs = pw + nw * dk
            sd = -qs[:, 2]
            for j in ctx.neighbours[i]:
                sd = np.minimum(sd, _rbox_sdf(_to_local(plan.cubes[j], s, qs), h, r))
            ao -= wk * np.clip((dk - sd) / dk, 0.0, 1.0)
        ao = np.clip(ao, 0.18, 1.0)
        n_up = nw @ up
        e = lights.amb[None, :] * ((0.6 + 0.4 * n_up) * ao)[:, None]
        if hm is not None:
            e = e * _sample_h(ctx, hm[0], pw[:, 0], pw[:, 1])[:, None]
        vdir = -dw
        spec = np.zeros((len(idx), 3))

        def shadowed(origin: Arr, ldir: Arr, tmax: Arr | None, i: int = i) -> Arr:
            blocked = np.zeros(len(origin), bool)
            for j in ctx.neighbours[i]:
                cj = plan.cubes[j]
                oj = _to_local(cj, s, origin)
                dj = _dir_local(cj, ldir)
                tm, hj = _box_hit(oj, dj, h - 0.3 * r)
                hj &= tm > 0
                if tmax is not None:
                    hj &= tm < tmax
                blocked |= hj
            return blocked

        org = pw + nw * 0.02
        if lights.win_on:
            lw = lights.win_dir
            ndl = np.maximum(nw @ lw, 0.0)
            vis = (~shadowed(org, np.broadcast_to(lw, org.shape), None)).astype(np.float64)
            if hm is not None:
                proj = pw - lw[None, :] * (pw[:, 2] / lw[2])[:, None]
                vis = vis * _sample_h(ctx, hm[1], proj[:, 0], proj[:, 1])
            e = e + lights.win[None, :] * (ndl * vis * (0.45 + 0.55 * ao))[:, None]
            hv = _unit(lw[None, :] + vdir)
            spec += (
                lights.win[None, :]
                * (mat["ks"] * np.maximum(np.sum(nw * hv, 1), 0) ** mat["ex"] * vis * (ndl > 0))[:, None]
            )
        if lights.lamp_on:
            ldir, dist, gain = lights.lamp_gain(pw)
            ndl = np.maximum(np.sum(nw * ldir, 1), 0.0)
            vis = (~shadowed(org, ldir, dist)).astype(np.float64)
            if hm is not None:
                lp = lights.lamp_pos
                k = lp[2] / (lp[2] - pw[:, 2])
                proj = lp[None, :2] + (pw[:, :2] - lp[None, :2]) * k[:, None]
                vis = vis * _sample_h(ctx, hm[2], proj[:, 0], proj[:, 1])
            e = e + lights.lamp[None, :] * (gain * ndl * vis)[:, None]
            hv = _unit(ldir + vdir)
            spec += (
                lights.lamp[None, :]
                * (mat["ks"] * np.maximum(np.sum(nw * hv, 1), 0) ** mat["ex"] * vis * gain * (ndl > 0))[:, None]
            )
        col = alb * e + spec
        _store(rad, zbuf, ids, (y0, y1, x0, x1), idx, col, t, zsub, 1)


def _store(rad: Arr, zbuf: Arr, ids: Arr, box: tuple[int, int, int, int], idx: Arr, col: Arr, t: Arr, zsub: Arr,
           label: int) -> None:
    """Write the shaded pixels `idx` of a box (their colour, depth and what they show) into the buffers."""
    y0, y1, x0, x1 = box
    sub = rad[y0:y1, x0:x1].reshape(-1, 3)
    sub[idx] = col.astype(np.float32)
    rad[y0:y1, x0:x1] = sub.reshape(y1 - y0, x1 - x0, 3)
    zsub[idx] = t.astype(np.float32)
    zbuf[y0:y1, x0:x1] = zsub.reshape(y1 - y0, x1 - x0)
    isub = ids[y0:y1, x0:x1].reshape(-1)
    isub[idx] = label
    ids[y0:y1, x0:x1] = isub.reshape(y1 - y0, x1 - x0)


def _draw_hand(ctx: _Ctx, pose: _Pose, lights: _Lights, hand: _Hand, d: Arr, rad: Arr, ids: Arr, zbuf: Arr) -> None:
    C = pose.C.astype(np.float64)
    up = np.array([0.0, 0.0, -1.0])
    for pr in hand.prims:
        if pr.kind == "cone":
            rmax = max(pr.ra, pr.rb)
            cen = [pr.a, pr.b]
        else:
            rmax = float(pr.radii.max())
            cen = [pr.a]
        offs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * rmax
        pts = np.concatenate([c[None, :] + offs for c in cen])
        bb = _bbox(ctx, pose, pts, pad=3)
        if bb is None:
            continue
        x0, y0, x1, y1 = bb
        # only the pixels inside the projected hull of the primitive's bounding boxes are traced
        px, z = _project(ctx.intr, pose, pts)
        cand = np.ones((y1 - y0) * (x1 - x0), bool)
        if np.all(z > 5.0):
            hull = cv2.convexHull(np.round((px - np.array([x0, y0])) * 16).astype(np.int32))
            hmask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(hmask, [hull], 1, cv2.LINE_8, 4)
            cand = cv2.dilate(hmask, np.ones((5, 5), np.uint8)).reshape(-1) > 0
        cidx = np.nonzero(cand)[0]
        if cidx.size == 0:
            continue
        dd = d[y0:y1, x0:x1].reshape(-1, 3)[cidx].astype(np.float64)
        ro = np.broadcast_to(C, dd.shape)
        t, n = _prim_hit(pr, ro, dd)
        zsub = zbuf[y0:y1, x0:x1].reshape(-1)
        ok = np.isfinite(t) & (t < zsub[cidx])
        if not ok.any():
            continue
        sel = np.nonzero(ok)[0]
        idx = cidx[sel]
        t, n, dw = t[sel], n[sel], dd[sel]
        pw = C[None, :] + t[:, None] * dw
        if pr.material == "sleeve":
            ax = _unit(pr.b - pr.a)
            along = (pw - pr.a) @ ax
            fold = 1 + 0.12 * np.sin(along / 9.0 + 1.3 * np.sin(along / 23.0))
            knit = 1 + 0.04 * np.sin(along * 3.1)
            alb = hand.sleeve[None, :] * (fold * knit)[:, None]
            if hand.sleeve_stripes > 0:
                alb = alb * np.where(np.sin(along / hand.sleeve_stripes) > 0.3, 0.45, 1.0)[:, None]
        else:
            var = 1 + 0.035 * np.sin(pw @ np.array([0.31, 0.17, 0.23])) * np.sin(pw @ np.array([-0.13, 0.29, 0.07]))
            alb = hand.skin[None, :] * var[:, None]
            if pr.tip:
                ax = _unit(pr.b - pr.a)
                frac = ((pw - pr.a) @ ax) / max(float(np.linalg.norm(pr.b - pr.a)), 1e-6)
                nail = (frac > 0.5) & (n @ pr.up > 0.72)
                redden = np.clip((frac - 0.6) * 1.5, 0, 0.3)
                alb = alb * (1 + redden[:, None] * np.array([0.15, -0.1, -0.1]))
                alb = np.where(nail[:, None], alb * 0.55 + np.array([0.62, 0.48, 0.46]) * 0.45, alb)
        n_up = n @ up
        e = lights.amb[None, :] * (0.55 + 0.45 * n_up)[:, None]
        spec = np.zeros((len(idx), 3))
        vdir = -dw
        wrap = 0.3
        ks = 0.05 if pr.material == "skin" else 0.01
        if lights.win_on:
            ndl = n @ lights.win_dir
            e = e + lights.win[None, :] * np.maximum((ndl + wrap) / (1 + wrap), 0.0)[:, None]
            hv = _unit(lights.win_dir[None, :] + vdir)
            spec += lights.win[None, :] * (ks * np.maximum(np.sum(n * hv, 1), 0) ** 14 * (ndl > 0))[:, None]
        if lights.lamp_on:
            ldir, _dist, gain = lights.lamp_gain(pw)
            ndl = np.sum(n * ldir, 1)
            e = e + lights.lamp[None, :] * (gain * np.maximum((ndl + wrap) / (1 + wrap), 0.0))[:, None]
            hv = _unit(ldir + vdir)
            spec += lights.lamp[None, :] * (ks * np.maximum(np.sum(n * hv, 1), 0) ** 14 * gain * (ndl > 0))[:, None]
        col = alb * e + spec
        _store(rad, zbuf, ids, (y0, y1, x0, x1), idx, col, t, zsub, 2)


# ----------------------------------------------------------------------------------------------------
# camera pipeline


def _metering(rad: Arr, lights: _Lights, opt: _Optics) -> tuple[float, Arr]:
    """Auto white balance gains and auto exposure from a (hand-free) radiance image."""
    illum = lights.amb + lights.win * max(-float(lights.win_dir[2]), 0.0) + lights.lamp
    illum = illum / float(_lum(illum))
    gains = illum ** (-opt.awb_strength) * opt.awb_err
    gains = gains / gains[1]
    small = rad[::8, ::8] * gains.astype(np.float32)
    hh, ww = small.shape[:2]
    yy, xx = np.mgrid[0:hh, 0:ww]
    w = np.exp(-(((xx - ww / 2) / (0.45 * ww)) ** 2 + ((yy - hh / 2) / (0.45 * hh)) ** 2))
    mean = float(np.sum(_lum(small) * w) / np.sum(w))
    return opt.target / max(mean, 1e-6), gains


def _develop(rad: Arr, opt: _Optics, exposure: float, gains: Arr, noise: Arr, vignette: Arr) -> NDArray[np.uint8]:
    x = rad * (exposure * gains).astype(np.float32)
    x = x * (1.0 - opt.vig * vignette)[..., None]
    x = cv2.GaussianBlur(x, (0, 0), opt.blur)
    gain = float(np.clip(exposure / 0.7, 0.6, 6.0))
    var = opt.shot * gain * np.maximum(x, 0.0) + (opt.read * gain) ** 2
    x = x + np.sqrt(var).astype(np.float32) * noise
    xi = np.clip(x * (_ENC_N - 1), 0, _ENC_N - 1).astype(np.int32)
    lut = _ENC_LUT * (1 - opt.contrast) + opt.contrast * _ENC_LUT * _ENC_LUT * (3 - 2 * _ENC_LUT)
    y = lut.astype(np.float32)[xi]
    lum = _lum(y)[..., None]
    y = lum + opt.saturation * (y - lum)
    if opt.sharpen > 0:
        y = y + opt.sharpen * (y - cv2.GaussianBlur(y, (0, 0), 1.2))
    out = np.clip(y * 255.0 + 0.5, 0, 255).astype(np.uint8)[..., ::-1]
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(out), [cv2.IMWRITE_JPEG_QUALITY, int(opt.jpeg)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8)


def _detected_ids(img: NDArray[np.uint8]) -> set[int]:
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(_ARUCO_DICT), cv2.aruco.DetectorParameters())
    _corners, ids, _rej = det.detectMarkers(img)
    return set() if ids is None else {int(i) for i in np.asarray(ids).ravel()}


# ----------------------------------------------------------------------------------------------------
# assembling a scene


def _cube_materials(rng: np.random.Generator, plan: _Plan) -> tuple[list[Arr], list[dict[str, Any]]]:
    batch = {
        "iron": np.array([float(rng.uniform(205, 235)), float(rng.uniform(88, 125)), float(rng.uniform(14, 44))]),
        "stone": np.array([float(rng.uniform(128, 172))] * 3) * rng.uniform(0.96, 1.04, 3),
        "coal": np.array([float(rng.uniform(26, 48))] * 3) * rng.uniform(0.95, 1.05, 3),
        "event": np.array([float(rng.uniform(226, 245)), float(rng.uniform(224, 242)), float(rng.uniform(210, 236))]),
    }
    grain_amp = {"iron": (0.05, 0.12), "stone": (0.03, 0.08), "coal": (0.02, 0.05), "event": (0.03, 0.07)}
    albs: list[Arr] = []
    mats: list[dict[str, Any]] = []
    for c in plan.cubes:
        srgb = np.clip(batch[c.colour] * rng.uniform(0.96, 1.04, 3) * rng.uniform(0.93, 1.06), 0, 255)
        albs.append(_lin(srgb))
        ga = grain_amp[c.colour]
        mats.append(
            {
                "y0": float(rng.uniform(-80, 80)),
                "z0": float(rng.choice([-1, 1]) * rng.uniform(20, 120)),
                "wob": float(rng.uniform(0.1, 0.6)),
                "wob_f": float(rng.uniform(0.2, 0.8)),
                "ph": float(rng.uniform(0, 6.3)),
                "ring": float(rng.uniform(0.8, 2.4)),
                "grain": float(rng.uniform(*ga)),
                "paint": float(rng.uniform(0.015, 0.06)),
                "k1": rng.normal(0, 1, 3) * (2 * np.pi / rng.uniform(3, 8)),
                "p1": float(rng.uniform(0, 6.3)),
                "k2": rng.normal(0, 1, 3) * (2 * np.pi / rng.uniform(3, 8)),
                "p2": float(rng.uniform(0, 6.3)),
                "k3": rng.normal(0, 1, 3) * (2 * np.pi / rng.uniform(1.5, 4)),
                "p3": float(rng.uniform(0, 6.3)),
                "wear": float(rng.uniform(0.0, 0.45)) if rng.random() < 0.6 else 0.0,
                "ks": float(rng.uniform(0.05, 0.1) if c.colour == "coal" else rng.uniform(0.025, 0.07)),
                "ex": float(rng.uniform(14, 40)),
            }
        )
    return albs, mats


def _board_ao(plan: _Plan, ext: tuple[float, float, float, float], g_sc: float, shape: tuple[int, int]) -> Arr:
    fp = np.zeros(shape, np.float32)
    s = plan.cube
    for c in plan.cubes:
        pts = (_cube_corners(c, s)[:4, :2] - np.array(ext[:2])) * g_sc - 0.5
        cv2.fillPoly(fp, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    if not plan.cubes:
        return np.ones(shape, np.float32)
    b1 = cv2.GaussianBlur(fp, (0, 0), max(0.5, 0.09 * s * g_sc))
    b2 = cv2.GaussianBlur(fp, (0, 0), max(0.8, 0.4 * s * g_sc))
    return np.clip(1.0 - 0.55 * b1 - 0.3 * b2, 0.12, 1.0).astype(np.float32)


def _extent(intr: _Intr, poses: list[_Pose], plan: _Plan) -> tuple[float, float, float, float]:
    border = []
    for t in np.linspace(0, 1, 17):
        border += [
            (t * (FRAME_W - 1), 0),
            (t * (FRAME_W - 1), FRAME_H - 1),
            (0, t * (FRAME_H - 1)),
            (FRAME_W - 1, t * (FRAME_H - 1)),
        ]
    px = np.array(border)
    xd = (px[:, 0] - intr.cx) / intr.fx
    yd = (px[:, 1] - intr.cy) / intr.fy
    xu, yu = xd.copy(), yd.copy()
    for _ in range(10):
        r2 = xu * xu + yu * yu
        f = 1 + intr.k1 * r2 + intr.k2 * r2 * r2
        xu, yu = xd / f, yd / f
    dc = np.stack([xu, yu, np.ones_like(xu)], axis=1)
    us, vs = [], []
    for pose in poses:
        dw = dc @ pose.R
        t = -pose.C[2] / np.maximum(dw[:, 2], 1e-3)
        us.append(pose.C[0] + t * dw[:, 0])
        vs.append(pose.C[1] + t * dw[:, 1])
    u = np.concatenate(us)
    v = np.concatenate(vs)
    cu, cv = plan.yard_w / 2, plan.yard_h / 2
    lim = 520.0
    return (
        float(max(u.min(), cu - lim)) - 6,
        float(max(v.min(), cv - lim)) - 6,
        float(min(u.max(), cu + lim)) + 6,
        float(min(v.max(), cv + lim)) + 6,
    )


@dataclass
class _Scene:
    plan: _Plan
    ctx: _Ctx
    poses: tuple[_Pose, _Pose]
    lights: tuple[_Lights, _Lights]
    story: str
    optics: tuple[_Optics, _Optics]
    noise: tuple[Arr, Arr]


def _build_scene(seed: int) -> _Scene:
    rng = np.random.default_rng(seed)
    plan = _plan(rng)
    intr, calib_pose, play_pose = _camera(rng, plan)
    lc, lp, story = _lights_pair(rng, plan)
    oc, op = _optics_pair(rng)
    ext = _extent(intr, [calib_pose, play_pose], plan)
    area = (ext[2] - ext[0]) * (ext[3] - ext[1])
    dist = float(np.linalg.norm(calib_pose.C - np.array([plan.yard_w / 2, plan.yard_h / 2, 0.0])))
    tex_sc = float(np.clip(min(1.5 * intr.fx / dist, math.sqrt(2.4e6 / area)), 1.2, 4.0))
    tex = _paint_board(rng, plan, ext, tex_sc)
    g_sc = float(np.clip(math.sqrt(0.7e6 / area), 1.0, 2.2))
    g_shape = (int(math.ceil((ext[3] - ext[1]) * g_sc)), int(math.ceil((ext[2] - ext[0]) * g_sc)))
    h_sc = 0.4
    h_shape = (int(math.ceil((ext[3] - ext[1]) * h_sc)), int(math.ceil((ext[2] - ext[0]) * h_sc)))
    albs, mats = _cube_materials(rng, plan)
    s = plan.cube
    neigh = []
    for i, c in enumerate(plan.cubes):
        neigh.append([j for j, o in enumerate(plan.cubes) if j != i and math.hypot(o.u - c.u, o.v - c.v) < 4.5 * s])
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    rn = ((xx - intr.cx) ** 2 + (yy - intr.cy) ** 2) / ((FRAME_W / 2) ** 2 + (FRAME_H / 2) ** 2)
    vignette = (rn + 0.3 * rn * rn).astype(np.float32)
    ctx = _Ctx(
        plan=plan,
        intr=intr,
        rays=_pixel_rays(intr),
        tex=tex,
        ext=ext,
        tex_sc=tex_sc,
        g_sc=g_sc,
        g_shape=g_shape,
        h_sc=h_sc,
        h_shape=h_shape,
        cube_alb=albs,
        cube_mat=mats,
        bevel=float(rng.uniform(0.5, 1.1)),
        wood=_lin(np.array([206, 172, 124]) * rng.uniform(0.9, 1.05)),
        board_gloss=(float(rng.uniform(0.01, 0.05)), float(rng.uniform(15, 60))),
        neighbours=neigh,
        ao_board=_board_ao(plan, ext, g_sc, g_shape),
        vignette=vignette,
    )
    noise = (
        rng.standard_normal((FRAME_H, FRAME_W, 3), dtype=np.float32),
        rng.standard_normal((FRAME_H, FRAME_W, 3), dtype=np.float32),
    )
    return _Scene(plan, ctx, (calib_pose, play_pose), (lc, lp), story, (oc, op), noise)


@dataclass
class _Debug:
    scene: _Scene
    level: int
    hand: _Hand | None
    hand_region: NDArray[np.bool_] | None
    play_free: NDArray[np.uint8]
    ids_play: Arr


def _generate(seed: int, hand: bool = False) -> tuple[FourthPair, _Debug]:
    sc = _build_scene(seed)
    ctx = sc.ctx
    cpose, ppose = sc.poses
    lc, lp = sc.lights
    bl_c = _board_light(ctx, lc, False)
    bl_p = _board_light(ctx, lp, bool(sc.plan.cubes))
    level = 0
    while True:
        if level == 2:
            intr = ctx.intr
            ctx.intr = _Intr(intr.fx, intr.fy, intr.cx, intr.cy, 0.0, 0.0)
            ctx.rays = _pixel_rays(ctx.intr)
        oc, op = sc.optics[0].milder(level), sc.optics[1].milder(level)
        rad_c, _ids_c, _ = _render(ctx, cpose, lc, False, None, bl_c)
        rad_p, ids_p, _ = _render(ctx, ppose, lp, bool(sc.plan.cubes), None, bl_p)
        exp_c, g_c = _metering(rad_c, lc, oc)
        exp_p, g_p = _metering(rad_p, lp, op)
        img_c = _develop(rad_c, oc, exp_c, g_c, sc.noise[0], ctx.vignette)
        img_p = _develop(rad_p, op, exp_p, g_p, sc.noise[1], ctx.vignette)
        want = {0, 1, 2, 3}
        if want <= _detected_ids(img_c) and want <= _detected_ids(img_p):
            break
        level += 1
        if level > 2:
            raise RuntimeError(f"scenes_fourth: markers not detectable for seed {seed}")
    play_img = img_p
    ids_final = ids_p
    hand_obj: _Hand | None = None
    region: NDArray[np.bool_] | None = None
    if hand:
        hrng = np.random.default_rng((seed, _HAND_STREAM))
        yard = np.array(
            [[0, 0, 0], [sc.plan.yard_w, 0, 0], [sc.plan.yard_w, sc.plan.yard_h, 0], [0, sc.plan.yard_h, 0]]
        )
        ypx, _z = _project(ctx.intr, ppose, yard.astype(np.float64))
        yard_mask = np.zeros((FRAME_H, FRAME_W), np.uint8)
        cv2.fillPoly(yard_mask, [np.round(ypx).astype(np.int32)], 1)
        for _attempt in range(4):  # a hand that hardly reaches the yard is drawn again
            hand_obj = _make_hand(hrng, sc.plan, ctx.intr, ppose, ctx.rays)
            ctx.hand_maps = _hand_maps(ctx, lp, hand_obj)
            rad_h, ids_h, fac = _render(ctx, ppose, lp, bool(sc.plan.cubes), hand_obj, bl_p)
            if np.count_nonzero((ids_h == 2) & (yard_mask > 0)) >= 0.05 * np.count_nonzero(yard_mask):
                break
        play_img = _develop(rad_h, op, exp_p, g_p, sc.noise[1], ctx.vignette)
        ids_final = ids_h
        region = np.asarray((ids_h == 2) | ((fac if fac is not None else 1.0) < _SNAP), dtype=np.bool_)
    counts = dict(sc.plan.counts)
    pair = FourthPair(
        calibration=img_c,
        play=FourthPlay(image=play_img, counts=counts, cube_mask=np.asarray(ids_final == 1, dtype=np.bool_)),
        hand=hand,
    )
    return pair, _Debug(sc, level, hand_obj, region, img_p, ids_final)


def fourth_scene_pair(seed: int, hand: bool = False) -> FourthPair:
    """Calibration (empty yard) and play frame for one seed; hand=True adds a hand over the same scene."""
    pair, _dbg = _generate(int(seed), bool(hand))
    return pair


__all__ = ["COLOURS", "FRAME_H", "FRAME_W", "LIMITS", "FourthPair", "FourthPlay", "fourth_scene_pair"]
