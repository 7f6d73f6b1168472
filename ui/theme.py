"""Colours and sizes for a table read from a metre away in evening light.

Pure data (no Kivy import) so tests and the snapshot tool can check it without a window.
Sizes scale with the window height: the official 7" display is 800×480 (≈5.2 px/mm), the common
1024×600 panels are 7" too (≈6.6 px/mm), so a 9 mm touch target is ≈48 px and ≈60 px respectively.
"""

from __future__ import annotations

RGBA = tuple[float, float, float, float]


def hex_rgba(value: str, alpha: float = 1.0) -> RGBA:
    value = value.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return (r, g, b, alpha)


# A dark background: bright pieces and white text stand out under a warm lamp without glare.
BACKGROUND = hex_rgba("#161c26")
PANEL = hex_rgba("#232c3a")
PANEL_LIGHT = hex_rgba("#2f3a4c")
TEXT = hex_rgba("#f4f6fa")
TEXT_DIM = hex_rgba("#b8c2d2")
ACCENT = hex_rgba("#4fc3f7")  # the "do this now" colour: Confirm, the active step
CONFIRM = hex_rgba("#2e7d32")
DANGER = hex_rgba("#c62828")
WARNING = hex_rgba("#f9a825")
DISABLED = hex_rgba("#3a4250")
DISABLED_TEXT = hex_rgba("#8a94a6")

# The game's own player colours (ownership cubes and labourer pawns).
PLAYER_COLOURS: dict[str, RGBA] = {
    "yellow": hex_rgba("#ffd54f"),
    "blue": hex_rgba("#42a5f5"),
    "green": hex_rgba("#66bb6a"),
    "pink": hex_rgba("#f48fb1"),
    "purple": hex_rgba("#8e24aa"),
}

# Cubes and pieces as they look on the board. Coal and steel are black on the table; on a dark screen
# they get a light outline (see widgets.CubeChip) so they stay visible.
PIECE_COLOURS: dict[str, RGBA] = {
    "iron": hex_rgba("#ef6c00"),
    "stone": hex_rgba("#9e9e9e"),
    "coal": hex_rgba("#101010"),
    "event": hex_rgba("#ffffff"),
    "rubble": hex_rgba("#795548"),
    "steel": hex_rgba("#37474f"),
}

WEATHER_COLOURS: dict[str, RGBA] = {
    "sun": hex_rgba("#ffca28"),
    "rain": hex_rgba("#29b6f6"),
    "fog": hex_rgba("#bdbdbd"),
}


def text_on(background: RGBA) -> RGBA:
    """Black or white text, whichever contrasts more with the background (WCAG relative luminance)."""
    dark = (0.05, 0.05, 0.05, 1.0)
    return dark if contrast_ratio(dark, background) > contrast_ratio(TEXT, background) else TEXT


def luminance(colour: RGBA) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGBA, b: RGBA) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def player_colour(name: str) -> RGBA:
    return PLAYER_COLOURS.get(name, TEXT_DIM)


class Metrics:
    """Sizes in pixels for one window height; 480 px is the reference (the official 7" display)."""

    REFERENCE_HEIGHT = 480

    def __init__(self, window_height: float) -> None:
        self.scale = max(0.75, window_height / self.REFERENCE_HEIGHT)

    def px(self, value: float) -> float:
        return round(value * self.scale)

    @property
    def target(self) -> float:
        """Smallest touch target: 56 px at 480 high is ≈10.7 mm on the 7" display (bar: 9 mm)."""
        return self.px(56)

    @property
    def bar(self) -> float:
        return self.px(56)

    @property
    def gap(self) -> float:
        return self.px(6)

    @property
    def font_small(self) -> float:
        """The smallest text anywhere (≈3.6 mm cap height on the 7" display)."""
        return self.px(18)

    @property
    def font(self) -> float:
        return self.px(22)

    @property
    def font_large(self) -> float:
        return self.px(28)

    @property
    def font_huge(self) -> float:
        return self.px(40)
