"""The route and the pieces on it: rubble in strict order up the mountain, laying track, station sites,
ownership markers (16, a hard limit) and the immediate end when markers run out (2 players, solo)."""

from __future__ import annotations

from tableassist.engine.core import Ctx, GameEnds
from tableassist.engine.state import SiteState, TrackState


def rubble_left(ctx: Ctx) -> int:
    return sum(space.rubble for space, _, _ in ctx.dig_order)


def all_track_laid(ctx: Ctx) -> bool:
    return all(t.laid for t in ctx.state.route)


def _source(space: object, station: int, index: int, ctx: Ctx) -> dict[str, object]:
    if isinstance(space, TrackState):
        return {"track": space.card}
    return {"station": ctx.state.stations[station].id, "site": index}


def place_marker(ctx: Ctx, player: int) -> bool:
    """Take one ownership marker from the player's supply; False when none are left."""
    p = ctx.state.players[player]
    if p.markers <= 0:
        return False
    p.markers -= 1
    return True


def check_markers_end(ctx: Ctx) -> None:
    """Solo: the 16th marker ends the game at once; 2 players: when neither has a marker left.

    Only while the last track has not been laid (a laid last track ends the game with the round).
    """
    s = ctx.state
    if all_track_laid(ctx) or ctx.n > 2:
        return
    if all(p.markers == 0 for p in s.players):
        ctx.emit("game_end_triggered", by="markers", last_round=s.round)
        raise GameEnds


def _complete_excavation_site(ctx: Ctx, player: int | None, station: int, index: int, site: SiteState) -> None:
    owner = None
    if player is not None and place_marker(ctx, player):
        site.owner = owner = player
        ctx.state.players[player].sites.append((ctx.state.stations[station].id, "excavation", index))
    ctx.emit("site_completed", player=owner, station=ctx.state.stations[station].id, site=index,
             kind="excavation", vp=site.vp if owner is not None else 0)


def take_rubble(ctx: Ctx, player: int, n: int) -> int:
    """A player excavates n cubes in strict order; the last cube of a station site earns its marker."""
    taken = 0
    p = ctx.state.players[player]
    for space, station, index in ctx.dig_order:
        if taken >= n:
            break
        if space.rubble == 0:
            continue
        k = min(space.rubble, n - taken)
        space.rubble -= k
        p.rubble += k
        taken += k
        ctx.emit("rubble_taken", player=player, source=_source(space, station, index, ctx), n=k)
        if space.rubble == 0 and isinstance(space, SiteState):
            _complete_excavation_site(ctx, player, station, index, space)
    return taken


def excavate_next_space(ctx: Ctx, player: int) -> int:
    """Contract 3: take all the rubble of the next space that has any."""
    for space, _station, _index in ctx.dig_order:
        if space.rubble:
            return take_rubble(ctx, player, space.rubble)
    return 0


def event_excavate(ctx: Ctx, spaces: int) -> list[dict[str, object]]:
    """The excavation event: clear `spaces` rubble spaces from the start of the route; nobody gains or scores."""
    cleared: list[dict[str, object]] = []
    for space, station, index in ctx.dig_order:
        if len(cleared) >= spaces:
            break
        if space.rubble == 0:
            continue
        k = space.rubble
        space.rubble = 0
        ctx.state.rubble_supply += k
        source = _source(space, station, index, ctx)
        ctx.emit("rubble_taken", player=None, source=source, n=k)
        cleared.append({**source, "n": k})
    return cleared


def next_unlaid(ctx: Ctx) -> TrackState | None:
    for t in ctx.state.route:
        if not t.laid:
            return t
    return None


def layable(ctx: Ctx) -> int:
    """Fully excavated track cards that can be laid next, in order from Llanberis."""
    count = 0
    for t in ctx.state.route:
        if t.laid:
            continue
        if t.rubble:
            break
        count += 1
    return count


def lay_track(ctx: Ctx, player: int, n: int) -> int:
    """A player lays up to n tracks: one steel and one ownership marker each, on excavated cards in order."""
    s = ctx.state
    p = s.players[player]
    laid = 0
    while laid < n and p.steel > 0 and p.markers > 0:
        t = next_unlaid(ctx)
        if t is None or t.rubble:
            break
        p.steel -= 1
        s.steel_supply += 1
        place_marker(ctx, player)
        t.laid, t.laid_by = True, player
        p.tracks.append(t.card)
        laid += 1
        ctx.emit("track_laid", player=player, card=t.card, position=s.route.index(t) + 1, vp=t.vp)
    return laid


def event_lay_track(ctx: Ctx, n: int) -> list[int]:
    """The lay-track event: turn over n cards from the start of the route, clearing their rubble; nobody scores."""
    s = ctx.state
    cards = []
    for _ in range(n):
        t = next_unlaid(ctx)
        if t is None:
            break
        if t.rubble:
            s.rubble_supply += t.rubble
            ctx.emit("rubble_taken", player=None, source={"track": t.card}, n=t.rubble)
            t.rubble = 0
        t.laid = True
        cards.append(t.card)
        ctx.emit("track_laid", player=None, card=t.card, position=s.route.index(t) + 1, vp=0)
    return cards


def excavated_up_to(ctx: Ctx, station: int) -> bool:
    return all(t.rubble == 0 for t in ctx.state.route if t.before <= station)


def buildable_stations(ctx: Ctx) -> list[int]:
    """Stations whose track cards are all excavated, not completed by an event, with a free building site."""
    out = []
    for i, st in enumerate(ctx.state.stations):
        if i == 0 or st.completed_by_event:
            continue
        if not excavated_up_to(ctx, i):
            break
        if any(site.owner is None for site in st.building):
            out.append(i)
    return out


WORK_RATE_MARKERS = 2  # game markers on the two work-rate tracks


def game_markers_left(ctx: Ctx) -> int:
    """Spare game markers ('Put the other 6 Game markers with the general supply') not yet on a station."""
    spare = ctx.comps.raw["pieces"]["game_markers"] - WORK_RATE_MARKERS
    return spare - sum(1 for st in ctx.state.stations if st.completed_by_event)


def complete_station_by_event(ctx: Ctx) -> str | None:
    """Game marker on the first station with an unbuilt building site; its rubble goes to the supply.
    None when every station is complete or no spare game marker is left."""
    s = ctx.state
    if game_markers_left(ctx) <= 0:
        return None
    for i, st in enumerate(s.stations):
        if i == 0 or st.completed_by_event:
            continue
        if all(site.owner is not None for site in st.building):
            continue
        st.completed_by_event = True
        for index, site in enumerate(st.excavation):
            if site.rubble:
                s.rubble_supply += site.rubble
                ctx.emit("rubble_taken", player=None, source={"station": st.id, "site": index}, n=site.rubble)
                site.rubble = 0
        ctx.emit("station_completed_by_event", station=st.id)
        return st.id
    return None
