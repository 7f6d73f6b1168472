"""Which screen the table needs, read from real session views (no display needed)."""

from __future__ import annotations

from pathlib import Path

from tableassist.session import Journal, TableSession
from ui.viewdata import percent, screen_for


def test_screens_follow_the_sessions_decisions(tmp_path: Path) -> None:
    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    assert screen_for(session.view()) == "new_game"
    session.new_game(["Ann", "Ben"], ["green", "blue"], seed=2)
    seen = set()
    while not session.view()["finished"]:
        view = session.view()
        kind = view["waiting"]["kind"]
        screen = screen_for(view)
        seen.add(screen)
        if kind == "place":
            assert screen == "placement"
        elif view["waiting"]["player"] is not None:
            assert screen == "resolution", kind
        assert session.act(view["choices"][0]["action"]).ok
    assert screen_for(session.view()) == "final_scores"
    assert {"placement", "resolution"} <= seen
    session.close()


def test_physical_bag_waits_on_the_table(tmp_path: Path) -> None:
    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    session.new_game(["Ann", "Ben"], ["green", "blue"], bag_mode="physical", seed=2)
    assert session.view()["waiting"]["player"] is None
    assert screen_for(session.view()) == "end_of_round"
    session.close()


def test_percent_never_rounds_a_real_risk_to_zero() -> None:
    assert percent(0.004) == "<1%"
    assert percent(0.0) == "0%"
    assert percent(0.716) == "72%"
    assert percent(None) == "–"
