"""Hand-checked end-of-game positions (positions.json): totals, breakdowns and winners must match exactly.

The expected numbers were worked out by hand; each case carries its arithmetic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tableassist.engine import components, scoring

CASES: list[dict[str, Any]] = json.loads((Path(__file__).parent / "positions.json").read_text())["cases"]


def test_the_fixture_is_big_enough() -> None:
    assert len(CASES) >= 20
    holds = [len(p["contracts"]) for case in CASES for p in case["input"]["players"]]
    assert max(holds) >= 28


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_position_scores_as_worked_out_by_hand(case: dict[str, Any]) -> None:
    holdings, tie_rule = scoring.table_from_json(case["input"], components.default())
    table = scoring.score_table(holdings, tie_rule, components.default())
    got = {p.name: p for p in table.players}
    assert [p.name for p in table.players] == [p["name"] for p in case["input"]["players"]]
    for name, breakdown in case["expected"]["breakdowns"].items():
        assert [got[name].breakdown[k] for k in scoring.BREAKDOWN_KEYS] == breakdown, name
    assert {name: p.total for name, p in got.items()} == case["expected"]["totals"]
    assert table.winners == case["expected"]["winners"]
    # Every case documents its arithmetic for every player.
    assert set(case["arithmetic"]) == set(case["expected"]["totals"])
