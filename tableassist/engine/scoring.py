"""End-of-game scoring: the final scores, the live "score if the game ended now", and the best contracts.

Rules (English seed, "Scoring", "Contracts"): a player scores the printed VP of every station site and
track card with their ownership marker, the VP of the station their surveyor reached, their contracts,
+9 for train No. 4 and, in the Daffodil Line, their daffodils. Each rubble cube, each ownership marker
and the surveyor's position serve at most one contract, so the player chooses which contracts to fulfil;
like the online edition we choose the set that scores most, exactly.

The choice is a small 0/1 knapsack over four resources (site markers, track markers, rubble, surveyor).
Most contracts need one resource only; those interact only through that resource, so each resource gets
an exact one-dimensional knapsack table. The few contracts that need two or more resources are searched
exhaustively (branch and bound), each leaf completed from those tables. Exact, and about a millisecond
for all 28 contracts at once.

Pure Python, stdlib only: the engine calls this for its final scores and its live estimate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tableassist.engine.components import Components, Contract

# The four resources a contract can consume, in the order of the need vectors below.
RESOURCES = ("sites", "tracks", "rubble", "surveyor")
BREAKDOWN_KEYS = ("sites", "tracks", "surveyor", "contracts", "train", "daffodils")
TIE_RULES = ("last_in_turn_order", "shared")
SNOWDON_TRAIN = 4  # train No. 4, Snowdon: +9 VP at game end
SNOWDON_TRAIN_VP = 9
DAFFODIL_SET = 4

Used = dict[str, int | str]


@dataclass(frozen=True)
class Holding:
    """What one player has at the end of the game (or right now, for the live estimate)."""

    name: str
    site_vps: list[int]  # printed VP of each station site (excavation or building) with their marker
    track_vps: list[int]  # printed VP of each track card with their marker
    rubble: int
    coal: int
    surveyor: str  # station id, e.g. "clogwyn"
    train: int | None
    contracts: list[int]  # contract numbers held, played or not
    daffodils: int = 0


@dataclass(frozen=True)
class PlayerScore:
    name: str
    total: int
    breakdown: dict[str, int]
    fulfilled: list[tuple[int, Used]]  # (contract number, what it used), in contract order
    contract_vps: dict[int, int] = field(default_factory=dict)  # VP each fulfilled contract scored

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "fulfilled": {str(number): dict(used) for number, used in self.fulfilled},
            "contract_vps": {str(number): vp for number, vp in self.contract_vps.items()},
        }


@dataclass(frozen=True)
class TableScore:
    players: list[PlayerScore]  # in turn order of the final round
    winners: list[str]
    tie_rule: str

    def to_json(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "winners": list(self.winners),
            "tie_rule": self.tie_rule,
        }


@dataclass(frozen=True)
class Option:
    """One contract this player could fulfil: what it would take and what it would score."""

    number: int
    needs: tuple[int, int, int, int]  # sites, tracks, rubble, surveyor (0 or 1)
    vp: int


def daffodil_vp(daffodils: int, set_scores: Sequence[int] = (3, 9, 19, 34)) -> int:
    """Sets of four score 3/9/19/34 for 1/2/3/4 daffodils; a part set scores by its size (6 → 34 + 9)."""
    full, rest = divmod(daffodils, DAFFODIL_SET)
    return full * set_scores[DAFFODIL_SET - 1] + (set_scores[rest - 1] if rest else 0)


def _surveyor_rank(holding: Holding, components: Components) -> float:
    try:
        return components.station(holding.surveyor).rank
    except KeyError:
        raise ValueError(f"{holding.name}: unknown surveyor station {holding.surveyor!r}") from None


def contract_option(contract: Contract, surveyor_rank: float) -> Option | None:
    """What fulfilling `contract` needs and scores, or None when it cannot score (or is the coal card)."""
    cond = contract.condition
    known = {"sites", "tracks", "rubble", "surveyor_min", "surveyor_tiers", "coal_vp"}
    unknown = set(cond) - known
    if unknown:
        raise ValueError(f"contract {contract.number}: unknown condition {sorted(unknown)}")
    if "coal_vp" in cond:
        return None  # coal is scored directly: nothing else competes for it
    vp = contract.vp
    uses_surveyor = 0
    if "surveyor_min" in cond:
        if surveyor_rank < cond["surveyor_min"]:
            return None
        uses_surveyor = 1
    if "surveyor_tiers" in cond:
        reached = [tier_vp for station, tier_vp in cond["surveyor_tiers"] if surveyor_rank >= station]
        if not reached:
            return None
        vp = max(reached)
        uses_surveyor = 1
    needs = (int(cond.get("sites", 0)), int(cond.get("tracks", 0)), int(cond.get("rubble", 0)), uses_surveyor)
    if vp <= 0:
        return None
    return Option(contract.number, needs, vp)


def _knapsack_1d(options: Sequence[Option], resource: int, capacity: int) -> tuple[list[int], list[list[bool]]]:
    """best[c] = most VP from `options` using at most c of `resource`; take[i][c] to rebuild the choice."""
    best = [0] * (capacity + 1)
    take: list[list[bool]] = []
    for option in options:
        need = option.needs[resource]
        row = [False] * (capacity + 1)
        for c in range(capacity, need - 1, -1):
            candidate = best[c - need] + option.vp
            if candidate > best[c]:
                best[c] = candidate
                row[c] = True
        take.append(row)
    return best, take


def _rebuild_1d(options: Sequence[Option], resource: int, take: list[list[bool]], capacity: int) -> list[Option]:
    chosen = []
    c = capacity
    for i in range(len(options) - 1, -1, -1):
        if take[i][c]:
            chosen.append(options[i])
            c -= options[i].needs[resource]
    return chosen


def best_contracts(options: Iterable[Option], capacity: tuple[int, int, int, int]) -> list[Option]:
    """The set of options with the most VP whose summed needs fit within `capacity` (exact)."""
    singles: list[list[Option]] = [[] for _ in RESOURCES]
    multis: list[Option] = []
    for option in options:
        if any(n > cap for n, cap in zip(option.needs, capacity, strict=True)):
            continue  # cannot be fulfilled even alone
        used = [r for r, n in enumerate(option.needs) if n > 0]
        if len(used) == 1:
            singles[used[0]].append(option)
        else:
            multis.append(option)  # two or more resources (or none: then the search always takes it)
    tables = [_knapsack_1d(singles[r], r, capacity[r]) for r in range(len(RESOURCES))]

    def singles_value(left: Sequence[int]) -> int:
        return sum(tables[r][0][left[r]] for r in range(len(RESOURCES)))

    # Branch and bound over the multi-resource contracts, richest first so good leaves come early.
    multis.sort(key=lambda o: (-o.vp, o.number))
    suffix_vp = [0] * (len(multis) + 1)
    for i in range(len(multis) - 1, -1, -1):
        suffix_vp[i] = suffix_vp[i + 1] + multis[i].vp
    best_value = -1
    best_pick: list[Option] = []
    best_left: list[int] = list(capacity)
    pick: list[Option] = []
    left = list(capacity)

    def search(i: int, value: int) -> None:
        nonlocal best_value, best_pick, best_left
        rest = singles_value(left)
        if i == len(multis):
            if value + rest > best_value:
                best_value, best_pick, best_left = value + rest, list(pick), list(left)
            return
        if value + suffix_vp[i] + rest <= best_value:
            return  # even taking every remaining contract cannot beat what we have
        option = multis[i]
        if all(n <= c for n, c in zip(option.needs, left, strict=True)):
            for r, n in enumerate(option.needs):
                left[r] -= n
            pick.append(option)
            search(i + 1, value + option.vp)
            pick.pop()
            for r, n in enumerate(option.needs):
                left[r] += n
        search(i + 1, value)

    search(0, 0)
    chosen = list(best_pick)
    for r in range(len(RESOURCES)):
        chosen.extend(_rebuild_1d(singles[r], r, tables[r][1], best_left[r]))
    return sorted(chosen, key=lambda o: o.number)


def _used(option: Option, surveyor: str) -> Used:
    used: Used = {name: n for name, n in zip(RESOURCES[:3], option.needs[:3], strict=True) if n}
    if option.needs[3]:
        used["surveyor"] = surveyor
    return used


def score_player(holding: Holding, components: Components) -> PlayerScore:
    """One player's score: the final score at game end, or the live estimate mid-game (same rules)."""
    rank = _surveyor_rank(holding, components)
    surveyor_vp = components.station(holding.surveyor).surveyor_vp
    options: list[Option] = []
    fulfilled: list[tuple[int, Used]] = []
    contract_vps: dict[int, int] = {}
    coal_vp = 0
    for number in holding.contracts:
        contract = components.contracts.get(number)
        if contract is None:
            raise ValueError(f"{holding.name}: unknown contract {number}")
        if "coal_vp" in contract.condition:
            vp = holding.coal * int(contract.condition["coal_vp"])
            if vp > 0:
                coal_vp += vp
                fulfilled.append((number, {"coal": holding.coal}))
                contract_vps[number] = vp
            continue
        option = contract_option(contract, rank)
        if option is not None:
            options.append(option)
    capacity = (len(holding.site_vps), len(holding.track_vps), holding.rubble, 1)
    for option in best_contracts(options, capacity):
        fulfilled.append((option.number, _used(option, holding.surveyor)))
        contract_vps[option.number] = option.vp
    fulfilled.sort(key=lambda f: f[0])
    daffodil_scores = components.raw.get("daffodils", {}).get("set_scores", (3, 9, 19, 34))
    breakdown = {
        "sites": sum(holding.site_vps),
        "tracks": sum(holding.track_vps),
        "surveyor": surveyor_vp,
        "contracts": sum(contract_vps.values()),
        "train": SNOWDON_TRAIN_VP if holding.train == SNOWDON_TRAIN else 0,
        "daffodils": daffodil_vp(holding.daffodils, daffodil_scores),
    }
    return PlayerScore(
        name=holding.name,
        total=sum(breakdown.values()),
        breakdown=breakdown,
        fulfilled=fulfilled,
        contract_vps=dict(sorted(contract_vps.items())),
    )


def winners(scores: Sequence[PlayerScore], tie_rule: str) -> list[str]:
    """Most VP wins. Tied: the one last in turn order of the final round, or all of them ("shared")."""
    if tie_rule not in TIE_RULES:
        raise ValueError(f"tie_rule must be one of {', '.join(TIE_RULES)}, not {tie_rule!r}")
    if not scores:
        return []
    top = max(s.total for s in scores)
    tied = [s.name for s in scores if s.total == top]
    return tied if tie_rule == "shared" else tied[-1:]


def score_table(holdings: Sequence[Holding], tie_rule: str, components: Components) -> TableScore:
    """Every player's score, in turn order of the final round, and the winners by the tie rule."""
    scores = [score_player(h, components) for h in holdings]
    return TableScore(players=scores, winners=winners(scores, tie_rule), tie_rule=tie_rule)
