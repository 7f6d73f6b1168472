"""Table session benchmark: what a tap costs (engine step + journal commit + announcement), view() for the
screen, resume (replay from the journal) of a whole game, the exact forecast, and the camera check.

Run: .venv/bin/python tests/bench/bench_session.py  (prints numbers; `make bench` runs it)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tableassist.compose import CountingCamera, SimulatedTable  # noqa: E402
from tableassist.session import Devices, Journal, TableSession, rules  # noqa: E402
from tableassist.session.forecast import event_risk  # noqa: E402
from tests.session.helpers import seeded_choice  # noqa: E402


def ms(values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(len(values) * 0.95) - 1] if len(values) >= 20 else values[-1]
    return f"median {statistics.median(values) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, max {values[-1] * 1000:.2f} ms"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite3"
        table = SimulatedTable()
        session = TableSession(Journal(db), Devices(camera=CountingCamera(table)))
        session.new_game(["Ann", "Ben", "Cai", "Dee"], ["green", "blue", "yellow", "pink"], seed=1)
        table.follow(session)
        acts, views = [], []
        while not session.game.finished:
            action = seeded_choice(session.game, 1)
            started = time.perf_counter()
            outcome = session.act(action)
            acts.append(time.perf_counter() - started)
            assert outcome.ok, outcome.message
            started = time.perf_counter()
            session.view()
            views.append(time.perf_counter() - started)
        total = len(session.game.actions)
        print(f"4-player game: {total} actions, {len(acts)} taken by players (the rest drawn by the digital bag)")
        print(f"act() incl. digital draws, SQLite commit (synchronous=FULL), announcer, notify: {ms(acts)}")
        print(f"view() (choices, blocked with reasons, forecast, estimate, preview): {ms(views)}")
        game_id = session.game_id
        resumes = []
        for _ in range(5):
            again = TableSession(Journal(db))
            started = time.perf_counter()
            again.resume(game_id or 0)
            resumes.append(time.perf_counter() - started)
        print(f"resume a finished 4-player game from the journal ({total} actions): {ms(resumes)}")
        bag = {"iron": 27, "stone": 16, "coal": 8, "event": 5}
        started = time.perf_counter()
        for _ in range(1000):
            event_risk(bag, 12, ["excavate"] * 12)
        print(f"exact forecast (bag of 56, restock 12): {(time.perf_counter() - started):.3f} ms per call")
        check = []
        for _ in range(50):
            started = time.perf_counter()
            session.check_yard()
            check.append(time.perf_counter() - started)
        print(f"camera check through the session (counting camera, no image): {ms(check)}")
        try:
            from tableassist.compose import RenderedYardCamera

            rendered = RenderedYardCamera(SimulatedTable({"iron": 7, "stone": 4, "coal": 1}), seed=3)
            reads = []
            for _ in range(5):
                started = time.perf_counter()
                rendered.read_yard()
                reads.append(time.perf_counter() - started)
            print(f"demo camera: render a 1280x720 stock yard + real reader: {ms(reads)}")
        except ImportError as err:
            print(f"demo camera: not measured ({err})")
        print(f"game finished: {rules.result(session.game)['winners']} won")


if __name__ == "__main__":
    main()
