"""The systemd notify path, with a fake notify socket standing in for systemd.

The test binds an AF_UNIX datagram socket (what systemd listens on), points NOTIFY_SOCKET at it and drives
tableassist.service through the real sdnotify library. A small monitor plays systemd's watchdog: every
WATCHDOG=1 re-arms a WatchdogSec timer, and the timer running out is a restart.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tableassist import service

WATCHDOG_SEC = 0.3  # short, so the test is quick; the unit uses 30 s


@pytest.fixture
def notify_socket(monkeypatch: pytest.MonkeyPatch) -> Iterator[socket.socket]:
    # AF_UNIX paths are limited to 108 bytes: a short directory of our own rather than pytest's tmp_path.
    directory = Path(tempfile.mkdtemp(prefix="ta-notify-"))
    path = directory / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(path))
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", str(int(WATCHDOG_SEC * 1_000_000)))
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    yield listener
    listener.close()
    path.unlink(missing_ok=True)
    directory.rmdir()


def receive(listener: socket.socket, timeout: float = 1.0) -> str:
    listener.settimeout(timeout)
    return listener.recv(4096).decode()


def test_ready_status_stopping_arrive_as_sd_notify_messages(notify_socket: socket.socket) -> None:
    assert service.notify_ready("first screen up")
    assert receive(notify_socket) == "READY=1\nSTATUS=first screen up"
    assert service.status("round 3:\nweather is rain")
    assert receive(notify_socket) == "STATUS=round 3: weather is rain"
    assert service.watchdog_ping()
    assert receive(notify_socket) == "WATCHDOG=1"
    assert service.notify_stopping()
    assert receive(notify_socket) == "STOPPING=1"


def test_without_notify_socket_every_call_is_a_quiet_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert service.notify_ready() is False
    assert service.watchdog_ping() is False
    assert service.status("anything") is False
    assert service.notify_stopping() is False
    assert service.watchdog_timeout() is None
    assert service.watchdog_interval(default=7.0) == 7.0


def test_a_vanished_socket_never_raises_and_reconnects_when_it_is_back(notify_socket: socket.socket) -> None:
    path = notify_socket.getsockname()
    assert service.watchdog_ping()
    assert receive(notify_socket) == "WATCHDOG=1"
    notify_socket.close()
    os.unlink(path)
    assert service.watchdog_ping() is False  # systemd gone: the UI carries on
    replacement = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    replacement.bind(path)
    try:
        assert service.watchdog_ping()
        assert receive(replacement) == "WATCHDOG=1"
    finally:
        replacement.close()


def test_watchdog_interval_is_a_third_of_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", "/run/systemd/notify")
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert service.watchdog_timeout() == 30.0
    assert service.watchdog_interval() == 10.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))  # meant for another process
    assert service.watchdog_timeout() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    assert service.watchdog_timeout() is None


@dataclass
class WatchdogMonitor:
    """systemd's side: READY=1 starts the service, each WATCHDOG=1 re-arms the timer, silence past
    WatchdogSec is a watchdog timeout (systemd would kill and restart the app)."""

    listener: socket.socket
    timeout: float
    ready_at: float | None = None
    pings: list[float] = field(default_factory=list)
    fired_at: float | None = None

    def watch(self, stop: threading.Event) -> None:
        deadline = time.monotonic() + self.timeout
        while not stop.is_set():
            self.listener.settimeout(max(deadline - time.monotonic(), 0.001))
            try:
                message = self.listener.recv(4096).decode()
            except TimeoutError:
                if self.ready_at is not None:
                    self.fired_at = time.monotonic()
                    return
                deadline = time.monotonic() + self.timeout
                continue
            now = time.monotonic()
            for assignment in message.split("\n"):
                if assignment == "READY=1":
                    self.ready_at = now
                elif assignment == "WATCHDOG=1":
                    self.pings.append(now)
            if "WATCHDOG=1" in message or "READY=1" in message:
                deadline = now + self.timeout


class UiLoop:
    """A UI thread in miniature: a frame loop that pings on a Clock-like interval until it freezes."""

    def __init__(self) -> None:
        self.frozen = threading.Event()
        self.stop = threading.Event()
        self.frozen_at: float | None = None

    def run(self) -> None:
        service.notify_ready("first screen up")
        interval = service.watchdog_interval()
        next_ping = time.monotonic()
        while not self.stop.is_set():
            if self.frozen.is_set():
                self.frozen_at = self.frozen_at or time.monotonic()
                self.stop.wait()  # stuck in a blocking call: no frames, no pings
                break
            now = time.monotonic()
            if now >= next_ping:
                service.watchdog_ping()
                next_ping = now + interval
            time.sleep(0.01)  # one frame


def test_a_ui_loop_that_stops_pinging_is_caught_by_the_watchdog(notify_socket: socket.socket) -> None:
    monitor = WatchdogMonitor(notify_socket, WATCHDOG_SEC)
    stop_monitor = threading.Event()
    watcher = threading.Thread(target=monitor.watch, args=(stop_monitor,), daemon=True)
    watcher.start()
    ui = UiLoop()
    ui_thread = threading.Thread(target=ui.run, daemon=True)
    ui_thread.start()
    try:
        time.sleep(4 * WATCHDOG_SEC)  # healthy for four watchdog periods
        assert monitor.ready_at is not None
        assert monitor.fired_at is None, "a healthy loop must not trip the watchdog"
        healthy_pings = len(monitor.pings)
        # interval = timeout / 3, over 4 timeouts: about 12 pings; a few fewer on a loaded CI machine.
        assert healthy_pings >= 8
        gaps = [b - a for a, b in zip(monitor.pings, monitor.pings[1:], strict=False)]
        assert max(gaps) < WATCHDOG_SEC
        ui.frozen.set()
        watcher.join(timeout=10 * WATCHDOG_SEC)
        assert monitor.fired_at is not None, "the frozen loop went unnoticed"
        assert ui.frozen_at is not None
        last_ping = monitor.pings[-1]
        # Fired one WatchdogSec after the last ping (plus scheduling slack), not before.
        assert WATCHDOG_SEC <= monitor.fired_at - last_ping < WATCHDOG_SEC + 0.5
        assert all(ping <= ui.frozen_at for ping in monitor.pings)
    finally:
        ui.stop.set()
        stop_monitor.set()
        ui_thread.join(timeout=2)
        watcher.join(timeout=2)


def test_the_monitor_stays_quiet_before_ready(notify_socket: socket.socket) -> None:
    # systemd's start-up timeout covers the time before READY=1, not the watchdog: a slow first screen is fine.
    monitor = WatchdogMonitor(notify_socket, WATCHDOG_SEC)
    stop = threading.Event()
    watcher = threading.Thread(target=monitor.watch, args=(stop,), daemon=True)
    watcher.start()
    time.sleep(2 * WATCHDOG_SEC)
    assert monitor.fired_at is None
    stop.set()
    watcher.join(timeout=2)


def test_a_notify_socket_nobody_reads_never_freezes_the_caller(notify_socket: socket.socket) -> None:
    # The fake systemd stops reading: its queue fills after a few datagrams and a plain send would block the
    # UI thread for good. Each ping must give up quickly instead, and say it was not delivered.
    durations: list[float] = []
    results: list[bool] = []

    def ping_many() -> None:
        for _ in range(20):
            start = time.monotonic()
            results.append(service.watchdog_ping())
            durations.append(time.monotonic() - start)

    pinger = threading.Thread(target=ping_many, daemon=True)
    pinger.start()
    pinger.join(timeout=15)
    assert not pinger.is_alive(), "watchdog_ping blocked on a full notify socket"
    assert len(results) == 20
    assert results[0] is True
    assert False in results  # the queue did fill up
    assert max(durations) < service.SEND_TIMEOUT_S + 0.4
    # Once systemd reads again, pings get through.
    notify_socket.settimeout(0.2)
    try:
        while True:
            notify_socket.recv(64)
    except TimeoutError:
        pass
    assert service.watchdog_ping()
    assert receive(notify_socket) == "WATCHDOG=1"
