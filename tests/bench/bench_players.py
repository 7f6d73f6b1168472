"""Simulated sensible players (tableassist.engine.players): speed and the games they play.

Prints, per player count: choices per second, seconds per game (the players' choices only, and the whole
game with the digital bag), mean/min/max final scores and the winner's mean, rounds per game, and how often
players (not events) laid track; then the same table for random legal play for comparison.
Run by `make bench`; asserts nothing (the machine decides the times)."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tableassist.engine import DigitalSource, Game, Setup
from tableassist.engine.players import choose
from tableassist.engine.simulate import NAMES


def play(players: int, seed: int, sensible: bool) -> tuple[Game, float, int, int]:
    """One game; returns it, seconds spent choosing, choices made, tracks laid by players."""
    game = Game.new(Setup(players=list(NAMES[:players]), solo_train=seed % 7 + 1 if players == 1 else None))
    source = DigitalSource(seed)
    rng = random.Random(seed ^ 0x5EED)
    thinking, choices, laid = 0.0, 0, 0
    while not game.finished:
        decision = game.waiting
        assert decision is not None
        if decision.player is None:
            game.apply(source.chance(game))
            continue
        started = time.perf_counter()
        action = choose(game, rng) if sensible else rng.choice(game.legal_actions())
        thinking += time.perf_counter() - started
        choices += 1
        laid += sum(1 for e in game.apply(action) if e["type"] == "track_laid" and e["player"] is not None)
    return game, thinking, choices, laid


def report(games: int, sensible: bool) -> None:
    print(f"{'sensible' if sensible else 'random'} players, {games} games per player count")
    print("  players  choices/s  s/game(choices)  s/game(all)  mean  min  max  winner  rounds  tracks by players")
    for players in range(1, 6):
        scores, winners, rounds = [], [], []
        thinking, choices, laid = 0.0, 0, 0
        started = time.perf_counter()
        for seed in range(games):
            game, t, c, n = play(players, seed, sensible)
            thinking += t
            choices += c
            laid += n
            totals = [p.total for p in game.final_scores().players]
            scores += totals
            winners.append(max(totals))
            rounds.append(game.state.round)
        whole = (time.perf_counter() - started) / games
        print(f"  {players:7d}  {choices / thinking:9.0f}  {thinking / games:15.3f}  {whole:11.3f}  "
              f"{statistics.mean(scores):4.0f}  {min(scores):3d}  {max(scores):3d}  {statistics.mean(winners):6.1f}"
              f"  {statistics.mean(rounds):6.1f}  {laid / games:17.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count (default 20)")
    args = parser.parse_args()
    report(args.games, sensible=True)
    report(args.games, sensible=False)


if __name__ == "__main__":
    main()
