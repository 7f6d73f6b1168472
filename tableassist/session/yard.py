"""The stock yard as the camera sees it, checked against the engine after every change.

A difference is never silently overwritten: it is described ("2 iron missing from the stock yard") and,
where the table is in the middle of a Stock Yard action or a physical-bag restock, turned into a proposal
that a person confirms or corrects.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from typing import Any

from tableassist.ports import YardReading
from tableassist.session import rules
from tableassist.session.labels import cube_name, describe_cubes

GOODS = ("iron", "stone", "coal")
# The reader says `unsure` when it will not guess; below this confidence its count is a guess anyway:
# show that, propose nothing.
MIN_CONFIDENCE = 0.1


@dataclass(frozen=True)
class YardCheck:
    engine: dict[str, int]
    camera: dict[str, int]
    unsure: str | None

    @property
    def differences(self) -> dict[str, int]:
        """camera - engine per kind of goods, only where they differ (event cubes never lie in the yard)."""
        if self.unsure:
            return {}
        return {cube: self.camera.get(cube, 0) - self.engine.get(cube, 0) for cube in GOODS
                if self.camera.get(cube, 0) != self.engine.get(cube, 0)}

    def describe(self, tr: gettext.NullTranslations) -> str | None:
        sentences = []
        for cube, diff in self.differences.items():
            if diff < 0:
                sentences.append(tr.gettext("{cubes} missing from the stock yard.").format(
                    cubes=f"{-diff} {cube_name(cube, -diff, tr)}"))
            else:
                sentences.append(tr.gettext("{cubes} too many on the stock yard.").format(
                    cubes=f"{diff} {cube_name(cube, diff, tr)}"))
        return " ".join(sentences) or None

    def to_json(self, tr: gettext.NullTranslations, message: str | None) -> dict[str, Any]:
        return {"engine": dict(self.engine), "camera": dict(self.camera), "differences": self.differences,
                "message": message, "unsure": self.unsure}


def unsure_reason(reading: YardReading, tr: gettext.NullTranslations) -> str | None:
    if reading.unsure:
        return tr.gettext("The camera cannot read the stock yard: {reason}").format(reason=reading.unsure)
    if reading.confidence < MIN_CONFIDENCE:
        return tr.gettext("The camera is not sure of the stock yard ({percent}% sure).").format(
            percent=round(reading.confidence * 100))
    return None


def compare_yard(engine: dict[str, int], reading: YardReading, tr: gettext.NullTranslations) -> YardCheck:
    return YardCheck(engine=dict(engine), camera=reading.counts(), unsure=unsure_reason(reading, tr))


def propose_take(game: Any, reading: YardReading, tr: gettext.NullTranslations) -> dict[str, Any] | None:
    """During a Stock Yard action: what the player took is what is gone from the yard."""
    player = rules.stock_yard_taker(game)
    if player is None:
        return None
    engine = rules.stock_yard(game)
    taken = {cube: engine.get(cube, 0) - getattr(reading, cube) for cube in GOODS}
    if any(n < 0 for n in taken.values()) or not any(taken.values()):
        return None  # cubes appeared or nothing moved yet: nothing to propose, the mismatch shows
    action = rules.take_action(game, player, taken)
    if action is None or rules.why_not(game, action) is not None:
        return None
    text = tr.gettext("{player} takes {cubes} from the stock yard.").format(
        player=rules.player_name(game, player), cubes=describe_cubes(taken, tr))
    return {"action": action, "text": text, "source": "camera"}


def propose_bag_draw(game: Any, reading: YardReading, tr: gettext.NullTranslations) -> dict[str, Any] | None:
    """Physical bag: the goods that arrived are on camera; the rest of the restock count were event cubes."""
    engine = rules.stock_yard(game)
    arrived = {cube: getattr(reading, cube) - engine.get(cube, 0) for cube in GOODS}
    if any(n < 0 for n in arrived.values()):
        return None
    drawn = rules.bag_draw_size(game)
    events = drawn - sum(arrived.values())
    if events < 0:
        return None
    counts = {**arrived, "event": events}
    action = rules.bag_draw_action(game, counts)
    if action is None:
        return None
    if rules.why_not(game, action) is not None:
        return None  # not a draw the bag allows (nothing arrived yet, or a misread): the difference shows
    text = tr.gettext("Drawn from the bag: {cubes}. Confirm before the events resolve.").format(
        cubes=describe_cubes(counts, tr))
    return {"action": action, "text": text, "source": "camera"}
