"""The owner's box as the source of truth: placeholder values asked for, checked, remembered."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def _route_vps(session: TableSession) -> dict[int, int]:
    return {t["card"]: t["vp"] for t in session.game.state.to_json()["route"]}


def test_a_correction_mid_game_changes_new_games_not_the_one_under_way(tmp_path: Path) -> None:
    """The components are stored with the game: the owner's VP correction made while a game runs does not
    change that game after a restart (resume replays it with the values it began with)."""
    from tests.session.helpers import play_until

    def round_is(n: int) -> Any:
        return lambda game: game.state.round == n and game.waiting is not None and game.waiting.kind == "place"

    override = tmp_path / "config" / "components.json"
    db = tmp_path / "db.sqlite3"
    session = TableSession(Journal(db), override_path=override)
    game_id = session.new_game(["Ann", "Ben", "Cai"], ["green", "blue", "yellow"], seed=3)
    play_until(session, round_is(2))
    began_with = _route_vps(session)
    actions = session.game.actions
    corrected = {t.id: t.vp + 1 for t in comp.default().track_cards}
    session.set_track_vps(corrected)  # the owner reads the printed VPs off the cards mid-game
    session.close()

    # built as the composition root builds it: the components with the override file
    restarted = TableSession(Journal(db), components=comp.load(override), override_path=override)
    assert {t.id: t.vp for t in restarted.components.track_cards} == corrected
    assert restarted.resume(game_id) == game_id
    assert restarted.game.actions == actions
    assert _route_vps(restarted) == began_with  # the game under way keeps the values it began with
    new_id = restarted.new_game(["Ann", "Ben"], ["green", "blue"], seed=4)
    assert all(vp == corrected[card] for card, vp in _route_vps(restarted).items())  # new games: the new values
    record = restarted.journal.load(new_id)
    assert record.components is not None
    assert {t["id"]: t["vp"] for t in record.components["track_cards"]["list"]} == corrected
    restarted.close()


def test_a_game_journalled_before_games_kept_components_resumes_with_the_current_ones(tmp_path: Path) -> None:
    """Migration: an older journal (no components column) is upgraded on open; its games fall back to the
    components in force now."""
    import sqlite3

    db = tmp_path / "old.sqlite3"
    old = sqlite3.connect(db)
    old.executescript("""
        CREATE TABLE session_games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
            setup TEXT NOT NULL, bag_mode TEXT NOT NULL, seed INTEGER NOT NULL,
            language TEXT NOT NULL DEFAULT 'en', finished INTEGER NOT NULL DEFAULT 0, result TEXT);
        CREATE TABLE session_actions (game_id INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL,
            source TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, idx));
    """)
    setup: dict[str, Any] = {"players": ["Ann", "Ben", "Cai"], "colours": ["green", "blue", "yellow"], "options": {},
             "solo_train": None}
    old.execute("INSERT INTO session_games (created, setup, bag_mode, seed) VALUES ('2026-01-01', ?, 'digital', 3)",
                (json.dumps(setup),))
    old.commit()
    old.close()
    current = comp.default()
    raw = json.loads(json.dumps(current.raw))
    for card in raw["track_cards"]["list"]:
        card["vp"] += 2
    session = TableSession(Journal(db), components=comp.build(raw))
    assert session.journal.load(1).components is None
    session.resume(1)
    vps = {t["id"]: t["vp"] for t in raw["track_cards"]["list"]}
    assert _route_vps(session) and all(vp == vps[card] for card, vp in _route_vps(session).items())
    second = session.new_game(["Ann", "Ben"], ["green", "blue"], seed=1)  # the upgraded table takes new games
    assert session.journal.load(second).components is not None
    session.close()


def test_replay_uses_the_components_stored_with_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tableassist.cli.replay import load, rebuild
    from tableassist.session.journal import load_export

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no owner corrections on this machine
    db = tmp_path / "db.sqlite3"
    raw = json.loads(json.dumps(comp.default().raw))
    for card in raw["track_cards"]["list"]:
        card["vp"] += 3
    session = TableSession(Journal(db), components=comp.build(raw))
    game_id = session.new_game(["Ann", "Ben", "Cai"], ["green", "blue", "yellow"], seed=3)
    played = _route_vps(session)
    export = tmp_path / "game.json"
    export.write_text(json.dumps(session.journal.export(game_id)), encoding="utf-8")
    session.close()
    for source in (str(game_id), str(export)):
        loaded = load(source, str(db))
        game = rebuild(loaded.setup, loaded.actions, loaded.components)
        assert {t["card"]: t["vp"] for t in game.state.to_json()["route"]} == played, source
    assert load_export(export)["components"] == raw
