"""The Snowdonia rules engine: actions in, events out (DESIGN.md). Pure Python, no hardware.

A game is a `Setup` plus an ordered list of JSON actions; the state is their fold (see API.md here).

    game = Game.new(Setup(players=["Ann", "Bob"]))
    game.waiting            # Decision(kind, player, prompt, ...): player None = chance outcome awaited
    game.legal_actions()    # every legal action for that decision
    game.apply(action)      # -> list of event dicts; IllegalAction(reason) leaves the game unchanged
    game.why_not(action)    # the reason an action is illegal now, or None
    game.undo()             # drop the last action and replay
    game.state.to_json()    # everything the UI draws
    game.estimate(), game.final_scores()   # scoring.TableScore
    DigitalSource(seed).chance(game)       # a random chance outcome from the exact hidden state
"""

from tableassist.engine.chance import DigitalSource
from tableassist.engine.decision import Action, Decision, IllegalAction
from tableassist.engine.game import Game
from tableassist.engine.setup import Options, Setup

__all__ = ["Action", "Decision", "DigitalSource", "Game", "IllegalAction", "Options", "Setup"]
