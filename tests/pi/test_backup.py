"""`tableassist backup`: SQLite's online backup of a live WAL database, verified, N generations kept."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tableassist.backup import back_up, backup_generations, integrity_problems
from tableassist.db import connect
from tableassist.errors import UserError


def make_journal(path: Path, rows: int) -> None:
    connection = connect(path)
    connection.execute("CREATE TABLE IF NOT EXISTS journal (id INTEGER PRIMARY KEY, action TEXT NOT NULL)")
    connection.executemany("INSERT INTO journal (action) VALUES (?)",
                           ((f'{{"place_labourer": {n % 7}, "pad": "{"x" * 200}"}}',) for n in range(rows)))
    connection.commit()
    connection.close()


def journal_ids(path: Path) -> list[int]:
    connection = sqlite3.connect(path)
    try:
        return [row[0] for row in connection.execute("SELECT id FROM journal ORDER BY id")]
    finally:
        connection.close()


def test_backup_of_a_database_with_an_open_write_transaction(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 500)
    writer = connect(db)
    writer.execute("BEGIN IMMEDIATE")  # another connection is mid-write and holds the write lock
    writer.execute("INSERT INTO journal (action) VALUES ('not yet committed')")
    try:
        result = back_up(db, tmp_path / "backups", keep=3)
    finally:
        writer.commit()
        writer.close()
    assert integrity_problems(result.path) == []
    assert journal_ids(result.path) == list(range(1, 501))  # committed rows, not the pending one
    assert journal_ids(db) == list(range(1, 502))


def test_backup_while_another_connection_keeps_committing(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 20_000)  # about 5 MB, so the copy takes a while
    committed: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def play() -> None:
        connection = connect(db)
        try:
            while not stop.is_set():
                cursor = connection.execute("INSERT INTO journal (action) VALUES ('{\"next\": 1}')")
                connection.commit()
                assert cursor.lastrowid is not None
                committed.append(cursor.lastrowid)
        except BaseException as err:  # a locked database would surface here
            errors.append(err)
        finally:
            connection.close()

    player = threading.Thread(target=play)
    player.start()
    try:
        while len(committed) < 20:  # the game is under way before the backup starts
            stop.wait(0.001)
        committed_before = len(committed)
        result = back_up(db, tmp_path / "backups", keep=7)
        committed_after = len(committed)
    finally:
        stop.set()
        player.join(timeout=30)
    assert errors == []
    assert integrity_problems(result.path) == []
    copied = journal_ids(result.path)
    # A consistent snapshot: every row from the first up to some point, with no holes …
    assert copied == list(range(1, len(copied) + 1))
    # … that includes everything committed before the backup began and nothing not yet written when it ended.
    assert len(copied) >= 20_000 + committed_before
    assert len(copied) <= 20_000 + committed_after


def test_backup_is_one_self_contained_file(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 10)
    result = back_up(db, tmp_path / "backups")
    assert sorted(p.name for p in result.path.parent.iterdir()) == [result.path.name]  # no -wal, no .partial
    connection = sqlite3.connect(result.path)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    connection.close()


def test_generations_beyond_keep_are_removed_oldest_first(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 5)
    backups = tmp_path / "backups"
    backups.mkdir()
    (backups / "notes.txt").write_text("the owner's own file")
    (backups / "tableassist-before-upgrade.sqlite3").write_text("a copy made by hand")
    night = datetime(2026, 11, 1, 3, 30, tzinfo=UTC)
    made = [back_up(db, backups, keep=3, now=night + timedelta(days=n)).path for n in range(5)]
    names = [path.name for path in backup_generations(backups)]
    assert names == ["tableassist-20261103-033000.sqlite3", "tableassist-20261104-033000.sqlite3",
                     "tableassist-20261105-033000.sqlite3"]
    assert not made[0].exists() and not made[1].exists()
    assert (backups / "notes.txt").exists()
    assert (backups / "tableassist-before-upgrade.sqlite3").exists()


def test_two_backups_in_one_second_both_kept_in_order(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 5)
    moment = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    first = back_up(db, tmp_path / "b", keep=2, now=moment).path
    second = back_up(db, tmp_path / "b", keep=2, now=moment).path
    third = back_up(db, tmp_path / "b", keep=2, now=moment).path
    assert backup_generations(tmp_path / "b") == [second, third]
    assert not first.exists()


def test_a_damaged_database_is_refused_and_no_backup_is_left(tmp_path: Path) -> None:
    db = tmp_path / "tableassist.sqlite3"
    make_journal(db, 2_000)
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    connection.close()
    with open(db, "r+b") as handle:  # scribble over a page in the middle of the journal table
        handle.seek(page_size * 40)
        handle.write(b"\xff" * page_size)
    assert integrity_problems(db) != []
    with pytest.raises(UserError, match="integrity|malformed"):
        back_up(db, tmp_path / "backups")
    assert backup_generations(tmp_path / "backups") == []
    assert list((tmp_path / "backups").iterdir()) == []


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", *args], capture_output=True, text=True,
                          timeout=60)


def test_cli_backs_up_and_keeps_n(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    make_journal(db, 50)
    for _ in range(3):
        result = run_cli("--db", str(db), "backup", "--to", str(tmp_path / "copies"), "--keep", "2")
        assert result.returncode == 0, result.stderr
        assert "integrity ok" in result.stdout
    copies = backup_generations(tmp_path / "copies")
    assert len(copies) == 2
    assert all(journal_ids(copy) == list(range(1, 51)) for copy in copies)


def test_cli_default_directory_is_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "state" / "tableassist.sqlite3"
    db.parent.mkdir()
    make_journal(db, 3)
    result = run_cli("backup", "--db", str(db))
    assert result.returncode == 0, result.stderr
    assert len(backup_generations(tmp_path / "state" / "backups")) == 1


@pytest.mark.parametrize("args, message", [
    (["--keep", "0"], "--keep must be at least 1"),
    (["--keep", "many"], "invalid int value"),
    (["--db", "/no/such/place/tableassist.sqlite3"], "there is no database at"),
])
def test_cli_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    db = tmp_path / "t.sqlite3"
    make_journal(db, 1)
    result = run_cli("backup", "--db", str(db), "--to", str(tmp_path / "b"), *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_cli_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    not_db = tmp_path / "tableassist.sqlite3"
    not_db.write_bytes(b"this is a shopping list, not SQLite" * 100)
    result = run_cli("backup", "--db", str(not_db))
    assert result.returncode == 2
    assert "not a database" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


W_XOR_X_BACKUP = """
import ctypes, sys
# PR_SET_MDWE / PR_MDWE_REFUSE_EXEC_GAIN (Linux 6.3+): the kernel's own MemoryDenyWriteExecute.
w_xor_x = ctypes.CDLL(None).prctl(65, 1, 0, 0, 0) == 0
from tableassist.cli import main
code = main(sys.argv[1:])
heavy = sorted({m.split(".")[0] for m in sys.modules} & {"cv2", "kivy", "numpy", "serial", "gpiozero", "pyttsx3"})
print("w_xor_x" if w_xor_x else "no_mdwe", ",".join(heavy) or "-", code)
"""


def test_backup_runs_under_the_backup_units_memory_rules(tmp_path: Path) -> None:
    # tableassist-backup.service sets MemoryDenyWriteExecute=yes. The backup must not drag in the camera, GUI or
    # numeric libraries (which is also what keeps it quick) and must work with write-xor-execute memory.
    db = tmp_path / "t.sqlite3"
    make_journal(db, 10)
    result = subprocess.run([sys.executable, "-c", W_XOR_X_BACKUP, "--db", str(db), "backup"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    mode, heavy, code = result.stdout.strip().splitlines()[-1].split()
    assert heavy == "-"
    assert code == "0"
    if mode == "no_mdwe":
        pytest.skip("this kernel has no PR_SET_MDWE (Linux < 6.3): imports checked, W^X not exercised")
