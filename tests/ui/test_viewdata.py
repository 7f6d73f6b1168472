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


def test_the_next_event_is_the_forecasts_not_the_first_empty_space(tmp_path: Path) -> None:
    from ui.screens.overview import next_event_kind

    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    session.new_game(["Ann", "Ben", "Cy"], ["green", "blue", "yellow"], seed=5)
    for _ in range(2000):  # play until a return has emptied spaces below an occupied one
        view = session.view()
        if view["finished"]:
            break
        occupied = view["state"]["event_track"]["occupied"]
        if any(occupied) and not occupied[0]:
            break
        assert session.act(view["choices"][0]["action"]).ok
    view = session.view()
    occupied = view["state"]["event_track"]["occupied"]
    assert any(occupied) and not occupied[0], "no game state with a gap below an occupied space"
    fired = [o["fire"][0] for o in view["forecast"]["outcomes"] if o["events"] >= 1 and o["fire"]]
    assert next_event_kind(view) == (fired[0] if fired else None)
    session.close()
