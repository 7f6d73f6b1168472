"""The menu: everything that is not the game in progress, each one tap away."""

from __future__ import annotations

from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, metrics


class MenuScreen(BaseScreen):
    screen_name = "menu"
    title = "Menu"

    def build(self) -> None:
        m = metrics()
        grid = GridLayout(cols=2, spacing=m.gap * 2, padding=m.gap * 2)
        self.buttons = {
            "game": BigButton(_("Back to the game"), on_tap=self.app.show_game, colour=theme.CONFIRM, size="large"),
            "overview": BigButton(_("Round overview"), on_tap=lambda: self.app.show("overview"), colour=theme.ACCENT,
                                  size="large"),
            "new_game": BigButton(_("New game / resume"), on_tap=lambda: self.app.show("new_game"), size="large"),
            "calculator": BigButton(_("Score calculator"), on_tap=lambda: self.app.show("calculator"), size="large"),
            "settings": BigButton(_("Settings and diagnostics"), on_tap=lambda: self.app.show("settings"),
                                  size="large"),
            "final_scores": BigButton(_("Scores"), on_tap=lambda: self.app.show("final_scores"), size="large"),
        }
        for button in self.buttons.values():
            grid.add_widget(button)
        self.body.add_widget(grid)
