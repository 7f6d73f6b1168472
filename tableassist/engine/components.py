"""Typed access to the component data (`data/components.json`), with the owner's overrides.

Values the rules do not give (track-card VPs, the event-track layout, work-rate track lengths) are
placeholders in the data; `Components.placeholders` names those still in force, so a game can report
them. An owner corrects them with a JSON file of the same shape, merged section by section.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

CUBE_KINDS = ("iron", "stone", "coal")
AREAS = ("A", "B", "C", "D", "E", "F", "G")


@dataclass(frozen=True)
class ExcavationSite:
    rubble: int
    vp: int


@dataclass(frozen=True)
class BuildingSite:
    cost: dict[str, int]  # {"stone": n} or {"steel": n}
    vp: int


@dataclass(frozen=True)
class Station:
    id: str
    number: str  # "4½" for the Passing Loop
    name: str
    tracks_before: int
    surveyor_vp: int
    excavation: tuple[ExcavationSite, ...]
    building: tuple[BuildingSite, ...]
    player_counts: frozenset[int]

    @property
    def rank(self) -> float:
        """Position up the route, for 'surveyor reached station 6' (the Passing Loop is 4.5)."""
        return float(self.number.replace("½", ".5"))


@dataclass(frozen=True)
class TrackCard:
    id: int
    rubble: int
    vp: int


@dataclass(frozen=True)
class Train:
    number: int
    name: str
    cost_steel: int
    coal: int
    temp_labourer_coal: int
    power: str


@dataclass(frozen=True)
class Contract:
    number: int
    letter: str | None  # the area it is played before; None: only discarded for maintenance
    back: str  # weather icon on the back: sun, rain, fog
    condition: dict[str, Any]
    vp: int
    effect: str
    players_min: int = 1


@dataclass(frozen=True)
class Components:
    raw: dict[str, Any] = field(repr=False)
    stations: tuple[Station, ...]
    track_cards: tuple[TrackCard, ...]
    trains: dict[int, Train]
    contracts: dict[int, Contract]
    placeholders: tuple[str, ...]

    def stations_for(self, players: int) -> tuple[Station, ...]:
        return tuple(s for s in self.stations if players in s.player_counts)

    def station(self, station_id: str) -> Station:
        for s in self.stations:
            if s.id == station_id:
                return s
        raise KeyError(station_id)

    def action_spaces(self, area: str, players: int) -> int | None:
        value: int | None = self.raw["action_spaces"][area][players - 1]
        return value

    def contracts_for(self, players: int) -> dict[int, Contract]:
        return {n: c for n, c in self.contracts.items() if players >= c.players_min}

    @property
    def event_track(self) -> tuple[str, ...]:
        return tuple(self.raw["event_track"]["spaces"])

    @property
    def event_returns(self) -> dict[int, tuple[int, ...]]:
        return {int(k): tuple(v) for k, v in self.raw["event_track"]["returns"].items()}

    @property
    def excavation_rates(self) -> tuple[int, ...]:
        return tuple(self.raw["work_rate_tracks"]["excavation"])

    @property
    def lay_track_rates(self) -> tuple[int, ...]:
        return tuple(self.raw["work_rate_tracks"]["lay_track"])


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merged[key] = _merge(base[key], value)
        else:
            merged[key] = value
    return merged


def _placeholders(raw: dict[str, Any]) -> tuple[str, ...]:
    found = []
    if raw["track_cards"].get("vp_source") == "placeholder":
        found.append("track_cards.vp")
    for section in ("event_track", "work_rate_tracks"):
        if raw[section].get("source") == "placeholder":
            found.append(section)
    return tuple(found)


def build(raw: dict[str, Any]) -> Components:
    stations = tuple(
        Station(
            id=s["id"], number=s["number"], name=s["name"], tracks_before=s["tracks_before"],
            surveyor_vp=s["surveyor_vp"],
            excavation=tuple(ExcavationSite(rubble=r, vp=v) for r, v in s["excavation"]),
            building=tuple(BuildingSite(cost=dict(b["cost"]), vp=b["vp"]) for b in s["building"]),
            player_counts=frozenset(s["players"]),
        )
        for s in raw["stations"]["list"]
    )
    track_cards = tuple(TrackCard(id=t["id"], rubble=t["rubble"], vp=t["vp"]) for t in raw["track_cards"]["list"])
    trains = {t["number"]: Train(**t) for t in raw["trains"]["list"]}
    contracts = {
        c["number"]: Contract(number=c["number"], letter=c["letter"], back=c["back"], condition=c["condition"],
                              vp=c["vp"], effect=c["effect"], players_min=c.get("players_min", 1))
        for c in raw["contracts"]["list"]
    }
    return Components(raw=raw, stations=stations, track_cards=track_cards, trains=trains,
                      contracts=contracts, placeholders=_placeholders(raw))


@cache
def _base_raw() -> str:
    return resources.files("tableassist.engine").joinpath("data/components.json").read_text(encoding="utf-8")


def load(override: Path | None = None) -> Components:
    """The component data, with an owner's override file merged in when it exists.

    Raises ValueError with a plain message when the override is not valid JSON.
    """
    raw: dict[str, Any] = json.loads(_base_raw())
    if override is not None and override.exists():
        try:
            extra = json.loads(override.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"{override}: not a valid component override: {err}") from err
        if not isinstance(extra, dict):
            raise ValueError(f"{override}: a component override must be a JSON object")
        raw = _merge(raw, extra)
    return build(raw)


@cache
def default() -> Components:
    return load(None)
