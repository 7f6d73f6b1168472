"""Nightly copies of the game database, made while the assistant keeps writing to it.

SQLite's online backup (`sqlite3.Connection.backup`) copies a consistent snapshot of a live WAL database
without stopping the writer. Each copy is written under a temporary name, checked with
`PRAGMA integrity_check`, flushed to disk and only then renamed into place, so a power cut mid-backup
leaves the older generations untouched and never a half-written file under a backup's name. Only files
this module named are ever pruned.
"""

from __future__ import annotations

import os
import re
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from tableassist.db import connect
from tableassist.errors import UserError
from tableassist.paths import default_db_file

DEFAULT_KEEP = 7
BACKUP_PREFIX = "tableassist-"
BACKUP_SUFFIX = ".sqlite3"
_BACKUP_NAME = re.compile(r"^tableassist-(\d{8}-\d{6})(?:-(\d+))?\.sqlite3$")


@dataclass(frozen=True)
class BackupResult:
    source: Path
    path: Path
    size_bytes: int
    kept: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)


def default_backup_dir(db_path: Path) -> Path:
    """Backups sit beside the database, in the state directory systemd keeps writable."""
    return db_path.parent / "backups"


def backup_generations(backup_dir: Path) -> list[Path]:
    """This module's backups in `backup_dir`, oldest first."""
    found: list[tuple[str, int, Path]] = []
    if not backup_dir.is_dir():
        return []
    for entry in backup_dir.iterdir():
        match = _BACKUP_NAME.match(entry.name)
        if match and entry.is_file():
            found.append((match.group(1), int(match.group(2) or 1), entry))
    return [path for _, _, path in sorted(found)]


def _new_backup_path(backup_dir: Path, now: datetime) -> Path:
    stamp = now.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    path = backup_dir / f"{BACKUP_PREFIX}{stamp}{BACKUP_SUFFIX}"
    counter = 2
    while path.exists():  # two backups within one second: keep both, in order
        path = backup_dir / f"{BACKUP_PREFIX}{stamp}-{counter}{BACKUP_SUFFIX}"
        counter += 1
    return path


def integrity_problems(path: Path) -> list[str]:
    """What `PRAGMA integrity_check` reports for the database at `path`; empty when it is sound."""
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [str(row[0]) for row in connection.execute("PRAGMA integrity_check")]
        finally:
            connection.close()
    except sqlite3.DatabaseError as err:  # damage bad enough that the check itself cannot run
        return [str(err)]
    return [] if rows == ["ok"] else rows


def _fsync_dir(directory: Path) -> None:
    # The rename is only durable once the directory entry is on disk.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy(db_path: Path, partial: Path) -> None:
    source = connect(db_path)
    try:
        target = sqlite3.connect(partial)
        try:
            # One step: the copy is a single snapshot; in WAL mode the writer is not blocked meanwhile.
            source.backup(target)
            # The copy is a plain single file (no -wal beside it), so it can be moved or mailed as it is.
            target.execute("PRAGMA journal_mode=DELETE")
            target.commit()
        finally:
            target.close()
    finally:
        source.close()
    with open(partial, "rb+") as handle:
        os.fsync(handle.fileno())


def prune(backup_dir: Path, keep: int) -> tuple[list[Path], list[Path]]:
    """Remove all but the newest `keep` generations; return (kept, removed)."""
    generations = backup_generations(backup_dir)
    cut = max(len(generations) - keep, 0)
    removed, kept = generations[:cut], generations[cut:]
    for path in removed:
        path.unlink(missing_ok=True)
    if removed:
        _fsync_dir(backup_dir)
    return kept, removed


def back_up(db_path: Path | None = None, backup_dir: Path | None = None, keep: int = DEFAULT_KEEP,
            now: datetime | None = None) -> BackupResult:
    """Copy the database into `backup_dir`, verify the copy, then keep only the newest `keep` copies."""
    if keep < 1:
        raise UserError(f"--keep must be at least 1, not {keep}")
    source = Path(db_path) if db_path else default_db_file()
    if not source.is_file():
        raise UserError(f"there is no database at {source} to back up")
    target_dir = Path(backup_dir) if backup_dir else default_backup_dir(source)
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(f"cannot create the backup directory {target_dir}: {err.strerror}") from err
    final = _new_backup_path(target_dir, now or datetime.now(UTC))
    partial = final.with_name(final.name + ".partial")
    try:
        _copy(source, partial)
        problems = integrity_problems(partial)
        if problems:
            raise UserError(f"the copy of {source} failed its integrity check: {problems[0]}")
        os.replace(partial, final)
        _fsync_dir(target_dir)
    except sqlite3.Error as err:
        raise UserError(f"cannot back up {source}: {err}") from err
    except OSError as err:
        raise UserError(f"cannot write the backup {final}: {err.strerror or err}") from err
    finally:
        partial.unlink(missing_ok=True)
    kept, removed = prune(target_dir, keep)
    return BackupResult(source=source, path=final, size_bytes=final.stat().st_size, kept=kept, removed=removed)
