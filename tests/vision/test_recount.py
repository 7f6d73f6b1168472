"""A count the counter doubts is counted again from a fuller and a thinner mask, and the median kept."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import hardware.stockyard.reader as reader
from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.count import Cube, CubeCount
from hardware.stockyard.reader import median_count
from tableassist.ports import YardReading
from tests.vision.scenes_fourth import fourth_scene_pair
from tests.vision.scenes_indep import indep_scene_pair
from tests.vision.scenes_third import third_scene_pair


def _counted(*kinds: str, unsure: str | None = None, mark: int = 0) -> tuple[CubeCount, np.ndarray]:
    cubes = [Cube(kind, (0.0, 0.0), np.zeros((0, 2), np.int32), 1.0) for kind in kinds]
    return CubeCount(cubes, unsure=unsure), np.full((2, 2), mark, np.uint8)


def test_the_count_at_every_colours_median_is_kept() -> None:
    first = _counted("iron", "iron", "iron", "coal", mark=1)
    fuller = _counted("iron", "iron", "coal", mark=2)
    thinner = _counted("iron", "iron", mark=3)
    count, mask = median_count([first, fuller, thinner])  # iron 3, 2, 2 and coal 1, 1, 0: 2 and 1
    assert count.counts() == {"iron": 2, "stone": 0, "coal": 1, "event": 0}
    assert mask[0, 0] == 2  # and the mask it was counted on, for the debug view


def test_without_a_count_at_the_median_of_every_colour_the_first_stands() -> None:
    first = _counted("iron", "coal", "coal", mark=1)
    second = _counted("iron", "iron", "coal", mark=2)
    third = _counted("iron", "iron", "iron", "coal", "coal", "coal", mark=3)  # medians iron 2, coal 2: none has both
    assert median_count([first, second, third])[1][0, 0] == 1


def test_an_unsure_count_is_not_the_one_kept() -> None:
    first = _counted("iron", "iron", "iron", mark=1)
    unsure = _counted("iron", "iron", unsure="something reaches into the stock yard", mark=2)
    sure = _counted("iron", "iron", mark=3)
    count, mask = median_count([first, unsure, sure])
    assert count.unsure is None and mask[0, 0] == 3


# Scenes of the independent generators whose first count is doubtful and one cube off; the median of the
# three counts is right (found on the six independent generators' cached seeds 50000-50099, 70000-70099 and
# 90000-90149).
DOUBTFUL_BELOW = reader.RECOUNT_BELOW
# (First 50094 was a case until the canvas widened to 352 pixels; first 50029 and third 50014 until the cube net
# averaged with its lamp-lit fine-tune; third 50040 until it ran in 8 bits: third 200009 from the seeds exact_scenes.py
# caches stands in.)
DOUBTFUL: list[tuple[Callable[[int], Any], int]] = [(indep_scene_pair, 70017), (third_scene_pair, 200009)]


def _scene(make: Callable[[int], Any], seed: int) -> tuple[dict[str, int], Callable[[], YardReading]]:
    """A generated scene's true counts, and a way to read it (again, once a test has changed a setting)."""
    pair = make(seed)
    yard_reader = YardReader(build_profile(pair.calibration))
    return dict(pair.play.counts), lambda: yard_reader.read(pair.play.image).reading


@pytest.mark.parametrize(("make", "seed"), DOUBTFUL)
def test_a_doubtful_count_is_mended_by_counting_again(make: Callable[[int], Any], seed: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    truth, read = _scene(make, seed)
    assert read().counts() == truth
    monkeypatch.setattr(reader, "RECOUNT_BELOW", 0.0)  # the premise: counted once, the count is wrong
    once = read()
    assert once.counts() != truth and once.confidence < DOUBTFUL_BELOW


# Scenes whose first count is doubtful and right, and counted the same from the fuller mask (found as DOUBTFUL's were;
# first 50006 and fourth 50028 were the cases until the canvas widened to 352 pixels).
STEADY: list[tuple[Callable[[int], Any], int]] = [(indep_scene_pair, 50012), (fourth_scene_pair, 50001)]


@pytest.mark.parametrize(("make", "seed"), STEADY)
def test_a_doubtful_count_a_fuller_mask_counts_the_same_is_not_shown_as_unsure(make: Callable[[int], Any], seed: int,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from tableassist.session.yard import MIN_CONFIDENCE

    truth, read = _scene(make, seed)
    reading = read()
    assert reading.counts() == truth and reading.confidence >= reader.STEADY_CONFIDENCE
    monkeypatch.setattr(reader, "STEADY_CONFIDENCE", 0.0)  # the premise: the count keeps its own confidence...
    assert read().confidence < MIN_CONFIDENCE  # ...which the session calls unsure
