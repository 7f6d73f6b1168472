"""The owner's box as the source of truth: placeholder values asked for, checked, remembered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tableassist.cards import CardSpec
from tableassist.engine import components as comp
from tableassist.errors import UserError
from tableassist.session import Journal, TableSession
from tests.session.helpers import make_table

LAYOUT = ["trains_available", "excavate", "lay_track", "maintenance", "complete_station", "excavate",
          "lay_track", "excavate", "complete_station", "lay_track"]


def test_the_session_asks_for_what_the_data_only_guesses(tmp_path: Path) -> None:
    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    keys = [q["key"] for q in session.questions()]
    assert set(comp.default().placeholders) >= {"track_cards.vp", "event_track"}
    assert "track_cards.vp" in keys and "event_track" in keys
    assert [q["key"] for q in session.view()["questions"]] == keys


def test_the_event_track_is_entered_once_and_remembered(tmp_path: Path) -> None:
    override = tmp_path / "config" / "components.json"
    session = TableSession(Journal(tmp_path / "db.sqlite3"), override_path=override)
    with pytest.raises(UserError, match="10 spaces"):
        session.set_event_track(LAYOUT[:9])
    with pytest.raises(UserError, match="Space 2: 'party'"):
        session.set_event_track([LAYOUT[0], "party", *LAYOUT[2:]])
    session.set_event_track(LAYOUT)
    assert "event_track" not in [q["key"] for q in session.questions()]
    saved = json.loads(override.read_text())
    assert saved["event_track"]["spaces"] == LAYOUT and saved["event_track"]["source"] == "owner"
    later = comp.load(override)  # the next start of the assistant reads the same file
    assert list(later.event_track) == LAYOUT and "event_track" not in later.placeholders
    assert later.event_returns == comp.default().event_returns  # the rest of the section is kept


def test_track_vps_tapped_in_at_enrolment_are_used_for_the_game(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, new=False)
    rubble = {t.id: t.rubble for t in comp.default().track_cards}
    printed = {card: (card * 3) % 8 for card in rubble}  # as if read off the owner's cards
    for card, vp in printed.items():
        table.cards.enrol(f"00000001{card:02X}", CardSpec(kind="track", number=card, rubble=rubble[card], vp=vp))
    table.session.new_game(["Ann", "Ben", "Cai"], ["green", "blue", "yellow"], seed=3)
    assert "track_cards.vp" not in table.session.components.placeholders
    route = table.session.game.state.to_json()["route"]
    assert route and all(t["vp"] == printed[t["card"]] for t in route)


def test_an_impossible_track_vp_is_refused(tmp_path: Path) -> None:
    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    with pytest.raises(UserError, match="no track card 99"):
        session.set_track_vps({99: 3})
    with pytest.raises(UserError, match="40 VP"):
        session.set_track_vps({1: 40})
    german = TableSession(Journal(tmp_path / "db.sqlite3"), language="de")
    with pytest.raises(UserError, match="Gleiskarte 99"):
        german.set_track_vps({99: 3})
    session.set_track_vps({1: 6})
    assert session.components.track_cards[0].vp == 6
    assert "track_cards.vp" in session.components.placeholders  # 13 cards still unknown
