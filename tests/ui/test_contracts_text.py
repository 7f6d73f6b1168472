"""Contract texts on screen: every contract in the data has words, and the end conditions read right."""

from __future__ import annotations

from tableassist.engine import components
from ui.contracts import EFFECTS, condition_text, describe


def test_every_contract_effect_has_words() -> None:
    data = components.default()
    missing = sorted({c.effect for c in data.contracts.values()} - set(EFFECTS))
    assert missing == []


def test_conditions_read_as_on_the_card() -> None:
    assert condition_text({"sites": 3}, 6) == "3 sites = 6 VP"
    assert condition_text({"rubble": 12, "tracks": 1}, 22) == "1 track + 12 rubble = 22 VP"
    assert condition_text({"coal_vp": 2}, 0) == "2 VP per coal"
    assert condition_text({"surveyor_tiers": [[5, 6], [6, 10], [7, 15]]}, 0) == "surveyor at 5 / 6 / 7 = 6 / 10 / 15 VP"
    assert condition_text({"sites": 5, "surveyor_min": 6}, 23) == "5 sites + surveyor at 6+ = 23 VP"


def test_a_described_contract_names_its_area_and_effect() -> None:
    contract = components.default().contracts[6]
    assert describe(contract) == ("before E: Build: 3 iron may stand for 1 steel this round · "
                                  "end: 1 track + 12 rubble = 22 VP")


def test_no_arrow_glyphs_the_font_lacks() -> None:
    data = components.default()
    for contract in data.contracts.values():
        assert "→" not in describe(contract)
