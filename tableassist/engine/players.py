"""Simulated "sensible" players: a legal choice for any player decision, made the way a player at the table
would think about it (for the demo and for benchmarks; pure Python, stdlib only).

    action = choose(game, rng)      # game.waiting is a player's decision; rng: random.Random (seeded)

How it thinks. Every decision is scored by one yardstick: "what am I worth at the end of this round",
in victory points plus a price for what I hold (steel, iron, stone, rubble, coal, a train, contracts on the
way to their condition). To get there, the player plays the rest of its own round forward on a small copy
of the board (`Me`, `Board`): its labourers resolve A→G in order (the stock yard's best cubes, the rubble
its excavation takes and the station sites it finishes, the works converting what it will hold by then,
track laid at the work rate on excavated cards, the best site it can afford at a buildable station, the
best contract in the site office, the surveyor's step). Other players' labourers on earlier spaces take
their share first (cubes, rubble, track, sites, contracts), judged from what they hold now.

So a placement is worth "the round with this labourer" minus "the round without it", a stock-yard take is
worth what the round makes of those cubes, and so on. A little noise (the seeded rng) separates near ties,
so no two games are alike. Nothing is kept between calls: a choice depends only on the game and the rng,
which the demo needs to resume a killed game exactly.

The engine's state is only read, never changed; no lookahead through the engine (a replay costs
milliseconds; this projection costs microseconds).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from tableassist.engine import scoring
from tableassist.engine.decision import Action
from tableassist.engine.game import Game

AREAS = "ABCDEFG"
GOODS = ("iron", "stone", "coal")

# Prices of what a player holds, in victory points (tuned by bench_players.py: scores and play that look
# like a real game). Steel lays a track (2-5 VP, plus track contracts worth 4-40) or builds a 5-8 VP site.
STEEL_VP = 2.5
IRON_VP = 0.55  # a third of a steel bar, less the Works labourer it needs
STONE_VP = 1.0  # a 3-stone site pays 6-7 VP, less the Build labourer
RUBBLE_VP = 0.4  # half a stone, and rubble contracts count it
COAL_WITH_TRAIN_VP = 1.5  # a temporary labourer
COAL_VP = 0.4
START_PLAYER_VP = 0.8  # first pick of the spaces next round
SURVEYOR_STEP_VP = 1.2  # a step brings the richer stations up the line within reach
SURPLUS = 0.25  # a cube beyond what the next rounds can use is worth this fraction of its price
STEEL_SOON = 4  # steel bars a player can lay or build with in the next two rounds
NOISE = 0.7  # standard deviation of the noise on a choice's value (VP)
# Players at a table push goods along the chain rather than sit on them: a bonus for each step this round.
MADE_STEEL = 2.0
MADE_TRACK = 2.5
MADE_SITE = 1.0
MADE_STONE = 0.3

# What a player can still add per round, for judging whether a contract's condition is within reach.
PER_ROUND = {"sites": 0.6, "tracks": 0.55, "rubble": 1.6}
TRAIN_POWER_PER_ROUND = {1: 1.0, 2: 0.8, 3: 0.8, 4: 0.0, 5: 0.0, 6: 1.4, 7: 1.4}
SNOWDON = 4

# Contract effects (numbers as in the engine's rules and areas modules).
LAY_PLUS_1 = (1, 2)
STONE_DISCOUNT = (9, 14, 15)
EXCAVATE_DOUBLE = (26, 30)
STOCK_YARD_PLUS_2 = 7
NO_COAL_LIMIT = 29


# --- a small copy of what matters -----------------------------------------------------------------------------

@dataclass
class Me:
    """One player's pieces during a projection."""

    iron: int
    stone: int
    coal: int
    rubble: int
    steel: int
    markers: int
    sites: list[int]  # VP of each site with the player's marker
    tracks: list[int]  # VP of each track laid
    surveyor: int  # station index
    train: int | None
    contracts: list[int]  # held or played: all score at the end
    start: bool = False  # becomes the start player this round
    made: float = 0.0  # bonus for moving goods along the chain this round (iron → steel → track or site)

    def copy(self) -> Me:
        return Me(self.iron, self.stone, self.coal, self.rubble, self.steel, self.markers, list(self.sites),
                  list(self.tracks), self.surveyor, self.train, list(self.contracts), self.start, self.made)


@dataclass
class Board:
    """The shared pieces a projection changes."""

    yard: dict[str, int]
    rubble: list[int]  # rubble left on each space of the excavation order
    laid: list[bool]  # per track card of the route
    free: list[tuple[int, int, str, int, int]]  # unbuilt sites: (station, site, "stone"|"steel", cost, vp)
    office: list[int]
    steel_supply: int
    bag_stone: int
    shed: dict[int, int]

    def copy(self) -> Board:
        return Board(dict(self.yard), list(self.rubble), list(self.laid), list(self.free), list(self.office),
                     self.steel_supply, self.bag_stone, dict(self.shed))


@dataclass
class View:
    """What a player reads off the table for one decision (built once per `choose`)."""

    game: Game
    player: int
    n: int
    dig: list[tuple[int, int, int]]  # excavation order: (route index or -1, station, site index or -1)
    dig_vp: list[int]  # VP of a station excavation site (0 for track cards)
    track_dig: list[int]  # route index -> position in the excavation order
    track_vp: list[int]
    track_before: list[int]
    surveyor_vp: list[int]
    rank: list[float]
    station_ids: list[str]
    event_done: list[bool]
    rounds_left: int  # full rounds after this one
    maintenance_ahead: bool  # the train-maintenance event is still to come
    active: list[int]  # contracts this player has in play this round
    options: dict[int, Any] = field(default_factory=dict)  # contract number -> Contract


def _view(game: Game, player: int) -> View:
    s = game.state
    comps = game.setup.comps
    dig: list[tuple[int, int, int]] = []
    dig_vp: list[int] = []
    track_dig = [0] * len(s.route)
    for station in range(1, len(s.stations)):
        for i, t in enumerate(s.route):
            if t.before == station:
                track_dig[i] = len(dig)
                dig.append((i, station, -1))
                dig_vp.append(0)
        for k, site in enumerate(s.stations[station].excavation):
            dig.append((-1, station, k))
            dig_vp.append(site.vp)
    return View(
        game=game, player=player, n=len(s.players), dig=dig, dig_vp=dig_vp, track_dig=track_dig,
        track_vp=[t.vp for t in s.route], track_before=[t.before for t in s.route],
        surveyor_vp=[st.surveyor_vp for st in s.stations],
        rank=[comps.station(st.id).rank for st in s.stations], station_ids=[st.id for st in s.stations],
        event_done=[st.completed_by_event for st in s.stations], rounds_left=rounds_left(game),
        maintenance_ahead=_maintenance_ahead(game),
        active=s.active_for(player), options=comps.contracts,
    )


def rounds_left(game: Game) -> int:
    """Full rounds after the current one: known once the end is triggered, else guessed from the track still
    to lay and how fast the table has been laying it."""
    s = game.state
    if s.last_round is not None:
        return max(0, s.last_round - s.round)
    unlaid = sum(1 for t in s.route if not t.laid)
    laid = len(s.route) - unlaid
    pace = max(1.5, laid / max(1, s.round - 1))  # players and events together lay at least 1.5 a round
    return max(1, min(12, round(unlaid / pace)))


def _maintenance_ahead(game: Game) -> bool:
    """Event cubes go on the space after the right-most occupied one, so an event on an earlier space is past."""
    s = game.state
    occupied = [i for i, filled in enumerate(s.event_track) if filled]
    last = occupied[-1] if occupied else -1
    return any(kind == "maintenance" for kind in s.event_kinds[last + 1:])


def _me(game: Game, player: int) -> Me:
    s = game.state
    p = s.players[player]
    sites = []
    for station_id, kind, index in p.sites:
        st = s.stations[s.station_index(station_id)]
        sites.append((st.excavation if kind == "excavation" else st.building)[index].vp)
    return Me(p.iron, p.stone, p.coal, p.rubble, p.steel, p.markers, sites,
              [t.vp for t in s.route if t.laid_by == player], p.surveyor, p.train, [*p.hand, *p.played])


def _board(game: Game, view: View) -> Board:
    s = game.state
    rubble = []
    for route_index, station, index in view.dig:
        if route_index >= 0:
            rubble.append(s.route[route_index].rubble)
        else:
            rubble.append(s.stations[station].excavation[index].rubble)
    free = []
    for i, st in enumerate(s.stations):
        if st.completed_by_event:
            continue
        for k, site in enumerate(st.building):
            if site.owner is None:
                kind = "steel" if "steel" in site.cost else "stone"
                free.append((i, k, kind, site.cost.get(kind, 0), site.vp))
    return Board(dict(s.stock_yard), rubble, [t.laid for t in s.route], free,
                 [c for c in s.site_office if c is not None], s.steel_supply, s.bag["stone"], dict(s.engine_shed))


# --- what a player is worth ------------------------------------------------------------------------------------

def frontier(view: View, board: Board) -> int:
    """Stations below this index have all their track cards excavated (buildable)."""
    out = len(view.rank)
    for i, before in enumerate(view.track_before):
        if board.rubble[view.track_dig[i]] > 0 and before < out:
            out = before
    return out


def _reach(have: float, need: int, projected: float) -> float:
    if have >= need:
        return 1.0
    if projected >= need:
        return 0.45 + 0.4 * have / need
    return 0.35 * (projected / need) ** 2


def contract_value(view: View, me: Me) -> float:
    """Contracts fulfilled now at full value; the others at their value times the chance of getting there,
    sharing out what the player may still gain (richest contract first)."""
    rank = view.rank[me.surveyor]
    options = []
    coal_vp = 0.0
    for number in me.contracts:
        contract = view.options[number]
        if "coal_vp" in contract.condition:
            coal_vp = float(me.coal * contract.condition["coal_vp"])
            continue
        option = scoring.contract_option(contract, rank)
        if option is not None:
            options.append(option)
    capacity = (len(me.sites), len(me.tracks), me.rubble, 1)
    chosen = scoring.best_contracts(options, capacity) if options else []
    done = {o.number for o in chosen}
    value = coal_vp + sum(o.vp for o in chosen)
    left = {"sites": float(len(me.sites)), "tracks": float(len(me.tracks)), "rubble": float(me.rubble)}
    for o in chosen:
        left["sites"] -= o.needs[0]
        left["tracks"] -= o.needs[1]
        left["rubble"] -= o.needs[2]
    rounds = view.rounds_left
    gain = {k: PER_ROUND[k] * rounds for k in PER_ROUND}
    waiting = sorted((view.options[c] for c in me.contracts if c not in done and "coal_vp" not in
                      view.options[c].condition), key=lambda c: -c.vp)
    for contract in waiting:
        cond = contract.condition
        chance = 1.0
        for key in ("sites", "tracks", "rubble"):
            need = int(cond.get(key, 0))
            if need:
                chance = min(chance, _reach(left[key], need, left[key] + gain[key]))
        vp = contract.vp
        if "surveyor_min" in cond or "surveyor_tiers" in cond:
            target = cond.get("surveyor_min") or cond["surveyor_tiers"][0][0]
            if "surveyor_tiers" in cond:
                vp = max(v for _, v in cond["surveyor_tiers"])
            steps = sum(1 for r in view.rank if rank < r <= target)
            chance = min(chance, 0.7 if steps <= rounds else 0.1)
        if chance <= 0:
            continue
        value += 0.8 * vp * chance
        for key in ("sites", "tracks", "rubble"):  # what this one is counted on is not there for the next
            need = int(cond.get(key, 0))
            taken = min(need, left[key])
            left[key] -= taken
            gain[key] = max(0.0, gain[key] - (need - taken))
    return value


def _capped(count: int, cap: float, price: float) -> float:
    if count <= cap:
        return count * price
    return cap * price + (count - cap) * price * SURPLUS


def worth(view: View, me: Me, board: Board) -> float:
    """Victory points now (sites, tracks, surveyor, train 4, contracts) plus the price of what is held."""
    vp = sum(me.sites) + sum(me.tracks) + view.surveyor_vp[me.surveyor] + (9 if me.train == SNOWDON else 0.0)
    vp += contract_value(view, me)
    rounds = view.rounds_left
    if rounds == 0:
        return vp
    late = 0.75 if rounds == 1 else 1.0
    # What the next couple of rounds can use: more of a cube than that is worth only a fraction.
    edge = frontier(view, board)
    unlaid = sum(1 for laid in board.laid if not laid)
    steel_sites = sum(cost for st, _, kind, cost, _ in board.free if kind == "steel" and st <= edge)
    stone_soon = sorted((cost for st, _, kind, cost, _ in board.free if kind == "stone" and st <= edge),
                        reverse=True)[:2]
    steel_cap = min(unlaid + steel_sites, STEEL_SOON)
    per_steel = 2 if me.train == 2 else 3
    have = {
        "steel": _capped(me.steel, steel_cap, STEEL_VP),
        "iron": _capped(me.iron, max(0, steel_cap - me.steel) * per_steel, IRON_VP * 3 / per_steel),
        "stone": _capped(me.stone, max(sum(stone_soon), 2), STONE_VP),
        "rubble": me.rubble * RUBBLE_VP,
        "coal": _capped(me.coal, rounds, COAL_WITH_TRAIN_VP) if me.train else me.coal * COAL_VP,
    }
    held = sum(have.values())
    if me.train is not None:
        held += TRAIN_POWER_PER_ROUND.get(me.train, 0.0) * rounds
        if view.maintenance_ahead:  # a steel bar to keep it running, or it goes back to the shed
            held -= STEEL_VP
    if me.start:
        held += START_PLAYER_VP
    held += SURVEYOR_STEP_VP * me.surveyor  # each step brings the richer stations up the line within reach
    return vp + late * held + me.made


# --- playing the rest of the round forward ---------------------------------------------------------------------

def _best_take(view: View, me: Me, board: Board, cubes: int, coal: int) -> dict[str, int]:
    """The cubes that add most to the player's worth (few choices: at most a few dozen)."""
    yard = board.yard
    best: dict[str, int] = {"iron": 0, "stone": 0, "coal": 0}
    best_value = -1.0
    for c in range(min(coal, yard["coal"], cubes) + 1):
        for t in range(min(yard["stone"], cubes - c) + 1):
            i = min(yard["iron"], cubes - c - t)
            trial = me.copy()
            trial.iron += i
            trial.stone += t
            trial.coal += c
            value = _resources(view, trial, board)
            if value > best_value:
                best, best_value = {"iron": i, "stone": t, "coal": c}, value
    return best


def _resources(view: View, me: Me, board: Board) -> float:
    """The price of what is held alone (no contracts): quick, for choosing cubes inside a projection."""
    saved = me.contracts
    me.contracts = []
    try:
        return worth(view, me, board)
    finally:
        me.contracts = saved


def _take(me: Me, board: Board, taken: dict[str, int]) -> None:
    for kind in GOODS:
        board.yard[kind] -= taken.get(kind, 0)
    me.iron += taken.get("iron", 0)
    me.stone += taken.get("stone", 0)
    me.coal += taken.get("coal", 0)


def _dig(view: View, board: Board, amount: int, me: Me | None) -> None:
    """Take `amount` rubble in strict order; `me` (None: another player) gains it and finished sites."""
    for k, left in enumerate(board.rubble):
        if amount <= 0:
            break
        if left == 0:
            continue
        n = min(left, amount)
        board.rubble[k] -= n
        amount -= n
        if me is not None:
            me.rubble += n
            if board.rubble[k] == 0 and view.dig[k][0] < 0 and me.markers > 0:
                me.markers -= 1
                me.sites.append(view.dig_vp[k])


def _layable(view: View, board: Board) -> list[int]:
    out = []
    for i, laid in enumerate(board.laid):
        if laid:
            continue
        if board.rubble[view.track_dig[i]]:
            break
        out.append(i)
    return out


def _lay(view: View, board: Board, amount: int, me: Me | None, steel: int) -> int:
    laid = 0
    for i in _layable(view, board)[:max(0, min(amount, steel))]:
        if me is not None:
            if me.markers <= 0:
                break
            me.markers -= 1
            me.tracks.append(view.track_vp[i])
            me.made += MADE_TRACK
        board.laid[i] = True
        laid += 1
    return laid


def _lay_amount(view: View, player: int, train: int | None) -> int:
    s = view.game.state
    plus = sum(1 for p, c in s.active if p == player and c in LAY_PLUS_1)
    return s.lay_rate + (1 if train == 7 else 0) + plus


def _dig_amount(view: View, player: int, train: int | None) -> int:
    s = view.game.state
    amount = s.excavation_rate + (2 if train == 1 else 0)
    if any(p == player and c in EXCAVATE_DOUBLE for p, c in s.active):
        amount *= 2
    return amount


def _site_options(view: View, me: Me, board: Board) -> list[tuple[int, int]]:
    """(index into board.free, stone or steel paid) for every site the player could build now."""
    if me.markers <= 0:
        return []
    edge = frontier(view, board)
    discount = sum(1 for c in view.active if c in STONE_DISCOUNT)
    out = []
    for k, (station, _site, kind, cost, _vp) in enumerate(board.free):
        if station == 0 or station >= edge or view.event_done[station]:
            continue
        if kind == "steel" and me.steel >= cost:
            out.append((k, cost))
        elif kind == "stone" and me.stone >= max(0, cost - discount):
            out.append((k, max(0, cost - discount)))
    return out


def _build_site(me: Me, board: Board, k: int, paid: int) -> None:
    _station, _site, kind, _cost, vp = board.free.pop(k)
    if kind == "steel":
        me.steel -= paid
        board.steel_supply += paid
    else:
        me.stone -= paid
        board.bag_stone += paid
    me.markers -= 1
    me.sites.append(vp)
    me.made += MADE_SITE


def _best_build(view: View, me: Me, board: Board) -> None:
    """The build that adds most: a site (or a train, when trains may be bought), else nothing."""
    best_value = worth(view, me, board)
    best: tuple[Me, Board] | None = None
    for k, paid in _site_options(view, me, board):
        m, b = me.copy(), board.copy()
        _build_site(m, b, k, paid)
        value = worth(view, m, b)
        if value > best_value:
            best_value, best = value, (m, b)
    if view.game.state.trains_available:
        comps = view.game.setup.comps
        for train, coal in board.shed.items():
            cost = comps.trains[train].cost_steel
            if me.steel < cost:
                continue
            m, b = me.copy(), board.copy()
            _buy_train(m, b, train, coal, cost)
            value = worth(view, m, b)
            if value > best_value:
                best_value, best = value, (m, b)
    if best is not None:
        _adopt(me, board, *best)


def _buy_train(me: Me, board: Board, train: int, coal: int, steel: int) -> None:
    me.steel -= steel
    board.steel_supply += steel
    if me.train is not None:
        board.shed[me.train] = 0
    board.shed.pop(train, None)
    me.coal += coal
    me.train = train


def _adopt(me: Me, board: Board, m: Me, b: Board) -> None:
    me.__dict__.update(m.__dict__)
    board.__dict__.update(b.__dict__)


def _best_works(view: View, me: Me, board: Board, conversions: int = 3) -> None:
    per_steel = 2 if me.train == 2 else 3
    best_value = -1.0
    best: tuple[int, int] = (0, 0)
    for steel in range(min(conversions, me.iron // per_steel, board.steel_supply) + 1):
        for stone in range(min(conversions - steel, me.rubble // 2, board.bag_stone) + 1):
            m = me.copy()
            _convert(m, steel, stone, per_steel)
            value = worth(view, m, board)
            if value > best_value:
                best_value, best = value, (steel, stone)
    _convert(me, best[0], best[1], per_steel)
    board.steel_supply -= best[0]
    board.bag_stone -= best[1]


def _convert(me: Me, steel: int, stone: int, per_steel: int) -> None:
    me.iron -= steel * per_steel
    me.steel += steel
    me.rubble -= 2 * stone
    me.stone += stone
    me.made += MADE_STEEL * steel + MADE_STONE * stone


def _best_contract(view: View, me: Me, board: Board) -> None:
    best_value = worth(view, me, board)
    best = None
    for card in board.office:
        m = me.copy()
        m.contracts.append(card)
        value = worth(view, m, board)
        if value > best_value:
            best_value, best = value, card
    if best is None and board.office:
        best = board.office[0]
    if best is not None:
        board.office.remove(best)
        me.contracts.append(best)


def _others_build(view: View, board: Board, player: int) -> None:
    """Another player on an earlier Build space takes the richest site it can pay for now."""
    p = view.game.state.players[player]
    edge = frontier(view, board)
    best = None
    for k, (station, _site, kind, cost, vp) in enumerate(board.free):
        if station == 0 or station >= edge or view.event_done[station]:
            continue
        if (p.steel if kind == "steel" else p.stone) >= cost and (best is None or vp > board.free[best][4]):
            best = k
    if best is not None:
        board.free.pop(best)


def _others_take(board: Board) -> None:
    """Another player on an earlier stock-yard space: three cubes, most of the commonest kind."""
    for _ in range(3):
        kind = max(("iron", "stone"), key=lambda k: board.yard[k])
        if board.yard[kind] == 0:
            break
        board.yard[kind] -= 1


def play_round(view: View, me: Me, board: Board, placed: dict[str, list[int | None]], start: tuple[str, int]) -> None:
    """Resolve the rest of the round from (area, first space index) on: the player's labourers choose greedily,
    the others' take their share."""
    s = view.game.state
    player = view.player
    first_area, first_space = start
    for area in AREAS[AREAS.index(first_area):]:
        spaces = placed.get(area, [])
        begin = first_space if area == first_area else 0
        for index in range(begin, len(spaces)):
            who = spaces[index]
            if who is None:
                continue
            mine = who == player
            other = s.players[who]
            if area == "A":
                if mine:
                    cubes = 3 + (1 if me.train == 3 else 0) + 2 * view.active.count(STOCK_YARD_PLUS_2)
                    coal = cubes if NO_COAL_LIMIT in view.active else 1
                    _take(me, board, _best_take(view, me, board, cubes, coal))
                    if index == len(spaces) - 1 and s.start_player != player and not s.start_locked:
                        me.start = True
                else:
                    _others_take(board)
            elif area == "E" or (area == "B" and s.extra_build_open):  # the extra Build area builds like E
                if mine:
                    _best_build(view, me, board)
                else:
                    _others_build(view, board, who)
            elif area == "B":
                if mine:
                    _dig(view, board, _dig_amount(view, player, me.train), me)
                else:
                    _dig(view, board, _dig_amount(view, who, other.train), None)
            elif area == "C":
                if mine:
                    _best_works(view, me, board)
            elif area == "D":
                if mine:
                    me.steel -= _lay(view, board, _lay_amount(view, player, me.train), me, me.steel)
                else:
                    _lay(view, board, _lay_amount(view, who, other.train), None, other.steel)
            elif area == "F":
                if mine:
                    _best_contract(view, me, board)
                elif board.office:
                    board.office.remove(max(board.office, key=lambda c: view.options[c].vp))
            elif area == "G" and mine:
                me.surveyor = min(me.surveyor + 1, len(view.rank) - 1)


def _round_worth(view: View, me: Me, board: Board, placed: dict[str, list[int | None]],
                 start: tuple[str, int]) -> float:
    m, b = me.copy(), board.copy()
    play_round(view, m, b, placed, start)
    return worth(view, m, b)


# --- the decisions ------------------------------------------------------------------------------------------------

def choose(game: Game, rng: random.Random) -> Action:
    """A sensible legal action for the player whose decision `game.waiting` is."""
    decision = game.waiting
    if decision is None or decision.player is None:
        raise ValueError("choose() answers a player's decision; chance outcomes come from DigitalSource.")
    legal = game.legal_actions()
    if not legal:
        raise ValueError(f"The engine offers no choice for {decision.kind}.")
    if len(legal) == 1:
        return legal[0]
    view = _view(game, decision.player)
    chooser = CHOOSERS.get(decision.kind)
    if chooser is None:
        return rng.choice(legal)
    return chooser(view, legal, rng)


def _placed(game: Game) -> dict[str, list[int | None]]:
    return {a: list(v) for a, v in game.state.placed.items()}


def _pick(scored: list[tuple[float, Action]], rng: random.Random, noise: float = NOISE) -> Action:
    return max(scored, key=lambda va: va[0] + rng.gauss(0.0, noise))[1]


def _resolution_start(game: Game) -> tuple[str, int]:
    """Where the rest of the round resumes after the current decision."""
    d = game.waiting
    assert d is not None
    if d.area is None:  # a contract's effect in the window before the area: the area is still to come
        return game.state.area or "G", 0
    area = d.area
    if d.space is None:  # an extra action after the area: the next area
        i = AREAS.index(area) + 1
        return (AREAS[i], 0) if i < len(AREAS) else ("G", 10**6)
    return area, d.space  # spaces are numbered from 1: index `space` is the next one


def _after(view: View, legal: list[Action], rng: random.Random, apply: Any, noise: float = NOISE) -> Action:
    """Score each action by the round it leaves; `apply(me, board, action)` plays it on the copies."""
    game = view.game
    me, board = _me(game, view.player), _board(game, view)
    placed = _placed(game)
    start = _resolution_start(game) if game.state.phase == "actions" else ("G", 10**6)
    scored = []
    for action in legal:
        m, b = me.copy(), board.copy()
        apply(m, b, action)
        scored.append((_round_worth(view, m, b, placed, start), action))
    return _pick(scored, rng, noise)


def choose_place(view: View, legal: list[Action], rng: random.Random) -> Action:
    game = view.game
    me, board = _me(game, view.player), _board(game, view)
    placed = _placed(game)
    base = _round_worth(view, me, board, placed, ("A", 0))
    scored = []
    for action in legal:
        if action["type"] != "place":
            continue
        area, space = action["area"], action["space"]
        trial = {a: list(v) for a, v in placed.items()}
        if area == "G":
            trial["G"].append(view.player)
        else:
            trial[area][space - 1] = view.player
        scored.append((_round_worth(view, me, board, trial, ("A", 0)) - base, action))
    hire = [a for a in legal if a["type"] == "hire_temporary"]
    if hire and scored:
        best = max(v for v, _ in scored)
        cost = game.setup.comps.trains[me.train or 0].temp_labourer_coal if me.train else 1
        if best > cost * COAL_WITH_TRAIN_VP * 0.8:
            return hire[0]
    return _pick(scored, rng)


def _apply_cubes(me: Me, board: Board, action: Action) -> None:
    _take(me, board, action)


def _apply_works(me: Me, board: Board, action: Action, per_steel: int) -> None:
    _convert(me, action.get("steel", 0), action.get("stone", 0), per_steel)
    board.steel_supply -= action.get("steel", 0)
    board.bag_stone -= action.get("stone", 0)


def choose_works(view: View, legal: list[Action], rng: random.Random) -> Action:
    per_steel = 2 if view.game.state.players[view.player].train == 2 else 3
    return _after(view, legal, rng, lambda m, b, a: _apply_works(m, b, a, per_steel), noise=0.2)


def _apply_build(view: View, me: Me, board: Board, action: Action) -> None:
    kind = action["type"]
    pay = action.get("pay", {})
    if kind == "build":
        station = view.station_ids.index(action["station"])
        k = next(i for i, f in enumerate(board.free) if f[0] == station and f[1] == action["site"])
        _station, _site, _kind, _cost, vp = board.free.pop(k)
        me.markers -= 1
        me.sites.append(vp)
        me.made += MADE_SITE
    elif kind == "buy_train":
        train = action["train"]
        if me.train is not None:
            board.shed[me.train] = 0
        me.coal += board.shed.pop(train, 0)
        me.train = train
    me.steel -= pay.get("steel", 0)
    me.stone -= pay.get("stone", 0)
    me.iron -= pay.get("iron", 0)
    me.rubble -= pay.get("rubble", 0)
    board.steel_supply += pay.get("steel", 0)
    board.bag_stone += pay.get("stone", 0)


def choose_build(view: View, legal: list[Action], rng: random.Random) -> Action:
    return _after(view, legal, rng, lambda m, b, a: _apply_build(view, m, b, a), noise=0.3)


def _apply_contract(me: Me, board: Board, action: Action) -> None:
    if action["type"] in ("take_contract", "keep_contract"):
        me.contracts.append(action["contract"])
        if action["contract"] in board.office:
            board.office.remove(action["contract"])


def choose_contract(view: View, legal: list[Action], rng: random.Random) -> Action:
    if view.game.waiting is not None and view.game.waiting.kind == "keep_contract":
        me = _me(view.game, view.player)
        # the card being played is among the choices and already counted as played: score each alone
        played = [a["contract"] for a in legal]
        base = [c for c in me.contracts if c not in played]
        board = _board(view.game, view)
        scored = []
        for action in legal:
            m = me.copy()
            m.contracts = [*base, action["contract"]]
            scored.append((worth(view, m, board), action))
        return _pick(scored, rng, 0.3)
    return _after(view, legal, rng, _apply_contract, noise=0.5)


def choose_cubes(view: View, legal: list[Action], rng: random.Random) -> Action:
    return _after(view, legal, rng, _apply_cubes, noise=0.3)


def _mine_in(view: View, area: str) -> int:
    return sum(1 for who in view.game.state.placed.get(area, []) if who == view.player)


def _worth_playing(view: View, card: int) -> bool:
    """Play a contract when its effect helps this round (its end bonus counts whether played or not)."""
    game = view.game
    s = game.state
    p = s.players[view.player]
    effect = game.setup.comps.contracts[card].effect
    last_chance = view.rounds_left == 0
    builds = _mine_in(view, "E") + (_mine_in(view, "B") if s.extra_build_open else 0)
    me, board = _me(game, view.player), _board(game, view)
    if effect == "lay_track_plus_1":
        lay = _lay_amount(view, view.player, p.train) * _mine_in(view, "D")
        return _mine_in(view, "D") > 0 and p.steel > lay and len(_layable(view, board)) > lay
    if effect == "extra_lay_track_after_all":
        lay = _lay_amount(view, view.player, p.train) * _mine_in(view, "D")
        return p.steel > lay and len(_layable(view, board)) > lay
    if effect == "excavate_next_site_after_all":
        return not s.extra_build_open and sum(board.rubble) > 0
    if effect == "excavate_double":
        return _mine_in(view, "B") > 0 and not s.extra_build_open
    if effect == "swap_middle_weather":
        return s.weather[1] in ("fog", "rain") and s.weather_supply.get("sun", 0) > 0
    if effect in ("draw_2_keep_1_of_3", "draw_3_cubes", "take_2_from_stock_yard", "surveyor_plus_1"):
        return True
    if effect == "stock_yard_plus_2":
        return _mine_in(view, "A") > 0
    if effect == "ignore_coal_limit":
        return _mine_in(view, "A") > 0 and s.stock_yard["coal"] > 1 and p.train is not None
    if effect == "build_3_iron_as_steel":
        return builds > 0 and p.iron >= 3
    if effect == "stone_cost_minus_1":
        edge = frontier(view, board)
        discount = 1 + sum(1 for c in view.active if c in STONE_DISCOUNT)
        return builds > 0 and any(kind == "stone" and 0 < station < edge and p.stone >= cost - discount
                                  for station, _, kind, cost, _ in board.free)
    if effect == "build_2_rubble_as_stone":
        return builds > 0 and p.rubble >= 2
    if effect == "extra_build_after_all":
        return len(_site_options(view, me, board)) > builds
    if effect == "convert_rubble_to_stone_x3":
        return p.rubble >= 2 and s.bag["stone"] > 0 and (last_chance or builds > 0 or p.rubble >= 8)
    if effect == "convert_2_iron_to_steel_x2":
        return p.iron >= 2
    if effect == "take_start_player_locked":
        return s.start_player != view.player
    if effect == "no_other_contracts_this_round":
        return last_chance or not any(c != card and game.setup.comps.contracts[c].letter for c in p.hand)
    if effect == "move_placed_labourer":
        return _moving_pays(view)
    return last_chance


def _moving_pays(view: View) -> bool:
    game = view.game
    me, board = _me(game, view.player), _board(game, view)
    placed = _placed(game)
    base = _round_worth(view, me, board, placed, ("A", 0))
    return _best_move(view, placed, me, board)[0] > base + 1.0


def _best_move(view: View, placed: dict[str, list[int | None]], me: Me, board: Board) -> tuple[float, Action | None]:
    best: tuple[float, Action | None] = (-1e9, None)
    mine = [(a, i + 1) for a in AREAS for i, who in enumerate(placed[a]) if who == view.player]
    targets = [(a, i + 1) for a in "ABCDEF" for i, who in enumerate(placed[a])
               if who is None and not _fogged(view, a, i + 1)]
    targets.append(("G", len(placed["G"]) + 1))
    for a, i in mine:
        for b, j in targets:
            if (a, i) == (b, j):
                continue
            value = _round_worth(view, me, board, _moved(placed, view.player, (a, i), (b, j)), ("A", 0))
            if value > best[0]:
                best = (value, {"type": "move_labourer", "player": view.player, "from": [a, i], "to": [b, j]})
    return best


def _moved(placed: dict[str, list[int | None]], player: int, src: tuple[str, int],
           dst: tuple[str, int]) -> dict[str, list[int | None]]:
    """The labourers as they would stand after one of `player`'s moves from `src` to `dst` (G has no spaces)."""
    trial = {k: list(v) for k, v in placed.items()}
    trial[src[0]][src[1] - 1] = None
    if dst[0] == "G":
        trial["G"].append(player)
    else:
        trial[dst[0]][dst[1] - 1] = player
    return trial


def _fogged(view: View, area: str, space: int) -> bool:
    """Fog blocks Excavation and Lay Track (all spaces, or the first `fog_blocks` with thin fog)."""
    s = view.game.state
    if not s.fog or area not in ("B", "D") or (area == "B" and s.extra_build_open):
        return False
    blocks = view.game.setup.options.fog_blocks
    return blocks is None or space <= blocks


def choose_window(view: View, legal: list[Action], rng: random.Random) -> Action:
    plays = [a for a in legal if a["type"] == "play_contract"]
    rng.shuffle(plays)
    for action in plays:
        if _worth_playing(view, action["contract"]):
            return action
    return next(a for a in legal if a["type"] == "pass")


def choose_move(view: View, legal: list[Action], rng: random.Random) -> Action:
    game = view.game
    me, board = _me(game, view.player), _board(game, view)
    placed = _placed(game)
    scored = []
    for action in legal:
        (a, i), (b, j) = action["from"], action["to"]
        scored.append((_round_worth(view, me, board, _moved(placed, view.player, (a, i), (b, j)), ("A", 0)), action))
    return _pick(scored, rng, 0.3)


def choose_convert(view: View, legal: list[Action], rng: random.Random) -> Action:
    d = view.game.waiting
    assert d is not None
    card = d.info.get("contract")
    effect = view.game.setup.comps.contracts[card].effect if card in view.game.setup.comps.contracts else ""
    steel = effect == "convert_2_iron_to_steel_x2"

    def apply(me: Me, board: Board, action: Action) -> None:
        times = action["times"]
        if steel:
            _convert(me, times, 0, 2)
            board.steel_supply -= times
        else:
            _convert(me, 0, times, 2)
            board.bag_stone -= times

    return _after(view, legal, rng, apply, noise=0.2)


def choose_maintenance(view: View, legal: list[Action], rng: random.Random) -> Action:
    def apply(me: Me, board: Board, action: Action) -> None:
        if action["type"] == "return_train":
            if me.train is not None:
                board.shed[me.train] = 0
            me.train = None
        elif action["pay"] == "steel":
            me.steel -= 1
        else:
            me.contracts.remove(action["pay"])

    return _after(view, legal, rng, apply, noise=0.2)


def choose_weather(view: View, legal: list[Action], rng: random.Random) -> Action:
    for weather in ("sun", "rain", "fog"):
        for action in legal:
            if action["weather"] == weather:
                return action
    return rng.choice(legal)


def choose_extra(view: View, legal: list[Action], rng: random.Random) -> Action:
    """Contracts 3 and 8: the extra excavation or track is always worth taking."""
    return next((a for a in legal if a["type"] != "decline"), legal[0])


CHOOSERS: dict[str, Any] = {
    "place": choose_place,
    "contracts": choose_window,
    "stock_yard": choose_cubes,
    "take_cubes": choose_cubes,
    "works": choose_works,
    "build": choose_build,
    "extra_build": choose_build,
    "take_contract": choose_contract,
    "keep_contract": choose_contract,
    "extra_excavation": choose_extra,
    "extra_lay_track": choose_extra,
    "swap_weather": choose_weather,
    "convert": choose_convert,
    "move_labourer": choose_move,
    "maintenance": choose_maintenance,
}
