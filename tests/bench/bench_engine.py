"""Engine throughput: full random games per second for 1–5 players, and the replay time of a 4-player game.

Run by `make bench`; prints numbers, asserts nothing about time (the machine decides those)."""

from __future__ import annotations

import time

from tableassist.engine.game import Game
from tableassist.engine.simulate import random_game

GAMES = 30


def main() -> None:
    print("full random games (legal choices, digital bag; invariants checked after every action / not checked)")
    for players in range(1, 6):
        rates = []
        actions = 0
        for check in (True, False):
            started = time.perf_counter()
            for seed in range(GAMES):
                _, result = random_game(players, seed, solo_train=seed % 7 + 1, check=check)
                actions += result.actions
            rates.append(GAMES / (time.perf_counter() - started))
        print(f"  {players} player(s): {rates[0]:7.1f} games/s checked, {rates[1]:7.1f} games/s unchecked, "
              f"{actions / (2 * GAMES):.0f} actions per game")
    game, result = random_game(4, seed=2024, check=False)
    runs = 20
    started = time.perf_counter()
    for _ in range(runs):
        Game.replay(game.setup, game.actions)
    replay_ms = (time.perf_counter() - started) / runs * 1000
    print(f"replay of a 4-player game ({result.actions} actions, {result.rounds} rounds): {replay_ms:.1f} ms")
    started = time.perf_counter()
    game.undo()
    print(f"undo at the end of that game: {(time.perf_counter() - started) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
