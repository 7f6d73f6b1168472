"""The simulated 'sensible' players: always legal, games finish, and they play like players (they beat random
choice by a wide margin, lay track, build, fulfil contracts)."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from tableassist.engine import DigitalSource, Game, Options, Setup
from tableassist.engine.invariants import violations
from tableassist.engine.players import choose
from tableassist.engine.simulate import NAMES, random_game

from .helpers import Table

MAX_ACTIONS = 5000


def bot_game(players: int, seed: int, options: Options | None = None) -> tuple[Game, list[dict[str, Any]]]:
    """A whole game of sensible players on a seeded digital bag; every choice checked against the engine."""
    setup = Setup(players=list(NAMES[:players]), solo_train=seed % 7 + 1 if players == 1 else None,
                  options=options or Options())
    game = Game.new(setup)
    source = DigitalSource(seed)
    rng = random.Random(seed ^ 0x5EED)
    events: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        decision = game.waiting
        assert decision is not None
        if decision.player is None:
            events += game.apply(source.chance(game))
            continue
        legal = game.legal_actions()
        action = choose(game, rng)
        assert action in legal, (decision.kind, action)
        assert game.why_not(action) is None
        events += game.apply(action)
    return game, events


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_choice_is_legal_and_games_finish(players: int) -> None:
    for seed in range(4):
        game, _ = bot_game(players, 100 * players + seed)
        assert game.finished, f"{players} players, seed {seed}: not finished in {MAX_ACTIONS} actions"
        assert violations(game) == []
        assert game.final_scores().winners


@pytest.mark.parametrize("options", [Options(fog_blocks=1), Options(contracts_per_window=1),
                                     Options(tie_rule="shared")])
def test_legal_under_the_table_options(options: Options) -> None:
    for players, seed in ((2, 11), (4, 12)):
        game, _ = bot_game(players, seed, options)
        assert game.finished and violations(game) == []


def test_same_game_and_seed_same_choices() -> None:
    """The demo resumes a killed game by replaying choices: a choice depends only on the game and the rng."""
    first, _ = bot_game(3, 7)
    again, _ = bot_game(3, 7)
    assert first.actions == again.actions


def test_chance_decisions_are_refused() -> None:
    game = Game.new(Setup(players=["Ann", "Bob"]))
    assert game.waiting is not None and game.waiting.player is None
    with pytest.raises(ValueError):
        choose(game, random.Random(1))


def test_sensible_players_beat_random_play_and_play_the_game() -> None:
    """Over 20 seeded 4-player games: winners score far above random play's, and in most games players lay
    track, build station sites, convert iron to steel and fulfil contracts."""
    games = 20
    bot_winners, random_winners = [], []
    laid = built = steel = fulfilled = 0
    for seed in range(games):
        game, events = bot_game(4, seed)
        scores = game.final_scores()
        bot_winners.append(max(p.total for p in scores.players))
        laid += any(e["type"] == "track_laid" and e["player"] is not None for e in events)
        built += any(e["type"] == "station_built" for e in events)
        steel += any(e["type"] == "converted" and e["steel"] > 0 for e in events)
        fulfilled += sum(1 for p in scores.players if p.contract_vps) >= 2
        _, result = random_game(4, seed, check=False)
        random_winners.append(max(p["total"] for p in result.scores["players"]))
    bots, randoms = statistics.mean(bot_winners), statistics.mean(random_winners)
    assert bots >= 2 * randoms and bots >= randoms + 25, (bots, randoms)
    assert bots >= 50, bot_winners
    assert laid >= 0.8 * games and built >= 0.9 * games and steel >= 0.9 * games, (laid, built, steel)
    assert fulfilled >= 0.8 * games, fulfilled


def _clear_to_station_1(t: Table) -> None:
    s = t.state
    for track in s.route:
        if track.before == 1:
            s.rubble_supply += track.rubble
            track.rubble = 0
    t.refresh()


def test_build_takes_the_richest_site_it_can_pay_for() -> None:
    """Two Viaducts: stone sites cost 4/3/2/1 for 9/7/4/1 VP; with 3 stone the best is 7 VP."""
    t = Table(3)
    _clear_to_station_1(t)
    t.give(0, stone=3)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build", player=0)
    action = choose(t.game, random.Random(3))
    assert action["type"] == "build" and action["station"] == "two_viaducts"
    site = t.game.setup.comps.station("two_viaducts").building[action["site"]]
    assert site.vp == 7 and site.cost == {"stone": 3}


def test_works_turns_iron_into_steel() -> None:
    t = Table(3)
    t.give(0, iron=7)
    t.place(("C", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("works", player=0)
    action = choose(t.game, random.Random(5))
    assert action["steel"] == 2  # 7 iron make two bars at 3 iron each


def test_steel_and_excavated_track_send_a_labourer_to_lay_track() -> None:
    """With steel in hand and track cards excavated (and an empty site office), laying track is the pick for
    most seeds."""
    picks = []
    for seed in range(10):
        t = Table(3)
        _clear_to_station_1(t)
        t.give(0, steel=2)
        t.hand(1, *[c for c in t.state.site_office if c is not None])
        picks.append(choose(t.game, random.Random(seed))["area"])
    assert picks.count("D") >= 7, picks
