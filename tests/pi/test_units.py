"""The unit files: `systemd-analyze verify` accepts them, the service's exposure is at most 4.0, and what
they run matches the command line and the directories the app looks in.

systemd-analyze is Debian's (the Makefile installs the systemd package). `verify` insists that ExecStart=
points at an existing executable, and /opt/tableassist/venv exists only on an installed Pi. So each unit is
verified twice: as shipped, where the ONLY complaint allowed is that missing executable, and as a copy in
which that one path is replaced by this checkout's own `tableassist` script, which must pass cleanly.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tableassist.cli import build_parser
from tests.pi.units import INSTALLED_CLI, SYSTEMD_DIR, UNIT_NAMES, unit_settings

ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze missing: apt install systemd")
EXPOSURE_BAR = 4.0


def local_cli() -> str:
    script = Path(sys.executable).parent / "tableassist"
    assert script.is_file() and os.access(script, os.X_OK), f"{script} missing: run make setup"
    return str(script)


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run([ANALYZE, *args], capture_output=True, text=True, timeout=120)


@needs_analyze
def test_units_as_shipped_fail_only_on_the_missing_install_prefix() -> None:
    result = analyze("verify", "--man=no", *(str(SYSTEMD_DIR / name) for name in UNIT_NAMES))
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    if os.path.exists(INSTALLED_CLI):  # an installed Pi: nothing to complain about at all
        assert result.returncode == 0, complaints
        return
    assert complaints, "verify said nothing about the missing executable: is it checking ExecStart at all?"
    for line in complaints:
        assert f"Command {INSTALLED_CLI} is not executable" in line, line


@needs_analyze
def test_units_verify_cleanly_with_an_existing_executable(tmp_path: Path) -> None:
    cli = local_cli()
    for name in UNIT_NAMES:
        text = (SYSTEMD_DIR / name).read_text()
        (tmp_path / name).write_text(text.replace(INSTALLED_CLI, cli))
    result = analyze("verify", "--man=no", *(str(tmp_path / name) for name in UNIT_NAMES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert (result.stdout + result.stderr).strip() == ""


@needs_analyze
def test_verify_rejects_a_broken_unit(tmp_path: Path) -> None:
    # The clean check above means something only if verify speaks up about real mistakes. It reports a bad
    # value or an unknown key as a warning ("ignoring") with exit status 0, which is why the clean check
    # demands empty output rather than only a zero exit status.
    text = (SYSTEMD_DIR / "tableassist.service").read_text().replace(INSTALLED_CLI, local_cli())
    broken = tmp_path / "tableassist.service"
    broken.write_text(text.replace("Type=notify", "Type=notifyy").replace("WatchdogSec=", "WatchdogSecs="))
    result = analyze("verify", "--man=no", str(broken))
    assert "notifyy" in result.stderr
    assert "WatchdogSecs" in result.stderr


def exposure(unit: Path) -> tuple[float, str]:
    result = analyze("security", "--offline=true", "--no-pager", str(unit))
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+) (\w+)", result.stdout)
    assert match, result.stdout + result.stderr
    return float(match.group(1)), match.group(2)


@needs_analyze
def test_service_exposure_is_at_most_4() -> None:
    level, verdict = exposure(SYSTEMD_DIR / "tableassist.service")
    print(f"\ntableassist.service exposure: {level} {verdict}")
    assert level <= EXPOSURE_BAR
    assert verdict in ("OK", "SAFE")


@needs_analyze
def test_backup_service_exposure_is_at_most_4() -> None:
    level, verdict = exposure(SYSTEMD_DIR / "tableassist-backup.service")
    print(f"\ntableassist-backup.service exposure: {level} {verdict}")
    assert level <= EXPOSURE_BAR


def test_service_runs_the_app_as_its_own_user_with_a_watchdog() -> None:
    service = unit_settings("tableassist.service")["Service"]
    assert service["ExecStart"] == [f"{INSTALLED_CLI} run"]
    assert service["Type"] == ["notify"]
    assert service["NotifyAccess"] == ["main"]
    assert service["WatchdogSec"][0].rstrip("s").isdigit()
    assert service["Restart"] == ["on-failure"]
    assert service["User"] == ["tableassist"]
    assert set(service["SupplementaryGroups"][0].split()) == {"dialout", "video", "gpio", "audio", "render", "input"}
    assert service["CapabilityBoundingSet"] == [""]
    assert service["DevicePolicy"] == ["closed"]
    unit = unit_settings("tableassist.service")["Unit"]
    assert "StartLimitIntervalSec" in unit and "StartLimitBurst" in unit


def test_units_run_commands_the_cli_accepts() -> None:
    parser = build_parser()
    for name in ("tableassist.service", "tableassist-backup.service"):
        command = unit_settings(name)["Service"]["ExecStart"][0].split()
        assert command[0] == INSTALLED_CLI
        args = parser.parse_args(command[1:])  # exits (SystemExit) if the contract changed under the unit
        assert callable(args.handler)


def test_backup_timer_is_nightly_and_catches_up_after_power_off() -> None:
    timer = unit_settings("tableassist-backup.timer")["Timer"]
    assert timer["Persistent"] == ["true"]
    assert timer["Unit"] == ["tableassist-backup.service"]
    assert re.fullmatch(r"\*-\*-\* \d\d:\d\d:\d\d", timer["OnCalendar"][0])
    assert "--keep 7" in unit_settings("tableassist-backup.service")["Service"]["ExecStart"][0]


@needs_analyze
def test_backup_time_is_a_valid_calendar_spec() -> None:
    spec = unit_settings("tableassist-backup.timer")["Timer"]["OnCalendar"][0]
    result = analyze("calendar", spec)
    assert result.returncode == 0, result.stderr
    assert "Next elapse:" in result.stdout


def systemd_environment(name: str) -> dict[str, str]:
    """The unit's Environment= with the system-manager specifiers %S, %E, %C, %t expanded."""
    specifiers = {"%S": "/var/lib", "%E": "/etc", "%C": "/var/cache", "%t": "/run"}
    env: dict[str, str] = {}
    for entry in unit_settings(name)["Service"].get("Environment", []):
        key, _, value = entry.partition("=")
        for spec, path in specifiers.items():
            value = value.replace(spec, path)
        env[key] = value
    return env


@pytest.mark.parametrize("name", ["tableassist.service", "tableassist-backup.service"])
def test_the_app_finds_its_files_in_the_directories_systemd_makes_writable(name: str) -> None:
    # platformdirs, run with the unit's environment, must land on StateDirectory= and ConfigurationDirectory=.
    env = {**os.environ, **systemd_environment(name)}
    code = "from tableassist import paths; print(paths.state_dir()); print(paths.config_dir())"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    state, config = result.stdout.split()
    service = unit_settings(name)["Service"]
    assert state == f"/var/lib/{service['StateDirectory'][0]}"
    assert config == f"/etc/{service['ConfigurationDirectory'][0]}"


UDEV_KEY = re.compile(r'\s*(?:([A-Z_]+)(?:\{([^}]+)\})?)\s*(==|!=|\+=|=|:=)\s*"([^"]*)"\s*(?:,|$)')


def udev_rules() -> list[dict[str, str]]:
    rules = []
    for raw in (SYSTEMD_DIR / "99-tableassist-rfid.rules").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        rule: dict[str, str] = {}
        position = 0
        while position < len(line):
            match = UDEV_KEY.match(line, position)
            assert match, f"not udev syntax at column {position}: {line}"
            key = match.group(1) + (f"{{{match.group(2)}}}" if match.group(2) else "")
            rule[f"{key}{match.group(3)}"] = match.group(4)
            position = match.end()
        rules.append(rule)
    return rules


def test_udev_rule_names_common_adapters_tableassist_rfid_for_dialout() -> None:
    naming = [rule for rule in udev_rules() if "SYMLINK+=" in rule]
    ids = {(rule["ATTRS{idVendor}=="], rule["ATTRS{idProduct}=="]) for rule in naming}
    # CH340, CP2102, FT232R: the chips on the cheap adapters RDM6300 readers are sold with.
    assert {("1a86", "7523"), ("10c4", "ea60"), ("0403", "6001")} <= ids
    for rule in naming:
        assert rule["SYMLINK+="] == "tableassist-rfid"
        assert rule["GROUP="] == "dialout"
        assert rule["MODE="] == "0660"
    # Only serial ttys are named, never the USB device node itself.
    assert any(rule.get("SUBSYSTEM!=") == "tty" for rule in udev_rules())


def test_admin_wrapper_uses_the_service_environment() -> None:
    # `sudo tableassist-admin …` must open the same database and config as the running service.
    wrapper = (SYSTEMD_DIR / "tableassist-admin").read_text()
    assert subprocess.run(["sh", "-n", str(SYSTEMD_DIR / "tableassist-admin")]).returncode == 0
    assignments = dict(re.findall(r"\b(HOME|XDG_[A-Z]+_HOME)=(\S+)", wrapper))
    service_env = systemd_environment("tableassist.service")
    for key in ("HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        assert assignments[key] == service_env[key], key
    assert "runuser -u tableassist" in wrapper
    assert f"{INSTALLED_CLI} \"$@\"" in wrapper


def test_backup_is_skipped_until_the_service_database_exists() -> None:
    # The condition must name the very file the app writes, or the nightly backup would never run.
    env = {**os.environ, **systemd_environment("tableassist-backup.service")}
    code = "from tableassist import paths; print(paths.default_db_file())"
    db = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    condition = unit_settings("tableassist-backup.service")["Unit"]["ConditionPathExists"]
    assert condition == [db.stdout.strip()]


def test_a_watchdog_kill_leaves_the_frozen_stack_in_the_journal() -> None:
    # On a watchdog timeout systemd sends SIGABRT (WatchdogSignal= default). With the unit's environment the
    # Python faulthandler prints where every thread was, so the log says what froze the screen.
    service_env = systemd_environment("tableassist.service")
    assert service_env.get("PYTHONFAULTHANDLER") == "1"
    assert "WatchdogSignal" not in unit_settings("tableassist.service")["Service"]
    frozen = (
        "import sys, time\n"
        "def frozen_ui_loop():\n"
        "    print('ready', flush=True)\n"
        "    time.sleep(60)\n"
        "frozen_ui_loop()\n"
    )
    env = {**os.environ, "PYTHONFAULTHANDLER": service_env["PYTHONFAULTHANDLER"]}
    app = subprocess.Popen([sys.executable, "-c", frozen], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    assert app.stdout is not None
    assert app.stdout.readline().strip() == "ready"
    app.send_signal(signal.SIGABRT)
    _, stderr = app.communicate(timeout=30)
    assert app.returncode == -signal.SIGABRT
    assert "Fatal Python error: Aborted" in stderr
    assert "frozen_ui_loop" in stderr
