"""Settings and diagnostics through the session's devices: language, voice, the camera's debug view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import ARTIFACTS


class DebuggingCamera:
    """A stock-yard camera that also offers its debug picture: a rendered frame of a yard holding cubes,
    read by the real stock-yard reader, with markers and cubes drawn by its own debug view."""

    def __init__(self, counts: dict[str, int]) -> None:
        from hardware import yard_render
        from hardware.stockyard import YardReader, build_profile

        self.frame = yard_render.render_stock_yard(counts, seed=3)
        self.reader = YardReader(build_profile(yard_render.render_stock_yard({}, seed=3)))

    def read_yard(self) -> Any:
        return self.reader.read(self.frame).reading

    def debug_image(self) -> Any:
        from hardware.stockyard.debug import debug_view

        return debug_view(self.reader.read(self.frame))

    def close(self) -> None:
        pass


@pytest.fixture
def camera_harness(kivy_window: Any, tmp_path: Path) -> Any:
    from tableassist.session import Devices, Journal, TableSession
    from ui.app import TableApp
    from ui.driver import Harness

    camera = DebuggingCamera({"iron": 3, "stone": 2, "coal": 1})
    session = TableSession(Journal(tmp_path / "db.sqlite3"), Devices(camera=camera))
    harness = Harness(TableApp(session, size=(800, 480)))
    yield harness, camera
    harness.close()
    session.close()


def test_the_camera_view_shows_the_readers_debug_picture(camera_harness: Any) -> None:
    from kivy.uix.image import Image

    h, camera = camera_harness
    h.tap(h.app.top.menu)
    h.tap(h.app.screens["menu"].buttons["settings"])
    screen = h.app.screens["settings"]
    pictures = [w for w in screen.walk() if isinstance(w, Image)]
    assert len(pictures) == 1
    expected = camera.debug_image()
    assert tuple(pictures[0].texture.size) == (expected.shape[1], expected.shape[0])
    assert any("Stock-yard camera" in str(getattr(w, "text", "")) and "DebuggingCamera" in str(w.text)
               for w in screen.walk())
    h.screenshot(ARTIFACTS / "800x480-settings-camera.png")


def test_language_buttons_switch_the_session(harness: Any) -> None:
    h = harness
    h.app.show("settings")
    screen = h.app.screens["settings"]
    h.tap(screen.language_buttons["de"])
    assert h.app.session.view()["language"] == "de"
    assert screen.language_buttons["de"].base_colour != screen.language_buttons["en"].base_colour


def test_reading_the_camera_does_not_hold_the_screen(camera_harness: Any) -> None:
    h, camera = camera_harness
    h.app.session.new_game(["Ann", "Ben"], ["green", "blue"], seed=1)  # the yard is checked against a game
    h.app.show("settings")
    screen = h.app.screens["settings"]
    reader = screen.read_camera()
    assert reader is not None and reader.name == "camera-read"
    reader.join(30)
    h.pump(3)  # the session's change is drawn on the UI thread
    yard = h.app.session.view()["yard"]
    assert yard is not None and yard["camera"] is not None
    assert yard["camera"]["iron"] == camera.read_yard().iron


@pytest.fixture
def reader_harness(kivy_window: Any, tmp_path: Path) -> Any:
    from hardware.rfid import SimulatedCardReader
    from tableassist.cards import CardRegistry, CardSpec
    from tableassist.session import Devices, Journal, TableSession
    from ui.app import TableApp
    from ui.driver import Harness

    reader = SimulatedCardReader()
    cards = CardRegistry.open(tmp_path / "db.sqlite3")
    cards.enrol("0000000107", CardSpec(kind="contract", number=7))
    session = TableSession(Journal(tmp_path / "db.sqlite3"), Devices(reader=reader, cards=cards))
    session.start_reader()
    session.new_game(["Ann", "Ben", "Cy"], ["green", "blue", "yellow"], seed=5)
    harness = Harness(TableApp(session, size=(800, 480)))
    yield harness, reader
    harness.close()
    session.close()


def test_diagnostics_list_the_readers_taps_from_the_session(reader_harness: Any) -> None:
    """Taps on the real reader (here its simulated twin, posting from its own thread) reach the diagnostics
    screen through the session's view, newest first, with what the card is and what became of it."""
    import threading

    from ui.screens.settings import tap_lines

    h, reader = reader_harness
    for tag in ("0000000107", "00DEADBEEF"):
        worker = threading.Thread(target=reader.tap, args=(tag,), name="rfid")
        worker.start()
        worker.join(5)
    h.pump(3)
    h.app.show("settings")
    view = h.app.session.view()
    lines = tap_lines(view)
    assert len(lines) == 2
    assert "00DEADBEEF  unknown: Unknown card 00DEADBEEF" in lines[0]
    assert "0000000107  contract 7: " in lines[1]
    assert lines[1].endswith(view["recent_taps"][0]["result"])
    texts = [str(w.text) for w in h.app.screens["settings"].walk() if isinstance(getattr(w, "text", None), str)]
    assert lines[0] in texts and lines[1] in texts
    assert texts.index(lines[0]) < texts.index(lines[1])
