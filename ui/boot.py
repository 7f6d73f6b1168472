"""Kivy set-up that must happen before the first Kivy window import.

Kivy reads its configuration when `kivy.core.window` is first imported, so `configure` runs before
`ui.app` (or any widget module) is imported. It never imports Kivy widgets itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from tableassist.errors import UserError

DEFAULT_SIZE = (800, 480)


def parse_size(text: str) -> tuple[int, int]:
    """'800x480' → (800, 480); a plain sentence for anything else."""
    try:
        width, height = (int(part) for part in text.lower().strip().split("x"))
    except ValueError:
        raise UserError(f"a window size looks like 800x480, not {text!r}") from None
    if not (320 <= width <= 4096 and 240 <= height <= 4096):
        raise UserError(f"the window size {text} is outside 320x240 … 4096x4096")
    return width, height


def configure(size: tuple[int, int] = DEFAULT_SIZE, *, fullscreen: bool = False, quiet: bool = True,
              kivy_home: Path | None = None, max_fps: int = 60) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")  # our argparse owns the command line, not Kivy's
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    # MIXED: Kivy logs through its own logger only and leaves sys.stderr alone, so our one-line errors and
    # any traceback still reach the terminal (KIVY mode would swallow stderr into its log).
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    if kivy_home is not None:
        # Under systemd the home directory is read-only: Kivy's config.ini goes to our state directory.
        kivy_home.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("KIVY_HOME", str(kivy_home))
    from kivy.config import Config

    width, height = size
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "0")
    # No multisampling: flat rectangles and text do not need it, and it multiplies the cost of every frame
    # on the Pi's GPU and on software GL alike.
    Config.set("graphics", "multisamples", "0")
    # 0 for the frame-pumping driver (tests, snapshots): frames as fast as they render, no sleeping.
    Config.set("graphics", "maxfps", str(max_fps))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    # A touch table: no red multitouch-emulation dots from a right click, no mouse cursor needed on the Pi.
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("kivy", "exit_on_escape", "0")
    # The on-screen keyboard docks at the bottom when a name field is touched (no keyboard at the table).
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")


def display_available() -> bool:
    """Whether an X display or a KMS/DRM console can show a window (checked without opening one)."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    return os.environ.get("SDL_VIDEODRIVER") in {"kmsdrm", "rpi", "dispmanx"}
