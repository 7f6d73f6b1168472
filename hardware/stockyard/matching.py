"""The frame made comparable with the empty-yard profile: the light's change divided out, clipping undone.

Both pictures are in normalised colour (0 = marker black, 1 = paper white), so a changed lamp or white
balance has mostly gone already. What the markers cannot see is matched here: a lamp that lights the
middle more than the corners, a black level the markers misjudged, and channels that clipped in one picture and
not in the other. The cube net (cubenet.py) then compares what is left.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from hardware.stockyard.medians import median

Mask = NDArray[np.uint8]
_MEAN = np.full((1, 3), 1 / 3, np.float32)


def luminance(colours: FloatImage) -> NDArray[np.float32]:
    return np.asarray(cv2.transform(colours, _MEAN), np.float32)


# The print's fine texture: log brightness less its blur. A light changes slowly across the yard and falls out;
# paper grain, ink lines and gravel stay, and a shadow lets them show through (see count.PRINT_LIKENESS).
PRINT_FINE = 2.0  # canvas pixels: texture finer than a Gaussian of this sigma
PRINT_FLOOR = 0.03  # colours are in units of the markers' white: keeps the log off sensor noise near black


def print_texture(lum: NDArray[np.float32]) -> NDArray[np.float32]:
    """The fine texture of a picture's brightness (`luminance`)."""
    logs = cv2.log(np.maximum(lum, 0) + PRINT_FLOOR)
    return np.asarray(logs - cv2.GaussianBlur(logs, (0, 0), PRINT_FINE), np.float32)


class EmptyYard:
    """The empty yard's colours, its brightness (what matching the sharpness compares) and its print's fine
    texture, worked out once per profile rather than per frame."""

    def __init__(self, empty: FloatImage) -> None:
        self.colours = empty
        self.lum = luminance(empty)
        self.print = print_texture(self.lum)


def match_gain(colours: FloatImage, empty: FloatImage, allowed: Mask, view_cells: int = 3,
               unsaturated: NDArray[np.bool_] | None = None) -> FloatImage:
    """Divide out what the markers could not: per-channel gain against the empty yard, cell by cell.

    The paper white may clip, or a lamp may light the middle more than the corners. Most of the yard
    is still bare board, so the median ratio to the empty yard in each of a few cells is the light's
    change there; it is smoothed into a field and divided out. `unsaturated` (H×W×3) is where neither
    picture clipped a channel: a clipped value is no measure of the light, and under a bright lamp most
    of a light board clips in red, which would take the red gain down with it. Print darker than the
    markers' black in a channel is 0 in both pictures: no measure of the light either (red print's blue
    once gave a gain of 0, and every cube's blue came out twenty times too strong).
    """
    h, w = allowed.shape
    step = 3  # every third pixel is plenty for a median
    # Channels first: each channel's samples lie together, and every median below is of one channel's row
    # (3.8 -> 2.4 ms a frame here, the same gains).
    then = empty[::step, ::step].transpose(2, 0, 1)
    ratio = np.divide(colours[::step, ::step].transpose(2, 0, 1), np.maximum(then, MEASURABLE), order="C")
    ok = allowed[::step, ::step] > 0
    usable = np.logical_and(ok[None], then >= MEASURABLE, order="C")
    if unsaturated is not None:
        usable &= unsaturated[::step, ::step].transpose(2, 0, 1)
    total = _gains(ratio, ok, usable, np.ones(3, np.float32)) if ok.any() else np.ones(3, np.float32)
    grid = np.empty((view_cells, view_cells, 3), np.float32)
    ys = np.linspace(0, ratio.shape[1], view_cells + 1).astype(int)
    xs = np.linspace(0, ratio.shape[2], view_cells + 1).astype(int)
    for i in range(view_cells):
        for j in range(view_cells):
            rows, cols = slice(ys[i], ys[i + 1]), slice(xs[j], xs[j + 1])
            if np.count_nonzero(ok[rows, cols]) > _ENOUGH:
                grid[i, j] = _gains(ratio[:, rows, cols], ok[rows, cols], usable[:, rows, cols], total)
            else:
                grid[i, j] = total
    # Cells half covered by cubes are not to be trusted beyond the overall change: clamp towards it.
    grid = np.clip(grid, total * 0.8, total * 1.25)
    field = cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.divide(colours, np.maximum(field, 0.05, out=field)), np.float32)


def tone_fits(colours: FloatImage, empty: FloatImage, usable: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Per channel (rows): the gain and offset of now against then over the `usable` samples, and the darkest and
    lightest shades of the print they were measured between. From the medians of now in bins of equally many
    samples sorted by then: cubes move some bins' samples, not their medians."""
    fits = np.tile([1.0, 0.0, 0.5, 0.5], (3, 1))
    then, now = empty[usable], colours[usable]
    per_bin = len(then) // TONE_BINS
    if per_bin < _ENOUGH:
        return fits
    order = np.argsort(then, axis=0)[: per_bin * TONE_BINS]
    bins_then = np.take_along_axis(then, order, axis=0).reshape(TONE_BINS, per_bin, 3)
    bins_now = np.take_along_axis(now, order, axis=0).reshape(TONE_BINS, per_bin, 3)
    xs_all, ys_all = bins_then[:, per_bin // 2], np.median(bins_now, axis=1)
    for c in range(3):
        xs, ys = xs_all[:, c], ys_all[:, c]
        # A bin pushed to the black floor says only "this dark or darker"; print past the paper's white is glare.
        measured = (ys > TONE_CLIPPED) & (xs > TONE_LOW) & (xs < TONE_HIGH)
        xs, ys = xs[measured], ys[measured]
        if len(xs) < 3 or np.ptp(xs) < TONE_SPAN:
            continue
        # Theil-Sen: the median of the slopes between every two bins, so one bin crowded with cubes moves nothing
        i, j = np.triu_indices(len(xs), 1)
        wide = xs[j] - xs[i] > TONE_SPAN / 4
        gain = float(np.median((ys[j] - ys[i])[wide] / (xs[j] - xs[i])[wide]))
        fits[c] = (gain, float(np.median(ys - gain * xs)), xs[0], xs[-1])
    return fits


Tone = tuple[NDArray[np.float32], NDArray[np.float32]]  # each channel's gain and offset, now against then


def tone_change(colours: FloatImage, empty: FloatImage, allowed: Mask) -> Tone | None:
    """The frame's black level and gain against the empty yard's (each channel's), where a gain alone cannot
    match them (see TONE_FROM); None where it can, or where the print shows too few shades to tell."""
    step = TONE_STEP
    usable = allowed[::step, ::step] > 0
    gains, offsets, darkest, lightest = tone_fits(colours[::step, ::step], empty[::step, ::step], usable).T
    if np.min(gains) <= TONE_GAIN_LEAST:
        return None

    def ratio(shade: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.maximum(gains * shade + offsets, 0.01) / shade  # now over then, each channel at its shade

    # How far the ratio now/then differs between dark print and light: a gain (match_gain) cannot follow that.
    # Within the print's own range: a light board needs no correction for dark print it does not have.
    if np.max(np.abs(np.log(ratio(darkest) / ratio(lightest)))) < TONE_FROM:
        return None
    return gains.astype(np.float32), offsets.astype(np.float32)


# The crushed channels' bound, measured 2026-12-07 on the three cached sets of tests/bench/exact_scenes.py (seeds
# 200 000, 210 000 and 220 000, 1799 scenes): 1469 -> 1472 exact (5 gained, 2 lost, all of them the fifth generator's),
# cubes wrong 877 -> 858; with --shake, 1489 -> 1495 (8 gained, 2 lost), 827 -> 787. Seeds 230 000-230 099, cached
# afresh: 485 -> 486 (2 gained, 1 lost), 295 -> 281.
def undo_tone(colours: FloatImage, tone: Tone | None, empty: FloatImage, crushed: NDArray[np.bool_]) -> FloatImage:
    """The frame's colours as they would be with the empty yard's (`empty`) black level and gain (`tone_change`).

    A channel the frame crushed to black (`crushed`: 0 in its normalised colours) only says "this dark or darker":
    undone, it would read the shade the black level's error gives, whatever it was. Where the empty yard is darker
    still there (its own dark print crushed at calibration), the bare board explains it and its colour stands; lifted,
    dark green print read as grey and whole panels of it as coal (fifth 210035: 18 coal cubes in a yard with none).
    Coal on lighter print is darker than the empty yard there and still differs.
    """
    if tone is None:
        return colours
    undone = np.asarray((colours - tone[1]) / tone[0], np.float32)
    at = np.flatnonzero(crushed)
    flat = undone.reshape(-1)
    flat[at] = np.minimum(flat[at], empty.reshape(-1)[at])
    return undone


# The markers set each picture's black and white, and the black may read otherwise in play than at calibration
# (a sheen on the toner, glare on a curled sheet): the fifth independent generator's frames came out a tenth of
# the white darker than their empty yards, dark print crushed to black. No gain matches that (dark print is then
# far darker, light print a little), and the cube net took whole panels of dark print for cubes: 51 cubes too many
# in fifth 210059, 24 in fifth 210021. The bare board shows it: now against then, shade by shade, is a line whose
# offset is the black level's error. Measured 2026-12-02 on the three cached sets of tests/bench/exact_scenes.py
# (seeds 200 000, 210 000 and 220 000, 100 a generator, 1799 scenes): 1467 -> 1470 exact (8 gained, 5 lost), cubes
# wrong 1057 -> 885, scenes four or more cubes off 75 -> 65. Corrected from a ratio of 0.5 (TONE_FROM) the same
# 1470, with 23 scenes gained and 20 lost: a shake's worth (the net's 8 bits answer any change of its picture).
# The frame's colours for classifying corrected too: 1463.
# From 0.85 (2026-12-07, the same three sets): 1466, 2 gained and 5 lost.
TONE_FROM = 1.0  # log of the ratio now/then at the print's darkest shade over that at its lightest
TONE_LOW, TONE_HIGH = 0.03, 0.95  # shades of the empty yard measured between (of the markers' white)
TONE_BINS = 10
TONE_STEP = 8  # every eighth pixel each way: some 3000 samples, 300 a bin (every third: 9 against 2.3 ms, a
# synthetic canvas on 2026-12-02's slow machine)
TONE_CLIPPED = 0.02  # a bin whose median is darker now is crushed to black: no measure
TONE_SPAN = 0.25  # the least range of shades a line is fitted over: a pale board's few say nothing
TONE_GAIN_LEAST = 0.2  # a fitted gain this low or lower is no camera's: cubes over most of the print


_ENOUGH = 50  # sampled pixels for a median gain
MEASURABLE = 0.05  # the least value of the empty yard's channel that a gain is measured against (0.01: as good)
FEW_CLIPPED = 0.05  # share of a channel's samples that may clip before the clipped ones are left out


def _gains(ratio: NDArray[np.floating], ok: NDArray[np.bool_], usable: NDArray[np.bool_],
           fallback: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each channel's median `ratio` (channels first) over the `ok` samples; over its `usable` ones alone
    where it clipped (or was too dark to measure) in more than a few of them, or `fallback`'s where too few
    are left. A white cube's clipped top moves no median; clipped print over much of the yard does."""
    seen = int(np.count_nonzero(ok))
    gains = np.empty(3, np.float32)
    for c in range(3):
        kept = np.count_nonzero(usable[c])
        if kept >= (1 - FEW_CLIPPED) * seen:
            gains[c] = median(ratio[c][ok])
        else:
            gains[c] = median(ratio[c][usable[c]]) if kept > _ENOUGH else fallback[c]
    return gains


def as_empty_where_clipped(colours: FloatImage, empty: FloatImage, now_clipped: NDArray[np.bool_],
                           then_clipped: NDArray[np.bool_] | None) -> FloatImage:
    """The empty yard's colour wherever a clipped channel is no evidence of change.

    A clipped channel only says "at least this bright". Where the frame clipped and the empty yard was
    as bright or brighter, the bare board explains it; where the empty-yard picture clipped and the
    frame is as bright or brighter, likewise. A brighter lamp saturates the light parts of the print:
    compared as they are, they read as flat (their grain gone) and off-colour, and so as cubes. A white
    cube on darker print is brighter than the empty yard there and still differs.
    """
    # Few channels clip: compared where they did, not over the whole canvas (0.99 -> 0.63 ms a frame, the same colours).
    clipped = now_clipped if then_clipped is None else now_clipped | then_clipped
    at = np.flatnonzero(clipped)
    if not len(at):
        return colours
    now, then = colours.reshape(-1)[at], empty.reshape(-1)[at]
    same = now_clipped.reshape(-1)[at] & (then >= now)
    if then_clipped is not None:
        same |= then_clipped.reshape(-1)[at] & (now >= then)
    if not same.any():
        return colours
    out = np.array(colours, np.float32)
    out.reshape(-1)[at[same]] = then[same]
    return out


def changed_light(now: FloatImage, empty: EmptyYard, allowed: Mask, cubes: Mask) -> NDArray[np.float32]:
    """How much more light falls on each part of the canvas now than at calibration, against the part of
    the yard where it changed least: a lamp switched on over one side, a shadow across half the yard.

    The markers at the corners set each picture's white, so a change that reaches them (a dimmer room, a
    lamp to one side) is already divided out; one in the middle of the yard is not, and a grey stone in a
    lamp's pool is as bright as a white event outside it. The bare board shows the change: its brightness
    now over then, cell by cell, away from the cubes and their shadows. Against the least changed cell,
    because a change over the whole yard is the markers' business (a lamp nearer the yard than the markers
    changes both pictures alike), and in cells the cubes crowd the board is too little to measure.
    """
    step = 3
    # The samples' brightness only: a pixel's is its own channels', so a ninth of the work gives the same values.
    lum_now, lum_then = luminance(np.ascontiguousarray(now[::step, ::step])), empty.lum[::step, ::step]
    near_cube = cv2.dilate(cubes, np.ones((LIGHT_CLEAR, LIGHT_CLEAR), np.uint8))[::step, ::step] > 0
    board = (allowed[::step, ::step] > 0) & ~near_cube & (lum_then > 0.1)
    ratio = lum_now / np.maximum(lum_then, 0.1)
    overall = median(ratio[board]) if np.count_nonzero(board) > _ENOUGH else 1.0
    grid = np.full((LIGHT_CELLS, LIGHT_CELLS), overall, np.float32)
    ys = np.linspace(0, ratio.shape[0], LIGHT_CELLS + 1).astype(int)
    xs = np.linspace(0, ratio.shape[1], LIGHT_CELLS + 1).astype(int)
    for i in range(LIGHT_CELLS):
        for j in range(LIGHT_CELLS):
            cell = (slice(ys[i], ys[i + 1]), slice(xs[j], xs[j + 1]))
            seen = board[cell]
            if np.count_nonzero(seen) > max(_ENOUGH, LIGHT_SEEN * seen.size):
                grid[i, j] = median(ratio[cell][seen])
    least = grid.flat[int(np.argmin(np.abs(np.log(np.maximum(grid, 1e-3)))))]
    h, w = cubes.shape
    return np.asarray(cv2.resize(grid / max(float(least), 1e-3), (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


# Chosen on the bench's lamp-pool line (100 fresh main scenes with a pool: 77 -> 86 exact; a shadow across
# the yard: 87 -> 93), checked against the five trained generators' 1800 cached and fresh scenes (1574 ->
# 1575) and then the held-out fourth and fifth (158 and 61, as before). A 9-pixel clearing round the cubes
# and cells measured on any 30 samples lost crowded fourth scenes: their cubes' shadows passed for dimmer light.
LIGHT_CELLS = 6  # across and down the canvas
LIGHT_CLEAR = 21  # canvas pixels round the net's cubes left out (their shadows)
LIGHT_SEEN = 0.5  # the least share of a cell's samples that must be bare board to measure it
