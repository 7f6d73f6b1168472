"""Counting a heap by laying a grid of cube-sized cells over its footprint.

Players push cubes together square to each other, so a heap's footprint is a patch of a lattice one
cube wide. Its area alone says how many cubes only to about a tenth of a cube per cube (shading, blur,
a gap here and there), which is too loose from four cubes up; a grid laid over it counts whole cells,
and a cell is either full or empty whatever the rim does. The grid's turn comes from the footprint's
outline (its straight edges lie along the lattice); its pitch and offset are those that leave the
fewest half-full cells.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

Mask = NDArray[np.uint8]

TURNS = (-2.0, 0.0, 2.0)  # degrees around the outline's own: cubes in a heap sit a little crooked
PITCHES = (0.92, 0.96, 1.0, 1.04, 1.08)  # of the pitch expected from the footprint
OFFSETS = 4  # grid positions tried per pitch, each way
FULL = 0.5  # a cell counts as a cube when this much of it is covered


def edge_angle(foot: Mask) -> float:
    """The outline's dominant direction, in degrees modulo 90: a heap's straight edges all lie along
    two perpendicular directions, the lattice's. Read from the gradient of the softened outline (a
    pixel chain only knows steps of 45°): the strongest direction, refined by the mean of its own votes."""
    soft = cv2.GaussianBlur(foot.astype(np.float32), (5, 5), 1.0)
    gx = cv2.Sobel(soft, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(soft, cv2.CV_32F, 0, 1, ksize=3)
    strength = np.hypot(gx, gy)
    edge = strength > 0.2 * float(strength.max()) if strength.any() else strength > 0
    if not edge.any():
        return 0.0
    angles = np.degrees(np.arctan2(gy[edge], gx[edge])) % 90
    weights = strength[edge]
    votes = np.bincount(angles.astype(np.intp) % 90, weights, minlength=90)
    # Smoothed round the circle of directions: each vote shared with its neighbours two either side (slices
    # of the votes wrapped round, as np.roll would give them, at a fifth of its cost).
    wrapped = np.concatenate([votes[-2:], votes, votes[:2]])
    smoothed = sum(wrapped[2 - shift:92 - shift] * weight for shift, weight in ((-2, 0.25), (-1, 0.5), (0, 1.0),
                                                                                 (1, 0.5), (2, 0.25)))
    peak = float(np.argmax(smoothed)) + 0.5
    # Mean of the votes near the peak, on the circle of directions modulo 90.
    near = np.abs((angles - peak + 45) % 90 - 45) <= 8
    turns = np.radians(angles[near] * 4)
    mean = math.atan2(float(np.sum(weights[near] * np.sin(turns))), float(np.sum(weights[near] * np.cos(turns))))
    return math.degrees(mean) / 4 % 90


def lattice_fits(foot: Mask, pitch: float) -> dict[int, float]:
    """For each cube count some grid gives the footprint, how well the best such grid fits
    (summed half-fullness of its cells: 0 = every cell full or empty)."""
    fits: dict[int, float] = {}
    if pitch < 3 or not foot.any():
        return fits
    angle = edge_angle(foot)
    h, w = foot.shape
    size = int(math.ceil(math.hypot(h, w))) + 2
    unit = (foot > 0).astype(np.float32)
    pitches = pitch * np.asarray(PITCHES)
    starts = pitches[:, None] * (np.arange(OFFSETS) / OFFSETS)[None, :]
    area = (pitches * pitches)[:, None, None, None, None]
    all_counts, all_misfits = [], []
    for turn in TURNS:
        # Turn the footprint so the lattice runs along the axes; cell sums then come from an integral image.
        rotation = cv2.getRotationMatrix2D((w / 2, h / 2), angle + turn, 1.0)
        rotation[:, 2] += (size / 2 - w / 2, size / 2 - h / 2)
        turned = cv2.warpAffine(unit, rotation, (size, size), flags=cv2.INTER_LINEAR)
        x, y, bw, bh = cv2.boundingRect((turned > 0).astype(np.uint8))
        summed = cv2.integral(turned[y:y + bh, x:x + bw], sdepth=cv2.CV_64F)
        # (pitch, row offset, column offset, row, column); lines past the edge clip to it and bound
        # empty cells.
        rows = _grid_lines(starts, pitches, bh)[:, :, None, :, None]
        cols = _grid_lines(starts, pitches, bw)[:, None, :, None, :]
        corners = summed[rows, cols]
        cells = corners[..., 1:, 1:] - corners[..., :-1, 1:] - corners[..., 1:, :-1] + corners[..., :-1, :-1]
        cover = np.minimum(cells / area, 1.0)
        all_misfits.append(np.minimum(cover, 1 - cover).sum(axis=(3, 4)).ravel())
        all_counts.append(np.count_nonzero(cover > FULL, axis=(3, 4)).ravel())
    counts, misfits = np.concatenate(all_counts), np.concatenate(all_misfits)
    for n in np.unique(counts).tolist():
        fits[int(n)] = float(misfits[counts == n].min())
    return fits


def _grid_lines(starts: NDArray[np.float64], pitches: NDArray[np.float64], length: int) -> NDArray[np.intp]:
    """Pixel positions of the grid lines over [0, length] for each pitch and offset: (pitch, offset, line)."""
    steps = np.arange(-1, length / pitches.min() + 2)
    return np.clip(np.round(starts[:, :, None] + pitches[:, None, None] * steps), 0, length).astype(np.intp)


def lattice_pitch(blob: Mask, lum: NDArray[np.float32], shortest: float, longest: float) -> tuple[float, float] | None:
    """The spacing of the lines between a heap's cubes, read from the picture: (pitch, strength).

    `blob` is the heap's mask and `lum` the picture's brightness over the same crop. Across a heap of
    cubes pushed square together, the edges between their tops (gaps, bevels, colour changes) repeat
    one cube apart: the first peak of the autocorrelation of the edge strength, averaged along each of the
    lattice's two directions, is the pitch. `strength` is that peak's height (about 1 where perfectly
    periodic); None where no direction has a peak between `shortest` and `longest` pixels, or the two
    directions' peaks disagree."""
    h, w = blob.shape
    if min(h, w) < 3:
        return None
    angle = edge_angle(blob)
    size = int(math.ceil(math.hypot(h, w))) + 2
    rotation = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    rotation[:, 2] += (size / 2 - w / 2, size / 2 - h / 2)
    turned = cv2.warpAffine(lum, rotation, (size, size), flags=cv2.INTER_LINEAR)
    # The heap's outline is no line between cubes: only edges well inside it count.
    inside = cv2.erode(cv2.warpAffine(blob, rotation, (size, size), flags=cv2.INTER_NEAREST),
                       np.ones((5, 5), np.uint8)) > 0
    peaks = []
    for axis in (0, 1):
        edges = np.abs(cv2.Sobel(turned, cv2.CV_32F, 1 - axis, axis, ksize=3)) * inside
        seen = inside.sum(axis=axis)
        usable = seen > 3
        if np.count_nonzero(usable) < 2 * shortest:
            continue
        profile = np.where(usable, edges.sum(axis=axis) / np.maximum(seen, 1), 0.0)
        profile = np.where(usable, profile - profile[usable].mean(), 0.0)
        # A line between two cubes has two flanks, each an edge: smoothed, they make one peak, and the
        # flanks of neighbouring lines no longer pair up a line's width short of the pitch.
        profile = cv2.GaussianBlur(profile.reshape(1, -1), (0, 0), sigmaX=PROFILE_BLUR, sigmaY=0).ravel()
        # Each lag's products averaged over the places both ends see (not summed: summed, the longer
        # lags have fewer terms, and the peak slides toward shorter ones).
        pairs = np.correlate(usable.astype(np.float64), usable.astype(np.float64), "full")[len(profile) - 1:]
        corr = np.correlate(profile, profile, "full")[len(profile) - 1:] / np.maximum(pairs, 1.0)
        if corr[0] <= 0:
            continue
        corr = np.where(pairs >= shortest, corr / corr[0], 0.0)
        first = max(2, int(math.floor(shortest)))
        for lag in range(first, min(len(corr) - 1, int(math.ceil(longest)) + 1)):
            if corr[lag] >= PITCH_PEAK and corr[lag] > corr[lag - 1] and corr[lag] >= corr[lag + 1]:
                peaks.append((float(lag), float(corr[lag])))
                break
    if not peaks:
        return None
    if len(peaks) == 2 and max(peaks)[0] > PITCH_AGREE * min(peaks)[0]:
        return None
    strength = max(s for _, s in peaks)
    return float(np.mean([p for p, _ in peaks])), strength


PROFILE_BLUR = 1.5  # canvas pixels
PITCH_PEAK = 0.2  # an autocorrelation peak under this is noise
PITCH_AGREE = 1.25  # the two axes' pitches may differ by this factor (a tilted camera foreshortens one)
