"""The cube net: a small convolutional network that says which pixels of the warped yard are cubes.

Hand-made evidence (colour, brightness and texture against the empty yard, each with its threshold)
loses cubes that barely differ from the ground around them: a grey stone on gravel, a white event on
snow. A person still sees them by their outline and their faces. The net looks at the picture now and
the empty yard's picture side by side, down to an eighth of the canvas where it sees about four cube
sides around each pixel, so it can weigh those shapes too, and it learns what a cast shadow is not.

It was trained on generated scenes from five of the test suite's scene generators (our two styles and the
first three independent ones), each of which paints its boards, cubes, shadows and cameras its own way (see
tests/vision/cubenet_training/); the fourth to sixth independent generators are held out from training. It
runs through OpenCV's own dnn module, so the Pi needs nothing beyond OpenCV.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from hardware.stockyard.colour import FloatImage
from tableassist.errors import UserError

MODEL = Path(__file__).with_name("cubenet.onnx")
# Colours are in units of the markers' white; the log keeps the net blind to the room's brightness
# (a darker room shifts every value alike) and this floor keeps it off sensor noise near black.
DARK_FLOOR = 0.03


def features(colours: FloatImage) -> NDArray[np.float32]:
    """Log colours, the net's view of a picture."""
    return np.asarray(cv2.log(np.maximum(colours, 0) + DARK_FLOOR), np.float32)


class ModelMissing(UserError):
    """The cube net's model file is not where the package put it: a broken install. A UserError, so
    every command shows it as one line; the session and the demo catch it to let go of their camera."""


class CubeNet:
    """Cube likelihood per pixel of a canvas, as a logit: above 0, more likely cube than not."""

    def __init__(self, model: Path = MODEL) -> None:
        if not model.is_file():  # OpenCV's own message names neither the file's purpose nor a remedy
            raise ModelMissing(f"the cube net's model is missing ({model}): reinstall tableassist")
        self._net = cv2.dnn.readNetFromONNX(str(model))
        # The empty yard's planes are the same for every frame read against it: worked out once (a
        # millisecond a frame). Kept by identity: the reader hands over the same array each time.
        self._empty: FloatImage | None = None
        self._empty_planes: list[NDArray[np.floating]] = []

    def logits(self, colours: FloatImage, empty: FloatImage) -> NDArray[np.float32]:
        """A logit for each pixel of `colours`, a frame's canvas, against `empty`, the empty yard's."""
        if empty is not self._empty:
            self._empty, self._empty_planes = empty, [np.asarray(p) for p in cv2.split(features(empty))]
        planes = [*cv2.split(features(colours)), *self._empty_planes]
        self._net.setInput(np.stack(planes)[None])  # one picture, its six channels first
        half = self._net.forward()[0, 0]  # the net answers at half the canvas's resolution
        height, width = colours.shape[:2]
        return np.asarray(cv2.resize(half, (width, height), interpolation=cv2.INTER_LINEAR), np.float32)
