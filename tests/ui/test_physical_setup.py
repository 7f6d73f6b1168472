"""Physical bag: the table lays the route and fills the engine shed itself and tells the app by touch."""

from __future__ import annotations

from typing import Any

from tests.ui.conftest import ARTIFACTS
from tests.ui.test_round import received


def test_route_and_engine_shed_tapped_in_the_tables_order(harness: Any) -> None:
    h = harness
    app, session = h.app, h.app.session
    new_game = app.screens["new_game"]
    for colour in ("green", "blue", "yellow"):
        h.tap(new_game.colour_buttons[colour])
    h.tap(new_game.option_buttons[("bag_mode", "physical")])
    h.tap(new_game.start_button)
    assert session.view()["bag_mode"] == "physical"
    assert app.manager.current == "end_of_round"
    screen = app.screens["end_of_round"]
    count = session.view()["waiting"]["info"]["count"]
    assert count == 13  # three players: 13 track cards (components.md)

    order = [14, 2, 9, 5, 1, 13, 7, 3, 12, 6, 10, 4, 8]
    h.tap(screen.pick_buttons[order[0]])
    h.tap(screen.pick_buttons[order[0]])  # twice the same card: refused with the reason, not added
    assert "already number 1" in app.message.label.text
    for card in order[1:]:  # all fourteen cards fit the screen at once: no scrolling between taps
        h.tap(screen.pick_buttons[card])
    h.screenshot(ARTIFACTS / "800x480-route-entry.png")
    assert screen.lay_button is not None and screen.lay_button.blocked_reason is None
    before = len(session.game.actions)
    h.tap(screen.lay_button)
    assert received(session, before)[0] == {"type": "route", "tracks": order}
    laid = [t["card"] for t in session.view()["state"]["route"]]
    assert laid == order
