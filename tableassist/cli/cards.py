"""`tableassist cards`: the RFID card registry."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "cards", parents=[common], help="the RFID card registry"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
