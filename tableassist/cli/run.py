"""`tableassist run`: the touchscreen app.

Builds the table session through the composition root (real devices where the config names them,
simulated ones elsewhere, `--simulate` for all) and starts the Kivy app on it, resuming the last game.
Kivy is imported only here, inside the handler, so other commands never pay for it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tableassist.errors import UserError

if TYPE_CHECKING:
    from tableassist.config import Config


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "run", parents=[common], help="the touchscreen app"
    )
    parser.add_argument("--config", metavar="FILE", default=None,
                        help="TOML config (default: config.toml in the user's config directory)")
    parser.add_argument("--simulate", action="store_true",
                        help="simulated devices throughout, with on-screen stand-ins for the reader and buttons")
    parser.add_argument("--size", metavar="WxH", default=None,
                        help="window size (default: $TABLEASSIST_SIZE, else [display] size in the config: 800x480)")
    parser.add_argument("--fullscreen", action="store_true", default=None,
                        help="fill the screen (default: [display] fullscreen, on a console without a desktop)")
    parser.set_defaults(handler=handle)


def window_size(args: argparse.Namespace, config: Config) -> tuple[int, int]:
    """--size, else $TABLEASSIST_SIZE, else the config's [display] size (800x480, the official 7" display)."""
    from ui.boot import parse_size

    return parse_size(str(args.size or os.environ.get("TABLEASSIST_SIZE") or config.display.size))


def fullscreen_wanted(args: argparse.Namespace, config: Config, environ: Mapping[str, str] = os.environ) -> bool:
    """--fullscreen always; else the config's [display] fullscreen, which fills the screen only where the app
    owns the console (the Pi without a desktop): under a desktop a developer gets a window of the size."""
    if args.fullscreen:
        return True
    desktop = bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))
    return config.display.fullscreen and not desktop


def handle(args: argparse.Namespace) -> int:
    from tableassist.config import load_config
    from ui.boot import configure, display_available

    config = load_config(args.config)
    size = window_size(args, config)
    if not display_available():
        raise UserError("no display: run it on the touchscreen (SDL_VIDEODRIVER=kmsdrm), "
                        "under X, or under xvfb-run for a test", exit_code=3)
    from tableassist.compose import build_session
    from tableassist.paths import state_dir

    session = build_session(args.config, simulate=args.simulate, db=args.db)
    try:
        session.resume("latest")
    except UserError:
        pass  # no game in the journal yet: the app opens on New game
    # Stand-ins for whatever the table lacks: all of them when simulating, else those the config leaves out.
    stand_ins = args.simulate or _lacks_hardware(session)
    configure(size, fullscreen=fullscreen_wanted(args, config), kivy_home=state_dir() / "kivy")
    from ui.app import TableApp

    app = TableApp(session, size=size, stand_ins=stand_ins, db_label=str(args.db or "default"))
    try:
        app.run()
    finally:
        session.close()
    return 0


def _lacks_hardware(session: Any) -> bool:
    devices = getattr(session, "devices", None)
    names = [type(getattr(devices, key, None)).__name__ for key in ("reader", "controls")]
    return any(name.startswith("Simulated") or name == "NoneType" for name in names)
