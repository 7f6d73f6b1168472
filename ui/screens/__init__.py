"""The app's screens; `SCREENS` is the order they are created in."""

from __future__ import annotations

from ui.screens.calculator import CalculatorScreen
from ui.screens.menu import MenuScreen

SCREENS = (MenuScreen, CalculatorScreen)
