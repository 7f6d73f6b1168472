"""Game setup, one test per rule sentence (English seed, 'Game Setup')."""

from __future__ import annotations

import pytest

from tableassist.engine import Game, IllegalAction, Setup

from .helpers import Table


@pytest.mark.parametrize(("players", "stations"), [
    (1, ["llanberis", "two_viaducts", "hebron", "halfway", "rocky_valley", "clogwyn", "yr_wyddfa"]),
    (2, ["llanberis", "two_viaducts", "hebron", "halfway", "rocky_valley", "clogwyn", "yr_wyddfa"]),
    (3, ["llanberis", "two_viaducts", "waterfall", "hebron", "halfway", "rocky_valley", "clogwyn", "yr_wyddfa"]),
    (4, ["llanberis", "two_viaducts", "waterfall", "hebron", "halfway", "rocky_valley", "clogwyn", "yr_wyddfa"]),
    (5, ["llanberis", "two_viaducts", "waterfall", "hebron", "halfway", "passing_loop", "rocky_valley", "clogwyn",
         "yr_wyddfa"]),
])
def test_stations_by_player_count(players: int, stations: list[str]) -> None:
    """'Waterfall Station (2) is not used if playing solo or with 2 players. The Passing Loop (4½) is only used
    with 5 players.'"""
    t = Table(players)
    assert [s.id for s in t.state.stations] == stations


@pytest.mark.parametrize(("players", "tracks"), [(1, 12), (2, 12), (3, 13), (4, 13), (5, 14)])
def test_track_cards_between_stations(players: int, tracks: int) -> None:
    """'The number of Track cards between each Station card is printed on each Station card's top left hand
    corner.'"""
    t = Table(players)
    assert len(t.state.route) == tracks
    # 3 players: Two Viaducts 2, Waterfall 1, Hebron 2, Halfway 2, Rocky Valley 1, Clogwyn 3, Yr Wyddfa 2
    if players == 3:
        befores = [t.state.stations[r.before].id for r in t.state.route]
        assert befores == ["two_viaducts"] * 2 + ["waterfall"] + ["hebron"] * 2 + ["halfway"] * 2 + \
            ["rocky_valley"] + ["clogwyn"] * 3 + ["yr_wyddfa"] * 2


def test_rubble_on_track_cards_and_station_sites() -> None:
    """'Place rubble on each Track card equal to the number on the card, and also put the indicated number of
    rubble pieces on the Station cards in the boxes marked with a shovel.'"""
    t = Table(3, route=[13, 1, 9, 4, 2, 3, 5, 6, 7, 8, 10, 11, 12])
    assert [r.rubble for r in t.state.route][:4] == [5, 2, 4, 3]
    viaducts = t.state.stations[1]
    assert [s.rubble for s in viaducts.excavation] == [4, 2]
    clogwyn = t.state.stations[6]
    assert [s.rubble for s in clogwyn.excavation] == [6]
    on_route = sum(r.rubble for r in t.state.route) + sum(s.rubble for st in t.state.stations for s in st.excavation)
    assert t.state.rubble_supply == 90 - on_route


@pytest.mark.parametrize(("players", "spaces"), [
    (1, [2, 2, 1, 1, 2, 1]), (2, [2, 2, 1, 1, 2, 1]), (3, [3, 2, 1, 2, 2, 2]), (4, [4, 3, 2, 3, 2, 2]),
    (5, [4, 3, 3, 3, 3, 2]),
])
def test_action_spaces_by_player_count(players: int, spaces: list[int]) -> None:
    """'take the alternative action space cards and place them over the Action Areas ... so that the number at
    the top of each Action Area matches the number of players.'"""
    t = Table(players)
    assert [t.state.spaces[a] for a in "ABCDEF"] == spaces


def test_work_rate_markers_on_second_space() -> None:
    """'Put a Game marker on each of the 2 dots on the Work Rate tracks.' (the 2nd space of each)"""
    t = Table(3)
    assert t.state.excavation_index == 1 and t.state.lay_index == 1


@pytest.mark.parametrize(("players", "has_28_29"), [(1, False), (2, False), (3, True), (5, True)])
def test_contracts_28_29_removed_for_one_or_two(players: int, has_28_29: bool) -> None:
    """'If playing solo or with 2 players, remove two Contract cards marked with '3-5' (28 and 29) from the
    deck.'"""
    t = Table(players)
    cards = t.state.deck | set(t.state.site_office)
    assert ({28, 29} <= cards) is has_28_29
    assert len(cards) == (30 if has_28_29 else 28)
    with pytest.raises(IllegalAction):
        Game.replay(Setup(players=["A", "B"]), [{"type": "route", "tracks": list(range(1, 13))},
                                                {"type": "reveal_contract", "contract": 28}])


def test_first_weather_forecast_from_backs_of_middle_and_right_cards() -> None:
    """'Take a Weather disc of the same colour as the weather icon on the back of the middle Contract card and
    put it into middle space of the Weather Track; then repeat for the right-most card putting the Weather disc
    into the lowest space.'"""
    t = Table(3, office=(4, 7, 1))  # backs: 4 sun, 7 fog, 1 rain
    assert t.state.weather == [None, "fog", "rain"]
    assert t.state.site_office == [4, 7, 1]
    assert t.state.weather_supply == {"sun": 3, "rain": 2, "fog": 4}


def test_engine_shed_six_trains_with_coal_seventh_set_aside() -> None:
    """'place six Trains, selected randomly, below the game board to form the Engine Shed. Set aside the
    remaining Train card ... Put Coal from general supply onto each Train as indicated on the card.'"""
    t = Table(4, aside=5)
    assert t.state.engine_shed == {1: 1, 2: 0, 3: 1, 4: 1, 6: 1, 7: 1}
    assert t.state.set_aside == 5
    game = Game.new(Setup(players=["A", "B"]))
    game.apply({"type": "route", "tracks": list(range(1, 13))})
    for card in (1, 2, 3):
        game.apply({"type": "reveal_contract", "contract": card})
    assert game.why_not({"type": "engine_shed", "trains": [1, 2, 3, 4, 5, 6], "set_aside": 6}) is not None
    assert game.why_not({"type": "engine_shed", "trains": [1, 2, 3, 4, 5, 6], "set_aside": 7}) is None


@pytest.mark.parametrize(("players", "iron", "stone", "events"), [
    (2, 20, 11, 5), (3, 20, 11, 5), (4, 27, 16, 5), (5, 33, 20, 5),
])
def test_stock_yard_and_supply_bag(players: int, iron: int, stone: int, events: int) -> None:
    """'Put 7 Iron Ore, 4 Stone and 1 Coal on to their spaces in the Stock Yard. Put the number of Iron Ore,
    Stone and Coal into the Supply Bag as indicated in the Supply Table.' Coal: 'Put Coal on the Train cards in
    the game and all remaining Coal into the bag.'"""
    t = Table(players, aside=5)  # train 5 (2 coal) set aside: 5 coal on the six trains in the shed
    assert t.state.stock_yard == {"iron": 7, "stone": 4, "coal": 1}
    assert t.state.bag == {"iron": iron, "stone": stone, "coal": 14 - 1 - 5, "event": events}


def test_solo_bag_and_stock_yard() -> None:
    """Solo: bag iron 16, stone 10, coal '6 (minus Coal for starting train)', 4 event cubes; 'Draw 6 cubes out
    of the bag at random and place them on the Stock Yard'."""
    t = Table(1, solo_train=5, yard={"iron": 4, "stone": 1, "coal": 1})
    assert t.state.engine_shed == {5: 2}
    assert t.state.stock_yard == {"iron": 4, "stone": 1, "coal": 1}
    assert t.state.bag == {"iron": 12, "stone": 9, "coal": 6 - 2 - 1, "event": 4}


def test_player_pieces() -> None:
    """'Each player puts two of their Labourers into their personal supply ... leaving the remaining Labourer in
    the Pub.' Surveyors on Llanberis; 'The 16 x Ownership cubes per player is a fixed limit.'"""
    t = Table(4)
    for p in t.state.players:
        assert (p.labourers, p.temporary_in_pub, p.surveyor, p.markers) == (2, True, 0, 16)
    assert t.waiting.kind == "place" and t.waiting.player == 0


def test_setup_refuses_bad_player_counts_and_options() -> None:
    with pytest.raises(ValueError, match="1 to 5"):
        Setup(players=[])
    with pytest.raises(ValueError, match="solo game needs its train"):
        Setup(players=["Ann"])
    with pytest.raises(ValueError, match="tie rule"):
        from tableassist.engine import Options
        Setup(players=["A", "B"], options=Options(tie_rule="coin"))


def test_route_must_be_distinct_cards() -> None:
    game = Game.new(Setup(players=["A", "B", "C"]))
    assert game.waiting is not None and game.waiting.kind == "route"
    reason = game.why_not({"type": "route", "tracks": [1] * 13})
    assert reason is not None and "different" in reason
    assert game.why_not({"type": "route", "tracks": list(range(1, 13))}) == "The route needs 13 track cards."
