"""Labelled scenes for training the cube net: what the reader sees, and which of those pixels are cubes.

Four of the seven scene generators draw their cubes in one function. Wrapping that function and noting
which pixels it changed gives the truth without changing the generators (they are the test suite's
fixtures, five of them written blind to the reader); the later three blind ones hand their cube masks
over themselves. The reader then prepares the scene as it would to read it, and the two pictures it compares (the
frame's colours and the empty yard's, matched in gain and sharpness) are kept with the truth warped into
the same canvas.

Training seeds start at 100 000: no test, bench or evaluation set uses them.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

import hardware.yard_render as yard_render
import tests.vision.scenes_blind as blind
import tests.vision.scenes_fifth as fifth
import tests.vision.scenes_fourth as fourth
import tests.vision.scenes_indep as indep
import tests.vision.scenes_sixth as sixth
import tests.vision.scenes_third as third
from hardware.stockyard import YardReader, build_profile
from hardware.stockyard.frame import MarkersMissing, PreparedFrame, prepare
from tableassist.errors import UserError
from tests.vision.scenes import scene_pair
from tests.vision.scenes_alt import alt_scene_pair

GENERATORS: dict[str, tuple[Callable[[int], Any], int]] = {
    "main": (scene_pair, 100_000),
    "alt": (alt_scene_pair, 110_000),
    "indep": (indep.indep_scene_pair, 120_000),
    "blind": (blind.blind_scene_pair, 130_000),
    "third": (third.third_scene_pair, 140_000),
    "fourth": (fourth.fourth_scene_pair, 150_000),
    "fifth": (fifth.fifth_scene_pair, 160_000),
    "sixth": (sixth.sixth_scene_pair, 170_000),
    "lamp": (functools.partial(scene_pair, low_lamp=True), 180_000),  # the main generator's, lit from low down
    "crowd": (functools.partial(scene_pair, touching=0.9, most=20), 190_000),  # nearly every cube touching another
}


@dataclass(frozen=True)
class LabelledScene:
    now: NDArray[np.float16]  # the play picture's colours on the canvas, as the reader compares them
    empty: NDArray[np.float16]  # the empty yard's, matched to it
    allowed: NDArray[np.uint8]  # where the reader looks: the yard seen in both pictures, markers left out
    cubes: NDArray[np.uint8]  # 1 where a cube is seen
    # Each seen cube's middle (x, y) on the canvas and its seen pixels, N × 3; None where the generator
    # hands over only its cube mask (the fourth to sixth).
    centres: NDArray[np.float32] | None


def _painted_ids(shape: tuple[int, ...], hulls: list[NDArray[np.float64]]) -> NDArray[np.int32]:
    """Which cube (1, 2, …) each pixel shows, the outlines filled far to near as the generators paint."""
    ids = np.zeros(shape[:2], np.int32)
    for k, pts in enumerate(hulls, start=1):
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        cv2.fillConvexPoly(ids, hull, k, cv2.LINE_8, shift=4)
    return ids


def _changed(before: NDArray[Any], after: NDArray[Any]) -> NDArray[np.bool_]:
    return np.asarray(np.abs(after.astype(np.float32) - before.astype(np.float32)).max(axis=2) > 1e-6)


@contextlib.contextmanager
def _cube_pixels(found: dict[str, NDArray[Any]]) -> Iterator[None]:
    """While open, each generator's play shot leaves its cube pixels (frame coordinates) in found["cubes"]."""
    main_draw, indep_draw, blind_shoot = yard_render._draw_cubes, indep._draw_cube, blind._shoot
    third_draw = third._draw_cubes

    def main_cubes(frame: Any, scene: Any, centre: Any) -> None:
        before = frame.copy()
        main_draw(frame, scene, centre)
        found["cubes"] = _changed(before, frame)
        order = sorted(scene.cubes, key=lambda c: -float(np.hypot(c.x_mm - centre[0], c.y_mm - centre[1])))
        hulls = []
        for cube in order:  # as yard_render draws them
            a, half = np.radians(cube.angle_deg), scene.cube_mm / 2
            u, v = np.array([np.cos(a), np.sin(a)]) * half, np.array([-np.sin(a), np.cos(a)]) * half
            foot = [np.array([cube.x_mm, cube.y_mm]) + du + dv for du, dv in ((-u, -v), (u, -v), (u, v), (-u, v))]
            corners = [[x, y, z] for x, y in foot for z in (0.0, -scene.cube_mm)]
            hulls.append(yard_render.project(np.array(corners), scene))
        if hulls:  # the calibration shot has none
            found["ids"] = _painted_ids(frame.shape, hulls)

    def indep_cube(img: Any, view: Any, cube: Any, light: Any) -> None:
        before = img.copy()
        indep_draw(img, view, cube, light)
        drawn = _changed(before, img)
        found["cubes"] = found.get("cubes", np.zeros(img.shape[:2], bool)) | drawn
        ids = found.setdefault("ids", np.zeros(img.shape[:2], np.int32))
        ids[drawn] = int(ids.max()) + 1

    def third_cubes(img: Any, cubes: Any, cam: Any, sun: Any, grains: Any) -> Any:
        mask = third_draw(img, cubes, cam, sun, grains)
        order = sorted(cubes, key=lambda c: -float(np.linalg.norm(np.append(c.centre, -c.size / 2) - cam.C)))
        if order:
            found["ids"] = _painted_ids(img.shape, [cam.project(c.vertices()) for c in order])
        return mask

    def blind_shot(rng: Any, board: Any, cam: Any, light: Any, cubes: Any, optics: Any, hand: Any) -> Any:
        # The blind generator draws on a supersampled, undistorted canvas: its cube pixels take the
        # same lens distortion and downsampling as the picture (this mirrors blind._shoot).
        lit = cv2.multiply(board.albedo, blind._illumination(board, light, cubes))
        warp = blind._TO_CANVAS @ cam.plane_homography() @ board.tex_to_world
        canvas = cv2.warpPerspective(lit, warp, (blind._CANVAS_W, blind._CANVAS_H), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE)
        before = canvas.copy()
        blind._draw_cubes(rng, canvas, cubes, cam, light)
        drawn = _changed(before, canvas).astype(np.float32)
        order = sorted(cubes, key=lambda c: -float(np.hypot(c.x - cam.pos[0], c.y - cam.pos[1])))
        ids = _painted_ids(canvas.shape, [cam.to_undistorted(c.vertices()) * blind._SS + blind._TO_CANVAS[0, 2]
                                          for c in order])
        if hand is not None:
            blind._draw_hand(hand[0], canvas, cam, hand[1], light)
        map_x, map_y = cam.distortion_maps()
        frame = cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        frame = cv2.resize(frame, (blind.WIDTH, blind.HEIGHT), interpolation=cv2.INTER_AREA)
        if cubes:  # the calibration shot has none
            distorted = cv2.remap(drawn, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
            found["cubes"] = np.asarray(cv2.resize(distorted, (blind.WIDTH, blind.HEIGHT),
                                                   interpolation=cv2.INTER_AREA) > 0.5)
            seen = cv2.remap(ids, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
            found["ids"] = cv2.resize(seen, (blind.WIDTH, blind.HEIGHT), interpolation=cv2.INTER_NEAREST)
        return blind._develop(rng, frame, cam, light, optics)

    yard_render._draw_cubes, indep._draw_cube, blind._shoot = main_cubes, indep_cube, blind_shot  # type: ignore[assignment]
    third._draw_cubes = third_cubes
    try:
        yield
    finally:
        yard_render._draw_cubes, indep._draw_cube, blind._shoot = main_draw, indep_draw, blind_shoot
        third._draw_cubes = third_draw


@dataclass(frozen=True)
class TrueScene:
    """A generator's scene pair with the truth about its play picture, in the picture's own pixels."""

    pair: Any  # each generator's pair: .calibration, and .play with .image and .counts
    cubes: NDArray[np.bool_]  # where a cube is seen
    ids: NDArray[np.int32] | None  # which cube each pixel shows (1, 2, ...), where the generator's outlines are known


def true_scene(generator: str, seed: int) -> TrueScene | None:
    """One scene of `generator` and its truth, or None where the generator gives up on the seed."""
    make, _ = GENERATORS[generator]
    found: dict[str, NDArray[Any]] = {}
    with _cube_pixels(found):
        try:
            pair = make(seed)
        except RuntimeError:  # the fourth generator gives up on a seed whose markers it cannot show
            return None
    truth = found.get("cubes", getattr(pair.play, "cube_mask", None))
    if truth is None:
        truth = np.zeros(pair.play.image.shape[:2], bool)
    ids = None
    if generator in _PAINTED:  # a scene without cubes has no "ids"
        ids = found.get("ids", np.zeros(truth.shape, np.int32)).astype(np.int32)
    return TrueScene(pair, np.asarray(truth, bool), ids)


def on_canvas(truth: NDArray[Any], frame: PreparedFrame) -> NDArray[Any]:
    """A truth map of the play picture (a mask or cube ids), warped to the frame's canvas."""
    height, width = frame.valid.shape
    # No int32 warps, and nearest neighbours only: ids are names, not amounts.
    warped = cv2.warpPerspective(truth.astype(np.float32), frame.to_canvas, (width, height), flags=cv2.INTER_NEAREST)
    return warped.astype(truth.dtype)


def labelled_scene(generator: str, seed: int) -> LabelledScene | None:
    """One scene of `generator`, or None where the reader cannot read it (a marker out of view)."""
    scene = true_scene(generator, seed)
    if scene is None:
        return None
    try:
        reader = YardReader(build_profile(scene.pair.calibration))
        frame = prepare(scene.pair.play.image, reader.profile.view)
    except (MarkersMissing, UserError):  # the reader would refuse it too: nothing to learn from
        return None
    compared = reader.compare(frame)
    cubes = on_canvas(scene.cubes.astype(np.uint8), frame)
    centres = None
    if scene.ids is not None:
        ids = on_canvas(scene.ids, frame)
        ids[(cubes == 0) | (compared.allowed == 0)] = 0
        centres = _centres(ids)
    return LabelledScene(compared.colours.astype(np.float16), compared.empty.colours.astype(np.float16),
                         (compared.allowed > 0).astype(np.uint8), (cubes > 0).astype(np.uint8), centres)


# The generators whose cubes' outlines `_cube_pixels` knows.
_PAINTED = {"main", "lamp", "crowd", "alt", "indep", "blind", "third"}


def _centres(ids: NDArray[np.int32]) -> NDArray[np.float32]:
    """The middle of each cube's seen pixels, and how many there are."""
    rows = []
    for k in np.unique(ids[ids > 0]):
        ys, xs = np.nonzero(ids == k)
        rows.append((xs.mean(), ys.mean(), len(xs)))
    return np.array(rows, np.float32).reshape(-1, 3)
