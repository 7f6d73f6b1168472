"""Buttons, LEDs and buzzer on real gpiozero code with its mock pin factory."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.controls import ControlsUnavailable, GpioControls, SimulatedControls
from tableassist.config import GpioSettings

# A generous bounce time keeps the timing tests honest on a loaded CI machine, where a 2 ms sleep may
# take 20 ms; SETTLE is comfortably longer than it.
SETTINGS = GpioSettings(enabled=True, bounce_ms=60, hold_seconds=0.6)
SETTLE = 0.25


def eventually(condition: Callable[[], bool], timeout: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


@pytest.fixture
def controls(factory: MockFactory) -> Iterator[tuple[GpioControls, list[str]]]:
    pressed: list[str] = []
    device = GpioControls(SETTINGS, pin_factory=factory)
    for button in ("confirm", "back", "undo", "next"):
        device.on_press(button, lambda b=button: pressed.append(b))  # type: ignore[misc]
    yield device, pressed
    device.close()


def tap(pin: object, seconds: float = SETTLE) -> None:
    pin.drive_low()  # type: ignore[attr-defined]  # buttons pull up; pressed connects the pin to ground
    time.sleep(seconds)
    pin.drive_high()  # type: ignore[attr-defined]


def test_confirm_and_next_fire_once_per_press(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    _, pressed = controls
    tap(factory.pin(17))
    tap(factory.pin(22))
    assert eventually(lambda: pressed == ["confirm", "next"])
    time.sleep(SETTLE)
    assert pressed == ["confirm", "next"]


def test_contact_bounce_is_one_press(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    _, pressed = controls
    pin = factory.pin(17)
    for _ in range(5):  # a bouncing contact: five closings within a few milliseconds
        pin.drive_low()
        time.sleep(0.002)
        pin.drive_high()
        time.sleep(0.002)
    pin.drive_low()
    time.sleep(SETTLE)
    for _ in range(3):  # and it bounces on release too
        pin.drive_high()
        time.sleep(0.002)
        pin.drive_low()
        time.sleep(0.002)
    pin.drive_high()
    time.sleep(SETTLE)
    assert pressed == ["confirm"]


def test_a_glitch_shorter_than_the_bounce_time_is_not_a_press(factory: MockFactory,
                                                              controls: tuple[GpioControls, list[str]]) -> None:
    _, pressed = controls
    tap(factory.pin(17), seconds=0.01)
    time.sleep(SETTLE)
    assert pressed == []
    tap(factory.pin(17))  # and the button still works afterwards
    assert eventually(lambda: pressed == ["confirm"])


def test_back_short_press_is_back_on_release(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    _, pressed = controls
    pin = factory.pin(27)
    pin.drive_low()
    time.sleep(SETTLE)
    assert pressed == []  # not yet: it could still become a hold
    pin.drive_high()
    assert eventually(lambda: pressed == ["back"])


def test_back_held_is_undo_and_not_back(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    _, pressed = controls
    pin = factory.pin(27)
    pin.drive_low()
    assert eventually(lambda: pressed == ["undo"], timeout=2.0)  # fires while still held
    pin.drive_high()
    time.sleep(SETTLE)
    assert pressed == ["undo"]


def test_status_leds(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    device, _ = controls
    waiting, event, error = factory.pin(5), factory.pin(6), factory.pin(13)
    device.show_status("waiting")
    assert (waiting.state, event.state, error.state) == (True, False, False)
    device.show_status("error")
    assert (waiting.state, event.state, error.state) == (False, False, True)
    event.clear_states()
    device.show_status("event")
    time.sleep(0.8)
    assert (waiting.state, error.state) == (False, False)
    ons = [s for s in event.states if s.state]
    assert len(ons) >= 2  # blinking: on at least twice in 0.8 s at 0.25 s on / 0.25 s off
    device.show_status("idle")
    assert (waiting.state, event.state, error.state) == (False, False, False)
    with pytest.raises(ValueError):
        device.show_status("panic")  # type: ignore[arg-type]


def test_buzzer_beeps_twice(factory: MockFactory, controls: tuple[GpioControls, list[str]]) -> None:
    device, _ = controls
    buzzer = factory.pin(19)
    buzzer.clear_states()
    device.buzz()
    assert eventually(lambda: len(buzzer.states) >= 5)  # off, on, off, on, off
    assert [s.state for s in buzzer.states[:5]] == [False, True, False, True, False]


def test_pins_come_from_the_config(factory: MockFactory) -> None:
    pressed: list[str] = []
    settings = replace(SETTINGS, confirm=23, led_waiting=24)
    device = GpioControls(settings, pin_factory=factory)
    try:
        device.on_press("confirm", lambda: pressed.append("confirm"))
        tap(factory.pin(17))  # the default pin is not wired any more
        tap(factory.pin(23))
        assert eventually(lambda: pressed == ["confirm"])
        device.show_status("waiting")
        assert factory.pin(24).state and not factory.pin(5).state
    finally:
        device.close()


def test_pin_factory_by_name_from_the_config() -> None:
    device = GpioControls(replace(SETTINGS, pin_factory="mock"))
    try:
        device.show_status("error")
        assert device.leds["error"].is_lit
    finally:
        device.close()


def test_a_pin_in_use_is_a_clear_error(factory: MockFactory) -> None:
    first = GpioControls(SETTINGS, pin_factory=factory)
    try:
        with pytest.raises(ControlsUnavailable, match="not available"):
            GpioControls(SETTINGS, pin_factory=factory)
    finally:
        first.close()


def test_unknown_button_is_refused(controls: tuple[GpioControls, list[str]]) -> None:
    device, _ = controls
    with pytest.raises(ValueError):
        device.on_press("jump", lambda: None)  # type: ignore[arg-type]


def test_simulated_controls() -> None:
    device = SimulatedControls()
    pressed: list[str] = []
    device.on_press("undo", lambda: pressed.append("undo"))
    device.press("undo")
    device.press("confirm")
    device.show_status("event")
    device.buzz()
    assert pressed == ["undo"]
    assert device.presses == ["undo", "confirm"]
    assert (device.status, device.buzzes) == ("event", 1)
    with pytest.raises(ValueError):
        device.press("jump")  # type: ignore[arg-type]
