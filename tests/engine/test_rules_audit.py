"""Findings of the rules audit (issue 2): each test quotes the sentence the engine did not follow before."""

from __future__ import annotations

from .helpers import Table
from .test_end_of_round import resolve_event

ROUTE3 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]


def clear_all_rubble(t: Table) -> None:
    s = t.state
    for space, _, _ in t.game._ctx.dig_order:
        s.rubble_supply += space.rubble
        space.rubble = 0
    t.refresh()


def test_extra_build_area_is_one_build_space() -> None:
    """'This card now replaces the Excavate Action Area and provides an extra Build action space in position B'
    (German: 'eine weitere Aktion „Bauen“ im Bereich B'; Spanish: 'un espacio de acción de construcción
    adicional'): one space, not as many as Excavation had."""
    t = Table(4, aside=4)  # 4 players: Excavation has 3 spaces
    assert t.state.spaces["B"] == 3
    clear_all_rubble(t)
    t.place(*[("G", i) for i in range(1, 9)])
    t.finish_round()
    assert t.state.extra_build_open
    assert t.state.spaces["B"] == 1 and t.state.placed["B"] == [None]
    assert t.game.why_not({"type": "place", "player": t.waiting.player, "area": "B", "space": 2}) == \
        "Area B has spaces 1 to 1."
    assert [a for a in t.game.legal_actions() if a.get("area") == "B"] == \
        [{"type": "place", "player": t.waiting.player, "area": "B", "space": 1}]


def test_extra_build_area_space_count_comes_from_the_component_data() -> None:
    """An owner whose train card shows another number of spaces corrects it in the component override."""
    from tableassist.engine import components as comp

    raw = comp.default().raw
    t = Table(4, aside=4)  # Excavation: 3 spaces
    t.game._ctx.comps = comp.build({**raw, "trains": {**raw["trains"], "extra_build_spaces": 2}})
    clear_all_rubble(t)
    t.place(*[("G", i) for i in range(1, 9)])
    t.finish_round()
    assert t.state.spaces["B"] == 2 and t.state.placed["B"] == [None, None]


def test_complete_station_needs_a_game_marker() -> None:
    """'Put a Game marker on each of the 2 dots on the Work Rate tracks. Put the other 6 Game markers with the
    general supply' and 'Complete a Station immediately: Put one of the Game markers on to the first Station':
    once the six spare game markers are on stations, the event has no marker to put down."""
    t = Table(5, route=list(range(1, 15)))
    stations = t.state.stations
    assert len(stations) - 1 == 8  # 5 players: 8 stations after Llanberis, but only 6 spare game markers
    for st in stations[1:7]:
        st.completed_by_event = True
        for site in st.excavation:
            t.state.rubble_supply += site.rubble
            site.rubble = 0
    events = resolve_event(t, "complete_station")
    assert t.of(events, "station_completed_by_event") == []
    assert not stations[7].completed_by_event and stations[7].excavation[0].rubble > 0
    resolved = t.of(events, "event_resolved")[0]
    assert resolved["station"] is None and resolved["summary"] == "no game marker left to complete a station"


def test_stock_yard_and_works_counts_left_out_are_zero() -> None:
    """The API's cube counts: a stock-yard or works action that leaves a kind out takes / makes none of it."""
    t = Table(3)
    t.give(1, iron=3)
    t.place(("A", 1), ("C", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4))
    t.run_to("stock_yard")
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": 3}) is None
    t.apply({"type": "stock_yard", "player": 0, "iron": 3})
    assert t.state.players[0].iron == 3
    t.run_to("works")
    assert t.game.why_not({"type": "works", "player": 1, "steel": 1}) is None
    t.apply({"type": "works", "player": 1, "steel": 1})
    assert t.state.players[1].steel == 1 and t.state.players[1].iron == 0


def test_contracts_per_window_option_one_card() -> None:
    """English: 'each player may play one or more Contract cards'; the German print edition: 'noch genau eine
    Auftragskarte' (exactly one per area). Option `contracts_per_window=1` plays the print edition."""
    from tableassist.engine import Options

    t = Table(3, options=Options(contracts_per_window=1))
    t.hand(0, 7, 29)  # both letter A
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("contracts", player=0)
    t.act("play_contract", contract=7)
    assert t.waiting.kind != "contracts" or t.waiting.player != 0
    assert 29 in t.state.players[0].hand
    assert t.game.setup.to_json()["options"]["contracts_per_window"] == 1


def test_contracts_per_window_default_any_number() -> None:
    """'each player may play one or more Contract cards that have the current Action Area shown'."""
    t = Table(3)
    t.hand(0, 7, 29)
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("contracts", player=0)
    t.act("play_contract", contract=7)
    assert (t.waiting.kind, t.waiting.player) == ("contracts", 0)
    t.act("play_contract", contract=29)
    assert t.state.players[0].played == [7, 29]


def test_29_also_lifts_the_coal_limit_of_20_and_23() -> None:
    """29: 'You may ignore the limit on taking Coal from the Stock Yard this Round' (German: 'die Einschränkung
    ignorieren, nur 1 Kohle vom Lagerplatz nehmen zu dürfen'); 20/23 take 'any 2 cubes from the Stock Yard (one
    Coal maximum)' — that is the same limit, so with 29 in effect both may be coal."""
    t = Table(3)
    t.state.stock_yard["coal"] = 3
    t.state.bag["coal"] -= 2
    t.hand(0, 29, 23)
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5), ("G", 6))
    t.run_to("contracts", player=0, area="A")
    t.act("play_contract", contract=29)
    t.act("play_contract", contract=23)
    assert {"type": "take_cubes", "player": 0, "iron": 0, "stone": 0, "coal": 2} in t.game.legal_actions()
    t.act("take_cubes", iron=0, stone=0, coal=2)
    assert t.state.players[0].coal == 2


def test_20_without_29_keeps_one_coal() -> None:
    """20: 'Immediately take any 2 cubes from the Stock Yard (one Coal maximum).'"""
    t = Table(3)
    t.state.stock_yard["coal"] = 3
    t.state.bag["coal"] -= 2
    t.hand(0, 20)
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5), ("G", 6))
    t.run_to("contracts", player=0, area="A")
    t.act("play_contract", contract=20)
    assert t.game.why_not({"type": "take_cubes", "player": 0, "iron": 0, "stone": 0, "coal": 2}) is not None


def test_contract_13_does_not_stop_a_maintenance_discard() -> None:
    """13: 'no other Contract cards may be played for the rest of the Round' — 16: 'You may discard this card
    instead of a Steel Bar when required to pay for train maintenance' is a discard, not a play."""
    from .test_end_of_round import fill_event_track_before

    t = Table(3)
    t.give_train(0, 5)
    t.hand(0, 13, 16)
    fill_event_track_before(t, "maintenance")
    t.place(*[("G", i) for i in range(1, 7)])
    t.run_to("contracts", player=0, area="A")
    t.act("play_contract", contract=13)
    assert t.state.contracts_closed
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    count = t.waiting.info["count"]
    t.apply({"type": "draw", "iron": count - 1, "stone": 0, "coal": 0, "event": 1})
    assert (t.waiting.kind, t.waiting.player) == ("maintenance", 0)
    events = t.act("maintain", pay=16)
    assert t.of(events, "maintenance_paid") == [{"type": "maintenance_paid", "player": 0, "with": 16}]
    assert t.state.players[0].train == 5 and 16 in t.state.discards
