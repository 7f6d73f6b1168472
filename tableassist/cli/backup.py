"""`tableassist backup [--to DIR] [--keep N]`: an online copy of the game database (the nightly timer runs it)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from tableassist.backup import DEFAULT_KEEP, back_up


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "backup", parents=[common],
        help="copy the database (safe while a game is running), keeping the newest N copies",
    )
    parser.add_argument("--to", metavar="DIR", type=Path, default=None,
                        help="backup directory (default: 'backups' beside the database)")
    parser.add_argument("--keep", metavar="N", type=int, default=DEFAULT_KEEP,
                        help=f"how many backups to keep, oldest removed first (default: {DEFAULT_KEEP})")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    result = back_up(Path(args.db) if args.db else None, args.to, keep=args.keep)
    size_kib = result.size_bytes / 1024
    removed = f", removed {len(result.removed)} older" if result.removed else ""
    print(f"backed up {result.source} to {result.path} ({size_kib:.0f} KiB, integrity ok); "
          f"{len(result.kept)} kept{removed}")
    return 0
