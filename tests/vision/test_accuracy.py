"""End to end on generated scenes: calibrate on the empty yard, count a changed, nudged, re-lit yard.

The seeds here are not the ones the algorithm was developed on. The bars below sit a little under what
the reader reaches today, so a platform's rounding cannot fail them but a real step back does (see
tests/bench/bench_vision.py for the full numbers); the project's goal is 95 %, on scenes from a generator
that is not ours: the five independent ones (tests/vision/scenes_indep.py, scenes_blind.py,
scenes_third.py, scenes_fourth.py and scenes_fifth.py) are the honest measure of that, the fourth and
fifth most of all: the cube net never trained on their scenes, and nothing was tuned on them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.stockyard import YardReader, build_profile
from tests.vision.scenes import ScenePair, scene_pair
from tests.vision.scenes_alt import alt_scene_pair
from tests.vision.scenes_blind import BlindPair, blind_scene_pair
from tests.vision.scenes_fifth import FifthPair, fifth_scene_pair
from tests.vision.scenes_fourth import FourthPair, fourth_scene_pair
from tests.vision.scenes_indep import IndepPair, indep_scene_pair
from tests.vision.scenes_sixth import SixthPair, sixth_scene_pair
from tests.vision.scenes_third import ThirdPair, third_scene_pair

Pairs = (list[ScenePair] | list[IndepPair] | list[BlindPair] | list[ThirdPair] | list[FourthPair] | list[FifthPair]
         | list[SixthPair])


def exact_share(pairs: Pairs) -> float:
    right = 0
    for pair in pairs:
        reading = YardReader(build_profile(pair.calibration)).read(pair.play.image).reading
        right += reading.counts() == pair.play.counts
    return right / len(pairs)


@pytest.mark.slow
def test_exact_counts_on_generated_scenes() -> None:
    # 60 of 60 today (59 at 320 pixels; 53 before the cube net)
    assert exact_share([scene_pair(5000 + i) for i in range(60)]) >= 0.88


@pytest.mark.slow
def test_exact_counts_on_a_different_scene_style() -> None:
    # 30 of 30 today (29 at 320 pixels, 28 before the markers' paper was told from pale print beside it; 29 with the
    # narrower cube net shipped until 2026-11-30, 26 before the cube net)
    assert exact_share([alt_scene_pair(7000 + i) for i in range(30)]) >= 0.9


@pytest.mark.slow
@pytest.mark.parametrize(("cubes_across", "most", "bar"), [(7.0, 8, 0.6), (32.0, 12, 0.75)])
def test_cubes_far_larger_or_smaller_than_usual(cubes_across: float, most: int, bar: float) -> None:
    # Someone else's marker sheet may frame the yard tighter or wider than ours. With the cube size held to our boards'
    # range these were 0 and 5 of 16 right; 14 and 15 of 16 today (13 and 15 at 320 pixels, 15 and 15 with the narrower
    # cube net shipped until 2026-11-30, 12 and 15 before its second training cycle, 11 and 10 before the cube net, 11
    # and 15 with its first version: the U-Net reads the smallest cubes' rims a little thinner).
    pairs = [scene_pair(7100 + i, cubes_across=cubes_across, most=most) for i in range(16)]
    assert exact_share(pairs) >= bar


# Each style's hands, from its first seed on: the main style's are bare forearms the cube net leaves
# unmarked (hardware/stockyard/arm.py catches them), the others' carry sleeves and shadows.
HANDS: dict[str, tuple[Callable[..., Any], int]] = {
    "main": (scene_pair, 6000), "independent": (indep_scene_pair, 9500), "third independent": (third_scene_pair, 9500),
    "fourth independent": (fourth_scene_pair, 9500), "fifth independent": (fifth_scene_pair, 9500),
    "sixth independent": (sixth_scene_pair, 9500),
}


@pytest.mark.slow
@pytest.mark.parametrize("style", sorted(HANDS))
def test_hands_make_readings_unsure(style: str) -> None:
    make, first = HANDS[style]
    pairs = [make(first + i, hand=True) for i in range(12)]
    unsure = sum(YardReader(build_profile(p.calibration)).read(p.play.image).reading.unsure is not None for p in pairs)
    assert unsure >= 11


@pytest.mark.slow
def test_exact_counts_on_an_independent_generator() -> None:
    # Written from the issue text without sight of the reader: other artwork, yard grounds the colour of the cubes,
    # crowds of touching cubes, a soft calibration shot. Below the goal: 36 of 40 today (33 at 320 pixels, 31 before the
    # markers' paper was told from the pale print beside it, where its yards' corners went unseen; 32 with the narrower
    # net, 31 before its second training cycle, 21 before the cube net, 27 with its first, smaller version, 28 before it
    # trained on twice the scenes, thrice as long).
    assert exact_share([indep_scene_pair(9000 + i) for i in range(40)]) >= 0.7


@pytest.mark.slow
def test_exact_counts_on_a_second_independent_generator() -> None:
    # Also written without sight of the reader: long cast shadows from a low lamp, lens distortion. 37 of 40 today
    # (32 with the cube net's first version, which did worse on the other two independent generators).
    assert exact_share([blind_scene_pair(9000 + i) for i in range(40)]) >= 0.75


@pytest.mark.slow
# Seed 5 read one stone short until the cube net trained on twice the scenes, three times as long.
@pytest.mark.parametrize("seed", [5, 114])
def test_the_cast_shadows_of_a_low_lamp_are_no_stones(seed: int) -> None:
    """Second independent scenes 5 and 114: cubes on sand and on pale green ground under a low lamp,
    their shadows longer than they are. Read as a cube and a stone each, they gave 15 stones for 3
    and 6 for 1."""
    pair = blind_scene_pair(seed)
    assert YardReader(build_profile(pair.calibration)).read(pair.play.image).reading.counts() == pair.play.counts


# The generators of the scenes named below, by the names the tests give them.
NAMED: dict[str, Callable[[int], Any]] = {"first": indep_scene_pair, "second": blind_scene_pair,
                                         "third": third_scene_pair, "fourth": fourth_scene_pair,
                                         "fifth": fifth_scene_pair, "sixth": sixth_scene_pair,
                                         "lamp": functools.partial(scene_pair, low_lamp=True)}


def counted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """No count counted again (reader.RECOUNT_BELOW): a premise that switches a rule off shows what that rule
    alone does, and a doubtful count's recount may mend the same scene another way."""
    from hardware.stockyard import reader

    monkeypatch.setattr(reader, "RECOUNT_BELOW", 0.0)


def as_taken(image: np.ndarray) -> np.ndarray:
    return image


def out_of_focus(image: np.ndarray) -> np.ndarray:
    """A picture blurred 2 pixels: a camera that lost its focus."""
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 2.0), np.uint8)


Change = Callable[[np.ndarray], np.ndarray]  # what happened to a picture after the camera took it


def reads_right(style: str, seed: int, empty_yard: Change = as_taken,
                play: Change = as_taken) -> tuple[dict[str, int], Callable[[], dict[str, int]]]:
    """A named generator's scene (its empty yard's picture and its play frame changed so after the camera took
    them), asserted to read right: its true counts, and a way to read it again once a test has switched a rule
    off for its premise."""
    pair = NAMED[style](seed)
    reader = YardReader(build_profile(empty_yard(pair.calibration)))
    frame = play(pair.play.image)

    def counts() -> dict[str, int]:
        return reader.read(frame).reading.counts()

    assert counts() == pair.play.counts
    return pair.play.counts, counts


@pytest.mark.slow
# Third 160 was a fifth case until the seams weighed in: its heap of five now splits a side face seen
# between two columns of tops off as a sixth cube, its seams along the face's edges (one of 10 scenes the
# seams lost among 1253, against 32 gained).
@pytest.mark.parametrize(("style", "seed"), [("fifth", 200037), ("fourth", 200051), ("second", 80046)])
def test_heaps_of_five_hide_gaps_behind_their_sides(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Heaps of five and six under a tilted camera keep the gaps behind their cubes' sides in their area, as the big
    heaps do: taken off only from seven cubes on, each of these scenes read one cube too many (fifth 200037: 10 for 9,
    fourth 200051: 13 for 12, second 80046: 8 for 7; fifth 200051 until the black level was matched on the bare
    board, which read it right without the rule, and fourth 200029, its premise lost with its empty yard rounded to
    half precision (`repin --steady`), both 2026-12-02; fifth 50009 and fourth 50026 until the cube net ran in 8 bits,
    fifth 90081, fourth 50014 and second 60004 were cases until the canvas widened to 352 pixels, fourth 50075 and
    second 50059 until the cube net averaged with its lamp-lit fine-tune, second 90016 until the wider cube net)."""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "HEAP_FROM", 6.5)  # the premise: the heaps' areas as they were measured...
    monkeypatch.setattr(count, "SEAM_WEIGHT", 0.0)  # ...and no seams, which may catch the extra cube too
    counted_once(monkeypatch)  # ...counted once (a doubtful count's recount may mend it as well)
    assert sum(read_again().values()) == sum(truth.values()) + 1


@pytest.mark.slow
# Third 30004 was a fourth case until doubtful counts were counted again: its right count is doubtful, and the
# counts from a fuller and a thinner mask agree on a stone too many (one of 3 scenes lost among 1500, 25 gained).
@pytest.mark.parametrize(("style", "seed"), [("sixth", 50059), ("third", 200044), ("fifth", 50074)])
def test_seams_across_flat_tops_split_no_cube(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes whose heaps split into too many parts by area and outline alone (sixth 50059: 13 cubes for 7,
    third 200044: 11 for 10, fifth 50074: 17 for 13). The wrong splits' seams cut across flat tops, not along the
    edges between cubes. (Third 200009 was a case until 2026-12-02, its premise lost with its empty yard rounded to
    half precision: `repin --steady`; third 50036, 62 for 9, until the cube net ran in 8 bits; third 90027 until
    the cube net averaged with its lamp-lit fine-tune; with the narrower cube net, second 90140's cube size came out
    half the true one, 26 cubes for 13, sixth 20118's cubes each split from their long shadows, and sixth 90092's
    heaps into 9 cubes for 5; the wider net's masks no longer split them so.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "SEAM_WEIGHT", 0.0)  # the premise: without the seams, too many cubes...
    # ...where a footprint several lone cubes measured may be halved, as it could when the seams came in
    monkeypatch.setattr(count, "HALVING_MEASURED", 99)
    counted_once(monkeypatch)  # ...and counted once: a doubtful count's recount may mend it as well
    assert sum(read_again().values()) > sum(truth.values())


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fourth", 50079)])
def test_a_size_several_lone_cubes_measured_is_not_halved(style: str, seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Cubes seen from aside show a top and a side face, often unlike in shade: split in two they fit
    squares better than whole, the edge between the faces passing for a seam. Halved, fourth 50079 reads 21
    cubes for 20. With the narrower cube net, counted once, it read 23 and fifth 50026 12 for 7; with the
    wider one's tighter outlines no other scene of 2700 cached ones shows the rule. (Second 50074 was this case
    with the cube net's first training cycle: its four lone cubes, 367-453 pixels, measured 390, and the refit
    chose 219.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "HALVING_MEASURED", 99)  # the premise: halved...
    assert read_again() != truth  # ...and the scene reads wrong


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fifth", 50035), ("fourth", 210180), ("third", 200058), ("sixth", 90062)])
def test_the_lines_between_a_heaps_cubes_set_the_cube_size(style: str, seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes where no blob, or only one, looks like a lone cube, so the cube size was guessed from the blobs' widths
    (fourth 210180: 11 cubes for 7, fifth 50035: 10 for 5, third 200058: 14 for 12) or came out far larger than the true
    one (sixth 90062: 13 read as three; sixth 30012, measured on a fragment half a cube's size, was this case until
    count.AREA_SPREAD was widened). The lines between the heaps' cubes repeat one true cube apart. (Fourth 50025, 72 for
    20, and third 80057, 7 for 5, were cases until the cube net ran in 8 bits; fifth 50075, 20
    cubes read as 12, and fourth 80062 were cases until the canvas widened to 352 pixels; fifth 50035 and fourth 90033
    until the cube net averaged with its lamp-lit fine-tune; fifth 20034 and 90045 and fourth 90029 until the wider cube
    net; third 50075 until the markers' paper was told from pale print beside it, when it read right without the pitch
    too.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    # The premise: without the heaps' pitch, off by two cubes or more.
    monkeypatch.setattr(count, "_pitched_footprint", lambda *args: None)
    assert abs(sum(read_again().values()) - sum(truth.values())) >= 2


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fifth", 210165)])
def test_a_heaps_pitch_smaller_than_its_lone_looking_blobs_outweighs_them(style: str, seed: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes where pairs of cubes passed for lone ones (the fifth's two cubes side by side with their shadow make one
    square blob), so the cube size measured was twice the true one and every pair read as one cube, though the lines
    between the heaps' cubes repeat one true cube apart (fifth 210165: 2 cubes for 6, of the 400 fifth
    scenes of seeds 200 000-200 199 and 210 000-210 199 the one to show the rule with the cube net in 8 bits; fifth
    70068, 11 for 13, and 70078, 10 for 12, until then; fifth 50070 and sixth 50088 were cases until the canvas
    widened to 352 pixels, and no other sixth scene of 450 cached showed the rule since; fifth 90094 until the cube net
    averaged with its lamp-lit fine-tune, fifth 90067 and 90095 until the wider cube net)."""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    # The premise: the pitch weighed no more where it says the cubes are smaller, and counted once...
    monkeypatch.setattr(count, "PITCH_WEIGHT_SMALLER", count.PITCH_WEIGHT)
    counted_once(monkeypatch)
    assert sum(read_again().values()) <= sum(truth.values()) - 2  # ...cubes counted too few


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("third", 200111), ("fifth", 200198)])
def test_a_lone_looking_blob_narrower_than_the_rest_does_not_measure_the_size(style: str, seed: int,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """With the wider cube net's tighter outlines, a lone-looking blob narrower than the rest is more often a fragment
    than a whole cube seen from aside, and measuring the cube size on it shrinks the size: third 200111 reads right with
    the rule and a cube off without, fifth 200198 a cube off and two (fifth 200093, two and three, until 2026-12-02:
    with its empty yard rounded to half precision it no longer showed the rule; fifth 200198 still does, `repin
    --steady`). With the cube net in 8 bits the rule moves few scenes: of the 2400 of seeds 200 000-200 199 and
    210 000-210 199, six, five of them a cube better (third 200111, fifth 200093, 200143, 200198 and 210103) and one
    two cubes worse (fifth 200052, 3 cubes off against 1). Fifth 80056 and 80083, a cube off with the rule and three
    without, were the cases until then. Since the canvas widened to 352 pixels
    no scene of the six independent generators' 2700 cached ones and 900 never-seen ones is far off without it (fifth
    80008 read 20 cubes for 12 so until then, and fifth 90105 29 for 10, not 16), but 11 fewer cubes are wrong with it
    on the 2700 (1599 against 1610; 25 at 320 pixels), none more on any scene. With the narrower net the rule went the
    other way, count.LONE_NARROWEST 0.7: first 90134, fifth 50070 and sixth 70027 read wrong without their narrower lone
    cubes measuring."""
    from hardware.stockyard import count

    pair = NAMED[style](seed)
    reader = YardReader(build_profile(pair.calibration))

    def cubes_wrong() -> int:
        seen = reader.read(pair.play.image).reading.counts()
        return sum(abs(seen[kind] - pair.play.counts[kind]) for kind in seen)

    near = cubes_wrong()
    assert near <= 2
    monkeypatch.setattr(count, "LONE_NARROWEST", 0.7)  # the premise: narrower lone-looking blobs measure too...
    assert cubes_wrong() > near  # ...and the count is further off


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("third", 200058), ("third", 210147)])
def test_a_pitch_a_third_off_the_measured_size_speaks(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scenes whose heaps' pitch gives a cube size 1.35 to 1.5 times off the one the lone-looking blobs measured, and
    the pitch is right (third 200058: 14 cubes for 12 without it, third 210147: 14 for 15). Third 70039 and 90106 were
    the cases until the cube net ran in 8 bits, third 80049 and fourth 50076 until the canvas widened to 352 pixels (no
    fourth scene of 450 cached shows the rule since), fourth 90004 and 90005 and third 50065 until the wider cube net,
    whose outlines no longer put them there, and fourth 50048 until the cube net averaged with its lamp-lit
    fine-tune."""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "PITCH_FAR", 1.5)  # the premise: a pitch that close says nothing...
    assert read_again() != truth  # ...and the scene reads wrong


@pytest.mark.slow
def test_exact_counts_on_a_third_independent_generator() -> None:
    # Written without sight of the reader or the other generators: markers on paper squares off the yard's corners,
    # crowded rows and clusters of true 3D cubes, lamps brighter on the yard than on the markers. Far below the goal: 32
    # of 40 today (33 at 320 pixels, 32 before a stone's shaded side was told from coal, 31 with the narrower net, 34
    # before its second training cycle, 28 before the heaps' pitch). The cube net's first version, never trained on its
    # scenes, read 51 % of its first 200 seeds exactly; the narrower net 66 %.
    assert exact_share([third_scene_pair(9000 + i) for i in range(40)]) >= 0.6


@pytest.mark.slow
def test_exact_counts_on_a_fourth_independent_generator() -> None:
    # Written without sight of the reader, its tests or the other generators, and held out: the cube net never saw its
    # scenes and no setting was chosen by its scores alone (the heap threshold was measured on them too, and chosen on
    # the others'; the seams' weight and the heaps' pitch on totals over all eight generators). Ray-traced rounded cubes
    # under a close camera with lens distortion, cubes sorted into a printed yard's sections, a lighting story between
    # the two pictures. 35 of 40 today (32 with the narrower net, 28 before the heaps' seams counted); 154 of its first
    # 200 seeds before them (77 %).
    assert exact_share([fourth_scene_pair(9000 + i) for i in range(40)]) >= 0.55


@pytest.mark.slow
def test_exact_counts_on_a_fifth_independent_generator() -> None:
    # Written blind like the fourth, and held out like it: the whole board seen from 35-70 cm, so the yard fills a
    # quarter of the frame; 8 mm cubes, some resting on others; a Bayer sensor's demosaicing, denoising and sharpening;
    # lamps switched on or off between the two pictures. Farthest of all from the goal: 17 of 40 today (15 at 320
    # pixels, 14 before the markers' paper was told from pale print beside it, 15 until seed 9037's real iron cube was
    # taken for print seen through; on 900 fresh scenes of the six independent generators, seeds 60000-60049 and
    # 61000-61099, seeing the print through a part gained 7 and lost 1), 15 with the narrower net (13 before its second
    # training cycle, 10 before the heaps' pitch), 60 of its first 200 seeds (with the true cube mask 160: the net's
    # mask takes long lamp shadows for cubes).
    assert exact_share([fifth_scene_pair(9000 + i) for i in range(40)]) >= 0.15


@pytest.mark.slow
def test_exact_counts_on_a_sixth_independent_generator() -> None:
    # Written blind like the others, and held out: the cube net never saw its scenes, and only the seams' weight and the
    # heaps' pitch were chosen on totals that counted them (with all eight generators'). A 3D board under one to three
    # changes of light between the pictures (a lamp, the evening, a pool of light or shade), cubes an eighth to a sixth
    # of the yard wide, a 3D hand with its shadow. 35 of 40 today (34 before the markers' paper was told from pale print
    # beside it, 35 until seed 9019's coal cube was taken for print seen through; see the fifth's figures on fresh
    # scenes; 34 with the narrower net, 35 before its second training cycle, 31 before the heaps' seams counted, 34
    # before their pitch); 93 of its first 120 other seeds before the seams (78 %).
    assert exact_share([sixth_scene_pair(9000 + i) for i in range(40)]) >= 0.6


@pytest.mark.slow
# Third 50017 was a case (a letter of the printed "STOCK YARD", brought out by a lamp at play, read as a stone)
# until an empty yard far softer than its frame was sharpened rather than the frame blurred (reader.SHARPEN_FROM):
# the letter no longer reads as a cube even with this rule off.
@pytest.mark.parametrize(("style", "seed"), [("sixth", 70049)])
def test_a_blob_smaller_than_a_cube_the_net_is_unsure_of_is_no_cube(style: str, seed: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixth 70049 reads a stone too many without the rule: the net marked a scrap, but nowhere surely, and it is
    smaller than a cube. (Fifth 90096, an event too many, was a case until the cube net ran in 8 bits, and none of the
    400 fifth scenes of seeds 200 000-200 199 and 210 000-210 199 showed the rule with it; fifth 80090, a piece of an
    iron heap's shadow beside it read as coal, and sixth 70092, a dark scrap read as coal, were cases until the canvas
    widened to 352 pixels; fifth 90077, the end of two iron cubes' long shadow, until the cube net averaged with its
    lamp-lit fine-tune; second 90144, a grey piece of a low lamp's shadows, until the wider cube net; with the net's
    first training cycle, fourth 50023's sliver of a printed disc and sixth 90015's leftovers of shadows.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "WEAK_SHARE", 0.0)  # the premise: counted as cubes
    assert sum(read_again().values()) > sum(truth.values())


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fourth", 50028), ("fourth", 50001)])
def test_one_lamps_shadows_beside_their_cubes_are_no_coal(style: str, seed: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Fourth 50028 and 50001: a low lamp throws each cube's shadow the same way, and the net marks the shadows with
    their cubes. Split off from them, each read as a coal cube (50001: three too many; fourth 90097 was a case until the
    canvas widened to 352 pixels). The shadows keep the print's tint as well, which says the same since 2026-12-02: left
    out of the premise."""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "cast_shadows", lambda heaps, side: set())  # the premise: shadows counted...
    monkeypatch.setattr(count, "board_tint_shows", lambda cube, colours, empty, side: False)  # ...their tint unseen
    assert read_again()["coal"] >= truth["coal"] + 2


@pytest.mark.slow
def test_the_debug_view_outlines_what_was_taken_for_shadows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fourth 50028: the parts taken for a low lamp's shadows are not counted, and the debug view shows them
    (thinly, in a colour of their own), so a person sees why the dark parts beside the cubes are no coal."""
    from hardware.stockyard import count
    from hardware.stockyard.debug import SHADOW_OUTLINE, debug_view

    pair = NAMED["fourth"](50028)
    outlined = []
    for rule in (True, False):
        if not rule:
            monkeypatch.setattr(count, "cast_shadows", lambda heaps, side: set())
            monkeypatch.setattr(count, "PRINT_LIKENESS", {})  # nor by the print seen through them...
            monkeypatch.setattr(count, "board_tint_shows", lambda cube, colours, empty, side: False)  # ...or its tint
        seen = YardReader(build_profile(pair.calibration)).read(pair.play.image)
        assert seen.count is not None and bool(seen.count.shadows) == rule
        view = debug_view(seen)
        assert view is not None
        outlined.append(int(np.count_nonzero(np.all(view == SHADOW_OUTLINE, axis=2))))
    assert outlined[0] > 100 and outlined[1] == 0


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fifth", 50011)])
def test_a_lamps_shadow_is_known_beside_any_cube_of_its_heap(style: str, seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifth 50011 (sixth 80008 until the cube net ran in 8 bits, and none of the 400 sixth scenes of seeds 200 000-200
    199 and 210 000-210 199 showed the rule with it; sixth 50047 until the canvas widened to 352 pixels, sixth 70018
    until the cube net averaged with its lamp-lit fine-tune, fourth 90099 until the wider cube net): once the shadows
    beside the heaps' cubes show which way the lamp throws them, dark parts lying that way from any cube of their heap
    are shadows too, not only those the lamp's way was told by. Where only those are taken, a dark part or two is read
    as coal. (That any cube, not the nearest, is asked is pinned by test_counting's heaps.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "SHADOW_ALONG", 0.0)  # the premise: only the shadows the lamp's way was told by
    assert read_again()["coal"] > truth["coal"]


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed", "kind"), [("fourth", 50001, "coal"), ("fifth", 90139, "iron")])
def test_print_showing_through_a_part_is_no_cube(style: str, seed: int, kind: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Shadows too few to tell a lamp's way from chance: fourth 50001, a coal cube's own shadow in a heap of coal alone,
    and fifth 90139, beside its one event cube, read as iron. The net marks each with its cube and the split makes a
    cube of it (coal, iron), but the board's print shows through it, its fine texture the empty yard's: a shadow.
    (Fourth 60034 and 70076, the shadows of a heap of iron and of a heap of iron, stone and white, and fifth 90008, a
    heap of iron's shadow on warm brown print, were the cases until the canvas widened to 352 pixels; fourth 80051 and
    fifth 90135 until the cube net averaged with its lamp-lit fine-tune.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "PRINT_LIKENESS", {})  # the premise: no part is print
    assert read_again()[kind] > truth[kind]


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("sixth", 90111)])
def test_a_stones_shaded_side_split_off_is_no_coal(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixth 90111: a block of three stones and a coal cube in dim, warm light. A part of a stone, dark grey, read
    as coal, yet it is over half as bright as the stone beside it, which black paint never is. (Fourth 50006, a
    diagonal row of four stones under a tilted camera, the split cutting a stone's shaded sides off its lit top,
    was a case until the cube net averaged with its lamp-lit fine-tune; no scene of the other five independent
    generators' 3000 cached ones shows the rule with it.)"""
    from hardware.stockyard import count

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(count, "SHADED_STONE", 99.0)  # the premise: every dark part beside a stone stays coal
    seen = read_again()
    assert seen["coal"] > truth["coal"] and seen["stone"] < truth["stone"]


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fifth", 90054)])
def test_pale_yellow_is_no_iron(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's yellow print under a warm lamp, or in a cube's shadow, is warm and saturated enough to pass for iron,
    but yellow: green near red, where an iron top's red is well above its green. (Fifth 50068 was a case until the cube
    net ran in 8 bits, and none of the 400 fifth scenes of seeds 200 000-200 199 and 210 000-210 199 showed the rule
    with it; fifth 90013 and second 90051 until the wider cube net, with which of 2700 cached scenes only the fifth
    generator's lamps showed it; fifth 70053 until the cube net averaged with its lamp-lit fine-tune, fifth 50019 until
    the canvas widened to 352 pixels.)"""
    from hardware.stockyard import classify

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(classify, "YELLOW_GREEN", 99.0)  # the premise: read as iron
    assert read_again()["iron"] > truth["iron"]


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("fifth", 210035)])
def test_print_crushed_to_black_is_not_lifted_to_coal(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifth 210035: the markers' black read higher in play than at calibration, and the stock yard's dark green
    panels, crushed to black in red and blue in both pictures, were lifted to grey with the black level's error when
    it was undone: 18 coal cubes in a yard with none (matching.undo_tone keeps them an upper bound)."""
    from hardware.stockyard import matching, reader

    def lifting(colours: np.ndarray, tone: matching.Tone | None, empty: np.ndarray, crushed: np.ndarray) -> np.ndarray:
        return matching.undo_tone(colours, tone, empty, np.zeros_like(crushed))

    truth, read_again = reads_right(style, seed)
    monkeypatch.setattr(reader, "undo_tone", lifting)  # the premise: every crushed channel lifted with the rest
    assert read_again()["coal"] > truth["coal"] + 5


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("first", 50002), ("first", 50004)])
def test_a_camera_out_of_focus_keeps_the_markers_black(style: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first independent generator's scenes 50002 and 50004 out of focus. Its markers are small: their
    border cells greyed, the black measured there made every colour of the yard lighter than the empty
    yard's, and the print read as cubes. Since the black level is matched on the bare board as well (2026-12-02,
    matching.tone_change), that mends 50002 too: the premise takes both away."""
    from hardware.stockyard import colour, matching

    truth, read_again = reads_right(style, seed, play=out_of_focus)
    monkeypatch.setattr(colour, "BLUR_SHOWS", float("inf"))  # the premise: the border's middles give the black...
    monkeypatch.setattr(matching, "TONE_FROM", float("inf"))  # ...and nothing else mends it
    assert read_again() != truth


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("third", 200000), ("third", 200008)])
def test_a_frame_far_softer_than_the_empty_yard_is_sharpened(style: str, seed: int,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Third 200000 and 200008 out of focus: with the empty yard blurred to match the frame instead, the cube net saw
    two soft pictures and read wrong (200000: a stone short, 200008: an iron too many). (Third 50020 and 50028 were
    cases until the cube net ran in 8 bits, third 50012, an iron cube found in an empty yard's print, was a case until
    the canvas widened to 352 pixels, third 90014 and 50032 until the cube net averaged with its lamp-lit fine-tune,
    third 50005 until the wider cube net, third 90011 until a stone's shaded side was told from coal.)"""
    from hardware.stockyard import reader

    truth, read_again = reads_right(style, seed, play=out_of_focus)
    monkeypatch.setattr(reader, "SHARPEN_FROM", float("inf"))  # the premise: the empty yard blurred, as ever
    assert read_again() != truth


@pytest.mark.slow
@pytest.mark.parametrize(("style", "seed"), [("first", 200018), ("third", 50008)])
def test_an_empty_yard_far_softer_than_the_frame_is_sharpened(style: str, seed: int,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """First 200018 and third 50008, their empty yards photographed out of focus: with the frame blurred to match
    instead, the cube net saw two soft pictures and lost coal cubes. (First 50075 was a case until the cube net ran in 8
    bits, third 50016 a case until the canvas widened to 352 pixels, third 50011 until the cube net averaged with its
    lamp-lit fine-tune, third 50031 until the wider cube net.)"""
    from hardware.stockyard import reader

    truth, read_again = reads_right(style, seed, empty_yard=out_of_focus)
    monkeypatch.setattr(reader, "SHARPEN_FROM", float("inf"))  # the premise: the frame blurred, as ever
    assert read_again() != truth


@pytest.mark.slow
def test_a_black_level_the_markers_misjudged_is_matched_on_the_bare_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifth 210021: its play frame's black level a tenth of the white below its empty yard's, its dark print
    crushed to black. Matched by a gain alone, it read 24 cubes off (13 stones and 9 coal too many: whole panels of
    dark print)."""
    from hardware.stockyard import matching

    truth, read_again = reads_right("fifth", 210021)
    monkeypatch.setattr(matching, "TONE_FROM", float("inf"))  # the premise: no black level matched
    got = read_again()
    assert sum(abs(got[kind] - truth[kind]) for kind in truth) >= 10
