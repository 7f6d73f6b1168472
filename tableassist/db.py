"""The one SQLite database: games and their journals, the RFID card registry, settings.

Every module that keeps rows here creates its own tables (CREATE TABLE IF NOT EXISTS) through a
connection from `connect`, which sets the durability the product promises: WAL and synchronous=FULL,
so a committed row survives the power being pulled.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tableassist.errors import UserError
from tableassist.paths import default_db_file


def connect(path: str | Path | None = None) -> sqlite3.Connection:
    db_path = Path(path) if path else default_db_file()
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(db_path, timeout=10, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
    except (OSError, sqlite3.Error) as err:
        raise UserError(f"cannot open the database {db_path}: {err}") from err
    connection.row_factory = sqlite3.Row
    return connection
