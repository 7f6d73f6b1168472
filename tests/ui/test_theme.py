"""Legibility from a metre away in evening light: contrast and sizes, checked on the theme's own numbers."""

from __future__ import annotations

import math

import pytest

from ui import theme

# The official 7" display is 800×480 and the common 1024×600 panels are 7" too: pixels per millimetre
# from the diagonal (7 × 25.4 mm).
PANELS = {(800, 480): 7.0, (1024, 600): 7.0}


def px_per_mm(size: tuple[int, int], inches: float) -> float:
    return math.hypot(*size) / (inches * 25.4)


@pytest.mark.parametrize("size", list(PANELS))
def test_touch_targets_are_at_least_9_mm(size: tuple[int, int]) -> None:
    m = theme.Metrics(size[1])
    assert m.target / px_per_mm(size, PANELS[size]) >= 9.0


@pytest.mark.parametrize("size", list(PANELS))
def test_the_smallest_text_is_at_least_3_mm_high(size: tuple[int, int]) -> None:
    # 3 mm em height ≈ the size of print a person reads at a metre without effort (about 0.17° per mm).
    m = theme.Metrics(size[1])
    assert m.font_small / px_per_mm(size, PANELS[size]) >= 3.0


@pytest.mark.parametrize("name", sorted(theme.PLAYER_COLOURS))
def test_text_on_player_colours_has_strong_contrast(name: str) -> None:
    colour = theme.PLAYER_COLOURS[name]
    assert theme.contrast_ratio(theme.text_on(colour), colour) >= 4.5


@pytest.mark.parametrize("name", sorted(theme.PIECE_COLOURS))
def test_text_on_cube_colours_has_strong_contrast(name: str) -> None:
    colour = theme.PIECE_COLOURS[name]
    assert theme.contrast_ratio(theme.text_on(colour), colour) >= 4.5


def test_body_text_on_the_background_meets_wcag_aaa() -> None:
    assert theme.contrast_ratio(theme.TEXT, theme.BACKGROUND) >= 7.0
    assert theme.contrast_ratio(theme.TEXT, theme.PANEL) >= 7.0
    assert theme.contrast_ratio(theme.TEXT_DIM, theme.BACKGROUND) >= 4.5


def test_contrast_ratio_matches_the_wcag_extremes() -> None:
    black, white = (0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0, 1.0)
    assert theme.contrast_ratio(black, white) == pytest.approx(21.0)
    assert theme.contrast_ratio(white, white) == pytest.approx(1.0)


def test_player_colours_are_the_games_five() -> None:
    assert sorted(theme.PLAYER_COLOURS) == sorted(["yellow", "blue", "green", "pink", "purple"])
