"""The few widgets every screen is made of: big buttons, coloured chips, panels, a stepper.

Built in Python rather than .kv so each screen can lay out what the session's view contains; the sizes
come from one `Metrics` (ui.theme) set when the window size is known.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.metrics import Metrics as KivyMetrics
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from ui import theme

_metrics = theme.Metrics(480)


def set_metrics(window_height: float) -> theme.Metrics:
    global _metrics
    # Kivy scales font and widget sizes by its density; our sizes are already pixels of this window.
    _metrics = theme.Metrics(window_height / max(1.0, float(KivyMetrics.density)))
    return _metrics


def metrics() -> theme.Metrics:
    return _metrics


def _paint(widget: Any, colour: theme.RGBA, radius: float = 0, outline: theme.RGBA | None = None) -> None:
    """A filled (optionally rounded, optionally outlined) background that follows the widget."""
    with widget.canvas.before:
        widget._bg_colour = Color(*colour)
        if radius:
            widget._bg = RoundedRectangle(pos=widget.pos, size=widget.size, radius=[radius])
        else:
            widget._bg = Rectangle(pos=widget.pos, size=widget.size)
        if outline is not None:
            Color(*outline)
            widget._outline = Line(rounded_rectangle=(*widget.pos, *widget.size, max(1, radius)), width=1.4)
        else:
            widget._outline = None

    def follow(*_: Any) -> None:
        widget._bg.pos = widget.pos
        widget._bg.size = widget.size
        if widget._outline is not None:
            widget._outline.rounded_rectangle = (*widget.pos, *widget.size, max(1, radius))

    widget.bind(pos=follow, size=follow)


def fit_words(label: Any, padding: float) -> None:
    """Shrink a label's font (to about the smallest text size at most) until its longest word fits its width.

    Labels wrap between words but not inside one: German compounds ("Ereignisklötzchen") or a narrow
    column would otherwise split a word mid-way. Sized once per width, from the font's own measurements.
    """
    wanted = float(label.font_size)
    # A single long word may go a little below the smallest text size: 16 px is still 3 mm on the 7" panel.
    floor = metrics().font_small * 0.88

    def fit(*_: Any) -> None:
        width = label.width - padding
        if width <= 0 or not label.text:
            return
        label.font_size = wanted
        words = [w for w in _plain(label.text).split() if w]
        if not words:
            return
        core = label._label
        core.options["font_size"] = wanted
        longest = max(core.get_extents(w)[0] for w in words)
        if longest > width:
            label.font_size = max(floor, wanted * width / longest)

    label.bind(width=fit, text=fit)
    fit()  # a width given at creation never "changes"


def _plain(text: str) -> str:
    """Text without Kivy markup tags ([b]…[/b])."""
    out, depth = [], 0
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


class Panel(BoxLayout):
    """A box with a flat background colour."""

    def __init__(self, colour: theme.RGBA = theme.PANEL, radius: float = 0, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", metrics().gap)
        kwargs.setdefault("padding", metrics().gap)
        super().__init__(**kwargs)
        _paint(self, colour, radius)

    def set_colour(self, colour: theme.RGBA) -> None:
        self._bg_colour.rgba = colour


class Text(Label):
    """Text that wraps inside its width; `size` one of small / normal / large / huge."""

    def __init__(self, text: str = "", size: str = "normal", colour: theme.RGBA = theme.TEXT,
                 align: str = "left", bold: bool = False, fit_height: bool = False, valign: str = "middle",
                 **kwargs: Any) -> None:
        m = metrics()
        font = {"small": m.font_small, "normal": m.font, "large": m.font_large, "huge": m.font_huge}[size]
        super().__init__(text=text, font_size=font, color=colour, halign=align, valign=valign,
                         bold=bold, markup=True, **kwargs)
        self.bind(size=self._wrap)
        if fit_height:
            # Grows to its text so it can sit in a scrolling column.
            self.size_hint_y = None
            self.bind(texture_size=lambda _w, ts: setattr(self, "height", max(ts[1], font * 1.4)))

    def _wrap(self, *_: Any) -> None:
        self.text_size = (self.width, None)


class BigButton(Button):
    """A touch target of at least 9 mm. A button can be *blocked*: it still looks like a (greyed) button,
    and a tap says why it cannot be used now instead of doing it — the table learns the rule."""

    def __init__(self, text: str = "", on_tap: Callable[[], Any] | None = None,
                 colour: theme.RGBA = theme.PANEL_LIGHT, size: str = "normal",
                 on_blocked: Callable[[str], None] | None = None, payload: Any = None, **kwargs: Any) -> None:
        m = metrics()
        font = {"small": m.font_small, "normal": m.font, "large": m.font_large, "huge": m.font_huge}[size]
        if kwargs.get("size_hint_y", 1) is None:
            kwargs["height"] = max(float(kwargs.get("height", 0)), m.target)
        super().__init__(text=text, font_size=font, background_normal="", background_down="",
                         halign="center", valign="middle", markup=True, **kwargs)
        self.base_colour = colour
        self.blocked_reason: str | None = None
        self.payload = payload  # what a tap sends (an engine action), for diagnostics and tests
        self._on_tap = on_tap
        self._on_blocked = on_blocked
        self.bind(size=lambda *_: setattr(self, "text_size", (self.width - m.gap * 2, None)))
        fit_words(self, m.gap * 2)
        self._restyle()
        self.bind(state=lambda *_: self._restyle())

    def block(self, reason: str | None) -> None:
        self.blocked_reason = reason
        self._restyle()

    def set_colour(self, colour: theme.RGBA) -> None:
        self.base_colour = colour
        self._restyle()

    def _restyle(self) -> None:
        if self.blocked_reason:
            self.background_color = theme.DISABLED
            self.color = theme.DISABLED_TEXT
        else:
            r, g, b, a = self.base_colour
            pressed = self.state == "down"
            self.background_color = (r * 0.7, g * 0.7, b * 0.7, a) if pressed else self.base_colour
            self.color = theme.text_on(self.base_colour)

    def on_release(self) -> None:
        if self.blocked_reason:
            if self._on_blocked is not None:
                self._on_blocked(self.blocked_reason)
            return
        if self._on_tap is not None:
            self._on_tap()


class Chip(Label):
    """A coloured token with a short text: a cube count, a player's colour, the weather."""

    def __init__(self, text: str, colour: theme.RGBA, size: str = "normal", **kwargs: Any) -> None:
        m = metrics()
        font = {"small": m.font_small, "normal": m.font, "large": m.font_large, "huge": m.font_huge}[size]
        super().__init__(text=text, font_size=font, color=theme.text_on(colour), bold=True, markup=True,
                         halign="center", valign="middle", **kwargs)
        # Black pieces (coal, steel) get a light outline so they read on the dark background.
        outline = theme.TEXT_DIM if theme.luminance(colour) < 0.02 else None
        _paint(self, colour, radius=m.px(8), outline=outline)
        self.bind(size=lambda *_: setattr(self, "text_size", self.size))
        fit_words(self, m.px(6))


class Stepper(BoxLayout):
    """− value + for a small count, for touch only (no keyboard on the table)."""

    def __init__(self, label: str, value: int = 0, minimum: int = 0, maximum: int = 99,
                 on_change: Callable[[int], None] | None = None, **kwargs: Any) -> None:
        m = metrics()
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("height", m.target)
        super().__init__(orientation="horizontal", spacing=m.gap, **kwargs)
        self.value = value
        self.minimum, self.maximum = minimum, maximum
        self._on_change = on_change
        self.add_widget(Text(label, size_hint_x=0.45))
        self.minus = BigButton("−", on_tap=lambda: self.change(-1), size="large", size_hint_x=None, width=m.target)
        self.shown = Text(str(value), size="large", align="center", size_hint_x=None, width=m.target * 1.2)
        self.plus = BigButton("+", on_tap=lambda: self.change(+1), size="large", size_hint_x=None, width=m.target)
        for w in (self.minus, self.shown, self.plus):
            self.add_widget(w)

    def change(self, delta: int) -> None:
        self.set(self.value + delta)

    def set(self, value: int) -> None:
        self.value = max(self.minimum, min(self.maximum, value))
        self.shown.text = str(self.value)
        if self._on_change is not None:
            self._on_change(self.value)


class Column(ScrollView):
    """A vertical list that scrolls with a finger when it does not fit."""

    def __init__(self, **kwargs: Any) -> None:
        m = metrics()
        super().__init__(do_scroll_x=False, bar_width=m.px(8), scroll_type=["bars", "content"], **kwargs)
        self.box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=m.gap, padding=m.gap)
        self.box.bind(minimum_height=self.box.setter("height"))
        super().add_widget(self.box)

    def add(self, widget: Any) -> Any:
        self.box.add_widget(widget)
        return widget

    def clear(self) -> None:
        self.box.clear_widgets()


def row(*children: Any, height: float | None = None, **kwargs: Any) -> BoxLayout:
    """A horizontal strip of fixed height (a touch target high by default)."""
    m = metrics()
    box = BoxLayout(orientation="horizontal", spacing=m.gap, size_hint_y=None,
                    height=height if height is not None else m.target, **kwargs)
    for child in children:
        box.add_widget(child)
    return box
