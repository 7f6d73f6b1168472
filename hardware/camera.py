"""Cameras that give BGR frames: any V4L2/USB camera through OpenCV, the Pi camera through Picamera2
(when installed), and a simulated camera that plays image files or generated frames."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from tableassist.errors import UserError

Frame = NDArray[np.uint8]


class OpenCVCamera:
    """A V4L2 / USB camera by index (0 = /dev/video0) or device path."""

    def __init__(self, device: int | str = 0, width: int = 1280, height: int = 720) -> None:
        backend = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
        self._capture = cv2.VideoCapture(device, backend)
        if not self._capture.isOpened():
            self._capture.release()
            raise UserError(f"camera {device} cannot be opened: is it plugged in, and is the user in group 'video'?")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one from seconds ago

    def read(self) -> Frame | None:
        ok, frame = self._capture.read()
        return np.asarray(frame, np.uint8) if ok and frame is not None else None

    def close(self) -> None:
        self._capture.release()


class PiCamera:
    """The Raspberry Pi camera through Picamera2 (only on a Pi with python3-picamera2 installed)."""

    def __init__(self, width: int = 1280, height: int = 720) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as err:
            raise UserError("the Pi camera needs Picamera2: sudo apt install python3-picamera2") from err
        self._camera: Any = Picamera2()
        config = self._camera.create_video_configuration(main={"size": (width, height), "format": "BGR888"})
        self._camera.configure(config)
        self._camera.start()

    def read(self) -> Frame | None:
        # Picamera2's "BGR888" is laid out B, G, R in memory on little-endian, as OpenCV expects.
        frame = self._camera.capture_array()
        return np.asarray(frame[:, :, :3], np.uint8) if frame is not None else None

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


class SimulatedCamera:
    """Plays frames: image files, arrays, or a function of the frame number; loops unless told not to."""

    def __init__(self, frames: Sequence[Path | str] | Iterable[Frame] | Callable[[int], Frame],
                 loop: bool = True) -> None:
        self._source: Iterator[Frame]
        if callable(frames):
            make = frames
            self._source = (make(i) for i in itertools.count())
        else:
            items = list(frames)
            if not items:
                raise UserError("the simulated camera has no frames to play")
            loaded = [_load(item) if isinstance(item, (str, Path)) else item for item in items]
            self._source = itertools.cycle(loaded) if loop else iter(loaded)
        self.closed = False

    def read(self) -> Frame | None:
        if self.closed:
            return None
        return next(self._source, None)

    def close(self) -> None:
        self.closed = True


def _load(path: Path | str) -> Frame:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise UserError(f"{path}: not an image the simulated camera can play")
    return np.asarray(image, np.uint8)


def open_camera(spec: object, width: int = 1280, height: int = 720) -> OpenCVCamera | PiCamera:
    """The camera the config names: its [camera] settings (index, width, height), or 'picamera',
    a device path (/dev/video2) or an index (0 or '0')."""
    if hasattr(spec, "index"):
        width = int(getattr(spec, "width", width))
        height = int(getattr(spec, "height", height))
        spec = getattr(spec, "device", None) or spec.index
    if spec == "picamera":
        return PiCamera(width, height)
    if isinstance(spec, int):
        return OpenCVCamera(spec, width, height)
    text = str(spec)
    return OpenCVCamera(int(text) if text.isdigit() else text, width, height)
