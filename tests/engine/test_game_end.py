"""End of game, scoring hand-off, tie rules, and the solo series (English seed, 'End of Game', 'Winning',
'Solitaire Play')."""

from __future__ import annotations

import pytest

from tableassist.engine import Options

from .helpers import Table, pay


def own(t: Table, player: int, k: int) -> None:
    """Give a player k ownership markers on the board: building sites, then excavation sites, then tracks."""
    s = t.state
    p = s.players[player]
    spots = []
    for st in s.stations:
        spots += [(st, "building", i, site) for i, site in enumerate(st.building) if site.owner is None]
    for st in s.stations:
        spots += [(st, "excavation", i, site) for i, site in enumerate(st.excavation) if site.owner is None]
    for st, kind, i, site in spots[:k]:
        s.rubble_supply += site.rubble
        site.rubble, site.owner = 0, player
        p.sites.append((st.id, kind, i))
        p.markers -= 1
    for track in s.route:
        if len(spots) >= k or p.markers == 16 - k:
            break
        if not track.laid:
            s.rubble_supply += track.rubble
            track.rubble, track.laid, track.laid_by = 0, True, player
            p.tracks.append(track.card)
            p.markers -= 1
    t.refresh()


def lay_all_but(t: Table, left: int) -> None:
    for track in t.state.route[:-left]:
        t.state.rubble_supply += track.rubble
        track.rubble, track.laid = 0, True
    t.refresh()


def test_last_track_by_a_player_ends_after_this_round() -> None:
    """'If a player laid the last track, finish the current round and proceed to Scoring.'"""
    t = Table(3)
    lay_all_but(t, 1)
    last = t.state.route[-1]
    t.state.rubble_supply += last.rubble
    last.rubble = 0
    for site, _, _ in [(s, 0, 0) for st in t.state.stations for s in st.excavation]:
        t.state.rubble_supply += site.rubble
        site.rubble = 0
    t.give(0, steel=1)
    t.place(("D", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert t.of(events, "game_end_triggered") == [{"type": "game_end_triggered", "by": "player", "player": 0,
                                                   "last_round": 1}]
    events = t.run(lambda d: False)
    assert t.game.finished and t.state.round == 1
    over = t.of(events, "game_over")[0]
    assert [p["name"] for p in over["scores"]["players"]] == ["Ann", "Bob", "Cy"]
    assert "track_cards.vp" in over["placeholders"]
    assert t.game.final_scores().players[0].breakdown["tracks"] == last.vp


def test_last_track_by_an_event_plays_one_more_round() -> None:
    """'If the last track is laid as the result of an Event, finish the current round, then play one more round
    and proceed to Scoring thereafter.'"""
    from .test_end_of_round import fill_event_track_before

    t = Table(3)
    lay_all_but(t, 1)
    fill_event_track_before(t, "lay_track")
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    events = t.apply({"type": "draw", "iron": 8, "stone": 0, "coal": 0, "event": 1})
    assert t.of(events, "game_end_triggered") == [{"type": "game_end_triggered", "by": "event", "last_round": 2}]
    t.run(lambda d: d.kind == "place")
    assert t.state.round == 2 and not t.game.finished
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: False)
    assert t.game.finished and t.state.round == 2


def test_two_players_without_markers_end_immediately() -> None:
    """'in a 2-player game, as long as the last track has not yet been laid, the game ends immediately if neither
    player has any Ownership Markers left.'"""
    t = Table(2)
    own(t, 0, 16)
    own(t, 1, 15)
    nxt = next(tr for tr in t.state.route if not tr.laid)
    t.state.rubble_supply += nxt.rubble
    nxt.rubble = 0
    t.give(1, steel=1)
    t.place(("G", 1), ("D", 1), ("G", 2), ("G", 3))
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert t.of(events, "game_end_triggered") == [{"type": "game_end_triggered", "by": "markers", "last_round": 1}]
    assert t.game.finished and t.of(events, "game_over")


def test_two_players_one_still_has_markers_plays_on() -> None:
    t = Table(2)
    own(t, 0, 16)
    t.place(("G", 1), ("G", 2), ("G", 3), ("G", 4))
    t.finish_round()
    assert not t.game.finished


def test_solo_16th_marker_ends_immediately() -> None:
    """Solo: 'If the last Track card in the route has not been placed, the game ends immediately after the last
    (16th) Ownership marker is placed.'"""
    t = Table(1)
    own(t, 0, 15)
    nxt = next(tr for tr in t.state.route if not tr.laid)
    t.state.rubble_supply += nxt.rubble
    nxt.rubble = 0
    t.give(0, steel=1)
    t.place(("D", 1), ("G", 1))
    t.run_to("lay_track")
    events = t.act("lay_track")
    assert t.game.finished and t.of(events, "game_over")


@pytest.mark.parametrize("train", range(1, 8))
def test_solo_series_one_train_per_game(train: int) -> None:
    """'you will be playing a series of 7 games each with a different starting Train card ... Only one Train card
    per game is available in the solo game.'"""
    t = Table(1, solo_train=train)
    coal = t.game.setup.comps.trains[train].coal
    assert t.state.engine_shed == {train: coal} and t.state.set_aside is None
    assert t.state.bag["coal"] + t.state.stock_yard["coal"] == 6 - coal


def test_solo_lost_train_cannot_be_bought_again() -> None:
    """'If you cannot maintain your train when the "Train maintenance is needed" event happens, you cannot buy
    another.'"""
    from .test_end_of_round import fill_event_track_before

    t = Table(1, solo_train=4)
    t.state.trains_available = True
    t.give_train(0, 4)
    fill_event_track_before(t, "maintenance")
    t.place(("G", 1), ("G", 2))
    t.run(lambda d: d.kind == "draw" and d.info["purpose"] == "restock")
    t.apply({"type": "draw", "iron": 5, "stone": 0, "coal": 0, "event": 1})
    t.act("return_train")
    assert t.state.lost_trains == [4] and t.state.engine_shed == {}
    t.run(lambda d: d.kind == "place")
    t.give(0, steel=2)
    t.place(("E", 1), ("G", 1))
    t.run_to("build")
    assert all(a["type"] != "buy_train" for a in t.game.legal_actions())


def test_solo_site_office_fully_replaced() -> None:
    """Solo, 'Check the Weather: Discard all Contract cards and deal out three new cards.'"""
    t = Table(1, office=(4, 7, 1))
    t.place(("G", 1), ("G", 2))
    t.finish_round()
    assert sorted(t.state.discards) == [1, 4, 7]
    assert all(c not in (1, 4, 7) for c in t.state.site_office)


@pytest.mark.parametrize(("tie_rule", "winners"), [("last_in_turn_order", ["Cy"]), ("shared", ["Ann", "Bob", "Cy"])])
def test_tie_rules(tie_rule: str, winners: list[str]) -> None:
    """English: 'In case of a tie, the tied player who was last in turn order during the final round wins.'
    German print / Spanish: all tied players win (rule option)."""
    t = Table(3, options=Options(tie_rule=tie_rule))
    assert t.game.estimate().winners == winners


def test_estimate_counts_sites_surveyor_and_contracts() -> None:
    """Live estimate ('score if the game ended now') goes through scoring: sites, surveyor, contracts."""
    t = Table(3)
    t.give(0, rubble=4)
    t.hand(0, 11)  # 4 rubble → 5
    t.state.players[0].surveyor = 2  # Waterfall: 2
    own(t, 0, 1)  # Two Viaducts 4 stone → 9
    score = t.game.estimate().players[0]
    assert score.breakdown == {"sites": 9, "tracks": 0, "surveyor": 2, "contracts": 5, "train": 0, "daffodils": 0}
    assert score.total == 16


def test_final_scores_only_at_the_end() -> None:
    t = Table(2)
    with pytest.raises(ValueError):
        t.game.final_scores()
    assert pay() == {"stone": 0, "steel": 0, "iron": 0, "rubble": 0}
