"""Reach a situation quickly: a table with a fixed route, site office and engine shed, scripted chance
outcomes, default choices for everything the test does not care about, and supply-neutral gifts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tableassist.engine import Decision, Game, Options, Setup
from tableassist.engine.invariants import violations
from tableassist.engine.state import BAG_KINDS

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed"]
Action = dict[str, Any]


class Table:
    """A game driven by the test. Chance outcomes come from `self.chance` (a queue) when it has any,
    else from a deterministic default (draws take iron, then stone, then coal, events last; reveals take the
    lowest-numbered card that fits)."""

    def __init__(self, players: int = 3, *, route: list[int] | None = None, office: tuple[int, int, int] = (1, 2, 3),
                 shed: list[int] | None = None, aside: int = 7, solo_train: int = 1,
                 options: Options | None = None, yard: dict[str, int] | None = None) -> None:
        setup = Setup(players=NAMES[:players], options=options or Options(),
                      solo_train=solo_train if players == 1 else None)
        self.game = Game.new(setup)
        self.chance: list[Action] = []
        count = self.game.waiting.info["count"] if self.game.waiting else 0
        self.apply({"type": "route", "tracks": route or list(range(1, count + 1))})
        for card in office:
            self.apply({"type": "reveal_contract", "contract": card})
        if players > 1:
            trains = shed or [t for t in range(1, 8) if t != aside]
            self.apply({"type": "engine_shed", "trains": trains, "set_aside": aside})
        else:
            self.apply({"type": "stock_yard_setup", **(yard or {"iron": 3, "stone": 2, "coal": 1})})

    @property
    def state(self) -> Any:
        return self.game.state

    @property
    def waiting(self) -> Decision:
        d = self.game.waiting
        assert d is not None, "the game is over"
        return d

    def apply(self, action: Action) -> list[dict[str, Any]]:
        events = self.game.apply(action)
        problems = violations(self.game)
        assert not problems, problems
        return events

    def act(self, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """The current player's action of this type."""
        return self.apply({"type": kind, "player": self.waiting.player, **fields})

    def default_chance(self) -> Action:
        d = self.waiting
        s = self.state
        comps = self.game.setup.comps
        if d.kind == "draw":
            left, out = d.info["count"], {"type": "draw"}
            for kind in BAG_KINDS:
                out[kind] = min(left, s.bag[kind])
                left -= out[kind]
            return out
        if d.kind == "reveal_contract":
            return {"type": "reveal_contract", "contract": self.game.legal_actions()[0]["contract"]}
        if d.kind == "contract_back":
            return {"type": "contract_back", "weather": comps.contracts[min(s.deck)].back}
        raise AssertionError(f"no default for {d.kind}")

    def default_choice(self) -> Action:
        d = self.waiting
        if d.kind == "contracts":
            return {"type": "pass", "player": d.player}
        if d.kind == "place":
            raise AssertionError(f"placement not scripted: {d.prompt}")
        legal = self.game.legal_actions()
        declines = [a for a in legal if a["type"] == "decline"]
        return declines[0] if declines else legal[0]

    def step(self) -> list[dict[str, Any]]:
        d = self.waiting
        if d.player is None:
            return self.apply(self.chance.pop(0) if self.chance else self.default_chance())
        return self.apply(self.default_choice())

    def run(self, until: Callable[[Decision], bool], limit: int = 5000) -> list[dict[str, Any]]:
        """Default steps until the decision matches (or the game ends); returns all events on the way."""
        events: list[dict[str, Any]] = []
        for _ in range(limit):
            if self.game.finished or until(self.waiting):
                return events
            events += self.step()
        raise AssertionError("run() did not reach the decision")

    def run_to(self, kind: str, player: int | None = None, area: str | None = None) -> list[dict[str, Any]]:
        return self.run(lambda d: d.kind == kind and (player is None or d.player == player)
                        and (area is None or d.area == area))

    def place(self, *spots: tuple[str, int]) -> list[dict[str, Any]]:
        """Place labourers on these spaces, in the order the placement decisions come."""
        events: list[dict[str, Any]] = []
        for area, space in spots:
            assert self.waiting.kind == "place", self.waiting
            events += self.act("place", area=area, space=space)
        return events

    def finish_round(self) -> list[dict[str, Any]]:
        """Default steps until the next round's placement (or the game's end)."""
        r = self.state.round
        return self.run(lambda d: d.kind == "place" and self.state.round > r)

    def give(self, player: int, **kinds: int) -> None:
        """Move pieces to a player from where they would come (box/bag, supply), keeping every count whole."""
        s = self.state
        p = s.players[player]
        for kind, n in kinds.items():
            if kind == "steel":
                s.steel_supply -= n
            elif kind == "rubble":
                s.rubble_supply -= n
            else:
                from_box = min(n, s.box[kind])
                s.box[kind] -= from_box
                s.bag[kind] -= n - from_box
            setattr(p, kind, getattr(p, kind) + n)
        assert not violations(self.game), violations(self.game)
        self.refresh()

    def refresh(self) -> None:
        if self.game.waiting is not None:
            self.game.waiting.refresh()

    def hand(self, player: int, *cards: int) -> None:
        """Put these contracts in a player's hand (from the deck, discards or site office)."""
        s = self.state
        for card in cards:
            if card in s.deck:
                s.deck.discard(card)
            elif card in s.discards:
                s.discards.remove(card)
            else:
                s.site_office[s.site_office.index(card)] = None
            s.players[player].hand.append(card)
        self.refresh()

    def give_train(self, player: int, train: int) -> None:
        s = self.state
        coal = s.engine_shed.pop(train)
        s.players[player].train = train
        s.players[player].coal += coal
        self.refresh()

    def of(self, events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
        return [e for e in events if e["type"] == kind]


def pay(stone: int = 0, steel: int = 0, iron: int = 0, rubble: int = 0) -> dict[str, int]:
    return {"stone": stone, "steel": steel, "iron": iron, "rubble": rubble}
