"""Stock-yard camera calibration: the printable marker sheet and the empty-yard profile."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from hardware.stockyard.markers import CORNER_NAMES
from hardware.stockyard.profile import YardProfile, build_profile, save_profile
from hardware.yard_render import marker_image
from tableassist.errors import UserError

DPI = 300
A4_MM = (210.0, 297.0)
MARKER_MM = 25.0

INSTRUCTIONS = [
    "Stock-yard markers for the Table Assistant camera (ArUco DICT_4X4_50).",
    "Print at 100 % (no 'fit to page'); each black square should measure 25 mm.",
    "Cut out the four markers, keeping the white border around each one.",
    "Place them just outside the corners of the stock yard, flat and square to its edges:",
    "0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left (as seen by the players).",
    "Then photograph the empty stock yard and run: tableassist vision calibrate PHOTO --out DIR",
]


def _mm(value: float) -> int:
    return int(round(value / 25.4 * DPI))


def _font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size_px)
    except (OSError, TypeError):  # pragma: no cover - very old Pillow / no FreeType
        return ImageFont.load_default()


def marker_sheet() -> Image.Image:
    """An A4 page at 300 dpi: instructions and the four corner markers, each with its place named."""
    page = Image.new("L", (_mm(A4_MM[0]), _mm(A4_MM[1])), 255)
    draw = ImageDraw.Draw(page)
    text_font, label_font = _font(_mm(3.6)), _font(_mm(4.5))
    y = _mm(15)
    for line in INSTRUCTIONS:
        draw.text((_mm(15), y), line, fill=0, font=text_font)
        y += _mm(6)
    side = _mm(MARKER_MM)
    cell_w, cell_h = _mm(90), _mm(95)
    top = _mm(70)
    for index, marker_id in enumerate((0, 1, 3, 2)):  # laid out as they sit: TL TR / BL BR
        col, row = index % 2, index // 2
        x0 = _mm(15) + col * cell_w
        y0 = top + row * cell_h
        mx, my = x0 + (cell_w - side) // 2 - _mm(5), y0 + _mm(20)
        page.paste(Image.fromarray(marker_image(marker_id, side)), (mx, my))
        quiet = _mm(8)  # white border to keep when cutting
        draw.rectangle([mx - quiet, my - quiet, mx + side + quiet, my + side + quiet], outline=160, width=2)
        draw.text((mx - quiet, y0), f"{marker_id}: {CORNER_NAMES[marker_id]} corner", fill=0, font=label_font)
    return page


def write_marker_sheet(out: Path) -> list[Path]:
    """Writes both OUT.png and OUT.pdf (whichever suffix was given), true size at 300 dpi."""
    stem = out.with_suffix("") if out.suffix.lower() in (".png", ".pdf") else out
    if not stem.parent.is_dir():
        raise UserError(f"cannot write the marker sheet: folder {stem.parent} does not exist")
    sheet = marker_sheet()
    written = []
    for suffix in (".png", ".pdf"):
        target = stem.with_name(stem.name + suffix)
        try:
            if suffix == ".pdf":
                sheet.convert("RGB").save(target, "PDF", resolution=float(DPI))
            else:
                sheet.save(target, "PNG", dpi=(DPI, DPI))
        except OSError as err:
            raise UserError(f"cannot write {target}: {err.strerror or err}") from err
        written.append(target)
    return written


def read_image(path: Path) -> NDArray[np.uint8]:
    """An image file as BGR, or a UserError saying why it cannot be used."""
    if not path.is_file():
        raise UserError(f"{path}: no such image file")
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UserError(f"{path}: not an image OpenCV can read")
    return np.asarray(image, np.uint8)


def calibrate(empty_image: Path, out_dir: Path) -> YardProfile:
    profile = build_profile(read_image(empty_image))
    try:
        save_profile(profile, out_dir)
    except OSError as err:
        raise UserError(f"cannot write the calibration to {out_dir}: {err.strerror or err}") from err
    return profile
