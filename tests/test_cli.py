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


def test_a_named_command_loads_only_its_own_module() -> None:
    # Importing every command's module costs a tenth of a second per call: a command loads its own.
    probe = ("import sys; from tableassist.cli import main; main(['--db', 'vision', 'score', '--help'])")
    result = subprocess.run([sys.executable, "-c", probe + "\n"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "score" in result.stdout
    loaded = subprocess.run([sys.executable, "-c", "import sys\nfrom tableassist.cli import main\ntry:\n"
                             "    main(['--db=x', 'score', '--help'])\nexcept SystemExit:\n    pass\n"
                             "print(sorted(m for m in sys.modules if m.startswith('tableassist.cli.')))"],
                            capture_output=True, text=True)
    assert loaded.stdout.strip().splitlines()[-1] == "['tableassist.cli.score']", loaded.stderr


def test_options_before_the_command_still_work() -> None:
    result = run_cli("--db", "/nonexistent/x.db", "vision", "count", "--help")
    assert result.returncode == 0
    assert "--calibration" in result.stdout
