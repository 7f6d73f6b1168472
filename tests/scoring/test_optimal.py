"""The contract choice is optimal: checked against brute force over every subset, and against an
independent dynamic programme over the whole resource vector for holdings too large to enumerate.

Both oracles read the contract conditions straight from the component data; neither uses the scorer.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tableassist.engine import components
from tableassist.engine.components import Components
from tableassist.engine.scoring import Holding, score_player

COMPONENTS = components.default()
STATIONS = [s.id for s in COMPONENTS.stations]
Item = tuple[int, int, int, int, int]  # sites, tracks, rubble, surveyor, vp


def items_and_coal(holding: Holding, comps: Components) -> tuple[list[Item], int]:
    """Each held contract as (needs..., vp) if it can score at all, and the coal VP (which competes with nothing)."""
    rank = {s.id: float(s.number.replace("½", ".5")) for s in comps.stations}[holding.surveyor]
    items: list[Item] = []
    coal = 0
    for number in holding.contracts:
        card = comps.contracts[number]
        cond = card.condition
        if "coal_vp" in cond:
            coal += holding.coal * cond["coal_vp"]
            continue
        vp, surveyor = card.vp, 0
        if "surveyor_min" in cond:
            if rank < cond["surveyor_min"]:
                continue
            surveyor = 1
        if "surveyor_tiers" in cond:
            reached = [v for station, v in cond["surveyor_tiers"] if rank >= station]
            if not reached:
                continue
            vp, surveyor = max(reached), 1
        items.append((cond.get("sites", 0), cond.get("tracks", 0), cond.get("rubble", 0), surveyor, vp))
    return items, coal


def capacity(holding: Holding) -> tuple[int, int, int, int]:
    return len(holding.site_vps), len(holding.track_vps), holding.rubble, 1


def brute_force(holding: Holding, comps: Components) -> int:
    items, coal = items_and_coal(holding, comps)
    cap = capacity(holding)
    best = 0
    for k in range(len(items) + 1):
        for subset in itertools.combinations(items, k):
            if all(sum(item[r] for item in subset) <= cap[r] for r in range(4)):
                best = max(best, sum(item[4] for item in subset))
    return best + coal


def resource_dp(holding: Holding, comps: Components) -> int:
    """Exact 0/1 knapsack over (sites, tracks, rubble, surveyor) used: every reachable use vector."""
    items, coal = items_and_coal(holding, comps)
    cap = capacity(holding)
    states: dict[tuple[int, ...], int] = {(0, 0, 0, 0): 0}
    for item in items:
        for used, vp in list(states.items()):
            after = tuple(u + n for u, n in zip(used, item[:4], strict=True))
            if all(a <= c for a, c in zip(after, cap, strict=True)) and states.get(after, -1) < vp + item[4]:
                states[after] = vp + item[4]
    return max(states.values()) + coal


def check_report(holding: Holding, comps: Components) -> int:
    """The reported choice is consistent: fits the resources, each use matches its card, VP adds up."""
    score = score_player(holding, comps)
    used_total = {"sites": 0, "tracks": 0, "rubble": 0, "surveyor": 0}
    for number, used in score.fulfilled:
        assert number in holding.contracts
        cond = comps.contracts[number].condition
        if "coal_vp" in cond:
            assert used == {"coal": holding.coal}
            continue
        for key in ("sites", "tracks", "rubble"):
            assert used.get(key, 0) == cond.get(key, 0)
            used_total[key] += cond.get(key, 0)
        if "surveyor_min" in cond or "surveyor_tiers" in cond:
            assert used["surveyor"] == holding.surveyor
            used_total["surveyor"] += 1
    assert used_total["sites"] <= len(holding.site_vps)
    assert used_total["tracks"] <= len(holding.track_vps)
    assert used_total["rubble"] <= holding.rubble
    assert used_total["surveyor"] <= 1
    assert sum(score.contract_vps.values()) == score.breakdown["contracts"]
    assert sorted(score.contract_vps) == [n for n, _ in score.fulfilled]
    # Every held contract is either fulfilled or explained.
    assert sorted([n for n, _ in score.fulfilled] + [n for n, _ in score.unfulfilled]) == sorted(holding.contracts)
    assert all(why for _, why in score.unfulfilled)
    return score.breakdown["contracts"]


def holdings(max_contracts: int, numbers: list[int], stations: list[str]) -> st.SearchStrategy[Holding]:
    return st.builds(
        Holding,
        name=st.just("P"),
        site_vps=st.lists(st.integers(0, 9), max_size=9),
        track_vps=st.lists(st.integers(0, 7), max_size=9),
        rubble=st.integers(0, 45),
        coal=st.integers(0, 6),
        surveyor=st.sampled_from(stations),
        train=st.none(),
        contracts=st.lists(st.sampled_from(numbers), unique=True, max_size=max_contracts),
    )


ALL_NUMBERS = sorted(COMPONENTS.contracts)


@settings(max_examples=500, deadline=None)
@given(holdings(10, ALL_NUMBERS, STATIONS))
def test_optimal_against_brute_force_on_the_real_cards(holding: Holding) -> None:
    assert check_report(holding, COMPONENTS) == brute_force(holding, COMPONENTS)


@settings(max_examples=60, deadline=None)
@given(holdings(30, ALL_NUMBERS, STATIONS))
def test_optimal_against_resource_dp_with_many_cards(holding: Holding) -> None:
    assert check_report(holding, COMPONENTS) == resource_dp(holding, COMPONENTS)


def random_cards() -> st.SearchStrategy[list[dict[str, Any]]]:
    """Invented contract cards: the algorithm must be exact for any conditions, not just the printed ones."""
    condition = st.fixed_dictionaries(
        {},
        optional={
            "sites": st.integers(1, 4),
            "tracks": st.integers(1, 4),
            "rubble": st.integers(1, 12),
            "surveyor_min": st.sampled_from([3, 5, 6, 7]),
        },
    )
    tiers = st.just({"surveyor_tiers": [[5, 6], [6, 10], [7, 15]]})
    card = st.tuples(st.one_of(condition, condition, condition, tiers), st.integers(1, 40))
    return st.lists(card, min_size=1, max_size=11).map(
        lambda cards: [{"number": i + 1, "letter": "A", "back": "sun", "condition": cond, "vp": vp,
                        "effect": "none"} for i, (cond, vp) in enumerate(cards)]
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_cards(), st.data())
def test_optimal_against_brute_force_on_invented_cards(cards: list[dict[str, Any]], data: st.DataObject) -> None:
    raw = json.loads(json.dumps(COMPONENTS.raw))
    raw["contracts"]["list"] = cards
    comps = components.build(raw)
    numbers = [c["number"] for c in cards]
    holding = data.draw(holdings(len(numbers), numbers, STATIONS))
    assert check_report(holding, comps) == brute_force(holding, comps)
