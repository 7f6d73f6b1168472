"""`tableassist doctor`: check camera, reader, GPIO, voice and database, and say how to fix what is missing.

One line per check: `OK`, or `MISSING` with what to do. A device the config does not enable is still
checked (it tells the owner whether enabling it would work) but marked "not needed", and only needed
checks decide the exit status: 0 when all of them pass, 1 otherwise. Every check catches its own
failures: the doctor never ends in a traceback, whatever state the machine is in.
"""

from __future__ import annotations

import argparse
import glob
import grp
import os
import sqlite3
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tableassist.config import Config, load_config
from tableassist.errors import UserError
from tableassist.paths import default_config_file, default_db_file


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "doctor", parents=[common], help="check camera, reader, GPIO, voice and database"
    )
    parser.add_argument("--config", metavar="FILE", help="config file (default: the user's config directory)")
    parser.set_defaults(handler=handle)


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str
    needed: bool = True

    def line(self) -> str:
        status = "OK" if self.ok else "MISSING"
        note = "" if self.needed or self.ok else "(not needed: not enabled in the config) "
        return f"{status:<8}{self.name:<10}{note}{self.detail}"


def handle(args: argparse.Namespace) -> int:
    findings: list[Finding] = []
    try:
        config = load_config(args.config)
        sample = "tableassist/data/config.sample.toml"
        where = config.source or f"no file, all defaults (to change them, copy {sample} to {default_config_file()})"
        findings.append(Finding("config", True, str(where)))
    except UserError as err:
        findings.append(Finding("config", False, f"{err} (fix the file; `doctor` goes on with the defaults)"))
        config = Config()
    print(findings[0].line(), flush=True)
    checks: list[Callable[[Config, argparse.Namespace], list[Finding]]] = [
        check_database, check_rfid, check_gpio, check_camera, check_voice,
    ]
    for check in checks:
        try:
            found = check(config, args)
        except Exception as err:  # noqa: BLE001 - a check that breaks is itself a finding
            found = [Finding(check.__name__.removeprefix("check_"), False, f"the check failed: {err}")]
        for finding in found:
            print(finding.line(), flush=True)
        findings += found
    return 0 if all(f.ok for f in findings if f.needed) else 1


def in_group(name: str) -> bool:
    try:
        gid = grp.getgrnam(name).gr_gid
    except KeyError:
        return False
    return os.geteuid() == 0 or gid in os.getgroups()


def group_hint(name: str) -> str:
    return f"add your user to the '{name}' group: sudo usermod -aG {name} $USER, then log in again"


def check_database(config: Config, args: argparse.Namespace) -> list[Finding]:
    from tableassist import db

    path = Path(args.db) if args.db else default_db_file()
    try:
        connection = db.connect(path)
    except UserError as err:
        return [Finding("database", False, f"{err} (check the directory exists and is writable)")]
    try:
        connection.execute("BEGIN IMMEDIATE")  # takes the write lock: fails on a read-only file or directory
        connection.execute("ROLLBACK")
        result = connection.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.Error as err:
        return [Finding("database", False, f"{path} cannot be written: {err} (check its permissions)")]
    finally:
        connection.close()
    if result != "ok":
        return [Finding("database", False, f"{path} is damaged ({result}): restore a backup (tableassist backup)")]
    return [Finding("database", True, f"{path} opens and is writable")]


def serial_candidates() -> list[str]:
    return sorted(glob.glob("/dev/tableassist-rfid") + glob.glob("/dev/ttyUSB*") + glob.glob("/dev/ttyACM*"))


def check_rfid(config: Config, args: argparse.Namespace) -> list[Finding]:
    from hardware.rfid import IN_USE, check_port

    port = config.rfid.port
    if not port:
        found = serial_candidates()
        hint = f"found {', '.join(found)}: set [rfid] port" if found else "no serial adapter found"
        return [Finding("rfid", False, f"no port configured ({hint})", needed=False)]
    path = Path(port)
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return [Finding("rfid", False, f"{port}: no permission ({group_hint('dialout')})")]
    problem = check_port(port)
    if problem and IN_USE in problem:
        return [Finding("rfid", True, f"{port} is there and in use by another program (the running assistant?)")]
    if problem:
        return [Finding("rfid", False, problem)]
    return [Finding("rfid", True, f"{port} opens ({config.rfid.protocol}, {config.rfid.baudrate} baud)")]


def check_gpio(config: Config, args: argparse.Namespace) -> list[Finding]:
    needed = config.gpio.enabled
    name = config.gpio.pin_factory or "gpiozero's default"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gpiozero warns for every factory it falls back from
            if config.gpio.pin_factory:
                from hardware.controls import make_pin_factory

                factory = make_pin_factory(config.gpio.pin_factory)
            else:
                from gpiozero import Device

                Device.ensure_pin_factory()
                factory = Device.pin_factory
    except Exception as err:  # noqa: BLE001 - gpiozero raises many kinds; all mean "no GPIO here"
        detail = str(err) or type(err).__name__
        return [Finding("gpio", False, f"no pin factory ({name}): {detail} — on a Raspberry Pi install "
                                       "python3-lgpio (or pip install lgpio)", needed=needed)]
    chips = glob.glob("/dev/gpiochip*") + glob.glob("/dev/gpiomem*")
    if chips and not any(os.access(c, os.R_OK | os.W_OK) for c in chips):
        return [Finding("gpio", False, f"no permission for {chips[0]} ({group_hint('gpio')})", needed=needed)]
    if chips and not in_group("gpio") and os.geteuid() != 0:
        return [Finding("gpio", True, f"{type(factory).__name__} works (tip: {group_hint('gpio')})", needed=needed)]
    return [Finding("gpio", True, f"{type(factory).__name__} works", needed=needed)]


def check_camera(config: Config, args: argparse.Namespace) -> list[Finding]:
    needed = config.camera.enabled
    index = config.camera.index
    device = Path(f"/dev/video{index}")
    if not device.exists():
        present = sorted(glob.glob("/dev/video*"))
        hint = f"found {', '.join(present)}: set [camera] index" if present else "is the camera connected?"
        return [Finding("camera", False, f"camera index {index}: there is no {device} ({hint})", needed=needed)]
    if not os.access(device, os.R_OK | os.W_OK):
        return [Finding("camera", False, f"{device}: no permission ({group_hint('video')})", needed=needed)]
    ok, detail = grab_frame(index)
    if not ok:
        return [Finding("camera", False, f"camera index {index} opens nothing: {detail}", needed=needed)]
    return [Finding("camera", True, f"camera index {index} gives frames ({detail})", needed=needed)]


def grab_frame(index: int, timeout: float = 8.0) -> tuple[bool, str]:
    """Open the camera and read one frame, in a thread: a wedged driver must not hang the doctor."""
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")  # OpenCV's own warnings would spoil one-line output
    result: list[tuple[bool, str]] = []

    def grab() -> None:
        try:
            import cv2

            capture: Any = cv2.VideoCapture(index)
            try:
                if not capture.isOpened():
                    result.append((False, "OpenCV cannot open it (another program using it?)"))
                    return
                ok, frame = capture.read()
                if not ok or frame is None:
                    result.append((False, "it opens but gives no frame"))
                    return
                result.append((True, f"{frame.shape[1]}x{frame.shape[0]}"))
            finally:
                capture.release()
        except Exception as err:  # noqa: BLE001
            result.append((False, str(err)))

    worker = threading.Thread(target=grab, daemon=True)
    worker.start()
    worker.join(timeout)
    return result[0] if result else (False, f"no frame within {timeout:g} s")


def check_voice(config: Config, args: argparse.Namespace) -> list[Finding]:
    from hardware.voice import audio_output_problem, espeak_problem, pyttsx3_problem

    needed = config.voice.enabled
    findings = []
    problem = espeak_problem()
    findings.append(Finding("espeak", problem is None, problem or "espeak-ng is installed", needed=needed))
    problem = pyttsx3_problem()
    findings.append(Finding("pyttsx3", problem is None, problem or "pyttsx3 starts, voices for en, de, es",
                            needed=needed))
    problem = audio_output_problem()
    if problem is None and not in_group("audio") and os.geteuid() != 0:
        problem_note = f"a sound output device is there (tip: {group_hint('audio')})"
    else:
        problem_note = "a sound output device is there"
    findings.append(Finding("audio", problem is None, problem or problem_note,
                            needed=needed and not config.voice.muted))
    return findings
