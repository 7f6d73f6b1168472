"""The stand-alone score calculator, entered by touch only. Expected totals are worked out by hand below."""

from __future__ import annotations

from typing import Any

from tests.ui.conftest import ARTIFACTS


def open_calculator(h: Any) -> Any:
    h.tap(h.app.top.menu)
    h.tap(h.app.screens["menu"].buttons["calculator"])
    assert h.app.manager.current == "calculator"
    return h.app.screens["calculator"]


def keypad_button(screen: Any, text: str, nth: int = 0) -> Any:
    """The nth button with this text in the editor (site keypad first, then the track keypad)."""
    found = [w for w in screen.main.walk() if getattr(w, "text", None) == text and hasattr(w, "blocked_reason")]
    return found[nth]


def scroll_to(h: Any, screen: Any, widget: Any) -> None:
    """Scroll the editor so the widget is in view, as a finger would (Kivy's own scroll_to)."""
    scroller = screen.main.children[0]
    scroller.scroll_to(widget, padding=10, animate=False)
    h.pump(2)


def test_a_final_position_entered_by_touch_is_scored(harness: Any) -> None:
    h = harness
    screen = open_calculator(h)
    # Yellow: sites 9 + 4 + 7 = 20, track 3, surveyor Clogwyn (15), contract 3 (3 sites → 6 VP) and
    # contract 20 (5 tracks → 40 VP, not met with 1 track). Total by hand: 20 + 3 + 15 + 6 = 44.
    for value in ("+9", "+4", "+7"):
        h.tap(keypad_button(screen, value))
    track_three = keypad_button(screen, "+3", 1)
    scroll_to(h, screen, track_three)
    h.tap(track_three)
    clogwyn = keypad_button(screen, "6 Clogwyn Station")
    scroll_to(h, screen, clogwyn)
    h.tap(clogwyn)
    for number in (3, 20):
        button = screen.contract_buttons[number]
        scroll_to(h, screen, button)
        h.tap(button)
    h.screenshot(ARTIFACTS / "800x480-calculator-entry.png")
    # Blue enters nothing but a surveyor at Hebron (4 VP): total 4.
    h.tap(screen.player_buttons[1])
    hebron = keypad_button(screen, "3 Hebron Station")
    scroll_to(h, screen, hebron)
    h.tap(hebron)
    h.tap(screen.score_button)

    result = screen.result
    assert result is not None
    totals = {p["name"]: p["total"] for p in result["players"]}
    assert totals == {"Yellow": 44, "Blue": 4}
    assert result["winners"] == ["Yellow"]
    yellow = result["players"][0]
    assert yellow["breakdown"]["sites"] == 20 and yellow["breakdown"]["tracks"] == 3
    assert list(yellow["fulfilled"]) == ["3"]
    shown = [str(w.text) for w in screen.main.walk() if hasattr(w, "text")]
    assert "Yellow wins!" in shown and "44" in " ".join(shown)
    h.screenshot(ARTIFACTS / "800x480-calculator-result.png")


def test_contracts_28_and_29_are_closed_with_two_players(harness: Any) -> None:
    h = harness
    screen = open_calculator(h)
    assert len(screen.entries) == 2
    button = screen.contract_buttons[28]
    scroll_to(h, screen, button)
    h.tap(button)
    assert 28 not in screen.entries[0].contracts
    assert "3 to 5 players" in h.app.message.label.text
