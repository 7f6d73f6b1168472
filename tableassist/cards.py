"""The RFID card registry: which physical card carries which tag.

The owner sticks a 125 kHz tag on each card they want the table to recognise and enrols it once
(`tableassist cards enrol`): contract cards, train cards, track cards (with the rubble and VP printed on
*their* copy — the VP per track card is not known from any source, so the owner's cards are the
authority), stations, and the players' colour tokens. The session asks `lookup(tag)`; an unknown tag
gives None, and the session says so at the table.

Descriptions are typed the way one says them: "contract 12", "train 4", "track 7 rubble 3 vp 4",
"station clogwyn", "player green". `parse_card` checks them against the component data.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from tableassist import db
from tableassist.engine import components as component_data

CardKind = Literal["contract", "train", "track", "station", "player"]
KINDS: tuple[CardKind, ...] = ("contract", "train", "track", "station", "player")
EXAMPLES = '"contract 12", "train 4", "track 7 rubble 3 vp 4", "station clogwyn", "player green"'

SCHEMA = """
CREATE TABLE IF NOT EXISTS rfid_cards (
    tag TEXT PRIMARY KEY CHECK (length(tag) = 10),
    kind TEXT NOT NULL CHECK (kind IN ('contract', 'train', 'track', 'station', 'player')),
    number INTEGER,
    name TEXT,
    rubble INTEGER,
    vp INTEGER,
    enrolled_at TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class CardSpec:
    """What a physical card is, without its tag."""

    kind: CardKind
    number: int | None = None  # contract, train and track cards
    name: str | None = None  # station id or player colour
    rubble: int | None = None  # track cards: rubble on the shovel side
    vp: int | None = None  # track cards: VP on the track side

    def describe(self) -> str:
        if self.kind == "track":
            return f"track {self.number} rubble {self.rubble} vp {self.vp}"
        if self.kind in ("contract", "train"):
            return f"{self.kind} {self.number}"
        return f"{self.kind} {self.name}"


@dataclass(frozen=True)
class Card:
    tag: str
    spec: CardSpec

    @property
    def kind(self) -> CardKind:
        return self.spec.kind

    def describe(self) -> str:
        return self.spec.describe()

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"tag": self.tag, "kind": self.kind}
        for key in ("number", "name", "rubble", "vp"):
            value = getattr(self.spec, key)
            if value is not None:
                data[key] = value
        return data


def _station_names(data: component_data.Components) -> dict[str, str]:
    """Every way to name a station → its id: the id, the alias, the name ("Clogwyn Station" → clogwyn)."""
    names: dict[str, str] = {}
    for station in data.stations:
        names[station.id] = station.id
        plain = _simplify(station.name)
        names[plain] = station.id
        names[re.sub(r"_(station|halt)$", "", plain)] = station.id
    for alias, station_id in data.raw.get("surveyor_aliases", {}).items():
        if not alias.startswith("_"):
            names[alias] = station_id
    return names


def _simplify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower().replace("ŵ", "w")).strip("_")


def parse_card(text: str, data: component_data.Components | None = None) -> CardSpec:
    """A card from its spoken description. ValueError with a sentence saying what is wrong."""
    data = data or component_data.default()
    words = text.lower().split()
    if not words:
        raise ValueError(f"say what the card is, e.g. {EXAMPLES}")
    kind, rest = words[0], words[1:]
    if kind not in KINDS:
        raise ValueError(f"'{words[0]}' is not a kind of card; say e.g. {EXAMPLES}")
    if kind == "station":
        name = _simplify(" ".join(rest))
        stations = _station_names(data)
        if name not in stations:
            known = ", ".join(s.id for s in data.stations)
            raise ValueError(f"there is no station '{' '.join(rest)}' (stations: {known})")
        return CardSpec("station", name=stations[name])
    if kind == "player":
        colours = list(data.raw["players"]["colours"])
        if len(rest) != 1 or rest[0] not in colours:
            raise ValueError(f"a player token is one of the colours {', '.join(colours)}")
        return CardSpec("player", name=rest[0])
    number = _number(rest[0] if rest else "", f"{kind} needs its number, e.g. '{kind} 4'")
    if kind == "contract":
        _only(rest, 1, "contract 12")
        if number not in data.contracts:
            raise ValueError(f"there is no contract {number} (contracts {min(data.contracts)}-{max(data.contracts)})")
        return CardSpec("contract", number=number)
    if kind == "train":
        _only(rest, 1, "train 4")
        if number not in data.trains:
            raise ValueError(f"there is no train {number} (trains {min(data.trains)}-{max(data.trains)})")
        return CardSpec("train", number=number)
    track_ids = [t.id for t in data.track_cards]
    if number not in track_ids:
        raise ValueError(f"there is no track card {number} (track cards {min(track_ids)}-{max(track_ids)})")
    fields = dict(zip(rest[1::2], rest[2::2], strict=False))
    if len(rest) != 5 or set(fields) != {"rubble", "vp"}:
        raise ValueError("a track card needs its printed rubble and VP, e.g. 'track 7 rubble 3 vp 4'")
    rubble = _number(fields["rubble"], "rubble must be a number, e.g. 'rubble 3'")
    vp = _number(fields["vp"], "vp must be a number, e.g. 'vp 4'")
    if not 1 <= rubble <= 9:
        raise ValueError(f"rubble {rubble} cannot be on a track card (1 to 9)")
    if not 0 <= vp <= 12:
        raise ValueError(f"vp {vp} cannot be on a track card (0 to 12)")
    return CardSpec("track", number=number, rubble=rubble, vp=vp)


def _number(word: str, message: str) -> int:
    if not word.isdigit():
        raise ValueError(message)
    return int(word)


def _only(words: list[str], count: int, example: str) -> None:
    if len(words) != count:
        raise ValueError(f"too many words: say e.g. '{example}'")


class CardRegistry:
    """Tag → card, in the assistant's SQLite database."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection
        with self._db:
            self._db.execute(SCHEMA)

    @classmethod
    def open(cls, path: str | Path | None = None) -> CardRegistry:
        return cls(db.connect(path))

    def close(self) -> None:
        self._db.close()

    def enrol(self, tag: str, spec: CardSpec) -> Card:
        """Store (or replace) what the card with `tag` is; committed before this returns."""
        tag = _tag(tag)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        with self._db:
            self._db.execute(
                "INSERT INTO rfid_cards (tag, kind, number, name, rubble, vp, enrolled_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tag) DO UPDATE SET kind = excluded.kind, "
                "number = excluded.number, name = excluded.name, rubble = excluded.rubble, vp = excluded.vp, "
                "enrolled_at = excluded.enrolled_at",
                (tag, spec.kind, spec.number, spec.name, spec.rubble, spec.vp, now),
            )
        return Card(tag, spec)

    def lookup(self, tag: str) -> Card | None:
        try:
            tag = _tag(tag)
        except ValueError:
            return None
        row = self._db.execute("SELECT * FROM rfid_cards WHERE tag = ?", (tag,)).fetchone()
        return _card(row) if row else None

    def forget(self, tag: str) -> bool:
        with self._db:
            cursor = self._db.execute("DELETE FROM rfid_cards WHERE tag = ?", (_tag(tag),))
        return cursor.rowcount > 0

    def cards(self) -> list[Card]:
        rows = self._db.execute("SELECT * FROM rfid_cards ORDER BY kind, number, name, tag").fetchall()
        return [_card(row) for row in rows]

    def tags_for(self, spec: CardSpec) -> list[str]:
        """Tags already enrolled as this same card (e.g. a worn sticker replaced by a new one)."""
        return [card.tag for card in self.cards() if _same_card(card.spec, spec)]

    def track_cards(self) -> dict[int, tuple[int, int]]:
        """Track card → (rubble, VP) as printed on the owner's cards: the values the rules texts lack."""
        return {card.spec.number: (card.spec.rubble, card.spec.vp) for card in self.cards()
                if card.kind == "track" and card.spec.number is not None
                and card.spec.rubble is not None and card.spec.vp is not None}


def _same_card(a: CardSpec, b: CardSpec) -> bool:
    return (a.kind, a.number, a.name) == (b.kind, b.number, b.name)


def _tag(text: str) -> str:
    """10 upper-case hex digits, as the CardReader port delivers them (the core does not import hardware/)."""
    tag = text.strip().upper()
    if not re.fullmatch(r"[0-9A-F]{10}", tag):
        raise ValueError(f"'{text.strip()}' is not a card tag (10 hex digits)")
    return tag


def _card(row: sqlite3.Row) -> Card:
    return Card(row["tag"], CardSpec(kind=row["kind"], number=row["number"], name=row["name"],
                                     rubble=row["rubble"], vp=row["vp"]))
