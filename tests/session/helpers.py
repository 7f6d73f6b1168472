"""A table on simulated devices: the real session, journal, recording voice, simulated reader/buttons/camera."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.controls import SimulatedControls
from hardware.rfid import SimulatedCardReader
from hardware.voice import RecordingVoice
from tableassist.cards import CardRegistry
from tableassist.compose import CountingCamera, SimulatedTable
from tableassist.session import Devices, Journal, TableSession, rules

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve"]
COLOURS = ["green", "blue", "yellow", "pink", "purple"]


@dataclass
class Table:
    session: TableSession
    journal: Journal
    voice: RecordingVoice
    controls: SimulatedControls
    reader: SimulatedCardReader
    camera: CountingCamera
    yard: SimulatedTable
    cards: CardRegistry
    db: Path

    def said(self) -> list[str]:
        self.voice.flush(timeout=5)
        return self.voice.texts

    def shown(self) -> list[str]:
        return [a["text"] for a in self.session.view()["announcements"]]


def make_table(tmp_path: Path, players: int = 3, *, bag_mode: str = "digital", seed: int = 1,
               language: str = "en", follow: bool = True, new: bool = True) -> Table:
    db = tmp_path / "table.sqlite3"
    journal = Journal(db)
    voice = RecordingVoice(None, language=language)
    controls = SimulatedControls()
    reader = SimulatedCardReader()
    yard = SimulatedTable()
    camera = CountingCamera(yard)
    cards = CardRegistry.open(db)
    session = TableSession(journal, Devices(voice=voice, reader=reader, controls=controls, camera=camera,
                                            cards=cards), language=language)  # type: ignore[arg-type]
    session.start_reader()
    if new:
        session.new_game(NAMES[:players], COLOURS[:players], bag_mode, seed=seed,  # type: ignore[arg-type]
                         solo_train=1 if players == 1 else None)
    if follow:
        yard.follow(session)
    return Table(session, journal, voice, controls, reader, camera, yard, cards, db)


def seeded_choice(game: Any, seed: int) -> dict[str, Any]:
    """A simulated player's legal choice, a function of the seed and the action index only."""
    legal = rules.legal(game)
    assert legal, f"no legal action for {game.waiting}"
    return random.Random(seed * 7919 + len(game.actions)).choice(legal)


def play_until(session: TableSession, done: Callable[[Any], bool], seed: int = 3, limit: int = 3000) -> None:
    """Players act (and, in the physical bag mode, the assistant's digital source stands in for the bag)
    until `done(game)` holds."""
    for _ in range(limit):
        game = session.game
        if done(game):
            return
        assert not game.finished, "the game ended before the situation was reached"
        if game.waiting.player is None:
            outcome = session.draw()
        else:
            outcome = session.act(seeded_choice(game, seed))
        assert outcome.ok, outcome.message
    raise AssertionError("situation not reached")


def waiting_kind(kind: str) -> Callable[[Any], bool]:
    return lambda game: game.waiting is not None and game.waiting.kind == kind


def journal_actions(table: Table) -> list[dict[str, Any]]:
    game_id = table.session.game_id
    assert game_id is not None
    return table.journal.load(game_id).actions
