"""The voice: pyttsx3 on espeak-ng, in its own thread, behind a priority queue.

`say()` only puts the line on a queue and returns, so neither the UI thread nor the session ever waits
for speech. Urgent lines (weather, events) are spoken before chatter that was queued earlier.

Speaking: pyttsx3 (espeak driver) renders the line into a WAV file and `aplay` plays it. pyttsx3's own
`say()` does the same on Linux, but through `os.system`, so a missing sound card would go unnoticed;
doing the two steps here lets the voice notice a missing espeak-ng or audio device, warn once, and then
go on silently as the design asks. Writing WAV files (the demo, `tableassist say --to`) uses pyttsx3's
`save_to_file`; if pyttsx3 cannot render on a machine, the `espeak-ng -w` binary is the fallback.

`RecordingVoice` keeps every line (tests and the session's history) and can write each as a WAV file
into a directory: the headless demo uses it.
"""

from __future__ import annotations

import atexit
import gc
import itertools
import logging
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("tableassist.voice")

LANGUAGES = ("en", "de", "es")
# espeak-ng voice names; the short language names pick espeak-ng's standard voice for each.
ESPEAK_VOICES = {"en": "en", "de": "de", "es": "es"}
SAMPLE_RATE = 22050  # what espeak-ng renders, with pyttsx3 and with the binary alike
WORDS_PER_MINUTE = 175  # espeak-ng's own default; pyttsx3 would use 200, too quick across a noisy table
URGENT, CHATTER, STOP = 1, 2, 0

WarningHandler = Callable[[str], None]


class VoiceUnavailable(Exception):
    """Speech cannot be rendered or played on this machine; the message says why and how to fix it."""


@dataclass(frozen=True)
class SpokenLine:
    text: str
    language: str
    urgent: bool
    volume: float
    muted: bool = False


# ---------------------------------------------------------------------------------------------------------------
# Rendering speech into WAV files

# espeak-ng keeps one global synthesiser per process (pyttsx3 notes it cannot be initialised twice), so
# every use of pyttsx3 goes through this lock, whichever thread or voice asks.
_PYTTSX3_LOCK = threading.Lock()
_pyttsx3_engine: Any = None


def _no_print(*args: object, **kwargs: object) -> None:
    """Stands in for `print` inside pyttsx3's espeak driver (see `_engine`)."""


def _engine() -> Any:
    global _pyttsx3_engine
    if _pyttsx3_engine is None:
        import pyttsx3  # here: importing this module must not need espeak-ng's library

        _pyttsx3_engine = pyttsx3.init("espeak")
        # pyttsx3 2.99's espeak driver prints "Audio saved to …" after every save_to_file, from espeak's
        # callback thread; the CLI's stdout and the demo's narration must not carry it. Shadowing `print`
        # in that one module silences it without touching sys.stdout, which other threads are using
        # (swapping sys.stdout under a thread that is inside print() crashes CPython 3.11).
        driver_module = sys.modules.get("pyttsx3.drivers.espeak")
        if driver_module is not None:
            driver_module.print = _no_print  # type: ignore[attr-defined]
        atexit.register(_release_engine)
    return _pyttsx3_engine


def _release_engine() -> None:
    # Left to interpreter shutdown, pyttsx3's DriverProxy.__del__ runs after its modules are torn down
    # and prints "Exception ignored in …" on stderr; released here, it finds everything still in place.
    global _pyttsx3_engine
    if not _PYTTSX3_LOCK.acquire(timeout=2):  # a daemon voice thread is mid-line: never hang the exit
        return
    try:
        _pyttsx3_engine = None
        gc.collect()
    finally:
        _PYTTSX3_LOCK.release()


def check_language(language: str) -> str:
    if language not in ESPEAK_VOICES:
        raise ValueError(f"no voice for language '{language}' (known: {', '.join(LANGUAGES)})")
    return ESPEAK_VOICES[language]


def render_with_pyttsx3(text: str, language: str, path: Path, volume: float = 1.0) -> None:
    voice = check_language(language)
    with _PYTTSX3_LOCK:
        try:
            engine = _engine()
            _set_voice(engine, voice, max(0.0, min(1.0, volume)))
            engine.save_to_file(text, str(path))
            engine.runAndWait()
        except Exception as err:  # noqa: BLE001 - pyttsx3 raises RuntimeError, OSError, ctypes errors…
            raise VoiceUnavailable(f"pyttsx3 could not render speech: {err}") from err
    if wav_frames(path) == 0:
        raise VoiceUnavailable("pyttsx3 rendered no audio")


def _set_voice(engine: Any, voice: str, volume: float) -> None:
    """Voice, rate and volume for the next line, applied before it is rendered.

    pyttsx3 2.99 (pinned) queues `engine.setProperty` behind its own busy flag, and espeak-ng applies
    parameters on its own thread: measured here, every other line came out at the previous line's
    volume. Setting them on the driver and waiting for espeak-ng (`espeak_Synchronize`) makes each line
    use exactly its own settings (tests/devices/test_voice.py checks the loudness).
    """
    driver = getattr(getattr(engine, "proxy", None), "_driver", None)
    if driver is None:  # another pyttsx3 layout: the public API, at its word
        for name, value in (("voice", voice), ("rate", WORDS_PER_MINUTE), ("volume", volume)):
            engine.setProperty(name, value)
        return
    from pyttsx3.drivers import _espeak

    driver.setProperty("voice", voice)
    driver.setProperty("rate", WORDS_PER_MINUTE)
    driver.setProperty("volume", volume)
    _espeak.Synchronize()


def render_with_espeak_binary(text: str, language: str, path: Path, volume: float = 1.0) -> None:
    voice = check_language(language)
    binary = shutil.which("espeak-ng")
    if binary is None:
        raise VoiceUnavailable("espeak-ng is not installed (sudo apt install espeak-ng)")
    amplitude = str(round(max(0.0, min(1.0, volume)) * 100))
    try:
        result = subprocess.run([binary, "-v", voice, "-a", amplitude, "-s", str(WORDS_PER_MINUTE),
                                 "-w", str(path), "--", text],
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise VoiceUnavailable(f"espeak-ng failed: {err}") from err
    if result.returncode != 0 or wav_frames(path) == 0:
        reason = result.stderr.strip().splitlines()[0] if result.stderr.strip() else f"exit {result.returncode}"
        raise VoiceUnavailable(f"espeak-ng failed: {reason}")


def write_wav(text: str, language: str, path: str | Path, volume: float = 1.0) -> str:
    """Render `text` into the WAV file `path`; returns which renderer did it: "pyttsx3" or "espeak-ng".

    The speech is rendered in a private temporary directory and then copied to `path`, so a target that
    cannot be written is one OSError here rather than an exception inside espeak-ng's callback thread.
    Raises ValueError for empty text or an unknown language, VoiceUnavailable when neither renderer works.
    """
    if not text.strip():
        raise ValueError("there is nothing to say")
    check_language(language)
    with tempfile.TemporaryDirectory(prefix="tableassist-wav-") as tmp:
        rendered = Path(tmp) / "speech.wav"
        try:
            render_with_pyttsx3(text, language, rendered, volume)
            used = "pyttsx3"
        except VoiceUnavailable as first:
            log.debug("pyttsx3 failed (%s); trying the espeak-ng binary", first)
            try:
                render_with_espeak_binary(text, language, rendered, volume)
            except VoiceUnavailable as second:
                raise VoiceUnavailable(f"{first}; {second}") from second
            used = "espeak-ng"
        shutil.copyfile(rendered, Path(path))
    return used


def wav_frames(path: Path) -> int:
    try:
        with wave.open(str(path), "rb") as wav:
            return wav.getnframes()
    except (OSError, EOFError, wave.Error):
        return 0


# ---------------------------------------------------------------------------------------------------------------
# What this machine has (for the voice and for `doctor`)

def espeak_problem() -> str | None:
    if shutil.which("espeak-ng") is None:
        return "espeak-ng is not installed (sudo apt install espeak-ng)"
    return None


def pyttsx3_problem() -> str | None:
    try:
        with _PYTTSX3_LOCK:
            engine = _engine()
            languages = {lang for v in engine.getProperty("voices") for lang in (v.languages or [])}
    except Exception as err:  # noqa: BLE001 - any failure here means "pyttsx3 does not work"
        return f"pyttsx3 does not start: {err} (sudo apt install espeak-ng)"
    missing = [code for code in LANGUAGES if not any(lang.split("-")[0] == code for lang in languages)]
    if missing:
        return f"espeak-ng has no voice for {', '.join(missing)} (sudo apt install espeak-ng-data)"
    return None


def audio_output_problem(sound_dir: Path = Path("/dev/snd")) -> str | None:
    """Why speech could not be heard here, or None when a playback device is there to use."""
    if shutil.which("aplay") is None:
        return "aplay is not installed (sudo apt install alsa-utils)"
    playback = sorted(sound_dir.glob("pcmC*D*p")) if sound_dir.is_dir() else []
    if not playback:
        return (f"no sound output device ({sound_dir} has no playback device: connect a speaker, "
                "or enable the audio output with raspi-config)")
    if not any(os.access(p, os.R_OK | os.W_OK) for p in playback):
        return "no permission for the sound device (add your user to the 'audio' group: sudo usermod -aG audio $USER)"
    return None


def speak_now(text: str, language: str, volume: float = 1.0, sound_dir: Path = Path("/dev/snd")) -> None:
    """Render and play one line, waiting until it has been heard. VoiceUnavailable says why it cannot."""
    problem = espeak_problem() or audio_output_problem(sound_dir)
    if problem:
        raise VoiceUnavailable(problem)
    with tempfile.TemporaryDirectory(prefix="tableassist-voice-") as tmp:
        wav = Path(tmp) / "line.wav"
        write_wav(text, language, wav, volume)
        try:
            result = subprocess.run(["aplay", "-q", str(wav)], capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise VoiceUnavailable(f"aplay failed: {err}") from err
        if result.returncode != 0:
            reason = result.stderr.strip().splitlines()[0] if result.stderr.strip() else "aplay failed"
            raise VoiceUnavailable(reason)


# ---------------------------------------------------------------------------------------------------------------
# The queue and its thread

class QueuedVoice:
    """A Voice whose lines are handled one at a time in a thread; subclasses say what handling means."""

    def __init__(self, language: str = "en", volume: float = 0.8, muted: bool = False,
                 on_warning: WarningHandler | None = None) -> None:
        check_language(language)
        self.language = language
        self.volume = max(0.0, min(1.0, volume))
        self.muted = muted
        self._on_warning = on_warning or log.warning
        self._warned = False
        self._queue: queue.PriorityQueue[tuple[int, int, SpokenLine | None]] = queue.PriorityQueue()
        self._order = itertools.count()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._thread.start()

    # -- the Voice protocol --
    def say(self, text: str, *, urgent: bool = False) -> None:
        if self._closed or not text.strip():
            return
        line = SpokenLine(text=text, language=self.language, urgent=urgent, volume=self.volume, muted=self.muted)
        self._record(line)
        if not line.muted:
            self._queue.put((URGENT if urgent else CHATTER, next(self._order), line))

    def set_language(self, language: str) -> None:
        check_language(language)
        self.language = language

    def set_volume(self, volume: float) -> None:
        self.volume = max(0.0, min(1.0, float(volume)))

    def set_muted(self, muted: bool) -> None:
        self.muted = muted

    def close(self) -> None:
        """Stop at once: lines still queued are dropped (the game is over or the app is quitting)."""
        self._stop(priority=STOP)

    # -- for subclasses, tests and the demo --
    def flush(self, timeout: float = 60.0) -> bool:
        """Wait until every queued line has been handled; False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    @property
    def warned(self) -> bool:
        return self._warned

    def _record(self, line: SpokenLine) -> None:
        pass

    def _handle(self, line: SpokenLine) -> None:
        raise NotImplementedError

    def _warn_once(self, message: str) -> None:
        if not self._warned:
            self._warned = True
            self._on_warning(message)

    def _stop(self, priority: int) -> None:
        if self._closed:
            return
        self._closed = True
        self._queue.put((priority, next(self._order), None))
        self._thread.join(timeout=60)

    def _run(self) -> None:
        while True:
            _, _, line = self._queue.get()
            try:
                if line is None:
                    return
                if not self.muted:  # muted after it was queued: drop it
                    self._handle(line)
            except Exception as err:  # noqa: BLE001 - a voice failure must never reach the table
                self._warn_once(f"voice: {err}")
            finally:
                self._queue.task_done()


class SpeakerVoice(QueuedVoice):
    """The real voice: espeak-ng through pyttsx3, played with aplay on the default ALSA device.

    When the machine cannot speak (no espeak-ng, no sound device, a failing player) the first line
    produces one warning, and every later line is dropped silently: the game goes on.
    """

    def __init__(self, language: str = "en", volume: float = 0.8, muted: bool = False,
                 on_warning: WarningHandler | None = None, sound_dir: Path = Path("/dev/snd")) -> None:
        self._sound_dir = sound_dir
        self._silent_reason: str | None = None
        super().__init__(language, volume, muted, on_warning)

    def _handle(self, line: SpokenLine) -> None:
        if self._warned:
            return
        try:
            speak_now(line.text, line.language, line.volume, self._sound_dir)
        except VoiceUnavailable as err:
            self._warn_once(f"the voice is silent: {err}")


class RecordingVoice(QueuedVoice):
    """Keeps every line said; with `wav_dir`, also writes each line as a WAV file there, in the background.

    `urgent_only=True` writes only the urgent lines (weather, events, game over): rendering every line
    of a whole game would make the demo slow. Files are numbered in the order the lines were said, after
    `numbered_after` (a resumed demo continues after the files already in `wav_dir` instead of overwriting them).
    """

    def __init__(self, wav_dir: str | Path | None = None, *, urgent_only: bool = False, language: str = "en",
                 volume: float = 0.8, muted: bool = False, on_warning: WarningHandler | None = None) -> None:
        self.lines: list[SpokenLine] = []
        self.wav_files: list[Path] = []
        self.wav_dir = Path(wav_dir) if wav_dir is not None else None
        self.urgent_only = urgent_only
        self.numbered_after = 0
        self._names: dict[int, str] = {}
        self._lock = threading.Lock()
        if self.wav_dir is not None:
            self.wav_dir.mkdir(parents=True, exist_ok=True)
        super().__init__(language, volume, muted, on_warning)

    @property
    def texts(self) -> list[str]:
        return [line.text for line in self.lines if not line.muted]

    def close(self) -> None:
        """Finish writing the files already asked for, then stop."""
        self._stop(priority=CHATTER + 1)

    def _record(self, line: SpokenLine) -> None:
        with self._lock:
            self.lines.append(line)
            self._names[id(line)] = wav_name(self.numbered_after + len(self.lines), line)

    def _handle(self, line: SpokenLine) -> None:
        if self.wav_dir is None or (self.urgent_only and not line.urgent) or self._warned:
            return
        with self._lock:
            name = self._names.pop(id(line))
        path = self.wav_dir / name
        try:
            write_wav(line.text, line.language, path, line.volume)
        except VoiceUnavailable as err:
            self._warn_once(f"voice lines are not written: {err}")
            return
        with self._lock:
            self.wav_files.append(path)


def highest_wav_number(directory: Path) -> int:
    """The highest number a `wav_name` file in `directory` carries (0 when there is none)."""
    numbers = [int(m[1]) for path in directory.glob("*.wav") if (m := re.match(r"(\d+)-", path.name))]
    return max(numbers, default=0)


def wav_name(number: int, line: SpokenLine) -> str:
    # "Räumarbeit auf Strecke 3" -> "003-de-raumarbeit-auf-strecke-3.wav": readable, safe on any filesystem.
    ascii_text = unicodedata.normalize("NFKD", line.text).encode("ascii", "ignore").decode("ascii")
    words = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40].rstrip("-") or "line"
    return f"{number:03d}-{line.language}-{words}.wav"


SimulatedVoice = RecordingVoice
