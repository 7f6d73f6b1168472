"""The cube net: it marks the cubes of scenes it was not trained on, and nothing of an empty yard."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.cubenet import MODEL, CubeNet, ModelMissing
from hardware.stockyard.reader import CUBE_LOGIT
from tests.vision.cubenet_training.oracle import SURE, TrueMask, TrueRim, truth_on_canvas
from tests.vision.cubenet_training.scenes import GENERATORS, labelled_scene, true_scene

# Below every generator's training seeds (they start at GENERATORS[...][1]).
UNSEEN = {"main": 7, "alt": 8, "indep": 9, "blind": 11, "third": 12}
UNSEEN_BY_ALL = 13
TRAINED = Path(__file__).parent / "cubenet_training" / "cubenet.onnx"  # the net as trained, in floats


@pytest.fixture(scope="module")
def net() -> CubeNet:
    return CubeNet()


@pytest.mark.parametrize("generator", sorted(UNSEEN))
def test_the_net_marks_the_cubes_of_an_unseen_scene(net: CubeNet, generator: str) -> None:
    assert UNSEEN[generator] < GENERATORS[generator][1]
    scene = labelled_scene(generator, UNSEEN[generator])
    assert scene is not None and scene.cubes.any()
    now, empty = scene.now.astype(np.float32), scene.empty.astype(np.float32)
    marked = (net.logits(now, empty) > 0) & (scene.allowed > 0)
    truth = (scene.cubes > 0) & (scene.allowed > 0)
    groups, labels = cv2.connectedComponents(truth.astype(np.uint8))
    covered = [np.mean(marked[labels == g]) for g in range(1, groups)]
    assert min(covered) > 0.5, covered  # every group of touching cubes is found, most of each
    near = cv2.dilate(truth.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    assert np.count_nonzero(marked & ~near) < 0.2 * np.count_nonzero(truth)  # and little else


def test_an_empty_yard_is_no_cubes(net: CubeNet) -> None:
    scene = labelled_scene("indep", UNSEEN["indep"])
    assert scene is not None
    empty = scene.empty.astype(np.float32)
    assert np.mean(net.logits(empty, empty) > 0) < 0.002


def test_the_8_bit_net_answers_as_the_net_it_was_made_from(net: CubeNet) -> None:
    # The reader runs the trained net in 8 bits (quantise.py); quantising moves each logit a little, and a mask
    # cut at the reader's threshold by at most a few pixels on each cube's rim.
    trained = CubeNet(TRAINED)
    assert MODEL.read_bytes() != TRAINED.read_bytes()
    for generator in ("indep", "third"):
        scene = labelled_scene(generator, UNSEEN[generator])
        assert scene is not None
        now, empty, allowed = scene.now.astype(np.float32), scene.empty.astype(np.float32), scene.allowed > 0
        shipped, exact = net.logits(now, empty)[allowed], trained.logits(now, empty)[allowed]
        near = np.abs(exact - CUBE_LOGIT) < 3
        assert 0 < np.sqrt(np.mean((shipped - exact)[near] ** 2)) < 0.5
        differ = np.count_nonzero((shipped > CUBE_LOGIT) != (exact > CUBE_LOGIT))
        assert differ < 0.03 * np.count_nonzero(exact > CUBE_LOGIT)


def test_a_missing_model_says_so(tmp_path: Path) -> None:
    with pytest.raises(ModelMissing, match="cube net.*reinstall"):
        CubeNet(tmp_path / "nowhere.onnx")


def test_a_damaged_model_says_so_in_one_line(tmp_path: Path) -> None:
    damaged = tmp_path / "cubenet.onnx"
    damaged.write_bytes(MODEL.read_bytes()[:5000])  # a download or a copy cut short
    with pytest.raises(ModelMissing, match="cube net's model cannot be read.*reinstall") as err:
        CubeNet(damaged)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("generator", sorted(UNSEEN))
def test_each_cube_of_a_labelled_scene_has_its_middle(generator: str) -> None:
    make, _ = GENERATORS[generator]
    cubes = sum(make(UNSEEN[generator]).play.counts.values())
    scene = labelled_scene(generator, UNSEEN[generator])
    assert scene is not None and scene.centres is not None
    assert len(scene.centres) == cubes
    for x, y, seen in scene.centres:
        assert scene.cubes[round(float(y)), round(float(x))] == 1  # a middle lies on its cube
        assert seen > 8
    # touching cubes each have their own, apart by most of a side (about 20 canvas pixels here)
    xy = scene.centres[:, :2]
    apart = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1)) + np.eye(len(xy)) * 1e9
    assert apart.min() > 8


@pytest.mark.parametrize("generator", ["indep", "sixth"])
def test_a_scene_read_with_its_true_mask_in_the_nets_place(generator: str) -> None:
    # The oracle's measure (what a perfect net would read) rests on the truth lying where the reader looks.
    scene = true_scene(generator, UNSEEN_BY_ALL)
    assert scene is not None and scene.cubes.any()
    profile = build_profile(scene.pair.calibration)
    truth = truth_on_canvas(scene, profile)
    reading = YardReader(profile, TrueMask(truth)).read(scene.pair.play.image).reading
    assert reading.counts() == dict(scene.pair.play.counts)
    nothing = YardReader(profile, TrueMask(np.zeros_like(truth))).read(scene.pair.play.image).reading
    assert sum(nothing.counts().values()) == 0


class _Answer:
    """A cube net that always answers the same."""

    def __init__(self, logits: np.ndarray) -> None:
        self._logits = logits.astype(np.float32)

    def logits(self, colours: np.ndarray, empty: np.ndarray) -> np.ndarray:
        return self._logits


def test_the_truth_at_the_rim_takes_the_nets_place_near_its_edge_only() -> None:
    # The net's square is two pixels too wide each way: within two pixels of its edge the truth answers,
    # so the square shrinks to the true one; deeper inside and far outside, the net's own answer stays.
    truth = np.zeros((40, 40), np.uint8)
    truth[12:28, 12:28] = 1
    answer = np.full((40, 40), -3.0)
    answer[10:30, 10:30] = 3.0
    answer[35, 35] = -0.5  # unsure, but far from the net's edge
    empty = np.zeros((40, 40, 3), np.float32)
    near = TrueRim(truth, _Answer(answer), reach=2).logits(empty, empty)
    assert np.array_equal(near > 0, truth > 0)
    assert near[20, 20] == 3.0 and near[0, 0] == -3.0  # the net's, away from its edge
    assert near[10, 20] == near[11, 20] == -SURE and near[12, 20] == 3.0  # the net's edge rows, then its inside
    assert near[15, 35] == -3.0 and near[35, 35] == -0.5
    unsure = TrueRim(truth, _Answer(answer), unsure=1.0).logits(empty, empty)
    assert unsure[35, 35] == -SURE and np.count_nonzero(unsure != answer) == 1  # there alone
