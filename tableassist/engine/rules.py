"""The round: placement, resolution A→G with contract windows, end of round (site office, weather, stock
yard and events), and the end of the game."""

from __future__ import annotations

from tableassist.engine import areas, board, chance, contracts, event_track, start
from tableassist.engine.core import Ctx, Flow, GameEnds
from tableassist.engine.decision import Action

AREAS = ("A", "B", "C", "D", "E", "F", "G")
AREA_NAMES = {"A": "Stock Yard", "B": "Excavation", "C": "Works", "D": "Lay Track", "E": "Build",
              "F": "Site Office", "G": "Surveyor"}
EXTRA_EXCAVATION, EXTRA_LAY_TRACK, EXTRA_BUILD = 3, 8, 10
PADARN = 6


def play(ctx: Ctx) -> Flow[None]:
    from tableassist.engine.holdings import table_score

    s = ctx.state
    yield from start.setup_game(ctx)
    try:
        while True:
            yield from play_round(ctx)
            if s.last_round is not None and s.round >= s.last_round:
                break
    except GameEnds:
        pass
    s.finished = True
    s.phase = "over"
    ctx.emit("game_over", scores=table_score(ctx).to_json(), placeholders=list(ctx.comps.placeholders))


def play_round(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    s.round += 1
    s.round_start_player = s.start_player
    ctx.emit("round_started", round=s.round, start_player=s.start_player)
    s.phase = "placement"
    ctx.emit("phase_changed", phase="placement")
    if s.fog:
        blocked = {a: [i for i in range(1, s.spaces[a] + 1) if contracts.fog_blocked(ctx, a, i)] for a in "BD"}
        ctx.emit("fog", blocked=blocked)
    yield from placement(ctx)
    s.phase = "actions"
    for area in AREAS:
        s.area = area
        ctx.emit("phase_changed", phase="actions", area=area)
        yield from contracts.window(ctx, area)
        yield from resolve_area(ctx, area)
    s.area = None
    yield from end_of_round(ctx)


# --- placement -----------------------------------------------------------------------------------------------

def hire_problem(ctx: Ctx, player: int, placed_any: bool) -> str | None:
    p = ctx.state.players[player]
    if p.train is None:
        return f"{p.name} has no train, so cannot hire the temporary labourer."
    if not p.temporary_in_pub:
        return f"{p.name} has already hired the temporary labourer this round."
    if placed_any:
        return "The temporary labourer is hired before the first placement of the round."
    cost = ctx.comps.trains[p.train].temp_labourer_coal
    if p.coal < cost:
        return f"{p.name} needs {cost} coal to hire the temporary labourer."
    return None


def place_problem(ctx: Ctx, action: Action) -> str | None:
    s = ctx.state
    area, space = action.get("area"), action.get("space")
    if area not in AREAS:
        return f"There is no action area {area}."
    if area == "G":
        return None if space is None or space == len(s.placed["G"]) + 1 else "Surveyor labourers stand in order."
    if not isinstance(space, int) or not 1 <= space <= s.spaces[area]:
        return f"Area {area} has spaces 1 to {s.spaces[area]}."
    if contracts.fog_blocked(ctx, area, space):
        return f"Fog: no labourers on {AREA_NAMES[area]} this round."
    if s.placed[area][space - 1] is not None:
        return "This space is taken."
    return None


def placement(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    placed_any = [False] * ctx.n
    order = ctx.turn_order()
    while any(s.players[p].labourers for p in order):
        for player in order:
            p = s.players[player]
            if not p.labourers:
                continue
            while True:
                def options(player: int = player) -> list[Action]:
                    out: list[Action] = []
                    if hire_problem(ctx, player, placed_any[player]) is None:
                        out.append({"type": "hire_temporary", "player": player})
                    return out + [{"type": "place", "player": player, "area": a, "space": i}
                                  for a, i in contracts.open_spaces(ctx)]

                def why_not(action: Action, player: int = player) -> str | None:
                    if action["type"] == "hire_temporary":
                        return hire_problem(ctx, player, placed_any[player])
                    return place_problem(ctx, action)

                action = yield ctx.decide("place", player, f"{p.name}: place a labourer",
                                          ("place", "hire_temporary"), options, why_not)
                if action["type"] == "hire_temporary":
                    assert p.train is not None
                    cost = ctx.comps.trains[p.train].temp_labourer_coal
                    p.coal -= cost
                    s.bag["coal"] += cost
                    p.temporary_in_pub = False
                    p.labourers += 1
                    ctx.emit("temporary_labourer_hired", player=player, coal=cost)
                    continue
                area = action["area"]
                if area == "G":
                    s.placed["G"].append(player)
                    space = len(s.placed["G"])
                else:
                    space = action["space"]
                    s.placed[area][space - 1] = player
                p.labourers -= 1
                placed_any[player] = True
                ctx.emit("labourer_placed", player=player, area=area, space=space)
                break


# --- resolution ----------------------------------------------------------------------------------------------

def resolve_area(ctx: Ctx, area: str) -> Flow[None]:
    s = ctx.state
    for index in range(len(s.placed[area])):
        player = s.placed[area][index]
        if player is None:
            continue
        space = index + 1
        if area == "A":
            yield from areas.stock_yard(ctx, player, space)
        elif area == "B" and s.extra_build_open:
            yield from areas.build(ctx, player, "B", space)
        elif area == "B":
            yield from areas.excavate(ctx, player, space)
        elif area == "C":
            yield from areas.works(ctx, player, space)
        elif area == "D":
            yield from areas.lay_track(ctx, player, space)
        elif area == "E":
            yield from areas.build(ctx, player, "E", space)
        elif area == "F":
            yield from areas.site_office(ctx, player, space)
        else:
            yield from areas.survey(ctx, player, space)
        board.check_markers_end(ctx)
    yield from after_all(ctx, area)


def _fog_stops(ctx: Ctx, area: str) -> bool:
    """Fog that blocks every space of B/D also stops the contracts' extra excavation / lay track."""
    return all(contracts.fog_blocked(ctx, area, i) for i in range(1, ctx.state.spaces[area] + 1))


def _holders(ctx: Ctx, card: int) -> list[int]:
    return [p for p in ctx.turn_order() if card in ctx.state.active_for(p)]


def after_all(ctx: Ctx, area: str) -> Flow[None]:
    s = ctx.state
    if area == "B" and not s.extra_build_open and not _fog_stops(ctx, "B"):
        for player in _holders(ctx, EXTRA_EXCAVATION):
            yield from areas.extra_excavation(ctx, player)
            board.check_markers_end(ctx)
    elif area == "D" and not _fog_stops(ctx, "D"):
        for player in _holders(ctx, EXTRA_LAY_TRACK):
            yield from areas.lay_track(ctx, player, None, kind="extra_lay_track", optional=True)
            board.check_markers_end(ctx)
    elif area == "E":
        for player in _holders(ctx, EXTRA_BUILD):
            yield from areas.build(ctx, player, "E", None, kind="extra_build", optional=True)
            board.check_markers_end(ctx)
        if s.built_this_round:
            for player in ctx.turn_order():
                if s.players[player].train == PADARN:
                    yield from areas.build(ctx, player, "E", None, kind="extra_build", optional=True)
                    board.check_markers_end(ctx)


# --- end of round --------------------------------------------------------------------------------------------

def end_of_round(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    s.phase = "end_of_round"
    ctx.emit("phase_changed", phase="end_of_round")
    for p in s.players:
        p.labourers = ctx.comps.raw["players"]["labourers_in_supply"]
        p.temporary_in_pub = True
    for area in AREAS:
        s.placed[area] = [None] * s.spaces[area]
    s.active, s.contracts_closed, s.start_locked, s.built_this_round = [], False, False, False
    ctx.emit("labourers_returned")
    yield from restock_site_office(ctx)
    yield from check_weather(ctx)
    yield from event_track.restock(ctx)
    if not s.extra_build_open and board.rubble_left(ctx) == 0:
        open_extra_build_area(ctx)


def open_extra_build_area(ctx: Ctx) -> None:
    """The set-aside train card covers Excavation: 'provides an extra Build action space in position B' (one
    space in the English, German and Spanish texts; the component data may say otherwise for a real card)."""
    s = ctx.state
    s.extra_build_open = True
    s.spaces["B"] = ctx.comps.raw["trains"].get("extra_build_spaces", 1)
    s.placed["B"] = [None] * s.spaces["B"]
    ctx.emit("extra_build_area_opened", train=s.set_aside)


def restock_site_office(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    if ctx.solo:
        gone = [c for c in s.site_office if c is not None]
    else:
        gone = [s.site_office[0]] if s.site_office[0] is not None else []
    for gone_card in gone:
        s.discards.append(gone_card)
        ctx.emit("contract_discarded", contract=gone_card, why="site office")
    kept = [c for c in s.site_office if c is not None and c not in gone]
    s.site_office = [*kept, None, None, None][:3]
    for position in range(len(kept), 3):
        card = yield from chance.reveal(ctx, "site office")
        if card is None:
            break
        s.site_office[position] = card
        ctx.emit("contract_revealed", contract=card, position=position + 1, why="site office")
    ctx.emit("site_office_restocked", cards=list(s.site_office))


def _move_rate(ctx: Ctx, track: str, by: int, weather: str) -> None:
    s = ctx.state
    if track == "excavation":
        old = s.excavation_index
        s.excavation_index = max(0, min(len(s.excavation_track) - 1, old + by))
        before, after = s.excavation_track[old], s.excavation_rate
    else:
        old = s.lay_index
        s.lay_index = max(0, min(len(s.lay_track_track) - 1, old + by))
        before, after = s.lay_track_track[old], s.lay_rate
    if before != after:
        ctx.emit("work_rate_changed", track=track, **{"from": before, "to": after}, weather=weather)


def check_weather(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    if s.weather[0] is not None:
        s.weather_supply[s.weather[0]] += 1
    s.weather = [s.weather[1], s.weather[2], None]
    back = yield from chance.observe_back(ctx)
    if back is not None:
        s.weather_supply[back] -= 1
        s.weather[2] = back
    current = s.weather[0]
    ctx.emit("weather_changed", current=current, middle=s.weather[1], lowest=s.weather[2], weather=current)
    if current is not None:
        effect = ctx.comps.raw["weather"]["effects"][current]
        _move_rate(ctx, "excavation", effect["excavation"], current)
        _move_rate(ctx, "lay_track", effect["lay_track"], current)
