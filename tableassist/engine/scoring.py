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

import difflib
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
    unfulfilled: list[tuple[int, str]] = field(default_factory=list)  # held contracts scoring nothing, and why

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "breakdown": dict(self.breakdown),
            "fulfilled": {str(number): dict(used) for number, used in self.fulfilled},
            "contract_vps": {str(number): vp for number, vp in self.contract_vps.items()},
            "unfulfilled": {str(number): why for number, why in self.unfulfilled},
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
    # More of a resource than every contract together needs changes nothing; clipping keeps the tables small
    # even for an absurd count (a billion rubble).
    demand = [sum(o.needs[r] for o in [*singles[r], *multis]) for r in range(len(RESOURCES))]
    usable = [min(c, d) for c, d in zip(capacity, demand, strict=True)]
    tables = [_knapsack_1d(singles[r], r, usable[r]) for r in range(len(RESOURCES))]

    sites_best, tracks_best, rubble_best, surveyor_best = (table[0] for table in tables)

    # Branch and bound over the multi-resource contracts, richest first so good leaves come early.
    multis.sort(key=lambda o: (-o.vp, o.number))
    best_value = -1
    best_pick: list[Option] = []
    best_left: list[int] = list(usable)
    pick: list[Option] = []
    left = list(usable)

    def search(i: int, value: int) -> None:
        nonlocal best_value, best_pick, best_left
        s, t, r, v = left
        rest = sites_best[s] + tracks_best[t] + rubble_best[r] + surveyor_best[v]
        # Bound: the remaining contracts that still fit on their own, all taken, plus the best of the singles.
        fitting = [o for o in multis[i:] if o.needs[0] <= s and o.needs[1] <= t and o.needs[2] <= r
                   and o.needs[3] <= v]
        if value + rest + sum(o.vp for o in fitting) <= best_value:
            return
        if not fitting:
            best_value, best_pick, best_left = value + rest, list(pick), list(left)
            return
        option = fitting[0]
        j = multis.index(option, i)
        for k, n in enumerate(option.needs):
            left[k] -= n
        pick.append(option)
        search(j + 1, value + option.vp)
        pick.pop()
        for k, n in enumerate(option.needs):
            left[k] += n
        search(j + 1, value)

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


def _plural(n: int, word: str) -> str:
    singular = {"sites": "site", "tracks": "track", "rubble": "rubble", "coal": "coal"}[word]
    return f"{n} {word if n != 1 else singular}"


def _why_not(contract: Contract, holding: Holding, station_rank: float, chosen: Sequence[Option]) -> str:
    """One phrase a player at the table understands: why this held contract scores nothing."""
    cond = contract.condition
    if "coal_vp" in cond:
        return "no coal in the personal supply"
    have = {"sites": len(holding.site_vps), "tracks": len(holding.track_vps), "rubble": holding.rubble}
    short = [f"needs {_plural(int(cond[k]), k)}, has {have[k]}" for k in ("sites", "tracks", "rubble")
             if int(cond.get(k, 0)) > have[k]]
    if "surveyor_min" in cond and station_rank < cond["surveyor_min"]:
        short.append(f"needs the surveyor at station {cond['surveyor_min']} or beyond")
    if "surveyor_tiers" in cond and all(station_rank < station for station, _ in cond["surveyor_tiers"]):
        short.append(f"needs the surveyor at station {min(st for st, _ in cond['surveyor_tiers'])} or beyond")
    if short:
        return "; ".join(short)
    needs = [k for k in RESOURCES if cond.get(k, 0) or (k == "surveyor" and (
        "surveyor_min" in cond or "surveyor_tiers" in cond))]
    rivals = [o.number for o in chosen if any(o.needs[RESOURCES.index(k)] for k in needs)]
    if not rivals:
        return "it is worth nothing here"
    what = needs[0] if len(needs) == 1 else f"{', '.join(needs[:-1])} and {needs[-1]}"
    verb = "scores" if needs in (["rubble"], ["surveyor"]) else "score"
    cards = ", ".join(str(n) for n in rivals)
    return f"the {what} it needs {verb} more on contract{'s' if len(rivals) > 1 else ''} {cards}"


def score_player(holding: Holding, components: Components) -> PlayerScore:
    """One player's score: the final score at game end, or the live estimate mid-game (same rules)."""
    for count_name in ("rubble", "coal", "daffodils"):
        if getattr(holding, count_name) < 0:
            raise ValueError(f"{holding.name}: {count_name} must not be negative")
    rank = _surveyor_rank(holding, components)
    surveyor_vp = components.station(holding.surveyor).surveyor_vp
    options: list[Option] = []
    fulfilled: list[tuple[int, Used]] = []
    contract_vps: dict[int, int] = {}
    held: list[Contract] = []
    for number in holding.contracts:
        contract = components.contracts.get(number)
        if contract is None:
            raise ValueError(f"{holding.name}: unknown contract {number}")
        held.append(contract)
        if "coal_vp" in contract.condition:
            vp = holding.coal * int(contract.condition["coal_vp"])
            if vp > 0:
                fulfilled.append((number, {"coal": holding.coal}))
                contract_vps[number] = vp
            continue
        option = contract_option(contract, rank)
        if option is not None:
            options.append(option)
    capacity = (len(holding.site_vps), len(holding.track_vps), holding.rubble, 1)
    chosen = best_contracts(options, capacity)
    for option in chosen:
        fulfilled.append((option.number, _used(option, holding.surveyor)))
        contract_vps[option.number] = option.vp
    fulfilled.sort(key=lambda f: f[0])
    unfulfilled = [(c.number, _why_not(c, holding, rank, chosen))
                   for c in sorted(held, key=lambda c: c.number) if c.number not in contract_vps]
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
        unfulfilled=unfulfilled,
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


# --- The score calculator's input: a described table (DESIGN.md, "`score` input") -----------------------


class ScoreInputError(ValueError):
    """A described table that cannot be scored; the message is one line naming the field and the problem."""


PLAYER_FIELDS = ("name", "site_vps", "track_vps", "rubble", "coal", "surveyor", "train", "contracts", "daffodils")
TABLE_FIELDS = ("tie_rule", "players")


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return repr(value)


def _check_keys(obj: dict[str, Any], known: Sequence[str], where: str) -> None:
    """A misspelt field would silently score nothing ("daffodil": 6), so near misses are refused.

    Other extra fields (a colour, a comment) are ignored: they cannot change a score.
    """
    for key in obj:
        if key in known:
            continue
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.75)
        if close:
            raise ScoreInputError(f"{where}.{key}: unknown field; did you mean {close[0]!r}?")


def _whole(obj: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    if key not in obj:
        if default is not None:
            return default
        raise ScoreInputError(f"{where}.{key}: missing (a whole number, 0 or more)")
    value = obj[key]
    if not _is_whole(value):
        raise ScoreInputError(f"{where}.{key}: must be a whole number, not {_type_name(value)}")
    if value < 0:
        raise ScoreInputError(f"{where}.{key}: must not be negative (got {value})")
    return int(value)


def _whole_list(obj: dict[str, Any], key: str, where: str, what: str) -> list[int]:
    if key not in obj:
        raise ScoreInputError(f"{where}.{key}: missing (a list of {what}; [] for none)")
    values = obj[key]
    if not isinstance(values, list):
        raise ScoreInputError(f"{where}.{key}: must be a list of {what}, not {_type_name(values)}")
    for i, value in enumerate(values):
        if not _is_whole(value):
            raise ScoreInputError(f"{where}.{key}[{i}]: must be a whole number, not {_type_name(value)}")
        if value < 0:
            raise ScoreInputError(f"{where}.{key}[{i}]: must not be negative (got {value})")
    return [int(v) for v in values]


def station_id(text: str, components: Components) -> str | None:
    """The station a typed name means: its id, an alias, or its printed name, in any case ("Clogwyn Station")."""
    key = "_".join(text.strip().lower().replace("-", " ").split())
    aliases = {k: v for k, v in components.raw.get("surveyor_aliases", {}).items() if not k.startswith("_")}
    for station in components.stations:
        names = {station.id, "_".join(station.name.lower().split())}
        if key in names or aliases.get(key) == station.id:
            return station.id
    return None


def _holding_from_json(obj: object, where: str, components: Components) -> Holding:
    if not isinstance(obj, dict):
        raise ScoreInputError(f"{where}: must be an object with the player's name, markers, cubes and cards, "
                              f"not {_type_name(obj)}")
    _check_keys(obj, PLAYER_FIELDS, where)
    if "name" not in obj:
        raise ScoreInputError(f"{where}.name: missing (the player's name or colour)")
    name = obj["name"]
    if not isinstance(name, str) or not name.strip():
        raise ScoreInputError(f"{where}.name: must be a non-empty text, not {_type_name(name)}")
    if "surveyor" not in obj:
        raise ScoreInputError(f"{where}.surveyor: missing (the station the surveyor reached, e.g. \"clogwyn\")")
    surveyor = obj["surveyor"]
    if not isinstance(surveyor, str):
        raise ScoreInputError(f"{where}.surveyor: must be a station name such as \"clogwyn\", not "
                              f"{_type_name(surveyor)}")
    surveyor = station_id(surveyor, components) or surveyor  # an unknown name is refused by validate_table
    if "train" not in obj:
        raise ScoreInputError(f"{where}.train: missing (the train number, or null for none)")
    train = obj["train"]
    if train is not None and not _is_whole(train):
        raise ScoreInputError(f"{where}.train: must be a train number or null, not {_type_name(train)}")
    return Holding(
        name=name,
        site_vps=_whole_list(obj, "site_vps", where, "site VPs"),
        track_vps=_whole_list(obj, "track_vps", where, "track-card VPs"),
        rubble=_whole(obj, "rubble", where),
        coal=_whole(obj, "coal", where),
        surveyor=surveyor,
        train=train,
        contracts=_whole_list(obj, "contracts", where, "contract numbers"),
        daffodils=_whole(obj, "daffodils", where, default=0),
    )


def table_from_json(data: object, components: Components) -> tuple[list[Holding], str]:
    """The players (in turn order of the final round) and the tie rule of a described table, checked.

    Raises ScoreInputError naming the first bad field.
    """
    if not isinstance(data, dict):
        raise ScoreInputError(f"the input must be a JSON object with a \"players\" list, not {_type_name(data)}")
    _check_keys(data, TABLE_FIELDS, "input")
    tie_rule = data.get("tie_rule")
    if tie_rule is None:
        tie_rule = "last_in_turn_order"  # absent or null: the English online rules
    if tie_rule not in TIE_RULES:
        raise ScoreInputError(f"tie_rule: must be \"last_in_turn_order\" or \"shared\", not {_type_name(tie_rule)}")
    if "players" not in data:
        raise ScoreInputError("players: missing (a list of players in turn order of the final round)")
    players = data["players"]
    if not isinstance(players, list):
        raise ScoreInputError(f"players: must be a list of players, not {_type_name(players)}")
    lowest, highest = components.raw["players"]["min"], components.raw["players"]["max"]
    if not lowest <= len(players) <= highest:
        raise ScoreInputError(f"players: Snowdonia is for {lowest} to {highest} players, this table has "
                              f"{len(players)}")
    holdings = [_holding_from_json(p, f"players[{i}]", components) for i, p in enumerate(players)]
    validate_table(holdings, components)
    return holdings, tie_rule


def validate_table(holdings: Sequence[Holding], components: Components) -> None:
    """Rule checks on a whole table: what the box and the player count allow. Raises ScoreInputError."""
    count = len(holdings)
    markers = int(components.raw["players"]["ownership_markers"])
    in_play = {s.id for s in components.stations_for(count)}
    all_stations = [s.id for s in components.stations]
    allowed = components.contracts_for(count)
    lowest_contract, highest_contract = min(components.contracts), max(components.contracts)
    names: dict[str, int] = {}
    contract_holder: dict[int, str] = {}
    train_holder: dict[int, str] = {}
    for i, h in enumerate(holdings):
        where = f"players[{i}]"
        if h.name in names:
            raise ScoreInputError(f"{where}.name: {h.name!r} is already the name of players[{names[h.name]}]; "
                                  "names must differ")
        names[h.name] = i
        placed = len(h.site_vps) + len(h.track_vps)
        if placed > markers:
            raise ScoreInputError(f"{where}: {h.name} has {placed} ownership markers on sites and tracks "
                                  f"({len(h.site_vps)} + {len(h.track_vps)}), but each player has only {markers}")
        if h.surveyor not in all_stations:
            raise ScoreInputError(f"{where}.surveyor: unknown station {h.surveyor!r}; stations are "
                                  f"{', '.join(all_stations)}")
        if h.surveyor not in in_play:
            station = components.station(h.surveyor)
            lo, hi = min(station.player_counts), max(station.player_counts)
            counts = str(lo) if lo == hi else f"{lo}–{hi}"
            raise ScoreInputError(f"{where}.surveyor: {station.name} is only in play with {counts} players, "
                                  f"this table has {count}")
        if h.train is not None:
            if h.train not in components.trains:
                raise ScoreInputError(f"{where}.train: there is no train No. {h.train} (trains are "
                                      f"{min(components.trains)}–{max(components.trains)}, or null)")
            if h.train in train_holder:
                raise ScoreInputError(f"{where}.train: train No. {h.train} is already held by "
                                      f"{train_holder[h.train]}; each train exists once")
            train_holder[h.train] = h.name
        for j, number in enumerate(h.contracts):
            field_name = f"{where}.contracts[{j}]"
            if number not in components.contracts:
                raise ScoreInputError(f"{field_name}: there is no contract {number} (contracts are "
                                      f"{lowest_contract}–{highest_contract})")
            if number not in allowed:
                needed = components.contracts[number].players_min
                raise ScoreInputError(f"{field_name}: contract {number} is only used with {needed} or more "
                                      f"players, this table has {count}")
            if number in contract_holder:
                other = contract_holder[number]
                again = "twice" if other == h.name else f"by {h.name} and by {other}"
                raise ScoreInputError(f"{field_name}: contract {number} is held {again}; each card exists once")
            contract_holder[number] = h.name
