"""Stock-yard restock from the bag and the event track: each drawn event cube goes on the next space and is
resolved before the next is placed; spaces 4, 7 and 10 send cubes back to the bag (so 8–10 loop)."""

from __future__ import annotations

from tableassist.engine import areas, board, chance
from tableassist.engine.core import Ctx, Flow
from tableassist.engine.decision import Action
from tableassist.engine.state import GOODS

MAINTENANCE_CARDS = (16, 21)


def restock(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    count = ctx.comps.raw["stock_yard"]["restock_per_round"][ctx.n - 1]
    drawn = yield from chance.draw(ctx, count, "restock")
    for kind in GOODS:
        s.stock_yard[kind] += drawn[kind]
    ctx.emit("stock_yard_restocked", **{k: drawn[k] for k in GOODS})
    s.events_pending = drawn["event"]
    while s.events_pending:
        s.events_pending -= 1
        yield from place_event_cube(ctx)


def place_event_cube(ctx: Ctx) -> Flow[None]:
    s = ctx.state
    occupied = [i for i, filled in enumerate(s.event_track) if filled]
    index = occupied[-1] + 1 if occupied else 0
    if index >= len(s.event_track):  # only with an override that never frees the last space
        index = len(s.event_track) - 1
    s.event_track[index] = True
    space, kind = index + 1, s.event_kinds[index]
    ctx.emit("event_cube_placed", space=space, kind=kind)
    yield from resolve(ctx, space, kind)
    back = [sp for sp in ctx.comps.event_returns.get(space, ()) if s.event_track[sp - 1]]
    for sp in back:
        s.event_track[sp - 1] = False
        s.bag["event"] += 1
    if back:
        ctx.emit("event_cubes_returned", spaces=back, n=len(back))


def _names(cards: list[int]) -> str:
    if not cards:
        return "no track left to lay"
    if len(cards) == 1:
        return f"track {cards[0]} laid"
    return f"tracks {', '.join(map(str, cards[:-1]))} and {cards[-1]} laid"


def resolve(ctx: Ctx, space: int, kind: str) -> Flow[None]:
    s = ctx.state
    if kind == "excavate":
        cleared = board.event_excavate(ctx, s.excavation_rate)
        ctx.emit("event_resolved", space=space, kind=kind, cleared=cleared,
                 summary=f"{len(cleared)} rubble spaces cleared ({sum(int(str(c['n'])) for c in cleared)} rubble)")
    elif kind == "lay_track":
        cards = board.event_lay_track(ctx, s.lay_rate)
        ctx.emit("event_resolved", space=space, kind=kind, cards=cards, summary=_names(cards))
        if cards and board.all_track_laid(ctx) and s.end_trigger is None:
            s.end_trigger, s.last_round = "event", s.round + 1
            ctx.emit("game_end_triggered", by="event", last_round=s.last_round)
    elif kind == "complete_station":
        no_marker = board.game_markers_left(ctx) <= 0
        station = board.complete_station_by_event(ctx)
        if station:
            summary = f"{ctx.state.stations[s.station_index(station)].name} completed"
        else:
            summary = "no game marker left to complete a station" if no_marker else "every station is complete"
        ctx.emit("event_resolved", space=space, kind=kind, station=station, summary=summary)
    elif kind == "trains_available":
        s.trains_available = True
        ctx.emit("trains_available")
        ctx.emit("event_resolved", space=space, kind=kind, summary="trains may now be bought")
    elif kind == "maintenance":
        returned = yield from maintenance(ctx)
        ctx.emit("event_resolved", space=space, kind=kind, returned=returned,
                 summary=f"trains returned: {', '.join(map(str, returned))}" if returned else "every train maintained")
    else:  # an override with an unknown kind: nothing happens, but say so
        ctx.emit("event_resolved", space=space, kind=kind, summary="unknown event: nothing happens")


def maintenance(ctx: Ctx) -> Flow[list[int]]:
    """Each train owner pays 1 steel or discards contract 16/21, or returns the train. Returned trains are
    restocked with coal from the bag afterwards, lowest number first."""
    s = ctx.state
    returned: list[tuple[int, int]] = []
    for player in ctx.turn_order():
        p = s.players[player]
        if p.train is None:
            continue
        def options(player: int = player) -> list[Action]:
            p = s.players[player]
            out: list[Action] = [{"type": "maintain", "player": player, "pay": "steel"}] if p.steel else []
            out += [{"type": "maintain", "player": player, "pay": c} for c in MAINTENANCE_CARDS if c in p.hand]
            return [*out, {"type": "return_train", "player": player}]

        def why_not(action: Action, player: int = player) -> str | None:
            if action["type"] == "maintain" and action.get("pay") == "steel" and not s.players[player].steel:
                return f"{ctx.name(player)} has no steel bar to pay."
            if action["type"] == "maintain" and action.get("pay") in MAINTENANCE_CARDS and \
                    action.get("pay") not in s.players[player].hand:
                return f"{ctx.name(player)} does not hold contract {action.get('pay')}."
            return None

        action = yield ctx.decide("maintenance", player,
                                  f"{p.name}: maintain train {p.train} (1 steel or contract 16/21) or return it",
                                  ("maintain", "return_train"), options, why_not)
        if action["type"] == "maintain":
            paid = action["pay"]
            if paid == "steel":
                p.steel -= 1
                s.steel_supply += 1
            else:
                p.hand.remove(paid)
                s.discards.append(paid)
                ctx.emit("contract_discarded", contract=paid, why="train maintenance")
            ctx.emit("maintenance_paid", player=player, **{"with": paid})
        else:
            train = p.train
            areas.return_train(ctx, player, "maintenance", restock=False)
            returned.append((train, player))
    for train, player in sorted(returned):
        if not ctx.solo:
            areas.restock_coal(ctx, train, player, "maintenance")
    return [t for t, _ in sorted(returned)]
