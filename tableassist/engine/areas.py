"""The seven action areas, each labourer's action as a decision: A stock yard, B excavation (or the extra
Build area), C works, D lay track, E build (sites or trains), F site office, G surveyor."""

from __future__ import annotations

from tableassist.engine import board
from tableassist.engine.chance import vectors
from tableassist.engine.core import Ctx, Flow
from tableassist.engine.decision import Action
from tableassist.engine.state import GOODS

STONE_DISCOUNT = (9, 14, 15)  # pay one stone less for a site this round
IRON_AS_STEEL = (6, 25)  # 3 iron may stand for 1 steel when building this round
RUBBLE_AS_STONE = 17  # 2 rubble stand for 1 stone (4 for 2) when building this round
LAY_PLUS_1 = (1, 2)
EXCAVATE_DOUBLE = (26, 30)
STOCK_YARD_PLUS_2 = 7
NO_COAL_LIMIT = 29


def count_active(ctx: Ctx, player: int, numbers: tuple[int, ...]) -> int:
    return sum(1 for p, c in ctx.state.active if p == player and c in numbers)


# --- A: stock yard -------------------------------------------------------------------------------------------

def stock_yard_limits(ctx: Ctx, player: int) -> tuple[int, int]:
    """(cubes, coal) a stock-yard action may take: 3 (+1 train 3, +2 per contract 7), at most 1 coal
    (contract 29 lifts the coal limit)."""
    p = ctx.state.players[player]
    cubes = 3 + (1 if p.train == 3 else 0) + 2 * count_active(ctx, player, (STOCK_YARD_PLUS_2,))
    coal = cubes if count_active(ctx, player, (NO_COAL_LIMIT,)) else 1
    return cubes, coal


def take_cube_options(ctx: Ctx, cubes: int, coal: int, exactly: bool) -> list[dict[str, int]]:
    yard = ctx.state.stock_yard
    caps = {"iron": yard["iron"], "stone": yard["stone"], "coal": min(coal, yard["coal"])}
    most = min(cubes, sum(caps.values()))
    totals = [most] if exactly else list(range(most + 1))
    return [v for total in totals for v in vectors(total, caps, GOODS)]


def take_from_yard(ctx: Ctx, player: int, cubes: dict[str, int]) -> None:
    p = ctx.state.players[player]
    for kind in GOODS:
        ctx.state.stock_yard[kind] -= cubes[kind]
        setattr(p, kind, p.goods(kind) + cubes[kind])
    ctx.emit("cubes_taken", player=player, source="stock_yard", **{k: cubes[k] for k in GOODS})


def stock_yard(ctx: Ctx, player: int, space: int) -> Flow[None]:
    s = ctx.state
    cubes, coal = stock_yard_limits(ctx, player)

    def why_not(action: Action) -> str | None:
        if sum(action.get(k, 0) for k in GOODS) > cubes:
            return f"{ctx.name(player)} may take at most {cubes} cubes."
        if action.get("coal", 0) > coal:
            return f"{ctx.name(player)} may take at most {coal} coal."
        return None

    action = yield ctx.decide(
        "stock_yard", player, f"{ctx.name(player)}: take up to {cubes} cubes from the stock yard (at most {coal} coal)",
        ("stock_yard",), lambda: [{"type": "stock_yard", "player": player, **o}
                                for o in take_cube_options(ctx, cubes, coal, exactly=False)], why_not,
        area="A", space=space)
    take_from_yard(ctx, player, {k: action.get(k, 0) for k in GOODS})
    if space == s.spaces["A"] and not s.start_locked and s.start_player != player:
        s.start_player = player
        ctx.emit("start_player_changed", player=player, why="last stock-yard space")


# --- B: excavation -------------------------------------------------------------------------------------------

def excavation_amount(ctx: Ctx, player: int) -> int:
    p = ctx.state.players[player]
    amount = ctx.state.excavation_rate + (2 if p.train == 1 else 0)
    if count_active(ctx, player, EXCAVATE_DOUBLE):
        amount *= 2
    return amount


def excavate(ctx: Ctx, player: int, space: int | None, kind: str = "excavate") -> Flow[None]:
    wanted = excavation_amount(ctx, player)
    can = min(wanted, board.rubble_left(ctx))
    yield ctx.decide(kind, player, f"{ctx.name(player)}: excavate {can} rubble", ("excavate",),
                     lambda: [{"type": "excavate", "player": player}], area="B", space=space)
    n = board.take_rubble(ctx, player, wanted)
    ctx.emit("excavation_done", player=player, n=n, wanted=wanted)


def extra_excavation(ctx: Ctx, player: int) -> Flow[None]:
    """Contract 3: after all other excavations, excavate the next space with rubble completely (optional)."""
    if board.rubble_left(ctx) == 0:
        return
    action = yield ctx.decide(
        "extra_excavation", player, f"{ctx.name(player)}: contract 3 — excavate the next rubble space completely?",
        ("excavate", "decline"),
        lambda: [{"type": "excavate", "player": player}, {"type": "decline", "player": player}], area="B")
    if action["type"] == "excavate":
        n = board.excavate_next_space(ctx, player)
        ctx.emit("excavation_done", player=player, n=n, wanted=n)
    else:
        ctx.emit("declined", player=player, what="extra_excavation")


# --- C: works ------------------------------------------------------------------------------------------------

def iron_per_steel(ctx: Ctx, player: int) -> int:
    return 2 if ctx.state.players[player].train == 2 else 3


def works(ctx: Ctx, player: int, space: int) -> Flow[None]:
    s = ctx.state
    p = s.players[player]
    per_steel = iron_per_steel(ctx, player)

    def options() -> list[Action]:
        return [{"type": "works", "player": player, "steel": steel, "stone": stone}
                for steel in range(4) for stone in range(4 - steel)
                if steel <= s.steel_supply and steel * per_steel <= p.iron and stone <= s.bag["stone"]
                and 2 * stone <= p.rubble]

    def why_not(action: Action) -> str | None:
        steel, stone = action.get("steel", 0), action.get("stone", 0)
        if not isinstance(steel, int) or not isinstance(stone, int) or steel < 0 or stone < 0:
            return "Say how many steel bars and stones to make."
        if steel + stone > 3:
            return "The works convert at most three times per labourer."
        if steel > s.steel_supply:
            return f"Only {s.steel_supply} steel bars are left in the supply."
        if steel * per_steel > p.iron:
            return f"{steel} steel needs {steel * per_steel} iron ore; {p.name} has {p.iron}."
        if stone > s.bag["stone"]:
            return f"The bag holds only {s.bag['stone']} stone."
        if 2 * stone > p.rubble:
            return f"{stone} stone needs {2 * stone} rubble; {p.name} has {p.rubble}."
        return None

    action = yield ctx.decide("works", player, f"{p.name}: convert up to three times at the works", ("works",),
                              options, why_not, area="C", space=space)
    convert(ctx, player, action.get("steel", 0), action.get("stone", 0), per_steel)


def convert(ctx: Ctx, player: int, steel: int, stone: int, per_steel: int) -> None:
    s = ctx.state
    p = s.players[player]
    p.iron -= steel * per_steel
    s.bag["iron"] += steel * per_steel
    p.steel += steel
    s.steel_supply -= steel
    p.rubble -= 2 * stone
    s.rubble_supply += 2 * stone
    s.bag["stone"] -= stone
    p.stone += stone
    ctx.emit("converted", player=player, steel=steel, stone=stone, iron_paid=steel * per_steel,
             rubble_paid=2 * stone)


# --- D: lay track --------------------------------------------------------------------------------------------

def lay_amount(ctx: Ctx, player: int) -> int:
    p = ctx.state.players[player]
    return ctx.state.lay_rate + (1 if p.train == 7 else 0) + count_active(ctx, player, LAY_PLUS_1)


def lay_track(ctx: Ctx, player: int, space: int | None, kind: str = "lay_track", optional: bool = False) -> Flow[None]:
    s = ctx.state
    p = s.players[player]
    wanted = lay_amount(ctx, player)
    can = min(wanted, p.steel, p.markers, board.layable(ctx))
    if optional and can == 0:
        return
    types = ("lay_track", "decline") if optional else ("lay_track",)
    action = yield ctx.decide(
        kind, player, f"{p.name}: lay {can} track", types,
        lambda: [{"type": t, "player": player} for t in types], area="D", space=space)
    if action["type"] == "decline":
        ctx.emit("declined", player=player, what=kind)
        return
    n = board.lay_track(ctx, player, wanted)
    ctx.emit("lay_track_done", player=player, n=n, wanted=wanted)
    if board.all_track_laid(ctx) and s.end_trigger is None:
        s.end_trigger, s.last_round = "player", s.round
        ctx.emit("game_end_triggered", by="player", player=player, last_round=s.round)


# --- E: build ------------------------------------------------------------------------------------------------

def _stone_payments(ctx: Ctx, player: int, cost: int) -> list[dict[str, int]]:
    p = ctx.state.players[player]
    cost = max(0, cost - count_active(ctx, player, STONE_DISCOUNT))
    subs = min(2, cost) if count_active(ctx, player, (RUBBLE_AS_STONE,)) else 0
    return [{"stone": cost - k, "steel": 0, "iron": 0, "rubble": 2 * k} for k in range(subs + 1)
            if p.stone >= cost - k and p.rubble >= 2 * k]


def _steel_payments(ctx: Ctx, player: int, cost: int) -> list[dict[str, int]]:
    p = ctx.state.players[player]
    subs = min(cost, count_active(ctx, player, IRON_AS_STEEL))
    return [{"stone": 0, "steel": cost - j, "iron": 3 * j, "rubble": 0} for j in range(subs + 1)
            if p.steel >= cost - j and p.iron >= 3 * j]


def payments(ctx: Ctx, player: int, cost: dict[str, int]) -> list[dict[str, int]]:
    if "steel" in cost:
        return _steel_payments(ctx, player, cost["steel"])
    return _stone_payments(ctx, player, cost.get("stone", 0))


def can_buy_trains(ctx: Ctx) -> bool:
    return ctx.state.trains_available


def build_options(ctx: Ctx, player: int) -> list[Action]:
    s = ctx.state
    p = s.players[player]
    options: list[Action] = []
    if p.markers > 0:
        for i in board.buildable_stations(ctx):
            st = s.stations[i]
            for index, site in enumerate(st.building):
                if site.owner is None:
                    for pay in payments(ctx, player, site.cost):
                        options.append({"type": "build", "player": player, "station": st.id, "site": index,
                                        "pay": pay})
    if can_buy_trains(ctx):
        for train in sorted(s.engine_shed):
            for pay in payments(ctx, player, {"steel": ctx.comps.trains[train].cost_steel}):
                options.append({"type": "buy_train", "player": player, "train": train, "pay": pay})
    return options


def build_why_not(ctx: Ctx, player: int, action: Action) -> str | None:
    s = ctx.state
    p = s.players[player]
    if action["type"] == "build":
        try:
            i = s.station_index(action.get("station", ""))
        except KeyError:
            return f"There is no station {action.get('station')} in this game."
        st = s.stations[i]
        site = action.get("site")
        if not isinstance(site, int) or not 0 <= site < len(st.building):
            return f"{st.name} has building sites 0 to {len(st.building) - 1}."
        if st.completed_by_event:
            return f"{st.name} was completed by an event: nobody builds there any more."
        if not board.excavated_up_to(ctx, i):
            return f"The track cards up to {st.name} are not all excavated yet."
        if st.building[site].owner is not None:
            return "This site is already built."
        if p.markers == 0:
            return f"{p.name} has no ownership markers left."
        if action.get("pay") not in payments(ctx, player, st.building[site].cost):
            return f"{p.name} cannot pay {st.building[site].cost} that way."
    if action["type"] == "buy_train":
        train = action.get("train")
        if not s.trains_available:
            return "Trains cannot be bought until the 'Trains may now be bought' event."
        if train not in s.engine_shed:
            return f"Train {train} is not in the engine shed."
        if action.get("pay") not in payments(ctx, player, {"steel": ctx.comps.trains[train].cost_steel}):
            return f"{p.name} cannot pay {ctx.comps.trains[train].cost_steel} steel that way."
    return None


def build(ctx: Ctx, player: int, area: str | None, space: int | None, kind: str = "build",
          optional: bool = False) -> Flow[None]:
    if optional and not build_options(ctx, player):
        return

    def options() -> list[Action]:
        out = build_options(ctx, player)
        if optional:
            return [*out, {"type": "decline", "player": player}]
        return out or [{"type": "idle", "player": player}]

    def why_not(action: Action) -> str | None:
        if action["type"] == "idle" and build_options(ctx, player):
            return f"{ctx.name(player)} can build or buy a train, so the labourer must."
        if action["type"] == "decline" and not optional:
            return "A labourer on a Build space must act."
        if action["type"] == "idle" and optional:
            return f"{ctx.name(player)} may decline the extra build."
        return build_why_not(ctx, player, action)

    action = yield ctx.decide(kind, player, f"{ctx.name(player)}: build a station site or buy a train",
                              ("build", "buy_train", "idle", "decline"), options, why_not, area=area, space=space)
    if action["type"] == "build":
        build_site(ctx, player, action["station"], action["site"], action["pay"])
    elif action["type"] == "buy_train":
        buy_train(ctx, player, action["train"], action["pay"])
    elif action["type"] == "decline":
        ctx.emit("declined", player=player, what=kind)
    else:
        ctx.emit("labourer_idle", player=player, area=area, space=space, why="nothing to build or buy")


def pay(ctx: Ctx, player: int, paid: dict[str, int]) -> None:
    s = ctx.state
    p = s.players[player]
    p.stone -= paid["stone"]
    s.bag["stone"] += paid["stone"]
    p.iron -= paid["iron"]
    s.bag["iron"] += paid["iron"]
    p.steel -= paid["steel"]
    s.steel_supply += paid["steel"]
    p.rubble -= paid["rubble"]
    s.rubble_supply += paid["rubble"]


def build_site(ctx: Ctx, player: int, station_id: str, index: int, paid: dict[str, int]) -> None:
    s = ctx.state
    pay(ctx, player, paid)
    board.place_marker(ctx, player)
    st = s.stations[s.station_index(station_id)]
    st.building[index].owner = player
    s.players[player].sites.append((station_id, "building", index))
    s.built_this_round = True
    ctx.emit("station_built", player=player, station=station_id, site=index, vp=st.building[index].vp,
             paid=dict(paid))
    ctx.emit("site_completed", player=player, station=station_id, site=index, kind="building",
             vp=st.building[index].vp)


def return_train(ctx: Ctx, player: int, why: str, restock: bool = True) -> int:
    """The player's train goes back to the engine shed (solo: out of the game); returns its number."""
    s = ctx.state
    p = s.players[player]
    train = p.train
    assert train is not None
    p.train = None
    if ctx.solo:
        s.lost_trains.append(train)
        ctx.emit("train_returned", player=player, train=train, coal_restocked=0, why=why)
        return train
    s.engine_shed[train] = 0
    if restock:
        restock_coal(ctx, train, player, why)
    return train


def restock_coal(ctx: Ctx, train: int, player: int, why: str) -> None:
    s = ctx.state
    k = min(ctx.comps.trains[train].coal, s.bag["coal"])
    s.bag["coal"] -= k
    s.engine_shed[train] += k
    ctx.emit("train_returned", player=player, train=train, coal_restocked=k, why=why)


def buy_train(ctx: Ctx, player: int, train: int, paid: dict[str, int]) -> None:
    s = ctx.state
    p = s.players[player]
    pay(ctx, player, paid)
    if p.train is not None:
        return_train(ctx, player, "swapped")
    coal = s.engine_shed.pop(train)
    p.coal += coal
    p.train = train
    s.built_this_round = True
    ctx.emit("train_bought", player=player, train=train, paid=dict(paid), coal=coal)


# --- F: site office ------------------------------------------------------------------------------------------

def site_office(ctx: Ctx, player: int, space: int) -> Flow[None]:
    s = ctx.state
    def options() -> list[Action]:
        out: list[Action] = [{"type": "take_contract", "player": player, "contract": c}
                             for c in s.site_office if c is not None]
        return out or [{"type": "idle", "player": player}]

    def why_not(action: Action) -> str | None:
        if action["type"] == "take_contract" and action.get("contract") not in s.site_office:
            return f"Contract {action.get('contract')} is not in the site office."
        return None

    action = yield ctx.decide("take_contract", player, f"{ctx.name(player)}: take a contract from the site office",
                              ("take_contract", "idle"), options, why_not,
                              area="F", space=space)
    if action["type"] == "take_contract":
        card = action["contract"]
        position = s.site_office.index(card)
        s.site_office[position] = None
        s.players[player].hand.append(card)
        ctx.emit("contract_taken", player=player, contract=card, position=position + 1)
    else:
        ctx.emit("labourer_idle", player=player, area="F", space=space, why="the site office is empty")


# --- G: surveyor ---------------------------------------------------------------------------------------------

def move_surveyor(ctx: Ctx, player: int) -> None:
    s = ctx.state
    p = s.players[player]
    if p.surveyor < len(s.stations) - 1:
        p.surveyor += 1
    ctx.emit("surveyor_moved", player=player, station=s.stations[p.surveyor].id)


def survey(ctx: Ctx, player: int, space: int) -> Flow[None]:
    p = ctx.state.players[player]
    here = ctx.state.stations[p.surveyor]
    yield ctx.decide("survey", player, f"{p.name}: move the surveyor on from {here.name}", ("survey",),
                     lambda: [{"type": "survey", "player": player}], area="G", space=space)
    move_surveyor(ctx, player)
