"""A real pseudo-terminal pair standing in for the reader's USB-serial adapter.

The test holds the master end and writes what a reader would send; the code under test opens the slave
end with pyserial, exactly as it opens /dev/ttyUSB0. The slave is put in raw mode at once, as pyserial
would, so that bytes written before the reader opens it are not taken for ^C (ETX is 0x03) by the line
discipline.
"""

from __future__ import annotations

import os
import tty
from pathlib import Path


class FakeReaderPort:
    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.closed = False

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def unplug(self) -> None:
        """Both ends closed: the device node goes away and the reader's next read fails."""
        if not self.closed:
            os.close(self.master)
            os.close(self.slave)
            self.closed = True


def point_link(link: Path, target: str) -> None:
    """Re-point a symlink atomically, as udev does for /dev/tableassist-rfid when the adapter returns."""
    tmp = link.with_name(link.name + ".new")
    if tmp.is_symlink():
        tmp.unlink()
    tmp.symlink_to(target)
    os.replace(tmp, link)
