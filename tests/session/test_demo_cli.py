"""`tableassist demo` and `tableassist replay` as a user runs them (subprocesses), including SIGKILL at random
moments: the journal keeps a prefix of the uninterrupted game, replays cleanly, and `--resume latest`
finishes exactly the game the uninterrupted run played, 5 times out of 5."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from tableassist.session.journal import Journal

DEMO_FAST = ["--players", "3", "--seed", "5", "--camera", "counts", "--no-screenshots"]


def tableassist(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", *args], capture_output=True, text=True,
                          timeout=timeout)


def journal_of(db: Path) -> tuple[list[dict[str, Any]], bool]:
    journal = Journal(db)
    try:
        record = journal.load(journal.resolve("latest"))
        return record.actions, record.finished
    finally:
        journal.close()


def action_rows(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=5) as raw:
            return int(raw.execute("SELECT COUNT(*) FROM session_actions").fetchone()[0])
    except sqlite3.Error:  # the demo is still creating its tables
        return 0


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], float]:
    where = tmp_path_factory.mktemp("whole")
    started = time.monotonic()
    result = tableassist("--db", str(where / "db.sqlite3"), "demo", *DEMO_FAST, "--out", str(where / "out"))
    seconds = time.monotonic() - started
    assert result.returncode == 0, result.stderr
    actions, finished = journal_of(where / "db.sqlite3")
    assert finished and len(actions) > 100
    return actions, seconds


@pytest.mark.slow
def test_sigkill_at_random_moments_then_resume_finishes_the_same_game(
        tmp_path: Path, uninterrupted: tuple[list[dict[str, Any]], float]) -> None:
    whole, seconds = uninterrupted
    rng = random.Random(20261121)
    cut_points = []
    for run in range(5):
        db = tmp_path / f"run{run}.sqlite3"
        out = tmp_path / f"out{run}"
        demo = subprocess.Popen([sys.executable, "-m", "tableassist", "--db", str(db), "demo", *DEMO_FAST,
                                 "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while action_rows(db) == 0 and demo.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)  # the game has begun: from here on, a kill lands mid-game
        time.sleep(rng.uniform(0.0, seconds * 0.6))
        demo.kill()  # SIGKILL: no handler, no cleanup, like pulling the plug on the process
        demo.wait()
        prefix, _finished = journal_of(db)
        cut_points.append(len(prefix))
        assert prefix == whole[: len(prefix)], f"run {run}: the journal is not a prefix of the game"
        replay = tableassist("--db", str(db), "replay", "latest", "--json")
        assert replay.returncode == 0, replay.stderr
        assert json.loads(replay.stdout)["actions"] == len(prefix)
        resumed = tableassist("--db", str(db), "demo", "--resume", "latest", "--camera", "counts",
                              "--no-screenshots", "--out", str(out))
        assert resumed.returncode == 0, resumed.stderr
        final, finished = journal_of(db)
        assert finished
        assert final == whole, f"run {run}: resumed from action {len(prefix)} and played another game"
    assert any(0 < n < len(whole) for n in cut_points), f"no kill landed mid-game: {cut_points}"


def test_replay_prints_where_the_game_stands(tmp_path: Path,
                                             uninterrupted: tuple[list[dict[str, Any]], float]) -> None:
    db = tmp_path / "db.sqlite3"
    journal = Journal(db)
    whole, _seconds = uninterrupted
    game = journal.create_game({"players": ["Ann", "Ben", "Cai"], "colours": ["green", "blue", "yellow"],
                                "options": {}, "solo_train": None}, "digital", 5)
    for i, action in enumerate(whole[:40]):
        journal.append(game, i, action, "table")
    export = tmp_path / "game.json"
    export.write_text(json.dumps(journal.export(game)))
    journal.close()
    text = tableassist("--db", str(db), "replay", str(game))
    assert text.returncode == 0 and "40 actions" in text.stdout and "Waiting:" in text.stdout
    data = json.loads(tableassist("--db", str(db), "replay", "latest", "--json").stdout)
    assert data["game"] == game and data["actions"] == 40 and data["finished"] is False
    assert isinstance(data["round"], int) and data["phase"]
    from_file = json.loads(tableassist("replay", str(export), "--json").stdout)
    exported = tmp_path / "again.json"
    assert tableassist("--db", str(db), "replay", "latest", "--export", str(exported)).returncode == 0
    assert json.loads(exported.read_text())["actions"] == whole[:40]
    assert {k: from_file[k] for k in ("actions", "round", "phase", "finished")} == \
        {k: data[k] for k in ("actions", "round", "phase", "finished")}


@pytest.mark.parametrize("args, message", [
    (["replay", "999"], "no game 999"),
    (["replay", "nonsense-file.json"], "neither a game id"),
])
def test_replay_refuses_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    Journal(tmp_path / "db.sqlite3").close()
    result = tableassist("--db", str(tmp_path / "db.sqlite3"), *args)
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_replay_of_a_broken_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"setup": {"players": ["A", "B"]}, "actions": [{"type": "fly"}]}')
    result = tableassist("replay", str(bad))
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "do not replay" in result.stderr and "Traceback" not in result.stderr
    bad.write_text("[1, 2")
    result = tableassist("replay", str(bad))
    assert result.returncode == 2 and "not valid JSON" in result.stderr


def test_demo_refuses_a_bad_player_count(tmp_path: Path) -> None:
    result = tableassist("--db", str(tmp_path / "db.sqlite3"), "demo", "--players", "7")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    result = tableassist("--db", str(tmp_path / "db.sqlite3"), "demo", "--resume", "42")
    assert result.returncode == 2 and "no game 42" in result.stderr


def test_resume_latest_with_nothing_journalled_yet_starts_a_game(tmp_path: Path) -> None:
    """A demo killed before its game reached the journal still ends in a finished game after --resume latest."""
    result = tableassist("--db", str(tmp_path / "db.sqlite3"), "demo", "--resume", "latest", *DEMO_FAST,
                         "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "No game to resume" in result.stdout and "Winner: " in result.stdout
    assert journal_of(tmp_path / "db.sqlite3")[1]


@pytest.mark.slow
def test_the_headless_demo_narrates_speaks_and_ends_with_the_scores(tmp_path: Path) -> None:
    """The real demo: rendered stock yard read by the real reader, WAVs, screenshots when a display exists."""
    out = tmp_path / "out"
    result = tableassist("--db", str(tmp_path / "db.sqlite3"), "demo", "--out", str(out), timeout=600)
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Round 2 — weather: " in text
    assert "Event: " in text
    assert "Final scores" in text and "Winner: " in text
    table = text.split("Final scores")[1].splitlines()
    assert sum(1 for row in table if row.split()[:1] and row.split()[0] in ("Ann", "Ben", "Cai", "Dee")) == 4
    wavs = sorted(out.glob("*.wav"))
    assert len(wavs) >= 3
    for path in wavs:
        with wave.open(str(path)) as wav:
            assert wav.getnframes() > wav.getframerate() // 4  # at least a quarter second of speech
    pngs = sorted(out.rglob("*.png"))
    if os.environ.get("DISPLAY"):
        assert len(pngs) >= 5, text
    else:
        assert "no display: screenshots skipped" in text


def test_resumed_demo_numbers_its_voice_lines_after_the_ones_already_there(tmp_path: Path) -> None:
    """--resume with the same --out: the new WAVs continue after the highest number in DIR, none overwritten."""
    from tableassist.session import TableSession

    db, out = tmp_path / "db.sqlite3", tmp_path / "out"
    session = TableSession(Journal(db))
    session.new_game(["Ann", "Ben", "Cai"], ["yellow", "blue", "green"], "digital", seed=5)
    session.journal.close()
    out.mkdir()
    earlier = out / "017-en-event-contractors-clear-rubble.wav"
    earlier.write_bytes(b"the first run's line")
    result = tableassist("--db", str(db), "demo", "--resume", "latest", "--camera", "counts", "--no-screenshots",
                         "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert earlier.read_bytes() == b"the first run's line"
    numbers = sorted(int(path.name.split("-")[0]) for path in out.glob("*.wav") if path != earlier)
    assert numbers, result.stdout  # the rest of the game said something urgent (weather, events, game over)
    assert numbers[0] > 17
