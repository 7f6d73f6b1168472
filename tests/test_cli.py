"""The command line's contract: bad arguments get one clear line on stderr and a non-zero exit."""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", *args], capture_output=True, text=True)


def test_unknown_flag_is_one_line_and_non_zero() -> None:
    result = run_cli("score", "-", "--no-such-flag")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "--no-such-flag" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_command_is_one_line() -> None:
    result = run_cli("fly")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_help_lists_every_command() -> None:
    result = run_cli("--help")
    assert result.returncode == 0
    for command in ("run", "demo", "simulate", "score", "replay", "vision", "rfid", "say", "doctor"):
        assert command in result.stdout
