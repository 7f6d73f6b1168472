"""What must hold after every action: pieces conserved, hard limits kept, labourers accounted for.

`violations(game)` returns plain sentences (empty when all is well); `tableassist simulate` and the
property tests call it after every action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tableassist.engine.state import GOODS

if TYPE_CHECKING:
    from tableassist.engine.game import Game


def violations(game: Game) -> list[str]:
    s = game.state
    comps = game.setup.comps
    pieces = comps.raw["pieces"]
    out: list[str] = []
    if s.phase == "setup":
        return out
    players = s.players
    for kind in GOODS:
        on_trains = sum(s.engine_shed.values()) if kind == "coal" else 0
        total = s.bag[kind] + s.stock_yard[kind] + sum(p.goods(kind) for p in players) + s.box[kind] + on_trains
        if total != pieces[kind]:
            out.append(f"{kind}: {total} cubes accounted for, not {pieces[kind]}")
    events = s.bag["event"] + sum(s.event_track) + s.box["event"] + s.events_pending
    if events != pieces["event"]:
        out.append(f"event cubes: {events} accounted for, not {pieces['event']}")
    steel = s.steel_supply + sum(p.steel for p in players)
    if steel != pieces["steel"]:
        out.append(f"steel: {steel} bars accounted for, not {pieces['steel']}")
    rubble = (s.rubble_supply + sum(p.rubble for p in players) + sum(t.rubble for t in s.route)
              + sum(site.rubble for st in s.stations for site in st.excavation))
    if rubble != pieces["rubble"]:
        out.append(f"rubble: {rubble} cubes accounted for, not {pieces['rubble']}")
    for kind, n in [*s.bag.items(), *s.stock_yard.items(), ("steel supply", s.steel_supply),
                    ("rubble supply", s.rubble_supply)]:
        if n < 0:
            out.append(f"{kind}: negative count {n}")
    limit = comps.raw["players"]["ownership_markers"]
    for i, p in enumerate(players):
        for kind in (*GOODS, "rubble", "steel"):
            if p.goods(kind) < 0:
                out.append(f"{p.name}: negative {kind}")
        on_board = len(p.sites) + len(p.tracks)
        if p.markers < 0 or p.markers + on_board != limit:
            out.append(f"{p.name}: {p.markers} markers left and {on_board} on the board, not {limit}")
        owned_sites = sum(1 for st in s.stations for site in [*st.excavation, *st.building] if site.owner == i)
        owned_tracks = sum(1 for t in s.route if t.laid_by == i)
        if owned_sites != len(p.sites) or owned_tracks != len(p.tracks):
            out.append(f"{p.name}: markers on the board do not match the player's record")
        placed = sum(1 for area in s.placed.values() for who in area if who == i)
        pawns = p.labourers + placed + (1 if p.temporary_in_pub else 0)
        if pawns != 3:
            out.append(f"{p.name}: {pawns} labourers accounted for (supply, spaces, pub), not 3")
        if not 0 <= p.surveyor < len(s.stations):
            out.append(f"{p.name}: surveyor off the route")
    for area in "ABCDEF":
        if len(s.placed[area]) != s.spaces[area]:
            out.append(f"area {area}: {len(s.placed[area])} spaces in use, not {s.spaces[area]}")
    spare_game_markers = pieces["game_markers"] - 2  # two sit on the work-rate tracks
    if sum(1 for st in s.stations if st.completed_by_event) > spare_game_markers:
        out.append(f"more stations completed by events than the {spare_game_markers} spare game markers")
    if not 0 <= s.excavation_index < len(s.excavation_track):
        out.append("excavation work rate off its track")
    if not 0 <= s.lay_index < len(s.lay_track_track):
        out.append("lay-track work rate off its track")
    discs = dict(s.weather_supply)
    for w in s.weather:
        if w is not None:
            discs[w] = discs.get(w, 0) + 1
    if discs != pieces["weather_discs"] or any(v < 0 for v in s.weather_supply.values()):
        out.append(f"weather discs: {discs}, not {pieces['weather_discs']}")
    cards = [*s.deck, *s.discards, *s.drawn, *(c for c in s.site_office if c is not None),
             *(c for p in players for c in [*p.hand, *p.played])]
    expected = sorted(comps.contracts_for(len(players)))
    if sorted(cards) != expected:
        out.append("contracts: the deck, discards, site office and players do not hold each card exactly once")
    trains = [*s.engine_shed, *(p.train for p in players if p.train is not None), *s.lost_trains]
    if s.set_aside is not None:
        trains.append(s.set_aside)
    expected_trains = [game.setup.solo_train] if len(players) == 1 else sorted(comps.trains)
    if sorted(t for t in trains if t is not None) != expected_trains:
        out.append(f"trains: {sorted(trains)} accounted for, not {expected_trains}")
    return out
