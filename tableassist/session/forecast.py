"""The event-risk forecast: exact odds for the next stock-yard restock, from the bag as it is.

Drawing n cubes without replacement from a bag of N holding E event cubes is hypergeometric:
P(k events) = C(E, k) C(N-E, n-k) / C(N, n). The events that would fire are the kinds printed on the
next k free spaces of the event track (after space 10 the track loops over 8-10).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

LOOP_FROM = 8  # space 10 returns 8-10, so the spaces after 10 are 8, 9, 10 again
LAST_SPACE = 10


def event_odds(bag: dict[str, int], restock: int) -> list[Fraction]:
    """P(exactly k event cubes among the next `restock` draws), k = 0.. — exact fractions summing to 1."""
    total = sum(max(0, n) for n in bag.values())
    events = max(0, bag.get("event", 0))
    drawn = min(restock, total)  # an almost empty bag gives what it has
    if drawn <= 0:
        return [Fraction(1)]
    others = total - events
    ways = comb(total, drawn)
    return [Fraction(comb(events, k) * comb(others, drawn - k), ways) for k in range(min(events, drawn) + 1)]


def spaces_ahead(next_space: int, layout: Sequence[str], count: int) -> list[str]:
    """The event kinds on the next `count` free spaces, starting at `next_space` (1-based)."""
    kinds = []
    space = next_space
    for _ in range(count):
        if space > LAST_SPACE:
            space = LOOP_FROM
        kinds.append(layout[space - 1])
        space += 1
    return kinds


def event_risk(bag: dict[str, int], restock: int, upcoming: Sequence[str]) -> dict[str, Any]:
    """JSON for the screen: P(at least one event) and, per number of event cubes, which events fire.

    `upcoming` lists the event kinds on the next free spaces in the order they would fill.
    """
    odds = event_odds(bag, restock)
    outcomes = [{"events": k, "p": float(p), "fire": list(upcoming[:k])} for k, p in enumerate(odds) if p]
    return {"restock": restock, "bag": dict(bag), "p_event": float(1 - odds[0]), "outcomes": outcomes}
