"""Chance outcomes as decisions (route shuffle, engine shed, contract reveals and backs, bag draws), and
`DigitalSource`, which draws them at random from the exact hidden state. The table may supply the same
outcomes by observation; the engine only checks that each is possible."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tableassist.engine.core import Ctx, Flow
from tableassist.engine.decision import Action
from tableassist.engine.state import BAG_KINDS, GOODS, WEATHERS

if TYPE_CHECKING:
    from tableassist.engine.game import Game


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def vectors(total: int, caps: dict[str, int], kinds: tuple[str, ...]) -> list[dict[str, int]]:
    """Every way to split `total` cubes over `kinds` within `caps`, as dicts in kind order."""
    out: list[dict[str, int]] = []

    def rec(i: int, left: int, acc: dict[str, int]) -> None:
        if i == len(kinds) - 1:
            if left <= caps.get(kinds[i], 0):
                out.append({**acc, kinds[i]: left})
            return
        for k in range(min(left, caps.get(kinds[i], 0)) + 1):
            rec(i + 1, left - k, {**acc, kinds[i]: k})

    rec(0, total, {})
    return out


def reshuffle_if_empty(ctx: Ctx) -> None:
    """Ruling: when the contract deck is empty and a card is needed, the discards become the new deck."""
    s = ctx.state
    if not s.deck and s.discards:
        s.deck = set(s.discards)
        s.discards = []
        ctx.emit("deck_reshuffled", cards=len(s.deck))


def reveal(ctx: Ctx, why: str) -> Flow[int | None]:
    """Turn the top contract of the deck face up (a chance outcome); None when no card is left."""
    s = ctx.state
    reshuffle_if_empty(ctx)
    if not s.deck:
        return None
    back = s.deck_top_back

    def why_not(action: Action) -> str | None:
        card = action.get("contract")
        if card not in s.deck:
            return f"Contract {card} is not in the deck."
        if back is not None and ctx.comps.contracts[card].back != back:
            return f"The top card shows {back} on its back, so it cannot be contract {card}."
        return None

    def legal() -> list[Action]:
        return [{"type": "reveal_contract", "contract": c} for c in sorted(s.deck)
                if back is None or ctx.comps.contracts[c].back == back]

    action = yield ctx.decide("reveal_contract", None, f"Turn up the top contract ({why})", ("reveal_contract",),
                              legal, why_not, complete=True, purpose=why, back=back)
    card: int = action["contract"]
    s.deck.discard(card)
    s.deck_top_back = None
    return card


def observe_back(ctx: Ctx) -> Flow[str | None]:
    """The weather icon on the back of the deck's top card; the next reveal must match it."""
    s = ctx.state
    reshuffle_if_empty(ctx)
    if not s.deck:
        return None
    if s.deck_top_back is not None:
        return s.deck_top_back
    backs = sorted({ctx.comps.contracts[c].back for c in s.deck})

    def why_not(action: Action) -> str | None:
        if action.get("weather") not in backs:
            return f"No contract left in the deck has {action.get('weather')} on its back."
        return None

    action = yield ctx.decide("contract_back", None, "Which weather icon is on the back of the top contract?",
                              ("contract_back",), lambda: [{"type": "contract_back", "weather": w} for w in backs],
                              why_not, complete=True)
    weather: str = action["weather"]
    s.deck_top_back = weather
    ctx.emit("contract_back_seen", weather=weather)
    return weather


def draw(ctx: Ctx, count: int, purpose: str) -> Flow[dict[str, int]]:
    """Draw cubes from the bag (a chance outcome): as many as asked, or all that are left."""
    s = ctx.state
    count = min(count, sum(s.bag.values()))
    if count == 0:
        return dict.fromkeys(BAG_KINDS, 0)
    caps = dict(s.bag)

    def why_not(action: Action) -> str | None:
        for kind in BAG_KINDS:
            value = action.get(kind, 0)
            if not _whole(value):
                return f"The number of {kind} cubes must be a whole number."
            if value > caps[kind]:
                return f"The bag holds only {caps[kind]} {kind} cubes."
        if sum(action.get(k, 0) for k in BAG_KINDS) != count:
            return f"Exactly {count} cubes are drawn."
        return None

    action = yield ctx.decide("draw", None, f"Draw {count} cubes from the bag", ("draw",),
                              lambda: [{"type": "draw", **v} for v in vectors(count, caps, BAG_KINDS)],
                              why_not, complete=True, count=count, purpose=purpose)
    drawn = {k: action.get(k, 0) for k in BAG_KINDS}
    for kind in BAG_KINDS:
        s.bag[kind] -= drawn[kind]
    ctx.emit("cubes_drawn", purpose=purpose, **drawn)
    return drawn


def solo_stock_yard(ctx: Ctx) -> Flow[None]:
    """Solo: 6 random goods cubes from the bag go to the stock yard (event cubes drawn are put back)."""
    s = ctx.state
    caps = {k: s.bag[k] for k in GOODS}
    count = min(ctx.comps.raw["stock_yard"]["solo_start_random_cubes"], sum(caps.values()))

    def why_not(action: Action) -> str | None:
        for kind in GOODS:
            value = action.get(kind, 0)
            if not _whole(value) or value > caps[kind]:
                return f"The bag holds {caps[kind]} {kind} cubes."
        if sum(action.get(k, 0) for k in GOODS) != count:
            return f"Exactly {count} cubes go to the stock yard."
        return None

    action = yield ctx.decide("stock_yard_setup", None, f"Draw {count} cubes for the stock yard",
                              ("stock_yard_setup",),
                              lambda: [{"type": "stock_yard_setup", **v} for v in vectors(count, caps, GOODS)],
                              why_not, complete=True, count=count)
    for kind in GOODS:
        n = action.get(kind, 0)
        s.bag[kind] -= n
        s.stock_yard[kind] += n
    ctx.emit("stock_yard_restocked", **{k: action.get(k, 0) for k in GOODS})


class DigitalSource:
    """The digital bag and deck: random chance outcomes, reproducible from the seed."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def chance(self, game: Game) -> Action:
        d = game.waiting
        if d is None or d.player is not None:
            raise ValueError("The game is not waiting for a chance outcome.")
        s = game.state
        comps = game.setup.comps
        rng = self.rng
        if d.kind == "route":
            count: int = d.info["count"]
            return {"type": "route", "tracks": rng.sample([t.id for t in comps.track_cards], count)}
        if d.kind == "engine_shed":
            trains = sorted(comps.trains)
            rng.shuffle(trains)
            return {"type": "engine_shed", "trains": trains[:-1], "set_aside": trains[-1]}
        if d.kind == "reveal_contract":
            back = d.info.get("back")
            pool = sorted(c for c in s.deck if back is None or comps.contracts[c].back == back)
            return {"type": "reveal_contract", "contract": rng.choice(pool)}
        if d.kind == "contract_back":
            return {"type": "contract_back", "weather": comps.contracts[rng.choice(sorted(s.deck))].back}
        if d.kind in ("draw", "stock_yard_setup"):
            kinds = BAG_KINDS if d.kind == "draw" else GOODS
            pool_cubes = [k for k in kinds for _ in range(s.bag[k])]
            picked = rng.sample(pool_cubes, d.info["count"])
            out: dict[str, Any] = {"type": d.kind}
            for kind in kinds:
                out[kind] = picked.count(kind)
            return out
        raise ValueError(f"No digital source for {d.kind}.")


__all__ = ["DigitalSource", "WEATHERS", "draw", "observe_back", "reveal", "solo_stock_yard", "vectors"]
