"""Telling systemd how the assistant is doing (sd_notify, through the `sdnotify` library).

Under `tableassist.service` (Type=notify, WatchdogSec=) systemd waits for READY=1 before it calls the
service started, and restarts it when WATCHDOG=1 stops arriving: a frozen touchscreen comes back by
itself and the game resumes from the journal. The UI calls `notify_ready()` once the first screen is
up and `watchdog_ping()` from a Kivy Clock interval, so a blocked UI thread stops the pings.

Outside systemd (NOTIFY_SOCKET unset: a desktop, the tests, the demo) every call is a no-op. Nothing
here ever raises: a lost notify socket must not take the touchscreen down with it.
"""

from __future__ import annotations

import os
import threading

from sdnotify import SystemdNotifier

# Ping this many times per watchdog period, so one late Clock tick is not a restart (sd_watchdog_enabled(3)
# recommends at least two).
PINGS_PER_PERIOD = 3
# A datagram socket blocks once the receiver's queue is full (10 messages on Linux): if systemd stops reading,
# a ping gives up after this long instead of freezing the UI thread it was meant to vouch for.
SEND_TIMEOUT_S = 0.1

_lock = threading.Lock()
_notifier: SystemdNotifier | None = None
_notifier_address: str | None = None


def _send(message: str) -> bool:
    """Send one notification; True if it left this process. Errors are swallowed on purpose."""
    global _notifier, _notifier_address
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    with _lock:
        try:
            if _notifier is None or _notifier_address != address:
                # debug=True makes sdnotify raise instead of silently dropping, so we can reconnect.
                _notifier = SystemdNotifier(debug=True)
                _notifier.socket.settimeout(SEND_TIMEOUT_S)
                _notifier_address = address
            _notifier.notify(message)
            return True
        except Exception:
            # The socket went away (systemd re-executed, a test tore it down) or is full: connect afresh next time.
            _notifier = None
            _notifier_address = None
            return False


def _one_line(text: str) -> str:
    # sd_notify messages are newline-separated assignments; a newline inside STATUS would start a new one.
    return " ".join(text.split())


def notify_ready(status_text: str | None = None) -> bool:
    """The first screen is up: systemd may now consider the service started."""
    message = "READY=1"
    if status_text:
        message += f"\nSTATUS={_one_line(status_text)}"
    return _send(message)


def watchdog_ping() -> bool:
    """The UI loop is alive. Call from the UI thread, every `watchdog_interval()` seconds."""
    return _send("WATCHDOG=1")


def notify_stopping(status_text: str | None = None) -> bool:
    """The app is shutting down on purpose (systemd then stops expecting pings)."""
    message = "STOPPING=1"
    if status_text:
        message += f"\nSTATUS={_one_line(status_text)}"
    return _send(message)


def status(text: str) -> bool:
    """A short free-text status shown by `systemctl status tableassist`."""
    return _send(f"STATUS={_one_line(text)}")


def watchdog_timeout() -> float | None:
    """Seconds systemd waits between pings before it restarts us, or None when no watchdog is armed."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or not os.environ.get("NOTIFY_SOCKET"):
        return None
    try:
        if pid and int(pid) != os.getpid():
            return None  # inherited from a parent: the watchdog is not ours to feed
        seconds = int(usec) / 1_000_000
    except ValueError:
        return None
    return seconds if seconds > 0 else None


def watchdog_interval(default: float = 10.0) -> float:
    """How often to call `watchdog_ping()`: a third of the timeout systemd set, else `default`."""
    timeout = watchdog_timeout()
    return timeout / PINGS_PER_PERIOD if timeout else default
