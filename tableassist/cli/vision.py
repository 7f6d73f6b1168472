"""`tableassist vision`: stock-yard camera: marker sheet, calibration, cube counts."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "vision", parents=[common], help="stock-yard camera: marker sheet, calibration, cube counts"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
