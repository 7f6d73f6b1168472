"""The card registry: descriptions checked against the component data, stored in SQLite, looked up by tag."""

from __future__ import annotations

from pathlib import Path

import pytest

from tableassist.cards import Card, CardRegistry, CardSpec, parse_card


@pytest.mark.parametrize(("text", "spec"), [
    ("contract 12", CardSpec("contract", number=12)),
    ("Train 4", CardSpec("train", number=4)),
    ("track 7 rubble 3 vp 4", CardSpec("track", number=7, rubble=3, vp=4)),
    ("track 7 vp 4 rubble 3", CardSpec("track", number=7, rubble=3, vp=4)),
    ("station clogwyn", CardSpec("station", name="clogwyn")),
    ("station Clogwyn Station", CardSpec("station", name="clogwyn")),
    ("station yr wyddfa", CardSpec("station", name="yr_wyddfa")),
    ("station Rocky Valley Halt", CardSpec("station", name="rocky_valley")),
    ("player green", CardSpec("player", name="green")),
])
def test_descriptions(text: str, spec: CardSpec) -> None:
    assert parse_card(text) == spec


@pytest.mark.parametrize(("text", "complaint"), [
    ("", "say what the card is"),
    ("ticket 3", "not a kind of card"),
    ("contract", "needs its number"),
    ("contract 99", "no contract 99"),
    ("contract 12 13", "too many words"),
    ("train 9", "no train 9"),
    ("track 7", "printed rubble and VP"),
    ("track 7 rubble three vp 4", "rubble must be a number"),
    ("track 7 rubble 0 vp 4", "cannot be on a track card"),
    ("track 15 rubble 3 vp 4", "no track card 15"),
    ("station moon", "no station 'moon'"),
    ("player red", "colours yellow, blue, green, pink, purple"),
])
def test_bad_descriptions_say_what_is_wrong(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        parse_card(text)


def test_enrol_lookup_forget_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    registry = CardRegistry.open(path)
    registry.enrol("0f00a1b2c3", parse_card("contract 12"))
    registry.enrol("1A2B3C4D5E", parse_card("track 3 rubble 2 vp 5"))
    registry.enrol("0102030405", parse_card("player pink"))
    registry.close()

    registry = CardRegistry.open(path)
    card = registry.lookup("0F00A1B2C3")
    assert card is not None and card.describe() == "contract 12"
    assert registry.lookup("FFFFFFFFFF") is None  # unknown tag
    assert registry.lookup("not a tag") is None
    assert registry.track_cards() == {3: (2, 5)}
    assert [c.describe() for c in registry.cards()] == ["contract 12", "player pink", "track 3 rubble 2 vp 5"]
    # Re-enrolling a tag replaces what it is.
    registry.enrol("0F00A1B2C3", parse_card("train 2"))
    found = registry.lookup("0F00A1B2C3")
    assert found is not None and found.spec == CardSpec("train", number=2)
    assert registry.forget("0102030405") is True
    assert registry.forget("0102030405") is False
    assert registry.lookup("0102030405") is None
    registry.close()


def test_a_second_tag_for_the_same_card_is_found(tmp_path: Path) -> None:
    registry = CardRegistry.open(tmp_path / "t.sqlite3")
    registry.enrol("0000000001", parse_card("contract 7"))
    assert registry.tags_for(parse_card("contract 7")) == ["0000000001"]
    assert registry.tags_for(parse_card("contract 8")) == []
    registry.close()


def test_card_json() -> None:
    spec = parse_card("track 7 rubble 3 vp 4")
    assert Card("0F00A1B2C3", spec).to_json() == {"tag": "0F00A1B2C3", "kind": "track", "number": 7,
                                                   "rubble": 3, "vp": 4}
