"""One Kivy window per test process (Kivy allows one), a fresh app on a fresh journal per test.

The app is driven frame by frame (ui.driver.Harness) with real touch events on real widgets; the
session underneath is the real TableSession with its SQLite journal in a temporary directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"


def display_or_skip() -> None:
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        pytest.skip("needs a display: run under xvfb-run (make test does)")


@pytest.fixture(scope="session")
def kivy_window() -> Any:
    display_or_skip()
    from ui.boot import configure

    configure((800, 480), max_fps=0)
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Any]:
    from tableassist.session import Journal, TableSession

    table_session = TableSession(Journal(tmp_path / "journal.sqlite3"))
    yield table_session
    table_session.close()


@pytest.fixture
def harness(kivy_window: Any, session: Any) -> Iterator[Any]:
    from ui.app import TableApp
    from ui.driver import Harness

    if tuple(kivy_window.size) != (800, 480):
        kivy_window.size = (800, 480)
    app = TableApp(session, size=(800, 480), stand_ins=True, db_label="test journal")
    driver = Harness(app)
    yield driver
    driver.close()
