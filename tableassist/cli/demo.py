"""`tableassist demo`: a complete game on simulated hardware, no display needed."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "demo", parents=[common], help="a complete game on simulated hardware, no display needed"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
