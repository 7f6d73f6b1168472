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


def test_cubes_drawn_from_the_real_bag_are_counted_in(harness: Any) -> None:
    h = harness
    app, session = h.app, h.app.session
    session.new_game(["Ann", "Ben", "Cy"], ["green", "blue", "yellow"], bag_mode="physical", seed=1)
    for _ in range(400):  # set-up and round 1 through the session, until the table must draw from the bag
        view = session.view()
        if view["waiting"]["kind"] == "draw":
            break
        if view["waiting"]["player"] is None:
            assert session.draw().ok
        else:
            assert session.act(view["choices"][0]["action"]).ok
    app.refresh_to_game()
    h.pump(2)
    assert app.manager.current == "end_of_round"
    screen = app.screens["end_of_round"]
    count = session.view()["waiting"]["info"]["count"]
    assert len(session.view()["choices"]) > 50  # why counting beats a button per outcome
    iron, stone = count - 1, 1
    for _ in range(iron):
        h.tap(screen.draw_steppers["iron"].plus, frames=1)
    assert screen.drawn_button is not None and screen.drawn_button.blocked_reason  # one short
    h.tap(screen.drawn_button)
    assert f"the bag gave {count}" in app.message.label.text
    h.tap(screen.draw_steppers["stone"].plus)
    h.screenshot(ARTIFACTS / "800x480-physical-draw.png")
    before = len(session.game.actions)
    h.tap(screen.drawn_button)
    assert received(session, before)[0] == {"type": "draw", "iron": iron, "stone": stone, "coal": 0, "event": 0}
