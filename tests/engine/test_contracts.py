"""All 30 contracts' effects and their timing (English seed, 'Contract cards')."""

from __future__ import annotations

import pytest

from .helpers import Table, pay

ROUTE3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def clear(t: Table, tracks: int) -> None:
    s = t.state
    for track in s.route[:tracks]:
        s.rubble_supply += track.rubble
        track.rubble = 0
    for station in s.stations[: s.route[tracks - 1].before]:
        for site in station.excavation:
            s.rubble_supply += site.rubble
            site.rubble = 0
    t.refresh()


def play_before(t: Table, area: str, card: int, player: int = 0) -> list[dict[str, object]]:
    t.run(lambda d: d.kind == "contracts" and d.area == area and d.player == player)
    return t.act("play_contract", contract=card)


@pytest.mark.parametrize("card", [1, 2])
def test_lay_track_plus_one(card: int) -> None:
    """1/2: 'Whenever you take the Lay Track Action this Round, you do it at one more than the current Work
    Rate.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 5)
    t.hand(0, card)
    t.give(0, steel=5)
    t.place(("D", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "D", card)
    t.run_to("lay_track")
    assert len(t.of(t.act("lay_track"), "track_laid")) == t.state.lay_rate + 1


def test_3_excavate_next_space_completely_after_all_others() -> None:
    """3: 'After all other Excavate Actions have been resolved, you may excavate completely the next space with
    Rubble in it (Track card or Building site).'"""
    t = Table(3, route=ROUTE3)
    clear(t, 2)  # next: Two Viaducts' left site, 4 rubble
    t.hand(1, 3)
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "B", 3, player=1)
    t.run_to("excavate")
    t.act("excavate")  # Ann takes 2 of the 4
    d = t.waiting
    assert (d.kind, d.player) == ("extra_excavation", 1)
    events = t.act("excavate")
    assert t.of(events, "rubble_taken")[0]["n"] == 2
    assert t.state.stations[1].excavation[0].owner == 1


def test_4_swap_middle_weather_disc() -> None:
    """4: 'Swap the Weather disc in the middle position on the Weather Track with one of your choice from general
    supply. This weather will be used at the start of the next Round'."""
    t = Table(3, office=(4, 1, 2))  # middle rain
    t.hand(0, 4)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "A", 4)
    t.act("swap_weather", weather="sun")
    # office (4 sun, 1 rain, 2 rain): middle rain → sun; lowest still rain
    assert t.state.weather[1:] == ["sun", "rain"] and t.state.weather_supply == {"sun": 2, "rain": 2, "fog": 5}
    t.finish_round()
    assert t.state.weather[0] == "sun"


def test_5_draw_two_keep_one_of_three() -> None:
    """5: 'Draw the top two cards from the Contract Card Deck. You may keep this card or one of the cards you
    have drawn. Discard the other two cards.'"""
    t = Table(3)
    t.hand(0, 5)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "F", 5)
    t.chance = [{"type": "reveal_contract", "contract": 20}, {"type": "reveal_contract", "contract": 21}]
    t.step()
    t.step()
    assert t.waiting.kind == "keep_contract"
    assert {a["contract"] for a in t.game.legal_actions()} == {5, 20, 21}
    t.act("keep_contract", contract=20)
    p = t.state.players[0]
    assert p.hand == [20] and p.played == [] and sorted(t.state.discards) == [5, 21]


@pytest.mark.parametrize("card", [6, 25])
def test_three_iron_as_steel_when_building(card: int) -> None:
    """6/25: 'Whenever you take a Build Action E this Round, you may use 3 Iron Ore as if it was a Steel Bar.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 3)  # Waterfall: 1 steel → 7
    t.hand(0, card)
    t.give(0, iron=3)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "E", card)
    t.run_to("build")
    assert {"type": "build", "player": 0, "station": "waterfall", "site": 0, "pay": pay(iron=3)} in \
        t.game.legal_actions()
    t.act("build", station="waterfall", site=0, pay={"iron": 3})  # missing payment kinds count as 0
    assert t.state.players[0].iron == 0


def test_7_stock_yard_two_more_cubes() -> None:
    """7: 'Whenever you take a Stock Yard Action this Round, you may take two additional cubes (the one Coal per
    Labourer limit still applies).'"""
    t = Table(3)
    t.hand(0, 7)
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "A", 7)
    t.run_to("stock_yard")
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 5, "stone": 0, "coal": 0}) is None
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 3, "stone": 0, "coal": 2}) is not None


def test_8_extra_lay_track_after_all() -> None:
    """8: 'After all other Lay Track Actions have been resolved, you may take a Lay Track Action as if you had
    placed a Labourer here this Round.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 5)
    t.hand(0, 8)
    t.give(0, steel=2)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "D", 8)
    assert t.waiting.kind == "extra_lay_track"
    assert len(t.of(t.act("lay_track"), "track_laid")) == 2


@pytest.mark.parametrize("card", [9, 14, 15])
def test_one_stone_less(card: int) -> None:
    """9/14/15: 'Whenever you pay a Stone requirement for a Building site this Round, pay one Stone less.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 2)
    t.hand(0, card)
    t.give(0, stone=3)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "E", card)
    t.run_to("build")
    t.act("build", station="two_viaducts", site=0, pay=pay(stone=3))  # 4 stone site for 3
    assert t.state.players[0].stone == 0


def test_10_extra_build_after_all() -> None:
    """10: 'After all other Build Actions have been resolved, you may take a Build Action as if you had placed a
    Labourer here this Round.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 2)
    t.hand(1, 10)
    t.give(1, stone=1)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "E", 10, player=1)
    assert (t.waiting.kind, t.waiting.player) == ("extra_build", 1)
    t.act("build", station="two_viaducts", site=3, pay=pay(stone=1))
    assert t.state.stations[1].building[3].owner == 1


def test_11_rubble_to_stone_now_up_to_three_times() -> None:
    """11: 'Immediately convert 2 Rubble in your personal supply into 1 Stone up to 3 times. Take the Stone from
    the Supply Bag.'"""
    t = Table(3)
    t.hand(0, 11)
    t.give(0, rubble=7)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "C", 11)
    assert [a["times"] for a in t.game.legal_actions()] == [0, 1, 2, 3]
    t.act("convert", times=3)
    assert (t.state.players[0].rubble, t.state.players[0].stone) == (1, 3)


@pytest.mark.parametrize("card", [12, 24])
def test_two_iron_to_steel_once_or_twice(card: int) -> None:
    """12/24: 'Immediately convert 2 Iron Ore from your personal supply into 1 Steel Bar once or twice. Put the
    Iron Ore into the Bag.'"""
    t = Table(3)
    t.hand(0, card)
    t.give(0, iron=5)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "C", card)
    assert [a["times"] for a in t.game.legal_actions()] == [1, 2]
    t.act("convert", times=2)
    assert (t.state.players[0].iron, t.state.players[0].steel) == (1, 2)


def test_13_no_other_contracts_this_round() -> None:
    """13: 'After this card has been played, no other Contract cards may be played for the rest of the Round.'"""
    t = Table(3)
    t.hand(0, 13)
    t.hand(1, 20, 11)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "A", 13)
    assert t.waiting.kind != "contracts"  # Bob's 20 (A) and 11 (C) are both shut out
    t.run(lambda d: d.kind == "place")
    assert t.state.players[1].hand == [20, 11]


def test_17_rubble_as_stone_when_building() -> None:
    """17: 'Whenever you take a Build Action E this Round, you may use 2 Rubble as 1 Stone or 4 Rubble as 2
    Stone.'"""
    t = Table(3, route=ROUTE3)
    clear(t, 2)
    t.hand(0, 17)
    t.give(0, rubble=4, stone=1)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "E", 17)
    t.run_to("build")
    t.act("build", station="two_viaducts", site=1, pay=pay(stone=1, rubble=4))  # 3 stone
    assert (t.state.players[0].stone, t.state.players[0].rubble) == (0, 0)


@pytest.mark.parametrize("card", [18, 19])
def test_draw_three_cubes_return_events(card: int) -> None:
    """18/19: 'Immediately draw three cubes from the Supply Bag; return each Event cube drawn in this way.'"""
    t = Table(3)
    t.hand(0, card)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "G", card)
    assert t.waiting.kind == "draw" and t.waiting.info == {"count": 3, "purpose": f"contract {card}"}
    events_in_bag = t.state.bag["event"]
    t.apply({"type": "draw", "iron": 1, "stone": 1, "coal": 0, "event": 1})
    assert (t.state.players[0].iron, t.state.players[0].stone) == (1, 1)
    assert t.state.bag["event"] == events_in_bag and not any(t.state.event_track)


@pytest.mark.parametrize("card", [20, 23])
def test_take_any_two_from_stock_yard(card: int) -> None:
    """20/23: 'Immediately take any 2 cubes from the Stock Yard (one Coal maximum).'"""
    t = Table(3)
    t.hand(0, card)
    t.place(*[("G", i) for i in range(1, 7)])
    play_before(t, "A", card)
    assert all(a["iron"] + a["stone"] + a["coal"] == 2 and a["coal"] <= 1 for a in t.game.legal_actions())
    t.act("take_cubes", iron=0, stone=1, coal=1)
    assert t.state.stock_yard == {"iron": 7, "stone": 3, "coal": 0}


def test_22_take_start_player_locked() -> None:
    """22: 'Take the Start Player marker. The marker cannot move again this Round.'"""
    t = Table(3)
    t.hand(1, 22)
    t.place(("A", 3), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))  # Ann on the last A space
    play_before(t, "A", 22, player=1)
    assert t.state.start_player == 1
    t.run(lambda d: d.kind == "place")
    assert t.state.start_player == 1 and t.waiting.player == 1


@pytest.mark.parametrize("card", [26, 30])
def test_excavate_double(card: int) -> None:
    """26/30: 'Whenever you take the Excavate Action this Round, take double the number of Rubble cubes (Work Rate
    plus any bonuses).'"""
    t = Table(3, route=ROUTE3)
    t.give_train(0, 1)
    t.hand(0, card)
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "B", card)
    t.run_to("excavate")
    assert t.of(t.act("excavate"), "excavation_done")[0]["n"] == 2 * (t.state.excavation_rate + 2)


def test_27_surveyor_moves_one_station() -> None:
    """27: 'Immediately move your Surveyor 1 Station further along.'"""
    t = Table(3)
    t.hand(0, 27)
    t.place(("A", 1), ("A", 2), ("A", 3), ("C", 1), ("F", 1), ("F", 2))
    events = play_before(t, "G", 27)
    assert t.of(events, "surveyor_moved") == [{"type": "surveyor_moved", "player": 0, "station": "two_viaducts"}]


def test_28_move_placed_labourer() -> None:
    """28: 'Immediately move one of your placed Labourers to any different, empty Action space.'"""
    t = Table(3)
    t.hand(0, 28)
    t.place(("F", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "A", 28)
    assert {"type": "move_labourer", "player": 0, "from": ["F", 1], "to": ["C", 1]} in t.game.legal_actions()
    assert all(a["to"] != ["F", 1] for a in t.game.legal_actions())
    t.act("move_labourer", **{"from": ["F", 1], "to": ["C", 1]})
    assert t.state.placed["C"] == [0] and t.state.placed["F"] == [None, None]


def test_29_ignore_coal_limit() -> None:
    """29: 'You may ignore the limit on taking Coal from the Stock Yard this Round.'"""
    t = Table(3)
    t.state.stock_yard["coal"] = 3
    t.state.bag["coal"] -= 2
    t.hand(0, 29)
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    play_before(t, "A", 29)
    t.run_to("stock_yard")
    t.act("stock_yard", iron=0, stone=0, coal=3)
    assert t.state.players[0].coal == 3


@pytest.mark.parametrize("card", [16, 21])
def test_maintenance_cards_are_never_played(card: int) -> None:
    """16/21: 'You may discard this card instead of a Steel Bar when required to pay for train maintenance.' —
    they have no action letter, so no window offers them."""
    t = Table(3)
    t.hand(0, card)
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "place" or d.kind == "contracts")
    assert t.waiting.kind == "place"
