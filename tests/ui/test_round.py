"""A whole round at the table, by touch: real Kivy buttons pressed with real touch events, the real table
session (and its journal) underneath. Each step asserts what the session received and what the screen shows."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.ui.conftest import ARTIFACTS

COLOURS = ("green", "blue", "yellow")


def start_game(h: Any, colours: tuple[str, ...] = COLOURS) -> None:
    app = h.app
    assert app.manager.current == "new_game"
    screen = app.screens["new_game"]
    for colour in colours:
        h.tap(screen.colour_buttons[colour])
    h.tap(screen.start_button)


def received(session: Any, before: int) -> list[dict[str, Any]]:
    """The actions the session journalled since `before` (read back from SQLite, not from memory)."""
    record = session.journal.load(session.game_id)
    return [dict(a) for a in record.actions[before:]]


def tap_action(h: Any, button: Any) -> dict[str, Any]:
    """Tap a button that carries an engine action; assert the session journalled exactly that action first."""
    session = h.app.session
    before = len(session.game.actions)
    sent = dict(button.payload)
    h.tap(button)
    got = received(session, before)
    assert got, f"the session received nothing for {button.text!r}"
    assert got[0] == sent
    return sent


def legal_spaces(h: Any) -> list[Any]:
    return [b for b in h.app.screens["placement"].space_buttons.values() if not b.blocked_reason]


def test_new_game_by_touch_starts_round_one_at_placement(harness: Any) -> None:
    h = harness
    start_game(h)
    view = h.app.session.view()
    assert [p["colour"] for p in view["players"]] == list(COLOURS)
    assert [p["name"] for p in view["players"]] == ["Green", "Blue", "Yellow"]
    assert h.app.manager.current == "placement"
    assert "Round 1" in h.app.top.where.text
    assert view["waiting"]["player_name"] in h.app.top.where.text
    assert h.app.screens["placement"].who.text == view["waiting"]["player_name"]


def test_start_is_refused_until_a_colour_is_chosen(harness: Any) -> None:
    h = harness
    screen = h.app.screens["new_game"]
    h.tap(screen.start_button)
    assert h.app.session.view()["game_id"] is None
    assert "Tap at least one colour" in h.app.message.label.text


def test_a_full_round_by_touch(harness: Any) -> None:
    h = harness
    app, session = h.app, h.app.session
    start_game(h)
    h.screenshot(ARTIFACTS / "800x480-placement-round1.png")
    areas_used: list[str] = []
    placed = 0
    resolved: list[str] = []
    for _ in range(120):
        current = app.manager.current
        view = session.view()
        if current == "placement":
            spaces = legal_spaces(h)
            assert spaces, "placement shows no legal space"
            # Spread the labourers over the areas so the resolution guide walks through several of them.
            fresh = [b for b in spaces if b.payload["area"] not in areas_used] or spaces
            action = tap_action(h, fresh[0])
            areas_used.append(action["area"])
            placed += 1
            placement = app.screens["placement"]
            if app.manager.current == "placement":
                taken = placement.space_buttons.get((action["area"], action["space"]))
                assert taken is None or action["area"] == "G", "a taken space is still offered"
        elif current == "resolution":
            screen = app.screens["resolution"]
            kind = view["waiting"]["kind"]
            if kind not in resolved:
                resolved.append(kind)
                h.screenshot(ARTIFACTS / f"800x480-resolution-{kind}.png")
            assert screen.who.text == view["waiting"]["player_name"]
            current_area = view["state"]["area"]
            assert screen.area_chips[current_area]._bg_colour.rgba == pytest.approx(list(_accent()))
            button = screen.confirm_button or screen.choice_buttons[0]
            tap_action(h, button)
        elif current == "end_of_round":
            break
        else:
            pytest.fail(f"unexpected screen {current} during round 1")
    else:
        pytest.fail("round 1 did not end within 120 taps")

    view = session.view()
    assert view["round"] == 2
    assert placed == 2 * len(COLOURS)  # two labourers each, all placed by touch
    assert "stock_yard" in resolved or "contracts" in resolved
    end = app.screens["end_of_round"]
    assert end.heading.text == "End of round 1"
    weather_now = view["state"]["weather"][0]
    assert _texts(end).count(f"now: {weather_now}") == 1
    # What the end of the round did, in the session's words: the new weather among them, and the restock.
    lines = [w.text for w in end.side_column.walk() if hasattr(w, "text") and w is not end.side_column]
    assert any(weather_now in line for line in lines)
    assert any("stock yard" in line.lower() for line in lines)
    h.screenshot(ARTIFACTS / "800x480-end_of_round.png")
    h.tap(end.continue_button)
    assert app.manager.current == "placement"
    assert "Round 2" in app.top.where.text


def test_closed_spaces_say_why_on_touch(harness: Any) -> None:
    h = harness
    start_game(h)
    view = h.app.session.view()
    closed = [b for b in view["blocked"] if b["action"]["type"] == "hire_temporary"]
    assert closed, "round 1: nobody has a train, so the temporary labourer must be closed"
    screen = h.app.screens["placement"]
    before = len(h.app.session.game.actions)
    h.tap(screen.hire)
    assert h.app.message.label.text == closed[0]["reason"]
    assert len(h.app.session.game.actions) == before  # nothing was sent

    first = tap_action(h, legal_spaces(h)[0])
    taken = [b for b in screen.areas_box.walk() if getattr(b, "text", None) == "Green"
             and hasattr(b, "blocked_reason")]
    assert taken, "the taken space does not show its occupant"
    h.tap(taken[0])
    assert "Green's labourer is there" in h.app.message.label.text
    assert first["player"] == 0


def test_undo_and_redo_from_the_top_bar(harness: Any) -> None:
    h = harness
    start_game(h)
    session = h.app.session
    assert h.app.top.undo.blocked_reason  # nothing to undo before the first placement
    action = tap_action(h, legal_spaces(h)[0])
    count = len(session.game.actions)
    h.tap(h.app.top.undo)
    assert len(received(session, 0)) == count - 1
    assert session.view()["waiting"]["player"] == action["player"]
    assert h.app.screens["placement"].who.text == "Green"
    h.tap(h.app.top.redo)
    assert received(session, 0)[-1] == action


def test_stand_in_confirm_takes_a_forced_step(harness: Any) -> None:
    h = harness
    app, session = h.app, h.app.session
    start_game(h)
    for _ in range(120):
        view = session.view()
        if app.manager.current == "placement":
            tap_action(h, legal_spaces(h)[0])
        elif app.manager.current == "resolution" and len(view["choices"]) == 1:
            break
        elif app.manager.current == "resolution":
            tap_action(h, app.screens["resolution"].choice_buttons[0])
        else:
            pytest.skip("no single-choice step in round 1 with this draw")
    only = session.view()["choices"][0]["action"]
    before = len(session.game.actions)
    assert app.stand_in_bar is not None
    h.tap(app.stand_in_bar.buttons["confirm"])
    assert received(session, before)[0] == only


def test_card_reader_stand_in_reports_an_unknown_card(harness: Any) -> None:
    h = harness
    start_game(h)
    assert h.app.stand_in_bar is not None
    h.tap(h.app.stand_in_bar.reader)
    assert h.app.manager.current == "reader"
    h.screenshot(ARTIFACTS / "800x480-reader.png")
    screen = h.app.screens["reader"]
    h.tap(screen.card_buttons["00DEADBEEF"])
    assert "00DEADBEEF" in h.app.message.label.text
    assert [t["tag"] for t in h.app.session.view()["recent_taps"]] == ["00DEADBEEF"]
    assert h.app.session.view()["error"] == h.app.message.label.text


def test_a_change_from_a_device_thread_is_drawn_on_the_ui_thread(harness: Any) -> None:
    """The reader and buttons post from their own threads: the UI must redraw on its clock, not theirs."""
    h = harness
    start_game(h)
    session = h.app.session
    action = legal_spaces(h)[0].payload
    drawn_on: list[str] = []
    screen = h.app.screens["placement"]
    original = screen.update

    def spy(view: dict[str, Any]) -> None:
        drawn_on.append(threading.current_thread().name)
        original(view)

    screen.update = spy
    worker = threading.Thread(target=session.act, args=(action,), name="rfid-thread")
    worker.start()
    worker.join(5)
    assert drawn_on == []  # nothing drawn from the device thread
    h.pump(3)
    assert drawn_on and set(drawn_on) == {threading.main_thread().name}
    assert screen.who.text == "Blue"


def test_overview_is_one_tap_away_from_every_screen(harness: Any) -> None:
    h = harness
    start_game(h)
    for name in ("placement", "settings", "calculator", "menu", "final_scores"):
        h.app.show(name)
        h.tap(h.app.top.overview)
        assert h.app.manager.current == "overview"
    view = h.app.session.view()
    texts = _texts(h.app.screens["overview"])
    for p in view["state"]["players"]:
        assert p["name"] in texts
    bag = view["forecast"]["bag"]
    assert f"{bag['iron']} iron" in texts
    h.tap(h.app.top.game)
    assert h.app.manager.current == "placement"


def test_final_scores_show_the_sessions_result(harness: Any) -> None:
    h = harness
    session = h.app.session
    start_game(h)
    while not session.view()["finished"]:  # the rest of the game straight through the session (fast)
        view = session.view()
        assert session.act(view["choices"][0]["action"]).ok
    h.pump(4)
    assert h.app.manager.current == "final_scores"
    final = session.view()["final"]
    texts = _texts(h.app.screens["final_scores"])
    for player in final["players"]:
        assert str(player["total"]) in texts
    winners = final["winners"]
    assert any(w in t and "win" in t for t in texts for w in winners)
    h.screenshot(ARTIFACTS / "800x480-final_scores.png")


def _texts(widget: Any) -> list[str]:
    return [str(w.text) for w in widget.walk() if hasattr(w, "text") and isinstance(w.text, str)]


def _accent() -> tuple[float, ...]:
    from ui import theme

    return theme.ACCENT


def test_names_typed_on_the_new_game_screen(harness: Any) -> None:
    h = harness
    screen = h.app.screens["new_game"]
    h.tap(screen.colour_buttons["pink"])
    h.tap(screen.colour_buttons["blue"])
    assert not screen.name_fields  # no text fields until the table asks for them
    h.tap(screen.names_button)
    h.tap(screen.name_fields["pink"])  # focus, as a finger does; then the keyboard types
    screen.name_fields["pink"].insert_text("Rhiannon")
    h.pump(2)
    h.tap(screen.start_button)
    players = h.app.session.view()["players"]
    assert [(p["name"], p["colour"]) for p in players] == [("Rhiannon", "pink"), ("Blue", "blue")]


def test_a_fault_in_the_session_leaves_the_screen_working(harness: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fault injection: the session's act breaks once. The table sees one sentence; nothing was journalled."""
    h = harness
    start_game(h)
    session = h.app.session
    before = len(received(session, 0))

    def broken(action: dict[str, Any]) -> Any:
        raise RuntimeError("injected fault")

    monkeypatch.setattr(session, "act", broken)
    h.tap(legal_spaces(h)[0])
    assert "did not work" in h.app.message.label.text
    assert len(received(session, 0)) == before
    monkeypatch.undo()
    tap_action(h, legal_spaces(h)[0])  # and the next tap works


def test_overview_highlights_the_space_the_next_event_cube_lands_on(harness: Any) -> None:
    h = harness
    start_game(h)
    session = h.app.session
    for _ in range(2000):  # until a cube sits on the track, so the next space is not simply the first
        view = session.view()
        if any(view["state"]["event_track"]["occupied"]) or view["finished"]:
            break
        assert session.act(view["choices"][0]["action"]).ok
    view = session.view()
    assert any(view["state"]["event_track"]["occupied"])
    h.tap(h.app.top.overview)
    chips = [w for w in h.app.screens["overview"].walk() if hasattr(w, "next_event_space")]
    assert len(chips) == 10
    highlighted = [i + 1 for i, chip in enumerate(chips) if chip.next_event_space]
    assert highlighted == [view["next_event_space"]["space"]]
    from ui import theme

    chip = chips[highlighted[0] - 1]
    assert tuple(chip._bg_colour.rgba) == pytest.approx(tuple(theme.ACCENT))
