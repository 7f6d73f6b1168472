"""The owner's box as the source of truth: values the component data only guesses (placeholders).

Track-card VPs come from the card registry (a track card enrolled with its printed VP) or from entry on
the screen; the event-track layout is entered once and remembered. Both are written to the owner's
override file (`components.json` in the config directory, the file `tableassist.engine.components.load`
merges), so every later game — and `tableassist replay` — uses them.
"""

from __future__ import annotations

import gettext
import json
import os
from pathlib import Path
from typing import Any

from tableassist.engine import components as comp
from tableassist.errors import UserError

EVENT_KINDS = ("excavate", "lay_track", "complete_station", "trains_available", "maintenance")
EVENT_SPACES = 10
MAX_TRACK_VP = 12  # the printed values run 0-7; anything far above is a typing slip


def questions(components: comp.Components) -> list[dict[str, Any]]:
    """What the session asks at setup, for the values still placeholders."""
    asks = []
    if "track_cards.vp" in components.placeholders:
        asks.append({"key": "track_cards.vp", "cards": [t.id for t in components.track_cards],
                     "current": {t.id: t.vp for t in components.track_cards}})
    if "event_track" in components.placeholders:
        asks.append({"key": "event_track", "spaces": list(components.event_track), "kinds": list(EVENT_KINDS)})
    return asks


def track_vps_from_registry(cards: Any) -> dict[int, int]:
    """Track cards enrolled with their printed VP: {card number: vp}."""
    if cards is None or not hasattr(cards, "cards"):
        return {}
    found = {}
    for card in cards.cards():
        spec = getattr(card, "spec", None)
        if spec is not None and spec.kind == "track" and spec.number is not None and spec.vp is not None:
            found[int(spec.number)] = int(spec.vp)
    return found


ENGLISH = gettext.NullTranslations()


def check_track_vps(vps: dict[int, int], components: comp.Components, tr: gettext.NullTranslations = ENGLISH) -> None:
    ids = {t.id for t in components.track_cards}
    for card, vp in vps.items():
        if card not in ids:
            raise UserError(tr.gettext("There is no track card {card} (they are numbered {first} to {last}).")
                            .format(card=card, first=min(ids), last=max(ids)))
        if not 0 <= vp <= MAX_TRACK_VP:
            raise UserError(tr.gettext("Track card {card}: {vp} VP is not a printed value (0 to {most}).")
                            .format(card=card, vp=vp, most=MAX_TRACK_VP))


def check_event_track(spaces: list[str], tr: gettext.NullTranslations = ENGLISH) -> None:
    if len(spaces) != EVENT_SPACES:
        raise UserError(tr.gettext("The event track has {spaces} spaces, not {n}.")
                        .format(spaces=EVENT_SPACES, n=len(spaces)))
    for i, kind in enumerate(spaces, start=1):
        if kind not in EVENT_KINDS:
            raise UserError(tr.gettext("Space {space}: '{kind}' is not an event ({kinds}).")
                            .format(space=i, kind=kind, kinds=", ".join(EVENT_KINDS)))


def patch(components: comp.Components, *, track_vps: dict[int, int] | None = None,
          event_track: list[str] | None = None, tr: gettext.NullTranslations = ENGLISH) -> dict[str, Any]:
    """The override sections for these owner values (whole sections: lists are replaced, not merged)."""
    out: dict[str, Any] = {}
    if track_vps:
        check_track_vps(track_vps, components, tr)
        cards = [{"id": t.id, "rubble": t.rubble, "vp": track_vps.get(t.id, t.vp)} for t in components.track_cards]
        complete = all(t.id in track_vps for t in components.track_cards)
        source = "owner" if complete else components.raw["track_cards"].get("vp_source", "placeholder")
        out["track_cards"] = {"list": cards, "vp_source": source}
    if event_track is not None:
        check_event_track(event_track, tr)
        out["event_track"] = {"spaces": list(event_track), "source": "owner"}
    return out


def save(path: Path, changes: dict[str, Any]) -> None:
    """Merge `changes` into the override file, atomically (a power cut leaves the old or the new file)."""
    current: dict[str, Any] = {}
    if path.exists():
        try:
            current = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise UserError(f"{path}: not a valid component override: {err}") from None
    for section, values in changes.items():
        merged = dict(current.get(section) or {})
        merged.update(values)
        current[section] = merged
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(current, fh, indent=2, sort_keys=True)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
