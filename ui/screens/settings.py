"""Settings and diagnostics: language, voice volume, the devices, the camera's view of the stock yard with
markers and cubes drawn, the reader's recent taps, the database and its games.

Hardware is reached only through the session (its `devices`); anything a device cannot report is
shown as "not available" rather than guessed.
"""

from __future__ import annotations

import threading
from functools import partial
from typing import Any

from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image

from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Column, Stepper, Text, metrics, row

LANGUAGES = (("en", "English"), ("de", "Deutsch"), ("es", "Español"))


def device_lines(session: Any) -> list[tuple[str, str]]:
    """(device, what it is) for each device the session was built with."""
    devices = getattr(session, "devices", None)
    found = []
    for key, label in (("voice", _("Voice")), ("reader", _("Card reader")), ("controls", _("Buttons and LEDs")),
                       ("camera", _("Stock-yard camera")), ("cards", _("Card registry"))):
        device = getattr(devices, key, None)
        if device is None:
            found.append((label, _("not configured")))
        else:
            name = type(device).__name__
            simulated = "simulated" if any(w in name for w in ("Simulated", "Counting", "Recording", "Rendered")) \
                else "hardware"
            found.append((label, f"{name} ({simulated})"))
    return found


def tap_lines(view: dict[str, Any]) -> list[str]:
    """The session's recent RFID taps (the reader or its stand-in), newest first: when, the tag, what the card
    registry says it is, and what the table did with it."""
    lines = []
    for tap in reversed(view.get("recent_taps") or []):
        at = str(tap.get("at", ""))
        clock = at[11:19] if len(at) >= 19 else at  # ISO time: the clock is enough at the table
        card = _("unknown") if tap.get("card") == "unknown" else str(tap.get("card", ""))
        lines.append(f"{clock}  {tap.get('tag', '')}  {card}: {tap.get('result', '')}")
    return lines


def camera_texture(session: Any) -> Any:
    """The camera's debug image (markers and cubes drawn) as a texture, when the camera offers one."""
    camera = getattr(getattr(session, "devices", None), "camera", None)
    provider = getattr(camera, "debug_image", None)
    if not callable(provider):
        return None
    try:
        image = provider()  # BGR, height × width × 3, uint8 (OpenCV's layout)
    except Exception:  # noqa: BLE001 - a diagnostics view must never take the screen down
        return None
    if image is None or getattr(image, "ndim", 0) != 3:
        return None
    height, width = int(image.shape[0]), int(image.shape[1])
    texture = Texture.create(size=(width, height), colorfmt="bgr")
    # Kivy textures start at the bottom row; OpenCV images at the top.
    texture.blit_buffer(image[::-1].tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class SettingsScreen(BaseScreen):
    screen_name = "settings"
    title = "Settings and diagnostics"

    def build(self) -> None:
        m = metrics()
        self.volume = 8
        self.muted = False
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.main)
        self.language_buttons: dict[str, BigButton] = {}

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        session = self.app.session
        self.main.clear_widgets()
        left = Column(size_hint_x=0.5)
        current = view.get("language") or getattr(session, "language", "en")
        languages = row(Text(_("Language"), size="small", size_hint_x=None, width=m.px(96)))
        for code, name in LANGUAGES:
            button = BigButton(name, on_tap=partial(self.set_language, code), size="small",
                               colour=theme.ACCENT if code == current else theme.PANEL_LIGHT)
            self.language_buttons[code] = button
            languages.add_widget(button)
        left.add(languages)
        left.add(Stepper(_("Voice volume"), self.volume, 0, 10, on_change=self.set_volume))
        left.add(row(BigButton(_("Unmute voice") if self.muted else _("Mute voice"), on_tap=self.toggle_mute,
                               size="small"),
                     BigButton(_("Test the voice"), on_tap=self.test_voice, size="small")))
        for device, what in device_lines(session):
            left.add(Text(f"[b]{device}[/b]: {what}", size="small", fit_height=True))
        left.add(Text(_("Recent card taps"), size="small", bold=True, fit_height=True))
        for line in tap_lines(view) or [_("none yet")]:
            left.add(Text(line, size="small", colour=theme.TEXT_DIM, fit_height=True))
        left.add(Text(_("Database: {path}").format(path=self.app.db_label or "default"), size="small", fit_height=True))
        games = session.games() if session is not None else []
        for game in list(reversed(games))[:6]:
            players = game.get("players") or []
            names = ", ".join(p if isinstance(p, str) else str(p.get("name", "")) for p in players)
            result = "finished, won by " + ", ".join(game.get("winners") or []) if game.get("finished") \
                else "in progress"
            left.add(Text(f"#{game.get('id')} {names}: {result}", size="small", colour=theme.TEXT_DIM,
                          fit_height=True))
        self.main.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=m.gap, size_hint_x=0.5)
        right.add_widget(row(Text(_("Stock yard as the camera sees it"), size="small"),
                             BigButton(_("Read now"), on_tap=self.read_camera, size="small", size_hint_x=None,
                                       width=m.px(120))))
        texture = camera_texture(session)
        if texture is not None:
            right.add_widget(Image(texture=texture, fit_mode="contain"))
        else:
            yard = view.get("yard") or {}
            camera = yard.get("camera")
            reading = ", ".join(f"{v} {k}" for k, v in camera.items()) if camera else _("none")
            text = _("No camera picture available. Last reading: {reading}").format(reading=reading)
            right.add_widget(Text(text, size="small", colour=theme.TEXT_DIM))
        self.main.add_widget(right)

    def set_language(self, code: str) -> None:
        if self.app.session is not None and not self.app.read_only:
            self.app.session.set_language(code)
        self.app.show("settings")

    def _voice(self) -> Any:
        return getattr(getattr(self.app.session, "devices", None), "voice", None)

    def set_volume(self, value: int) -> None:
        self.volume = value
        voice = self._voice()
        if voice is not None:
            voice.set_volume(value / 10)

    def toggle_mute(self) -> None:
        self.muted = not self.muted
        voice = self._voice()
        if voice is not None:
            voice.set_muted(self.muted)
        self.app.show("settings")

    def test_voice(self) -> None:
        voice = self._voice()
        if voice is None:
            self.app.say(_("No voice is configured."))
            return
        voice.say("The weather is fog.")

    def read_camera(self) -> threading.Thread | None:
        """Read the stock yard now — in a thread: a camera needs several frames to agree, and the screen
        must not freeze meanwhile. The session's change arrives through its subscription and is redrawn."""
        session = self.app.session
        if session is None or self.app.read_only:
            return None
        reader = threading.Thread(target=session.check_yard, name="camera-read", daemon=True)
        reader.start()
        self.app.say(_("Reading the stock yard…"))
        return reader
