"""Device adapter numbers: RFID frames decoded per second, tap latency through a pty, say() latency,
WAV rendering time per line (pyttsx3 and the espeak-ng binary). Prints numbers; asserts nothing."""

from __future__ import annotations

import os
import queue
import statistics
import sys
import tempfile
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from hardware.rfid import FrameDecoder, SerialCardReader, frame  # noqa: E402
from hardware.voice import RecordingVoice, render_with_espeak_binary, render_with_pyttsx3  # noqa: E402


def bench_decoder() -> None:
    tags = [f"{i:010X}" for i in range(1000)]
    stream = b"".join(frame(t, crlf=i % 3 == 0) + (b"\xff\x00" if i % 7 == 0 else b"") for i, t in enumerate(tags))
    for chunk in (1, 7, 64, 4096):
        decoder = FrameDecoder(hold_seconds=0.0)
        pieces = [stream[i:i + chunk] for i in range(0, len(stream), chunk)]
        rounds = 3 if chunk == 1 else 20
        start = time.perf_counter()
        taps = 0
        for r in range(rounds):
            for piece in pieces:
                taps += len(decoder.feed(piece, now=r * 10.0))
        seconds = time.perf_counter() - start
        print(f"rfid decoder, {chunk:>4}-byte reads: {taps / seconds:>10,.0f} frames/s "
              f"(a reader sends ~10 frames/s)")


def bench_tap_latency() -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    taps: queue.Queue[float] = queue.Queue()
    status: queue.Queue[str] = queue.Queue()
    reader = SerialCardReader(os.ttyname(slave), hold_seconds=0.0)
    reader.start(lambda tag: taps.put(time.perf_counter()), status.put)
    status.get(timeout=5)
    latencies = []
    for i in range(50):
        sent = time.perf_counter()
        os.write(master, frame(f"{i:010X}"))
        latencies.append(taps.get(timeout=5) - sent)
        time.sleep(0.01)
    reader.stop()
    os.close(master)
    os.close(slave)
    ms = sorted(x * 1000 for x in latencies)
    print(f"rfid tap latency through a pty: median {statistics.median(ms):.2f} ms, max {ms[-1]:.2f} ms (50 taps)")


def bench_say() -> None:
    voice = RecordingVoice()
    times = []
    for i in range(1000):
        start = time.perf_counter()
        voice.say(f"line {i}", urgent=i % 5 == 0)
        times.append(time.perf_counter() - start)
    voice.close()
    us = sorted(x * 1e6 for x in times)
    print(f"say() returns in: median {statistics.median(us):.1f} µs, p99 {us[int(len(us) * 0.99)]:.1f} µs")


def bench_render() -> None:
    lines = {"en": "Event! The trains arrive: a new train is available.",
             "de": "Ereignis! Neue Lokomotiven sind verfügbar.",
             "es": "¡Evento! Llegan los trenes: hay una locomotora nueva."}
    with tempfile.TemporaryDirectory() as tmp:
        for name, render in (("pyttsx3", render_with_pyttsx3), ("espeak-ng binary", render_with_espeak_binary)):
            for language, text in lines.items():
                path = Path(tmp) / f"{language}.wav"
                render(text, language, path)  # warm-up
                start = time.perf_counter()
                for _ in range(5):
                    render(text, language, path)
                per_line = (time.perf_counter() - start) / 5
                print(f"WAV rendering, {name:<16} {language}: {per_line * 1000:6.1f} ms per line")


if __name__ == "__main__":
    bench_decoder()
    bench_tap_latency()
    bench_say()
    bench_render()
