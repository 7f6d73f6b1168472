"""install-pi.sh in a temporary root: the files it places, the commands it prints, and that a second run
changes nothing. Nothing here touches the machine running the tests: --root and --dry-run never run apt,
useradd or systemctl; they print them."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.pi.units import SYSTEMD_DIR, UNIT_NAMES

REPO = SYSTEMD_DIR.parent
INSTALLER = SYSTEMD_DIR / "install-pi.sh"
BASH = shutil.which("bash") or "/bin/bash"

# Where each shipped file must land, relative to the root.
PLACED = {
    **{f"etc/systemd/system/{name}": SYSTEMD_DIR / name for name in UNIT_NAMES},
    "etc/udev/rules.d/99-tableassist-rfid.rules": SYSTEMD_DIR / "99-tableassist-rfid.rules",
    "opt/tableassist/share/README.md": SYSTEMD_DIR / "README.md",
    "etc/tableassist/config.toml": REPO / "tableassist" / "data" / "config.sample.toml",
    "usr/local/bin/tableassist-admin": SYSTEMD_DIR / "tableassist-admin",
}
EXECUTABLE = {"usr/local/bin/tableassist-admin"}


def install(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BASH, str(INSTALLER), *args], capture_output=True, text=True, timeout=60)


def snapshot(root: Path) -> dict[str, tuple[str, int, int]]:
    """Every path under root with its content hash, mode and mtime: what a second run must not change."""
    state = {}
    for path in sorted(root.rglob("*")):
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        state[str(path.relative_to(root))] = (digest, info.st_mode, info.st_mtime_ns)
    return state


def test_root_install_places_every_file(tmp_path: Path) -> None:
    result = install("--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    placed = {str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*") if path.is_file()}
    assert placed == set(PLACED)
    for relative, source in PLACED.items():
        target = tmp_path / relative
        assert target.read_bytes() == source.read_bytes(), relative
        assert target.stat().st_mode & 0o777 == (0o755 if relative in EXECUTABLE else 0o644), relative
        assert f"installed (new): /{relative}" in result.stdout


def test_root_install_prints_the_system_commands_without_running_them(tmp_path: Path) -> None:
    result = install("--root", str(tmp_path))
    skipped = [line.removeprefix("skipped (--root): ") for line in result.stdout.splitlines()
               if line.startswith("skipped (--root): ")]
    joined = "\n".join(skipped)
    for expected in ("apt-get install", "useradd --system", "usermod --append --groups "
                     "dialout,video,gpio,audio,render,input tableassist",
                     "python3 -m venv --system-site-packages /opt/tableassist/venv",
                     "/opt/tableassist/venv/bin/pip install", "systemctl daemon-reload",
                     "systemctl enable --now tableassist.service",
                     "systemctl enable --now tableassist-backup.timer", "udevadm control --reload-rules",
                     "install -d -o tableassist -g tableassist -m 0750 /var/lib/tableassist",
                     "install -d -o tableassist -g tableassist -m 0755 /etc/tableassist"):
        assert expected in joined, expected
    # Nothing ran: the commands would have created these in the root or on the host.
    assert not (tmp_path / "opt" / "tableassist" / "venv").exists()
    assert not any(line.startswith("+ ") for line in result.stdout.splitlines())


def test_second_run_changes_nothing(tmp_path: Path) -> None:
    assert install("--root", str(tmp_path)).returncode == 0
    before = snapshot(tmp_path)
    again = install("--root", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert snapshot(tmp_path) == before
    assert "installed" not in again.stdout
    assert again.stdout.count("unchanged: ") == len(PLACED) - 1
    assert "kept (owner's file): /etc/tableassist/config.toml" in again.stdout
    assert "no file changed" in again.stdout


def test_owner_config_is_kept_and_a_stale_unit_is_replaced(tmp_path: Path) -> None:
    assert install("--root", str(tmp_path)).returncode == 0
    config = tmp_path / "etc/tableassist/config.toml"
    config.write_text('[rfid]\nport = "/dev/tableassist-rfid"\n')
    unit = tmp_path / "etc/systemd/system/tableassist.service"
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    result = install("--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert config.read_text() == '[rfid]\nport = "/dev/tableassist-rfid"\n'
    assert unit.read_bytes() == (SYSTEMD_DIR / "tableassist.service").read_bytes()
    assert "installed (changed): /etc/systemd/system/tableassist.service" in result.stdout


def test_dry_run_into_a_root_writes_nothing(tmp_path: Path) -> None:
    result = install("--dry-run", "--root", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []
    for relative in PLACED:
        assert f"would install (new): /{relative}" in result.stdout
    assert "would run: systemctl enable --now tableassist.service" in result.stdout
    assert "dry run: nothing was changed" in result.stdout


def test_dry_run_on_this_machine_changes_nothing_and_needs_no_root() -> None:
    # Without --root the dry run inspects the real system (which packages, user, venv exist) but changes
    # nothing; every file step is a "would install" or an "unchanged".
    result = install("--dry-run")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert not any(line.startswith(("+ ", "installed")) for line in lines)
    assert "would run: systemctl daemon-reload" in lines


@pytest.mark.parametrize("args, message", [
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["--root"], "--root needs a directory"),
    (["--root", "/no/such/dir"], "is not a directory"),
])
def test_bad_arguments_get_one_line(args: list[str], message: str) -> None:
    result = install(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
