"""What a game starts from: players in turn order, colours, rule options, the solo train, the components."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tableassist.engine import components as comp

TIE_RULES = ("last_in_turn_order", "shared")


@dataclass(frozen=True)
class Options:
    """Rule options recorded with the game.

    tie_rule: "last_in_turn_order" (English online rules) or "shared" (German print, Spanish).
    fog_blocks: None = fog blocks every space of Excavation (B) and Lay Track (D), as the rules say;
    k = fog blocks only spaces 1..k of each (the "thin fog" house rule; 0 = fog blocks nothing).
    contracts_per_window: None = each player plays any number of cards before an area ("one or more": English,
    German online); k = at most k per player and area (German print edition: "genau eine", k = 1).
    """

    tie_rule: str = "last_in_turn_order"
    fog_blocks: int | None = None
    contracts_per_window: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"tie_rule": self.tie_rule, "fog_blocks": self.fog_blocks,
                "contracts_per_window": self.contracts_per_window}


@dataclass(frozen=True)
class Setup:
    """Players in turn order (the first is the start player), colours, options, the solo train (1–7)."""

    players: list[str]
    colours: list[str] | None = None
    options: Options = field(default_factory=Options)
    solo_train: int | None = None
    components: comp.Components | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        problem = self.problem()
        if problem:
            raise ValueError(problem)

    def problem(self) -> str | None:
        n = len(self.players)
        if not 1 <= n <= 5:
            return f"Snowdonia is for 1 to 5 players, not {n}."
        if len(set(self.players)) != n:
            return "Every player needs a different name."
        if self.colours is not None:
            if len(self.colours) != n or len(set(self.colours)) != n:
                return "Every player needs a different colour."
            palette = self.comps.raw["players"]["colours"]
            for colour in self.colours:
                if colour not in palette:
                    return f"{colour} is not a player colour ({', '.join(palette)})."
        if self.options.tie_rule not in TIE_RULES:
            return f"The tie rule must be one of {', '.join(TIE_RULES)}."
        if self.options.fog_blocks is not None and self.options.fog_blocks < 0:
            return "Fog cannot block a negative number of spaces."
        if self.options.contracts_per_window is not None and self.options.contracts_per_window < 1:
            return "At least one contract per area must be playable."
        if n == 1:
            if self.solo_train not in self.comps.trains:
                return "A solo game needs its train: a number from 1 to 7."
        elif self.solo_train is not None:
            return "Only a solo game starts with a train."
        return None

    @property
    def comps(self) -> comp.Components:
        return self.components if self.components is not None else comp.default()

    @property
    def player_colours(self) -> list[str]:
        if self.colours is not None:
            return list(self.colours)
        palette: list[str] = self.comps.raw["players"]["colours"]
        return palette[: len(self.players)]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "colours": self.player_colours,
            "options": self.options.to_json(),
            "solo_train": self.solo_train,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any], components: comp.Components | None = None) -> Setup:
        options = obj.get("options") or {}
        return cls(
            players=list(obj["players"]),
            colours=list(obj["colours"]) if obj.get("colours") else None,
            options=Options(tie_rule=options.get("tie_rule", "last_in_turn_order"),
                            fog_blocks=options.get("fog_blocks"),
                            contracts_per_window=options.get("contracts_per_window")),
            solo_train=obj.get("solo_train"),
            components=components,
        )
