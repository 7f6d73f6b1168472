"""`tableassist vision` end to end through the real CLI, and the cameras feeding the yard reader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from hardware.camera import SimulatedCamera
from hardware.stockyard import CameraYardReader, build_profile
from hardware.yard_render import render_stock_yard
from tests.vision.conftest import plain_scene, shoot
from tests.vision.scenes import place


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", "vision", *args], capture_output=True, text=True)


def test_marker_sheet_is_png_and_pdf_at_true_size(tmp_path: Path) -> None:
    result = run_cli("markers", "--out", str(tmp_path / "sheet.pdf"))
    assert result.returncode == 0, result.stderr
    png, pdf = tmp_path / "sheet.png", tmp_path / "sheet.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    with Image.open(png) as sheet:
        dpi = sheet.info["dpi"]
        assert round(dpi[0]) == 300
        assert sheet.size == (2480, 3508)  # A4 at 300 dpi
    image = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    side_px = np.linalg.norm(corners[0][0][0] - corners[0][0][1])
    assert side_px / 300 * 25.4 == pytest.approx(25.0, abs=0.3)  # 25 mm printed


def test_calibrate_then_count_with_json_and_debug(tmp_path: Path) -> None:
    empty = plain_scene()
    cv2.imwrite(str(tmp_path / "empty.png"), shoot(empty))
    scene = plain_scene(tilt_deg=15.0)
    scene.cubes = place(scene, [("iron", 2, 2), ("iron", 6, 6), ("coal", 10, 3), ("event", 12, 7)], 25.0)
    cv2.imwrite(str(tmp_path / "play.jpg"), shoot(scene, seed=3))
    (tmp_path / "broken.jpg").write_bytes(b"not a picture")
    no_markers = np.full((720, 1280, 3), 128, np.uint8)
    cv2.imwrite(str(tmp_path / "blank.png"), no_markers)

    calibrated = run_cli("calibrate", str(tmp_path / "empty.png"), "--out", str(tmp_path / "cal"))
    assert calibrated.returncode == 0, calibrated.stderr
    assert (tmp_path / "cal" / "yard-profile.json").is_file()

    result = run_cli("count", str(tmp_path / "broken.jpg"), str(tmp_path / "play.jpg"), str(tmp_path / "blank.png"),
                     "--calibration", str(tmp_path / "cal"), "--json", "--debug", str(tmp_path / "debug"))
    assert result.returncode != 0  # two images failed...
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1  # ...but the good one was still counted
    record = json.loads(lines[0])
    assert record["image"].endswith("play.jpg")
    assert {k: record[k] for k in ("iron", "stone", "coal", "event")} == {"iron": 2, "stone": 0, "coal": 1, "event": 1}
    assert 0 < record["confidence"] <= 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == 2 and "Traceback" not in result.stderr
    assert "broken.jpg" in errors[0] and "blank.png" in errors[1] and "not visible" in errors[1]
    debug = list((tmp_path / "debug").glob("*.png"))
    assert len(debug) == 1 and cv2.imread(str(debug[0])) is not None


def test_count_without_calibration_is_one_clear_line(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "x.png"), np.zeros((10, 10, 3), np.uint8))
    result = run_cli("count", str(tmp_path / "x.png"), "--calibration", str(tmp_path / "nothing"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "calibrate" in result.stderr


def test_calibrate_needs_all_four_markers(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "blank.png"), np.full((480, 640, 3), 200, np.uint8))
    result = run_cli("calibrate", str(tmp_path / "blank.png"), "--out", str(tmp_path / "cal"))
    assert result.returncode == 2
    assert "four markers" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_simulated_camera_plays_files_and_loops(tmp_path: Path) -> None:
    frames = []
    for i in range(2):
        frame = np.full((4, 4, 3), 40 * (i + 1), np.uint8)
        cv2.imwrite(str(tmp_path / f"{i}.png"), frame)
        frames.append(tmp_path / f"{i}.png")
    camera = SimulatedCamera(frames)
    seen = [int(camera.read()[0, 0, 0]) for _ in range(3)]  # type: ignore[index]
    assert seen == [40, 80, 40]
    camera.close()
    assert camera.read() is None


def test_the_session_camera_waits_for_a_steady_view_while_the_camera_shakes() -> None:
    profile = build_profile(shoot(plain_scene()))
    layout = [("iron", 2, 2), ("stone", 6, 6), ("coal", 10, 3)]

    def frame(i: int) -> np.ndarray:
        # A camera knocked a little every frame; a hand over the yard in the first two.
        scene = plain_scene(tilt_deg=10.0 + (i % 3), roll_deg=5.0 + i, aim_mm=(i % 2 * 2.0, 1.0))
        scene.cubes = place(scene, layout, 15.0)
        image = shoot(scene, seed=i)
        if i < 2:
            from tests.vision.scenes import draw_hand
            draw_hand(image, (640.0, 360.0), np.random.default_rng(i), width_px=120.0)
        return image

    reader = CameraYardReader(SimulatedCamera(frame), profile, steady=3, max_frames=8)
    reading = reader.read_yard()
    assert reading.unsure is None
    assert reading.counts() == {"iron": 1, "stone": 1, "coal": 1, "event": 0}
    reader.close()


def test_product_renderer_frames_are_readable() -> None:
    """The demo's simulated camera frames carry four markers and the cubes asked for."""
    empty = render_stock_yard({}, seed=4)
    full = render_stock_yard({"iron": 3, "stone": 2, "coal": 1, "event": 1}, seed=4)
    reader = CameraYardReader(SimulatedCamera([full]), build_profile(empty), steady=2)
    assert reader.read_yard().counts() == {"iron": 3, "stone": 2, "coal": 1, "event": 1}


def test_a_missing_camera_is_a_clear_error() -> None:
    from hardware.camera import open_camera
    from tableassist.config import CameraSettings
    from tableassist.errors import UserError

    with pytest.raises(UserError, match="cannot be opened"):
        open_camera(CameraSettings(enabled=True, index=63))
    with pytest.raises(UserError, match="cannot be opened"):
        open_camera("/dev/no-such-video")


def test_count_without_json_is_one_readable_line_per_image(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "empty.png"), shoot(plain_scene()))
    scene = plain_scene()
    scene.cubes = place(scene, [("stone", 3, 3), ("event", 9, 5)])
    cv2.imwrite(str(tmp_path / "play.png"), shoot(scene))
    assert run_cli("calibrate", str(tmp_path / "empty.png"), "--out", str(tmp_path / "cal")).returncode == 0
    result = run_cli("count", str(tmp_path / "play.png"), "--calibration", str(tmp_path / "cal"))
    assert result.returncode == 0
    assert result.stdout.strip().startswith(f"{tmp_path / 'play.png'}: iron 0, stone 1, coal 0, event 1 (confidence")


def test_the_session_camera_shows_its_last_frame_with_the_cubes_outlined() -> None:
    from hardware.stockyard.classify import OUTLINE

    empty = render_stock_yard({}, seed=5)
    full = render_stock_yard({"iron": 2, "coal": 1}, seed=5)
    profile = build_profile(empty)
    reader = CameraYardReader(SimulatedCamera([full]), profile, steady=2)
    assert reader.debug_image() is None  # nothing read yet
    reader.read_yard()
    image = reader.debug_image()
    assert image is not None and image.dtype == np.uint8
    width, height = profile.view.size
    assert image.shape == (2 * height, 2 * width, 3)  # the warped yard, drawn at twice its size
    for kind in ("iron", "coal"):
        assert np.all(image == np.array(OUTLINE[kind], np.uint8), axis=2).sum() > 50, kind


def test_the_demo_camera_offers_the_same_debug_image() -> None:
    from tableassist.compose import RenderedYardCamera, SimulatedTable

    camera = RenderedYardCamera(SimulatedTable({"iron": 2, "stone": 1, "coal": 0}), seed=2)
    assert camera.debug_image() is None
    assert camera.read_yard().counts()["iron"] == 2
    image = camera.debug_image()
    assert image is not None and image.ndim == 3 and image.shape[2] == 3


def test_a_calibration_keeps_where_its_picture_saturated(tmp_path: Path) -> None:
    from hardware.stockyard.profile import PREVIEW_FILE, build_profile, load_profile, save_profile
    from tests.vision.scenes import scene_pair

    profile = build_profile(scene_pair(3).calibration)
    assert profile.saturated is not None and profile.saturated.any()  # the premise: the paper clipped
    save_profile(profile, tmp_path)
    loaded = load_profile(tmp_path)
    assert loaded.saturated is not None and np.array_equal(loaded.saturated, profile.saturated)
    # Without its picture the calibration still loads, with nothing known to have clipped.
    (tmp_path / PREVIEW_FILE).unlink()
    assert load_profile(tmp_path).saturated is None


def test_a_profile_reads_the_same_saved_and_loaded(tmp_path: Path) -> None:
    """The benches measure profiles built in memory; `vision count --calibration DIR` and the session load them
    from the file. The cube net's 8-bit layers tell even half precision from full, so the two must be the same."""
    from hardware.stockyard import YardReader
    from hardware.stockyard.profile import build_profile, load_profile, save_profile
    from tests.vision.scenes_fifth import fifth_scene_pair

    pair = fifth_scene_pair(3)
    built = build_profile(pair.calibration)
    save_profile(built, tmp_path)
    loaded = load_profile(tmp_path)
    assert np.array_equal(loaded.colours, built.colours)
    frame = pair.play.image
    assert YardReader(loaded).read(frame).reading == YardReader(built).read(frame).reading


def test_count_without_the_cube_nets_model_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from hardware.stockyard import cubenet, reader
    from tableassist.cli import main

    cv2.imwrite(str(tmp_path / "empty.png"), shoot(plain_scene()))
    assert run_cli("calibrate", str(tmp_path / "empty.png"), "--out", str(tmp_path / "cal")).returncode == 0
    monkeypatch.setattr(reader, "CubeNet", lambda: cubenet.CubeNet(tmp_path / "gone.onnx"))
    assert main(["vision", "count", str(tmp_path / "empty.png"), "--calibration", str(tmp_path / "cal")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "cube net" in err and "reinstall" in err


def test_the_demo_without_the_cube_nets_model_passes_counts_through_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.stockyard import cubenet, reader
    from tableassist.cli.demo import Demo
    from tableassist.compose import CountingCamera, RenderedYardCamera

    demo = Demo(str(tmp_path / "demo.sqlite3"), tmp_path, "en", screenshots=False)
    assert "stock-yard reader" in demo._attach_camera() and isinstance(demo.camera, RenderedYardCamera)
    demo = Demo(str(tmp_path / "demo2.sqlite3"), tmp_path, "en", screenshots=False)
    monkeypatch.setattr(reader, "CubeNet", lambda: cubenet.CubeNet(tmp_path / "gone.onnx"))
    said = demo._attach_camera()
    assert "counts passed through" in said and "reinstall" in said and isinstance(demo.camera, CountingCamera)


def test_the_session_camera_says_when_the_camera_gives_no_picture() -> None:
    profile = build_profile(shoot(plain_scene()))
    camera = CameraYardReader(SimulatedCamera([shoot(plain_scene())], loop=False), profile, steady=3)
    reading = camera.read_yard()
    assert reading.unsure == "the camera gave no picture"
    assert reading.counts() == {"iron": 0, "stone": 0, "coal": 0, "event": 0}
