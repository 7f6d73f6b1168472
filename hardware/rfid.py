"""The RFID card reader: 125 kHz EM4100 readers on a serial port (RDM6300, ID-12LA, …).

Three layers, each testable alone:
- `FrameDecoder` / `LineDecoder`: pure byte-stream decoders. They take whatever a read returned (half a
  frame, three frames, line noise) with the time it arrived, and give back taps.
- `HeldCardFilter`: a card resting on the reader repeats its frame several times a second; the same tag
  within `hold_seconds` of its *previous frame* is the same tap, so a card held for a minute is one tap.
- `SerialCardReader`: pyserial in its own thread. A USB adapter pulled out mid-game is reported through
  `on_status`, retried every `retry_seconds`, and read again once it is back — the app never sees an
  exception. `SimulatedCardReader` is the same interface with `.tap(tag)` for tests and the demo.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

STX = 0x02
ETX = 0x03
HEX_DIGITS = frozenset(b"0123456789ABCDEFabcdef")
# STX + 10 data + 2 checksum + CR LF + ETX: nothing longer is a frame, so a missing ETX is found quickly.
MAX_FRAME = 16
PROTOCOLS = ("rdm6300", "line")
IN_USE = "in use by another program (the running assistant? sudo systemctl stop tableassist)"


def checksum(tag: str) -> int:
    """XOR of the five bytes the ten hex digits spell (version byte + 32-bit id)."""
    value = 0
    for i in range(0, 10, 2):
        value ^= int(tag[i:i + 2], 16)
    return value


def frame(tag: str, *, crlf: bool = False) -> bytes:
    """The bytes a reader sends for `tag` (for tests, the simulator and the benchmark)."""
    tag = normalise_tag(tag)
    end = b"\r\n" if crlf else b""
    return bytes([STX]) + tag.encode("ascii") + f"{checksum(tag):02X}".encode("ascii") + end + bytes([ETX])


def normalise_tag(text: str) -> str:
    """A tag as the rest of the app sees it: 10 upper-case hex digits. ValueError otherwise."""
    tag = text.strip().upper()
    if len(tag) != 10 or any(c not in "0123456789ABCDEF" for c in tag):
        raise ValueError(f"'{text.strip()}' is not a card tag (10 hex digits)")
    return tag


@dataclass
class DecoderStats:
    frames: int = 0  # valid frames, held repeats included
    bad_checksums: int = 0
    garbage_bytes: int = 0  # bytes thrown away while looking for the next frame


class HeldCardFilter:
    """Turns frames into taps: a frame of the tag seen within `hold_seconds` of its last frame is a repeat."""

    def __init__(self, hold_seconds: float = 1.0) -> None:
        self.hold_seconds = hold_seconds
        self._last_frame: dict[str, float] = {}

    def is_new_tap(self, tag: str, now: float) -> bool:
        previous = self._last_frame.get(tag)
        self._last_frame[tag] = now
        if len(self._last_frame) > 64:  # forget cards long gone, so the dict stays small all game
            self._last_frame = {t: s for t, s in self._last_frame.items() if now - s <= self.hold_seconds}
        return previous is None or now - previous > self.hold_seconds

    def reset(self) -> None:
        self._last_frame.clear()


class Decoder(Protocol):
    stats: DecoderStats

    def feed(self, data: bytes, now: float) -> list[str]: ...
    def reset(self) -> None: ...


class BufferedDecoder:
    """What both decoders share: the bytes not yet decoded, the held-card filter and the counters."""

    def __init__(self, hold_seconds: float = 1.0) -> None:
        self._buffer = bytearray()
        self._held = HeldCardFilter(hold_seconds)
        self.stats = DecoderStats()

    def reset(self) -> None:
        """Forget a half-received frame or line (the port was closed); held cards are forgotten too."""
        self._buffer.clear()
        self._held.reset()


class FrameDecoder(BufferedDecoder):
    """RDM6300/EM4100 frames: STX, 10 hex digits, 2 hex checksum digits, optional CR LF, ETX."""

    def feed(self, data: bytes, now: float) -> list[str]:
        """The new taps in `data`, received at monotonic time `now`."""
        self._buffer += data
        taps: list[str] = []
        for tag in self._frames():
            self.stats.frames += 1
            if self._held.is_new_tap(tag, now):
                taps.append(tag)
        return taps

    def _frames(self) -> list[str]:
        tags: list[str] = []
        buf = self._buffer
        while buf:
            start = buf.find(STX)
            if start < 0:
                self.stats.garbage_bytes += len(buf)
                buf.clear()
                break
            if start:
                self.stats.garbage_bytes += start
                del buf[:start]
            end = buf.find(ETX, 1, MAX_FRAME)
            restart = buf.find(STX, 1, end if end >= 0 else MAX_FRAME)
            if restart >= 0:
                # A new frame starts before this one ended: this one was cut short (noise, a card
                # pulled away mid-frame). Resynchronise on the later STX.
                self.stats.garbage_bytes += restart
                del buf[:restart]
                continue
            if end < 0:
                if len(buf) >= MAX_FRAME:  # no ETX where one must be: drop this STX and look again
                    self.stats.garbage_bytes += 1
                    del buf[:1]
                    continue
                break  # the rest of this frame is still on its way
            body = bytes(buf[1:end]).rstrip(b"\r\n")
            del buf[:end + 1]
            tag = self._tag(body)
            if tag is not None:
                tags.append(tag)
        return tags

    def _tag(self, body: bytes) -> str | None:
        if len(body) != 12 or any(b not in HEX_DIGITS for b in body):
            self.stats.garbage_bytes += len(body) + 2
            return None
        text = body.decode("ascii").upper()
        tag = text[:10]
        if int(text[10:], 16) != checksum(tag):
            self.stats.bad_checksums += 1
            return None
        return tag


class LineDecoder(BufferedDecoder):
    """One tag per text line (USB bridges that do the decoding): 10 hex digits, or 12 with the checksum."""

    def feed(self, data: bytes, now: float) -> list[str]:
        self._buffer += data.replace(b"\r", b"\n")
        taps: list[str] = []
        while (cut := self._buffer.find(b"\n")) >= 0:
            line = bytes(self._buffer[:cut]).strip(b" \t\x02\x03")
            del self._buffer[:cut + 1]
            if not line:
                continue
            tag = self._tag(line)
            if tag is None:
                continue
            self.stats.frames += 1
            if self._held.is_new_tap(tag, now):
                taps.append(tag)
        if len(self._buffer) > 256:  # a line that never ends is noise, not a tag
            self.stats.garbage_bytes += len(self._buffer)
            self._buffer.clear()
        return taps

    def _tag(self, line: bytes) -> str | None:
        if len(line) not in (10, 12) or any(b not in HEX_DIGITS for b in line):
            self.stats.garbage_bytes += len(line)
            return None
        text = line.decode("ascii").upper()
        if len(text) == 12 and int(text[10:], 16) != checksum(text[:10]):
            self.stats.bad_checksums += 1
            return None
        return text[:10]


def make_decoder(protocol: str, hold_seconds: float = 1.0) -> Decoder:
    if protocol == "rdm6300":
        return FrameDecoder(hold_seconds)
    if protocol == "line":
        return LineDecoder(hold_seconds)
    raise ValueError(f"unknown RFID protocol '{protocol}' (known: {', '.join(PROTOCOLS)})")


TapHandler = Callable[[str], None]
StatusHandler = Callable[[str], None]


class SerialCardReader:
    """The reader on a serial port, in its own thread; survives the adapter being unplugged."""

    def __init__(self, port: str, protocol: str = "rdm6300", *, baudrate: int = 9600,
                 hold_seconds: float = 1.0, retry_seconds: float = 1.0) -> None:
        self.port = port
        self.baudrate = baudrate
        self.retry_seconds = retry_seconds
        self.decoder = make_decoder(protocol, hold_seconds)
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._on_tap: TapHandler = lambda tag: None
        self._on_status: StatusHandler = lambda message: None

    def start(self, on_tap: TapHandler, on_status: StatusHandler | None = None) -> None:
        if self._thread is not None:
            raise RuntimeError("the card reader is already running")
        self._on_tap = on_tap
        self._on_status = on_status or (lambda message: None)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"rfid {self.port}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        import serial  # here, so importing this module never needs pyserial (the pure decoder does not)

        lost_reported = False
        while not self._stop.is_set():
            try:
                # exclusive: two programs reading one reader would each see half the frames
                port = serial.Serial(self.port, self.baudrate, timeout=0.1, exclusive=True)
            except (serial.SerialException, OSError, ValueError) as err:
                if not lost_reported:
                    self._status(f"RFID reader not available on {self.port}: {describe_serial_error(err)}; "
                                 f"retrying every {self.retry_seconds:g} s")
                    lost_reported = True
                self._stop.wait(self.retry_seconds)
                continue
            lost_reported = False
            self.decoder.reset()
            self.connected.set()
            self._status(f"RFID reader connected on {self.port}")
            failure: BaseException | None = None
            try:
                self._read(port)
            except Exception as err:  # noqa: BLE001 - whatever breaks the read, the reader retries
                failure = err
            finally:
                self.connected.clear()
                try:
                    port.close()  # before reporting: the device node is released when the owner hears of it
                except Exception:  # noqa: BLE001 - already gone with the device
                    pass
            if failure is not None:
                self._status(f"RFID reader lost on {self.port}: {describe_serial_error(failure)}; "
                             f"retrying every {self.retry_seconds:g} s")
                lost_reported = True
                self._stop.wait(self.retry_seconds)

    def _read(self, port: object) -> None:
        read = port.read  # type: ignore[attr-defined]
        while not self._stop.is_set():
            waiting = port.in_waiting  # type: ignore[attr-defined]
            data: bytes = read(waiting or 1)
            if not data:
                continue
            for tag in self.decoder.feed(data, time.monotonic()):
                self._deliver(tag)

    def _deliver(self, tag: str) -> None:
        try:
            self._on_tap(tag)
        except Exception as err:  # noqa: BLE001 - a bad handler must not kill the reader thread
            self._status(f"a card tap handler failed: {err}")

    def _status(self, message: str) -> None:
        try:
            self._on_status(message)
        except Exception:  # noqa: BLE001 - status is advisory; never let it stop reading
            pass


def describe_serial_error(err: BaseException) -> str:
    """One short phrase for a serial error, with the fix for the usual ones."""
    errno = getattr(err, "errno", None)
    text = str(err)
    if errno == 13 or "Permission denied" in text:
        return ("permission denied (add your user to the 'dialout' group: "
                "sudo usermod -aG dialout $USER, then log in again)")
    if errno == 2 or "No such file" in text:
        return "no such device (is the reader plugged in?)"
    if errno in (21, 25) or "Inappropriate ioctl" in text or "Is a directory" in text:
        return "not a serial port"
    if errno == 11 or "exclusively lock" in text:
        return IN_USE
    if "returned no data" in text:  # pyserial's words for a device that vanished mid-read
        return "the device went away"
    if isinstance(errno, int):
        return os.strerror(errno).lower()
    return text.splitlines()[0] if text else type(err).__name__


def check_port(port: str) -> str | None:
    """Why `port` cannot be a reader right now, or None if it can be opened."""
    path = Path(port)
    if not path.exists():
        return f"{port} does not exist (is the reader plugged in? ls /dev/ttyUSB* /dev/ttyACM*)"
    try:
        import serial

        serial.Serial(port, 9600, timeout=0, exclusive=True).close()
    except (serial.SerialException, OSError, ValueError) as err:
        return f"{port}: {describe_serial_error(err)}"
    return None


class SimulatedCardReader:
    """A reader without hardware: `tap(tag)` delivers a tap to whoever started the reader."""

    def __init__(self) -> None:
        self._on_tap: TapHandler | None = None
        self._on_status: StatusHandler | None = None
        self.taps: list[str] = []

    def start(self, on_tap: TapHandler, on_status: StatusHandler | None = None) -> None:
        self._on_tap = on_tap
        self._on_status = on_status
        if on_status is not None:
            on_status("simulated RFID reader ready")

    def stop(self) -> None:
        self._on_tap = None

    def tap(self, tag: str) -> None:
        tag = normalise_tag(tag)
        self.taps.append(tag)
        if self._on_tap is not None:
            self._on_tap(tag)
