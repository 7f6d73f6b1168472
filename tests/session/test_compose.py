"""The composition root: from a config, simulated stand-ins where nothing is configured, wired to the session."""

from __future__ import annotations

from pathlib import Path

import pytest

from hardware.controls import SimulatedControls
from hardware.rfid import SimulatedCardReader
from tableassist.compose import CountingCamera, build_session
from tableassist.errors import UserError


@pytest.fixture(autouse=True)
def own_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "tableassist"


def test_without_a_config_everything_is_simulated_and_wired(tmp_path: Path) -> None:
    session = build_session(None, simulate=True, db=tmp_path / "db.sqlite3")
    devices = session.devices
    assert isinstance(devices.reader, SimulatedCardReader)
    assert isinstance(devices.controls, SimulatedControls)
    assert isinstance(devices.camera, CountingCamera)
    session.new_game(["Ann", "Ben"], ["green", "blue"], seed=4)
    devices.reader.tap("0102030405")  # the reader's thread posts into the session
    assert "Unknown card 0102030405" in (session.view()["error"] or "")
    session.check_yard()  # the simulated stock yard follows the engine: no difference
    assert session.view()["yard"]["differences"] == {}
    count = len(session.game.actions)
    session.act(session.view()["choices"][0]["action"])
    devices.controls.press("undo")
    assert len(session.game.actions) == count
    session.close()


def test_a_config_without_voice_and_in_german(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[table]\nlanguage = "de"\n\n[voice]\nenabled = false\n')
    session = build_session(config, simulate=True, db=tmp_path / "db.sqlite3")
    assert session.devices.voice is None and session.language == "de"
    session.new_game(["Ann", "Ben"], ["green", "blue"], seed=4)
    assert session.view()["announcements"][0]["text"].startswith("Neues Spiel")
    session.close()


def test_a_broken_owner_override_is_one_clear_error(tmp_path: Path, own_config_dir: Path) -> None:
    own_config_dir.mkdir(parents=True)
    (own_config_dir / "components.json").write_text("{broken")
    with pytest.raises(UserError, match="components.json"):
        build_session(None, simulate=True, db=tmp_path / "db.sqlite3")


def test_a_missing_cube_net_model_is_one_clear_error_and_lets_the_camera_go(
        own_config_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware import camera as capture
    from hardware import yard_render
    from hardware.stockyard import build_profile, cubenet, reader, save_profile
    from tableassist.compose import open_real_camera
    from tableassist.config import load_config

    empty = yard_render.render_stock_yard({}, seed=1)
    save_profile(build_profile(empty), own_config_dir / "stockyard")
    opened: list[capture.SimulatedCamera] = []

    def open_camera(spec: object) -> capture.SimulatedCamera:
        opened.append(capture.SimulatedCamera([empty]))
        return opened[-1]

    monkeypatch.setattr(capture, "open_camera", open_camera)
    # With the model in place the same calibration and camera make a working reader...
    camera = open_real_camera(load_config(None))
    assert camera.read_yard().counts() == {"iron": 0, "stone": 0, "coal": 0, "event": 0}
    # ...and without it, one message that says what to do, and the camera is let go.
    monkeypatch.setattr(reader, "CubeNet", lambda: cubenet.CubeNet(tmp_path / "gone.onnx"))
    with pytest.raises(UserError, match="cube net.*reinstall"):
        open_real_camera(load_config(None))
    assert len(opened) == 2 and opened[1].closed
