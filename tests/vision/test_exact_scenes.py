"""The tool that counts how many cached scenes the reader reads exactly (tests/bench/exact_scenes.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile, reader
from tests.bench.exact_scenes import SceneReading, cache_scene, compare, read_all, setting, summary
from tests.vision.cubenet_training.repin import saved_scene, shaken
from tests.vision.scenes_indep import indep_scene_pair

NONE = {"iron": 0, "stone": 0, "coal": 0, "event": 0}


def test_a_setting_names_a_module_of_the_reader_and_a_literal() -> None:
    module, name, value = setting("reader.CUBE_LOGIT = 1.5")
    assert (module, name, value) == (reader, "CUBE_LOGIT", 1.5)
    assert setting("count.PRINT_LIKENESS={'coal': 0.4}")[2] == {"coal": 0.4}


@pytest.mark.parametrize(("assignment", "says"), [
    ("CUBE_LOGIT=1", "module.NAME=VALUE"),
    ("reader.CUBE_LOGIT", "module.NAME=VALUE"),
    ("reader.NO_SUCH_SETTING=1", "has no NO_SUCH_SETTING"),
    ("no_such_module.CUBE_LOGIT=1", "has no module no_such_module"),
    ("reader.CUBE_LOGIT=os.system('true')", "not a Python literal"),
])
def test_a_setting_written_wrong_is_refused_with_what_was_wrong(assignment: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        setting(assignment)


def test_the_summary_counts_exact_scenes_per_generator_and_the_cubes_wrong() -> None:
    readings: dict[str, SceneReading] = {
        "indep-1": {"want": {**NONE, "iron": 2}, "got": {**NONE, "iron": 2}, "unsure": None},
        "indep-2": {"want": {**NONE, "coal": 1}, "got": {**NONE, "coal": 3, "stone": 1}, "unsure": None},
        "fifth-1": {"want": {**NONE, "event": 1}, "got": None, "unsure": "no markers"},
    }
    lines = summary(readings).splitlines()
    assert lines[0].startswith("1 of 3 scenes exact (33.3 %), 4 cubes wrong")
    assert lines[1] == "fifth 0/1  indep 1/2"
    assert "coal too many 1" in lines[2] and "stone too many 1" in lines[2] and "event too few 1" in lines[2]


def test_comparing_two_readings_lists_the_scenes_gained_and_lost() -> None:
    right = {"want": NONE, "got": NONE, "unsure": None}
    wrong = {"want": NONE, "got": {**NONE, "iron": 1}, "unsure": None}
    before = {"a": right, "b": wrong, "c": wrong, "d": right}
    after = {"a": wrong, "b": right, "c": wrong, "e": right}  # d and e are not in both: left out
    assert compare(before, after) == (["b"], ["a"])


def test_a_cached_scene_reads_as_the_reader_reads_it_and_a_setting_reaches_the_readers(tmp_path: Path) -> None:
    path = cache_scene(tmp_path, "indep", 70_000)
    assert path is not None and cache_scene(tmp_path, "indep", 70_000) == path  # written once
    pair = indep_scene_pair(70_000)
    assert np.array_equal(saved_scene(path).play.image, pair.play.image)
    direct = YardReader(build_profile(pair.calibration)).read(pair.play.image).reading.counts()
    readings = read_all([path], processes=1)
    assert readings == {"indep-70000": {"want": pair.play.counts, "got": direct, "unsure": None}}
    assert sum(pair.play.counts.values()) > 0
    # No pixel is a cube at a logit of 99: nothing counted, in the reading process as here.
    assert read_all([path], ["reader.CUBE_LOGIT=99.0"], processes=1)["indep-70000"]["got"] == NONE
    assert reader.CUBE_LOGIT != 99.0


def test_a_shaken_reading_rounds_each_empty_yard_to_half_precision(tmp_path: Path) -> None:
    """--shake reads each scene against its empty yard rounded to half precision: a change no reader should answer,
    to see how many scenes it moves all the same. Indep 200128 is one it moves (a coal cube read as three)."""
    path = cache_scene(tmp_path, "indep", 200_128)
    assert path is not None
    pair = saved_scene(path)
    profile = build_profile(pair.calibration)
    steady = YardReader(profile).read(pair.play.image).reading.counts()
    shook = YardReader(shaken(profile)).read(pair.play.image).reading.counts()
    assert steady != shook  # the premise: the shake moves this scene
    assert read_all([path], processes=1, shake=True)["indep-200128"]["got"] == shook
    assert read_all([path], processes=1)["indep-200128"]["got"] == steady
