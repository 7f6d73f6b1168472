"""Random legal play through the engine, checking the invariants after every action (`tableassist simulate`)."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from tableassist.engine import components as comp
from tableassist.engine import players as sensible_players
from tableassist.engine.chance import DigitalSource
from tableassist.engine.decision import IllegalAction
from tableassist.engine.game import Game
from tableassist.engine.invariants import violations
from tableassist.engine.setup import Setup

NAMES = ("Yellow", "Blue", "Green", "Pink", "Purple")
MAX_ACTIONS = 20_000  # a game that needs more is stuck: reported, not looped forever


@dataclass
class GameResult:
    seed: int
    actions: int
    rounds: int
    finished: bool
    violations: list[str] = field(default_factory=list)
    scores: dict[str, Any] = field(default_factory=dict)


def random_game(players: int, seed: int, solo_train: int = 1, check: bool = True,
                components: comp.Components | None = None, policy: str = "random") -> tuple[Game, GameResult]:
    """Play one game with a seeded digital bag and checks after every action. The policy says how the
    simulated players choose: uniformly among the legal actions ("random", which reaches odd corners of
    the rules) or as sensible players would ("sensible", engine/players.py)."""
    setup = Setup(players=list(NAMES[:players]), solo_train=solo_train if players == 1 else None,
                  components=components)
    game = Game.new(setup)
    source = DigitalSource(seed)
    rng = random.Random(seed ^ 0x5EED)
    result = GameResult(seed=seed, actions=0, rounds=0, finished=False)
    while not game.finished and result.actions < MAX_ACTIONS:
        decision = game.waiting
        assert decision is not None
        if decision.player is None:
            action = source.chance(game)
        else:
            legal = game.legal_actions()
            if not legal:
                result.violations.append(f"seed {seed}: no legal action for {decision.kind} ({decision.prompt})")
                break
            action = rng.choice(legal) if policy == "random" else sensible_players.choose(game, rng)
        try:
            game.apply(action)
        except IllegalAction as err:
            result.violations.append(f"seed {seed}, action {result.actions + 1}: refused {action}: {err.reason}")
            break
        result.actions += 1
        if check:
            result.violations += [f"seed {seed}, action {result.actions} ({action['type']}): {v}"
                                  for v in violations(game)]
            if result.violations:
                break
    result.rounds = game.state.round
    result.finished = game.finished
    if not game.finished and not result.violations:
        result.violations.append(f"seed {seed}: the game did not finish in {MAX_ACTIONS} actions")
    if game.finished:
        result.scores = game.final_scores().to_json()
    return game, result


def round_trip(game: Game) -> str | None:
    """The JSON of the setup and the actions must rebuild an identical state."""
    setup = Setup.from_json(json.loads(json.dumps(game.setup.to_json())), components=game.setup.components)
    actions = json.loads(json.dumps(game.actions))
    try:
        again = Game.replay(setup, actions)
    except IllegalAction as err:
        return f"the JSON round trip was refused: {err.reason}"
    if again.state.to_json() != game.state.to_json():
        return "the JSON round trip of the actions rebuilt a different state"
    return None


def simulate(players: int, games: int, seed: int, policy: str = "random") -> dict[str, Any]:
    started = time.perf_counter()
    total_actions = 0
    all_violations: list[str] = []
    scores = []
    unfinished = 0
    for i in range(games):
        game_seed = seed * 100_003 + i
        game, result = random_game(players, game_seed, solo_train=i % 7 + 1, policy=policy)
        total_actions += result.actions
        all_violations += result.violations
        if not result.finished:
            unfinished += 1
        problem = round_trip(game)
        if problem:
            all_violations.append(f"seed {game_seed}: {problem}")
        scores.append({
            "seed": game_seed, "rounds": result.rounds,
            "totals": {p["name"]: p["total"] for p in result.scores.get("players", [])},
            "winners": result.scores.get("winners", []),
        })
    return {"players": players, "games": games, "finished": games - unfinished, "actions": total_actions,
            "seconds": round(time.perf_counter() - started, 3), "violations": all_violations, "scores": scores}
