"""The search that pins counter-rule tests to new scenes (tests/vision/cubenet_training/repin.py)."""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np
import pytest

from tests.vision.cubenet_training.repin import cached, seeds, shows_premise

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
