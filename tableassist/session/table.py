"""The TableSession: one game at the table, through the engine, the devices and the journal.

Everything that changes the game goes through `_apply`, which lets the engine validate the action,
commits the journal row, and only then announces and notifies: an action is never acknowledged before it
is on disk. One re-entrant lock serialises the UI thread and the device threads; the work done under it
is an engine step plus one SQLite commit (milliseconds), so no caller waits long.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from tableassist.errors import UserError
from tableassist.i18n import translator
from tableassist.ports import Button, Language, YardReading
from tableassist.session import owner, rules
from tableassist.session.announcer import Announcer, Line
from tableassist.session.devices import Devices
from tableassist.session.forecast import event_risk
from tableassist.session.journal import Journal
from tableassist.session.labels import explain
from tableassist.session.yard import YardCheck, compare_yard, propose_bag_draw, propose_take

BagMode = Literal["digital", "physical"]
Subscriber = Callable[[dict[str, Any]], None]

# Undo goes back over the assistant's own chance draws to the last step a person took: otherwise the
# same seeded draw would be taken again at once and undo would seem to do nothing.
AUTOMATIC_SOURCES = frozenset({"digital"})
# Events after which the stock yard holds something else (the next camera reading is compared afresh).
# Decisions with one possible outcome that still change the board: the table confirms what will happen.
FORCED = frozenset({"excavate", "lay_track", "survey"})
YARD_EVENTS = frozenset({"cubes_taken", "stock_yard_restocked", "cubes_drawn", "setup_done"})
RECENT_TAPS = 10  # card taps kept for the diagnostics screen


@dataclass(frozen=True)
class Outcome:
    ok: bool
    message: str
    events: list[dict[str, Any]] = field(default_factory=list)


class TableSession:
    def __init__(self, journal: Journal, devices: Devices | None = None, components: Any = None,
                 language: Language = "en", *, auto_draw: bool = True, override_path: Path | None = None) -> None:
        self.journal = journal
        self.override_path = override_path  # where the owner's corrections are remembered (None: this run only)
        self.devices = devices or Devices()
        self.components = components if components is not None else rules.default_components()
        self.language: Language = language
        self.auto_draw = auto_draw
        self._tr = translator(language)
        self._announcer = Announcer(language)
        self._lock = threading.RLock()
        self._subscribers: list[Subscriber] = []
        self._listeners: list[Callable[[Line], None]] = []
        self._game: Any = None
        self._game_id: int | None = None
        self._bag_mode: BagMode = "digital"
        self._seed = 0
        self._sources: list[str] = []
        self._redo: list[tuple[dict[str, Any], str]] = []
        self._announcements: deque[tuple[int, Line]] = deque(maxlen=20)
        self._taps: deque[dict[str, Any]] = deque(maxlen=RECENT_TAPS)  # RFID taps and what became of them
        self._said = 0  # running number of announcements, so a reader of view() can tell new from old
        self._device_status: dict[str, str] = {}
        self._stopping = threading.Event()
        self._camera_thread: threading.Thread | None = None
        self._rejected: dict[str, Any] | None = None  # a proposal the table turned down: not offered again
        self._pending: dict[str, Any] | None = None
        self._setup_taps: list[int] = []  # track cards / trains tapped so far at setup
        self._last_turn: tuple[int, str, int] | None = None
        self._preview_cache: tuple[Any, dict[str, Any] | None] | None = None
        self._error: str | None = None
        self._yard: YardCheck | None = None
        self._spoken_mismatch: str | None = None
        self._wire_devices()

    # ---- games ---------------------------------------------------------------------------------

    def new_game(self, players: list[str], colours: list[str], bag_mode: BagMode = "digital",
                 options: dict[str, Any] | None = None, seed: int | None = None,
                 solo_train: int | None = None) -> int:
        """Start and journal a new game; UserError with a plain sentence when the setup is not possible."""
        if bag_mode not in ("digital", "physical"):
            raise UserError(self._("The bag mode must be digital or physical."))
        registry_vps = owner.track_vps_from_registry(self.devices.cards)
        if registry_vps and any(t.vp != registry_vps.get(t.id, t.vp) for t in self.components.track_cards):
            self.set_track_vps(registry_vps)  # the owner's own cards, tapped in at enrolment, win
        setup = rules.make_setup(players, colours, options or {}, solo_train, self.components)
        game = rules.new_game(setup)
        if seed is None:
            seed = int.from_bytes(__import__("os").urandom(4), "big")
        with self._lock:
            game_id = self.journal.create_game(rules.setup_to_json(setup), bag_mode, seed, self.language,
                                               components=self.components.raw)
            self._load(game_id, game, bag_mode, seed, [])
            self._announce([Line(self._("New game: {players}.").format(players=", ".join(players)), False)])
            self._advance()
        self._notify()
        return game_id

    def resume(self, game: int | str = "latest") -> int:
        """Rebuild a journalled game by replaying its actions (after a restart or a power cut)."""
        with self._lock:
            game_id = self.journal.resolve(game)
            record = self.journal.load(game_id)
            # the components it began with: a correction made since changes new games, not this one
            setup = rules.setup_from_json(record.setup, rules.game_components(record.components, self.components))
            replayed = rules.replay(setup, record.actions)
            sources = self.journal.sources(game_id)[: len(record.actions)]
            self._load(game_id, replayed, record.bag_mode, record.seed, sources)  # type: ignore[arg-type]
            self._announce([Line(self._("Game {game} resumed.").format(game=game_id), False)])
            if replayed.finished and not record.finished:
                self.journal.finish(game_id, rules.result(replayed))
            self._advance()
        self._notify()
        return game_id

    def games(self) -> list[dict[str, Any]]:
        return self.journal.games()

    @property
    def game_id(self) -> int | None:
        return self._game_id

    @property
    def seed(self) -> int:
        """The game's seed (journalled with it): the digital source's draws derive from it and the index."""
        return self._seed

    @property
    def game(self) -> Any:
        """The engine game (read it, never apply to it directly: that would bypass the journal)."""
        return self._game

    def _load(self, game_id: int, game: Any, bag_mode: BagMode, seed: int, sources: list[str]) -> None:
        self._game_id, self._game, self._bag_mode, self._seed = game_id, game, bag_mode, seed
        self._sources = list(sources) + ["table"] * (len(game.actions) - len(sources))
        self._redo.clear()
        self._pending = None
        self._error = None
        self._yard = None
        self._setup_taps = []

    # ---- acting --------------------------------------------------------------------------------

    def act(self, action: dict[str, Any], source: str = "table") -> Outcome:
        """Apply one engine action for the table; refused with a reason, never raised."""
        with self._lock:
            outcome = self._act(action, source)
        self._notify()
        return outcome

    def _act(self, action: dict[str, Any], source: str) -> Outcome:
        if self._game is None:
            return self._refuse(self._("No game is running."))
        outcome = self._apply(action, source)
        if outcome.ok:
            self._redo.clear()
            self._pending = None
            self._advance()
        return outcome

    def why_not(self, action: dict[str, Any]) -> str | None:
        with self._lock:
            if self._game is None:
                return self._("No game is running.")
            reason = rules.why_not(self._game, action)
            return explain(reason, self._game, self._tr) if reason else None

    def draw(self) -> Outcome:
        """Let the assistant supply the awaited chance outcome from its exact model (seed + action index)."""
        with self._lock:
            if self._game is None or self._game.finished:
                return self._refuse(self._("Nothing is waiting for a draw."))
            decision = self._game.waiting
            if decision is None or decision.player is not None:
                return self._refuse(self._("Nothing is waiting for a draw."))
            action = rules.digital_outcome(self._game, self._seed)
            outcome = self._apply(action, "digital")
            if outcome.ok:
                self._redo.clear()
                self._advance()
        self._notify()
        return outcome

    def undo(self) -> Outcome:
        """Drop the last step a person took (and the assistant's draws after it); redo can bring it back."""
        with self._lock:
            if not self.can_undo:
                return self._refuse(self._("There is nothing to undo."))
            assert self._game is not None and self._game_id is not None
            dropped: list[tuple[dict[str, Any], str]] = []
            while self._game.actions:
                source = self._sources[-1]
                dropped.append((dict(self._game.actions[-1]), source))
                self._game.undo()
                self._sources.pop()
                if source not in AUTOMATIC_SOURCES:
                    break
            self.journal.truncate(self._game_id, len(self._game.actions))
            self._redo.extend(dropped)  # stack: the last element is the first to redo
            self._pending = None
            self._error = None
            line = Line(self._("Undone."), False)
            self._announce([line])
            self._last_turn = None
            self._announce_turn()
        self._notify()
        return Outcome(True, line.text, [])

    def redo(self) -> Outcome:
        with self._lock:
            if not self._redo:
                return self._refuse(self._("There is nothing to redo."))
            events: list[dict[str, Any]] = []
            action, source = self._redo.pop()
            outcome = self._apply(action, source)
            if not outcome.ok:
                self._redo.clear()
                return outcome
            events.extend(outcome.events)
            while self._redo and self._redo[-1][1] in AUTOMATIC_SOURCES:
                action, source = self._redo.pop()
                step = self._apply(action, source)
                if not step.ok:
                    self._redo.clear()
                    break
                events.extend(step.events)
            if not self._redo:
                self._advance()
        self._notify()
        return Outcome(True, outcome.message, events)

    @property
    def can_undo(self) -> bool:
        return self._game is not None and any(s not in AUTOMATIC_SOURCES for s in self._sources)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def confirm(self) -> Outcome:
        """Accept the pending proposal (camera, physical bag); without one, take a forced single choice."""
        with self._lock:
            if self._game is None:
                return self._refuse(self._("No game is running."))
            if self._pending is not None:
                action, source = self._pending["action"], self._pending["source"]
                self._pending = None
                outcome = self._apply(action, source)
                if outcome.ok:
                    self._redo.clear()
                    self._advance()
            else:
                legal = rules.legal(self._game)
                if len(legal) != 1 or self._game.waiting is None or self._game.waiting.player is None:
                    return self._refuse(self._("Nothing to confirm: choose on the screen."))
                outcome = self._apply(legal[0], "table")
                if outcome.ok:
                    self._redo.clear()
                    self._advance()
        self._notify()
        return outcome

    def reject(self) -> Outcome:
        with self._lock:
            if self._pending is None:
                return self._refuse(self._("Nothing to reject."))
            self._rejected = self._pending["action"]
            self._pending = None
        self._notify()
        return Outcome(True, self._("Proposal dropped: correct it on the screen."), [])

    # ---- the owner's box -------------------------------------------------------------------------

    def questions(self) -> list[dict[str, Any]]:
        """What the data only guesses and the table should tell (track-card VPs, the event-track layout)."""
        return owner.questions(self.components)

    def set_track_vps(self, vps: dict[int, int]) -> None:
        """Printed VPs of track cards ({card number: vp}); remembered for every later game."""
        self._correct(owner.patch(self.components, track_vps=vps, tr=self._tr))

    def set_event_track(self, spaces: list[str]) -> None:
        """The event printed on each of the 10 spaces of this box's board; entered once, remembered."""
        self._correct(owner.patch(self.components, event_track=spaces, tr=self._tr))

    def _correct(self, changes: dict[str, Any]) -> None:
        from tableassist.engine import components as comp

        with self._lock:
            if self.override_path is not None:
                owner.save(self.override_path, changes)
            raw = dict(self.components.raw)
            for section, values in changes.items():
                raw[section] = {**raw.get(section, {}), **values}
            self.components = comp.build(raw)
        self._notify()

    def set_language(self, language: Language) -> None:
        with self._lock:
            self.language = language
            self._tr = translator(language)
            self._announcer = Announcer(language)
            if self.devices.voice is not None:
                self.devices.voice.set_language(language)
            if self._game_id is not None:
                self.journal.set_language(self._game_id, language)
        self._notify()

    # ---- devices -------------------------------------------------------------------------------

    def on_button(self, button: Button) -> None:
        handlers: dict[str, Callable[[], Outcome]] = {
            "confirm": self.confirm, "back": self.reject, "undo": self.undo, "next": self.draw,
        }
        handler = handlers.get(button)
        if handler is not None:
            handler()

    def on_tag(self, tag: str) -> Outcome:
        """An RFID tap: the card it names becomes the matching legal action, or a plain refusal. Either way
        the tap is kept for `view()["recent_taps"]` (the diagnostics screen) with what became of it."""
        with self._lock:
            card = self.devices.cards.lookup(tag) if self.devices.cards is not None else None
            decided = self._action_for_tag(tag, card)
            outcome = decided if isinstance(decided, Outcome) else self._act(decided, "rfid")
            self._taps.append({
                "tag": tag, "card": card.describe() if card is not None else "unknown",
                "at": datetime.now().astimezone().isoformat(timespec="seconds"),
                "ok": outcome.ok, "result": outcome.message,
            })
        self._notify()
        return outcome

    def _action_for_tag(self, tag: str, card: Any) -> dict[str, Any] | Outcome:
        if card is None:
            return self._refuse(self._("Unknown card {tag}: enrol it with 'tableassist cards enrol'.")
                                .format(tag=tag), speak=True)
        if self._game is None:
            return self._refuse(self._("No game is running."))
        gathered = self._gather_setup_tap(card)
        if gathered is not None:
            return gathered
        action = rules.action_for_card(self._game, card)
        if action is None:
            return self._refuse(self._("That card does not fit what the table is doing now."), speak=True)
        return action

    def _gather_setup_tap(self, card: Any) -> dict[str, Any] | Outcome | None:
        """At setup the table taps the track cards in route order, then the six trains of the engine shed;
        the session gathers the taps and makes them one action when the last card is in."""
        game = self._game
        decision = None if game is None or game.finished else game.waiting
        if decision is None or decision.player is not None:
            return None
        kind, number = rules.card_kind_and_number(card)
        if (decision.kind, kind) not in (("route", "track"), ("engine_shed", "train")) or number is None:
            return None
        needed = rules.setup_tap_count(game)
        if number in self._setup_taps:
            return self._refuse(self._("Card {n} is already tapped.").format(n=number), speak=True)
        self._setup_taps.append(number)
        if len(self._setup_taps) < needed:
            line = Line(self._("Card {n}: {k} of {count}.").format(n=number, k=len(self._setup_taps), count=needed),
                        False, False, "setup_tap")
            self._announce([line])
            return Outcome(True, line.text, [])
        taps, self._setup_taps = self._setup_taps, []
        return rules.setup_action(game, taps)

    def on_yard(self, reading: YardReading) -> None:
        """A stable camera reading: compare it with the engine and turn a difference into a proposal."""
        with self._lock:
            if self._game is None:
                return
            before = (self._yard, self._pending)
            self._yard = compare_yard(rules.stock_yard(self._game), reading, self._tr)
            if self._yard.unsure is None:
                self._propose_from_camera(reading)
            message = self._yard_message()
            if message and message != self._spoken_mismatch:
                self._spoken_mismatch = message
                self._announce([Line(message, True)])
            elif not message:
                self._spoken_mismatch = None
            changed = (self._yard, self._pending) != before
        if changed:  # the camera thread reads every second; the screen redraws only when it matters
            self._notify()

    def check_yard(self) -> None:
        camera = self.devices.camera
        if camera is not None:
            self.on_yard(camera.read_yard())

    def start_camera(self, interval: float = 1.0) -> None:
        """Read the stock yard in a thread of its own every `interval` seconds (the camera's reader waits for
        steady frames itself) and post each reading into the session."""
        if self.devices.camera is None or self._camera_thread is not None:
            return

        def watch() -> None:
            while not self._stopping.wait(interval):
                try:
                    self.check_yard()
                except Exception as err:  # noqa: BLE001 - a camera fault is shown, the table goes on
                    with self._lock:
                        self._device_status["camera"] = str(err)

        self._camera_thread = threading.Thread(target=watch, name="stock-yard camera", daemon=True)
        self._camera_thread.start()

    # ---- view ----------------------------------------------------------------------------------

    def subscribe(self, fn: Subscriber) -> Callable[[], None]:
        with self._lock:
            self._subscribers.append(fn)

        def unsubscribe() -> None:
            with self._lock:
                if fn in self._subscribers:
                    self._subscribers.remove(fn)
        return unsubscribe

    def listen(self, fn: Callable[[Line], None]) -> None:
        """Every line as it is announced (shown or spoken), in order; called under the session lock."""
        with self._lock:
            self._listeners.append(fn)

    def view(self) -> dict[str, Any]:
        with self._lock:
            return self._view()

    def close(self) -> None:
        self._stopping.set()
        if self._camera_thread is not None:
            self._camera_thread.join(timeout=5)
        self.devices.close()

    # ---- internals -----------------------------------------------------------------------------

    def _(self, message: str) -> str:
        return self._tr.gettext(message)

    def _refuse(self, reason: str, *, speak: bool = False) -> Outcome:
        self._error = reason
        if speak:
            self._announce([Line(reason, True)])
        if self.devices.controls is not None:
            self.devices.controls.show_status("error")
            self.devices.controls.buzz()
        return Outcome(False, reason, [])

    def _apply(self, action: dict[str, Any], source: str) -> Outcome:
        """Validate, commit, then acknowledge. Caller holds the lock."""
        game = self._game
        assert game is not None and self._game_id is not None
        if game.finished:
            return self._refuse(self._("The game is over."))
        try:
            events = rules.apply(game, action)
        except rules.Refused as refused:
            return self._refuse(explain(refused.reason, game, self._tr))
        try:
            self.journal.append(self._game_id, len(game.actions) - 1, game.actions[-1], source)
        except sqlite3.Error as err:
            game.undo()  # not on disk, so it did not happen
            return self._refuse(self._("Could not save the action ({error}); nothing changed.").format(error=err))
        self._sources.append(source)
        self._error = None
        self._rejected = None
        if any(e.get("type") in YARD_EVENTS for e in events):
            self._yard = None  # the yard changed: the last camera reading no longer says anything
            self._spoken_mismatch = None
        if game.finished:
            self.journal.finish(self._game_id, rules.result(game))
        lines = self._announcer.lines(events, game)
        self._announce(lines)
        if self.devices.controls is not None:  # LEDs: an event to act on, waiting for the table, or done
            urgent = any(line.urgent for line in lines)
            self.devices.controls.show_status("idle" if game.finished else "event" if urgent else "waiting")
        return Outcome(True, lines[0].text if lines else self._("Done."), events)

    def _advance(self) -> None:
        """After a change: in the digital bag mode supply chance outcomes until a person must act."""
        game = self._game
        if game is None:
            return
        guard = 0
        while not game.finished and self.auto_draw and guard < 500:
            decision = game.waiting
            if decision is None or decision.player is not None:
                break
            if self._bag_mode == "physical":
                break
            action = rules.digital_outcome(game, self._seed)
            if not self._apply(action, "digital").ok:
                break
            guard += 1
        # (the physical bag's draw is proposed when the camera thread next posts a reading: reading the
        # camera here would hold the caller for a dozen frames)
        self._announce_turn()

    def _announce_turn(self) -> None:
        """Say whose decision it is when that changes ("Ben: place a labourer."), quietly, not urgently."""
        game = self._game
        decision = None if game is None or game.finished else game.waiting
        if decision is None or decision.player is None:
            self._last_turn = None
            return
        turn = (decision.player, decision.kind, len(game.actions))
        if self._last_turn is not None and self._last_turn[:2] == turn[:2]:
            return
        self._last_turn = turn
        from tableassist.session.labels import prompt

        self._announce([Line(prompt(game, self._tr), False, True, "turn")])

    def _propose_from_camera(self, reading: YardReading) -> None:
        game = self._game
        if game is None or compare_yard({}, reading, self._tr).unsure:
            return
        if self._bag_mode == "physical" and rules.awaits_bag_draw(game):
            proposal = propose_bag_draw(game, reading, self._tr)
        else:
            proposal = propose_take(game, reading, self._tr)
        if proposal is not None and proposal["action"] != self._rejected:
            self._pending = proposal

    def _yard_message(self) -> str | None:
        if self._yard is None or not self._yard.differences:
            return None
        if self._pending is not None:  # the difference is explained by the proposal awaiting confirmation
            return None
        return self._yard.describe(self._tr)

    def _announce(self, lines: list[Line]) -> None:
        for line in lines:
            self._said += 1
            self._announcements.append((self._said, line))
            for listener in self._listeners:
                listener(line)
            if self.devices.voice is not None and line.spoken:
                self.devices.voice.say(line.text, urgent=line.urgent)

    def _notify(self) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
            snapshot = self._view()
        for fn in subscribers:
            try:
                fn(snapshot)
            except Exception:  # noqa: BLE001 - a broken screen must not stop the table
                pass

    def _wire_devices(self) -> None:
        if self.devices.controls is not None:
            for button in ("confirm", "back", "undo", "next"):
                self.devices.controls.on_press(button, lambda b=button: self.on_button(b))  # type: ignore[misc]
        if self.devices.voice is not None:
            self.devices.voice.set_language(self.language)

    def start_reader(self) -> None:
        """Start listening for RFID taps (the reader runs its own thread and calls on_tag)."""
        if self.devices.reader is not None:
            self.devices.reader.start(self._on_tap, self._on_reader_status)

    def _on_tap(self, tag: str) -> None:
        self.on_tag(tag)

    def _on_reader_status(self, status: str) -> None:
        with self._lock:
            self._device_status["reader"] = status
        self._notify()

    def _pending_json(self) -> dict[str, Any] | None:
        pending = self._pending or self._preview()
        if pending is None:
            return None
        return {"text": pending["text"], "action": pending["action"], "source": pending.get("source", "table")}

    def _preview(self) -> dict[str, Any] | None:
        """For a forced step (excavate, lay track, survey) the text the table confirms before it happens:
        "Ben excavates 4: 2 from track card 3, 2 from track card 4." The engine computes it (apply, then
        undo); nothing is journalled. Cached per position, since view() runs after every change."""
        game = self._game
        if game is None or game.finished or game.waiting is None or game.waiting.player is None:
            return None
        key = (self._game_id, len(game.actions), self.language)
        if self._preview_cache is not None and self._preview_cache[0] == key:
            return self._preview_cache[1]
        preview = None
        legal = rules.legal(game)
        if len(legal) == 1 and legal[0].get("type") in FORCED:
            events = game.apply(legal[0])
            game.undo()
            preview = {"text": self._announcer.preview(legal[0], events, game), "action": legal[0],
                       "source": "table"}
        self._preview_cache = (key, preview)
        return preview

    def _view(self) -> dict[str, Any]:
        game = self._game
        base: dict[str, Any] = {
            "game_id": self._game_id, "language": self.language, "bag_mode": self._bag_mode,
            "announcements": [{"n": n, "text": line.text, "urgent": line.urgent, "spoken": line.spoken,
                               "topic": line.topic} for n, line in self._announcements],
            "devices": dict(self._device_status),
            "error": self._error, "can_undo": self.can_undo, "can_redo": self.can_redo,
            "pending": self._pending_json(),
            "placeholders": list(getattr(self.components, "placeholders", ())),
            "questions": owner.questions(self.components),
            "recent_taps": [dict(tap) for tap in self._taps],
        }
        if game is None:
            base.update(finished=False, round=None, phase=None, players=[], waiting=None, choices=[],
                        blocked=[], state=None, forecast=None, yard=None, scores_now=None, final=None,
                        next_event_space=None)
            return base
        state = rules.state_json(game)
        base.update(
            finished=bool(game.finished),
            round=state.get("round"), phase=state.get("phase"),
            players=rules.players(game),
            waiting=rules.waiting_json(game, self._tr),
            choices=rules.choices(game, self._tr),
            blocked=rules.blocked(game, self._tr),
            state=state,
            forecast=event_risk(rules.bag(game), rules.restock_count(game), rules.event_spaces_ahead(game)),
            yard=(self._yard.to_json(self._tr, self._yard_message()) if self._yard
                  else {"engine": rules.stock_yard(game), "camera": None, "differences": {}, "message": None,
                        "unsure": None}),
            scores_now=rules.estimate(game),
            final=rules.result(game) if game.finished else None,
            next_event_space=None if game.finished else rules.next_event_space(game),
        )
        return base
