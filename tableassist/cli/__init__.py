"""The `tableassist` command line: a stable contract (DESIGN.md, "Command line").

Each command lives in its own module with `register(commands)`; the module sets `handler` on its
parser. This is the composition root's front door: command modules import hardware, calibration and
ui lazily, inside their handlers, so `tableassist score` never pays for OpenCV or Kivy.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module
from typing import NoReturn

from tableassist import __version__
from tableassist.errors import UserError

COMMAND_MODULES = (
    "run",
    "demo",
    "simulate",
    "score",
    "replay",
    "vision",
    "rfid",
    "cards",
    "say",
    "doctor",
    "backup",
)


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments get one clear line on stderr, not argparse's usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def global_options() -> argparse.ArgumentParser:
    """Options every command accepts, before or after the command name."""
    common = OneLineParser(add_help=False)
    common.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS,
                        help="SQLite database (default: the user's state directory)")
    return common


def named_command(argv: Sequence[str]) -> str | None:
    """The command the arguments name, if it is one of ours: the first word that is no option (nor the
    value of --db)."""
    words = iter(argv)
    for word in words:
        if word == "--db":
            next(words, None)
        elif not word.startswith("-"):
            return word if word in COMMAND_MODULES else None
    return None


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or just `only`'s command: importing every command's module costs a
    tenth of a second, and a script that counts one image per call pays it every time."""
    common = global_options()
    parser = OneLineParser(prog="tableassist", parents=[common],
                           description="Table Assistant for Snowdonia")
    parser.add_argument("--version", action="version", version=f"tableassist {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    commands.required = True
    for name in COMMAND_MODULES if only is None else (only,):
        module = import_module(f"tableassist.cli.{name}")
        module.register(commands, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(named_command(sys.argv[1:] if argv is None else argv))
    args = parser.parse_args(argv)
    if not hasattr(args, "db"):
        args.db = None
    try:
        result: int = args.handler(args)
        return result
    except UserError as err:
        print(f"tableassist {args.command}: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
