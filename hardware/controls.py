"""Buttons, status LEDs and the buzzer on the GPIO header (gpiozero).

Confirm and Next act when pressed. Back acts when released — only then is it known whether it was a
short press (Back) or held for `hold_seconds` (Undo, fired the moment the hold time is reached).

Debounce is done here, in software, rather than with gpiozero's `bounce_time`: pin factories differ
(the mock factory ignores it, some filter in the kernel, others not at all), and the table must behave
the same on all of them. A press or release counts once the pin has kept its new level for `bounce_ms`.

Handlers run on gpiozero's event thread; the session they post into is thread-safe.
`SimulatedControls` is the same interface for machines without a header, with `.press(button)`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from tableassist.config import GpioSettings
from tableassist.ports import Button, Status

BUTTONS: tuple[Button, ...] = ("confirm", "back", "undo", "next")
STATUSES: tuple[Status, ...] = ("idle", "waiting", "event", "error")
BEEP_SECONDS = 0.15

Handler = Callable[[], None]


class ControlsUnavailable(Exception):
    """The GPIO header cannot be used here; the message says why."""


class _Handlers:
    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {b: [] for b in BUTTONS}
        self._lock = threading.Lock()

    def add(self, button: str, handler: Handler) -> None:
        if button not in self._handlers:
            raise ValueError(f"unknown button '{button}' (known: {', '.join(BUTTONS)})")
        with self._lock:
            self._handlers[button].append(handler)

    def fire(self, button: str) -> None:
        with self._lock:
            handlers = list(self._handlers[button])
        for handler in handlers:
            try:
                handler()
            except Exception:  # noqa: BLE001 - one failing handler must not silence the buttons
                logging.getLogger("tableassist.controls").exception("button handler for %s failed", button)


class _SettledButton:
    """One physical button, debounced: a change counts once the pin has kept its level for `bounce_seconds`.

    Every raw edge restarts a short timer; when it runs out the pin's level is read and, if it differs
    from the last accepted one, that is a real press or release. Unlike "ignore edges close together",
    this can never miss the final release of a bouncing contact and leave the button stuck down.
    """

    def __init__(self, device: Any, bounce_seconds: float, on_change: Callable[[bool], None]) -> None:
        self.device = device
        self.bounce_seconds = bounce_seconds
        self.pressed = False
        self.held = False
        self._on_change = on_change
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        device.when_pressed = self._edge
        device.when_released = self._edge

    def _edge(self) -> None:
        if self.bounce_seconds <= 0:
            self._settle()
            return
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(self.bounce_seconds, self._settle)
            self._timer.daemon = True
            self._timer.start()

    def _settle(self) -> None:
        try:
            level = bool(self.device.is_pressed)
        except Exception:  # noqa: BLE001 - the device was closed while the timer ran
            return
        with self._lock:
            if level == self.pressed:
                return
            self.pressed = level
            if level:
                self.held = False
        self._on_change(level)

    def cancel(self) -> None:
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()


class GpioControls:
    """The real buttons, LEDs and buzzer. `pin_factory`: any gpiozero Factory (None: gpiozero's default)."""

    def __init__(self, settings: GpioSettings, pin_factory: Any = None) -> None:
        from gpiozero import LED, Buzzer  # here: only the real backend needs gpiozero
        from gpiozero import Button as GpioButton

        if pin_factory is None and settings.pin_factory:
            pin_factory = make_pin_factory(settings.pin_factory)
        self._handlers = _Handlers()
        self._devices: list[Any] = []
        self._status: Status = "idle"
        bounce = settings.bounce_ms / 1000.0

        def button(pin: int, hold: float | None = None) -> Any:
            device = GpioButton(pin, pull_up=True, bounce_time=None, hold_time=hold or 1.0, pin_factory=pin_factory)
            self._devices.append(device)
            return device

        def output(kind: Any, pin: int) -> Any:
            device = kind(pin, pin_factory=pin_factory)
            self._devices.append(device)
            return device

        try:
            self._confirm = button(settings.confirm)
            self._back = button(settings.back, settings.hold_seconds)
            self._next = button(settings.next)
            self.leds = {
                "waiting": output(LED, settings.led_waiting),
                "event": output(LED, settings.led_event),
                "error": output(LED, settings.led_error),
            }
            self.buzzer = output(Buzzer, settings.buzzer)
        except Exception as err:  # gpiozero raises its own errors: no pin factory, pin in use, not a Pi…
            self.close()
            raise ControlsUnavailable(f"GPIO buttons and LEDs are not available: {err}") from err

        self._buttons = {
            "confirm": _SettledButton(self._confirm, bounce, lambda down: self._fire_on_press("confirm", down)),
            "next": _SettledButton(self._next, bounce, lambda down: self._fire_on_press("next", down)),
            "back": _SettledButton(self._back, bounce, self._back_changed),
        }
        self._back.when_held = self._back_held

    def _fire_on_press(self, button: Button, down: bool) -> None:
        if down:
            self._handlers.fire(button)

    def _back_changed(self, down: bool) -> None:
        if not down and not self._buttons["back"].held:
            self._handlers.fire("back")

    def _back_held(self) -> None:
        back = self._buttons["back"]
        if back.pressed and not back.held:
            back.held = True
            self._handlers.fire("undo")

    # -- the Controls protocol --
    def on_press(self, button: Button, handler: Handler) -> None:
        self._handlers.add(button, handler)

    def show_status(self, status: Status) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status '{status}' (known: {', '.join(STATUSES)})")
        self._status = status
        waiting, event, error = self.leds["waiting"], self.leds["event"], self.leds["error"]
        # One meaning at a time; an event blinks so it is seen from across the table.
        for led, meaning in ((error, "error"), (waiting, "waiting")):
            if status == meaning:
                led.on()
            else:
                led.off()
        if status == "event":
            event.blink(on_time=0.25, off_time=0.25, background=True)
        else:
            event.off()

    @property
    def status(self) -> Status:
        return self._status

    def buzz(self) -> None:
        self.buzzer.blink(on_time=BEEP_SECONDS, off_time=BEEP_SECONDS, n=2, background=True)

    def close(self) -> None:
        for settled in getattr(self, "_buttons", {}).values():
            settled.cancel()
        for device in self._devices:
            try:
                device.close()
            except Exception:  # noqa: BLE001 - closing is best effort; the pins are released on exit anyway
                pass
        self._devices.clear()


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by the names its documentation uses."""
    factories = {
        "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
        "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
        "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
        "native": ("gpiozero.pins.native", "NativeFactory"),
        "mock": ("gpiozero.pins.mock", "MockFactory"),
    }
    if name not in factories:
        raise ValueError(f"unknown pin factory '{name}' (known: {', '.join(factories)})")
    from importlib import import_module

    module, cls = factories[name]
    return getattr(import_module(module), cls)()


class SimulatedControls:
    """Buttons and LEDs without a header: `press(button)` is a press, LED state is readable."""

    def __init__(self) -> None:
        self._handlers = _Handlers()
        self.status: Status = "idle"
        self.buzzes = 0
        self.presses: list[Button] = []

    def on_press(self, button: Button, handler: Handler) -> None:
        self._handlers.add(button, handler)

    def show_status(self, status: Status) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status '{status}' (known: {', '.join(STATUSES)})")
        self.status = status

    def buzz(self) -> None:
        self.buzzes += 1

    def press(self, button: Button) -> None:
        if button not in BUTTONS:
            raise ValueError(f"unknown button '{button}' (known: {', '.join(BUTTONS)})")
        self.presses.append(button)
        self._handlers.fire(button)

    def close(self) -> None:
        pass
