"""The serial reader thread over a real pseudo-terminal pair, pyserial on the reader end."""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.rfid import SerialCardReader, describe_serial_error, frame
from tests.devices.ptys import FakeReaderPort, point_link

CARD = "0F00A1B2C3"
OTHER = "1A2B3C4D5E"


class Collector:
    def __init__(self) -> None:
        self.taps: queue.Queue[str] = queue.Queue()
        self.status: queue.Queue[str] = queue.Queue()

    def next_tap(self, timeout: float = 3.0) -> str:
        return self.taps.get(timeout=timeout)

    def no_more_taps(self, wait: float = 0.3) -> bool:
        try:
            self.taps.get(timeout=wait)
        except queue.Empty:
            return True
        return False

    def wait_status(self, word: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = self.status.get(timeout=left)
            except queue.Empty:
                break
            if word in message:
                return message
        raise AssertionError(f"no status with '{word}' within {timeout} s")


@pytest.fixture
def port() -> Iterator[FakeReaderPort]:
    fake = FakeReaderPort()
    yield fake
    fake.unplug()


def start(path: str, collector: Collector, **kwargs: float) -> SerialCardReader:
    reader = SerialCardReader(path, **kwargs)  # type: ignore[arg-type]
    reader.start(collector.taps.put, collector.status.put)
    collector.wait_status("RFID reader connected")
    return reader


def test_clean_split_garbage_and_bad_checksum_frames(port: FakeReaderPort) -> None:
    got = Collector()
    reader = start(port.path, got)
    try:
        port.write(frame(CARD))
        assert got.next_tap() == CARD
        # Split across writes with a pause: the reader sees two reads and must join them.
        data = frame(OTHER, crlf=True)
        port.write(data[:5])
        time.sleep(0.25)
        port.write(data[5:])
        assert got.next_tap() == OTHER
        # Garbage, then a bad checksum, then a good frame of a third card.
        port.write(b"\xff\xfe\x00noise" + b"\x020F00A1B2C3DE\x03" + frame("0102030405"))
        assert got.next_tap() == "0102030405"
        assert got.no_more_taps()
        assert reader.decoder.stats.bad_checksums == 1
    finally:
        reader.stop()


def test_held_card_is_one_tap_and_again_after_more_than_a_second(port: FakeReaderPort) -> None:
    got = Collector()
    reader = start(port.path, got, hold_seconds=1.0)
    try:
        for _ in range(8):  # held for about 1.2 s, a frame every 0.15 s
            port.write(frame(CARD))
            time.sleep(0.15)
        assert got.next_tap() == CARD
        assert got.no_more_taps(0.1)
        time.sleep(1.3)  # lifted for longer than a second, then tapped again
        port.write(frame(CARD))
        assert got.next_tap() == CARD
        assert got.no_more_taps()
    finally:
        reader.stop()


def test_unplug_is_reported_and_the_replugged_reader_reads_again(tmp_path: Path) -> None:
    link = tmp_path / "tableassist-rfid"
    first = FakeReaderPort()
    point_link(link, first.path)
    got = Collector()
    reader = start(str(link), got, retry_seconds=0.2)
    try:
        first.write(frame(CARD))
        assert got.next_tap() == CARD
        first.unplug()
        assert "lost" in got.wait_status("lost")
        time.sleep(0.5)  # a few retries against a device that is not there
        assert not reader.connected.is_set()
        second = FakeReaderPort()
        try:
            point_link(link, second.path)
            got.wait_status("RFID reader connected")
            second.write(frame(OTHER))
            assert got.next_tap() == OTHER
        finally:
            second.unplug()
        assert got.wait_status("lost")
    finally:
        reader.stop()


def test_port_that_is_not_there_is_retried_until_it_appears(tmp_path: Path) -> None:
    link = tmp_path / "later"
    got = Collector()
    reader = SerialCardReader(str(link), retry_seconds=0.1)
    reader.start(got.taps.put, got.status.put)
    try:
        assert "no such device" in got.wait_status("not available")
        port = FakeReaderPort()
        try:
            point_link(link, port.path)
            got.wait_status("RFID reader connected")
            port.write(frame(CARD))
            assert got.next_tap() == CARD
        finally:
            port.unplug()
    finally:
        reader.stop()


def test_a_failing_tap_handler_does_not_stop_the_reader(port: FakeReaderPort) -> None:
    got = Collector()
    seen: list[str] = []

    def handler(tag: str) -> None:
        seen.append(tag)
        if len(seen) == 1:
            raise RuntimeError("session busy")
        got.taps.put(tag)

    reader = SerialCardReader(port.path)
    reader.start(handler, got.status.put)
    try:
        got.wait_status("RFID reader connected")
        port.write(frame(CARD))
        assert "session busy" in got.wait_status("handler failed")
        port.write(frame(OTHER))
        assert got.next_tap() == OTHER
    finally:
        reader.stop()


def test_line_protocol_over_the_port(port: FakeReaderPort) -> None:
    got = Collector()
    reader = SerialCardReader(port.path, protocol="line")
    reader.start(got.taps.put, got.status.put)
    try:
        got.wait_status("RFID reader connected")
        port.write(b"0f00a1b2c3\r\n")
        assert got.next_tap() == CARD
    finally:
        reader.stop()


def test_a_second_program_on_the_same_reader_is_told_it_is_in_use(port: FakeReaderPort) -> None:
    first, second = Collector(), Collector()
    reader = start(port.path, first)
    other = SerialCardReader(port.path, retry_seconds=0.2)
    other.start(second.taps.put, second.status.put)
    try:
        assert "in use by another program" in second.wait_status("not available")
        port.write(frame(CARD))
        assert first.next_tap() == CARD  # the first reader keeps every frame
    finally:
        other.stop()
        reader.stop()


def test_serial_errors_are_explained_with_their_fix() -> None:
    import serial

    # The exceptions pyserial raises, as it builds them (serialposix.Serial.open); root cannot be refused
    # a device node, so the permission case is built here rather than provoked.
    denied = serial.SerialException(13, "could not open port /dev/ttyUSB0: [Errno 13] Permission denied")
    assert "dialout" in describe_serial_error(denied)
    missing = serial.SerialException(2, "could not open port /dev/ttyUSB0: [Errno 2] No such file or directory")
    assert describe_serial_error(missing) == "no such device (is the reader plugged in?)"
    gone = serial.SerialException("device reports readiness to read but returned no data (device disconnected?)")
    assert describe_serial_error(gone) == "the device went away"
    assert describe_serial_error(OSError(5, "Input/output error")) == "input/output error"
