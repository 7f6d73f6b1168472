"""`Game`: a setup plus the actions applied so far; the state is their fold. Undo replays."""

from __future__ import annotations

from typing import Any

from tableassist.engine import rules, scoring
from tableassist.engine.core import Ctx
from tableassist.engine.decision import Action, Decision, IllegalAction
from tableassist.engine.holdings import table_score
from tableassist.engine.setup import Setup
from tableassist.engine.state import GameState

PAY_KEYS = ("stone", "steel", "iron", "rubble")
# Cube counts a caller may leave out (meaning none of that kind).
COUNT_KEYS = {"stock_yard": ("iron", "stone", "coal"), "take_cubes": ("iron", "stone", "coal"),
              "works": ("steel", "stone")}


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def normalize(action: Action) -> Action:
    """Fill what a caller may leave out: missing payment kinds and cube counts are 0, a surveyor placement needs
    no space."""
    if not isinstance(action, dict):
        return action
    out = _copy(action)
    counts = COUNT_KEYS.get(out.get("type"))
    if counts:
        out.update({k: 0 for k in counts if k not in out})
    pay = out.get("pay")
    if isinstance(pay, dict):
        out["pay"] = {k: pay.get(k, 0) for k in PAY_KEYS} | {k: v for k, v in pay.items() if k not in PAY_KEYS}
    return out


class Game:
    """One game of Snowdonia. Build with `Game.new(setup)` or `Game.replay(setup, actions)`."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._start()

    def _start(self) -> None:
        self._ctx = Ctx(self.setup)
        self._actions: list[Action] = []
        self._events: list[dict[str, Any]] = []
        self._flow = rules.play(self._ctx)
        self._waiting: Decision | None = next(self._flow)
        self._events.extend(self._ctx.events)

    @classmethod
    def new(cls, setup: Setup) -> Game:
        return cls(setup)

    @classmethod
    def replay(cls, setup: Setup, actions: list[Action]) -> Game:
        """Rebuild a game from its actions; IllegalAction names the first action that does not fit."""
        game = cls(setup)
        for i, action in enumerate(actions):
            try:
                game.apply(action)
            except IllegalAction as err:
                raise IllegalAction(f"Action {i + 1} ({action.get('type') if isinstance(action, dict) else action}):"
                                    f" {err.reason}") from None
        return game

    # --- reading ---
    @property
    def state(self) -> GameState:
        return self._ctx.state

    @property
    def waiting(self) -> Decision | None:
        return self._waiting

    @property
    def finished(self) -> bool:
        return self._waiting is None

    @property
    def actions(self) -> list[Action]:
        return [_copy(a) for a in self._actions]

    @property
    def events(self) -> list[dict[str, Any]]:
        return list(self._events)

    @property
    def placeholders(self) -> tuple[str, ...]:
        return self.setup.comps.placeholders

    def legal_actions(self) -> list[Action]:
        if self._waiting is None:
            return []
        return list(self._waiting.legal())

    def _normalize(self, action: Action) -> Action:
        out = normalize(action)
        if isinstance(out, dict) and out.get("type") == "place" and out.get("area") == "G" and "space" not in out:
            out["space"] = len(self.state.placed["G"]) + 1  # the surveyor area has no numbered spaces to pick
        return out

    def why_not(self, action: Action) -> str | None:
        if self._waiting is None:
            return "The game is over."
        names = [p.name for p in self.state.players]
        return self._waiting.why_not(self._normalize(action), names)

    def estimate(self) -> scoring.TableScore:
        """Per player: the score if the game ended now."""
        return table_score(self._ctx)

    def final_scores(self) -> scoring.TableScore:
        if not self.finished:
            raise ValueError("The game is not over yet.")
        return table_score(self._ctx)

    # --- changing ---
    def apply(self, action: Action) -> list[dict[str, Any]]:
        """Apply one action; returns its events. Raises IllegalAction (and changes nothing) when illegal."""
        if self._waiting is None:
            raise IllegalAction("The game is over.")
        action = self._normalize(action)  # also a private copy: the caller may reuse its dict
        reason = self._waiting.why_not(action, [p.name for p in self.state.players])
        if reason is not None:
            raise IllegalAction(reason)
        self._actions.append(action)
        ctx = self._ctx
        ctx.events = []
        try:
            self._waiting = self._flow.send(action)
        except StopIteration:
            self._waiting = None
        except Exception:  # a bug in the rules: restore the earlier state before reporting it
            self._rebuild(self._actions[:-1])
            raise
        events = ctx.events
        self._events.extend(events)
        return events

    def undo(self) -> Action:
        """Drop the last action and replay the rest; returns the dropped action."""
        if not self._actions:
            raise IllegalAction("There is nothing to undo.")
        last = self._actions[-1]
        self._rebuild(self._actions[:-1])
        return last

    def _rebuild(self, actions: list[Action]) -> None:
        self._start()
        for action in actions:
            self.apply(action)
