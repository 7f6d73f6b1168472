"""`tableassist simulate`: random legal play through the engine, checking invariants."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "simulate", parents=[common], help="random legal play through the engine, checking invariants"
    )
    parser.add_argument("--players", type=int, required=True, help="number of players, 1 to 5")
    parser.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the digital bag and the random players")
    parser.add_argument("--policy", choices=("random", "sensible"), default="random",
                        help="how simulated players choose: uniformly at random (default) or as sensible players")
    parser.add_argument("--json", action="store_true", help="one JSON object: games, actions, seconds, "
                                                            "violations, scores")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from tableassist.engine.simulate import simulate

    if not 1 <= args.players <= 5:
        raise UserError(f"--players must be 1 to 5, not {args.players}.")
    if args.games < 1:
        raise UserError(f"--games must be at least 1, not {args.games}.")
    report = simulate(args.players, args.games, args.seed, args.policy)
    if args.json:
        print(json.dumps(report))
    else:
        seconds = report["seconds"]
        rate = report["games"] / seconds if seconds else float("inf")
        rounds = [s["rounds"] for s in report["scores"]]
        print(f"{report['games']} games for {args.players} player(s), {report['finished']} finished: "
              f"{report['actions']} actions in {seconds:.2f} s ({rate:.1f} games/s), "
              f"{sum(rounds) / len(rounds):.1f} rounds on average")
        best = [max(s["totals"].values()) for s in report["scores"] if s["totals"]]
        if best:
            print(f"winning scores: {min(best)} to {max(best)}, mean {sum(best) / len(best):.1f}")
        print(f"{len(report['violations'])} violation(s)")
        for line in report["violations"][:20]:
            print(f"  {line}")
    return 1 if report["violations"] else 0
