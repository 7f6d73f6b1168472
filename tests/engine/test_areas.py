"""The actions A–G exactly as written (English seed, 'A STOCK YARD' … 'G MOVE THE SURVEYOR')."""

from __future__ import annotations

from .helpers import Table, pay

ROUTE3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]  # rubble 2,2,2,3,3,3,3,3,4,4,4,4,5


def clear_route(t: Table, tracks: int, sites: bool = True) -> None:
    """Excavate (by hand, rubble to the supply) the first `tracks` track cards and the station sites before."""
    s = t.state
    for track in s.route[:tracks]:
        s.rubble_supply += track.rubble
        track.rubble = 0
    last = s.route[tracks - 1].before if tracks else 0
    if sites:
        for station in s.stations[:last]:
            for site in station.excavation:
                s.rubble_supply += site.rubble
                site.rubble = 0
    t.refresh()


# --- A ---
def test_stock_yard_up_to_three_cubes_at_most_one_coal() -> None:
    """'Take up to three cubes into your personal supply (at most 1 coal).'"""
    t = Table(3)
    t.state.stock_yard["coal"] = 2
    t.state.bag["coal"] -= 1
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("stock_yard")
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 1, "stone": 0, "coal": 2}) == \
        "Ann may take at most 1 coal."
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 4, "stone": 0, "coal": 0}) == \
        "Ann may take at most 3 cubes."
    assert all(sum(a[k] for k in ("iron", "stone", "coal")) <= 3 and a["coal"] <= 1 for a in t.game.legal_actions())
    events = t.act("stock_yard", iron=1, stone=1, coal=1)
    assert t.of(events, "cubes_taken")[0] == {"type": "cubes_taken", "player": 0, "source": "stock_yard",
                                               "iron": 1, "stone": 1, "coal": 1}
    assert t.state.stock_yard == {"iron": 6, "stone": 3, "coal": 1}


def test_last_stock_yard_space_takes_start_player() -> None:
    """'If a Labourer is in the last space of the Stock Yard, the owning player additionally becomes Start
    Player'."""
    t = Table(3)
    t.place(("A", 1), ("A", 3), ("G", 1), ("G", 2), ("G", 3), ("G", 4))
    events = t.run(lambda d: d.kind == "place")
    assert t.of(events, "start_player_changed") == [{"type": "start_player_changed", "player": 1,
                                                     "why": "last stock-yard space"}]
    assert t.state.start_player == 1 and t.waiting.player == 1


def test_start_player_stays_when_last_space_empty() -> None:
    """'if no-one occupies this space, the Start Player Marker remains with the current Start Player.'"""
    t = Table(3)
    t.place(("A", 1), ("A", 2), ("G", 1), ("G", 2), ("G", 3), ("G", 4))
    t.finish_round()
    assert t.state.start_player == 0


# --- B ---
def test_excavation_takes_full_rate_in_strict_order_and_marks_completed_site() -> None:
    """'Take the number of Rubble cubes equal to the current Excavation Work Rate ... Rubble must be taken in
    this priority order: the Track card ... closest ... to Llanberis; ... then ... the leftmost excavation site
    on the Station card. The player who takes the last Rubble cube from an excavation site ... Put one of that
    player's Ownership markers on the excavation site.'"""
    t = Table(3, route=ROUTE3)
    s = t.state
    s.route[0].rubble, s.route[1].rubble = 0, 1  # 1 cube left before Two Viaducts (sites 4 and 2)
    s.rubble_supply += 3
    s.excavation_index = 4  # rate 5
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("excavate")
    events = t.act("excavate")
    taken = [(e["source"], e["n"]) for e in t.of(events, "rubble_taken")]
    assert taken == [({"track": 2}, 1), ({"station": "two_viaducts", "site": 0}, 4)]
    assert t.of(events, "site_completed") == [{"type": "site_completed", "player": 0, "station": "two_viaducts",
                                               "site": 0, "kind": "excavation", "vp": 4}]
    assert s.players[0].rubble == 5 and s.players[0].markers == 15
    assert s.stations[1].excavation[0].owner == 0


def test_excavation_takes_what_is_left() -> None:
    """'If there isn't enough rubble left on the whole route for your action, take as many cubes as there are
    available.'"""
    t = Table(3, route=ROUTE3)
    s = t.state
    for space, _, _ in t.game._ctx.dig_order[:-1]:
        s.rubble_supply += space.rubble
        space.rubble = 0
    s.excavation_index = 3  # rate 4
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("excavate")
    events = t.act("excavate")
    assert t.of(events, "excavation_done")[0]["n"] == 3  # Yr Wyddfa's right site: 3 rubble
    assert s.stations[-1].excavation[1].owner == 0


def test_extra_build_area_opens_at_end_of_round_when_rubble_is_gone() -> None:
    """'At the end of the round in which there are no more Rubble to excavate ..., take the Train card set aside
    ... This card now replaces the Excavate Action Area and provides an extra Build action space in position
    B'."""
    t = Table(3, route=ROUTE3, aside=4)
    s = t.state
    for space, _, _ in t.game._ctx.dig_order:
        s.rubble_supply += space.rubble
        space.rubble = 0
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5), ("G", 6))
    assert not s.extra_build_open
    events = t.finish_round()
    assert t.of(events, "extra_build_area_opened") == [{"type": "extra_build_area_opened", "train": 4}]
    t.give(0, stone=1)
    t.place(("B", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build", area="B")
    assert {"type": "build", "player": 0, "station": "two_viaducts", "site": 3, "pay": pay(stone=1)} in \
        t.game.legal_actions()


# --- C ---
def test_works_three_conversions_mixed() -> None:
    """'Convert 3 Iron Ore into 1 Steel Bar, or change 2 Rubble into 1 Stone. Do this up to three times per
    action space. You may mix these trades'. Steel from the supply, stone from the bag; iron to the bag, rubble
    to the supply."""
    t = Table(3)
    t.give(0, iron=6, rubble=2)
    bag, supply = dict(t.state.bag), t.state.steel_supply
    t.place(("C", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("works")
    assert t.game.why_not({"type": "works", "player": 0, "steel": 3, "stone": 1}) == \
        "The works convert at most three times per labourer."
    assert t.game.why_not({"type": "works", "player": 0, "steel": 3, "stone": 0}) == \
        "3 steel needs 9 iron ore; Ann has 6."
    t.act("works", steel=2, stone=1)
    p = t.state.players[0]
    assert (p.iron, p.steel, p.rubble, p.stone) == (0, 2, 0, 1)
    assert t.state.bag["iron"] == bag["iron"] + 6 and t.state.bag["stone"] == bag["stone"] - 1
    assert t.state.steel_supply == supply - 2


def test_works_no_stone_in_bag_no_steel_in_supply() -> None:
    """'if the bag runs out, players cannot make more Stone'; 18 steel: none in the supply, no conversion."""
    t = Table(3)
    t.give(0, iron=3, rubble=2)
    t.give(1, steel=t.state.steel_supply)
    t.give(1, stone=t.state.box["stone"] + t.state.bag["stone"])
    t.place(("C", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("works")
    assert t.game.legal_actions() == [{"type": "works", "player": 0, "steel": 0, "stone": 0}]
    assert t.game.why_not({"type": "works", "player": 0, "steel": 1, "stone": 0}) == \
        "Only 0 steel bars are left in the supply."
    assert t.game.why_not({"type": "works", "player": 0, "steel": 0, "stone": 1}) == "The bag holds only 0 stone."


# --- D ---
def test_lay_track_at_rate_one_steel_and_marker_each() -> None:
    """'Return ... Steel Bars up to the current Lay Track Work Rate ... for each one, turn over the
    fully-excavated Track card closest ... to Llanberis. Place one of the player's Ownership markers'."""
    t = Table(3, route=ROUTE3)
    clear_route(t, 4)
    t.give(0, steel=5)
    t.place(("D", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert [(e["card"], e["player"]) for e in t.of(events, "track_laid")] == [(1, 0), (2, 0)]  # rate 2
    p = t.state.players[0]
    assert (p.steel, p.markers, p.tracks) == (3, 14, [1, 2])


def test_lay_track_limited_by_steel_and_excavated_cards() -> None:
    """'cannot choose to lay track at less than the current Work Rate plus bonuses, unless the player has
    insufficient Steel Bars, or there are not enough excavated Track cards'."""
    t = Table(3, route=ROUTE3)
    clear_route(t, 1)
    t.give(0, steel=1)
    t.give(1, steel=3)
    t.place(("D", 1), ("D", 2), ("G", 1), ("G", 2), ("G", 3), ("G", 4))
    t.run_to("lay_track")
    assert len(t.of(t.act("lay_track"), "track_laid")) == 1  # 1 steel
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert t.of(events, "track_laid") == []  # no excavated card left
    assert t.of(events, "lay_track_done") == [{"type": "lay_track_done", "player": 1, "n": 0, "wanted": 2}]
    assert t.state.players[1].steel == 3


# --- E ---
def test_build_needs_excavated_tracks_and_full_payment() -> None:
    """'After all Track cards leading up to a Station card have been excavated, each Labourer on a Build action
    space can build any one non-excavation site of that Station ... Players must pay the full cost'."""
    t = Table(3, route=ROUTE3)
    t.give(0, stone=3)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    assert t.game.legal_actions() == [{"type": "idle", "player": 0}]
    assert t.game.why_not({"type": "build", "player": 0, "station": "two_viaducts", "site": 1,
                           "pay": pay(stone=3)}) == "The track cards up to Two Viaducts are not all excavated yet."
    t.act("idle")
    t.finish_round()
    clear_route(t, 2, sites=False)  # the station's own excavation sites need not be cleared
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    assert t.game.why_not({"type": "build", "player": 0, "station": "two_viaducts", "site": 0,
                           "pay": pay(stone=3)}) == "Ann cannot pay {'stone': 4} that way."
    assert t.game.why_not({"type": "idle", "player": 0}) == "Ann can build or buy a train, so the labourer must."
    bag = t.state.bag["stone"]
    events = t.act("build", station="two_viaducts", site=1, pay=pay(stone=3))
    assert t.of(events, "station_built")[0]["vp"] == 7
    assert t.state.stations[1].building[1].owner == 0 and t.state.bag["stone"] == bag + 3
    assert t.state.players[0].sites == [("two_viaducts", "building", 1)]


def test_trains_only_after_the_event() -> None:
    """'Alternatively a player can use this action to obtain a Train card ... after the "Trains may be bought"
    event has happened'."""
    t = Table(3)
    t.give(0, steel=2)
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    assert t.game.why_not({"type": "buy_train", "player": 0, "train": 4, "pay": pay(steel=1)}) == \
        "Trains cannot be bought until the 'Trains may now be bought' event."


def test_buy_train_takes_its_coal_and_swap_restocks_returned_train() -> None:
    """'The owning player takes on the remaining Train cards and any Coal on it and pays the number of Steel
    Bars ... A player can return a Train card to the Engine Shed during a Build action when buying a different
    Train. Put more Coal from the Supply Bag (if available) on the returned Train card'."""
    t = Table(3)
    t.state.trains_available = True
    t.give(0, steel=3)
    t.place(("E", 1), ("E", 2), ("G", 1), ("G", 2), ("G", 3), ("G", 4))
    t.run_to("build")
    events = t.act("buy_train", train=5, pay=pay(steel=1))
    assert t.of(events, "train_bought")[0] == {"type": "train_bought", "player": 0, "train": 5,
                                                "paid": pay(steel=1), "coal": 2}
    assert t.state.players[0].coal == 2 and 5 not in t.state.engine_shed
    t.finish_round()
    t.place(("E", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("build")
    bag = t.state.bag["coal"]
    events = t.act("buy_train", train=1, pay=pay(steel=2))
    assert t.of(events, "train_returned")[0] == {"type": "train_returned", "player": 0, "train": 5,
                                                  "coal_restocked": 2, "why": "swapped"}
    assert t.state.engine_shed[5] == 2 and t.state.bag["coal"] == bag - 2
    assert t.state.players[0].train == 1 and t.state.players[0].coal == 3


# --- F ---
def test_site_office_take_a_card_of_choice() -> None:
    """'Take a card of the player's choice to hand from the three face-up Contract cards in the Site Office.'"""
    t = Table(3, office=(4, 7, 1))
    t.place(("F", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("take_contract")
    assert t.game.why_not({"type": "take_contract", "player": 0, "contract": 9}) == \
        "Contract 9 is not in the site office."
    events = t.act("take_contract", contract=7)
    assert t.of(events, "contract_taken")[0]["position"] == 2
    assert t.state.players[0].hand == [7] and t.state.site_office == [4, None, 1]


# --- G ---
def test_surveyor_moves_to_next_station_regardless_of_rubble() -> None:
    """'Move the player's Surveyor on to the next Station card numerically along the route. Whether Rubble has
    been excavated or track laid is irrelevant'."""
    t = Table(2)
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4))
    events = t.run(lambda d: d.kind == "place")
    stations = [e["station"] for e in t.of(events, "surveyor_moved") if e["player"] == 0]
    assert stations == ["two_viaducts", "hebron"]  # Waterfall is not in a 2-player game
