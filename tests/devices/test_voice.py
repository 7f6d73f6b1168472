"""The voice: real WAV files from espeak-ng in three languages, the queue's order, mute, and silence on failure."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hardware.voice import (
    QueuedVoice,
    RecordingVoice,
    SpeakerVoice,
    SpokenLine,
    render_with_espeak_binary,
    wav_frames,
    write_wav,
)
from tests.devices.audio import duration_and_rms

LINES = {
    "en": "Rain this round: excavation and track laying slow down.",
    "de": "Regen in dieser Runde: Räumarbeit und Gleisbau werden langsamer.",
    "es": "Lluvia esta ronda: la excavación y el tendido de vías son más lentos.",
}
# Speech at normal volume sits in the thousands (of 32767); a silent file is 0, hiss a few dozen.
LOUD_ENOUGH = 500.0


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_write_wav_speaks_each_language(tmp_path: Path, language: str) -> None:
    path = tmp_path / f"{language}.wav"
    used = write_wav(LINES[language], language, path, volume=1.0)
    assert used in ("pyttsx3", "espeak-ng")
    seconds, rms = duration_and_rms(path)
    assert seconds > 2.0  # a ten-word sentence
    assert rms > LOUD_ENOUGH


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_espeak_binary_fallback_speaks_each_language(tmp_path: Path, language: str) -> None:
    path = tmp_path / f"{language}.wav"
    render_with_espeak_binary(LINES[language], language, path)
    seconds, rms = duration_and_rms(path)
    assert seconds > 2.0
    assert rms > LOUD_ENOUGH


def test_each_line_gets_its_own_volume_and_voice(tmp_path: Path) -> None:
    # Alternating volume and language line by line: each file must carry its own settings, not the
    # previous line's (pyttsx3 queues property changes; see hardware.voice._set_voice).
    text = "Round 7: 1234567 points."
    measured: dict[tuple[str, float], list[tuple[float, float]]] = {}
    for language in ("en", "de", "es", "en", "es", "de"):
        for volume in (1.0, 0.25):
            path = tmp_path / "line.wav"
            write_wav(text, language, path, volume=volume)
            measured.setdefault((language, volume), []).append(duration_and_rms(path))
    for language in ("en", "de", "es"):
        loud = [rms for _, rms in measured[(language, 1.0)]]
        quiet = [rms for _, rms in measured[(language, 0.25)]]
        for rms in quiet:
            assert 0.18 < rms / loud[0] < 0.32, (language, rms, loud)  # a quarter of the amplitude
        assert abs(loud[0] - loud[1]) < 0.05 * loud[0]
        lengths = [s for volume in (1.0, 0.25) for s, _ in measured[(language, volume)]]
        assert max(lengths) - min(lengths) < 0.02 * max(lengths), (language, lengths)  # same voice every time

    def seconds(language: str) -> float:
        return measured[(language, 1.0)][0][0]

    # The numbers are read out in each language: German is the longest, Spanish the shortest here.
    assert seconds("de") > 1.04 * seconds("en")
    assert seconds("de") > 1.06 * seconds("es")


def test_empty_text_and_unknown_language_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        write_wav("  ", "en", tmp_path / "x.wav")
    with pytest.raises(ValueError):
        write_wav("Bonjour", "fr", tmp_path / "x.wav")
    with pytest.raises(ValueError):
        RecordingVoice().set_language("fr")


def test_recording_voice_keeps_lines_and_writes_each_as_wav(tmp_path: Path) -> None:
    voice = RecordingVoice(tmp_path / "voice")
    voice.say("Round two. Weather: sun.", urgent=True)
    voice.set_language("de")
    voice.say("Grün ist am Zug.")
    voice.set_language("es")
    voice.set_volume(0.5)
    voice.say("Fin de la partida.", urgent=True)
    voice.close()
    assert voice.texts == ["Round two. Weather: sun.", "Grün ist am Zug.", "Fin de la partida."]
    assert [line.language for line in voice.lines] == ["en", "de", "es"]
    names = sorted(p.name for p in (tmp_path / "voice").iterdir())
    assert names == ["001-en-round-two-weather-sun.wav", "002-de-grun-ist-am-zug.wav", "003-es-fin-de-la-partida.wav"]
    for name in names:
        assert duration_and_rms(tmp_path / "voice" / name)[1] > 200.0


def test_urgent_only_writes_only_urgent_lines(tmp_path: Path) -> None:
    voice = RecordingVoice(tmp_path, urgent_only=True)
    voice.say("Blue places a labourer on the stock yard.")
    voice.say("Event: the trains arrive.", urgent=True)
    voice.close()
    assert len(voice.lines) == 2
    assert [p.name for p in voice.wav_files] == ["002-en-event-the-trains-arrive.wav"]


def test_muted_lines_are_kept_as_muted_and_never_rendered(tmp_path: Path) -> None:
    voice = RecordingVoice(tmp_path)
    voice.set_muted(True)
    voice.say("Nobody hears this.", urgent=True)
    voice.set_muted(False)
    voice.say("Everyone hears this.")
    voice.close()
    assert [line.muted for line in voice.lines] == [True, False]
    assert voice.texts == ["Everyone hears this."]
    assert [p.name for p in voice.wav_files] == ["002-en-everyone-hears-this.wav"]


class GatedVoice(QueuedVoice):
    """Handles lines only when the test opens the gate, and notes the order it handled them in."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.started = threading.Event()
        self.handled: list[str] = []
        super().__init__()

    def _handle(self, line: SpokenLine) -> None:
        self.started.set()
        self.gate.wait(10)
        self.handled.append(line.text)


def test_say_never_waits_and_urgent_lines_jump_the_queue() -> None:
    voice = GatedVoice()
    voice.say("chatter 1")
    assert voice.started.wait(5)  # the thread is now stuck on chatter 1 until the gate opens
    voice.say("chatter 2")  # these calls return although nothing can be spoken: say() does not block
    voice.say("chatter 3")
    voice.say("weather: fog", urgent=True)
    voice.say("event: maintenance", urgent=True)
    voice.gate.set()
    assert voice.flush(10)
    voice.close()
    assert voice.handled == ["chatter 1", "weather: fog", "event: maintenance", "chatter 2", "chatter 3"]


def test_close_drops_what_is_still_queued() -> None:
    voice = GatedVoice()
    voice.say("first")
    assert voice.started.wait(5)
    voice.say("never spoken")
    voice.gate.set()
    voice.close()
    assert "never spoken" not in voice.handled
    voice.say("after close")  # ignored, no error
    assert "after close" not in voice.handled


def test_speaker_without_a_sound_device_warns_once_then_stays_silent(tmp_path: Path) -> None:
    warnings: list[str] = []
    no_sound = tmp_path / "snd"
    no_sound.mkdir()
    voice = SpeakerVoice(on_warning=warnings.append, sound_dir=no_sound)
    for i in range(4):
        voice.say(f"line {i}", urgent=i % 2 == 0)
    assert voice.flush(10)
    voice.close()
    assert len(warnings) == 1
    assert "no sound output device" in warnings[0] or "aplay is not installed" in warnings[0]


def test_speaker_without_espeak_warns_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty PATH: this machine has no espeak-ng binary
    warnings: list[str] = []
    voice = SpeakerVoice(on_warning=warnings.append)
    voice.say("one")
    voice.say("two")
    assert voice.flush(10)
    voice.close()
    assert warnings == ["the voice is silent: espeak-ng is not installed (sudo apt install espeak-ng)"]


def test_broken_wav_counts_as_no_audio(tmp_path: Path) -> None:
    bad = tmp_path / "bad.wav"
    bad.write_bytes(b"RIFF....WAVEjunk")
    assert wav_frames(bad) == 0


def test_writing_a_wav_prints_nothing_on_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    print("narration before")
    write_wav("Game over.", "en", tmp_path / "end.wav")
    print("narration after")
    assert capsys.readouterr().out == "narration before\nnarration after\n"


NARRATE_WHILE_RECORDING = """
import sys
from hardware.voice import RecordingVoice
voice = RecordingVoice(sys.argv[1], urgent_only=True)
for i in range(150):
    voice.say(f"Go {i}.", urgent=True)
printed = 0
while voice._queue.unfinished_tasks and printed < 300_000:
    print(f"narration {printed}")
    printed += 1
voice.close()
print(len(voice.wav_files), "files", printed)
"""


def test_narration_on_stdout_while_lines_are_written(tmp_path: Path) -> None:
    # The demo prints its narration while the recording voice renders WAVs on its own thread: every
    # narration line must arrive, none of pyttsx3's notices, and the process must not crash. (An earlier
    # version swapped sys.stdout around each rendering to hide pyttsx3's notice; CPython 3.11's print()
    # holds sys.stdout by a borrowed reference, and this exact script crashed it with SIGSEGV.)
    out = tmp_path / "stdout.txt"
    with out.open("w") as stdout:
        result = subprocess.run([sys.executable, "-c", NARRATE_WHILE_RECORDING, str(tmp_path / "wav")],
                                stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
                                cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stderr == ""
    lines = out.read_text().splitlines()
    files, _, printed = lines[-1].split()
    assert files == "150"
    assert lines[:-1] == [f"narration {n}" for n in range(int(printed))]


def fake_sound_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, fails: bool = False) -> tuple[Path, Path]:
    """A playback device node and an `aplay` that keeps what it is given: a build machine has no speaker."""
    snd = tmp_path / "snd"
    snd.mkdir()
    (snd / "pcmC0D0p").touch()
    played = tmp_path / "played"
    played.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    aplay = bin_dir / "aplay"
    if fails:
        aplay.write_text("#!/bin/sh\necho 'aplay: main:831: audio open error: Device or resource busy' >&2\nexit 1\n")
    else:
        aplay.write_text(f'#!/bin/sh\nn=$(ls {played} | wc -l)\ncp "$2" "{played}/$(printf %03d "$n").wav"\n')
    aplay.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    return snd, played


def test_speaker_renders_and_plays_each_line_urgent_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snd, played = fake_sound_card(tmp_path, monkeypatch)
    warnings: list[str] = []
    voice = SpeakerVoice(language="de", volume=1.0, on_warning=warnings.append, sound_dir=snd)
    voice.set_muted(True)
    voice.say("Das hört niemand.")
    voice.set_muted(False)
    voice.say("Grün setzt einen Arbeiter auf den Lagerplatz.")
    voice.say("Ereignis: Wartung!", urgent=True)
    assert voice.flush(30)
    voice.close()
    assert warnings == []
    files = sorted(played.iterdir())
    assert len(files) == 2
    # The chatter line may already be playing when the urgent one arrives, so only the set is fixed;
    # each file is real, audible speech of its line's length.
    lengths = sorted(duration_and_rms(f)[0] for f in files)
    assert lengths[0] > 0.8 and lengths[1] > 2.0
    assert all(duration_and_rms(f)[1] > LOUD_ENOUGH for f in files)


def test_speaker_whose_player_fails_warns_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snd, _ = fake_sound_card(tmp_path, monkeypatch, fails=True)
    warnings: list[str] = []
    voice = SpeakerVoice(on_warning=warnings.append, sound_dir=snd)
    for text in ("one", "two", "three"):
        voice.say(text)
    assert voice.flush(30)
    voice.close()
    assert warnings == ["the voice is silent: aplay: main:831: audio open error: Device or resource busy"]
