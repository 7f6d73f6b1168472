"""The stock-yard reader: markers → top-down yard → light matched → cube pixels (the cube net) → cubes
counted by colour.

`YardReader.read(frame)` reads one frame; `Stabiliser` turns a stream of readings into a steady one;
`CameraYardReader` is the `tableassist.ports.StockYardCamera` the table session uses; `ReaderPool` reads
many frames side by side.
"""

from hardware.stockyard.pool import ReaderPool
from hardware.stockyard.profile import YardProfile, build_profile, load_profile, save_profile
from hardware.stockyard.reader import CameraYardReader, FrameReading, Stabiliser, YardReader

__all__ = [
    "CameraYardReader",
    "FrameReading",
    "ReaderPool",
    "Stabiliser",
    "YardProfile",
    "YardReader",
    "build_profile",
    "load_profile",
    "save_profile",
]
