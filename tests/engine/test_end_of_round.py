"""End of round: site office restock, weather, stock-yard restock, event cubes and the five events."""

from __future__ import annotations

import pytest

from .helpers import Table

ROUTE3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def idle_round(t: Table) -> list[dict[str, object]]:
    n = len(t.state.players)
    t.place(*[("G", i) for i in range(1, 2 * n + 1)])
    return t.finish_round()


def test_site_office_discard_position_1_shift_and_refill() -> None:
    """'If a Contract card is in Position [1] in the Site Office, put it face down onto the discard pile. Move any
    other Contract cards in the Site Office to the left to close up any gaps. Add cards face up to the end of line
    from the top of the Contract Card Deck'."""
    t = Table(3, office=(4, 7, 1))
    t.place(("F", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("take_contract")
    t.act("take_contract", contract=7)
    t.chance = [{"type": "reveal_contract", "contract": 20}, {"type": "reveal_contract", "contract": 9}]
    t.finish_round()
    assert t.state.discards == [4]
    assert t.state.site_office == [1, 20, 9]


def test_site_office_reveal_must_match_observed_back() -> None:
    """The weather disc comes from the back of the top card; that card is the next one turned up."""
    t = Table(3, office=(4, 7, 1))
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "contract_back")
    t.apply({"type": "contract_back", "weather": "fog"})
    t.finish_round()
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "reveal_contract")
    reason = t.game.why_not({"type": "reveal_contract", "contract": 5})
    assert reason == "The top card shows fog on its back, so it cannot be contract 5."
    assert t.game.legal_actions() and \
        all(t.game.setup.comps.contracts[a["contract"]].back == "fog" for a in t.game.legal_actions())


def test_weather_shifts_new_disc_from_top_back_and_rates_move() -> None:
    """'Move the Weather discs one space along to the left ... take a Weather disc in a color matching the weather
    icon on the back of that card and place it in the lowest position ... Adjust the markers ... Sun = Excavate
    +2 spaces, Lay Track +1 space'."""
    t = Table(3, office=(1, 4, 2))  # middle sun, lowest rain
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "contract_back")
    events = t.apply({"type": "contract_back", "weather": "fog"})
    assert t.state.weather == ["sun", "rain", "fog"]
    changes = [(e["track"], e["from"], e["to"]) for e in t.of(events, "work_rate_changed")]
    assert changes == [("excavation", 2, 4), ("lay_track", 2, 3)]
    assert t.state.weather_supply == {"sun": 2, "rain": 2, "fog": 4}


def test_rain_lowers_rates_and_never_below_the_track() -> None:
    """'Rain = Excavate -1 space, Lay Track -1 space ... Don't go off either end of the tracks!'"""
    t = Table(3, office=(4, 1, 2))  # middle rain, lowest rain
    idle_round(t)
    assert (t.state.excavation_rate, t.state.lay_rate) == (1, 1)
    idle_round(t)
    assert (t.state.excavation_index, t.state.lay_index) == (0, 0)


def test_sun_never_above_the_track() -> None:
    t = Table(3, office=(1, 4, 13))  # sun, sun
    t.state.excavation_index = len(t.state.excavation_track) - 2
    idle_round(t)
    assert t.state.excavation_index == len(t.state.excavation_track) - 1


@pytest.mark.parametrize(("players", "count"), [(1, 6), (2, 6), (3, 9), (4, 12), (5, 12)])
def test_stock_yard_restock_count(players: int, count: int) -> None:
    """'The number of cubes required for restocking varies according to the number of players' (6/6/9/12/12)."""
    t = Table(players)
    t.place(*[("G", i) for i in range(1, 2 * players + 1)])
    t.run(lambda d: d.kind == "draw")
    assert t.waiting.info == {"count": count, "purpose": "restock"}


def test_event_cubes_placed_and_resolved_one_by_one_with_returns_at_4() -> None:
    """'put them on the Event Track, one cube per space, starting immediately after the last occupied space; as
    you place each Event cube, resolve the Event immediately' and 'If the Events in 4, 7 or 10 occur, put 3
    Event cubes back in the bag'."""
    t = Table(3)
    t.state.event_track[:3] = [True, True, True]
    t.state.bag["event"] -= 3
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    events = t.apply({"type": "draw", "iron": 7, "stone": 0, "coal": 0, "event": 2})
    placed = [(e["space"], e["kind"]) for e in t.of(events, "event_cube_placed")]
    kinds = t.state.event_kinds
    assert placed == [(4, kinds[3]), (5, kinds[4])]
    assert t.of(events, "event_cubes_returned") == [{"type": "event_cubes_returned", "spaces": [1, 2, 3], "n": 3}]
    assert t.state.event_track == [False, False, False, True, True] + [False] * 5
    order = [e["type"] for e in events if e["type"] in ("event_cube_placed", "event_resolved")]
    assert order == ["event_cube_placed", "event_resolved", "event_cube_placed", "event_resolved"]


def test_events_loop_through_8_9_10() -> None:
    """'when the 10 space is reached, the 7 space will always be the right-most occupied, and the events will loop
    through 8, 9 and 10 until the end of the game.'"""
    t = Table(3)
    t.state.event_track[:] = [False] * 6 + [True, True, True, False]
    t.state.bag["event"] -= 3
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    events = t.apply({"type": "draw", "iron": 8, "stone": 0, "coal": 0, "event": 1})
    assert t.of(events, "event_cubes_returned")[0]["spaces"] == [8, 9, 10]
    assert t.state.event_track == [False] * 6 + [True, False, False, False]


def fill_event_track_before(t: Table, kind: str) -> None:
    """Occupy the event track as play would have up to the first space of this kind (returns included)."""
    index = t.state.event_kinds.index(kind)
    returns = t.game.setup.comps.event_returns
    for i in range(index):
        t.state.event_track[i] = True
        t.state.bag["event"] -= 1
        for sp in returns.get(i + 1, ()):
            if t.state.event_track[sp - 1]:
                t.state.event_track[sp - 1] = False
                t.state.bag["event"] += 1


def resolve_event(t: Table, kind: str) -> list[dict[str, object]]:
    """Put the next event cube on a space of this kind and resolve it."""
    fill_event_track_before(t, kind)
    t.place(*[("G", i) for i in range(1, 2 * len(t.state.players) + 1)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    count = t.waiting.info["count"]
    return t.apply({"type": "draw", "iron": count - 1, "stone": 0, "coal": 0, "event": 1})


def test_event_excavate_clears_spaces_nobody_scores() -> None:
    """'Remove all Rubble cubes from a number of Track cards/Building spaces, starting with the card closest to the
    start of the route, where the number is equal to the current Excavation Work Rate ... No player gains Rubble
    or scores'."""
    t = Table(3, route=ROUTE3)
    t.state.route[0].rubble = 0
    t.state.rubble_supply += 2
    events = resolve_event(t, "excavate")
    rate = t.state.excavation_rate
    cleared = [e["source"] for e in t.of(events, "rubble_taken")]
    assert cleared == [{"track": 2}, {"station": "two_viaducts", "site": 0}, {"station": "two_viaducts", "site": 1},
                       {"track": 3}][:rate]
    assert all(site.owner is None for site in t.state.stations[1].excavation)
    assert all(p.rubble == 0 for p in t.state.players)


def test_event_lay_track_turns_cards_and_clears_rubble() -> None:
    """'Turn over a number of Track cards equal to the current Lay Track Work Rate, starting with the Track card
    closest to the start of the route. Remove Rubble ... No player scores'."""
    t = Table(3, route=ROUTE3)
    events = resolve_event(t, "lay_track")
    n = t.state.lay_rate
    assert [e["card"] for e in t.of(events, "track_laid")] == ROUTE3[:n]
    assert all(r.laid and r.laid_by is None and r.rubble == 0 for r in t.state.route[:n])
    summary = t.of(events, "event_resolved")[0]["summary"]
    assert summary.startswith("track") and "laid" in summary


def test_event_complete_station() -> None:
    """'Put one of the Game markers on to the first Station in the route that has not yet had all of its Building
    sites completed. Remove any Rubble ... Players cannot carry out Excavate or Build actions in relation to this
    Station card'."""
    t = Table(3, route=ROUTE3)
    for site in t.state.stations[1].building:
        site.owner = 0
        t.state.players[0].sites.append(("two_viaducts", "building", t.state.stations[1].building.index(site)))
        t.state.players[0].markers -= 1
    events = resolve_event(t, "complete_station")
    assert t.of(events, "station_completed_by_event") == [{"type": "station_completed_by_event",
                                                           "station": "waterfall"}]
    waterfall = t.state.stations[2]
    assert waterfall.completed_by_event and waterfall.excavation[0].rubble == 0
    # 'Do not remove Ownership markers on the Station card'
    assert all(site.owner == 0 for site in t.state.stations[1].building)
    # excavation now skips Waterfall's site
    assert all(space.rubble == 0 for space, st, _ in t.game._ctx.dig_order if st == 2)


def test_event_trains_may_now_be_bought() -> None:
    """'Train cannot be bought by any player until this event has occurred'."""
    t = Table(3)
    resolve_event(t, "trains_available")
    assert t.state.trains_available


def test_event_maintenance_pay_discard_or_return_with_coal_restock_lowest_first() -> None:
    """'Each player with a Train card must immediately pay one Steel Bar to general supply or discard a Train
    Maintenance Contract card (16 and 21). If a player cannot, or chooses not, to pay, return the Train card ...
    If there is less Coal than needed, re-stock the train in numerical order starting with the lowest.'"""
    t = Table(3)
    t.give_train(0, 6)
    t.give_train(1, 3)
    t.give_train(2, 5)
    t.give(0, steel=1)
    t.hand(1, 16)
    coal = t.state.bag["coal"]
    t.give(0, coal=coal - 1)  # only one coal left in the bag
    assert t.state.event_kinds.index("maintenance") < 7
    fill_event_track_before(t, "maintenance")
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    t.apply({"type": "draw", "iron": 8, "stone": 0, "coal": 0, "event": 1})
    assert (t.waiting.kind, t.waiting.player) == ("maintenance", 0)
    t.act("maintain", pay="steel")
    assert {"type": "maintain", "player": 1, "pay": 16} in t.game.legal_actions()
    t.act("return_train")
    coal_before = [p.coal for p in t.state.players]
    events = t.act("return_train")
    assert [p.coal for p in t.state.players] == coal_before  # 'Coal cubes held by the player are unaffected.'
    returned = t.of(events, "train_returned")
    assert [(e["train"], e["coal_restocked"]) for e in returned] == [(3, 1), (5, 0)]
    assert t.state.players[0].train == 6 and t.state.players[1].train is None
    assert t.state.players[1].hand == [16]


def test_space_7_returns_4_to_6() -> None:
    """'If the Events in 4, 7 or 10 occur, put 3 Event cubes back in the bag' — space 7 returns 4, 5 and 6."""
    t = Table(3)
    t.state.event_track[3:6] = [True, True, True]
    t.state.bag["event"] -= 3
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    events = t.apply({"type": "draw", "iron": 8, "stone": 0, "coal": 0, "event": 1})
    assert t.of(events, "event_cube_placed")[0]["space"] == 7
    assert t.of(events, "event_cubes_returned") == [{"type": "event_cubes_returned", "spaces": [4, 5, 6], "n": 3}]
    assert t.state.event_track == [False] * 6 + [True, False, False, False]


def test_fog_round_announces_blocked_spaces() -> None:
    """'put a Fog disc on both those Action Areas to show that Labourers cannot be placed there.'"""
    t = Table(4, office=(1, 7, 26))
    t.place(*[("G", i) for i in range(1, 9)])
    events = t.finish_round()
    assert t.of(events, "fog") == [{"type": "fog", "blocked": {"B": [1, 2, 3], "D": [1, 2, 3]}}]
