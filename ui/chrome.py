"""The parts around every screen: the top bar (where we are, Overview one tap away, Undo/Redo), the message
line (reasons, errors, the newest announcement) and the on-screen stand-ins for the reader and buttons."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout

from ui import theme
from ui.i18n import _
from ui.viewdata import name_of, waiting
from ui.widgets import BigButton, Panel, Text, metrics

if TYPE_CHECKING:
    from ui.app import TableApp


class TopBar(Panel):
    def __init__(self, app: TableApp) -> None:
        m = metrics()
        super().__init__(orientation="horizontal", size_hint_y=None, height=m.bar, padding=(m.gap, 0),
                         colour=theme.PANEL)
        self.app = app
        self.where = Text("", size="normal", bold=True, size_hint_x=1)
        self.add_widget(self.where)
        w = m.px(104)
        self.game = BigButton(_("Game"), on_tap=app.show_game, size_hint=(None, 1), width=w)
        self.overview = BigButton(_("Overview"), on_tap=lambda: app.show("overview"), size_hint=(None, 1),
                                  width=m.px(122), colour=theme.ACCENT)
        self.undo = BigButton(_("Undo"), on_tap=app.undo, size_hint=(None, 1), width=w, on_blocked=app.say)
        self.redo = BigButton(_("Redo"), on_tap=app.redo, size_hint=(None, 1), width=w, on_blocked=app.say)
        self.menu = BigButton(_("Menu"), on_tap=lambda: app.show("menu"), size_hint=(None, 1), width=w)
        for button in (self.game, self.overview, self.undo, self.redo, self.menu):
            self.add_widget(button)

    def update(self, view: dict[str, Any], current: str) -> None:
        parts = []
        if view.get("game_id") is not None:
            round_now = view.get("round")
            parts.append(_("Round {n}").format(n=round_now) if round_now else _("Set-up"))
            wait = waiting(view)
            who = wait.get("player_name") or name_of(view, wait.get("player"))
            if view.get("finished"):
                parts.append(_("game over"))
            elif who:
                parts.append(_("{name}'s turn").format(name=who))
            elif wait:
                parts.append(_("the table"))
        self.where.text = " · ".join(parts) if parts else _("Table Assistant")
        # One line at the normal size when it fits; long names or languages get the small size.
        m = metrics()
        self.where.font_size = m.font if len(self.where.text) <= 22 else m.font_small
        self.undo.block(None if view.get("can_undo") else _("Nothing to undo yet."))
        self.redo.block(None if view.get("can_redo") else _("Nothing to redo."))
        self.overview.set_colour(theme.PANEL_LIGHT if current == "overview" else theme.ACCENT)


class MessageLine(Panel):
    """One line at the bottom: why a space is disabled, a refusal, or the newest announcement."""

    def __init__(self) -> None:
        m = metrics()
        super().__init__(orientation="horizontal", size_hint_y=None, height=m.px(40), padding=(m.gap * 2, 0),
                         colour=theme.PANEL)
        self.label = Text("", size="small")
        self.add_widget(self.label)

    def show(self, text: str, kind: str = "info") -> None:
        colours = {"info": theme.PANEL, "reason": theme.hex_rgba("#5d4037"), "error": theme.DANGER,
                   "urgent": theme.hex_rgba("#1565c0")}
        self.set_colour(colours.get(kind, theme.PANEL))
        self.label.text = text


class StandIns(Panel):
    """On-screen stand-ins for the hardware a simulated table lacks: the four buttons and the card reader."""

    def __init__(self, app: TableApp) -> None:
        m = metrics()
        super().__init__(orientation="horizontal", size_hint_y=None, height=m.target, padding=(m.gap, 0),
                         colour=theme.hex_rgba("#1e2a1e"))
        self.app = app
        self.add_widget(Text(_("Simulated:"), size="small", size_hint_x=None, width=m.px(100)))
        self.buttons: dict[str, BigButton] = {}
        for name, label, colour in (("confirm", _("Confirm"), theme.CONFIRM),
                                    ("back", _("Back"), theme.PANEL_LIGHT),
                                    ("undo", _("Undo (hold)"), theme.PANEL_LIGHT),
                                    ("next", _("Next"), theme.PANEL_LIGHT)):
            button = BigButton(label, on_tap=partial(app.press_button, name), colour=colour, size="small")
            self.buttons[name] = button
            self.add_widget(button)
        self.reader = BigButton(_("Tap a card…"), on_tap=lambda: app.show("reader"), colour=theme.PANEL_LIGHT,
                                size="small")
        self.add_widget(self.reader)


def spacer() -> BoxLayout:
    return BoxLayout()
