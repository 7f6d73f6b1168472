"""Rounds: assigning labourers, resolving A→G, contract windows, labourers returning."""

from __future__ import annotations

from tableassist.engine import Options

from .helpers import Table


def test_placement_one_at_a_time_in_turn_order_from_start_player() -> None:
    """'In clockwise order beginning with the Start Player, each player places one of their Labourers ...
    Continue to place Labourers, one piece per player at a time, until all players have placed all'."""
    t = Table(3)
    order = []
    for spot in [("A", 1), ("A", 2), ("A", 3), ("C", 1), ("F", 1), ("F", 2)]:
        order.append(t.waiting.player)
        t.place(spot)
    assert order == [0, 1, 2, 0, 1, 2]
    assert t.waiting.kind != "place"


def test_full_space_refused() -> None:
    """'place one Labourer at a time into any non-empty action space' — a taken space is refused."""
    t = Table(3)
    t.place(("C", 1))
    assert t.game.why_not({"type": "place", "player": 1, "area": "C", "space": 1}) == "This space is taken."
    assert t.game.why_not({"type": "place", "player": 1, "area": "C", "space": 2}) == "Area C has spaces 1 to 1."
    assert "Bob's turn" in (t.game.why_not({"type": "place", "player": 0, "area": "A", "space": 2}) or "")


def test_temporary_labourer_needs_a_train_and_coal_before_first_placement() -> None:
    """'Before placing their first Labourer, each player with a Train may return one Coal (two Coal for Train
    No. 6) from their personal stock to the Supply Bag to take the temporary Labourer'."""
    t = Table(3)
    assert t.game.why_not({"type": "hire_temporary", "player": 0}) == \
        "Ann has no train, so cannot hire the temporary labourer."
    t.give_train(0, 6)  # Padarn comes with 1 coal; the temporary labourer costs 2
    assert t.game.why_not({"type": "hire_temporary", "player": 0}) == \
        "Ann needs 2 coal to hire the temporary labourer."
    t.give(0, coal=1)
    bag = t.state.bag["coal"]
    events = t.act("hire_temporary")
    assert t.of(events, "temporary_labourer_hired") == [{"type": "temporary_labourer_hired", "player": 0, "coal": 2}]
    assert t.state.bag["coal"] == bag + 2 and t.state.players[0].coal == 0
    assert t.state.players[0].labourers == 3
    t.place(("A", 1), ("A", 2), ("A", 3), ("C", 1), ("F", 1), ("F", 2), ("G", 1))
    assert t.waiting.kind != "place"


def test_temporary_labourer_not_after_first_placement() -> None:
    t = Table(3)
    t.give_train(1, 1)
    t.place(("A", 1), ("A", 2))
    t.place(("A", 3))
    assert t.waiting.player == 0
    t.place(("C", 1))
    assert t.game.why_not({"type": "hire_temporary", "player": 1}) == \
        "The temporary labourer is hired before the first placement of the round."


def test_temporary_labourer_returns_to_pub_others_to_supply() -> None:
    """'return Labourers to each player's personal supply, except that temporary Labourers ... are returned to
    the Pub when used.'"""
    t = Table(2)
    t.give_train(0, 5)
    t.act("hire_temporary")
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.finish_round()
    p = t.state.players[0]
    assert (p.labourers, p.temporary_in_pub) == (2, True)


def test_resolution_order_a_to_g_and_by_space_number() -> None:
    """'Action Areas are resolved in order A through G. Within each Action Area resolve the actions in numerical
    order one-by-one from space [1].' Two labourers in one area act twice."""
    t = Table(3)
    t.place(("G", 1), ("C", 1), ("A", 2), ("A", 1), ("F", 2), ("F", 1))
    seen = []
    while t.state.phase == "actions":
        d = t.waiting
        if d.player is not None and d.kind != "contracts":
            seen.append((d.area, d.space, d.player))
        t.step()
    assert [s[:2] for s in seen] == [("A", 1), ("A", 2), ("C", 1), ("F", 1), ("F", 2), ("G", 1)]
    assert [s[2] for s in seen] == [0, 2, 1, 2, 1, 0]


def test_fog_blocks_excavation_and_lay_track() -> None:
    """'Fog = No Excavation B or Lay Track D actions can be performed this round ... Labourers cannot be placed
    there.'"""
    t = Table(3, office=(1, 7, 26))  # middle and lowest discs: fog, fog
    t.place(*[("G", i) for i in range(1, 7)])
    t.finish_round()  # round 2: the middle disc (fog) is now the weather
    assert t.state.weather[0] == "fog"
    assert t.game.why_not({"type": "place", "player": 0, "area": "B", "space": 1}) == \
        "Fog: no labourers on Excavation this round."
    assert t.game.why_not({"type": "place", "player": 0, "area": "D", "space": 2}) == \
        "Fog: no labourers on Lay Track this round."
    assert all(a["area"] not in "BD" for a in t.game.legal_actions() if a["type"] == "place")


def test_thin_fog_option_blocks_only_some_spaces() -> None:
    """Rule option fog_blocks=1 (the 'thin fog' house rule): only space 1 of B and of D is blocked."""
    t = Table(3, office=(1, 7, 26), options=Options(fog_blocks=1))
    t.place(*[("G", i) for i in range(1, 7)])
    t.finish_round()
    assert t.game.why_not({"type": "place", "player": 0, "area": "B", "space": 1}) is not None
    assert t.game.why_not({"type": "place", "player": 0, "area": "B", "space": 2}) is None
    assert t.game.why_not({"type": "place", "player": 0, "area": "D", "space": 2}) is None


def test_contract_window_in_turn_order_only_that_letter() -> None:
    """'Before the first action is resolved for an Action Area ... In clockwise order beginning with the Start
    Player, each player may play one or more Contract cards that have the current Action Area shown'."""
    t = Table(3)
    t.hand(2, 20, 23)  # letter A
    t.hand(0, 22)  # letter A
    t.hand(1, 11)  # letter C: not before A
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5), ("G", 6))
    d = t.waiting
    assert (d.kind, d.player, d.area) == ("contracts", 0, "A")
    assert t.game.why_not({"type": "play_contract", "player": 0, "contract": 11}) == \
        "Ann does not hold contract 11 unplayed."
    t.act("pass")
    assert (t.waiting.kind, t.waiting.player) == ("contracts", 2)  # Bob holds no A card: skipped
    assert t.game.why_not({"type": "play_contract", "player": 2, "contract": 11}) is not None
    t.act("play_contract", contract=20)
    t.act("take_cubes", iron=2, stone=0, coal=0)
    assert (t.waiting.kind, t.waiting.player) == ("contracts", 2)  # may play more
    t.act("play_contract", contract=23)
    t.act("take_cubes", iron=1, stone=0, coal=1)
    assert t.state.players[2].played == [20, 23]
    d = t.waiting  # nobody on A or B: next is the window before C, where Bob's contract 11 belongs
    assert (d.kind, d.area, d.player) == ("contracts", "C", 1)


def test_card_effects_last_the_round() -> None:
    """'Card effects persist until the end of the current round.' Contract 1: lay track at rate +1 this round."""
    t = Table(3, route=[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    t.hand(0, 1)
    for track in t.state.route[:6]:  # excavated already
        t.state.rubble_supply += track.rubble
        track.rubble = 0
    t.give(0, steel=6)
    t.place(("D", 1), ("G", 1), ("G", 2), ("D", 2), ("G", 3), ("G", 4))
    t.run_to("contracts", area="D")
    t.act("play_contract", contract=1)
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert len(t.of(events, "track_laid")) == 3  # rate 2 + 1
    t.run_to("lay_track")
    assert len(t.of(t.act("lay_track"), "track_laid")) == 3
    t.finish_round()
    assert t.state.active == []
