"""Contract cards: the play window before each area, and each card's effect when played.

Effects that last the round are the (player, card) pairs in `state.active`, read by the areas; effects that
happen now are flows here."""

from __future__ import annotations

from tableassist.engine import areas, chance
from tableassist.engine.core import Ctx, Flow
from tableassist.engine.decision import Action
from tableassist.engine.state import GOODS, WEATHERS

NO_OTHER_CONTRACTS = 13
TAKE_START_PLAYER = 22


def playable(ctx: Ctx, player: int, letter: str) -> list[int]:
    if ctx.state.contracts_closed:
        return []
    return [c for c in ctx.state.players[player].hand if ctx.comps.contracts[c].letter == letter]


def window(ctx: Ctx, area: str) -> Flow[None]:
    """Before an area resolves: in turn order from the start player, each plays any number of that letter's
    contracts (at most `contracts_per_window` with that option), then passes. Players with nothing to play are
    skipped (they could only pass)."""
    s = ctx.state
    limit = ctx.setup.options.contracts_per_window
    for player in ctx.turn_order():
        plays = 0
        while True:
            cards = playable(ctx, player, area)
            if not cards or (limit is not None and plays >= limit):
                break

            def options(player: int = player) -> list[Action]:
                return [*({"type": "play_contract", "player": player, "contract": c}
                          for c in playable(ctx, player, area)), {"type": "pass", "player": player}]

            def why_not(action: Action, player: int = player) -> str | None:
                if action["type"] == "play_contract" and action.get("contract") not in playable(ctx, player, area):
                    card = action.get("contract")
                    if card not in s.players[player].hand:
                        return f"{ctx.name(player)} does not hold contract {card} unplayed."
                    return f"Contract {card} is not played before area {area}."
                return None

            action = yield ctx.decide("contracts", player, f"{ctx.name(player)}: play contracts before area {area}?",
                                      ("play_contract", "pass"), options, why_not, area=area)
            if action["type"] == "pass":
                ctx.emit("passed", player=player, area=area)
                break
            plays += 1
            yield from play(ctx, player, action["contract"], area)
        if s.contracts_closed:
            return


def play(ctx: Ctx, player: int, card: int, area: str) -> Flow[None]:
    s = ctx.state
    p = s.players[player]
    p.hand.remove(card)
    p.played.append(card)
    s.active.append((player, card))
    ctx.emit("contract_played", player=player, contract=card, area=area)
    effect = ctx.comps.contracts[card].effect
    if effect == "no_other_contracts_this_round":
        s.contracts_closed = True
    elif effect == "take_start_player_locked":
        if s.start_player != player:
            s.start_player = player
            ctx.emit("start_player_changed", player=player, why=f"contract {card}")
        s.start_locked = True
    elif effect == "swap_middle_weather":
        yield from _swap_weather(ctx, player)
    elif effect == "draw_2_keep_1_of_3":
        yield from _draw_two_keep_one(ctx, player, card)
    elif effect == "convert_rubble_to_stone_x3":
        most = min(3, p.rubble // 2, s.bag["stone"])
        times = yield from _times(ctx, player, card, 0, most)
        areas.convert(ctx, player, 0, times, 3)
    elif effect == "convert_2_iron_to_steel_x2":
        most = min(2, p.iron // 2, s.steel_supply)
        times = yield from _times(ctx, player, card, min(1, most), most)
        areas.convert(ctx, player, times, 0, 2)
    elif effect == "draw_3_cubes":
        drawn = yield from chance.draw(ctx, 3, f"contract {card}")
        for kind in GOODS:
            setattr(p, kind, p.goods(kind) + drawn[kind])
        s.bag["event"] += drawn["event"]
        if drawn["event"]:
            ctx.emit("event_cubes_returned", spaces=[], n=drawn["event"])
    elif effect == "take_2_from_stock_yard":
        yield from _take_two(ctx, player)
    elif effect == "surveyor_plus_1":
        areas.move_surveyor(ctx, player)
    elif effect == "move_placed_labourer":
        yield from _move_labourer(ctx, player)


def _times(ctx: Ctx, player: int, card: int, least: int, most: int) -> Flow[int]:
    if most == 0:
        return 0
    options = [{"type": "convert", "player": player, "times": k} for k in range(least, most + 1)]
    action = yield ctx.decide("convert", player, f"{ctx.name(player)}: contract {card} — convert how many times?",
                              ("convert",), lambda: options, contract=card)
    times: int = action["times"]
    return times


def _swap_weather(ctx: Ctx, player: int) -> Flow[None]:
    s = ctx.state
    middle = s.weather[1]
    if middle is None:
        return
    choices = [w for w in WEATHERS if s.weather_supply.get(w, 0) > 0 or w == middle]
    action = yield ctx.decide("swap_weather", player, f"{ctx.name(player)}: contract 4 — which weather comes next?",
                              ("swap_weather",),
                              lambda: [{"type": "swap_weather", "player": player, "weather": w} for w in choices])
    new = action["weather"]
    s.weather_supply[middle] += 1
    s.weather_supply[new] -= 1
    s.weather[1] = new
    ctx.emit("weather_changed", current=s.weather[0], middle=s.weather[1], lowest=s.weather[2], weather=None)


def _draw_two_keep_one(ctx: Ctx, player: int, card: int) -> Flow[None]:
    s = ctx.state
    drawn = []
    for _ in range(2):
        revealed = yield from chance.reveal(ctx, f"contract {card}")
        if revealed is None:
            break
        drawn.append(revealed)
        s.drawn.append(revealed)
        ctx.emit("contract_revealed", contract=revealed, position=None, why=f"contract {card}")
    choices = [card, *drawn]
    action = yield ctx.decide(
        "keep_contract", player, f"{ctx.name(player)}: keep one of contracts {', '.join(map(str, choices))}",
        ("keep_contract",), lambda: [{"type": "keep_contract", "player": player, "contract": c} for c in choices])
    kept = action["contract"]
    s.drawn = []
    p = s.players[player]
    for c in choices:
        if c == kept:
            continue
        if c == card:
            p.played.remove(card)
        s.discards.append(c)
        ctx.emit("contract_discarded", contract=c, why=f"contract {card}")
    if kept != card:
        p.hand.append(kept)
        ctx.emit("contract_kept", player=player, contract=kept)


def _take_two(ctx: Ctx, player: int) -> Flow[None]:
    """20/23: any 2 cubes from the stock yard, one coal at most — unless 29 lifts the stock yard's coal limit."""
    coal = 2 if areas.count_active(ctx, player, (areas.NO_COAL_LIMIT,)) else 1
    options = areas.take_cube_options(ctx, 2, coal, exactly=True)
    if not options or sum(options[0].values()) == 0:
        return
    action = yield ctx.decide("take_cubes", player, f"{ctx.name(player)}: take 2 cubes from the stock yard",
                              ("take_cubes",),
                              lambda: [{"type": "take_cubes", "player": player, **o} for o in options])
    areas.take_from_yard(ctx, player, {k: action.get(k, 0) for k in GOODS})


def open_spaces(ctx: Ctx) -> list[tuple[str, int]]:
    """Empty action spaces a labourer may stand on now (fog-blocked spaces excluded)."""
    s = ctx.state
    out = []
    for area in "ABCDEF":
        for i, who in enumerate(s.placed[area]):
            if who is None and not fog_blocked(ctx, area, i + 1):
                out.append((area, i + 1))
    out.append(("G", len(s.placed["G"]) + 1))
    return out


def fog_blocked(ctx: Ctx, area: str, space: int) -> bool:
    s = ctx.state
    if not s.fog or area not in ("B", "D") or (area == "B" and s.extra_build_open):
        return False
    blocks = ctx.setup.options.fog_blocks
    return blocks is None or space <= blocks


def _move_labourer(ctx: Ctx, player: int) -> Flow[None]:
    s = ctx.state
    mine = [(a, i + 1) for a in "ABCDEFG" for i, who in enumerate(s.placed[a]) if who == player]
    targets = open_spaces(ctx)
    options = [{"type": "move_labourer", "player": player, "from": [a, i], "to": [b, j]}
               for a, i in mine for b, j in targets if (a, i) != (b, j)]
    if not options:
        return
    action = yield ctx.decide("move_labourer", player, f"{ctx.name(player)}: contract 28 — move a placed labourer",
                              ("move_labourer",), lambda: options)
    (a, i), (b, j) = action["from"], action["to"]
    s.placed[a][i - 1] = None
    if b == "G":
        s.placed["G"].append(player)
    else:
        s.placed[b][j - 1] = player
    ctx.emit("labourer_moved", player=player, **{"from": [a, i], "to": [b, j]})
