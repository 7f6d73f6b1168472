"""The journal: games, their setup, their actions and results in SQLite (tableassist.db).

Every action row is committed (WAL, synchronous=FULL) before the session acknowledges the action, so
pulling the power loses nothing that was shown or spoken. A game is its setup plus its action rows;
replaying them rebuilds the state exactly. The component data the game began with (the box's numbers after
the owner's corrections) is stored with it: an owner correcting a track card's VPs mid-game changes new
games, never one already under way, and its replay after a restart stays the game the table played.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tableassist.db import connect
from tableassist.errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS session_games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    setup TEXT NOT NULL,
    bag_mode TEXT NOT NULL,
    seed INTEGER NOT NULL,
    language TEXT NOT NULL DEFAULT 'en',
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    components TEXT
);
CREATE TABLE IF NOT EXISTS session_actions (
    game_id INTEGER NOT NULL REFERENCES session_games(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    source TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
);
"""


@dataclass(frozen=True)
class GameRecord:
    id: int
    created: str
    setup: dict[str, Any]
    bag_mode: str
    seed: int
    language: str
    finished: bool
    result: dict[str, Any] | None
    actions: list[dict[str, Any]]
    components: dict[str, Any] | None = None  # the Components raw JSON the game began with; None: an older row


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Journal:
    """One SQLite connection, serialised by a lock (device threads and the UI thread share it)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = path
        self._db = connect(path)
        self._lock = threading.Lock()
        with self._lock, self._db:
            self._db.executescript(SCHEMA)
            columns = {row["name"] for row in self._db.execute("PRAGMA table_info(session_games)")}
            if "components" not in columns:  # a journal from before games kept their components
                self._db.execute("ALTER TABLE session_games ADD COLUMN components TEXT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_game(self, setup: dict[str, Any], bag_mode: str, seed: int, language: str = "en",
                    components: dict[str, Any] | None = None) -> int:
        with self._lock, self._db:
            cur = self._db.execute(
                "INSERT INTO session_games (created, setup, bag_mode, seed, language, components) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (_now(), json.dumps(setup, sort_keys=True), bag_mode, seed, language,
                 json.dumps(components, sort_keys=True) if components is not None else None),
            )
            game_id = cur.lastrowid
        assert game_id is not None
        return int(game_id)

    def append(self, game_id: int, idx: int, action: dict[str, Any], source: str) -> None:
        """Commit one action row; raises sqlite3.Error if it did not reach the disk."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT INTO session_actions (game_id, idx, action, source, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, idx, json.dumps(action, sort_keys=True), source, _now()),
            )

    def truncate(self, game_id: int, length: int) -> None:
        """Drop every action from index `length` on (undo); the game is unfinished again."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM session_actions WHERE game_id = ? AND idx >= ?", (game_id, length))
            self._db.execute("UPDATE session_games SET finished = 0, result = NULL WHERE id = ?", (game_id,))

    def finish(self, game_id: int, result: dict[str, Any]) -> None:
        with self._lock, self._db:
            self._db.execute("UPDATE session_games SET finished = 1, result = ? WHERE id = ?",
                             (json.dumps(result, sort_keys=True), game_id))

    def set_language(self, game_id: int, language: str) -> None:
        with self._lock, self._db:
            self._db.execute("UPDATE session_games SET language = ? WHERE id = ?", (language, game_id))

    def resolve(self, game: int | str) -> int:
        """A game id from an id, a numeric string or "latest" (the newest unfinished, else the newest)."""
        with self._lock:
            if game == "latest":
                row = self._db.execute(
                    "SELECT id FROM session_games ORDER BY finished ASC, id DESC LIMIT 1").fetchone()
                if row is None:
                    raise UserError("there is no game in the journal yet")
                return int(row["id"])
            try:
                game_id = int(game)
            except ValueError:
                raise UserError(f"'{game}' is not a game id (a number or 'latest')") from None
            row = self._db.execute("SELECT id FROM session_games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UserError(f"there is no game {game_id} in the journal")
        return game_id

    def load(self, game_id: int) -> GameRecord:
        with self._lock:
            row = self._db.execute("SELECT * FROM session_games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UserError(f"there is no game {game_id} in the journal")
            rows = self._db.execute(
                "SELECT idx, action FROM session_actions WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
        actions = []
        for expected, action_row in enumerate(rows):
            if action_row["idx"] != expected:  # a gap means a damaged journal: keep the consistent prefix
                break
            actions.append(json.loads(action_row["action"]))
        return GameRecord(
            id=int(row["id"]), created=row["created"], setup=json.loads(row["setup"]), bag_mode=row["bag_mode"],
            seed=int(row["seed"]), language=row["language"], finished=bool(row["finished"]),
            result=json.loads(row["result"]) if row["result"] else None, actions=actions,
            components=json.loads(row["components"]) if row["components"] else None,
        )

    def sources(self, game_id: int) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT source FROM session_actions WHERE game_id = ? ORDER BY idx", (game_id,)).fetchall()
        return [str(r["source"]) for r in rows]

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.created, g.setup, g.bag_mode, g.finished, g.result, "
                "(SELECT COUNT(*) FROM session_actions a WHERE a.game_id = g.id) AS n "
                "FROM session_games g ORDER BY g.id DESC").fetchall()
        listing = []
        for r in rows:
            setup = json.loads(r["setup"])
            result = json.loads(r["result"]) if r["result"] else {}
            listing.append({
                "id": int(r["id"]), "created": r["created"], "players": list(setup.get("players", [])),
                "bag_mode": r["bag_mode"], "finished": bool(r["finished"]), "actions": int(r["n"]),
                "winners": result.get("winners", []), "scores": result.get("scores", {}),
            })
        return listing

    def export(self, game_id: int) -> dict[str, Any]:
        record = self.load(game_id)
        data = {"game": record.id, "setup": record.setup, "bag_mode": record.bag_mode, "seed": record.seed,
                "actions": record.actions}
        if record.components is not None:
            data["components"] = record.components
        return data


def load_export(path: Path) -> dict[str, Any]:
    """Read a JSON export (`Journal.export`); a plain UserError when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror or err}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise UserError(f"{path} is not valid JSON: {err}") from None
    if (not isinstance(data, dict) or not isinstance(data.get("setup"), dict)
            or not isinstance(data.get("actions"), list)):
        raise UserError(f"{path} is not a game export (needs 'setup' and 'actions')")
    if data.get("components") is not None and not isinstance(data["components"], dict):
        raise UserError(f"{path}: 'components' must be the game's component data (a JSON object)")
    return data


__all__ = ["GameRecord", "Journal", "load_export"]
