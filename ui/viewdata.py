"""Reading the session's view: small pure functions the screens share (no Kivy, testable anywhere).

The session's `view()` is the only source: nothing here recomputes a rule; it only finds and words
what the engine already decided.
"""

from __future__ import annotations

from typing import Any

# Decisions a person takes while the areas are resolved, A to G (engine API: "Player decisions").
RESOLUTION_KINDS = frozenset({
    "contracts", "stock_yard", "excavate", "works", "lay_track", "build", "take_contract", "survey",
    "extra_excavation", "extra_lay_track", "swap_weather", "keep_contract", "convert", "take_cubes",
    "move_labourer", "maintenance",
})
AREA_NAMES = {
    "A": "Stock Yard", "B": "Excavation", "C": "Works", "D": "Lay Track", "E": "Build",
    "F": "Site Office", "G": "Surveyor",
}
CUBES = ("iron", "stone", "coal")


def state(view: dict[str, Any]) -> dict[str, Any]:
    found = view.get("state")
    return found if isinstance(found, dict) else {}


def players(view: dict[str, Any]) -> list[dict[str, Any]]:
    return list(view.get("players") or [])


def player(view: dict[str, Any], index: int | None) -> dict[str, Any] | None:
    for p in players(view):
        if p.get("index") == index:
            return p
    return None


def colour_of(view: dict[str, Any], index: int | None) -> str:
    p = player(view, index)
    return str(p.get("colour", "")) if p else ""


def name_of(view: dict[str, Any], index: int | None) -> str:
    p = player(view, index)
    return str(p.get("name", "")) if p else ""


def waiting(view: dict[str, Any]) -> dict[str, Any]:
    found = view.get("waiting")
    return found if isinstance(found, dict) else {}


def screen_for(view: dict[str, Any]) -> str:
    """Which game screen the table needs now."""
    if view.get("game_id") is None:
        return "new_game"
    if view.get("finished"):
        return "final_scores"
    kind = waiting(view).get("kind")
    if kind == "place":
        return "placement"
    if kind in RESOLUTION_KINDS:
        return "resolution"
    # A chance outcome or a table observation is awaited (physical bag, cards, route).
    return "end_of_round"


def choices_of_type(view: dict[str, Any], *types: str) -> list[dict[str, Any]]:
    return [c for c in view.get("choices") or [] if c.get("action", {}).get("type") in types]


def blocked_of_type(view: dict[str, Any], *types: str) -> list[dict[str, Any]]:
    return [c for c in view.get("blocked") or [] if c.get("action", {}).get("type") in types]


def percent(p: float | None) -> str:
    if p is None:
        return "–"
    if 0 < p < 0.005:
        return "<1%"
    return f"{round(p * 100)}%"


def cube_text(counts: dict[str, Any] | None, kinds: tuple[str, ...] = CUBES) -> str:
    if not counts:
        return "–"
    parts = [f"{counts.get(k, 0)} {k}" for k in kinds if counts.get(k)]
    return ", ".join(parts) if parts else "empty"
