"""Benchmark: end-of-game scoring with many contracts (issue 3 bar: 28 contracts well under 50 ms).

Prints the median (and worst) time of `score_player` for 10, 20, 28 and 30 contracts held, on holdings
rich enough that every contract is in play and the contracts needing several resources must be searched;
then the worst case over random end-of-game holdings, and a whole 5-player table (the live estimate).
Run: .venv/bin/python tests/bench/bench_scoring.py
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from tableassist.engine import components
from tableassist.engine.scoring import Holding, score_player, score_table

COMPONENTS = components.default()
# Contracts needing two or more resources first: they are the ones the search branches on.
MULTI_FIRST = [4, 5, 6, 9, 13, 14, 15, 16, 28, 29, 1, 2, 3, 7, 8, 10, 11, 12, 17, 18, 19, 20, 21, 22, 23, 24, 25,
               26, 27, 30]


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median and 99th percentile in ms (the very worst run mostly measures the other processes on the box)."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, percentile99(samples) * 1000


def percentile99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98]


def rich(contracts: list[int]) -> Holding:
    return Holding(name="P", site_vps=[5] * 8, track_vps=[4] * 8, rubble=60, coal=3, surveyor="yr_wyddfa",
                   train=4, contracts=contracts, daffodils=0)


def random_holding(rng: random.Random, held: int) -> Holding:
    sites = rng.randint(0, 16)
    return Holding(name="P", site_vps=[rng.randint(1, 9) for _ in range(sites)],
                   track_vps=[rng.randint(0, 7) for _ in range(rng.randint(0, 16 - sites))],
                   rubble=rng.randint(0, 90), coal=rng.randint(0, 8),
                   surveyor=rng.choice([s.id for s in COMPONENTS.stations]), train=None,
                   contracts=rng.sample(sorted(COMPONENTS.contracts), held))


def main() -> None:
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("score_player, rich holding (8 sites, 8 tracks, 60 rubble, surveyor at Yr Wyddfa), 2000 runs each")
    for held in (10, 20, 28, 30):
        holding = rich(MULTI_FIRST[:held])
        median, worst = timed(partial(score_player, holding, COMPONENTS), 2000)
        print(f"  {held:2d} contracts: median {median:.3f} ms, p99 {worst:.3f} ms")
    rng = random.Random(3)
    holdings = [random_holding(rng, 28) for _ in range(2000)]
    samples = []
    for h in holdings:
        start = time.perf_counter()
        score_player(h, COMPONENTS)
        samples.append(time.perf_counter() - start)
    print(f"score_player, 2000 random holdings of 28 contracts: median {statistics.median(samples) * 1000:.3f} ms, "
          f"p99 {percentile99(samples) * 1000:.3f} ms, worst {max(samples) * 1000:.3f} ms")
    table = [random_holding(rng, 6) for _ in range(5)]
    table = [Holding(**{**h.__dict__, "name": f"P{i}", "contracts": list(range(1 + 6 * i, 7 + 6 * i))})
             for i, h in enumerate(table)]
    median, worst = timed(partial(score_table, table, "last_in_turn_order", COMPONENTS), 2000)
    print(f"score_table, 5 players x 6 contracts (the live estimate): median {median:.3f} ms, p99 {worst:.3f} ms")
    cases = json.loads((Path(__file__).parent.parent / "scoring" / "positions.json").read_text())["cases"]
    table_json = next(c["input"] for c in cases if c["id"] == "all-30-contracts-rich")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(table_json, handle)
    command = [sys.executable, "-m", "tableassist", "score", handle.name]
    median, worst = timed(partial(subprocess.run, command, capture_output=True, check=True), 20)
    Path(handle.name).unlink()
    print(f"tableassist score (whole process, 3 players, one holding 30 contracts): median {median:.1f} ms, "
          f"p99 {worst:.1f} ms")


if __name__ == "__main__":
    main()
