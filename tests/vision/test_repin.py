"""The search that pins counter-rule tests to new scenes (tests/vision/cubenet_training/repin.py)."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile
from tests.vision.cubenet_training.repin import cached, seeds, shaken, shows_premise, shows_premise_steadily
from tests.vision.scenes import scene_pair

SETTING = types.SimpleNamespace(rule=True)


def test_seed_spans_and_single_seeds() -> None:
    assert seeds(["5-7", "9"]) == [5, 6, 7, 9]


def test_a_premise_is_the_test_passing_and_its_monkeypatch_is_undone() -> None:
    def pinned(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(SETTING, "rule", False)
        assert seed % 2 == 0

    assert shows_premise(pinned, {"seed": 4})
    assert not shows_premise(pinned, {"seed": 5})
    assert SETTING.rule is True


def test_a_seed_the_generator_gives_up_on_shows_nothing() -> None:
    def pinned(seed: int) -> None:
        raise RuntimeError(f"no markers in view for seed {seed}")

    assert not shows_premise(pinned, {"seed": 3})


def test_a_cached_scene_is_made_once_and_read_back_alike(tmp_path: Path) -> None:
    made: list[int] = []

    def make(seed: int) -> types.SimpleNamespace:
        made.append(seed)
        rng = np.random.default_rng(seed)
        image = rng.integers(0, 256, (6, 8, 3), dtype=np.uint8)
        play = types.SimpleNamespace(image=image, counts={"iron": seed, "stone": 1, "coal": 0, "event": 2})
        return types.SimpleNamespace(calibration=image[::-1].copy(), play=play)

    scene = cached(make, "fifth", tmp_path)
    first, again = scene(7), scene(7)
    assert made == [7]
    assert again.play.counts == {"iron": 7, "stone": 1, "coal": 0, "event": 2}
    assert np.array_equal(again.play.image, make(7).play.image)
    assert np.array_equal(first.calibration, again.calibration)


def test_a_steady_premise_holds_with_the_empty_yards_shaken_too() -> None:
    """--steady asks the test again with every yard reader reading against its profile rounded to half precision: a
    premise that a change of 0.05 % takes away is refused, one that stands is kept, and the readers are put back."""
    full = build_profile(scene_pair(0).calibration)

    def fragile(seed: int) -> None:  # holds only on the profile as built
        assert np.array_equal(YardReader(full).profile.colours, full.colours)

    def sturdy(seed: int) -> None:  # holds on either
        assert np.allclose(YardReader(full).profile.colours, full.colours, atol=1e-2)

    assert shows_premise(fragile, {"seed": 1}) and not shows_premise_steadily(fragile, {"seed": 1})
    assert shows_premise_steadily(sturdy, {"seed": 1})
    assert shows_premise(fragile, {"seed": 1})  # the readers read against the profile they are given again
    assert np.array_equal(shaken(full).colours, full.colours.astype(np.float16))
