"""Round overview, always one tap away: weather and forecast, work rates, the event track, the bag and the
event risk, the stock yard (engine and camera), the site office, and every player's pieces and score now."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.screens.base import BaseScreen
from ui.viewdata import CUBES, percent, state
from ui.widgets import Chip, Column, Panel, Text, metrics, row

EVENT_SHORT = {"excavate": "clear", "lay_track": "track", "complete_station": "station",
               "trains_available": "trains", "maintenance": "maint."}


def weather_row(view: dict[str, Any]) -> Any:
    """Now, next round, the round after: the three weather slots."""
    m = metrics()
    slots = state(view).get("weather") or [None, None, None]
    box = row(Text("Weather", size="small", size_hint_x=None, width=m.px(90)), height=m.px(48))
    for label, weather in zip(("now", "next", "then"), slots, strict=False):
        colour = theme.WEATHER_COLOURS.get(weather or "", theme.PANEL_LIGHT)
        box.add_widget(Chip(f"{label}: {weather or '–'}", colour, size="small"))
    return box


def rates_row(view: dict[str, Any]) -> Any:
    m = metrics()
    rates = state(view).get("work_rates") or {}
    box = row(Text("Work rates", size="small", size_hint_x=None, width=m.px(90)), height=m.px(48))
    for key, label in (("excavation", "Excavation"), ("lay_track", "Lay Track")):
        rate = (rates.get(key) or {}).get("rate", "–")
        box.add_widget(Chip(f"{label} {rate}", theme.PANEL_LIGHT, size="small"))
    return box


def event_track_row(view: dict[str, Any]) -> Any:
    """Ten spaces: white where an event cube sits, the event printed on each, the next free one outlined."""
    m = metrics()
    track = state(view).get("event_track") or {}
    occupied = track.get("occupied") or []
    kinds = track.get("kinds") or []
    box = row(Text("Events", size="small", size_hint_x=None, width=m.px(90)), height=m.px(48))
    next_free = next((i for i, o in enumerate(occupied) if not o), None)
    for i, cube in enumerate(occupied):
        kind = kinds[i] if i < len(kinds) else ""
        colour = theme.PIECE_COLOURS["event"] if cube else (theme.ACCENT if i == next_free else theme.PANEL_LIGHT)
        box.add_widget(Chip(f"{i + 1}\n{EVENT_SHORT.get(kind, kind)}", colour, size="small"))
    return box


def cube_chips(counts: dict[str, Any], kinds: tuple[str, ...] = (*CUBES, "event")) -> list[Any]:
    return [Chip(f"{counts.get(k, 0)} {k}", theme.PIECE_COLOURS[k], size="small") for k in kinds if k in counts]


def yard_row(view: dict[str, Any]) -> Any:
    m = metrics()
    yard = view.get("yard") or {}
    engine = state(view).get("stock_yard") or {}
    box = row(Text("Stock yard", size="small", size_hint_x=None, width=m.px(90)), height=m.px(48))
    for chip in cube_chips(engine, CUBES):
        box.add_widget(chip)
    camera = yard.get("camera")
    note = yard.get("message") or yard.get("unsure")
    if note:
        box.add_widget(Text(str(note), size="small", colour=theme.WARNING))
    elif camera is not None:
        box.add_widget(Text("camera agrees", size="small", colour=theme.TEXT_DIM))
    else:
        box.add_widget(Text("no camera reading", size="small", colour=theme.TEXT_DIM))
    return box


def site_office_row(view: dict[str, Any]) -> Any:
    m = metrics()
    office = state(view).get("site_office") or []
    box = row(Text("Site office", size="small", size_hint_x=None, width=m.px(90)), height=m.px(48))
    for card in office:
        box.add_widget(Chip(f"contract {card}" if card is not None else "empty",
                            theme.hex_rgba("#6d4c41") if card is not None else theme.PANEL_LIGHT, size="small"))
    return box


class OverviewScreen(BaseScreen):
    screen_name = "overview"
    title = "Round overview"

    def build(self) -> None:
        self.column = Column()
        self.add_widget(self.column)

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        c = self.column
        c.clear()
        if view.get("game_id") is None:
            c.add(Text("No game yet: start one from the menu.", size="large", fit_height=True))
            return
        st = state(view)
        c.add(Text(f"Round {view.get('round', '?')} · {st.get('phase', '')}", size="large", bold=True,
                   fit_height=True))
        c.add(weather_row(view))
        c.add(rates_row(view))
        c.add(event_track_row(view))
        forecast = view.get("forecast") or {}
        bag = forecast.get("bag") or st.get("bag") or {}
        bag_row = row(Text("Bag", size="small", size_hint_x=None, width=m.px(90)), *cube_chips(bag),
                      height=m.px(48))
        bag_row.add_widget(Text(f"next restock {forecast.get('restock', '?')} cubes: event risk "
                                f"[b]{percent(forecast.get('p_event'))}[/b]", size="small"))
        c.add(bag_row)
        c.add(yard_row(view))
        c.add(site_office_row(view))
        c.add(self._players(view))

    def _players(self, view: dict[str, Any]) -> Any:
        m = metrics()
        st = state(view)
        scores = _scores_by_name(view.get("scores_now"))
        table = BoxLayout(orientation="vertical", spacing=m.px(3), size_hint_y=None)
        table.bind(minimum_height=table.setter("height"))
        columns = ("iron", "stone", "coal", "steel", "rubble", "markers", "train", "surveyor", "now")
        header = BoxLayout(size_hint_y=None, height=m.px(30))
        header.add_widget(Text("", size="small", size_hint_x=1.4))
        for key in columns:
            header.add_widget(Text(key, size="small", align="center", colour=theme.TEXT_DIM, shorten=True))
        table.add_widget(header)
        for p in st.get("players") or []:
            line = Panel(orientation="horizontal", size_hint_y=None, height=m.px(44), colour=theme.PANEL,
                         padding=m.px(2))
            line.add_widget(Chip(str(p.get("name", "")), theme.player_colour(str(p.get("colour", ""))),
                                 size="small", size_hint_x=1.4))
            values = [p.get("iron", 0), p.get("stone", 0), p.get("coal", 0), p.get("steel", 0), p.get("rubble", 0),
                      p.get("markers", 0), p.get("train") or "–", _station_number(st, p.get("surveyor")),
                      scores.get(str(p.get("name")), "–")]
            for value in values:
                line.add_widget(Text(str(value), align="center"))
            table.add_widget(line)
        return table


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
