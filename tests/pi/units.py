"""Reading the unit files the way the tests need them: every value of every key, in order."""

from __future__ import annotations

from pathlib import Path

SYSTEMD_DIR = Path(__file__).resolve().parents[2] / "systemd"
UNIT_NAMES = ("tableassist.service", "tableassist-backup.service", "tableassist-backup.timer")
# Where install-pi.sh puts the venv; the units name its console script.
INSTALLED_CLI = "/opt/tableassist/venv/bin/tableassist"


def unit_settings(name: str) -> dict[str, dict[str, list[str]]]:
    """{section: {key: [values…]}}; systemd allows a key more than once (DeviceAllow=, Environment=)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in (SYSTEMD_DIR / name).read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{name}: setting outside a section: {line}"
        key, sep, value = line.partition("=")
        assert sep, f"{name}: not a key=value line: {line}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections
