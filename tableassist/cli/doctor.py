"""`tableassist doctor`: check camera, reader, GPIO, voice and database."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "doctor", parents=[common], help="check camera, reader, GPIO, voice and database"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
