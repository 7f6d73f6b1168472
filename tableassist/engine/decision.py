"""What the game waits for next, and the refusal of an illegal action."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules do not allow now. `reason` is a sentence a player understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class Decision:
    """One decision: whose (None = a chance outcome or table observation), of which kind, and the choices.

    `area`/`space` name the acting labourer where there is one; `info` carries kind-specific detail
    (e.g. {"count": 12, "purpose": "restock"} for a bag draw).
    """

    kind: str
    player: int | None
    prompt: str
    area: str | None = None
    space: int | None = None
    info: dict[str, Any] = field(default_factory=dict)
    types: tuple[str, ...] = ()
    legal_fn: Callable[[], list[Action]] | None = field(default=None, repr=False, compare=False)
    why_fn: Callable[[Action], str | None] | None = field(default=None, repr=False, compare=False)
    why_complete: bool = field(default=False, repr=False, compare=False)  # why_fn alone decides legality
    _legal: list[Action] | None = field(default=None, repr=False, compare=False)

    def legal(self) -> list[Action]:
        if self._legal is None:
            self._legal = self.legal_fn() if self.legal_fn is not None else []
        return self._legal

    def refresh(self) -> None:
        """Forget the cached legal actions (after the state was changed from outside, e.g. by a test)."""
        self._legal = None

    def why_not(self, action: Action, names: list[str]) -> str | None:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return "An action needs a type."
        kind = action["type"]
        if kind not in self.types:
            return f"Now is not the time for '{kind}': {self.prompt}"
        if self.player is None:
            if "player" in action and action["player"] is not None:
                return "This is a chance outcome, not a player's decision."
        else:
            who = action.get("player")
            if who != self.player:
                return f"It is {names[self.player]}'s turn now: {self.prompt}"
        if self.why_fn is not None:
            try:
                reason = self.why_fn(action)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError):
                return f"That action is malformed: {self.prompt}"
            if reason is not None:
                return reason
            if self.why_complete or self.legal_fn is None:
                return None
        if action not in self.legal():
            return f"That is not one of the choices: {self.prompt}"
        return None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "prompt": self.prompt, "area": self.area,
                "space": self.space, "info": dict(self.info)}
