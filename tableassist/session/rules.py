"""The session's one adapter onto the engine API (tableassist/engine/API.md).

Everything the session needs to know about action shapes, decision kinds and the state's JSON lives here,
so an engine change touches one file. The session never recomputes rules: it asks the engine.
"""

from __future__ import annotations

import gettext
import hashlib
from typing import Any

from tableassist.engine import components as comp
from tableassist.errors import UserError

GOODS = ("iron", "stone", "coal")
AREAS = ("A", "B", "C", "D", "E", "F", "G")


class Refused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _engine() -> Any:
    import tableassist.engine as engine

    return engine


def default_components() -> comp.Components:
    return comp.default()


# ---- setup and replay -------------------------------------------------------------------------

def make_setup(players: list[str], colours: list[str] | None, options: dict[str, Any], solo_train: int | None,
               components: comp.Components) -> Any:
    engine = _engine()
    try:
        opts = engine.Options(tie_rule=options.get("tie_rule", "last_in_turn_order"),
                              fog_blocks=options.get("fog_blocks"),
                              contracts_per_window=options.get("contracts_per_window"))
        return engine.Setup(players=list(players), colours=list(colours) if colours else None, options=opts,
                            solo_train=solo_train, components=components)
    except ValueError as err:
        raise UserError(str(err)) from None


def setup_to_json(setup: Any) -> dict[str, Any]:
    data: dict[str, Any] = setup.to_json()
    return data


def setup_from_json(data: dict[str, Any], components: comp.Components) -> Any:
    try:
        return _engine().Setup.from_json(data, components=components)
    except (KeyError, TypeError, ValueError) as err:
        raise UserError(f"the game's setup cannot be read: {err}") from None


def game_components(stored: dict[str, Any] | None, current: comp.Components) -> comp.Components:
    """The components a journalled game was played with: its stored copy, or for a game journalled before
    games kept one, the current components."""
    if stored is None:
        return current
    try:
        return comp.build(stored)
    except (KeyError, TypeError, ValueError) as err:
        raise UserError(f"the game's component data cannot be read: {err}") from None


def new_game(setup: Any) -> Any:
    return _engine().Game.new(setup)


def replay(setup: Any, actions: list[dict[str, Any]]) -> Any:
    """Rebuild a game; a damaged journal keeps its longest valid prefix rather than refusing to start."""
    engine = _engine()
    try:
        return engine.Game.replay(setup, actions)
    except engine.IllegalAction:
        game = engine.Game.new(setup)
        for action in actions:
            try:
                game.apply(action)
            except engine.IllegalAction:
                break
        return game


# ---- acting ------------------------------------------------------------------------------------

def why_not(game: Any, action: dict[str, Any]) -> str | None:
    reason: str | None = game.why_not(action)
    return reason


def apply(game: Any, action: dict[str, Any]) -> list[dict[str, Any]]:
    engine = _engine()
    try:
        events: list[dict[str, Any]] = game.apply(action)
    except engine.IllegalAction as err:
        raise Refused(err.reason) from None
    return events


def legal(game: Any) -> list[dict[str, Any]]:
    if game.finished or game.waiting is None:
        return []
    actions: list[dict[str, Any]] = game.legal_actions()
    return actions


def chance_seed(seed: int, index: int) -> int:
    """Randomness for the chance outcome at action `index`: a function of the game's seed and the index
    only, so a game resumed after a power cut draws exactly what it would have drawn."""
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def digital_outcome(game: Any, seed: int) -> dict[str, Any]:
    action: dict[str, Any] = _engine().DigitalSource(chance_seed(seed, len(game.actions))).chance(game)
    return action


# ---- decisions -----------------------------------------------------------------------------------

def awaits_bag_draw(game: Any) -> bool:
    """A restock draw: the cubes land on the stock yard, so the camera can see them."""
    d = None if game.finished else game.waiting
    return d is not None and d.kind == "draw" and d.info.get("purpose", "restock") == "restock"


def bag_draw_size(game: Any) -> int:
    return int(game.waiting.info.get("count", 0))


def bag_draw_action(game: Any, counts: dict[str, int]) -> dict[str, Any]:
    return {"type": "draw", "iron": counts.get("iron", 0), "stone": counts.get("stone", 0),
            "coal": counts.get("coal", 0), "event": counts.get("event", 0)}


def stock_yard_taker(game: Any) -> int | None:
    d = None if game.finished else game.waiting
    if d is not None and d.kind in ("stock_yard", "take_cubes") and d.player is not None:
        return int(d.player)
    return None


def take_action(game: Any, player: int, taken: dict[str, int]) -> dict[str, Any]:
    kind = "take_cubes" if game.waiting.kind == "take_cubes" else "stock_yard"
    return {"type": kind, "player": player, **{cube: taken.get(cube, 0) for cube in GOODS}}


def action_for_card(game: Any, card: Any) -> dict[str, Any] | None:
    """The legal action a tapped card stands for now (a contract taken/played/revealed, a train bought)."""
    kind = _field(card, "kind")
    number = _field(card, "number")
    if kind is None or number is None:
        return None
    matches = []
    for action in legal(game):
        if kind == "contract" and action.get("contract") == number:
            matches.append(action)
        elif kind == "train" and action.get("type") == "buy_train" and action.get("train") == number:
            matches.append(action)
    if not matches and kind == "contract" and game.waiting is not None and game.waiting.kind == "reveal_contract":
        candidate = {"type": "reveal_contract", "contract": number}
        return candidate  # let the engine say why it cannot be that card
    if len(matches) >= 1:
        return matches[0]  # several payments for one train: the cheapest listed first; the screen can change it
    return None


def card_kind_and_number(card: Any) -> tuple[Any, int | None]:
    number = _field(card, "number")
    return _field(card, "kind"), int(number) if isinstance(number, int) else None


def setup_tap_count(game: Any) -> int:
    """How many cards the table taps for the awaited setup decision (route: its length; shed: 6)."""
    d = game.waiting
    if d.kind == "route":
        return int(d.info.get("count", 0))
    return int(game.setup.comps.raw["trains"]["engine_shed"]) if isinstance(
        game.setup.comps.raw["trains"].get("engine_shed"), int) else len(game.setup.comps.trains) - 1


def setup_action(game: Any, taps: list[int]) -> dict[str, Any]:
    if game.waiting.kind == "route":
        return {"type": "route", "tracks": list(taps)}
    aside = [n for n in sorted(game.setup.comps.trains) if n not in taps]
    return {"type": "engine_shed", "trains": list(taps), "set_aside": aside[0] if aside else None}


def _field(card: Any, name: str) -> Any:
    """A field of a registry card (tableassist.cards.Card keeps its details in `.spec`) or of a dict."""
    if isinstance(card, dict):
        return card.get(name)
    spec = getattr(card, "spec", None)
    if spec is not None and hasattr(spec, name):
        return getattr(spec, name)
    return getattr(card, name, None)


# ---- state ---------------------------------------------------------------------------------------

def state_json(game: Any) -> dict[str, Any]:
    data: dict[str, Any] = game.state.to_json()
    return data


def _find(state: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in state:
            return state[name]
    return None


def stock_yard(game: Any) -> dict[str, int]:
    yard = _find(state_json(game), "stock_yard", "yard") or {}
    return {cube: int(yard.get(cube, 0)) for cube in GOODS}


def bag(game: Any) -> dict[str, int]:
    contents = _find(state_json(game), "bag") or {}
    return {cube: int(contents.get(cube, 0)) for cube in (*GOODS, "event")}


def player_count(game: Any) -> int:
    return len(game.setup.players)


def restock_count(game: Any) -> int:
    per_players = game.setup.comps.raw["stock_yard"].get("restock", [6, 6, 9, 12, 12])
    return int(per_players[player_count(game) - 1])


def _event_track(game: Any) -> tuple[list[bool], list[str]]:
    """Which spaces hold an event cube, and the event printed on each (this board's layout)."""
    track = _find(state_json(game), "event_track") or {}
    occupied = list(track.get("occupied", [])) if isinstance(track, dict) else list(track)
    layout = list(track.get("kinds") or []) if isinstance(track, dict) else []
    if len(layout) < len(occupied) or len(layout) < 10:
        layout = list(game.setup.comps.event_track)
    return [bool(cube) for cube in occupied], layout


def next_event_space(game: Any) -> dict[str, Any]:
    """The space the next event cube lands on and the event printed there.

    As the engine places it: the space after the highest occupied one. Returns at spaces 4/7/10 leave only
    empty spaces below the one just filled, so after 10 the occupied 7 makes the next space 8 (the loop).
    """
    occupied, layout = _event_track(game)
    filled = [i + 1 for i, cube in enumerate(occupied) if cube]
    space = min((max(filled) + 1) if filled else 1, len(occupied) or len(layout))
    return {"space": space, "kind": layout[space - 1]}


def event_spaces_ahead(game: Any) -> list[str]:
    """The event kinds on the free spaces in the order the next cubes would fill them."""
    from tableassist.session.forecast import spaces_ahead

    _occupied, layout = _event_track(game)
    return spaces_ahead(next_event_space(game)["space"], layout, 12)


def players(game: Any) -> list[dict[str, Any]]:
    colours = game.setup.player_colours
    return [{"index": i, "name": name, "colour": colours[i]} for i, name in enumerate(game.setup.players)]


def player_name(game: Any, index: int | None) -> str:
    if index is None:
        return ""
    return str(game.setup.players[index])


def waiting_json(game: Any, tr: gettext.NullTranslations) -> dict[str, Any] | None:
    d = None if game.finished else game.waiting
    if d is None:
        return None
    from tableassist.session.labels import prompt

    return {"kind": d.kind, "player": d.player, "player_name": player_name(game, d.player),
            "prompt": prompt(game, tr), "chance": d.player is None, "area": d.area, "space": d.space,
            "info": dict(d.info)}


def choices(game: Any, tr: gettext.NullTranslations) -> list[dict[str, Any]]:
    from tableassist.session.labels import label

    return [{"action": a, "label": label(game, a, tr)} for a in legal(game)]


def blocked(game: Any, tr: gettext.NullTranslations) -> list[dict[str, Any]]:
    """Placement spaces a player cannot use now, with the engine's reason (the screen shows it on touch)."""
    from tableassist.session.labels import explain, label

    d = None if game.finished else game.waiting
    if d is None or d.kind != "place" or d.player is None:
        return []
    spaces = state_json(game).get("spaces") or {}
    candidates: list[dict[str, Any]] = [{"type": "hire_temporary", "player": d.player}]
    for area in AREAS:
        count = spaces.get(area)
        if not isinstance(count, int) or count <= 0:
            # the Surveyor area is unlimited: one button for "the next space" (blocked only by fog and the like)
            legal_g = [a for a in legal(game) if a.get("area") == area]
            candidates.append(legal_g[0] if legal_g else {"type": "place", "player": d.player, "area": area,
                                                          "space": 1})
            continue
        for space in range(1, count + 1):
            candidates.append({"type": "place", "player": d.player, "area": area, "space": space})
    out = []
    for action in candidates:
        reason = game.why_not(action)
        if reason is not None:
            out.append({"action": action, "label": label(game, action, tr), "reason": explain(reason, game, tr)})
    return out


def estimate(game: Any) -> dict[str, Any] | None:
    try:
        return _score_json(game.estimate())
    except Exception:  # noqa: BLE001 - a live estimate must never stop the table
        return None


def result(game: Any) -> dict[str, Any]:
    table = game.final_scores()
    data = _score_json(table)
    scores = {p.get("name", str(i)): p.get("total") for i, p in enumerate(data.get("players", []))}
    return {**data, "scores": scores}


def _score_json(table: Any) -> dict[str, Any]:
    data: dict[str, Any] = table.to_json() if hasattr(table, "to_json") else dict(table)
    return data
