"""All 7 trains' powers (English seed, 'Appendix: Trains')."""

from __future__ import annotations

from .helpers import Table, pay

ROUTE3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def test_train_1_excavates_at_rate_plus_2() -> None:
    """No.1 L.A.D.A.S.: 'Whenever you take the Excavation action, you excavate at 2 above the current Work Rate.
    The total can exceed the maximum rate printed on the board.'"""
    t = Table(3, route=ROUTE3)
    t.give_train(0, 1)
    t.state.excavation_index = len(t.state.excavation_track) - 1
    top = t.state.excavation_rate
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("excavate")
    events = t.act("excavate")
    assert t.of(events, "excavation_done")[0]["n"] == top + 2


def test_train_2_works_two_iron_per_steel() -> None:
    """No.2 Enid: 'Whenever you take the Works action, you can convert 2 Iron Ore into 1 Steel Bar.'"""
    t = Table(3)
    t.give_train(0, 2)
    t.give(0, iron=6)
    t.place(("C", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("works")
    t.act("works", steel=3, stone=0)
    assert (t.state.players[0].iron, t.state.players[0].steel) == (0, 3)


def test_train_3_stock_yard_one_more_cube_still_one_coal() -> None:
    """No.3 Wyddfa: 'Whenever you take the Stock Yard action, you may take 1 additional cube. You may still not
    take more than 1 Coal per action.'"""
    t = Table(3)
    t.give_train(0, 3)
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("stock_yard")
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 4, "stone": 0, "coal": 0}) is None
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 3, "stone": 0, "coal": 2}) is not None


def test_train_4_scores_9_at_game_end() -> None:
    """No.4 Snowdon: 'At the end of the game, you score an additional 9 victory points.'"""
    t = Table(3)
    t.give_train(1, 4)
    scores = {p.name: p for p in t.game.estimate().players}
    assert scores["Bob"].breakdown["train"] == 9 and scores["Ann"].breakdown["train"] == 0


def test_train_5_comes_with_two_coal() -> None:
    """No.5 Moel Siabod: 'Comes with 2 Coal'."""
    t = Table(3)
    assert t.state.engine_shed[5] == 2


def test_train_6_extra_build_when_anyone_built() -> None:
    """No.6 Padarn: 'At the end of resolving the Build Action Area, if at least 1 Build action was taken this
    round, by any player, you may take an additional Build action.'"""
    t = Table(3, route=ROUTE3)
    for track in t.state.route[:2]:
        t.state.rubble_supply += track.rubble
        track.rubble = 0
    t.give_train(2, 6)
    t.give(0, stone=1)
    t.give(2, stone=2)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    t.act("build", station="two_viaducts", site=3, pay=pay(stone=1))
    d = t.waiting
    assert (d.kind, d.player) == ("extra_build", 2)
    assert {"type": "decline", "player": 2} in t.game.legal_actions()
    t.act("build", station="two_viaducts", site=2, pay=pay(stone=2))
    assert t.state.stations[1].building[2].owner == 2


def test_train_6_no_extra_build_when_nobody_built() -> None:
    t = Table(3, route=ROUTE3)
    t.give_train(2, 6)
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5), ("G", 6))
    t.run(lambda d: d.kind in ("extra_build", "survey"))
    assert t.waiting.kind == "survey"


def test_train_7_lays_at_rate_plus_1() -> None:
    """No.7 Ralph: 'Whenever you take the Lay Track action, you lay track at 1 above the current Work Rate.'"""
    t = Table(3, route=ROUTE3, aside=4)
    for track in t.state.route[:5]:
        t.state.rubble_supply += track.rubble
        track.rubble = 0
    for site in t.state.stations[1].excavation + t.state.stations[2].excavation:
        t.state.rubble_supply += site.rubble
        site.rubble = 0
    t.give_train(0, 7)
    t.give(0, steel=5)
    t.place(("D", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("lay_track")
    assert len(t.of(t.act("lay_track"), "track_laid")) == t.state.lay_rate + 1


def test_one_train_per_player() -> None:
    """'A player may not own more than one Train.' Buying another returns the first."""
    t = Table(3)
    t.state.trains_available = True
    t.give_train(0, 4)
    t.give(0, steel=1)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    t.act("buy_train", train=5, pay=pay(steel=1))
    assert t.state.players[0].train == 5 and 4 in t.state.engine_shed
