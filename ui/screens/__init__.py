"""The app's screens; `SCREENS` is the order they are created in."""

from __future__ import annotations

from ui.screens.calculator import CalculatorScreen
from ui.screens.end_of_round import EndOfRoundScreen
from ui.screens.final_scores import FinalScoresScreen
from ui.screens.menu import MenuScreen
from ui.screens.new_game import NewGameScreen
from ui.screens.overview import OverviewScreen
from ui.screens.placement import PlacementScreen
from ui.screens.reader import ReaderScreen
from ui.screens.resolution import ResolutionScreen
from ui.screens.settings import SettingsScreen

SCREENS = (NewGameScreen, PlacementScreen, ResolutionScreen, EndOfRoundScreen, FinalScoresScreen, OverviewScreen,
           CalculatorScreen, SettingsScreen, MenuScreen, ReaderScreen)
