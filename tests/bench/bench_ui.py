"""Touchscreen numbers: tap to updated screen (bar 50 ms), start to first screen (bar 3 s), memory (bar 250 MB).

Run by `make bench`; without a display it runs itself again under xvfb-run.
- tap → updated screen: a real touch on a real button through Kivy's input queue, timed from posting the
  finger's release to the end of the frame that shows the result (the session acts, its journal row is
  committed, the screen is rebuilt, laid out and drawn). Over two rounds of a 4-player game.
- start → first screen: the real `tableassist run --simulate` in a fresh process, timed from launch to the
  READY=1 it sends systemd (a notify socket of our own) once its first frame is drawn.
- memory: the peak resident set (ru_maxrss) of that process after a round of play.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]



TAP_SCRIPT = r"""
import json, resource, sys, time
from ui.boot import configure
configure((800, 480), max_fps=0)
from kivy.base import EventLoop
from tableassist.session import Journal, TableSession
from ui.app import TableApp
from ui.driver import Harness, _Touch

session = TableSession(Journal(sys.argv[1]))
app = TableApp(session, stand_ins=True)
h = Harness(app)
screen = app.screens["new_game"]
for colour in ("green", "blue", "yellow", "pink"):
    h.tap(screen.colour_buttons[colour])

def timed_tap(button):
    x, y = button.to_window(*button.center)
    touch = _Touch(x, y, h.window.width, h.window.height)
    EventLoop.post_dispatch_input("begin", touch)
    h.pump(1)
    EventLoop.post_dispatch_input("end", touch)
    t0, c0 = time.perf_counter(), time.process_time()
    EventLoop.idle()  # handles the release (session acts, screen rebuilt), lays out and draws the frame
    return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000

import gc
gc_pauses = []
_gc_start = [0.0]
def _gc_watch(phase, info):
    if phase == "start":
        _gc_start[0] = time.perf_counter()
    else:
        gc_pauses.append(((time.perf_counter() - _gc_start[0]) * 1000, info["generation"]))
gc.callbacks.append(_gc_watch)
times = {}
timed = times.setdefault("new_game", [])
timed.append(timed_tap(screen.start_button))
while session.view()["round"] <= 2 and not session.view()["finished"]:
    current = app.manager.current
    if current == "placement":
        button = next(b for b in app.screens["placement"].space_buttons.values() if not b.blocked_reason)
    elif current == "resolution":
        r = app.screens["resolution"]
        button = r.confirm_button or r.choice_buttons[0]
    elif current == "end_of_round":
        e = app.screens["end_of_round"]
        button = e.continue_button or e.draw_button
        # The table reads the end of the round (weather, events) before it goes on: the app's idle time.
        for _ in range(25):
            time.sleep(0.1)
            h.pump(1)
    else:
        break
    times.setdefault(current, []).append(timed_tap(button))
# Opening the Overview right after a tap (cold: it is rebuilt in the tap) and after the table has looked at
# the screen for a moment (warm: the app refreshed it in the background while nobody tapped).
times["overview (cold)"] = [timed_tap(app.top.overview)]
for name in ("overview", "settings", "calculator", "menu"):
    app.show(app._game_screen(session.view()))
    time.sleep(0.5)
    h.pump(2)
    button = {"overview": app.top.overview, "menu": app.top.menu}.get(name)
    if button is None:
        app.show("menu"); h.pump(1)
        button = app.screens["menu"].buttons[name]
    times.setdefault(name, []).append(timed_tap(button))
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print("longest collections (ms, generation):", sorted(gc_pauses)[-5:], file=sys.stderr)
print(json.dumps({"times": times, "rss_mb": rss_mb}))
"""


def run(script: str, *args: str) -> dict[str, object]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), KIVY_NO_CONSOLELOG="1")
    command = [sys.executable, "-c", script, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    if os.environ.get("BENCH_UI_DEBUG"):
        print(done.stderr[-2000:])
    if done.returncode != 0:
        raise SystemExit(f"bench_ui: the measuring process failed: {done.stderr.strip().splitlines()[-1:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def start_to_first_screen(db: Path) -> float:
    """Seconds from launching `tableassist run --simulate` to its READY=1 (first frame drawn)."""
    with tempfile.TemporaryDirectory() as sock_dir:
        address = str(Path(sock_dir) / "notify.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        listener.settimeout(60)
        env = dict(os.environ, NOTIFY_SOCKET=address, KIVY_NO_CONSOLELOG="1")
        command = [sys.executable, "-m", "tableassist", "--db", str(db), "run", "--simulate"]
        started = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while "READY=1" not in listener.recv(4096).decode():
                pass
            return time.perf_counter() - started
        finally:
            process.terminate()
            process.wait(timeout=10)
            listener.close()


def main() -> int:
    if not os.environ.get("DISPLAY"):
        if not shutil.which("xvfb-run"):
            print("ui: no display and no xvfb-run: touchscreen numbers skipped")
            return 0
        # Re-run this script under Xvfb (started first, so its own start-up is not timed as the app's).
        done = subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable, __file__],
                              cwd=ROOT)
        return done.returncode
    with tempfile.TemporaryDirectory() as tmp:
        starts = [start_to_first_screen(Path(tmp) / f"start{i}.sqlite3") for i in range(3)]
        taps = run(TAP_SCRIPT, str(Path(tmp) / "taps.sqlite3"))
    times: dict[str, list[list[float]]] = taps["times"]  # type: ignore[assignment]
    every = [t[0] for values in times.values() for t in values]
    cpu = [t[1] for values in times.values() for t in values]
    load = os.getloadavg()[0]
    print(f"ui: tap to updated screen (ms, bar 50), 4 players, two rounds, 800x480 "
          f"(load average {load:.1f} on {os.cpu_count()} cores; cpu = this process's CPU time, all threads)")
    for name, values in times.items():
        wall = [v[0] for v in values]
        used = [v[1] for v in values]
        print(f"  {name:14s} n={len(values):3d}  median {statistics.median(wall):6.1f}  max {max(wall):6.1f}"
              f"   cpu median {statistics.median(used):6.1f}")
    p95 = sorted(every)[max(0, int(len(every) * 0.95) - 1)]
    print(f"  all            n={len(every):3d}  median {statistics.median(every):6.1f}  p95 {p95:6.1f}  "
          f"max {max(every):6.1f}   cpu median {statistics.median(cpu):6.1f}")
    print(f"ui: start to first screen (s, bar 3): median {statistics.median(starts):.2f}  "
          f"runs {', '.join(f'{s:.2f}' for s in starts)}")
    print(f"ui: peak memory after two rounds (MB, bar 250): {taps['rss_mb']:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
