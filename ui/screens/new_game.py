"""New game: players (1–5) and their colours in turn order, bag mode, rule options, language; or resume.

Players are added by tapping their colour in turn order (names default to the colour; a name can be
typed when a keyboard is at hand). The route and the engine shed are then laid by the session: drawn
by the assistant in the digital bag mode, observed from the table (RFID taps, touch) in the physical one.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from tableassist.errors import UserError
from ui import i18n, theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Column, Text, metrics, row

COLOURS = ("yellow", "blue", "green", "pink", "purple")
FOG_OPTIONS: tuple[tuple[int | None, str], ...] = ((None, "all of B and D"), (1, "thin: 1 space"),
                                                   (2, "thin: 2 spaces"))  # translated when drawn


class NewGameScreen(BaseScreen):
    screen_name = "new_game"
    title = "New game"

    def build(self) -> None:
        self.order: list[str] = []
        self.names: dict[str, str] = {}
        self.bag_mode = "digital"
        self.tie_rule = "last_in_turn_order"
        self.fog: int | None = None
        self.language = i18n.language()
        self.colour_buttons: dict[str, BigButton] = {}
        self.option_buttons: dict[tuple[str, Any], BigButton] = {}
        self.typing_names = False
        self.name_fields: dict[str, TextInput] = {}
        self.names_button: BigButton | None = None
        self.start_button: BigButton | None = None
        self.resume_buttons: dict[int, BigButton] = {}
        m = metrics()
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.main)

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        self.main.clear_widgets()
        setup = Column()
        setup.add(Text(_("Tap the players' colours in turn order:"), fit_height=True))
        colours = row()
        for colour in COLOURS:
            place = self.order.index(colour) + 1 if colour in self.order else None
            shown = self.names.get(colour) or _(colour.capitalize())
            label = f"{place}. {shown}" if place else _(colour.capitalize())
            button = BigButton(label, on_tap=partial(self.toggle, colour),
                               colour=theme.player_colour(colour) if place else theme.PANEL_LIGHT, size="small")
            self.colour_buttons[colour] = button
            colours.add_widget(button)
        setup.add(colours)
        if self.order and not self.typing_names:
            self.names_button = BigButton(_("Type names…"), on_tap=self.type_names, size="small")
            setup.add(row(self.names_button))
        if self.order and self.typing_names:
            # Text fields only when asked for: a touch table has no keyboard (Kivy docks its own), and the
            # colours already name the players.
            names = row()
            for colour in self.order:
                hint = _("name for {colour}").format(colour=_(colour.capitalize()))
                field = TextInput(text=self.names.get(colour, ""), hint_text=hint, multiline=False,
                                  font_size=m.font_small, write_tab=False, background_normal="",
                                  background_active="", background_color=theme.PANEL_LIGHT,
                                  foreground_color=theme.TEXT, hint_text_color=theme.TEXT_DIM,
                                  cursor_color=theme.ACCENT, padding=[m.gap * 2, m.px(14)])
                field.bind(text=partial(self._rename, colour))
                self.name_fields[colour] = field
                names.add_widget(field)
            setup.add(names)
        setup.add(self._option_row(_("Bag"), [("digital", _("digital bag")), ("physical", _("physical bag"))],
                                   self.bag_mode, "bag_mode"))
        ties = [("last_in_turn_order", _("last in turn order")), ("shared", _("shared"))]
        setup.add(self._option_row(_("Ties"), ties, self.tie_rule, "tie_rule"))
        setup.add(self._option_row(_("Fog blocks"), [(v, _(t)) for v, t in FOG_OPTIONS], self.fog, "fog"))
        setup.add(self._option_row(_("Language"), [("en", "English"), ("de", "Deutsch"), ("es", "Español")],
                                   self.language, "language"))
        self.start_button = BigButton(_("Start a game for {n}").format(n=len(self.order)) if self.order else _("Start"),
                                      on_tap=self.start, colour=theme.CONFIRM, size="large", size_hint_y=None,
                                      height=m.target, on_blocked=self.app.say)
        if not self.order:
            self.start_button.block(_("Tap at least one colour: one player per colour, in turn order."))
        left = BoxLayout(orientation="vertical", spacing=m.gap, size_hint_x=0.68)
        left.add_widget(setup)
        left.add_widget(self.start_button)  # pinned below the options: never scrolled out of reach
        self.main.add_widget(left)
        self.main.add_widget(self._games())

    def _option_row(self, label: str, options: list[tuple[Any, str]], current: Any, attribute: str) -> Any:
        m = metrics()
        box = row(Text(label, size="small", size_hint_x=None, width=m.px(100)))
        for value, text in options:
            button = BigButton(text, on_tap=partial(self._set, attribute, value), size="small",
                               colour=theme.ACCENT if value == current else theme.PANEL_LIGHT)
            self.option_buttons[(attribute, value)] = button
            box.add_widget(button)
        return box

    def _set(self, attribute: str, value: Any) -> None:
        setattr(self, attribute, value)
        self.update(self.app.view)

    def type_names(self) -> None:
        self.typing_names = True
        self.update(self.app.view)

    def _rename(self, colour: str, _field: Any, text: str) -> None:
        self.names[colour] = text.strip()

    def toggle(self, colour: str) -> None:
        if colour in self.order:
            self.order.remove(colour)
        else:
            self.order.append(colour)
        self.update(self.app.view)

    def start(self) -> int | None:
        if self.app.read_only or self.app.session is None:
            return None
        names = [self.names.get(c) or c.capitalize() for c in self.order]
        options: dict[str, Any] = {"tie_rule": self.tie_rule, "fog_blocks": self.fog}
        try:
            if self.language != getattr(self.app.session, "language", "en"):
                self.app.session.set_language(self.language)
            game_id: int = self.app.session.new_game(names, list(self.order), bag_mode=self.bag_mode,
                                                     options=options)
        except UserError as err:
            self.app.message.show(str(err), "error")
            return None
        self.app.refresh_to_game()
        return game_id

    def _games(self) -> Any:
        m = metrics()
        column = Column(size_hint_x=0.32)
        column.add(Text(_("Resume a game"), bold=True, fit_height=True))
        self.resume_buttons = {}
        games = self.app.session.games() if self.app.session is not None else []
        unfinished = [g for g in games if not g.get("finished")][-6:]
        for game in reversed(unfinished):
            players = game.get("players") or []
            names = ", ".join(p if isinstance(p, str) else str(p.get("name", "")) for p in players)
            button = BigButton(f"#{game.get('id')}: {names}", on_tap=partial(self.resume, int(game["id"])),
                               size="small", size_hint_y=None, height=m.target)
            self.resume_buttons[int(game["id"])] = button
            column.add(button)
        if not unfinished:
            column.add(Text(_("No unfinished game."), size="small", colour=theme.TEXT_DIM, fit_height=True))
        return column

    def resume(self, game_id: int) -> None:
        if self.app.read_only or self.app.session is None:
            return
        try:
            self.app.session.resume(game_id)
        except UserError as err:
            self.app.message.show(str(err), "error")
            return
        self.app.refresh_to_game()
