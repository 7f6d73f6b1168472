"""`tableassist rfid`, `cards`, `say` and `doctor` as separate processes: real ptys, real WAVs, real files."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.rfid import frame
from hardware.voice import audio_output_problem
from tests.devices.audio import duration_and_rms
from tests.devices.cli import Running, assert_one_clear_line, run_cli
from tests.devices.ptys import FakeReaderPort, point_link

A, B, C = "0F00A1B2C3", "1A2B3C4D5E", "0102030405"
# A recording of what a reader sent during a few taps: (seconds since start, bytes). Card A is held for
# 0.6 s (repeats every 0.1 s: one tap), a frame of B arrives in two pieces, line noise and a frame with a
# bad checksum come between, A comes back 1.7 s after its last frame (a new tap), then C with CR LF.
RECORDING: list[tuple[float, bytes]] = (
    [(0.1 * i, frame(A)) for i in range(7)]
    + [(0.9, b"\xff\x00\x7f" + frame(B)[:6]), (1.0, frame(B)[6:])]
    + [(1.2, b"\x020F00A1B2C3DE\x03"), (1.3, b"\x02\x02junk")]
    + [(2.3, frame(A)), (2.4, frame(A))]
    + [(2.7, frame(C, crlf=True))]
)
TAPS_IN_RECORDING = [A, B, A, C]


@pytest.fixture
def port() -> Iterator[FakeReaderPort]:
    fake = FakeReaderPort()
    yield fake
    fake.unplug()


def replay(port: FakeReaderPort, recording: list[tuple[float, bytes]]) -> None:
    start = time.monotonic()
    for at, data in recording:
        time.sleep(max(0.0, start + at - time.monotonic()))
        port.write(data)


def test_recorded_frames_come_out_as_exactly_the_right_taps(port: FakeReaderPort, tmp_path: Path) -> None:
    listen = Running("rfid", "listen", "--port", port.path, "--count", "4", "--json", env_home=tmp_path)
    listen.wait_for("listening", stream="stderr")
    replay(port, RECORDING)
    assert listen.finish() == 0
    assert [json.loads(line) for line in listen.stdout.splitlines()] == [{"tag": t} for t in TAPS_IN_RECORDING]


def test_listen_survives_the_reader_being_unplugged(tmp_path: Path) -> None:
    link = tmp_path / "tableassist-rfid"
    first = FakeReaderPort()
    point_link(link, first.path)
    listen = Running("rfid", "listen", "--port", str(link), "--count", "2", "--json", env_home=tmp_path)
    try:
        listen.wait_for("listening", stream="stderr")
        first.write(frame(A))
        listen.wait_for(A)
        first.unplug()
        listen.wait_for("lost", stream="stderr")
        second = FakeReaderPort()
        try:
            point_link(link, second.path)
            listen.wait_for("RFID reader connected", stream="stderr")
            second.write(frame(B))
            assert listen.finish() == 0
        finally:
            second.unplug()
    finally:
        first.unplug()
    assert [json.loads(line)["tag"] for line in listen.stdout.splitlines()] == [A, B]
    assert "Traceback" not in listen.stderr


def test_listen_on_a_reader_another_program_holds_is_one_line(port: FakeReaderPort, tmp_path: Path) -> None:
    holder = Running("rfid", "listen", "--port", port.path, env_home=tmp_path)
    try:
        holder.wait_for("listening", stream="stderr")
        result = run_cli("rfid", "listen", "--port", port.path, env_home=tmp_path)
        assert_one_clear_line(result, "in use by another program")
    finally:
        holder.process.kill()
        holder.finish()


def test_plain_output_is_one_tag_per_line(port: FakeReaderPort, tmp_path: Path) -> None:
    listen = Running("rfid", "listen", "--port", port.path, "--count", "2", env_home=tmp_path)
    listen.wait_for("listening", stream="stderr")
    port.write(frame(B) + frame(C))
    assert listen.finish() == 0
    assert listen.stdout == f"{B}\n{C}\n"


def test_line_protocol_from_the_command_line(port: FakeReaderPort, tmp_path: Path) -> None:
    listen = Running("rfid", "listen", "--port", port.path, "--protocol", "line", "--count", "1", "--json",
                     env_home=tmp_path)
    listen.wait_for("listening", stream="stderr")
    port.write(b"1a2b3c4d5e\r\n")
    assert listen.finish() == 0
    assert json.loads(listen.stdout) == {"tag": B}


def test_no_tap_before_the_timeout_is_one_line(port: FakeReaderPort, tmp_path: Path) -> None:
    result = run_cli("rfid", "listen", "--port", port.path, "--timeout", "0.5", env_home=tmp_path)
    assert result.returncode == 1
    assert "no card tapped within 0.5 s" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["rfid", "listen", "--port", "/dev/no-such-reader"], ["/dev/no-such-reader", "does not exist"]),
    (["rfid", "listen", "--port", "/dev/null"], ["not a serial port"]),
    (["rfid", "listen", "--port", "/"], ["not a serial port"]),
    (["rfid", "listen"], ["no RFID port"]),
    (["rfid", "listen", "--port", "/dev/null", "--protocol", "wiegand"], ["--protocol", "wiegand"]),
    (["rfid", "listen", "--port", "/dev/null", "--count", "zero"], ["--count"]),
    (["rfid", "listen", "--port", "/dev/null", "--count", "0"], ["--count"]),
    (["rfid"], ["required"]),
    (["say", "hello", "--lang", "fr"], ["--lang", "fr"]),
    (["say", "hello", "--to", "/no/such/dir/x.wav"], ["/no/such/dir", "does not exist"]),
    (["say", "hello", "--to", "/proc/speech.wav"], ["cannot write /proc/speech.wav"]),
    (["say", "hello", "--to", "/"], ["is a directory"]),
    (["say", "  "], ["nothing to say"]),
    (["say", "hello", "--volume", "3"], ["--volume"]),
    (["cards", "add", "0F00A1B2C3", "contract", "99"], ["no contract 99"]),
    (["cards", "add", "XYZ", "contract", "3"], ["not a card tag"]),
    (["cards", "forget", "0F00A1B2C3"], ["no card with tag 0F00A1B2C3"]),
    (["cards", "enrol", "--port", "/dev/no-such-reader"], ["does not exist"]),
    (["doctor", "--config", "/no/such/config.toml", "--bogus"], ["--bogus"]),
])
def test_bad_input_is_one_clear_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    result = run_cli("--db", str(tmp_path / "t.sqlite3"), *args, env_home=tmp_path)
    assert_one_clear_line(result, *words)


@pytest.mark.parametrize(("language", "text"), [
    ("en", "The weather turns to fog: no excavation this round."),
    ("de", "Nebel: in dieser Runde keine Räumarbeiten."),
    ("es", "Niebla: esta ronda no hay excavación."),
])
def test_say_writes_a_real_wav_in_each_language(tmp_path: Path, language: str, text: str) -> None:
    target = tmp_path / f"{language}.wav"
    result = run_cli("say", text, "--lang", language, "--to", str(target), env_home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    seconds, rms = duration_and_rms(target)
    assert seconds > 1.5
    assert rms > 500


def test_say_without_a_sound_device_is_one_line(tmp_path: Path) -> None:
    if audio_output_problem() is None:
        pytest.skip("this machine can play sound; the missing-device path cannot be shown here")
    result = run_cli("say", "hello", env_home=tmp_path)
    assert result.returncode == 1
    assert_one_clear_line(result, "cannot speak", "--to")


def test_cards_add_list_forget(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    assert run_cli("--db", db, "cards", "add", "0f00a1b2c3", "track", "4", "rubble", "3", "vp", "5").returncode == 0
    assert run_cli("cards", "add", "--db", db, "1A2B3C4D5E", "player", "blue").returncode == 0
    listing = run_cli("--db", db, "cards", "list", "--json")
    assert [json.loads(line) for line in listing.stdout.splitlines()] == [
        {"tag": B, "kind": "player", "name": "blue"},
        {"tag": A, "kind": "track", "number": 4, "rubble": 3, "vp": 5},
    ]
    assert run_cli("--db", db, "cards", "forget", A).returncode == 0
    assert run_cli("--db", db, "cards", "list").stdout == f"{B}  player blue\n"


def test_cards_enrol_walks_through_tapped_cards(port: FakeReaderPort, tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    enrol = Running("--db", db, "cards", "enrol", "--port", port.path, "--count", "2", env_home=tmp_path)
    enrol.wait_for("Tap a card")
    port.write(frame(A))
    at = enrol.wait_for(f"{A} is new. What is it?")
    time.sleep(1.2)
    port.write(frame(A))  # lifted and put back while the answer is typed: not a card to ask about again
    time.sleep(0.2)
    enrol.send("contract 99")  # no such contract: asked again
    at = enrol.wait_for("no contract 99", after=at)
    at = enrol.wait_for("What is it?", after=at)
    enrol.send("contract 12")
    at = enrol.wait_for("stored", after=at)
    port.write(frame(C))
    at = enrol.wait_for(f"{C} is new. What is it?", after=at)
    enrol.send("station Clogwyn Station")
    assert enrol.finish() == 0
    assert "2 cards enrolled" in enrol.stdout
    assert f"{A} is enrolled as" not in enrol.stdout  # the repeat tap was not asked about
    listing = run_cli("--db", db, "cards", "list")
    assert listing.stdout == f"{A}  contract 12\n{C}  station clogwyn\n"


def write_config(tmp_path: Path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_doctor_passes_when_only_the_database_is_needed(tmp_path: Path) -> None:
    config = write_config(tmp_path, "[voice]\nenabled = false\n")
    result = run_cli("--db", str(tmp_path / "t.sqlite3"), "doctor", "--config", config, env_home=tmp_path)
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    names = [line.split()[1] for line in lines]
    assert names == ["config", "database", "rfid", "gpio", "camera", "espeak", "pyttsx3", "audio"]
    assert lines[1].startswith("OK") and "writable" in lines[1]
    assert all(line.startswith(("OK", "MISSING")) for line in lines)
    assert "Traceback" not in result.stderr


def test_doctor_names_a_missing_reader_and_fails(tmp_path: Path) -> None:
    config = write_config(tmp_path, '[rfid]\nport = "/dev/no-such-reader"\n[voice]\nenabled = false\n')
    result = run_cli("--db", str(tmp_path / "t.sqlite3"), "doctor", "--config", config, env_home=tmp_path)
    assert result.returncode == 1
    rfid = next(line for line in result.stdout.splitlines() if line.split()[1] == "rfid")
    assert rfid.startswith("MISSING") and "/dev/no-such-reader does not exist" in rfid


def test_doctor_reports_a_reader_that_is_there(port: FakeReaderPort, tmp_path: Path) -> None:
    config = write_config(tmp_path, f'[rfid]\nport = "{port.path}"\n[voice]\nenabled = false\n')
    result = run_cli("--db", str(tmp_path / "t.sqlite3"), "doctor", "--config", config, env_home=tmp_path)
    assert result.returncode == 0, result.stdout
    assert any(line.startswith("OK") and port.path in line for line in result.stdout.splitlines())


def test_doctor_with_a_broken_config_and_an_unwritable_database(tmp_path: Path) -> None:
    config = write_config(tmp_path, "[rfid\nport = 3\n")
    result = run_cli("--db", "/proc/no/t.sqlite3", "doctor", "--config", config, env_home=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("MISSING config") and "not valid TOML" in lines[0]
    assert lines[1].startswith("MISSING database")
    assert "Traceback" not in result.stdout + result.stderr


def test_doctor_needs_a_gpio_pin_factory_when_gpio_is_enabled(tmp_path: Path) -> None:
    config = write_config(tmp_path, "[gpio]\nenabled = true\npin_factory = \"mock\"\n[voice]\nenabled = false\n")
    result = run_cli("--db", str(tmp_path / "t.sqlite3"), "doctor", "--config", config, env_home=tmp_path)
    gpio = next(line for line in result.stdout.splitlines() if line.split()[1] == "gpio")
    assert gpio.startswith("OK") and "MockFactory" in gpio
    assert result.returncode == 0


def test_listen_and_enrol_take_the_reader_from_one_helper(port: FakeReaderPort, tmp_path: Path) -> None:
    """`rfid listen` and `cards enrol` share tableassist.cli.rfid.configured_reader: the port from the
    command line, else the config's [rfid] section, checked before the reader opens."""
    import argparse

    from tableassist.cli.rfid import configured_reader
    from tableassist.errors import UserError

    config = tmp_path / "config.toml"
    config.write_text(f'[rfid]\nport = "{port.path}"\nprotocol = "line"\nhold_seconds = 2.5\n', encoding="utf-8")
    configured = configured_reader(argparse.Namespace(config=str(config), port=None, protocol=None))
    assert (configured.port, configured.protocol) == (port.path, "line")
    assert configured.reader.port == port.path
    assert configured.reader.decoder._held.hold_seconds == 2.5  # type: ignore[attr-defined]
    overridden = configured_reader(argparse.Namespace(config=str(config), port=None, protocol="rdm6300"))
    assert overridden.protocol == "rdm6300"
    config.write_text("[rfid]\n", encoding="utf-8")
    with pytest.raises(UserError, match="no RFID port"):
        configured_reader(argparse.Namespace(config=str(config), port=None, protocol=None))
    with pytest.raises(UserError, match="cannot read cards: .*does not exist"):
        configured_reader(argparse.Namespace(config=str(config), port="/dev/no-such-reader", protocol=None))
    # enrol reaches the same check (its own copy used to be separate)
    assert_one_clear_line(run_cli("--db", str(tmp_path / "t.sqlite3"), "cards", "enrol", "--config", str(config),
                                  env_home=tmp_path), "no RFID port")
