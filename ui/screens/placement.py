"""Placement: whose turn, the seven action areas with free and taken spaces.

Every space shows what the session says about it: taken (in the occupant's colour), free and legal
(tap to place), or closed for a reason (fog, full, no train for coal…) — greyed, and a tap says why.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.viewdata import AREA_NAMES, blocked_of_type, choices_of_type, colour_of, name_of, percent, state, waiting
from ui.widgets import BigButton, Chip, Panel, Text, metrics, row

AREAS = ("A", "B", "C", "D", "E", "F", "G")


def find(entries: list[dict[str, Any]], area: str, space: int | None = None) -> list[dict[str, Any]]:
    found = []
    for entry in entries:
        action = entry.get("action", {})
        if action.get("type") == "place" and action.get("area") == area:
            if space is None or action.get("space") == space:
                found.append(entry)
    return found


class PlacementScreen(BaseScreen):
    screen_name = "placement"
    title = "Placement"

    def build(self) -> None:
        m = metrics()
        self.who = Chip("", theme.PANEL_LIGHT, size_hint_x=None, width=m.px(130))
        self.prompt = Text("", size="large", bold=True)
        self.risk = Text("", size="small", align="right", size_hint_x=None, width=m.px(240))
        self.hire = BigButton(_("Hire temporary labourer"), size="small", size_hint_x=None, width=m.px(170))
        self.header = row(self.who, self.prompt, self.risk, self.hire, height=m.px(50))
        self.areas_box = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.header)
        self.add_widget(self.areas_box)
        self.space_buttons: dict[tuple[str, int], BigButton] = {}

    def update(self, view: dict[str, Any]) -> None:
        wait = waiting(view)
        player = wait.get("player")
        colour = theme.player_colour(colour_of(view, player))
        self.who.text = name_of(view, player) or "–"
        self.who._bg_colour.rgba = colour
        self.who.color = theme.text_on(colour)
        self.prompt.text = _("place a labourer") if wait.get("kind") == "place" else _("placement is over")
        forecast = view.get("forecast") or {}
        risk = _("Event risk next restock: {p}").format(p=percent(forecast.get("p_event")))
        self.risk.text = risk if forecast else ""

        # Hiring the temporary labourer: shown whenever the session lists it, greyed with its reason if closed.
        hire = choices_of_type(view, "hire_temporary")
        hire_closed = blocked_of_type(view, "hire_temporary")
        self.hire.opacity = 1 if hire or hire_closed else 0
        self.hire._on_tap = partial(self.app.act, hire[0]["action"]) if hire else None
        self.hire.payload = hire[0]["action"] if hire else None
        self.hire._on_blocked = self.app.say
        self.hire.block(None if hire or not hire_closed else str(hire_closed[0].get("reason")))

        st = state(view)
        spaces: dict[str, int] = st.get("spaces") or {}
        placed: dict[str, list[int | None]] = st.get("placed") or {}
        choices = view.get("choices") or []
        blocked = view.get("blocked") or []
        self.areas_box.clear_widgets()
        self.space_buttons.clear()
        for area in AREAS:
            occupants = list(placed.get(area) or [])
            count = spaces.get(area, 0)
            legal, closed = find(choices, area), find(blocked, area)
            # A column whose spaces, occupants and open/closed spaces are unchanged is reused; only the actions
            # its buttons send are renewed (they name the player whose turn it is).
            key = (area, count, repr(occupants), view.get("game_id"),
                   tuple(sorted(entry["action"].get("space", 0) for entry in legal)),
                   tuple((entry["action"].get("space", 0), entry.get("reason")) for entry in closed))
            column = self.cached(key, partial(self._column, view, area, count, occupants, legal, closed))
            buttons: dict[tuple[str, int], BigButton] = column.space_buttons
            for (_area, space), button in buttons.items():
                fresh = legal if space == 0 else find(legal, area, space)
                if fresh:
                    button._on_tap = partial(self.app.act, fresh[0]["action"])
                    button.payload = fresh[0]["action"]
            self.space_buttons.update(buttons)
            self.areas_box.add_widget(column)
        self.sweep()

    def _column(self, view: dict[str, Any], area: str, count: int, occupants: list[int | None],
                legal: list[dict[str, Any]], closed: list[dict[str, Any]]) -> Any:
        m = metrics()
        buttons: dict[tuple[str, int], BigButton] = {}
        column = Panel(orientation="vertical", colour=theme.PANEL, radius=m.px(6), padding=m.px(3),
                       spacing=m.px(3))
        column.add_widget(Text(f"[b]{area}[/b] {_(AREA_NAMES[area])}", size="small", align="center",
                               size_hint_y=None, height=m.px(30), shorten=True, shorten_from="right"))
        if area == "G" or count == 0:
            # The surveyor area has no limit: one button, and the labourers already there as small chips,
            # two to a row, so a busy round still fits the column.
            chips = GridLayout(cols=2, spacing=m.px(2), size_hint_y=None)
            chips.bind(minimum_height=chips.setter("height"))
            for occupant in occupants:
                chips.add_widget(Chip(name_of(view, occupant), theme.player_colour(colour_of(view, occupant)),
                                      size="small", size_hint_y=None, height=m.px(30), shorten=True))
            column.add_widget(chips)
            button = BigButton(_("Survey"), colour=theme.ACCENT, size="small", on_blocked=self.app.say,
                               size_hint_y=None, height=m.target)
            if legal:
                button._on_tap = partial(self.app.act, legal[0]["action"])
                button.payload = legal[0]["action"]
            else:
                button.block(closed[0]["reason"] if closed else _("Not open now."))
            buttons[(area, 0)] = button
            column.add_widget(button)
        else:
            for space in range(1, count + 1):
                occupant = occupants[space - 1] if space - 1 < len(occupants) else None
                if occupant is not None:
                    widget: Any = self._taken(view, area, occupant)
                else:
                    widget = self._free(area, space, find(legal, area, space), find(closed, area, space))
                    buttons[(area, space)] = widget
                column.add_widget(widget)
        column.add_widget(BoxLayout())
        column.space_buttons = buttons
        return column

    def _taken(self, view: dict[str, Any], area: str, occupant: int | None) -> Any:
        m = metrics()
        colour = theme.player_colour(colour_of(view, occupant))
        name = name_of(view, occupant)
        button = BigButton(name, colour=colour, size="small", size_hint_y=None, height=m.target)
        there = _("{area}: {name}'s labourer is there.").format(area=_(AREA_NAMES[area]), name=name)
        button._on_tap = partial(self.app.say, there)
        return button

    def _free(self, area: str, space: int, legal: list[dict[str, Any]], closed: list[dict[str, Any]]) -> BigButton:
        button = BigButton(f"{area}{space}", colour=theme.ACCENT, on_blocked=self.app.say, size_hint_y=None,
                           height=metrics().target)
        if legal:
            button._on_tap = partial(self.app.act, legal[0]["action"])
            button.payload = legal[0]["action"]
        else:
            button.block(closed[0]["reason"] if closed else _("Not open now."))
        return button
