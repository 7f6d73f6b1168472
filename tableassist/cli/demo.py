"""`tableassist demo`: a complete game on simulated hardware, no display needed.

Simulated players choose legal actions; the simulated camera renders the stock yard and the real
stock-yard reader reads it; the table session runs for real, journal included. Every player choice is
derived from the seed and the action's index (as the digital bag's draws are), so a demo killed at any
moment and resumed with `--resume latest` plays on exactly as it would have.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from tableassist.engine import players
from tableassist.errors import UserError

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve"]
COLOURS = ["green", "blue", "yellow", "pink", "purple"]
# Lines written as WAV files: the ones a table most needs to hear, each at most a few times.
WAV_TOPICS = {"weather_changed": 3, "event_resolved": 4, "fog": 1, "trains_available": 1,
              "game_end_triggered": 1, "game_over": 1}


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "demo", parents=[common], help="a complete game on simulated hardware, no display needed"
    )
    parser.add_argument("--players", type=int, default=4, metavar="N", help="1 to 5 (default 4)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed for the bag and the players")
    parser.add_argument("--out", default="demo-out", metavar="DIR", help="voice WAVs and screenshots go here")
    parser.add_argument("--resume", metavar="GAME_ID|latest", help="continue an interrupted demo game")
    parser.add_argument("--lang", choices=("en", "de", "es"), default="en", help="language of the table")
    parser.add_argument("--no-screenshots", action="store_true", help="do not call the UI's snapshot tool")
    parser.add_argument("--camera", choices=("rendered", "counts"), default="rendered",
                        help="rendered: the stock-yard reader reads rendered frames (default); "
                             "counts: the simulated camera passes the counts through (fast)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if not 1 <= args.players <= 5:
        raise UserError(f"--players must be 1 to 5, not {args.players}")
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UserError(f"cannot create {out}: {err.strerror}") from None
    demo = Demo(args.db, out, args.lang, screenshots=not args.no_screenshots, rendered=args.camera == "rendered")
    try:
        demo.run(args.players, args.seed, args.resume)
    finally:
        demo.close()
    return 0


class Demo:
    def __init__(self, db: str | None, out: Path, language: str, *, screenshots: bool = True,
                 rendered: bool = True) -> None:
        from hardware.controls import SimulatedControls
        from hardware.rfid import SimulatedCardReader
        from hardware.voice import RecordingVoice
        from tableassist.compose import CountingCamera, SimulatedTable
        from tableassist.i18n import translator
        from tableassist.paths import default_db_file
        from tableassist.session import Devices, Journal, TableSession

        self.db = Path(db) if db else default_db_file()
        self.out = out
        self.tr = translator(language)
        self.table = SimulatedTable()
        self.rendered = rendered
        self.camera: Any = CountingCamera(self.table)
        self.voice = RecordingVoice(out, urgent_only=True, language=language)
        self.controls = SimulatedControls()
        self.picked = _PickedVoice(self.voice)
        devices = Devices(voice=self.picked, reader=SimulatedCardReader(), controls=self.controls,
                          camera=self.camera)
        self.session = TableSession(Journal(self.db), devices, language=language)  # type: ignore[arg-type]
        self.session.listen(self._narrate)
        self.screenshots = screenshots
        self.shots: list[str] = []
        self.yard_checks = 0
        self.camera_faults = 0
        self.mismatches = 0
        self._round: Any = None
        self._checked: dict[str, int] | None = None

    def _(self, message: str) -> str:
        return self.tr.gettext(message)

    def _attach_camera(self) -> str:
        """The rendered camera is calibrated on a rendered empty yard (a fraction of a second): done once the
        game is journalled, so a demo killed early still leaves a game to resume."""
        if not self.rendered:
            return self._("camera: counts passed through ({reason})").format(reason="--camera counts")
        try:
            from hardware.stockyard.cubenet import ModelMissing
            from tableassist.compose import RenderedYardCamera
        except ImportError as err:  # vision not installed here: the session runs, counts come direct
            return self._("camera: counts passed through ({reason})").format(reason=err)
        try:
            self.camera = RenderedYardCamera(self.table, seed=3)
        except ModelMissing as err:  # a broken install: the demo still runs, and says why
            return self._("camera: counts passed through ({reason})").format(reason=err)
        self.session.devices.camera = self.camera
        return self._("camera: rendered stock yard, read by the stock-yard reader")

    def close(self) -> None:
        self.voice.close()
        self.session.journal.close()

    # ---- the game ----------------------------------------------------------------------------------

    def run(self, players: int, seed: int, resume: str | None) -> None:
        session = self.session
        if resume and not (resume == "latest" and not session.games()):
            game_id = session.resume(resume)
            # The voice lines of the first run are in DIR: number the new ones after them, never over them.
            from hardware.voice import highest_wav_number

            self.voice.numbered_after = highest_wav_number(self.out)
            print(self._("Resuming game {game} at action {n}.").format(game=game_id, n=len(session.game.actions)))
        else:
            if resume:  # killed before its game was journalled: there is nothing to resume, so begin
                print(self._("No game to resume in the journal: starting one."))
            game_id = session.new_game(NAMES[:players], COLOURS[:players], "digital", seed=seed,
                                       solo_train=1 if players == 1 else None)
        print(self._("Demo on simulated devices; {camera}.").format(camera=self._attach_camera()))
        print(self._("Journal: {db} (game {game}).").format(db=self.db, game=game_id))
        self.table.follow(session)
        from tableassist.session import rules

        while not session.game.finished:
            self._step(session.seed)  # the journalled seed: a resumed game plays on as it would have
            yard = rules.stock_yard(session.game)
            if yard != self._checked:  # the simulated players moved cubes: the camera looks again
                self._look()
                self._checked = yard
                self._report_yard()
        self._snapshot("final")
        self._final_table()

    def _step(self, seed: int) -> None:
        from tableassist.session import rules

        session = self.session
        game = session.game
        decision = game.waiting
        if decision.player is None:  # the digital bag is waiting on nothing a person does: let it draw
            session.draw()
            return
        legal = rules.legal(game)
        if not legal:
            raise UserError(f"the engine offers no choice for {decision.kind}")
        rng = random.Random(rules.chance_seed(seed ^ 0x5EED, len(game.actions)))
        action = players.choose(game, rng)
        if decision.kind == "stock_yard":
            self._take_from_yard(action)
            return
        if decision.kind == "place" and self._round_changed():
            self._snapshot(f"round{self._round}")
        outcome = session.act(action)
        if not outcome.ok:
            raise UserError(f"the session refused a legal action: {outcome.message}")

    def _take_from_yard(self, action: dict[str, Any]) -> None:
        """The player lifts cubes off the simulated yard; the camera sees the gap; the session proposes;
        the Confirm button accepts — or, if the camera read it differently, the table enters it by touch."""
        from tableassist.session import rules

        yard = self.table.yard()
        self.table.set_yard(**{c: yard[c] - int(action.get(c, 0)) for c in ("iron", "stone", "coal")})
        self._look()
        pending = self.session.view()["pending"]
        if pending is not None and pending["action"] == action:
            self.controls.press("confirm")
            self._checked = rules.stock_yard(self.session.game)  # the camera has just seen this yard
        else:
            if pending is not None:
                self.session.reject()
            outcome = self.session.act(action)
            if not outcome.ok:
                raise UserError(f"the session refused a legal action: {outcome.message}")

    def _look(self) -> None:
        """The camera looks at the stock yard; a fault in the reader is reported and the game goes on."""
        self.yard_checks += 1
        try:
            self.session.check_yard()
        except Exception as err:  # noqa: BLE001 - the demo shows the table carrying on without the camera
            self.camera_faults += 1
            if self.camera_faults == 1:
                print(self._("camera fault ({reason}): the table carries on by touch").format(reason=err))

    def _report_yard(self) -> None:
        yard = self.session.view()["yard"]
        if yard and (yard.get("differences") or yard.get("unsure")):
            self.mismatches += 1

    def _round_changed(self) -> bool:
        state = self.session.game.state
        current = getattr(state, "round", None)
        if current != self._round:
            self._round = current
            return current in (1, 3, 6)
        return False

    # ---- output ------------------------------------------------------------------------------------

    def _narrate(self, line: Any) -> None:
        self.picked.topic = line.topic  # the session speaks this line right after telling its listeners
        if line.topic == "round_started":
            print()
        if line.topic in ("labourer_placed", "passed", "cubes_drawn", "phase_changed", "contract_revealed", "turn"):
            return  # shown on the screen; on stdout they would drown the story
        marker = "!" if line.urgent else " "
        print(f"{marker} {line.text}", flush=True)

    def _snapshot(self, moment: str) -> None:
        if not self.screenshots:
            return
        game_id = self.session.game_id
        target = self.out / "screens" / moment
        try:
            result = subprocess.run(
                [sys.executable, "-m", "ui.snapshot", "--db", str(self.db), "--game", str(game_id),
                 "--out", str(target), "--sizes", "800x480"], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as err:
            print(self._("no display: screenshots skipped ({reason})").format(reason=err))
            self.screenshots = False
            return
        if result.returncode != 0:
            reason = (result.stderr.strip().splitlines() or ["?"])[-1]
            print(self._("no display: screenshots skipped ({reason})").format(reason=reason))
            self.screenshots = False
            return
        pngs = sorted(target.glob("*.png"))
        self.shots.extend(str(p) for p in pngs)
        print(self._("screenshots: {n} saved in {dir}").format(n=len(pngs), dir=target))

    def _final_table(self) -> None:
        from tableassist.session import rules

        result = rules.result(self.session.game)
        print()
        print(self._("Final scores"))
        player_word, total_word = self._("Player"), self._("Total")
        header = f"{player_word:<8}{total_word:>7}  " + "  ".join(
            f"{key:>9}" for key in ("sites", "tracks", "surveyor", "contracts", "train"))
        print(header)
        for player in result["players"]:
            breakdown = player.get("breakdown", {})
            print(f"{player['name']:<8}{player['total']:>7}  " + "  ".join(
                f"{breakdown.get(key, 0):>9}" for key in ("sites", "tracks", "surveyor", "contracts", "train")))
        winners = result.get("winners", [])
        print(self._("Winner: {names}").format(names=", ".join(winners)))
        self.voice.flush(timeout=60)
        wavs = sorted(self.out.glob("*.wav"))
        print(self._("{n} voice lines written as WAV files in {dir}; {checks} stock-yard readings, "
                     "{mismatches} disagreed with the engine or were unsure.").format(
            n=len(wavs), dir=self.out, checks=self.yard_checks, mismatches=self.mismatches))


class _PickedVoice:
    """Says every line to the recording voice but marks only the demo's chosen few as urgent, so only they
    are rendered as WAV files (rendering every line of a game would take minutes)."""

    def __init__(self, voice: Any) -> None:
        self.voice = voice
        self.left = dict(WAV_TOPICS)
        self.topic: str | None = None

    def say(self, text: str, *, urgent: bool = False) -> None:
        picked = False
        for topic, left in self.left.items():
            if left > 0 and self.topic == topic:
                self.left[topic] -= 1
                picked = True
                break
        self.voice.say(text, urgent=picked)

    def set_language(self, language: str) -> None:
        self.voice.set_language(language)

    def set_volume(self, volume: float) -> None:
        self.voice.set_volume(volume)

    def set_muted(self, muted: bool) -> None:
        self.voice.set_muted(muted)

    def close(self) -> None:
        pass
