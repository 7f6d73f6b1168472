"""Round overview, always one tap away: weather and forecast, work rates, the event track, the bag and the
event risk, the stock yard (engine and camera), the site office, and every player's pieces and score now."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.i18n import _, cube_name, phase_name
from ui.screens.base import BaseScreen
from ui.viewdata import CUBES, percent, state
from ui.widgets import Chip, Column, Panel, Text, metrics, row

EVENT_SHORT = {"excavate": "clear", "lay_track": "track", "complete_station": "station",
               "trains_available": "trains", "maintenance": "maint."}  # short words: the chips are narrow
def LABEL_WIDTH() -> float:  # noqa: N802 - reads like the constant it is, for the current window size
    """The row labels' column: wide enough for the longest label in any language ("Arbeitstempo")."""
    return metrics().px(118)


PLAYER_COLUMNS = ("iron", "stone", "coal", "steel", "rubble", "markers", "train", "surveyor", "now")
EVENT_LONG = {"excavate": "contractors clear rubble", "lay_track": "contractors lay track",
              "complete_station": "contractors complete the station", "trains_available": "trains may now be bought",
              "maintenance": "train maintenance"}


def weather_row(view: dict[str, Any]) -> Any:
    """Now, next round, the round after: the three weather slots."""
    m = metrics()
    slots = state(view).get("weather") or [None, None, None]
    box = row(Text(_("Weather"), size="small", size_hint_x=None, width=LABEL_WIDTH()), height=m.px(48))
    for label, weather in zip(("now", "next", "then"), slots, strict=False):
        colour = theme.WEATHER_COLOURS.get(weather or "", theme.PANEL_LIGHT)
        box.add_widget(Chip(f"{_(label)}: {_(weather) if weather else '–'}", colour, size="small"))
    return box


def rates_row(view: dict[str, Any]) -> Any:
    m = metrics()
    rates = state(view).get("work_rates") or {}
    box = row(Text(_("Work rates"), size="small", size_hint_x=None, width=LABEL_WIDTH()), height=m.px(48))
    for key, label in (("excavation", "Excavation"), ("lay_track", "Lay Track")):
        rate = (rates.get(key) or {}).get("rate", "–")
        box.add_widget(Chip(f"{_(label)} {rate}", theme.PANEL_LIGHT, size="small"))
    return box


def next_event_kind(view: dict[str, Any]) -> str | None:
    """The event the next event cube would fire, as the session's forecast says (the engine knows which
    space comes next: after the highest occupied one, looping 8–10 — not the first empty one)."""
    for outcome in (view.get("forecast") or {}).get("outcomes") or []:
        fire = outcome.get("fire") or []
        if outcome.get("events", 0) >= 1 and fire:
            return str(fire[0])
    return None


def event_track_row(view: dict[str, Any], compact: bool = False) -> Any:
    """Ten spaces: white where an event cube sits, the event printed on each, the space the next event cube
    lands on (the session's `next_event_space`) in the "this comes next" colour; the next event spelled out.

    Full: two rows of five, so each space has room for its event's name in any language. Compact (half a
    screen wide): the numbers in one row.
    """
    m = metrics()
    track = state(view).get("event_track") or {}
    occupied = track.get("occupied") or []
    kinds = track.get("kinds") or []
    next_space = (view.get("next_event_space") or {}).get("space")
    chips = []
    for i, cube in enumerate(occupied):
        kind = kinds[i] if i < len(kinds) else ""
        is_next = i + 1 == next_space and not cube
        colour = theme.PIECE_COLOURS["event"] if cube else theme.ACCENT if is_next else theme.PANEL_LIGHT
        text = f"{i + 1}" if compact else f"{i + 1}  {_(EVENT_SHORT.get(kind, kind))}"
        chip = Chip(text, colour, size="small")
        chip.next_event_space = is_next  # what the chip stands for, for the tests
        chips.append(chip)
    label = Text(_("Events"), size="small", size_hint_x=None, width=LABEL_WIDTH())
    if compact:
        box = row(label, *chips, height=m.px(48))
    else:
        grid = GridLayout(cols=max(1, (len(chips) + 1) // 2), spacing=m.gap)
        for chip in chips:
            grid.add_widget(chip)
        box = row(label, grid, height=m.px(48) * 2 + m.gap)
    upcoming = next_event_kind(view)
    if upcoming is None:
        return box
    column = BoxLayout(orientation="vertical", size_hint_y=None, height=box.height + m.px(50))
    column.add_widget(box)
    # Two lines: "Fremdfirmen bauen die Station fertig" does not fit half a screen in one.
    column.add_widget(Text(_("next event cube: {event}").format(event=_(EVENT_LONG.get(upcoming, upcoming))),
                           size="small", colour=theme.TEXT_DIM, size_hint_y=None, height=m.px(50),
                           padding=(0 if compact else LABEL_WIDTH() + m.gap, 0)))
    return column


def cube_chips(counts: dict[str, Any], kinds: tuple[str, ...] = (*CUBES, "event")) -> list[Any]:
    def name(kind: str, n: int) -> str:
        return _("events") if kind == "event" else cube_name(kind, n)  # the short word: chips are narrow

    return [Chip(f"{counts.get(k, 0)} {name(k, int(counts.get(k, 0)))}", theme.PIECE_COLOURS[k], size="small")
            for k in kinds if k in counts]


def yard_row(view: dict[str, Any]) -> Any:
    m = metrics()
    yard = view.get("yard") or {}
    engine = state(view).get("stock_yard") or {}
    box = row(Text(_("Stock yard"), size="small", size_hint_x=None, width=LABEL_WIDTH()), height=m.px(48))
    for chip in cube_chips(engine, CUBES):
        box.add_widget(chip)
    camera = yard.get("camera")
    note = yard.get("message") or yard.get("unsure")
    if note:
        box.add_widget(Text(str(note), size="small", colour=theme.WARNING))
    elif camera is not None:
        box.add_widget(Text(_("camera agrees"), size="small", colour=theme.TEXT_DIM))
    else:
        box.add_widget(Text(_("camera: –"), size="small", colour=theme.TEXT_DIM))
    return box


def site_office_row(view: dict[str, Any]) -> Any:
    m = metrics()
    office = state(view).get("site_office") or []
    box = row(Text(_("Site office"), size="small", size_hint_x=None, width=LABEL_WIDTH()), height=m.px(48))
    for card in office:
        box.add_widget(Chip(_("contract {n}").format(n=card) if card is not None else _("empty"),
                            theme.hex_rgba("#6d4c41") if card is not None else theme.PANEL_LIGHT, size="small"))
    return box


class OverviewScreen(BaseScreen):
    screen_name = "overview"
    title = "Round overview"

    def build(self) -> None:
        self.column = Column()
        self.add_widget(self.column)

    def update(self, view: dict[str, Any]) -> None:
        c = self.column
        c.clear()
        if view.get("game_id") is None:
            c.add(Text(_("No game yet: start one from the menu."), size="large", fit_height=True))
            return
        st = state(view)
        forecast = view.get("forecast") or {}
        bag = forecast.get("bag") or st.get("bag") or {}
        parts: list[tuple[Any, Any]] = [
            (("title", view.get("round"), st.get("phase")),
             lambda: Text(_("Round {n} · {phase}").format(n=view.get("round", "?"),
                                                           phase=phase_name(st.get("phase", ""))),
                          size="large", bold=True, fit_height=True)),
            (("weather", repr(st.get("weather"))), lambda: weather_row(view)),
            (("rates", repr(st.get("work_rates"))), lambda: rates_row(view)),
            (("events", repr(st.get("event_track")), next_event_kind(view), repr(view.get("next_event_space"))),
             lambda: event_track_row(view)),
            (("bag", repr(bag), forecast.get("restock"), forecast.get("p_event")), lambda: self._bag(view, bag)),
            (("yard", repr(st.get("stock_yard")), repr(view.get("yard"))), lambda: yard_row(view)),
            (("office", repr(st.get("site_office"))), lambda: site_office_row(view)),
            (("player_header",), self._player_header),
        ]
        # One line per player, each reused while that player's pieces and score are unchanged.
        scores = _scores_by_name(view.get("scores_now"))
        for p in st.get("players") or []:
            name, colour = str(p.get("name", "")), str(p.get("colour", ""))
            values = (p.get("iron", 0), p.get("stone", 0), p.get("coal", 0), p.get("steel", 0), p.get("rubble", 0),
                      p.get("markers", 0), p.get("train") or "–", _station_number(st, p.get("surveyor")),
                      scores.get(name, "–"))
            parts.append((("player", name, colour, values), partial(self._player_line, values, name, colour)))
        for key, build in parts:
            c.add(self.cached(key, build))
        self.sweep()

    def _bag(self, view: dict[str, Any], bag: dict[str, Any]) -> Any:
        m = metrics()
        forecast = view.get("forecast") or {}
        # The chips, and below them the forecast, in its own line (it is the number the table looks for).
        box = BoxLayout(orientation="vertical", size_hint_y=None, height=m.px(48) + m.px(30))
        box.add_widget(row(Text(_("Bag"), size="small", size_hint_x=None, width=LABEL_WIDTH()), *cube_chips(bag),
                           height=m.px(48)))
        box.add_widget(Text(_("next restock {n} cubes: event risk [b]{p}[/b]").format(
            n=forecast.get("restock", "?"), p=percent(forecast.get("p_event"))), size="small",
            size_hint_y=None, height=m.px(30), padding=(LABEL_WIDTH() + m.gap, 0)))
        return box

    def _player_header(self) -> Any:
        m = metrics()
        header = BoxLayout(size_hint_y=None, height=m.px(30))
        header.add_widget(Text("", size="small", size_hint_x=1.4))
        for key in PLAYER_COLUMNS:
            label = cube_name(key, 2) if key in ("iron", "stone", "coal", "steel", "rubble") else _(key)
            header.add_widget(Text(label, size="small", align="center", colour=theme.TEXT_DIM, shorten=True))
        return header

    def _player_line(self, values: tuple[Any, ...], name: str, colour: str) -> Any:
        m = metrics()
        line = Panel(orientation="horizontal", size_hint_y=None, height=m.px(44), colour=theme.PANEL,
                     padding=m.px(2))
        line.add_widget(Chip(name, theme.player_colour(colour), size="small", size_hint_x=1.4))
        for value in values:
            line.add_widget(Text(str(value), align="center"))
        return line

def _scores_by_name(scores: Any) -> dict[str, Any]:
    if isinstance(scores, dict) and "players" in scores:
        return {str(p.get("name")): p.get("total") for p in scores["players"]}
    if isinstance(scores, list):
        return {str(p.get("name")): p.get("total") for p in scores if isinstance(p, dict)}
    return {}


def _station_number(st: dict[str, Any], station_id: Any) -> str:
    for station in st.get("stations") or []:
        if station.get("id") == station_id:
            return str(station.get("number", station_id))
    return str(station_id or "–")
