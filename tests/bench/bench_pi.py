"""Benchmarks for the Pi integration: online backup speed and what a running game feels meanwhile, and the
cost of one watchdog ping. Prints numbers; asserts nothing (make bench)."""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tableassist import service  # noqa: E402
from tableassist.backup import back_up  # noqa: E402
from tableassist.db import connect  # noqa: E402


def make_db(path: Path, megabytes: int) -> None:
    connection = connect(path)
    connection.execute("CREATE TABLE journal (id INTEGER PRIMARY KEY, action TEXT NOT NULL)")
    row = "x" * 1000
    connection.executemany("INSERT INTO journal (action) VALUES (?)", ((row,) for _ in range(megabytes * 1000)))
    connection.commit()
    connection.close()


def commit_latencies(db: Path, stop: threading.Event, out: list[tuple[float, float]]) -> None:
    connection = connect(db)
    while not stop.is_set():
        start = time.perf_counter()
        connection.execute("INSERT INTO journal (action) VALUES ('{\"next\": 1}')")
        connection.commit()
        out.append((start, time.perf_counter() - start))
        time.sleep(0.002)  # a busy table: hundreds of actions a second, far more than a real game
    connection.close()


def bench_backup(megabytes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tableassist.sqlite3"
        make_db(db, megabytes)
        size = db.stat().st_size
        latencies: list[tuple[float, float]] = []
        stop = threading.Event()
        writer = threading.Thread(target=commit_latencies, args=(db, stop, latencies))
        writer.start()
        time.sleep(0.3)
        start = time.perf_counter()
        result = back_up(db, Path(tmp) / "backups", keep=7)
        end = time.perf_counter()
        time.sleep(0.3)
        stop.set()
        writer.join()
        during = [lat for t, lat in latencies if start <= t <= end]
        outside = sorted(lat for t, lat in latencies if not start <= t <= end)
        seconds = end - start
        print(f"backup {size / 1e6:6.1f} MB: {seconds * 1000:7.1f} ms ({size / 1e6 / seconds:6.1f} MB/s), "
              f"copy {result.size_bytes / 1e6:.1f} MB verified")
        if during:
            print(f"  writer during backup: {len(during)} commits, max commit {max(during) * 1000:.1f} ms "
                  f"(outside backup: median {outside[len(outside) // 2] * 1000:.2f} ms, "
                  f"max {outside[-1] * 1000:.1f} ms)")
        else:
            print("  writer during backup: no commit started while it ran")


def bench_watchdog_ping(count: int = 20_000) -> None:
    directory = Path(tempfile.mkdtemp(prefix="ta-bench-"))
    path = directory / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
    os.environ["NOTIFY_SOCKET"] = str(path)
    received = 0

    def drain() -> None:
        nonlocal received
        listener.settimeout(1.0)
        try:
            while True:
                listener.recv(64)
                received += 1
        except TimeoutError:
            pass

    reader = threading.Thread(target=drain)
    reader.start()
    start = time.perf_counter()
    for _ in range(count):
        service.watchdog_ping()
    seconds = time.perf_counter() - start
    reader.join()
    listener.close()
    path.unlink()
    directory.rmdir()
    del os.environ["NOTIFY_SOCKET"]
    print(f"watchdog_ping: {seconds / count * 1e6:.1f} us per ping ({received}/{count} received)")
    start = time.perf_counter()
    for _ in range(count):
        service.watchdog_ping()
    print(f"watchdog_ping without NOTIFY_SOCKET: {(time.perf_counter() - start) / count * 1e6:.2f} us")


if __name__ == "__main__":
    for megabytes in (5, 50):
        bench_backup(megabytes)
    bench_watchdog_ping()
