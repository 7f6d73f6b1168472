"""The A/B timing tool (tests/bench/ab_reader.py) runs two real reader processes from two checkouts."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tests" / "bench" / "ab_reader.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def _worktrees() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True,
                          check=True).stdout


def test_a_revision_against_itself_reads_the_same_and_leaves_no_checkout_behind() -> None:
    before = _worktrees()
    done = _run("HEAD", "--against", "HEAD", "--scenes", "2", "--rounds", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    timed = [float(m.group(1)) for line in lines if (m := re.match(r"HEAD: mean ([\d.]+) ms per frame", line))]
    assert len(timed) == 2 and all(t > 0 for t in timed)
    assert lines[-1].endswith("scenes read differently: 0")
    assert "2 paired reads of 2 scenes" in lines[-1]
    assert _worktrees() == before


def test_an_unknown_revision_is_refused() -> None:
    done = _run("no-such-revision", "--scenes", "1", "--rounds", "1")
    assert done.returncode != 0
    assert "no-such-revision" in done.stderr
