"""What every screen shares: a name, a title, a reference to the app, and `update(view)`.

Screens are plain widgets swapped in a `Stage`, not Kivy Screens: a ScreenManager switches on the next
frame (through its transition machinery), while the table expects the new screen in the same frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout

from ui.widgets import metrics

if TYPE_CHECKING:
    from ui.app import TableApp


class BaseScreen(BoxLayout):
    screen_name = ""
    title = ""

    def __init__(self, app: TableApp, **kwargs: Any) -> None:
        m = metrics()
        super().__init__(orientation="vertical", spacing=m.gap, padding=m.gap, **kwargs)
        self.name = self.screen_name
        self.app = app
        self.body = self
        self._cache: dict[Any, Any] = {}
        self._used: dict[Any, Any] = {}
        self.build()

    def build(self) -> None:
        """Create the widgets that never change; `update` fills them from the session's view."""

    def update(self, view: dict[str, Any]) -> None:
        """Redraw from the session's view (called on the UI thread only)."""

    def cached(self, key: Any, build: Callable[[], Any]) -> Any:
        """The widget built for `key` in the previous update, or a new one.

        Creating Kivy labels is the slow part of a redraw (kv rules, text textures); most of a screen does
        not change between two taps, so a part whose content (the key) is unchanged is reused as it is.
        Call `sweep()` at the end of an update to forget the parts no longer shown.
        """
        widget = self._cache.get(key)
        if widget is None:
            widget = build()
        elif widget.parent is not None:
            widget.parent.remove_widget(widget)
        self._used[key] = widget
        return widget

    def sweep(self) -> None:
        self._cache, self._used = self._used, {}


class Stage(BoxLayout):
    """Shows one screen at a time; switching is immediate."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.current = ""

    def switch(self, screen: BaseScreen) -> None:
        if self.current == screen.name and screen.parent is self:
            return
        self.clear_widgets()
        self.add_widget(screen)
        self.current = screen.name
