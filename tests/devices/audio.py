"""Reading WAV files back with the stdlib: duration and loudness, to tell speech from silence."""

from __future__ import annotations

import math
import wave
from array import array
from pathlib import Path


def duration_and_rms(path: Path) -> tuple[float, float]:
    with wave.open(str(path), "rb") as wav:
        assert wav.getsampwidth() == 2, "16-bit samples expected"
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array("h", frames)
    if not samples:
        return seconds, 0.0
    return seconds, math.sqrt(sum(s * s for s in samples) / len(samples))
