"""`tableassist run` and `python -m ui.snapshot` as the demo and the Pi call them (subprocesses)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tests.ui.conftest import ARTIFACTS, display_or_skip

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env=env if env is not None else dict(os.environ))


def no_display_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    return env


def make_game(db: Path) -> int:
    from tableassist.session import Journal, TableSession

    session = TableSession(Journal(db))
    game_id = session.new_game(["Ann", "Ben", "Cy"], ["green", "blue", "yellow"], seed=4)
    for _ in range(8):  # into round 1's resolution
        session.act(session.view()["choices"][0]["action"])
    session.close()
    return game_id


def test_snapshot_saves_every_screen_at_both_sizes(tmp_path: Path) -> None:
    display_or_skip()
    db = tmp_path / "db.sqlite3"
    game_id = make_game(db)
    out = ARTIFACTS / "snapshot"
    done = run("-m", "ui.snapshot", "--db", str(db), "--game", str(game_id), "--out", str(out))
    assert done.returncode == 0, done.stderr
    files = sorted(out.glob(f"game{game_id}-*.png"))
    from ui.screens import SCREENS

    for screen in SCREENS:
        for size in ((800, 480), (1024, 600)):
            matches = [f for f in files if f.name.endswith(f"-{screen.screen_name}-{size[0]}x{size[1]}.png")]
            assert matches, f"no screenshot of {screen.screen_name} at {size}"
            with Image.open(matches[-1]) as image:
                assert image.size == size
                # Not a blank frame: a drawn screen has many colours.
                assert len(image.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 20


def test_snapshot_without_a_display_says_so_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    db.touch()
    done = run("-m", "ui.snapshot", "--db", str(db), "--game", "1", "--out", str(tmp_path), env=no_display_env())
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "no display" in done.stderr
    assert "Traceback" not in done.stderr


def test_snapshot_of_a_missing_game_is_one_line(tmp_path: Path) -> None:
    display_or_skip()
    db = tmp_path / "db.sqlite3"
    make_game(db)
    done = run("-m", "ui.snapshot", "--db", str(db), "--game", "99", "--out", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip() == "ui.snapshot: there is no game 99 in the journal"


@pytest.mark.parametrize("args, code, words", [
    (["run", "--simulate"], 3, "no display"),
    (["run", "--size", "big"], 2, "window size looks like 800x480"),
])
def test_run_refuses_in_one_line(tmp_path: Path, args: list[str], code: int, words: str) -> None:
    done = run("-m", "tableassist", "--db", str(tmp_path / "db.sqlite3"), *args, env=no_display_env())
    assert done.returncode == code
    assert words in done.stderr and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_run_starts_the_app_on_simulated_devices(tmp_path: Path) -> None:
    """The real command: it tells systemd (here a notify socket of our own) that the first screen is up, then
    keeps running until stopped."""
    display_or_skip()
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(30)
    env = dict(os.environ, NOTIFY_SOCKET=address)
    process = subprocess.Popen([sys.executable, "-m", "tableassist", "--db", str(tmp_path / "db.sqlite3"), "run",
                                "--simulate"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    try:
        message = listener.recv(4096).decode()
        assert "READY=1" in message
        assert process.poll() is None  # still running after its first screen
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=10)
        listener.close()
    assert "Traceback" not in err


def test_run_takes_size_and_fullscreen_from_the_display_section(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from tableassist.cli.run import fullscreen_wanted, window_size
    from tableassist.config import load_config

    monkeypatch.delenv("TABLEASSIST_SIZE", raising=False)
    file = tmp_path / "config.toml"
    file.write_text('[display]\nsize = "1024x600"\nfullscreen = true\n', encoding="utf-8")
    config = load_config(file)
    plain = argparse.Namespace(size=None, fullscreen=None)
    assert window_size(plain, config) == (1024, 600)
    assert window_size(argparse.Namespace(size="640x480", fullscreen=None), config) == (640, 480)
    monkeypatch.setenv("TABLEASSIST_SIZE", "1280x720")
    assert window_size(plain, config) == (1280, 720)
    console: dict[str, str] = {}
    desktop = {"DISPLAY": ":0"}
    assert fullscreen_wanted(plain, config, console)  # the Pi: the app owns the screen
    assert not fullscreen_wanted(plain, config, desktop)  # a desktop: a window of the configured size
    assert fullscreen_wanted(argparse.Namespace(size=None, fullscreen=True), config, desktop)
    file.write_text("[display]\nfullscreen = false\n", encoding="utf-8")
    windowed = load_config(file)
    assert not fullscreen_wanted(plain, windowed, console)
    monkeypatch.delenv("TABLEASSIST_SIZE")
    assert window_size(plain, windowed) == (800, 480)  # the documented default size


def test_run_refuses_a_bad_display_size_in_the_config_in_one_line(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('[display]\nsize = "huge"\n', encoding="utf-8")
    done = run("-m", "tableassist", "--db", str(tmp_path / "db.sqlite3"), "run", "--config", str(file),
               env=no_display_env())
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "[display] size must look like 800x480" in done.stderr
