"""Final scores: each player's breakdown, the contracts fulfilled and with what, and the winner."""

from __future__ import annotations

from typing import Any

from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.screens.calculator import score_table_widget
from ui.widgets import BigButton, Text, metrics, row


class FinalScoresScreen(BaseScreen):
    screen_name = "final_scores"
    title = "Final scores"

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        self.clear_widgets()
        final = view.get("final")
        scores = final if isinstance(final, dict) else None
        final_result = scores is not None
        if scores is None and isinstance(view.get("scores_now"), dict):
            # Before the end this is the live estimate: it says so, so nobody mistakes it for the result.
            scores = view["scores_now"]
        colours = {str(p.get("name")): str(p.get("colour")) for p in view.get("players") or []}
        new_game = BigButton(_("New game"), on_tap=lambda: self.app.show("new_game"), size_hint_x=None,
                             width=m.px(150), size="small")
        if scores is None:
            self.add_widget(row(Text(_("No scores yet."), size="large"), new_game))
            return
        self.add_widget(score_table_widget(scores, colours=colours, final=final_result, buttons=(new_game,)))
