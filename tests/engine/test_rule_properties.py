"""Rule sentences checked over whole random games, from the state before and after each action — derived here
from the rules text, independently of the engine's own helpers (dig order, layable cards, limits)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tableassist.engine import DigitalSource, Game, Setup
from tableassist.engine.state import GameState


def rubble_up_the_mountain(s: GameState) -> list[int]:
    """Rubble on each space in the strict order 'up' the mountain: the track cards leading up to a station, then
    that station's excavation sites left to right, then on to the next station."""
    out = []
    for i, station in enumerate(s.stations):
        out += [t.rubble for t in s.route if t.before == i]
        out += [site.rubble for site in station.excavation]
    return out


def excavated_cards_to_lay(s: GameState) -> int:
    """'turn over the fully-excavated Track card closest up the mountain to Llanberis', card after card."""
    n = 0
    for t in s.route:
        if t.laid:
            continue
        if t.rubble:
            break
        n += 1
    return n


def broken_rules(pre: GameState, post: GameState, kind: str, action: dict[str, Any],
                 events: list[dict[str, Any]], placed: set[int], trains_event_seen: bool) -> list[str]:
    out = []
    kinds = {e["type"]: e for e in events}
    if action["type"] == "hire_temporary":
        who = action["player"]
        cost = 2 if pre.players[who].train == 6 else 1  # 'one Coal (two Coal for Train No. 6)'
        if who in placed:
            out.append("temporary labourer hired after the first placement")
        if pre.players[who].coal - post.players[who].coal != cost or post.bag["coal"] - pre.bag["coal"] != cost:
            out.append("temporary labourer: wrong coal, or not returned to the bag")
    if action["type"] == "place" and action["area"] in "BD" and pre.weather[0] == "fog" \
            and not (action["area"] == "B" and pre.extra_build_open):
        out.append("labourer placed on B/D in fog")
    if kind == "excavate":
        done = kinds["excavation_done"]
        if done["n"] != min(done["wanted"], sum(rubble_up_the_mountain(pre))):
            out.append(f"excavated {done['n']} of {done['wanted']} with rubble left")
        before, after = rubble_up_the_mountain(pre), rubble_up_the_mountain(post)
        touched = [i for i, (b, a) in enumerate(zip(before, after, strict=True)) if b != a]
        if touched and any(after[: max(touched)]):
            out.append("excavation skipped rubble lower down the mountain")
    if kind == "lay_track" and "lay_track_done" in kinds:
        done, p = kinds["lay_track_done"], pre.players[action["player"]]
        if done["n"] != min(done["wanted"], p.steel, p.markers, excavated_cards_to_lay(pre)):
            out.append(f"laid {done['n']} track, not the forced count")
    if action["type"] == "build":
        i = next(i for i, st in enumerate(pre.stations) if st.id == action["station"])
        if any(t.rubble for t in pre.route if t.before <= i) or pre.stations[i].completed_by_event:
            out.append("built at a station whose track cards are not all excavated (or completed by an event)")
    if action["type"] == "buy_train" and not trains_event_seen:
        out.append("train bought before 'Trains may now be bought'")
    if action["type"] in ("stock_yard", "take_cubes") and action["coal"] > 1 \
            and (action["player"], 29) not in pre.active:
        out.append("more than one coal from the stock yard without contract 29")
    for e in events:
        if e["type"] == "start_player_changed" and e["why"] not in ("last stock-yard space", "contract 22"):
            out.append(f"start player moved by {e['why']}")
    owners = [p.train for p in post.players if p.train is not None]
    if len(owners) != len(set(owners)):
        out.append("two players own the same train")
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("seed", [3, 11])
def test_rule_sentences_hold_in_random_games(n: int, seed: int) -> None:
    setup = Setup(players=["Ann", "Bob", "Cy", "Di", "Ed"][:n], solo_train=seed % 7 + 1 if n == 1 else None)
    game, source, rng = Game.new(setup), DigitalSource(seed), random.Random(seed)
    placed: set[int] = set()
    round_no, trains_event_seen, problems = 0, False, []
    checked = {"excavate": 0, "lay_track": 0}
    while not game.finished:
        decision = game.waiting
        assert decision is not None
        if game.state.round != round_no:
            round_no, placed = game.state.round, set()
        action = source.chance(game) if decision.player is None else rng.choice(game.legal_actions())
        pre = copy.deepcopy(game.state)
        events = game.apply(action)
        problems += broken_rules(pre, game.state, decision.kind, action, events, placed, trains_event_seen)
        trains_event_seen = trains_event_seen or any(e["type"] == "trains_available" for e in events)
        if action["type"] == "place":
            placed.add(action["player"])
        if decision.kind in checked:
            checked[decision.kind] += 1
    assert problems == []
    assert any(checked.values()), checked  # the forced-count sentences were really exercised
