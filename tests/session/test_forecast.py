"""The event-risk forecast against brute force: every way of drawing labelled cubes, counted."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tableassist.session.forecast import event_odds, event_risk, spaces_ahead

LAYOUT = ["excavate", "trains_available", "lay_track", "complete_station", "excavate", "maintenance",
          "lay_track", "excavate", "complete_station", "lay_track"]


def brute_force(bag: dict[str, int], restock: int) -> dict[int, Fraction]:
    """Enumerate every set of `restock` distinct cubes and count the event cubes in each."""
    cubes = [kind for kind, n in bag.items() for _ in range(n)]
    drawn = min(restock, len(cubes))
    tally: Counter[int] = Counter()
    total = 0
    for hand in combinations(range(len(cubes)), drawn):
        tally[sum(1 for i in hand if cubes[i] == "event")] += 1
        total += 1
    return {k: Fraction(n, total) for k, n in tally.items()}


@settings(max_examples=60, deadline=None)
@given(iron=st.integers(0, 6), stone=st.integers(0, 4), coal=st.integers(0, 3), event=st.integers(0, 5),
       restock=st.integers(1, 9))
def test_odds_equal_brute_force(iron: int, stone: int, coal: int, event: int, restock: int) -> None:
    bag = {"iron": iron, "stone": stone, "coal": coal, "event": event}
    exact = brute_force(bag, restock)
    odds = event_odds(bag, restock)
    assert sum(odds) == 1
    for k, p in enumerate(odds):
        assert p == exact.get(k, 0), (bag, restock, k)


def test_a_known_case_by_hand() -> None:
    # 10 cubes, 2 of them events, draw 3: P(no event) = C(8,3)/C(10,3) = 56/120.
    odds = event_odds({"iron": 5, "stone": 3, "coal": 0, "event": 2}, 3)
    assert odds[0] == Fraction(56, 120)
    risk = event_risk({"iron": 5, "stone": 3, "coal": 0, "event": 2}, 3, LAYOUT[3:])
    assert abs(risk["p_event"] - 64 / 120) < 1e-12
    assert [o["fire"] for o in risk["outcomes"]] == [[], ["complete_station"], ["complete_station", "excavate"]]


def test_no_event_cubes_means_no_risk() -> None:
    risk = event_risk({"iron": 20, "stone": 11, "coal": 5, "event": 0}, 9, LAYOUT)
    assert risk["p_event"] == 0.0
    assert risk["outcomes"] == [{"events": 0, "p": 1.0, "fire": []}]


def test_a_bag_smaller_than_the_restock_draws_everything() -> None:
    risk = event_risk({"iron": 2, "stone": 0, "coal": 0, "event": 1}, 12, LAYOUT)
    assert risk["p_event"] == 1.0


def test_spaces_after_ten_loop_over_eight_to_ten() -> None:
    assert spaces_ahead(9, LAYOUT, 5) == ["complete_station", "lay_track", "excavate", "complete_station",
                                          "lay_track"]
    assert spaces_ahead(1, LAYOUT, 3) == ["excavate", "trains_available", "lay_track"]
