"""Property tests on random games: invariants after every action, undo, JSON round trip, refusals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tableassist.engine import DigitalSource, Game, IllegalAction, Setup
from tableassist.engine.invariants import violations
from tableassist.engine.simulate import random_game, round_trip

players = st.integers(min_value=1, max_value=5)
seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=25, deadline=None)
@given(players, seeds)
def test_random_games_finish_clean_and_round_trip(n: int, seed: int) -> None:
    game, result = random_game(n, seed, solo_train=seed % 7 + 1)
    assert result.violations == []
    assert game.finished and result.scores["winners"]
    assert round_trip(game) is None


def random_steps(n: int, seed: int, steps: int, solo_train: int) -> Iterator[tuple[Game, dict[str, Any] | None]]:
    """Walk a random game: yields the game before each step with the chosen player action (None when the
    digital bag supplies a chance outcome), then applies it."""
    game = Game.new(Setup(players=["A", "B", "C", "D", "E"][:n], solo_train=solo_train if n == 1 else None))
    source, rng = DigitalSource(seed), random.Random(seed)
    for _ in range(steps):
        if game.finished:
            return
        d = game.waiting
        assert d is not None
        action = None if d.player is None else rng.choice(game.legal_actions())
        yield game, action
        game.apply(source.chance(game) if action is None else action)


@settings(max_examples=20, deadline=None)
@given(players, seeds, st.integers(min_value=1, max_value=300))
def test_undo_equals_the_earlier_state(n: int, seed: int, steps: int) -> None:
    game, before = None, ""
    for game, _ in random_steps(n, seed, steps, solo_train=1):
        assert violations(game) == []
        before = json.dumps(game.state.to_json(), sort_keys=True)
    if game is not None and game.actions:
        last = game.actions[-1]
        game.undo()
        assert json.dumps(game.state.to_json(), sort_keys=True) == before
        game.apply(last)


@settings(max_examples=20, deadline=None)
@given(players, seeds, st.integers(min_value=1, max_value=200))
def test_every_legal_action_is_accepted_and_junk_refused(n: int, seed: int, steps: int) -> None:
    for game, action in random_steps(n, seed, steps, solo_train=2):
        d = game.waiting
        if action is None or d is None or d.player is None:
            continue
        legal = game.legal_actions()
        assert legal and action in legal, d
        assert all(game.why_not(a) is None for a in legal)
        before = game.state.to_json()
        junk = {"type": "place", "player": (d.player + 1) % 6, "area": "Z", "space": 99}
        reason = game.why_not(junk)
        assert isinstance(reason, str) and reason
        try:
            game.apply(junk)
            raise AssertionError("junk accepted")
        except IllegalAction:
            pass
        assert game.state.to_json() == before
