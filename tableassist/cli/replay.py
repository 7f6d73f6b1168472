"""`tableassist replay`: rebuild a game from its journal and print where it stands."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "replay", parents=[common], help="rebuild a game from its journal and print where it stands"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
