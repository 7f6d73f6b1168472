"""Resolution guide: area by area, A to G, one step at a time.

Shows the area being resolved, who acts, what the engine computed (the session's announcements and
its pending proposal), the contract window before each area, and the choices the engine allows —
one choice is confirmed with a tap on the big button (or the hardware Confirm button).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from tableassist.engine import components as component_data
from ui import theme
from ui.screens.base import BaseScreen
from ui.viewdata import AREA_NAMES, colour_of, name_of, state, waiting
from ui.widgets import BigButton, Chip, Column, Panel, Text, metrics, row

AREAS = ("A", "B", "C", "D", "E", "F", "G")


class ResolutionScreen(BaseScreen):
    screen_name = "resolution"
    title = "Resolution"

    def build(self) -> None:
        m = metrics()
        self.components = component_data.default()
        self.area_chips: dict[str, Chip] = {}
        strip = row(height=m.px(40))
        for area in AREAS:
            chip = Chip(f"{area} {AREA_NAMES[area]}", theme.PANEL, size="small")
            self.area_chips[area] = chip
            strip.add_widget(chip)
        self.add_widget(strip)
        self.who = Chip("", theme.PANEL_LIGHT, size_hint_x=None, width=m.px(130))
        self.prompt = Text("", size="large", bold=True)
        self.add_widget(row(self.who, self.prompt))
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.main)
        self.choice_buttons: list[BigButton] = []
        self.confirm_button: BigButton | None = None

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        st = state(view)
        wait = waiting(view)
        current = st.get("area")
        for area, chip in self.area_chips.items():
            colour = theme.ACCENT if area == current else theme.PANEL
            chip._bg_colour.rgba = colour
            chip.color = theme.text_on(colour) if area == current else theme.TEXT_DIM
        player = wait.get("player")
        colour = theme.player_colour(colour_of(view, player))
        self.who.text = name_of(view, player) or "The table"
        self.who._bg_colour.rgba = colour
        self.who.color = theme.text_on(colour)
        prompt = str(wait.get("prompt") or "")
        who = name_of(view, player)
        if who and prompt.startswith(who + ":"):
            prompt = prompt[len(who) + 1:].strip()
        self.prompt.text = prompt

        self.main.clear_widgets()
        # Left: what happened and what the engine proposes. Right: what the table may do now.
        left = Column(size_hint_x=0.45)
        pending = view.get("pending")
        if pending:
            box = Panel(orientation="vertical", colour=theme.hex_rgba("#1b3a4b"), radius=m.px(6),
                        size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            box.add_widget(Text(str(pending.get("text", "")), size="large", fit_height=True))
            box.add_widget(row(
                BigButton("Confirm", on_tap=self.app.confirm, colour=theme.CONFIRM),
                BigButton("Correct", on_tap=self.app.reject)))
            left.add(box)
        if wait.get("kind") == "contracts":
            left.add(self._hand(view, player))
        for line in reversed((view.get("announcements") or [])[-4:]):
            left.add(Text(str(line.get("text", "")), size="small",
                          colour=theme.WARNING if line.get("urgent") else theme.TEXT_DIM, fit_height=True))
        self.main.add_widget(left)
        self.main.add_widget(self._choices(view))

    def _hand(self, view: dict[str, Any], player: int | None) -> Any:
        """The contracts the player could play now, with what each does (from the component data)."""
        numbers = [c["action"]["contract"] for c in view.get("choices") or []
                   if c.get("action", {}).get("type") == "play_contract"]
        lines = []
        for n in numbers:
            contract = self.components.contracts.get(n)
            if contract is not None:
                lines.append(f"[b]{n}[/b]: {contract.effect}")
        return Text("\n".join(lines) if lines else "No contract to play before this area.", size="small",
                    fit_height=True)

    def _choices(self, view: dict[str, Any]) -> Any:
        m = metrics()
        choices = view.get("choices") or []
        blocked = view.get("blocked") or []
        self.choice_buttons = []
        self.confirm_button = None
        column = Column(size_hint_x=0.55)
        if len(choices) == 1 and not view.get("pending"):
            only = choices[0]
            button = BigButton(f"Confirm: {only.get('label', '')}", on_tap=partial(self.app.act, only["action"]),
                               colour=theme.CONFIRM, size="large", size_hint_y=None, height=m.target * 1.6)
            self.confirm_button = button
            self.choice_buttons.append(button)
            column.add(button)
        else:
            grid = GridLayout(cols=2 if len(choices) > 4 else 1, spacing=m.gap, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for choice in choices:
                action = choice.get("action", {})
                kind = action.get("type")
                colour = theme.PANEL_LIGHT if kind in ("pass", "decline", "idle") else theme.ACCENT
                button = BigButton(str(choice.get("label", kind)), on_tap=partial(self.app.act, action),
                                   colour=colour, size="small", size_hint_y=None, height=m.target)
                self.choice_buttons.append(button)
                grid.add_widget(button)
            column.add(grid)
        for entry in blocked[:8]:
            button = BigButton(str(entry.get("label", "")), size="small", size_hint_y=None, height=m.target,
                               on_blocked=self.app.say)
            button.block(str(entry.get("reason", "Not allowed now.")))
            column.add(button)
        return column
