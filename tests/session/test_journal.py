"""The journal on a real SQLite file: rows survive a new connection; undo truncates; exports read back."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tableassist.errors import UserError
from tableassist.session.journal import Journal, load_export

SETUP: dict[str, Any] = {"players": ["Ann", "Ben"], "colours": ["green", "blue"], "options": {}, "solo_train": None}


def test_actions_committed_are_there_for_a_new_connection(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    journal = Journal(db)
    game = journal.create_game(SETUP, "digital", 7)
    for i in range(3):
        journal.append(game, i, {"type": "pass", "player": i % 2}, "table")
    # a second, independent connection (another process after a power cut) sees every committed row
    raw = sqlite3.connect(db)
    assert raw.execute("SELECT COUNT(*) FROM session_actions WHERE game_id = ?", (game,)).fetchone()[0] == 3
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()
    record = Journal(db).load(game)
    assert record.actions == [{"type": "pass", "player": 0}, {"type": "pass", "player": 1},
                              {"type": "pass", "player": 0}]
    assert record.seed == 7 and record.bag_mode == "digital" and not record.finished


def test_an_index_taken_twice_is_refused(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.create_game(SETUP, "digital", 1)
    journal.append(game, 0, {"type": "a"}, "table")
    with pytest.raises(sqlite3.IntegrityError):
        journal.append(game, 0, {"type": "b"}, "table")


def test_truncate_drops_the_tail_and_reopens_a_finished_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.create_game(SETUP, "physical", 1)
    for i in range(5):
        journal.append(game, i, {"i": i}, "digital" if i % 2 else "table")
    journal.finish(game, {"winners": ["Ann"], "scores": {"Ann": 50, "Ben": 40}})
    assert journal.games()[0]["winners"] == ["Ann"]
    journal.truncate(game, 2)
    record = journal.load(game)
    assert record.actions == [{"i": 0}, {"i": 1}]
    assert not record.finished and record.result is None
    assert journal.sources(game) == ["table", "digital"]


def test_latest_prefers_the_newest_unfinished_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(UserError, match="no game"):
        journal.resolve("latest")
    first = journal.create_game(SETUP, "digital", 1)
    second = journal.create_game(SETUP, "digital", 2)
    journal.finish(second, {"winners": []})
    assert journal.resolve("latest") == first
    assert journal.resolve(str(second)) == second
    with pytest.raises(UserError, match="no game 99"):
        journal.resolve("99")
    with pytest.raises(UserError, match="not a game id"):
        journal.resolve("yesterday")


def test_a_gap_in_the_rows_keeps_only_the_consistent_prefix(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.create_game(SETUP, "digital", 1)
    journal.append(game, 0, {"i": 0}, "table")
    journal.append(game, 2, {"i": 2}, "table")  # index 1 never reached the disk
    assert journal.load(game).actions == [{"i": 0}]


def test_export_round_trip_and_bad_files(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.create_game(SETUP, "digital", 5)
    journal.append(game, 0, {"type": "x"}, "table")
    path = tmp_path / "game.json"
    path.write_text(json.dumps(journal.export(game)))
    data = load_export(path)
    assert data["setup"] == SETUP and data["actions"] == [{"type": "x"}] and data["seed"] == 5
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(UserError, match="not valid JSON"):
        load_export(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"players": []}')
    with pytest.raises(UserError, match="not a game export"):
        load_export(tmp_path / "other.json")
    with pytest.raises(UserError, match="cannot read"):
        load_export(tmp_path / "missing.json")
