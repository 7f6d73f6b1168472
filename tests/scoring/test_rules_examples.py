"""The rules' own scoring examples and the scoring API's promises (English seed, "Scoring")."""

from __future__ import annotations

import json

import pytest

from tableassist.engine import components
from tableassist.engine.scoring import Holding, score_player, score_table

COMPONENTS = components.default()


def holding(**overrides: object) -> Holding:
    base: dict[str, object] = dict(name="Green", site_vps=[], track_vps=[], rubble=0, coal=0, surveyor="llanberis",
                                   train=None, contracts=[], daffodils=0)
    base.update(overrides)
    return Holding(**base)  # type: ignore[arg-type]


def test_four_tracks_score_the_4_track_or_the_3_track_contract_not_both() -> None:
    # Rules: "if you have laid 4 tracks and have a '4 track' and a '3 track' Contract card, you can only
    # score one or the other, not both." 23 = 4 tracks → 31, 22 = 3 tracks → 24.
    score = score_player(holding(track_vps=[3, 4, 2, 5], contracts=[22, 23]), COMPONENTS)
    assert score.breakdown["contracts"] == 31
    assert score.fulfilled == [(23, {"tracks": 4})]
    assert score.breakdown["tracks"] == 14  # the markers still score their printed VP


def test_seven_tracks_score_both_the_4_track_and_the_3_track_contract() -> None:
    score = score_player(holding(track_vps=[1] * 7, contracts=[22, 23]), COMPONENTS)
    assert score.breakdown["contracts"] == 24 + 31
    assert [n for n, _ in score.fulfilled] == [22, 23]


def test_surveyor_at_clogwyn_scores_15() -> None:
    score = score_player(holding(surveyor="clogwyn"), COMPONENTS)
    assert score.breakdown["surveyor"] == 15
    assert score.total == 15


@pytest.mark.parametrize(("daffodils", "vp"), [(0, 0), (1, 3), (2, 9), (3, 19), (4, 34), (5, 37), (6, 43),
                                                (8, 68), (11, 34 + 34 + 19)])
def test_daffodils_score_in_sets_of_four(daffodils: int, vp: int) -> None:
    # Rules: "six daffodils would score you 34+9 = 43 points".
    assert score_player(holding(daffodils=daffodils), COMPONENTS).breakdown["daffodils"] == vp


def test_only_train_4_scores_nine() -> None:
    assert score_player(holding(train=4), COMPONENTS).breakdown["train"] == 9
    for other in (None, 1, 2, 3, 5, 6, 7):
        assert score_player(holding(train=other), COMPONENTS).breakdown["train"] == 0


def test_marker_used_for_a_contract_still_scores_its_site() -> None:
    score = score_player(holding(site_vps=[9, 7, 5], contracts=[3]), COMPONENTS)
    assert score.breakdown == {"sites": 21, "tracks": 0, "surveyor": 0, "contracts": 6, "train": 0, "daffodils": 0}
    assert score.total == 27


def test_28_and_29_compete_for_the_surveyor() -> None:
    # Yr Wyddfa, 5 sites: 28 (5 sites + surveyor at 6+) = 23, 29 (station 7) = 15; only one may use the surveyor.
    score = score_player(holding(site_vps=[1] * 5, surveyor="yr_wyddfa", contracts=[28, 29]), COMPONENTS)
    assert score.breakdown["contracts"] == 23
    assert score.fulfilled == [(28, {"sites": 5, "surveyor": "yr_wyddfa"})]


def test_29_scores_by_the_station_the_surveyor_reached() -> None:
    by_station = {"halfway": 0, "passing_loop": 0, "rocky_valley": 6, "clogwyn": 10, "yr_wyddfa": 15}
    for station, vp in by_station.items():
        assert score_player(holding(surveyor=station, contracts=[29]), COMPONENTS).breakdown["contracts"] == vp


def test_contract_27_scores_two_per_coal_and_says_so() -> None:
    score = score_player(holding(coal=4, rubble=8, contracts=[27, 7]), COMPONENTS)
    assert score.breakdown["contracts"] == 8 + 11
    assert score.fulfilled == [(7, {"rubble": 8}), (27, {"coal": 4})]
    assert score.contract_vps == {7: 11, 27: 8}


def test_unmet_contract_scores_nothing() -> None:
    score = score_player(holding(track_vps=[4, 4], rubble=11, contracts=[20, 17]), COMPONENTS)
    assert score.breakdown["contracts"] == 0
    assert score.fulfilled == []


def test_json_has_the_calculator_shape() -> None:
    table = score_table([holding(name="A", site_vps=[3, 3, 3], contracts=[3], surveyor="hebron"),
                         holding(name="B", surveyor="halfway")], "last_in_turn_order", COMPONENTS)
    data = json.loads(json.dumps(table.to_json()))
    assert data["winners"] == ["A"]
    first = data["players"][0]
    assert first["name"] == "A" and first["total"] == 9 + 4 + 6
    assert list(first["breakdown"]) == ["sites", "tracks", "surveyor", "contracts", "train", "daffodils"]
    assert first["fulfilled"] == {"3": {"sites": 3}}


@pytest.mark.parametrize(("tie_rule", "expected"), [("last_in_turn_order", ["C"]), ("shared", ["A", "C"])])
def test_tie_rules(tie_rule: str, expected: list[str]) -> None:
    table = score_table([holding(name="A", surveyor="clogwyn"), holding(name="B", surveyor="hebron"),
                         holding(name="C", track_vps=[15])], tie_rule, COMPONENTS)
    assert [p.total for p in table.players] == [15, 4, 15]
    assert table.winners == expected


def test_unknown_tie_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="tie_rule"):
        score_table([holding()], "coin_toss", COMPONENTS)


def test_unknown_station_and_contract_are_plain_errors() -> None:
    with pytest.raises(ValueError, match="snowdon_summit"):
        score_player(holding(surveyor="snowdon_summit"), COMPONENTS)
    with pytest.raises(ValueError, match="31"):
        score_player(holding(contracts=[31]), COMPONENTS)


def test_owner_override_of_a_contract_changes_the_choice() -> None:
    # Components come from data, so a corrected card value must flow into the optimum.
    raw = json.loads(json.dumps(COMPONENTS.raw))
    for card in raw["contracts"]["list"]:
        if card["number"] == 22:
            card["vp"] = 40
    changed = components.build(raw)
    four_tracks = holding(track_vps=[1] * 4, contracts=[22, 23])
    assert score_player(four_tracks, COMPONENTS).fulfilled == [(23, {"tracks": 4})]
    assert score_player(four_tracks, changed).fulfilled == [(22, {"tracks": 3})]


def test_unfulfilled_contracts_say_why() -> None:
    score = score_player(holding(site_vps=[1] * 5, track_vps=[1] * 4, surveyor="rocky_valley", coal=0,
                                 contracts=[1, 2, 20, 22, 23, 27, 28]), COMPONENTS)
    assert [n for n, _ in score.fulfilled] == [1, 23]
    why = dict(score.unfulfilled)
    assert why[20] == "needs 5 tracks, has 4"
    assert why[28] == "needs the surveyor at station 6 or beyond"
    assert why[27] == "no coal in the personal supply"
    assert why[2] == "the sites it needs score more on contract 1"
    assert why[22] == "the tracks it needs score more on contract 23"
    assert score.to_json()["unfulfilled"]["20"] == "needs 5 tracks, has 4"


def test_absurd_counts_score_without_exhausting_memory() -> None:
    # The knapsack tables are sized by what the contracts can use, not by the count typed in.
    score = score_player(holding(rubble=10**9, contracts=[7, 17, 18]), COMPONENTS)
    assert score.breakdown["contracts"] == 11 + 21 + 14


def test_negative_counts_are_refused_by_the_api_too() -> None:
    with pytest.raises(ValueError, match="rubble"):
        score_player(holding(rubble=-1, contracts=[7]), COMPONENTS)
