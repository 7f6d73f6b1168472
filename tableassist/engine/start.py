"""Game setup by player count: stations, the shuffled route with its rubble, action spaces, contracts and the
first weather forecast, the engine shed, stock yard and bag, work rates, players' pieces."""

from __future__ import annotations

from tableassist.engine import chance
from tableassist.engine.core import Ctx, Flow
from tableassist.engine.decision import Action
from tableassist.engine.state import GOODS, PlayerState, SiteState, StationState, TrackState


def init_state(ctx: Ctx) -> None:
    """Everything that needs no chance outcome."""
    s, comps, n = ctx.state, ctx.comps, ctx.n
    raw = comps.raw
    s.players = [PlayerState(name=name, colour=colour, markers=raw["players"]["ownership_markers"],
                             labourers=raw["players"]["labourers_in_supply"])
                 for name, colour in zip(ctx.setup.players, ctx.setup.player_colours, strict=True)]
    s.stations = [
        StationState(id=st.id, name=st.name, number=st.number, surveyor_vp=st.surveyor_vp,
                     excavation=[SiteState(kind="excavation", vp=e.vp, rubble=e.rubble) for e in st.excavation],
                     building=[SiteState(kind="building", vp=b.vp, cost=dict(b.cost)) for b in st.building])
        for st in comps.stations_for(n)
    ]
    for area in "ABCDEFG":
        s.spaces[area] = comps.action_spaces(area, n) or 0
        s.placed[area] = [None] * s.spaces[area]
    s.excavation_track = comps.excavation_rates
    s.lay_track_track = comps.lay_track_rates
    start = raw["work_rate_tracks"].get("start_index", 1)
    s.excavation_index = min(start, len(s.excavation_track) - 1)
    s.lay_index = min(start, len(s.lay_track_track) - 1)
    s.event_kinds = comps.event_track
    s.event_track = [False] * len(s.event_kinds)
    s.weather_supply = dict(raw["pieces"]["weather_discs"])
    pieces = raw["pieces"]
    s.steel_supply = pieces["steel"]
    s.bag = {"iron": raw["bag"]["iron"][n - 1], "stone": raw["bag"]["stone"][n - 1], "coal": 0,
             "event": raw["bag"]["event"][n - 1]}
    s.box = {"event": pieces["event"] - s.bag["event"]}
    s.deck = set(comps.contracts_for(n))
    s.start_player = s.round_start_player = 0


def _route(ctx: Ctx) -> Flow[None]:
    s, comps = ctx.state, ctx.comps
    stations = comps.stations_for(ctx.n)
    count = sum(st.tracks_before for st in stations)
    cards = {t.id: t for t in comps.track_cards}

    def why_not(action: Action) -> str | None:
        tracks = action.get("tracks")
        if not isinstance(tracks, list) or len(tracks) != count:
            return f"The route needs {count} track cards."
        if len(set(tracks)) != count or any(t not in cards for t in tracks):
            return f"The route needs {count} different track cards out of {sorted(cards)}."
        return None

    action = yield ctx.decide("route", None, f"Shuffle the track cards and lay {count} along the route", ("route",),
                              None, why_not, count=count)
    order = list(action["tracks"])
    i = 0
    for station_index, st in enumerate(stations):
        for _ in range(st.tracks_before):
            card = cards[order[i]]
            s.route.append(TrackState(card=card.id, rubble=card.rubble, vp=card.vp, before=station_index))
            i += 1
    ctx.dig_order = []
    for station_index, station in enumerate(s.stations):
        for t in s.route:
            if t.before == station_index:
                ctx.dig_order.append((t, -1, t.card))
        for site_index, site in enumerate(station.excavation):
            ctx.dig_order.append((site, station_index, site_index))
    on_route = sum(space.rubble for space, _, _ in ctx.dig_order)
    s.rubble_supply = comps.raw["pieces"]["rubble"] - on_route
    ctx.emit("route_laid", tracks=[{"card": t.card, "rubble": t.rubble, "before": s.stations[t.before].id}
                                   for t in s.route])


def _engine_shed(ctx: Ctx) -> Flow[None]:
    s, comps = ctx.state, ctx.comps
    if ctx.solo:
        train = ctx.setup.solo_train
        assert train is not None
        s.engine_shed = {train: comps.trains[train].coal}
        s.set_aside = None
    else:
        numbers = sorted(comps.trains)
        shed_size = comps.raw["trains"]["engine_shed"]

        def why_not(action: Action) -> str | None:
            trains, aside = action.get("trains"), action.get("set_aside")
            if not isinstance(trains, list) or len(trains) != shed_size or len(set(trains)) != shed_size:
                return f"The engine shed holds {shed_size} different trains."
            if sorted([*trains, aside]) != numbers:
                return "The engine shed and the train set aside must be all the train cards, each once."
            return None

        action = yield ctx.decide("engine_shed", None, "Shuffle the trains: six to the engine shed, one set aside",
                                  ("engine_shed",), None, why_not)
        s.engine_shed = {t: comps.trains[t].coal for t in action["trains"]}
        s.set_aside = action["set_aside"]
        ctx.emit("engine_shed_filled", trains=list(action["trains"]), set_aside=s.set_aside)
    on_trains = sum(s.engine_shed.values())
    total_coal = comps.raw["pieces"]["coal"]
    if ctx.solo:
        s.bag["coal"] = comps.raw["bag"]["solo_coal"] - on_trains
        s.box["coal"] = total_coal - comps.raw["bag"]["solo_coal"]
        for kind in ("iron", "stone"):
            s.box[kind] = comps.raw["pieces"][kind] - s.bag[kind]
    else:
        start = comps.raw["stock_yard"]["start"]
        s.stock_yard = {k: start[k] for k in GOODS}
        s.bag["coal"] = total_coal - on_trains - start["coal"]
        s.box["coal"] = 0
        for kind in ("iron", "stone"):
            s.box[kind] = comps.raw["pieces"][kind] - s.bag[kind] - start[kind]


def setup_game(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    init_state(ctx)
    yield from _route(ctx)
    for position in range(3):
        card = yield from chance.reveal(ctx, "site office")
        s.site_office[position] = card
        ctx.emit("contract_revealed", contract=card, position=position + 1, why="site office")
    for slot, position in ((1, 1), (2, 2)):
        card = s.site_office[position]
        if card is not None:
            back = ctx.comps.contracts[card].back
            s.weather[slot] = back
            s.weather_supply[back] -= 1
    ctx.emit("weather_changed", current=s.weather[0], middle=s.weather[1], lowest=s.weather[2], weather=None)
    yield from _engine_shed(ctx)
    if ctx.solo:
        yield from chance.solo_stock_yard(ctx)
    ctx.emit("setup_done", players=[p.name for p in s.players], stations=[st.id for st in s.stations],
             tracks=len(s.route))
