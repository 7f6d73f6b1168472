"""The context every rule works on: setup, components, mutable state and the events of the current action.

Rules are generator functions `(ctx, ...) -> Flow`: they yield a `Decision`, receive the chosen action,
mutate `ctx.state` and `ctx.emit(...)` events. Reaching an end of game raises `GameEnds`, which unwinds
to the top-level flow.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

from tableassist.engine import components as comp
from tableassist.engine.decision import Action, Decision
from tableassist.engine.setup import Setup
from tableassist.engine.state import GameState

T = TypeVar("T")
Flow = Generator[Decision, Action, T]


def const(options: list[Action]) -> Callable[[], list[Action]]:
    """A fixed list of legal actions, bound now (not to a loop variable)."""
    return lambda: options


class GameEnds(Exception):
    """Raised inside the flow when the game ends at once (2 players / solo: no markers left)."""


class Ctx:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.comps: comp.Components = setup.comps
        self.n = len(setup.players)
        self.solo = self.n == 1
        self.state = GameState(players=[])
        self.events: list[dict[str, Any]] = []
        # Rubble spaces in the strict order 'up the mountain': (space, station index or -1, site index or card).
        self.dig_order: list[tuple[Any, int, int]] = []

    def emit(self, event_type: str, /, **fields: Any) -> None:
        self.events.append({"type": event_type, **fields})

    def name(self, player: int) -> str:
        return self.state.players[player].name

    def turn_order(self) -> list[int]:
        start = self.state.start_player
        return [(start + i) % self.n for i in range(self.n)]

    def decide(
        self,
        kind: str,
        /,
        player: int | None,
        prompt: str,
        types: tuple[str, ...],
        legal: Callable[[], list[Action]] | None = None,
        why: Callable[[Action], str | None] | None = None,
        area: str | None = None,
        space: int | None = None,
        complete: bool = False,
        **info: Any,
    ) -> Decision:
        return Decision(kind=kind, player=player, prompt=prompt, area=area, space=space, info=info, types=types,
                        legal_fn=legal, why_fn=why, why_complete=complete)
