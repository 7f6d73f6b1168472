"""Is a change to the stock-yard reader faster? Two revisions timed against each other, frame by frame.

    python tests/bench/ab_reader.py [REV] [--against REV2] [--scenes N] [--rounds R] [--threads T]

REV (default HEAD) and REV2 (default: the working tree, uncommitted changes included) each get a reader
process of their own, from a checkout of that revision (`git worktree`, removed afterwards). Both read the
same generated scenes (every generator of tests/vision in turn, made once here), taking turns frame by
frame, never at the same time, so that the machine's drift falls on both alike: on this shared machine the
same frames took a fifth longer an hour later, more than most changes gain. A round of every frame for
both comes first and is not counted (a process's first reads grow its heap and fill its caches; timed,
the same code once looked 20 % faster than itself). Then R rounds, each frame read in both, in turn
first. Prints ms per frame for each, the paired difference with its spread, and how many scenes read
differently. Not part of `make bench` (which times the working tree alone): a tool for judging a change.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.vision.scenes import scene_pair  # noqa: E402
from tests.vision.scenes_alt import alt_scene_pair  # noqa: E402
from tests.vision.scenes_blind import blind_scene_pair  # noqa: E402
from tests.vision.scenes_fifth import fifth_scene_pair  # noqa: E402
from tests.vision.scenes_fourth import fourth_scene_pair  # noqa: E402
from tests.vision.scenes_indep import indep_scene_pair  # noqa: E402
from tests.vision.scenes_sixth import sixth_scene_pair  # noqa: E402
from tests.vision.scenes_third import third_scene_pair  # noqa: E402

GENERATORS = (scene_pair, alt_scene_pair, indep_scene_pair, blind_scene_pair, third_scene_pair, fourth_scene_pair,
              fifth_scene_pair, sixth_scene_pair)

# The reader process: its checkout first on the path, then one command a line (JSON) on stdin, one answer
# a line on stdout. Its own perf_counter times the read alone, not the pipe.
READER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(int(sys.argv[2]))
import hardware
from hardware.stockyard import YardReader, build_profile
assert hardware.__file__.startswith(sys.argv[1]), f"{hardware.__file__} is not from {sys.argv[1]}"
readers, frames = [], []
for line in sys.stdin:
    ask = json.loads(line)
    if ask["do"] == "load":
        readers.append(YardReader(build_profile(cv2.imread(ask["calibration"]))))
        frames.append(cv2.imread(ask["play"]))
        answer = {}
    else:
        k = ask["scene"]
        t0 = time.perf_counter()
        reading = readers[k].read(frames[k]).reading
        answer = {"ms": (time.perf_counter() - t0) * 1000, "counts": reading.counts(), "unsure": reading.unsure}
    print(json.dumps(answer), flush=True)
"""


class ReaderProcess:
    def __init__(self, checkout: Path, threads: int) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", READER, str(checkout), str(threads)], cwd=checkout,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **request: object) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("a reader process stopped (its error is above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


def checkout(rev: str, into: Path) -> Path:
    """The working tree itself for "tree", else a detached worktree of `rev` in the folder `into`."""
    if rev == "tree":
        return ROOT
    known = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                           capture_output=True, text=True)
    if known.returncode != 0:
        raise SystemExit(f"ab_reader: {rev} is no revision of this repository")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(into), rev], check=True)
    return into


def scene(k: int) -> Any:
    """Scene k: the generators in turn, each on seeds from 60 000. Some generators give up on a seed they
    cannot lay out (no camera pose frames the yard, a marker too small to find): the next one is taken."""
    make = GENERATORS[k % len(GENERATORS)]
    for seed in range(60_000 + k, 60_000 + k + 100 * len(GENERATORS), len(GENERATORS)):
        try:
            return make(seed)
        except RuntimeError:
            continue
    raise RuntimeError(f"{make.__name__} laid out none of a hundred seeds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", nargs="?", default="HEAD")
    parser.add_argument("--against", default="tree", help="the other revision (default: the working tree)")
    parser.add_argument("--scenes", type=int, default=32, help="scenes, every generator in turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="OpenCV's (and so the net's) threads")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ab-reader-") as tmp:
        work = Path(tmp)
        trees: list[Path] = []
        try:
            for k, rev in enumerate((args.rev, args.against)):
                trees.append(checkout(rev, work / f"checkout-{k}"))
            readers = [ReaderProcess(tree, args.threads) for tree in trees]
            for k in range(args.scenes):
                pair = scene(k)
                cal, play = work / f"{k}-cal.png", work / f"{k}-play.png"
                cv2.imwrite(str(cal), pair.calibration)
                cv2.imwrite(str(play), pair.play.image)
                for reader in readers:
                    reader.ask(do="load", calibration=str(cal), play=str(play))
            for k in range(args.scenes):  # the warm-up round, not counted
                for reader in readers:
                    reader.ask(do="read", scene=k)
            times: list[list[float]] = [[], []]
            differ = set()
            for r in range(args.rounds):
                for k in range(args.scenes):
                    order = (0, 1) if (r + k) % 2 == 0 else (1, 0)
                    answers = {i: readers[i].ask(do="read", scene=k) for i in order}
                    for i in (0, 1):
                        times[i].append(float(answers[i]["ms"]))
                    if (answers[0]["counts"], answers[0]["unsure"]) != (answers[1]["counts"], answers[1]["unsure"]):
                        differ.add(k)
            for reader in readers:
                reader.close()
        finally:
            for tree in trees:
                if tree != ROOT:
                    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    gaps = [b - a for a, b in zip(times[0], times[1], strict=True)]
    spread = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else float("nan")
    names = (args.rev, "working tree" if args.against == "tree" else args.against)
    for name, t in zip(names, times, strict=True):
        print(f"{name}: mean {statistics.mean(t):.2f} ms per frame, median {statistics.median(t):.2f}")
    print(f"{names[1]} minus {names[0]}: {statistics.mean(gaps):+.2f} ms per frame (± {2 * spread:.2f}, two standard "
          f"errors, {len(gaps)} paired reads of {args.scenes} scenes); scenes read differently: {len(differ)}")


if __name__ == "__main__":
    main()
