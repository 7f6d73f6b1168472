"""An arm reaching in against a lamp or a shadow at the edge of the picture (hardware/stockyard/arm.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.arm import ArmWatch, covers_the_print, grain
from hardware.stockyard.count import ARM
from hardware.stockyard.reader import edge_of_view
from tests.vision.scenes import lamp_pool, scene_pair


def _printed_ground(rng: np.random.Generator, shape: tuple[int, int] = (120, 160)) -> np.ndarray:
    """Board colours (0 = marker black, 1 = paper white) with a print of blotches a few pixels across."""
    blotches = cv2.GaussianBlur(rng.uniform(0, 1, (*shape, 3)).astype(np.float32), (0, 0), 1.5)
    return np.asarray(0.25 + 1.5 * (blotches - blotches.mean()), np.float32).clip(0.05, 1.0)


def _region(shape: tuple[int, int]) -> np.ndarray:
    region = np.zeros(shape, bool)
    region[20:100, 30:130] = True
    return region


def test_a_lamp_over_printed_ground_leaves_the_print_showing() -> None:
    rng = np.random.default_rng(3)
    then = _printed_ground(rng)
    h, w = then.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    pool = 1 + 0.8 * np.exp(-((xx - 80) ** 2 + (yy - 60) ** 2) / (2 * 40.0 ** 2))  # up to 80 % brighter
    warm = np.array([0.8, 1.0, 1.2], np.float32)  # and warmer (BGR)
    now = np.asarray(then * pool[:, :, None] * warm + rng.normal(0, 0.01, then.shape), np.float32)
    assert not covers_the_print(grain(now), grain(then), _region((h, w)))


def test_a_plain_arm_over_printed_ground_covers_it() -> None:
    rng = np.random.default_rng(4)
    then = _printed_ground(rng)
    now = then.copy()
    region = _region(then.shape[:2])
    now[region] = np.array([0.35, 0.5, 0.7], np.float32) + rng.normal(0, 0.01, (int(region.sum()), 3))
    assert covers_the_print(grain(now), grain(then), region)


def test_plain_ground_tells_nothing_so_a_change_there_counts_as_covered() -> None:
    """Plain paper relit looks like plain skin laid on it: the safer guess is an arm."""
    then = np.full((120, 160, 3), 0.6, np.float32)
    now = then * 1.5
    assert covers_the_print(grain(now), grain(then), _region(then.shape[:2]))


def _arm_verdict(image: np.ndarray, calibration: np.ndarray) -> tuple[bool, str | None]:
    reader = YardReader(build_profile(calibration))
    seen = reader.read(image)
    assert seen.frame is not None
    compared = reader.compare(seen.frame)
    view = reader.profile.view
    region = ArmWatch().region(compared.colours, compared.empty.colours, compared.allowed,
                               edge_of_view(seen.frame.valid), float(view.width * view.height))
    return region is not None, seen.reading.unsure


def test_a_lamp_switched_on_at_the_side_of_the_table_is_no_arm(monkeypatch: pytest.MonkeyPatch) -> None:
    """Main scene 6003 with a lamp's pool, 60 % brighter, over the right of the picture: the change since
    calibration is large and comes in over the edge, as an arm's does, but the board's print shows through."""
    import hardware.stockyard.arm as arm

    pair = scene_pair(6003)
    h, w = pair.play.image.shape[:2]
    lit = lamp_pool(pair.play.image, (0.8 * w, 0.5 * h), 0.2 * w, 1.6)
    reaches, unsure = _arm_verdict(lit, pair.calibration)
    assert not reaches and unsure != ARM
    # Premise: without looking at the print, the pool reads as an arm.
    monkeypatch.setattr(arm, "COVERED", float("inf"))
    reaches, unsure = _arm_verdict(lit, pair.calibration)
    assert reaches and unsure == ARM


def test_the_debug_view_outlines_what_reaches_in() -> None:
    """Main scene 6001 with a hand: the reading is unsure, the region is where the arm comes in over the
    edge of the picture, and the debug view outlines it; without the hand there is no region and no outline."""
    from hardware.stockyard.debug import ARM_OUTLINE, debug_view

    outlined = []
    for hand in (False, True):
        pair = scene_pair(6001, hand=hand)
        seen = YardReader(build_profile(pair.calibration)).read(pair.play.image)
        assert seen.frame is not None
        assert (seen.arm is not None) == hand == (seen.reading.unsure == ARM)
        if seen.arm is not None:
            assert seen.arm.shape == seen.frame.valid.shape
            assert np.any((seen.arm > 0) & (edge_of_view(seen.frame.valid) > 0))  # it comes in over the edge
        view = debug_view(seen)
        assert view is not None
        outlined.append(int(np.count_nonzero(np.all(view == ARM_OUTLINE, axis=2))))
    assert outlined[0] == 0 and outlined[1] > 100


def test_the_empty_yards_grain_is_worked_out_once_per_empty_yard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Main scene 6003 under a lamp's pool at the side, read twice by one watch: the empty yard's grain is
    worked out for the first frame only, and each frame gets the verdict a new watch gives it. Against another
    empty yard the watch works out that one's grain afresh, not reusing the first."""
    import hardware.stockyard.arm as arm

    pair = scene_pair(6003)
    h, w = pair.play.image.shape[:2]
    lit = lamp_pool(pair.play.image, (0.8 * w, 0.5 * h), 0.2 * w, 1.6)
    reader = YardReader(build_profile(pair.calibration))
    seen = reader.read(lit)
    assert seen.frame is not None
    compared = reader.compare(seen.frame)
    view = reader.profile.view
    edge, area = edge_of_view(seen.frame.valid), float(view.width * view.height)
    grains: list[np.ndarray] = []

    def counted(colours: np.ndarray) -> np.ndarray:
        grains.append(colours)
        return grain(colours)

    monkeypatch.setattr(arm, "grain", counted)
    watch = ArmWatch()
    first = watch.region(compared.colours, compared.empty.colours, compared.allowed, edge, area)
    again = watch.region(compared.colours, compared.empty.colours, compared.allowed, edge, area)
    assert len(grains) == 3  # each frame's grain (the region was large enough to ask), and the empty yard's once
    fresh = ArmWatch().region(compared.colours, compared.empty.colours, compared.allowed, edge, area)
    assert first is None and again is None and fresh is None  # the lamp is no arm, every time
    # Another empty yard: the same picture as the frame (nothing changed, no region), then the first one again.
    grains.clear()
    plain = compared.colours.copy()
    assert watch.region(compared.colours, plain, compared.allowed, edge, area) is None
    assert watch.region(compared.colours, compared.empty.colours, compared.allowed, edge, area) is None
    assert len(grains) == 2  # the frame's, and the first empty yard's worked out again
