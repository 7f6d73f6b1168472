"""Cast shadows with a tint of their own: a warm lamp in a cooler room.

Where a cube blocks the lamp, only the room's light reaches the ground. Every cast shadow in the
frame then darkens the ground by the same factor in each channel, but not by one factor for all
three: the shadow takes on the room light's colour, and the test for an unchanged chromaticity
(`segment.LessLight.same_ground`) misses it. That factor is the frame's umbra. Every cube has a
shadow and all of them have the one colour, so it is the commonest colour change among the blobs'
darker pixels.

A grey stone can darken plain ground much the same way, and the umbra found may be the stones'.
A shadow keeps the ground's own texture, only darker, where a cube hides it: the shadow's umbra is
the one under which the ground's grain still shows.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from hardware.stockyard.segment import SHADOW_DEPTH, EmptyYard, LessLight, luminance

Box = tuple[int, int, int, int]

UMBRA_DARKER = 0.9  # brightness over the empty yard's below which a blob's pixel may be shadow (as castshadow)
UMBRA_RADIUS = 0.12  # distance of log channel ratios within which pixels share the umbra's colour
UMBRA_TINT = 0.3  # spread of its log channel ratios a shadow stays within (an orange cube's sides: ~1.2)
UMBRA_DEPTH = 0.85  # the least a shadow darkens: its channels' mean ratio to the ground is under this
PENUMBRA = 2  # pixels past the umbra, still darker than the ground, that belong to the shadow's soft edge
KEEPS_TEXTURE = 0.2  # correlation of the ground's fine texture then and now a shadow keeps (stones: 0.19 at most)
_SEEDS = (0.1, 0.3, 0.5)  # brightness quantiles of the darker pixels the search for the commonest colour starts at
_SEED_BAND = 0.1
_MIN_PIXELS = 50
_MIN_CORE = 30
_FINE = (5, 5)


def _darker(darker: LessLight, blob: NDArray[np.bool_]) -> NDArray[np.bool_]:
    ratio = darker.now_lum / np.maximum(darker.then_lum, 1e-4)
    return np.asarray(blob & (ratio > SHADOW_DEPTH) & (ratio < UMBRA_DARKER))


def frame_umbra(blobs: Sequence[tuple[LessLight, NDArray[np.bool_]]]) -> NDArray[np.float32] | None:
    """The commonest colour change (log channel ratios) among the blobs' darker pixels, if it can be a
    shadow's: dark enough, and no more tinted than a room light makes it. `blobs`: each blob's box
    measure and its pixels there."""
    changes, ratios = [], []
    for darker, blob in blobs:
        dark = _darker(darker, blob)
        changes.append(darker.channel_change[dark])
        ratios.append((darker.now_lum / np.maximum(darker.then_lum, 1e-4))[dark])
    points, ratio = np.concatenate(changes), np.concatenate(ratios)
    if len(points) < _MIN_PIXELS:
        return None
    best, support = None, 0
    for q in _SEEDS:
        lo, hi = np.quantile(ratio, [max(q - _SEED_BAND, 0.0), q + _SEED_BAND])
        band = points[(ratio >= lo) & (ratio <= hi)]
        if len(band) == 0:
            continue
        mode, near = _mode(points, np.median(band, axis=0))
        if near > support:
            best, support = mode, near
    if best is None or float(best.max() - best.min()) > UMBRA_TINT or float(best.mean()) > np.log(UMBRA_DEPTH):
        return None
    return np.asarray(best, np.float32)


def _mode(points: NDArray[np.float32], start: NDArray[np.float32], steps: int = 15) -> tuple[NDArray[np.float32], int]:
    """Mean shift from `start` to the densest colour change near it, and how many points lie there."""
    centre = start
    for _ in range(steps):
        near = points[np.linalg.norm(points - centre, axis=1) < UMBRA_RADIUS]
        if len(near) == 0:
            return centre, 0
        moved = near.mean(axis=0)
        settled = float(np.linalg.norm(moved - centre)) < 1e-3
        centre = moved
        if settled:
            break
    return centre, int(np.count_nonzero(np.linalg.norm(points - centre, axis=1) < UMBRA_RADIUS))


def umbra_shadow(darker: LessLight, blob: NDArray[np.bool_], umbra: NDArray[np.float32]) -> NDArray[np.bool_]:
    """A blob's pixels in the umbra's colour, and its soft edge: darker pixels just past it. (A cube
    darker than the ground loses that much of its rim to the edge too; its footprint is measured after
    the cut with the band `castshadow` keeps.)"""
    core = _darker(darker, blob) & (np.linalg.norm(darker.channel_change - umbra, axis=2) < UMBRA_RADIUS)
    edge = cv2.dilate(core.astype(np.uint8), np.ones((2 * PENUMBRA + 1,) * 2, np.uint8)) > 0
    return np.asarray(core | (edge & blob & (darker.now_lum < darker.then_lum)))


def keeps_texture(colours: FloatImage, empty: EmptyYard, shadows: Sequence[tuple[Box, NDArray[np.bool_]]]) -> bool:
    """Whether the ground's fine texture shows through the shadows as it did in the empty yard."""
    now_parts, then_parts = [], []
    for (x, y, w, h), shadow in shadows:
        # Away from the shadow's edges and the box's, where the fine texture is the blur's.
        core = cv2.erode(shadow.astype(np.uint8), np.ones(_FINE, np.uint8), borderType=cv2.BORDER_CONSTANT,
                         borderValue=0) > 0
        if not core.any():
            continue
        now = luminance(np.ascontiguousarray(colours[y:y + h, x:x + w]))
        then = np.ascontiguousarray(empty.lum[y:y + h, x:x + w])
        now_parts.append((now - cv2.blur(now, _FINE))[core])
        then_parts.append((then - cv2.blur(then, _FINE))[core])
    if sum(len(p) for p in now_parts) < _MIN_CORE:
        return False
    now_fine, then_fine = np.concatenate(now_parts), np.concatenate(then_parts)
    energy = float(np.sqrt(np.dot(now_fine, now_fine) * np.dot(then_fine, then_fine)))
    return energy > 0 and float(np.dot(now_fine, then_fine)) / energy >= KEEPS_TEXTURE
