"""The game state: plain mutable dataclasses the rules mutate in place, with `to_json()` for the UI.

Treat `game.state` as read only outside the engine; undo replays the actions rather than copying state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

GOODS = ("iron", "stone", "coal")
BAG_KINDS = ("iron", "stone", "coal", "event")
WEATHERS = ("sun", "rain", "fog")


@dataclass
class PlayerState:
    name: str
    colour: str
    iron: int = 0
    stone: int = 0
    coal: int = 0
    rubble: int = 0
    steel: int = 0
    markers: int = 16  # ownership markers left in the personal supply
    labourers: int = 2  # labourers in the personal supply, still to be placed this round
    temporary_in_pub: bool = True
    surveyor: int = 0  # index into GameState.stations (0 = Llanberis)
    train: int | None = None
    hand: list[int] = field(default_factory=list)  # contracts held, not yet played
    played: list[int] = field(default_factory=list)  # contracts played (turned sideways)
    sites: list[tuple[str, str, int]] = field(default_factory=list)  # (station id, kind, site index)
    tracks: list[int] = field(default_factory=list)  # track card ids laid by this player

    def goods(self, kind: str) -> int:
        value: int = getattr(self, kind)
        return value

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "colour": self.colour, "iron": self.iron, "stone": self.stone, "coal": self.coal,
            "rubble": self.rubble, "steel": self.steel, "markers": self.markers, "labourers": self.labourers,
            "temporary_in_pub": self.temporary_in_pub, "surveyor": self.surveyor, "train": self.train,
            "hand": list(self.hand), "played": list(self.played),
            "sites": [list(s) for s in self.sites], "tracks": list(self.tracks),
        }


@dataclass
class TrackState:
    card: int
    rubble: int
    vp: int
    before: int  # index of the station this card leads up to
    laid: bool = False
    laid_by: int | None = None  # player; None when laid by an event (or not laid)

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "rubble": self.rubble, "vp": self.vp, "before": self.before,
                "laid": self.laid, "laid_by": self.laid_by}


@dataclass
class SiteState:
    kind: str  # "excavation" | "building"
    vp: int
    rubble: int = 0  # excavation sites: rubble still on the site
    cost: dict[str, int] = field(default_factory=dict)  # building sites
    owner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "vp": self.vp, "rubble": self.rubble, "cost": dict(self.cost), "owner": self.owner}


@dataclass
class StationState:
    id: str
    name: str
    number: str
    surveyor_vp: int
    excavation: list[SiteState]
    building: list[SiteState]
    completed_by_event: bool = False  # a game marker sits on it: no more Excavation or Build here

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "number": self.number, "surveyor_vp": self.surveyor_vp,
                "excavation": [s.to_json() for s in self.excavation],
                "building": [s.to_json() for s in self.building], "completed_by_event": self.completed_by_event}


@dataclass
class GameState:
    players: list[PlayerState]
    stations: list[StationState] = field(default_factory=list)
    route: list[TrackState] = field(default_factory=list)
    bag: dict[str, int] = field(default_factory=dict)
    stock_yard: dict[str, int] = field(default_factory=lambda: {"iron": 0, "stone": 0, "coal": 0})
    box: dict[str, int] = field(default_factory=dict)  # pieces not in this game (iron, stone, coal, event)
    steel_supply: int = 18
    rubble_supply: int = 90
    weather: list[str | None] = field(default_factory=lambda: [None, None, None])  # current ("!"), middle, lowest
    weather_supply: dict[str, int] = field(default_factory=dict)
    excavation_index: int = 1
    lay_index: int = 1
    excavation_track: tuple[int, ...] = ()
    lay_track_track: tuple[int, ...] = ()
    event_track: list[bool] = field(default_factory=lambda: [False] * 10)
    event_kinds: tuple[str, ...] = ()
    events_pending: int = 0  # event cubes drawn but not yet placed on the track
    deck: set[int] = field(default_factory=set)  # contracts in the draw pile (order unknown until revealed)
    deck_top_back: str | None = None  # weather icon seen on the back of the deck's top card
    discards: list[int] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)  # contract 5: the two cards drawn, until one is kept
    site_office: list[int | None] = field(default_factory=lambda: [None, None, None])
    engine_shed: dict[int, int] = field(default_factory=dict)  # train number -> coal on the card
    set_aside: int | None = None
    trains_available: bool = False
    extra_build_open: bool = False  # the set-aside train now replaces Excavation with a Build area in B
    lost_trains: list[int] = field(default_factory=list)  # solo: trains returned, never re-bought
    spaces: dict[str, int] = field(default_factory=dict)  # spaces per area (G: 0 = unlimited)
    placed: dict[str, list[int | None]] = field(default_factory=dict)  # area -> player on each space
    round: int = 0
    phase: str = "setup"
    area: str | None = None  # the area being resolved
    start_player: int = 0
    round_start_player: int = 0  # the start player when this round began: turn order of the round
    start_locked: bool = False  # contract 22: the start player marker cannot move again this round
    contracts_closed: bool = False  # contract 13: no other contracts this round
    active: list[tuple[int, int]] = field(default_factory=list)  # (player, contract) played this round
    built_this_round: bool = False
    end_trigger: str | None = None  # "player" | "event"
    last_round: int | None = None
    finished: bool = False

    @property
    def excavation_rate(self) -> int:
        return self.excavation_track[self.excavation_index]

    @property
    def lay_rate(self) -> int:
        return self.lay_track_track[self.lay_index]

    @property
    def fog(self) -> bool:
        return self.weather[0] == "fog"

    def station_index(self, station_id: str) -> int:
        for i, s in enumerate(self.stations):
            if s.id == station_id:
                return i
        raise KeyError(station_id)

    def active_for(self, player: int) -> list[int]:
        return [c for p, c in self.active if p == player]

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round, "phase": self.phase, "area": self.area, "start_player": self.start_player,
            "round_start_player": self.round_start_player,
            "start_locked": self.start_locked, "contracts_closed": self.contracts_closed,
            "players": [p.to_json() for p in self.players],
            "stations": [s.to_json() for s in self.stations],
            "route": [t.to_json() for t in self.route],
            "bag": dict(self.bag), "stock_yard": dict(self.stock_yard), "box": dict(self.box),
            "steel_supply": self.steel_supply, "rubble_supply": self.rubble_supply,
            "weather": list(self.weather), "weather_supply": dict(self.weather_supply),
            "work_rates": {"excavation": {"index": self.excavation_index, "rate": self.excavation_rate,
                                          "track": list(self.excavation_track)},
                           "lay_track": {"index": self.lay_index, "rate": self.lay_rate,
                                         "track": list(self.lay_track_track)}},
            "event_track": {"occupied": list(self.event_track), "kinds": list(self.event_kinds),
                            "pending": self.events_pending},
            "deck": sorted(self.deck), "deck_size": len(self.deck), "deck_top_back": self.deck_top_back,
            "discards": list(self.discards), "drawn": list(self.drawn), "site_office": list(self.site_office),
            "engine_shed": {str(k): v for k, v in sorted(self.engine_shed.items())}, "set_aside": self.set_aside,
            "trains_available": self.trains_available, "extra_build_open": self.extra_build_open,
            "lost_trains": list(self.lost_trains),
            "spaces": dict(self.spaces), "placed": {a: list(v) for a, v in self.placed.items()},
            "active_contracts": [list(a) for a in self.active], "built_this_round": self.built_this_round,
            "end_trigger": self.end_trigger, "last_round": self.last_round, "finished": self.finished,
        }
