"""What a frame's colours show at every pixel of the canvas, worked out before any cube is found.

The counter asks three things of the pixels round each blob: how strong the edges are where its tops lie
(the seams between touching cubes follow them), which colour group each top is (one cube is one colour),
and the print's fine texture (it shows through a shadow, not through a cube). None of them needs the cube
net's mask, so the reader works them out for the whole canvas on its own thread while the net runs on
another, where it would otherwise wait; the counter then only looks them up, in every count of the frame (a
doubtful frame is counted two or three times). Until 2026-12-01 the counter worked each out on a crop round
each blob, reaching past the filters' reach (8 pixels): the same values, and the 2400 scenes of
tests/bench/exact_scenes.py read the same, cube for cube.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.classify import colour_groups
from hardware.stockyard.colour import FloatImage
from hardware.stockyard.matching import luminance, print_texture


def edge_strength(colours: FloatImage) -> NDArray[np.float32]:
    """Gradient magnitude over the colour channels, lightly smoothed."""
    gx = cv2.Sobel(colours, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(colours, cv2.CV_32F, 0, 1, ksize=3)
    total = cv2.transform(cv2.add(cv2.multiply(gx, gx), cv2.multiply(gy, gy)), np.ones((1, 3), np.float32))
    return np.asarray(cv2.GaussianBlur(cv2.sqrt(total), (0, 0), 1.0), np.float32)


@dataclass(frozen=True)
class Cues:
    """The canvas's colours (`colours`, H×W×3) and, for each of its pixels: `edges` (edge_strength), `groups`
    (classify.colour_groups: orange, dark and light, H×W each) and `texture` (the fine texture of its
    brightness, matching.print_texture)."""

    colours: FloatImage
    edges: NDArray[np.float32]
    groups: tuple[NDArray[np.bool_], ...]
    texture: NDArray[np.float32]

    @classmethod
    def of(cls, colours: FloatImage) -> Cues:
        height, width = colours.shape[:2]
        groups = tuple(g.reshape(height, width) for g in colour_groups(colours.reshape(-1, 3)))
        return cls(colours, edge_strength(colours), groups, print_texture(luminance(colours)))
