"""`tableassist vision`: stock-yard camera: marker sheet, calibration, cube counts."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tableassist.errors import UserError

if TYPE_CHECKING:
    from hardware.stockyard import YardReader


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "vision", parents=[common], help="stock-yard camera: marker sheet, calibration, cube counts"
    )
    actions = parser.add_subparsers(dest="vision_command", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    markers = actions.add_parser("markers", parents=[common], help="write the printable marker sheet (PNG and PDF)")
    markers.add_argument("--out", required=True, type=Path, metavar="FILE",
                         help="where to write; both FILE.png and FILE.pdf are written")
    calibrate = actions.add_parser("calibrate", parents=[common],
                                   help="build the empty-yard profile from a photo of the empty stock yard")
    calibrate.add_argument("image", type=Path, metavar="EMPTY_IMAGE")
    calibrate.add_argument("--out", required=True, type=Path, metavar="DIR")
    count = actions.add_parser("count", parents=[common], help="count the cubes on the stock yard in images")
    count.add_argument("images", nargs="+", type=Path, metavar="IMAGE")
    count.add_argument("--calibration", required=True, type=Path, metavar="DIR")
    count.add_argument("--json", action="store_true", help="one JSON object per image and line")
    count.add_argument("--debug", type=Path, metavar="DIR",
                       help="write the warped yard with each cube outlined in its class colour, one PNG per image")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    if args.vision_command == "markers":
        from calibration.vision import write_marker_sheet

        for path in write_marker_sheet(args.out):
            print(path)
        return 0
    if args.vision_command == "calibrate":
        from calibration.vision import calibrate

        profile = calibrate(args.image, args.out)
        print(f"stock-yard profile written to {args.out} ({profile.view.width}×{profile.view.height} view)")
        return 0
    return _count(args)


def _count(args: argparse.Namespace) -> int:
    from hardware.stockyard import load_profile, read_in_processes

    profile = load_profile(args.calibration)
    if args.debug is not None:
        try:
            args.debug.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UserError(f"cannot create the debug folder {args.debug}: {err.strerror or err}") from err
    failed = 0
    # One process per core, no more than there are images; no cube net: one line (ModelMissing).
    jobs = [(index, path, args.debug) for index, path in enumerate(args.images)]
    for record, error in read_in_processes(profile, _count_image, jobs, min(len(jobs), os.cpu_count() or 1)):
        if record is None:
            print(f"tableassist vision: {error}", file=sys.stderr)
            failed += 1
        elif args.json:
            print(json.dumps(record), flush=True)
        else:
            counts = ", ".join(f"{kind} {record[kind]}" for kind in ("iron", "stone", "coal", "event"))
            note = f"; unsure: {record['unsure']}" if "unsure" in record else ""
            print(f"{record['image']}: {counts} (confidence {record['confidence']:.2f}{note})", flush=True)
    return 1 if failed else 0


def _count_image(reader: YardReader, job: tuple[int, Path, Path | None]) -> tuple[dict[str, Any] | None, str | None]:
    """One image's record, or None and why it could not be read. `job`: the image's place in the batch, its
    path and the debug folder (one tuple: it goes to another process)."""
    import cv2

    from calibration.vision import read_image
    from hardware.stockyard.debug import debug_view

    index, path, debug = job

    try:
        image = read_image(path)
    except UserError as err:
        return None, str(err)
    result = reader.read(image)
    reading = result.reading
    if result.frame is None:  # not all four markers: no geometry, so no count at all
        return None, f"{path}: {reading.unsure}"
    record: dict[str, Any] = {"image": str(path), **reading.counts(), "confidence": reading.confidence}
    if reading.unsure:
        record["unsure"] = reading.unsure
    if debug is not None:
        view = debug_view(result)
        if view is not None:
            cv2.imwrite(str(debug / f"{index:03d}-{path.stem}.png"), view)
    return record, None
