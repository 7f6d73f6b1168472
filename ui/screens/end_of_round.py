"""End of round, and every moment the table itself must act (a bag draw, a card turned over).

After a round ends: the site office restock, the weather change, the stock-yard restock and the events,
each as the session announced it, with the new weather, site office and stock yard drawn; the table
taps Continue to go on to placement. When a chance outcome is awaited (physical bag, a card to reveal),
it shows the session's proposal from the camera, the possible outcomes, and "let the assistant draw".
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.screens.base import BaseScreen
from ui.screens.overview import event_track_row, site_office_row, weather_row, yard_row
from ui.viewdata import waiting
from ui.widgets import BigButton, Column, Panel, Text, metrics, row


class EndOfRoundScreen(BaseScreen):
    screen_name = "end_of_round"
    title = "End of round"

    def build(self) -> None:
        m = metrics()
        self.heading = Text("", size="large", bold=True, size_hint_y=None, height=m.px(40))
        self.add_widget(self.heading)
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.main)
        self.continue_button: BigButton | None = None
        self.draw_button: BigButton | None = None
        self.outcome_buttons: list[BigButton] = []

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        self.main.clear_widgets()
        self.continue_button = None
        self.draw_button = None
        self.outcome_buttons = []
        wait = waiting(view)
        table_step = bool(wait) and wait.get("player") is None
        board = Column(size_hint_x=0.55)
        board.add(weather_row(view))
        board.add(site_office_row(view))
        board.add(yard_row(view))
        board.add(event_track_row(view, compact=True))
        side_box = BoxLayout(orientation="vertical", spacing=m.gap, size_hint_x=0.45)
        side = Column()
        side_box.add_widget(side)
        if table_step:
            self.heading.text = str(wait.get("prompt") or "The table")
            self._table_step(view, side)
        else:
            round_now = view.get("round")
            self.heading.text = f"End of round {round_now - 1}" if isinstance(round_now, int) else "End of round"
            announcements = view.get("announcements") or []
            for line in announcements[-8:]:
                side.add(Text(str(line.get("text", "")), size="small", fit_height=True,
                              colour=theme.WARNING if line.get("urgent") else theme.TEXT))
            self.continue_button = BigButton(f"Continue to round {round_now}", on_tap=self.app.acknowledge_round,
                                             colour=theme.CONFIRM, size="large", size_hint_y=None,
                                             height=m.target * 1.3)
            side_box.add_widget(self.continue_button)  # pinned: never scrolled away by a long round
        self.main.add_widget(board)
        self.main.add_widget(side_box)

    def _table_step(self, view: dict[str, Any], side: Column) -> None:
        m = metrics()
        pending = view.get("pending")
        if pending:
            box = Panel(orientation="vertical", colour=theme.hex_rgba("#1b3a4b"), radius=m.px(6), size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            box.add_widget(Text(str(pending.get("text", "")), size="large", fit_height=True))
            box.add_widget(row(BigButton("Confirm", on_tap=self.app.confirm, colour=theme.CONFIRM),
                               BigButton("Correct", on_tap=self.app.reject)))
            side.add(box)
        self.draw_button = BigButton("Let the assistant draw", on_tap=self.app.draw, colour=theme.ACCENT,
                                     size_hint_y=None, height=m.target)
        side.add(self.draw_button)
        choices = view.get("choices") or []
        if choices:
            side.add(Text("or tap what the table drew:", size="small", fit_height=True))
            grid = GridLayout(cols=2, spacing=m.gap, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for choice in choices[:24]:
                button = BigButton(str(choice.get("label", "")), on_tap=partial(self.app.act, choice["action"]),
                                   payload=choice["action"],
                                   size="small", size_hint_y=None, height=m.target)
                self.outcome_buttons.append(button)
                grid.add_widget(button)
            side.add(grid)
