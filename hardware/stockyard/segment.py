"""Separating cubes from the printed board: compare the frame with the empty-yard profile.

Both are in normalised colour (0 = marker black, 1 = paper white), so a changed lamp or white balance
has mostly gone already. What remains is compared in a lighting-tolerant way: brightness as a ratio
(log), colour as chromaticity (colour divided by brightness), and each against the range the empty
yard shows within a couple of pixels, so printed edges and a slightly misplaced warp do not count.
Soft contact shadows stay below the darkness threshold; cubes of any colour do not.
"""

from __future__ import annotations

from functools import cached_property

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from hardware.stockyard.medians import column_medians, median

Mask = NDArray[np.uint8]

_EPS = 0.04
DARKER = 0.5  # log ratio: ~40 % darker than anything nearby in the empty yard
BRIGHTER = 0.15  # log ratio: ~16 % brighter
CHROMA = 0.15  # summed chromaticity difference
STRUCTURE = 0.2  # 1 - SSIM structure/contrast term of the brightness, 5×5 windows
_STRUCTURE_FLOOR = 0.0004  # (2 % of paper white)²: flat areas and sensor noise say nothing
_WINDOW = (5, 5)
TEXTURE_GATE = 0.45  # a texture change counts where the colour evidence reaches this much
_ENVELOPE = np.ones((3, 3), np.uint8)
_DISC = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


_MEAN = np.full((1, 3), 1 / 3, np.float32)
_SUM = np.ones((1, 3), np.float32)


def luminance(colours: FloatImage) -> NDArray[np.float32]:
    return np.asarray(cv2.transform(colours, _MEAN), np.float32)


class EmptyYard:
    """What the comparison needs of the empty yard, worked out once per profile rather than per frame."""

    def __init__(self, empty: FloatImage) -> None:
        self.colours = empty
        self.lum = luminance(empty)
        self.lum_lo = np.asarray(cv2.erode(self.lum, _ENVELOPE), np.float32) + _EPS
        self.lum_hi = np.asarray(cv2.dilate(self.lum, _ENVELOPE), np.float32) + _EPS
        # OpenCV, not numpy's broadcasts over the colour axis: 0.5 ms instead of 5.5 for these two, and
        # a new blur of the empty yard is worked out while a frame waits.
        lum_eps = self.lum + _EPS
        chroma = cv2.divide(empty, cv2.merge([lum_eps, lum_eps, lum_eps]))
        self.chroma_lo = np.asarray(cv2.erode(chroma, _ENVELOPE), np.float32)
        self.chroma_hi = np.asarray(cv2.dilate(chroma, _ENVELOPE), np.float32)
        # 1 where the ground is grey (summed channel spread under GREY_GROUND of its brightness), fading
        # to 0 at twice that: where a stone's colour cannot tell it from the ground. See lighter_on_grey.
        spread = cv2.transform(cv2.absdiff(empty, cv2.merge([self.lum, self.lum, self.lum])), _SUM) / lum_eps
        self.grey = np.clip(2 - cv2.blur(spread, _WINDOW) * (1 / GREY_GROUND), 0, 1).astype(np.float32)
        self.grey *= np.clip(self.lum * (1 / DARK_SMOOTH), 0, 1)  # near black, colour and averages are noise
        window = LocalStats(self.lum)
        self.mean, self.var = window.mean, window.var
        self._ground: tuple[tuple[float, ...], tuple[FloatImage, NDArray[np.float32], NDArray[np.bool_]]] | None = None

    def ground(self, offset: tuple[float, ...]) -> tuple[FloatImage, NDArray[np.float32], NDArray[np.bool_]]:
        """The yard's chromaticity and brightness from the encoding's zero, and where it has a colour of
        its own. A steady camera gives the same offset frame after frame: the last one is kept."""
        if self._ground is None or self._ground[0] != offset:
            chroma, lum = _from_zero(self.colours, offset)
            away = np.asarray(cv2.transform(cv2.absdiff(chroma, (1.0, 1.0, 1.0, 0.0)), _SUM), np.float32)  # type: ignore[call-overload]
            self._ground = (offset, (chroma, lum, away > SHADOW_GROUND))
        return self._ground[1]


def _noise_scale(term: NDArray[np.float32], allowed: Mask | None, typical: float) -> float:
    """How many times noisier than usual a term is over the bare board in this frame (at least 1).

    Most of the yard is bare board, so a term's median there is its noise: sensor noise at a low
    exposure, or fine print the two photos render differently. Thresholds rise with it, so noise does
    not read as cubes; a clean frame keeps the usual thresholds. (The median, not a higher quantile:
    a hand may cover a third of the view and must not raise the thresholds that make it seen.)
    """
    if allowed is None:
        return 1.0
    sample = term[::4, ::4][allowed[::4, ::4] > 0]
    if len(sample) < 100:
        return 1.0
    return max(1.0, median(sample) / typical)


def evidence(colours: FloatImage, empty: EmptyYard, allowed: Mask | None = None,
             encoding_zero: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
    """How strongly each pixel differs from the empty yard: 1 = at threshold.

    `encoding_zero` is where the camera's encoding puts no light, per channel, in normalised colour
    (see `shadow`); without it, shadows count as any other darkening.
    """
    lum = luminance(colours)
    lum_eps = lum + _EPS
    darker = np.log(empty.lum_lo / lum_eps)
    brighter = np.log(lum_eps / empty.lum_hi)
    # How far the chromaticity lies outside the empty yard's nearby range (below it or above it: the
    # range is never empty, so at most one side counts). OpenCV and in place: these are the frame's
    # largest arrays, and fresh ones each step cost more than the arithmetic.
    chroma = cv2.divide(colours, cv2.merge([lum_eps, lum_eps, lum_eps]))  # numpy's broadcast: 3× slower
    above = np.subtract(chroma, empty.chroma_hi)
    below = np.subtract(empty.chroma_lo, chroma, out=chroma)
    outside = np.maximum(np.maximum(above, below, out=above), 0, out=above)
    shift = np.asarray(cv2.transform(outside, _SUM), np.float32)
    # Chromaticity of near-black pixels is mostly noise; let darkness speak for them instead.
    darkest = np.minimum(lum, empty.lum)  # of now and then: near black in either is noise
    shift *= np.clip(darkest * (1 / 0.12), 0, 1)
    shift = shift * (1 / (CHROMA * _noise_scale(shift, allowed, 0.13 * CHROMA)))
    if encoding_zero is not None:
        # A cast shadow on coloured ground is the ground in less light, not a cube: it counts for little.
        shaded = shadow(colours, empty, encoding_zero).astype(np.float32)
        shade = cv2.addWeighted(shaded, SHADOW_KEEP - 1, shaded, 0, 1)  # 1 on the board, SHADOW_KEEP in shadow
        darker = np.asarray(cv2.multiply(darker, shade), np.float32)
        shift = np.asarray(cv2.multiply(shift, shade), np.float32)
    score = np.maximum(np.maximum(darker * (1 / DARKER), brighter * (1 / BRIGHTER)), shift)
    # A grey cube on grey artwork barely differs in colour, but it hides the artwork's texture: a
    # change of local structure (lighting-invariant) counts where the colour differs at least a little.
    local = LocalStats(lum)
    score = np.maximum(score, lighter_on_grey(local, empty, allowed))
    texture = structure_change(lum, empty, local)
    texture = texture * (1 / (STRUCTURE * _noise_scale(texture, allowed, 0.16 * STRUCTURE)))
    score = np.maximum(score, np.minimum(texture, score * (1 / TEXTURE_GATE)))
    # A cube's painted face hides gravel and speckled print: where the yard was rough and is smooth now.
    # Near black, relative texture is mostly sensor noise (as chromaticity is): let it fade there.
    smoother = smoothing(lum, empty, local) * (1 / SMOOTHING)
    smoother *= np.clip(darkest * (1 / DARK_SMOOTH), 0, 1)
    score = np.maximum(score, smoother)
    return np.asarray(score, np.float32)


def lighter_on_grey(local: LocalStats, empty: EmptyYard, allowed: Mask | None) -> NDArray[np.float32]:
    """A light cube's face on grey, speckled ground: brighter than the ground on average (1 = at threshold).

    Pixel by pixel a stone on gravel is lost: its face is within the range the speckles span nearby.
    Averaged over a few pixels the speckles cancel, and a face lighter than the ground's average
    stands out. Only lighter: darker on average is as likely a cube's shadow. Only on grey ground:
    on coloured ground the colour change says it already, and the averaging blurs a cube's outline.
    """
    lighter = np.log((local.mean + _EPS) / (empty.mean + _EPS))
    scale = MEAN_BRIGHTER * _noise_scale(np.abs(lighter), allowed, 0.1 * MEAN_BRIGHTER)
    return np.asarray(cv2.multiply(lighter, empty.grey, scale=1 / scale), np.float32)


def shadow(colours: FloatImage, empty: EmptyYard, encoding_zero: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Where the frame is the empty yard's coloured ground, in the same light or less: in a cube's cast
    shadow, or bare.

    A camera's encoding (sRGB: 1.055·L^(1/2.4) − 0.055) is a power of the light once 0.055 is added
    back, so less light scales all three channels of (colour − encoding_zero) alike: a shadow keeps
    that chromaticity and only darkens, and not past what the room's light leaves (a fifth or so).
    A neutral cube on neutral ground does the same, so only ground with a colour of its own is judged.
    """
    light = LessLight(colours, empty, encoding_zero)
    return np.asarray(light.same_ground() & light.coloured)


class LessLight:
    """The frame against the empty yard as the same ground in more or less light: how far each pixel's
    chromaticity moved, and its brightness over the empty yard's, both measured from the encoding's
    zero (where a shadow only scales the colour; see `shadow`)."""

    def __init__(self, colours: FloatImage, empty: EmptyYard, encoding_zero: NDArray[np.float32],
                 box: tuple[int, int, int, int] | None = None) -> None:
        """`box` (x, y, width, height): measure only there, a blob's box rather than the whole yard."""
        # OpenCV throughout: numpy's broadcasts and reductions over the colour axis cost 5× as much here.
        # Rounded, so a steady camera's frames reuse the ground worked out for the first.
        offset = tuple(round(float(-z), 3) for z in encoding_zero) + (0.0,)
        x, y, w, h = box or (0, 0, colours.shape[1], colours.shape[0])
        within = (slice(y, y + h), slice(x, x + w))
        self.now, self.now_lum = _from_zero(np.ascontiguousarray(colours[within]), offset)
        then, then_lum, coloured = empty.ground(offset)
        self.then_lum, self.coloured = then_lum[within], coloured[within]
        self.then = np.ascontiguousarray(then[within])
        self.change = np.asarray(cv2.transform(cv2.absdiff(self.now, self.then), _SUM), np.float32)

    @cached_property
    def channel_change(self) -> NDArray[np.float32]:
        """Each channel's log ratio, now over the empty yard, measured from the encoding's zero: a shadow
        multiplies the ground's colour there, so it adds one vector here, whatever the ground (see `umbra`)."""
        now = self.now * self.now_lum[..., None]
        then = self.then * self.then_lum[..., None]
        return np.asarray(np.log(np.maximum(now, 1e-3)) - np.log(np.maximum(then, 1e-3)), np.float32)

    def same_ground(self) -> NDArray[np.bool_]:
        """Where the frame may be the empty yard's ground in the same light or less (down to SHADOW_DEPTH)."""
        return np.asarray((self.change < SHADOW_CHROMA) & (self.now_lum > SHADOW_DEPTH * self.then_lum))


def _from_zero(colours: FloatImage, offset: tuple[float, ...]) -> tuple[FloatImage, NDArray[np.float32]]:
    """Chromaticity and brightness measured from the encoding's zero rather than from printed black."""
    shifted = cv2.add(colours, offset)  # type: ignore[call-overload]  # a Scalar, which the stubs leave out
    lum = luminance(shifted)
    return np.asarray(cv2.divide(shifted, cv2.merge([lum, lum, lum])), np.float32), lum


MEAN_BRIGHTER = 0.1  # log ratio of 5×5 means: a face ~10 % lighter than the ground's average (0.15: −2)
GREY_GROUND = 0.1  # channel spread over brightness under which ground counts as grey (0.15: −1)
SHADOW_CHROMA = 0.15  # summed chromaticity difference a shadow stays within (noise on bare ground: ~0.15)
SHADOW_GROUND = 0.5  # the ground's own chromaticity away from grey for a shadow to be told from a cube
SHADOW_DEPTH = 0.5  # encoded brightness a shadow keeps: 0.5^2.4 ≈ a fifth of the light
SHADOW_KEEP = 0.3  # share of its darkening and colour change a shadow still counts with
DARK_SMOOTH = 0.1  # brightness below which the smoothing and lighter-on-grey evidence fade out (marker black = 0)
SMOOTHING = 0.6  # log ratio of relative texture: the yard here is ~45 % as rough as when empty
_GRAIN = 0.03  # relative texture (std / mean) that sensor noise and a cube's own grain reach


class LocalStats:
    """Mean and variance of the brightness in each pixel's window, shared by the texture measures."""

    def __init__(self, lum: NDArray[np.float32]) -> None:
        self.mean = np.asarray(cv2.boxFilter(lum, -1, _WINDOW), np.float32)
        self.var = np.asarray(cv2.boxFilter(lum * lum, -1, _WINDOW), np.float32) - self.mean * self.mean


def smoothing(lum: NDArray[np.float32], empty: EmptyYard, local: LocalStats | None = None) -> NDArray[np.float32]:
    """How much smoother the yard is here than when empty (log ratio of relative texture): a cube's
    painted face covering gravel or speckled print. Noise only roughens, and the texture's strength,
    unlike its exact pattern, survives refocusing and a nudge, so this holds where structure fails."""
    local = local or LocalStats(lum)
    rough_now = np.sqrt(np.maximum(local.var, 0)) / (local.mean + _EPS)
    rough_then = np.sqrt(np.maximum(empty.var, 0)) / (empty.mean + _EPS)
    return np.asarray(np.log((rough_then + _GRAIN) / (rough_now + _GRAIN)), np.float32)


def structure_change(lum: NDArray[np.float32], empty: EmptyYard,
                     local: LocalStats | None = None) -> NDArray[np.float32]:
    """1 - (2·cov + c) / (var + var_empty + c): 0 where the texture is the empty yard's, up to ~2."""
    local = local or LocalStats(lum)
    cov = cv2.boxFilter(lum * empty.lum, -1, _WINDOW) - local.mean * empty.mean
    return np.asarray(1 - (2 * cov + _STRUCTURE_FLOOR) / (local.var + empty.var + _STRUCTURE_FLOOR), np.float32)


def match_gain(colours: FloatImage, empty: FloatImage, allowed: Mask, view_cells: int = 3,
               unsaturated: NDArray[np.bool_] | None = None) -> FloatImage:
    """Divide out what the markers could not: per-channel gain against the empty yard, cell by cell.

    The paper white may clip, or a lamp may light the middle more than the corners. Most of the yard
    is still bare board, so the median ratio to the empty yard in each of a few cells is the light's
    change there; it is smoothed into a field and divided out. `unsaturated` (H×W×3) is where neither
    picture clipped a channel: a clipped value is no measure of the light, and under a bright lamp most
    of a light board clips in red, which would take the red gain down with it.
    """
    h, w = allowed.shape
    step = 3  # every third pixel is plenty for a median
    ratio = colours[::step, ::step] / np.maximum(empty[::step, ::step], 0.03)
    ok = allowed[::step, ::step] > 0
    usable = None if unsaturated is None else ok[:, :, None] & unsaturated[::step, ::step]
    total = column_medians(ratio[ok]) if ok.any() else np.ones(3, np.float32)
    if usable is not None:
        total = _unclipped(total, ratio, usable, int(np.count_nonzero(ok)), total)
    grid = np.empty((view_cells, view_cells, 3), np.float32)
    ys = np.linspace(0, ratio.shape[0], view_cells + 1).astype(int)
    xs = np.linspace(0, ratio.shape[1], view_cells + 1).astype(int)
    for i in range(view_cells):
        for j in range(view_cells):
            cell = (slice(ys[i], ys[i + 1]), slice(xs[j], xs[j + 1]))
            seen = int(np.count_nonzero(ok[cell]))
            if seen > _ENOUGH:
                grid[i, j] = column_medians(ratio[cell][ok[cell]])
                if usable is not None:
                    grid[i, j] = _unclipped(grid[i, j], ratio[cell], usable[cell], seen, total)
            else:
                grid[i, j] = total
    # Cells half covered by cubes are not to be trusted beyond the overall change: clamp towards it.
    grid = np.clip(grid, total * 0.8, total * 1.25)
    field = cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.divide(colours, np.maximum(field, 0.05, out=field)), np.float32)


_ENOUGH = 50  # sampled pixels for a median gain
FEW_CLIPPED = 0.05  # share of a channel's samples that may clip before the clipped ones are left out


def _unclipped(gains: NDArray[np.float32], ratio: NDArray[np.floating], usable: NDArray[np.bool_], seen: int,
               fallback: NDArray[np.float32]) -> NDArray[np.float32]:
    """`gains` (medians over all `seen` samples) with each channel that clipped in more than a few of
    them measured on its `usable` samples alone, or taken from `fallback` where too few are left.
    A white cube's clipped top moves no median; clipped print over much of the yard does."""
    out = gains.copy()
    for c in range(3):
        kept = np.count_nonzero(usable[:, :, c])
        if kept < (1 - FEW_CLIPPED) * seen:
            out[c] = median(ratio[:, :, c][usable[:, :, c]]) if kept > _ENOUGH else fallback[c]
    return out


def as_empty_where_clipped(colours: FloatImage, empty: FloatImage, now_clipped: NDArray[np.bool_],
                           then_clipped: NDArray[np.bool_] | None) -> FloatImage:
    """The empty yard's colour wherever a clipped channel is no evidence of change.

    A clipped channel only says "at least this bright". Where the frame clipped and the empty yard was
    as bright or brighter, the bare board explains it; where the empty-yard picture clipped and the
    frame is as bright or brighter, likewise. A brighter lamp saturates the light parts of the print:
    compared as they are, they read as flat (their grain gone) and off-colour, and so as cubes. A white
    cube on darker print is brighter than the empty yard there and keeps its evidence.
    """
    same = now_clipped & (empty >= colours)
    if then_clipped is not None:
        same |= then_clipped & (colours >= empty)
    if not same.any():
        return colours
    return np.asarray(np.where(same, empty, colours), np.float32)


def foreground(score: NDArray[np.float32], allowed: Mask) -> Mask:
    """Pixels that are not the empty yard: hysteresis on the evidence, then tidy and hole-filled."""
    weak = ((score > 1.0) & (allowed > 0)).astype(np.uint8) * 255
    # Opening with a disc: thin slivers along printed edges go, cubes (over 10 pixels wide) stay.
    weak = np.asarray(cv2.morphologyEx(weak, cv2.MORPH_OPEN, _DISC), np.uint8)
    strong = (score > 1.8) & (weak > 0)
    count, labels = cv2.connectedComponents(weak, connectivity=8)
    if count <= 1:
        return weak
    keep = np.zeros(count, bool)
    keep[labels[strong]] = True
    keep[0] = False
    mask = keep[labels].astype(np.uint8) * 255
    mask = np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)), np.uint8)
    mask = fill_holes(mask)
    return peel(mask, score) if PEEL_LEVEL > 0 else mask


PEEL_LEVEL = 0.35
PEEL_STEPS = 3


def peel(mask: Mask, score: NDArray[np.float32]) -> Mask:
    """Peel weak pixels off each blob's rim: a cube's contact shadow and the blur around its edge are
    far weaker evidence than the cube itself, and left on they make every blob a rim too large, which
    miscounts clusters. A grey cube with weak evidence throughout keeps its rim (its level is low)."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    if count <= 1:
        return mask
    level = np.zeros(count, np.float32)
    flat_labels, flat_score = labels.ravel(), score.ravel()
    order = np.argsort(flat_labels, kind="stable")
    bounds = np.searchsorted(flat_labels[order], np.arange(count + 1))
    for i in range(1, count):
        level[i] = PEEL_LEVEL * median(flat_score[order[bounds[i]:bounds[i + 1]]])
    weak = score < level[labels]
    out = mask.copy()
    for _ in range(int(PEEL_STEPS)):
        rim = (out > 0) & (cv2.erode(out, _CROSS) == 0)
        drop = rim & weak
        if not drop.any():
            break
        out[drop] = 0
    return out


def fill_holes(mask: Mask) -> Mask:
    """A grey cube on grey artwork may show only its darker sides: fill the ring it leaves."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    flood = padded.copy()
    cv2.floodFill(flood, np.zeros((h + 4, w + 4), np.uint8), (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return np.asarray(cv2.bitwise_or(mask, holes), np.uint8)
