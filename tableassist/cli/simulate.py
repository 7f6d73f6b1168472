"""`tableassist simulate`: random legal play through the engine, checking invariants."""

from __future__ import annotations

import argparse
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "simulate", parents=[common], help="random legal play through the engine, checking invariants"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    raise UserError("not built yet")
