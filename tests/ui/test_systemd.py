"""The app tells systemd it is up once the first screen is drawn, and pings the watchdog from its UI loop."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import pytest


def test_ready_once_and_watchdog_pings_from_the_ui_loop(kivy_window: Any, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from tableassist.session import Journal, TableSession
    from ui.app import TableApp
    from ui.driver import Harness

    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(0.05)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "300000")  # 0.3 s: pinged every 0.1 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    session = TableSession(Journal(tmp_path / "db.sqlite3"))
    h = Harness(TableApp(session, size=(800, 480)))
    try:
        messages: list[str] = []
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            h.pump(1)
            try:
                messages.append(listener.recv(4096).decode())
            except TimeoutError:
                pass
    finally:
        h.close()
        session.close()
        listener.close()
    ready = [m for m in messages if "READY=1" in m]
    pings = [m for m in messages if m == "WATCHDOG=1"]
    assert len(ready) == 1
    assert len(pings) >= 5  # about ten in a second; at least half of them even on a busy machine
