"""Drive the real app frame by frame without `App.run()`: for the tests, the snapshot tool and the bench.

Kivy's App can run only once per process and `run()` blocks; here the app's widget tree is put on the
window and frames are pumped by hand (`EventLoop.idle()`: clock, input, layout, drawing), so a caller
can tap real buttons with real touch events, wait for the screen to settle and save it as a PNG.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.input.motionevent import MotionEvent
from kivy.uix.scrollview import ScrollView

from ui.app import TableApp


class _Touch(MotionEvent):
    """A single finger, as the touchscreen's input provider would post it."""

    def __init__(self, x: float, y: float, width: float, height: float) -> None:
        self._window_size = (width, height)
        super().__init__("ui-driver", id(self), {"x": x / (width - 1.0), "y": y / (height - 1.0)},
                         is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)


class Harness:
    def __init__(self, app: TableApp) -> None:
        EventLoop.ensure_window()
        self.window = EventLoop.window
        self.app = app
        app.root = app.build()
        self.window.add_widget(app.root)
        app.dispatch("on_start")
        self.pump(3)  # the app's first frame: it tells systemd it is up and takes over garbage collection

    def pump(self, frames: int = 2) -> None:
        for _ in range(frames):
            EventLoop.idle()

    def tap(self, widget: Any, frames: int = 2) -> None:
        """Press and release a finger on the widget's centre (posted through Kivy's input queue)."""
        self.pump(1)  # let a screen just switched to lay itself out: a finger presses what is drawn
        if widget.get_root_window() is None:
            raise AssertionError(f"{widget!r} is not on the screen")
        x, y = widget.to_window(*widget.center)
        self._check_reachable(widget, x, y)
        touch = _Touch(x, y, self.window.width, self.window.height)
        EventLoop.post_dispatch_input("begin", touch)
        self.pump(1)
        EventLoop.post_dispatch_input("end", touch)
        self.pump(frames)

    def _check_reachable(self, widget: Any, x: float, y: float) -> None:
        """A finger can only press what is on the screen: inside the window and every scrolling viewport."""
        if not (0 <= x < self.window.width and 0 <= y < self.window.height):
            raise AssertionError(f"{widget!r} is outside the window at {(x, y)}")
        parent = widget.parent
        while parent is not None and parent is not self.window:
            if isinstance(parent, ScrollView):
                left, bottom = parent.to_window(parent.x, parent.y)
                right, top = parent.to_window(parent.right, parent.top)
                if left <= x <= right and bottom <= y <= top:
                    parent = parent.parent
                    continue
                raise AssertionError(f"{getattr(widget, 'text', widget)!r} is scrolled out of view")
            parent = parent.parent

    def resize(self, size: tuple[int, int]) -> None:
        """A different panel: resize the window and rebuild every widget for its metrics."""
        self.window.size = size
        self.app.size = size
        self.pump(2)
        self.app.rebuild()
        self.pump(3)

    def screenshot(self, path: Path) -> Path:
        self.pump(3)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.app.root.export_to_png(str(path))
        return path

    def close(self) -> None:
        Clock.unschedule(self.app._collect_garbage)
        Clock.unschedule(self.app._prebuild_next)
        self.window.unbind(on_touch_down=self.app._touched)
        self.app.dispatch("on_stop")
        self.window.remove_widget(self.app.root)
