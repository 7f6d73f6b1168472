"""Reading the stock yard: one frame (`YardReader`), a steady stream (`Stabiliser`), a camera
(`CameraYardReader`, the session's `StockYardCamera`)."""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from statistics import median_low
from typing import Protocol

import cv2
import numpy as np
import numpy.ma  # noqa: F401  # numpy imports it on first use of np.unique and others: 15 ms of a first frame
from numpy.typing import NDArray

from hardware.stockyard.arm import ArmWatch
from hardware.stockyard.classify import KINDS
from hardware.stockyard.colour import FloatImage
from hardware.stockyard.count import ARM, UNSURE_CONFIDENCE, CubeCount, count_cubes
from hardware.stockyard.cubenet import CubeNet
from hardware.stockyard.cues import Cues
from hardware.stockyard.frame import MarkersMissing, PreparedFrame, prepare
from hardware.stockyard.geometry import marker_reach, yard_aspect
from hardware.stockyard.markers import sharpened
from hardware.stockyard.matching import (
    EmptyYard,
    as_empty_where_clipped,
    changed_light,
    luminance,
    match_gain,
    tone_change,
    undo_tone,
)
from hardware.stockyard.medians import median
from hardware.stockyard.memory import keep_freed_memory
from hardware.stockyard.profile import YardProfile, saturated, smooth
from tableassist.engine.components import load as load_components
from tableassist.ports import YardReading

# How many cubes of each kind the game has: a reading with more cannot be right.
IN_THE_BOX = {kind: int(load_components().raw["pieces"][kind]) for kind in KINDS}


def _with_counts(counts: dict[str, int], confidence: float, unsure: str | None = None) -> YardReading:
    return YardReading(iron=counts["iron"], stone=counts["stone"], coal=counts["coal"], event=counts["event"],
                       confidence=confidence, unsure=unsure)


class FrameSource(Protocol):
    """What the yard reader needs of a camera (hardware.camera's cameras all fit)."""

    def read(self) -> NDArray[np.uint8] | None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class Comparison:
    """A frame's colours and the empty yard's, alike in all but what lies on the yard now."""

    colours: FloatImage
    empty: EmptyYard
    allowed: NDArray[np.uint8]  # seen in both pictures, and not a marker


@dataclass(frozen=True)
class FrameReading:
    reading: YardReading
    count: CubeCount | None = None
    frame: PreparedFrame | None = None
    mask: NDArray[np.uint8] | None = None
    arm: NDArray[np.uint8] | None = None  # where something reaches in, when that made the reading unsure


# A pixel is a cube where the net is this sure (a logit of 0.7 is two to one). At even odds its masks are
# a little fuller at the cubes' rims, which the counter's footprints were not measured on: four scenes of
# the test suite's heaps and lone L-shapes went wrong by a cube; two still do (marked xfail, strict). With the
# wider cube net (2026-11-30), 2700 cached scenes: 2114 exact at 0.7, 2111 at 0.4, 2112 at 0.55, 2114 at 1.0.
# The same net in 8 bits (2026-12-01, see cubenet.py), two sets of 1200 fresh scenes of the six independent
# generators (exact_scenes.py, seeds 200 000 and 210 000): 1922 of the 2400 exact at 0.7, 1934 at 0.9, 1938 at 1.1;
# the net in floats 1936 at 0.7, 1953 at 0.9.
# Again on 2026-12-07, the three cached sets of exact_scenes.py (seeds 200 000, 210 000 and 220 000; 1799 scenes):
# 0.6, 0.7, 0.8, 0.9 and 1.1 read 1482, 1482, 1474, 1469 and 1469 exact, but shaken (--shake) 0.7 read 1471 against
# 0.9's 1489: the net's 8 bits move more scenes than the threshold does.
CUBE_LOGIT = 0.9
# Holes in the mask under (1/20 of the yard)² × 0.3 filled before counting (grey stones on grey print leave
# holes in a heap's mask), 2026-12-01: 1200 fresh scenes of the six independent generators 992 -> 988 exact (12
# gained, 16 lost), though 725 -> 690 cubes wrong: the counter's settings were chosen on the mask as it is.

# A count the counter doubts (its confidence under RECOUNT_BELOW: a heap's area between two numbers of cubes,
# a colour near a threshold) moves with a few pixels more or less at the cubes' rims. It is counted again
# from a fuller and a thinner mask, the net's answer at a looser and a stricter threshold, and the count
# that agrees with the three's median in every colour is kept (the first one's where none does). The six
# independent generators' 1500 cached scenes: 1089 -> 1111 exact (25 gained, 3 lost), a quarter of the frames
# recounted. Recounted under a confidence of 0.35, 0.55, 0.75 or always: 1109, 1118, 1119, 1121, each at the
# cost of one or two counts more on more frames (half of them from 0.55); always, from four thresholds
# (-0.5, 0, 1.5, 2.5): 1126 offline. Thresholds (-1, 2.5): 1107; (-0.5, 3.5): 1111. The most confident of the
# three counts instead of the median: 1071. With the wider cube net (2026-11-30), on 2700 cached scenes (seeds
# 50000-50099, 70000-70099, 80000-80099 and 90000-90149): 2114 exact at 0.2, 2120 at 0.35, 2123 at 0.5, 2130 at
# 0.75 and 2137 always, gaining on every range of seeds; but the bench's one-thread medians per generator went
# from 17-23 ms a frame to 20-27 at 0.75 and 22-28 always, with the slowest frames twice as slow. Kept at 0.2: the
# time it would take is the margin under the 30 ms bar, for under one scene in a hundred.
# Always, on 1200 fresh scenes (seeds 200000-200199, 2026-12-01): 992 -> 1000 exact (10 gained, 2 lost).
# On the three cached sets of exact_scenes.py (seeds 200 000, 210 000 and 220 000, 1799 scenes; 2026-12-07), under
# 0.2, 0.35, 0.5 and always: 1469, 1475, 1479 and 1490 exact (always: 23 gained, 2 lost; cubes wrong 877 -> 829), with
# 24 %, 35 %, 45 % and 96 % of the frames recounted: always is a second count or more on every frame, some 7 ms of a
# normal day's 20-30. A recount that kept the first count's cube size (side and footprint) instead of measuring its
# own was cheaper by the footprint's refit, but read 1462 as it is and 1465 always: the three counts' worth is that
# each measures the size afresh.
# Nor can a recount hide on the core the net leaves idle: the looser count on a second thread beside the first took
# the two 27.5 ms against 23.1 one after the other (145 frames of the first set): the counter is Python, and the GIL
# runs one thread at a time.
RECOUNT_BELOW = 0.2
RECOUNT_AT = (-0.5, 2.5)  # with the wider net, (-1, 2.5): 2109 of those 2700; (-0.5, 3.5): 2111
# A doubtful count that a fuller mask counts the same was right in 242 of 298 cached scenes (81 %; 2700 scenes of the
# six independent generators, seeds 50000-50099, 70000-70099, 80000-80099 and 90000-90149, wider net), as often as a
# first count of confidence 0.35-0.5 (82 %). Where it was left under 0.1 the session showed it as unsure and proposed
# nothing: 223 of those scenes, 176 of them read right. (Where the fuller mask counts otherwise: 45 of 184 right.)
STEADY_CONFIDENCE = 0.35
# ...and sure of it where the logit is 3 (20 to one): every cube of any size holds such a pixel but a
# few faint ones, and a blob smaller than a cube without one is not counted (count.WEAK_SHARE). 5 was chosen for
# the cube net's first training cycle; its second answers less loudly, and at 5 more of the blobs left out were
# cubes. From 5 to 3 with the second net: the 1500 cached scenes of the six independent generators 1141 -> 1148
# exact (9 gained, 2 lost), 600 fresh ones (seeds 70000-70099) 456 -> 458 (5 gained, 3 lost), the bench's 600
# (80000-80099) 447 -> 448 (3 gained, 2 lost). At 4: 1144 and 454; at 3.5: 1145 and 456; at 2.5: 1145; with no
# blob left out for it (count.WEAK_SHARE 0), 1146 of the 1500.
CUBE_SURE = 3.0


def median_count(counts: list[tuple[CubeCount, NDArray[np.uint8]]]) -> tuple[CubeCount, NDArray[np.uint8]]:
    """Of several counts of one frame (each with its mask), the first whose every colour is the counts'
    median, and sure; the first count where none is."""
    tallies = [count.counts() for count, _ in counts]
    middle = {kind: median_low(tally[kind] for tally in tallies) for kind in KINDS}
    for (count, mask), tally in zip(counts, tallies, strict=True):
        if count.unsure is None and tally == middle:
            return count, mask
    return counts[0]


def edge_of_view(valid: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The edge of what the camera sees on the canvas: an arm reaching in touches it, a cube on the yard
    does not."""
    seen = valid.copy()
    seen[:4, :], seen[-4:, :], seen[:, :4], seen[:, -4:] = 0, 0, 0, 0  # the canvas's own border counts
    inner = cv2.erode(seen, np.ones((9, 9), np.uint8))
    return np.asarray(cv2.bitwise_and(valid, cv2.bitwise_not(inner)), np.uint8)


_worker: ThreadPoolExecutor | None = None


def _net_worker() -> ThreadPoolExecutor:
    """Threads for the cube net, shared by every reader. Each reader reads one frame at a time; readers
    on several threads (a batch of images counted side by side) get a net thread each, up to one per core."""
    global _worker
    if _worker is None:
        _worker = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="cube-net")
    return _worker


def _forget_worker() -> None:
    global _worker
    _worker = None


# A forked child has none of its parent's threads: it must start its own worker, not wait on a dead one.
os.register_at_fork(after_in_child=_forget_worker)


class CubeFinder(Protocol):
    """What says which pixels of a canvas are cubes: the cube net, or (to measure what it costs) the truth."""

    def logits(self, colours: FloatImage, empty: FloatImage) -> NDArray[np.float32]: ...


class YardReader:
    """Counts cubes in single frames against one empty-yard profile."""

    def __init__(self, profile: YardProfile, cube_finder: CubeFinder | None = None) -> None:
        keep_freed_memory()  # a frame's arrays reused by the next, not mapped afresh: see memory.py
        self.profile = profile
        view = profile.view
        self._yard_area = float(view.width * view.height)
        self._empty = EmptyYard(profile.colours)
        self._matched_empty: dict[tuple[float, bool], EmptyYard] = {}  # see _empty_matched
        self._softer_lum: dict[float, NDArray[np.float32]] = {}
        self._cube_finder = cube_finder or CubeNet()
        self._arm_watch = ArmWatch()

    def read(self, image: NDArray[np.uint8]) -> FrameReading:
        view = self.profile.view
        try:
            frame = prepare(image, view)
        except MarkersMissing as err:
            return FrameReading(YardReading(confidence=0.0, unsure=str(err)))
        if frame.reference.contrast() < 25:
            return FrameReading(YardReading(confidence=0.0, unsure="too dark to read the stock yard"), frame=frame)
        # Markers moved on the board (or another board): the empty-yard profile no longer fits.
        if abs(yard_aspect(frame.sighting) / (view.width / view.height) - 1) > 0.12:
            return FrameReading(YardReading(confidence=0.0, unsure="the markers have moved since calibration: "
                                            "calibrate the empty stock yard again"), frame=frame)
        compared = self.compare(frame)
        colours = compared.colours
        # The whole canvas, not just the yard: an arm reaching in is told by where it enters the picture.
        # The net is a third of a frame's time and lets go of Python while it runs: what needs no mask is
        # worked out meanwhile, on another core.
        net = _net_worker().submit(self._cube_finder.logits, colours, compared.empty.colours)
        edge = edge_of_view(frame.valid)
        arm = self._arm_watch.region(colours, compared.empty.colours, compared.allowed, edge, self._yard_area)
        # Colours for classifying: this frame's own marker white, unless its paper clipped and the
        # calibration's did not; then the colours matched to the empty yard are the truer ones.
        matched = frame.reference.clipped and not self.profile.clipped
        truest = colours if matched else frame.colours
        if matched:
            # Except where this frame clipped: a clipped channel says "this bright or more", and divided
            # by a brighter lamp's gain it says less. A white cube clipped with the paper under a lamp
            # switched on at play read grey (bench, lamp pool at play: 100 fresh main scenes 68 -> 77
            # exact; the trained generators' 1800 cached and fresh scenes unchanged, fourth and fifth too).
            clipped = np.any(saturated(frame.canvas), axis=2, keepdims=True)
            truest = np.asarray(np.where(clipped, np.maximum(colours, frame.colours), colours), np.float32)
        cues = Cues.of(truest)  # for the counter, while the net still runs
        logits = net.result()
        sure = np.asarray(logits > CUBE_SURE, np.uint8)
        slack = 0.02 * view.width
        yard = (view.margin - slack, view.margin - slack, view.margin + view.width + slack,
                view.margin + view.height + slack)
        reach = marker_reach(frame.sighting, frame.to_canvas)

        def count_at(threshold: float, known_side: float | None = None) -> tuple[CubeCount, NDArray[np.uint8]]:
            """The cubes where the net's logit is over `threshold`, and that mask."""
            # 0 or 255 from the booleans' own bytes (np.where made a canvas of 64-bit integers first: 1.2 ms against
            # 0.06 on a 486×437 canvas alone; whole frames read the same, their time within noise of it).
            mask = ((logits > threshold) & (compared.allowed > 0)).view(np.uint8) * np.uint8(255)
            # The frame's own colours know nothing of a lamp over part of the yard; the matched ones were
            # divided by it.
            light = None if matched else changed_light(frame.colours, self._empty, compared.allowed, mask)
            # Markers may lie inside the yard's corners: the yard then reaches to their outer edges.
            count = count_cubes(mask, truest, frame.camera, edge, self._yard_area, float(view.width), yard,
                                IN_THE_BOX, reach, light, sure, compared.empty.print, compared.empty.colours,
                                known_side, cues)
            return count, mask

        count, mask = count_at(CUBE_LOGIT)
        if count.unsure is None and count.confidence < RECOUNT_BELOW:
            looser, stricter = RECOUNT_AT
            # Where no cube lies alone, the side comes from the heaps' one-colour patches; a looser mask's may be
            # too few to vote, and the heaps' widths alone then give one far too wide (a heap of 4 iron read 3 at
            # a 352-pixel canvas). The first count's side stands in (0 where nothing was counted).
            side = count.side or None
            counts = [(count, mask), count_at(looser, side)]
            # Where the fuller mask counts the same, two of the three agree: the thinner could not move the median
            # (half the frames recounted: a count saved). And the count does not hang on the cubes' rims: it is
            # as likely right as a count the counter itself is fairly sure of (see STEADY_CONFIDENCE).
            if counts[1][0].counts() == count.counts():
                count.confidence = max(count.confidence, STEADY_CONFIDENCE)
            else:
                counts.append(count_at(stricter, side))
                count, mask = median_count(counts)
        if count.unsure is None and arm is not None:
            count.unsure, count.confidence = ARM, min(count.confidence, UNSURE_CONFIDENCE)
        if count.unsure != ARM:
            arm = None  # unsure for another reason: the debug view shows no region that did not count
        reading = _with_counts(count.counts(), round(count.confidence, 3), count.unsure)
        return FrameReading(reading, count, frame, mask, arm)

    def compare(self, frame: PreparedFrame) -> Comparison:
        """This frame and the empty yard, made alike in gain and sharpness, where both are seen."""
        allowed = np.asarray(cv2.bitwise_and(cv2.bitwise_and(frame.valid, self.profile.valid),
                                             cv2.bitwise_not(frame.markers)), np.uint8)
        now_clipped, then_clipped = saturated(frame.canvas), self.profile.saturated
        unsaturated = ~now_clipped if then_clipped is None else ~(now_clipped | then_clipped)
        # A black level the markers misjudged first (see matching.TONE_FROM): the gain's cells would each take a
        # different share of it, by how dark their print is.
        smoothed = smooth(frame.colours)
        tone = tone_change(smoothed, self.profile.colours, allowed)
        if tone is not None:
            smoothed = undo_tone(smoothed, tone, self.profile.colours, frame.colours <= 0)
        colours = match_gain(smoothed, self.profile.colours, allowed, unsaturated=unsaturated)
        colours, empty = self._match_sharpness(colours, allowed)
        return Comparison(as_empty_where_clipped(colours, empty.colours, now_clipped, then_clipped), empty, allowed)

    def _match_sharpness(self, colours: FloatImage, allowed: NDArray[np.uint8]) -> tuple[FloatImage, EmptyYard]:
        """Blur whichever of the frame and the empty yard is sharper until the two agree best.

        A camera refocuses, and a photo of the empty yard may be soft where play is crisp (or the other
        way round): the board's fine print then differs everywhere and reads as cubes. Most of the yard
        is bare board, so the blur under which the median difference is least is the one that matches.
        One far softer than the other is sharpened instead (see SHARPEN_FROM).
        """
        step = 4  # a sixteenth of the pixels is plenty for a median
        ok = allowed[::step, ::step] > 0
        if np.count_nonzero(ok) < 100:
            return colours, self._empty
        lum_now = luminance(colours)

        def misfit(now: NDArray[np.float32], then: NDArray[np.float32]) -> float:
            return median(np.abs(now[::step, ::step][ok] - then[::step, ::step][ok]))

        def softer_then(sigma: float) -> NDArray[np.float32]:
            if sigma not in self._softer_lum:  # the empty yard's blurs are the same every frame: keep them
                self._softer_lum[sigma] = np.asarray(cv2.GaussianBlur(self._empty.lum, (0, 0), sigma), np.float32)
            return self._softer_lum[sigma]

        unblurred = misfit(lum_now, self._empty.lum)
        best, best_cost = (0.0, 0.0), unblurred
        # Blurring the sharper picture brings the two closer until it overshoots: blurring either one,
        # the misfit falls and then rises, so the first rise ends the search on that picture.
        for blur_now in (True, False):
            last = unblurred
            for sigma in BLURS:
                if blur_now:
                    cost = misfit(np.asarray(cv2.GaussianBlur(lum_now, (0, 0), sigma), np.float32), self._empty.lum)
                else:
                    cost = misfit(lum_now, softer_then(sigma))
                if cost < best_cost:
                    best, best_cost = ((sigma, 0.0) if blur_now else (0.0, sigma)), cost
                if cost > last:
                    break
                last = cost
        now_sigma, then_sigma = best
        # One picture far softer than the other: the softer one is sharpened rather than the sharper one blurred
        # (see SHARPEN_FROM).
        if then_sigma >= SHARPEN_FROM:
            return sharpened(colours, then_sigma), self._empty
        if now_sigma >= SHARPEN_FROM:
            return colours, self._empty_matched(now_sigma, sharpen=True)
        if now_sigma > 0:
            colours = np.asarray(cv2.GaussianBlur(colours, (0, 0), now_sigma), np.float32)
        if then_sigma > 0:
            return colours, self._empty_matched(then_sigma, sharpen=False)
        return colours, self._empty

    def _empty_matched(self, sigma: float, sharpen: bool) -> EmptyYard:
        """The empty yard blurred, or sharpened, by `sigma`: the same for every frame that asks, so kept."""
        key = (sigma, sharpen)
        if key not in self._matched_empty:
            colours = self.profile.colours
            self._matched_empty[key] = EmptyYard(sharpened(colours, sigma) if sharpen else
                                            np.asarray(cv2.GaussianBlur(colours, (0, 0), sigma), np.float32))
        return self._matched_empty[key]


BLURS = (0.6, 1.0, 1.5, 2.2)  # Gaussian sigmas tried, canvas pixels
# A picture this much softer than the other (the sigma that would blur the sharper one to match) is sharpened
# instead. The cube net learnt on pictures about as sharp as their empty yards, and two soft ones run its touching
# cubes together: the unsharp mask of that sigma brings their edges back. Measured (2026-11-29), exact counts:
# play frames blurred after calibrating by 2 pixels, the bench's 600 seeds of the six independent generators
# 396 -> 410, 400 cached indep and third scenes 305 -> 317; by 1.5 pixels, the fresh 600 (seeds 70 000-)
# 431 -> 442. Empty yards blurred 2 pixels, the fresh 600: 411 -> 438 (sharpening the empty yard in turn).
# Sharp, both turns: the 1500 cached 1124 -> 1128, the fresh 600 441 -> 444, the bench's 433 -> 435, main and
# alt 246 of 250 as before. Frames sharpened from 1.0: 411 and 443 blurred, sharp 1125, 441, 435; whenever the
# empty yard would be blurred: 411, and the sharp bench seeds 426. The mask adding 0.7 times the detail instead
# of once: 402 blurred; 1.5 times: 412, sharp 434.
SHARPEN_FROM = 1.5


class Stabiliser:
    """Passes a reading on only when `needed` consecutive frames agree and none of them was unsure."""

    def __init__(self, needed: int = 3) -> None:
        if needed < 1:
            raise ValueError("needed must be at least 1")
        self.needed = needed
        self._recent: deque[YardReading] = deque(maxlen=needed)

    def push(self, reading: YardReading) -> YardReading | None:
        self._recent.append(reading)
        if len(self._recent) < self.needed:
            return None
        first = self._recent[0]
        if any(r.unsure for r in self._recent) or any(r.counts() != first.counts() for r in self._recent):
            return None
        confidence = min(r.confidence for r in self._recent)
        return _with_counts(first.counts(), confidence=confidence)

    def reset(self) -> None:
        self._recent.clear()


class CameraYardReader:
    """The table session's stock-yard camera: frames until `steady` agree, or says why it is unsure."""

    def __init__(self, camera: FrameSource, profile: YardProfile, steady: int = 3, max_frames: int = 15) -> None:
        self.camera = camera
        self.reader = YardReader(profile)
        self.steady = steady
        self.max_frames = max(max_frames, steady)
        self._last: FrameReading | None = None

    def read_yard(self) -> YardReading:
        stabiliser = Stabiliser(self.steady)
        last: YardReading | None = None
        for _ in range(self.max_frames):
            image = self.camera.read()
            if image is None:
                return YardReading(confidence=0.0, unsure="the camera gave no picture")
            self._last = self.reader.read(image)
            last = self._last.reading
            steady = stabiliser.push(last)
            if steady is not None:
                return steady
        assert last is not None
        reason = last.unsure or "the count changed from frame to frame"
        return _with_counts(last.counts(), confidence=min(last.confidence, 0.3), unsure=reason)

    def debug_image(self) -> NDArray[np.uint8] | None:
        """The last frame read, warped, with each cube outlined in its class colour (BGR), for the
        diagnostics screen; None before the first frame or when its markers were not all found."""
        from hardware.stockyard.debug import debug_view  # debug draws FrameReadings: imported late, no cycle

        last = self._last
        return None if last is None else debug_view(last)

    def close(self) -> None:
        self.camera.close()
