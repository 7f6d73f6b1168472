"""Stock-yard vision numbers: milliseconds per 1280×720 frame (whole read and per stage) and exact-count
accuracy on generated scenes: the main style, a deliberately different one, and six independent generators
written from the issue text alone without sight of the reader (tests/vision/scenes_indep.py, and
tests/vision/scenes_blind.py, scenes_third.py, scenes_fourth.py, scenes_fifth.py and scenes_sixth.py by later
sessions that saw no other generator either), the nearest stand-ins for the hidden test set. The cube net trained
on the first three's scenes (other seeds); the fourth and fifth guided later reader choices but were never trained
on; the sixth is held out from everything, the truest stand-in. Prints numbers; asserts nothing.
`BENCH_VISION_SCENES=N` changes the size of the main set (default 200); the other sets are sized from it."""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from hardware.stockyard import YardReader, build_profile  # noqa: E402
from hardware.stockyard.frame import prepare, to_gray  # noqa: E402
from hardware.stockyard.markers import find_markers  # noqa: E402
from hardware.stockyard.pool import read_in_processes  # noqa: E402
from tableassist.errors import UserError  # noqa: E402
from tests.vision.scenes import lamp_pool, scene_pair  # noqa: E402
from tests.vision.scenes_alt import alt_scene_pair  # noqa: E402
from tests.vision.scenes_blind import blind_scene_pair  # noqa: E402
from tests.vision.scenes_fifth import fifth_scene_pair  # noqa: E402
from tests.vision.scenes_fourth import fourth_scene_pair  # noqa: E402
from tests.vision.scenes_indep import indep_scene_pair  # noqa: E402
from tests.vision.scenes_sixth import sixth_scene_pair  # noqa: E402
from tests.vision.scenes_third import third_scene_pair  # noqa: E402


class _Pair(Protocol):
    """A calibration shot and a play shot (with .image and .counts), from any of the generators."""

    @property
    def calibration(self) -> np.ndarray: ...

    @property
    def play(self) -> Any: ...


def timing(name: str, pairs: Sequence[_Pair], threads: int = 1) -> None:
    # One thread: what one core of a Pi gives, roughly, and stable numbers on a shared machine. The
    # reader's own thread on a Pi 4 may use all four cores; the default line shows what that gains.
    default = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    whole, markers, warp, first = [], [], [], []
    for pair in pairs:
        reader = YardReader(build_profile(pair.calibration))
        image = pair.play.image
        t0 = time.perf_counter()
        reader.read(image)  # the first frame after calibrating also works out what later frames reuse
        first.append((time.perf_counter() - t0) * 1000)
        for _ in range(5):
            t0 = time.perf_counter()
            reader.read(image)
            t1 = time.perf_counter()
            sighting = find_markers(to_gray(image))
            t2 = time.perf_counter()
            prepare(image, reader.profile.view, sighting)
            t3 = time.perf_counter()
            whole.append((t1 - t0) * 1000)
            markers.append((t2 - t1) * 1000)
            warp.append((t3 - t2) * 1000)
    q = statistics.quantiles(whole, n=20)
    cv2.setNumThreads(default)
    unit = "thread" if threads == 1 else "threads"
    print(f"{name}: ms per 1280x720 frame ({threads} {unit}): median {statistics.median(whole):.1f}, p95 {q[18]:.1f}, "
          f"max {max(whole):.1f}  [markers {statistics.median(markers):.1f}, "
          f"warp+colour {statistics.median(warp):.1f}]; first frame after calibrating: median "
          f"{statistics.median(first):.1f}, max {max(first):.1f}")


def _counts(reader: YardReader, image: np.ndarray) -> dict[str, int]:
    return reader.read(image).reading.counts()


def batch_timing(name: str, pairs: Sequence[_Pair], threads: int) -> None:
    """A batch of frames read against one calibration (as `tableassist vision count` reads its images):
    one reader alone, then one process per core side by side (`read_in_processes`, starting its processes
    included, and each frame sent to them and its counts back). Each scene's play frame 24 times."""
    default = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    alone = side_by_side = 0.0
    frames = 0
    size = os.cpu_count() or 1
    for pair in pairs:
        profile = build_profile(pair.calibration)
        batch = [pair.play.image] * 24
        reader = YardReader(profile)
        reader.read(batch[0])
        t0 = time.perf_counter()
        for image in batch:
            reader.read(image)
        t1 = time.perf_counter()
        list(read_in_processes(profile, _counts, batch, size))
        t2 = time.perf_counter()
        alone, side_by_side, frames = alone + t1 - t0, side_by_side + t2 - t1, frames + len(batch)
    cv2.setNumThreads(default)
    print(f"{name}: ms per 1280x720 frame in a batch ({threads} OpenCV threads): "
          f"one reader {1000 * alone / frames:.1f}, "
          f"{size} processes side by side {1000 * side_by_side / frames:.1f}")


def accuracy(name: str, pairs: Sequence[_Pair]) -> None:
    exact = total = unsure = refused = 0
    wrong_kind: dict[str, int] = {}
    for pair in pairs:
        try:
            profile = build_profile(pair.calibration)
        except UserError:  # an empty yard too blurred to find its markers in: counted as read wrong
            refused += 1
            continue
        reading = YardReader(profile).read(pair.play.image).reading
        got = reading.counts()
        unsure += reading.unsure is not None
        want = pair.play.counts
        exact += got == want
        total += sum(got.values()) == sum(want.values())
        for kind in want:
            if got[kind] != want[kind]:
                wrong_kind[kind] = wrong_kind.get(kind, 0) + 1
    n = len(pairs)
    print(f"{name}: {n} scenes, exact counts {100 * exact / n:.1f} %, right number of cubes {100 * total / n:.1f} %, "
          f"scenes wrong per colour {wrong_kind}, unsure without cause {unsure}"
          + (f", calibration refused {refused}" if refused else ""))


@dataclass(frozen=True)
class _Shot:
    image: np.ndarray
    counts: dict[str, int]


@dataclass(frozen=True)
class _Altered:
    calibration: np.ndarray
    play: _Shot


def altered(pairs: Sequence[_Pair], change: Callable[[np.ndarray], np.ndarray],
            empty_yard: bool = False) -> list[_Altered]:
    """The same scenes with only the play frame changed after the camera took it, or only the empty yard's."""
    if empty_yard:
        return [_Altered(change(p.calibration), _Shot(p.play.image, p.play.counts)) for p in pairs]
    return [_Altered(p.calibration, _Shot(change(p.play.image), p.play.counts)) for p in pairs]


def tone_curve(gamma: float) -> Callable[[np.ndarray], np.ndarray]:
    """A camera that changed its tone curve between calibration and play (auto contrast, another mode):
    markers fix black and white, but mid-tones move."""
    table = np.clip(255 * (np.arange(256) / 255) ** gamma + 0.5, 0, 255).astype(np.uint8)
    return lambda image: np.asarray(cv2.LUT(image, table), np.uint8)


def recompressed(quality: int) -> Callable[[np.ndarray], np.ndarray]:
    def change(image: np.ndarray) -> np.ndarray:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return change


def blurred(sigma: float) -> Callable[[np.ndarray], np.ndarray]:
    """A camera that lost its focus after calibrating: the play frame blurred by `sigma` pixels more."""
    return lambda image: np.asarray(cv2.GaussianBlur(image, (0, 0), sigma), np.uint8)


def lamp_pool_somewhere(seed: int) -> Callable[[np.ndarray], np.ndarray]:
    """A lamp switched on at play over part of the table: up to 60 % brighter in a round pool a third
    of the frame across, centred somewhere over the yard."""
    rng = np.random.default_rng(seed)

    def change(image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        centre = rng.uniform(0.3, 0.7, 2) * (w, h)
        radius = float(rng.uniform(0.15, 0.3) * w)
        return recompressed(90)(lamp_pool(image, (float(centre[0]), float(centre[1])), radius))
    return change


def hands(name: str, pairs: Sequence[_Pair]) -> None:
    unsure = sum(YardReader(build_profile(p.calibration)).read(p.play.image).reading.unsure is not None for p in pairs)
    print(f"{name}: unsure on {unsure} of {len(pairs)}")


FRESH = 80_000  # the independent generators' first bench seed


def main() -> None:
    count = int(os.environ.get("BENCH_VISION_SCENES", "200"))
    default_threads = cv2.getNumThreads()  # before any generator or timing line changes it
    start = time.perf_counter()
    main_set = [scene_pair(20_000 + i) for i in range(count)]
    alt_set = [alt_scene_pair(30_000 + i) for i in range(max(20, count // 4))]
    # Seeds no setting was chosen on: the counter's settings were chosen on the independent generators' seeds
    # 50 000-50 099 (once the bench's own) and 90 000-90 149, and checked on 70 000-70 099.
    indep_set, blind_set, third_set, fourth_set, fifth_set, sixth_set = (
        [make(FRESH + i) for i in range(max(20, count // 2))]
        for make in (indep_scene_pair, blind_scene_pair, third_scene_pair, fourth_scene_pair, fifth_scene_pair,
                     sixth_scene_pair))
    sets: list[Sequence[_Pair]] = [main_set, alt_set, indep_set, blind_set, third_set, fourth_set, fifth_set, sixth_set]
    generated = sum(len(s) for s in sets)
    print(f"generated {generated} scenes in {time.perf_counter() - start:.0f} s")
    timing("main style", main_set[:20])
    timing("independent style", indep_set[:20])
    timing("second independent style", blind_set[:20])
    timing("third independent style", third_set[:20])
    timing("third independent style, OpenCV's default threads", third_set[:20], threads=default_threads)
    batch_timing("main and sixth styles", [*main_set[:10], *sixth_set[:10]], threads=default_threads)
    timing("fourth independent style", fourth_set[:20])
    timing("fifth independent style", fifth_set[:20])
    timing("sixth independent style (held out)", sixth_set[:20])
    accuracy("main style", main_set)
    accuracy("other style (overfitting check)", alt_set)
    accuracy("independent generator (never tuned on these seeds)", indep_set)
    accuracy("second independent generator (never tuned on these seeds)", blind_set)
    accuracy("third independent generator (never tuned on these seeds)", third_set)
    accuracy("fourth independent generator (never tuned on these seeds)", fourth_set)
    accuracy("fifth independent generator (never tuned on these seeds)", fifth_set)
    accuracy("sixth independent generator (held out: never trained or tuned on)", sixth_set)
    for across, most in ((7.0, 8), (32.0, 12)):
        accuracy(f"cubes 1/{across:.0f} of the yard wide (ours are 1/12 to 1/20)",
                 [scene_pair(45_000 + i, cubes_across=across, most=most) for i in range(20)])
    for exposure in (1.25, 1.4):
        accuracy(f"a brighter lamp at play, exposure {exposure} (ours are 0.6 to 1.15)",
                 [scene_pair(60_000 + i, play_exposure=exposure) for i in range(40)])
    accuracy("main style, nearly every cube touching another (touching 0.9; ours 0.35)",
             [scene_pair(70_000 + i, touching=0.9) for i in range(40)])
    accuracy("main style under a low lamp: cast shadows 1.5 to 5 cubes long (ours: contact shadows)",
             [scene_pair(75_000 + i, low_lamp=True) for i in range(40)])
    # Stress lines: where the reader is fragile outside what our generators vary.
    for gamma in (0.85, 1.18):
        accuracy(f"main style, play frame's tone curve changed (gamma {gamma}; our generators keep it)",
                 altered(main_set[:40], tone_curve(gamma)))
    accuracy("main style, play frame compressed again at JPEG quality 50 (ours: once, 60 to 95)",
             altered(main_set[:40], recompressed(50)))
    accuracy("main style, a lamp pool up to 60 % brighter on part of the yard at play (ours: smooth ramps)",
             altered(main_set[:40], lamp_pool_somewhere(7)))
    accuracy("main style, same 40 scenes unchanged (the stress lines' baseline)", main_set[:40])
    accuracy("independent style, play frame blurred 2 pixels more (out of focus; its markers are small)",
             altered(indep_set[:40], blurred(2.0)))
    accuracy("independent style, empty yard blurred 2 pixels (photographed out of focus)",
             altered(indep_set[:40], blurred(2.0), empty_yard=True))
    accuracy("independent style, same 40 scenes unchanged", indep_set[:40])
    hands("hand over the yard", [scene_pair(40_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (independent style)", [indep_scene_pair(60_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (second independent style)",
          [blind_scene_pair(60_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (third independent style)",
          [third_scene_pair(60_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (fourth independent style)",
          [fourth_scene_pair(60_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (fifth independent style)", [fifth_scene_pair(60_000 + i, hand=True) for i in range(20)])
    hands("hand over the yard (sixth independent style)", [sixth_scene_pair(60_000 + i, hand=True) for i in range(20)])


if __name__ == "__main__":
    main()
