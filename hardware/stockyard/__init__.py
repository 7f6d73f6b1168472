"""The stock-yard reader: markers → top-down yard → light matched → cube pixels (the cube net) → cubes
counted by colour.

`YardReader.read(frame)` reads one frame; `Stabiliser` turns a stream of readings into a steady one;
`CameraYardReader` is the `tableassist.ports.StockYardCamera` the table session uses; `read_in_processes`
reads a batch of frames side by side.
"""

from hardware.stockyard.pool import read_in_processes
from hardware.stockyard.profile import YardProfile, build_profile, load_profile, save_profile
from hardware.stockyard.reader import CameraYardReader, FrameReading, Stabiliser, YardReader

__all__ = [
    "CameraYardReader",
    "FrameReading",
    "Stabiliser",
    "YardProfile",
    "YardReader",
    "build_profile",
    "load_profile",
    "read_in_processes",
    "save_profile",
]
