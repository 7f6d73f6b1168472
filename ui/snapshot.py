"""Save a PNG of every screen of one game, read-only: `python -m ui.snapshot --db DB --game ID --out DIR`.

The demo calls this at a few moments of a game; the tests call the same code. The game is rebuilt from
its journal by a TableSession that never draws or writes (auto_draw off, no devices), and every screen is
drawn for each size. Without a display (no X server, no Xvfb, no KMS console) it exits 3 with one line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tableassist.errors import UserError
from ui.boot import configure, display_available, parse_size

NO_DISPLAY_EXIT = 3


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m ui.snapshot",
                                     description="Save a PNG of every screen of one game (read-only).")
    parser.add_argument("--db", required=True, help="the SQLite database with the game's journal")
    parser.add_argument("--game", required=True, help="game id, or 'latest'")
    parser.add_argument("--out", required=True, help="directory for the PNG files")
    parser.add_argument("--sizes", default="800x480,1024x600", help="window sizes, comma separated")
    return parser.parse_args(argv)


def open_read_only(db: str, game: str) -> Any:
    """The game's session, replayed from the journal, that will not draw chance outcomes nor write actions."""
    from tableassist.session import Devices, Journal, TableSession

    if not Path(db).exists():
        raise UserError(f"there is no database at {db}")
    journal = Journal(db)
    record = journal.load(journal.resolve(game))
    # In the language the table played in (kept in the journal), so the screenshots show what it saw.
    language = record.language if record.language in ("en", "de", "es") else "en"
    session = TableSession(journal, Devices(), language=language, auto_draw=False)  # type: ignore[arg-type]
    session.resume(game)
    return session


def file_name(view: dict[str, Any], screen: str, size: tuple[int, int]) -> str:
    """Unique per moment of the game, so snapshots taken at several moments into one folder do not collide."""
    phase = (view.get("state") or {}).get("phase") or "setup"
    round_now = view.get("round") or 0
    return f"game{view.get('game_id')}-round{round_now:02d}-{phase}-{screen}-{size[0]}x{size[1]}.png"


def save_all(harness: Any, out: Path, sizes: Sequence[tuple[int, int]]) -> list[Path]:
    """Every screen at every size; returns the files written."""
    app = harness.app
    written = []
    for size in sizes:
        harness.resize(size)
        for name in list(app.screens):
            app.show(name)
            written.append(harness.screenshot(out / file_name(app.view, name, size)))
    return written


def run(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    sizes = [parse_size(s) for s in args.sizes.split(",") if s.strip()]
    if not sizes:
        raise UserError("--sizes needs at least one size such as 800x480")
    if not display_available():
        print("ui.snapshot: no display available (set DISPLAY or run under xvfb-run); no screenshots saved",
              file=sys.stderr)
        return NO_DISPLAY_EXIT
    session = open_read_only(args.db, args.game)
    configure(sizes[0], max_fps=0)
    from ui.app import TableApp
    from ui.driver import Harness

    app = TableApp(session, size=sizes[0], read_only=True, db_label=args.db)
    harness = Harness(app)
    written = save_all(harness, Path(args.out), sizes)
    harness.close()
    print(f"saved {len(written)} screenshots in {args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return run(argv)
    except UserError as err:
        print(f"ui.snapshot: {err}", file=sys.stderr)
        return err.exit_code


if __name__ == "__main__":
    sys.exit(main())
