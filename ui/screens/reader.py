"""The card reader's on-screen stand-in (simulated tables): tap a card instead of holding it to the reader."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Column, Text, metrics

UNKNOWN_TAG = "00DEADBEEF"


def enrolled_cards(session: Any) -> list[tuple[str, str]]:
    """(tag, what the card is) for every card in the registry the session uses, when it can list them."""
    registry = getattr(getattr(session, "devices", None), "cards", None)
    lister = getattr(registry, "cards", None) or getattr(registry, "all", None)
    if registry is None or not callable(lister):
        return []
    found = []
    for card in lister():
        tag = getattr(card, "tag", None) or (card.get("tag") if isinstance(card, dict) else None)
        if tag:
            kind = getattr(card, "kind", None) or (card.get("kind") if isinstance(card, dict) else "")
            number = getattr(card, "number", None) or (card.get("number") if isinstance(card, dict) else "")
            found.append((str(tag), f"{kind} {number}".strip()))
    return found


class ReaderScreen(BaseScreen):
    screen_name = "reader"
    title = "Card reader (stand-in)"

    def build(self) -> None:
        self.column = Column()
        self.add_widget(self.column)
        self.card_buttons: dict[str, BigButton] = {}

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        self.column.clear()
        self.card_buttons = {}
        self.column.add(Text(_("Tap a card as if holding it to the reader:"), size="large", fit_height=True))
        grid = GridLayout(cols=4, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        cards = enrolled_cards(self.app.session) + [(UNKNOWN_TAG, _("unknown card"))]
        for tag, what in cards:
            button = BigButton(f"{what}\n{tag}", on_tap=partial(self._tap, tag), size="small", size_hint_y=None,
                               height=m.target * 1.3, colour=theme.PANEL_LIGHT)
            self.card_buttons[tag] = button
            grid.add_widget(button)
        self.column.add(grid)

    def _tap(self, tag: str) -> None:
        self.app.tap_card(tag)
