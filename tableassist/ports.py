"""The devices as the table session sees them.

The session talks to these Protocols only; `hardware/` implements each with a real backend and a
simulated one, and the composition root (`tableassist.compose`) picks which. Like gpiozero's pin
factories: the same session code runs on a Pi and on a build machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

Button = Literal["confirm", "back", "undo", "next"]
Status = Literal["idle", "waiting", "event", "error"]
Language = Literal["en", "de", "es"]


class Voice(Protocol):
    """Speech that never blocks the caller; urgent lines (events, weather) go before chatter."""

    def say(self, text: str, *, urgent: bool = False) -> None: ...
    def set_language(self, language: Language) -> None: ...
    def set_volume(self, volume: float) -> None: ...  # 0.0 – 1.0
    def set_muted(self, muted: bool) -> None: ...
    def close(self) -> None: ...


class CardReader(Protocol):
    """An RFID reader in its own thread: one call of `on_tap` per tap, tag as 10 upper-case hex digits."""

    def start(self, on_tap: Callable[[str], None],
              on_status: Callable[[str], None] | None = None) -> None: ...
    def stop(self) -> None: ...


class Controls(Protocol):
    """Buttons (Confirm, Back — held: Undo — and Next), status LEDs and the buzzer."""

    def on_press(self, button: Button, handler: Callable[[], None]) -> None: ...
    def show_status(self, status: Status) -> None: ...
    def buzz(self) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class YardReading:
    """What the camera sees on the stock yard. `unsure` holds the reason when it will not guess."""

    iron: int = 0
    stone: int = 0
    coal: int = 0
    event: int = 0
    confidence: float = 1.0
    unsure: str | None = None

    def counts(self) -> dict[str, int]:
        return {"iron": self.iron, "stone": self.stone, "coal": self.coal, "event": self.event}


class StockYardCamera(Protocol):
    """The camera and the stock-yard reader together: a stable reading of what lies there now."""

    def read_yard(self) -> YardReading: ...
    def close(self) -> None: ...
