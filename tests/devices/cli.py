"""Running `tableassist` as a separate process, as tools outside the project do."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO


def run_cli(*args: str, stdin: str | None = None, env_home: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", *args], capture_output=True, text=True,
                          input=stdin, timeout=timeout, env=isolated_env(env_home))


def isolated_env(home: Path | None) -> dict[str, str]:
    """The user's own config and state directories must not leak into a test run."""
    env = dict(os.environ)
    if home is not None:
        env["XDG_CONFIG_HOME"] = str(home / "config")
        env["XDG_STATE_HOME"] = str(home / "state")
    return env


def assert_one_clear_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode != 0, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0], lines[0]


class Running:
    """A `tableassist` process whose output is collected as it comes, for interactive commands."""

    def __init__(self, *args: str, env_home: Path | None = None) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "tableassist", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        env=isolated_env(env_home))
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, sink in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._collect, args=(stream, sink), daemon=True).start()

    @staticmethod
    def _collect(stream: IO[str] | None, sink: list[str]) -> None:
        assert stream is not None
        while chunk := stream.read(1):
            sink.append(chunk)

    @property
    def stdout(self) -> str:
        return "".join(self.out)

    @property
    def stderr(self) -> str:
        return "".join(self.err)

    def wait_for(self, text: str, *, stream: str = "stdout", timeout: float = 15.0, after: int = 0) -> int:
        """Wait until `text` appears (after position `after`); returns the position just past it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.stdout if stream == "stdout" else self.stderr
            at = seen.find(text, after)
            if at >= 0:
                return at + len(text)
            if self.process.poll() is not None:
                time.sleep(0.1)
                seen = self.stdout if stream == "stdout" else self.stderr
                if text in seen[after:]:
                    return seen.find(text, after) + len(text)
                raise AssertionError(f"exited {self.process.returncode} before '{text}': {self.stdout}{self.stderr}")
            time.sleep(0.02)
        raise AssertionError(f"no '{text}' within {timeout} s: {self.stdout!r} {self.stderr!r}")

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def finish(self, timeout: float = 15.0) -> int:
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
