"""Resolution guide: area by area, A to G, one step at a time.

Shows the area being resolved, who acts, what the engine computed (the session's announcements and
its pending proposal), the contract window before each area, and the choices the engine allows —
one choice is confirmed with a tap on the big button (or the hardware Confirm button).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.contracts import describe
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.viewdata import AREA_NAMES, colour_of, name_of, state, waiting
from ui.widgets import BigButton, Chip, Column, Panel, Text, metrics, row

AREAS = ("A", "B", "C", "D", "E", "F", "G")


class ResolutionScreen(BaseScreen):
    screen_name = "resolution"
    title = "Resolution"

    def build(self) -> None:
        m = metrics()
        self.components = self.app.components
        self.area_chips: dict[str, Chip] = {}
        strip = row(height=m.px(40))
        for area in AREAS:
            chip = Chip(f"{area} {_(AREA_NAMES[area])}", theme.PANEL, size="small")
            self.area_chips[area] = chip
            strip.add_widget(chip)
        self.add_widget(strip)
        self.who = Chip("", theme.PANEL_LIGHT, size_hint_x=None, width=m.px(130))
        self.prompt = Text("", size="large", bold=True)
        self.add_widget(row(self.who, self.prompt))
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.story = Column(size_hint_x=0.45)
        self.options = Column(size_hint_x=0.55)
        self.main.add_widget(self.story)
        self.main.add_widget(self.options)
        self.add_widget(self.main)
        self.choice_buttons: list[BigButton] = []
        self.confirm_button: BigButton | None = None

    def update(self, view: dict[str, Any]) -> None:
        st = state(view)
        wait = waiting(view)
        current = st.get("area")
        for area, chip in self.area_chips.items():
            colour = theme.ACCENT if area == current else theme.PANEL
            chip._bg_colour.rgba = colour
            chip.color = theme.text_on(colour) if area == current else theme.TEXT_DIM
        player = wait.get("player")
        colour = theme.player_colour(colour_of(view, player))
        self.who.text = name_of(view, player) or _("The table")
        self.who._bg_colour.rgba = colour
        self.who.color = theme.text_on(colour)
        prompt = str(wait.get("prompt") or "")
        who = name_of(view, player)
        if who and prompt.startswith(who + ":"):
            prompt = prompt[len(who) + 1:].strip()
        self.prompt.text = prompt

        # Left: what happened and what the engine proposes. Right: what the table may do now. Parts whose
        # content is unchanged since the last step are reused (see BaseScreen.cached).
        left, right = self.story, self.options
        left.clear()
        right.clear()
        pending = view.get("pending")
        if pending:
            left.add(self.cached(("pending", pending.get("text")), partial(self._pending, str(pending.get("text")))))
        if wait.get("kind") == "contracts":
            left.add(self.cached(("hand", repr(view.get("choices"))), partial(self._hand, view, player)))
        for line in reversed((view.get("announcements") or [])[-4:]):
            text, urgent = str(line.get("text", "")), bool(line.get("urgent"))
            left.add(self.cached(("line", text, urgent), partial(
                Text, text, size="small", colour=theme.WARNING if urgent else theme.TEXT_DIM, fit_height=True)))
        self._choices(view, right)
        self.sweep()

    def _pending(self, text: str) -> Any:
        m = metrics()
        box = Panel(orientation="vertical", colour=theme.hex_rgba("#1b3a4b"), radius=m.px(6), size_hint_y=None)
        box.bind(minimum_height=box.setter("height"))
        box.add_widget(Text(text, size="large", fit_height=True))
        box.add_widget(row(
            BigButton(_("Confirm"), on_tap=self.app.confirm, colour=theme.CONFIRM),
            BigButton(_("Correct"), on_tap=self.app.reject)))
        return box

    def _hand(self, view: dict[str, Any], player: int | None) -> Any:
        """The contracts the player could play now, with what each does (from the component data)."""
        numbers = [c["action"]["contract"] for c in view.get("choices") or []
                   if c.get("action", {}).get("type") == "play_contract"]
        lines = []
        for n in numbers:
            contract = self.components.contracts.get(n)
            if contract is not None:
                lines.append(f"[b]{n}[/b]: {describe(contract)}")
        return Text("\n".join(lines) if lines else _("No contract to play before this area."), size="small",
                    fit_height=True)

    def _choices(self, view: dict[str, Any], column: Column) -> None:
        m = metrics()
        choices = view.get("choices") or []
        blocked = view.get("blocked") or []
        self.confirm_button = None
        if len(choices) == 1 and not view.get("pending"):
            only = choices[0]
            text = _("Confirm: {label}").format(label=only.get("label", ""))
            button = self.cached(("confirm", text), partial(
                BigButton, text, colour=theme.CONFIRM, size="large", size_hint_y=None, height=m.target * 1.6))
            self.confirm_button = button
            self.choice_buttons = [button]
            column.add(button)
        else:
            labels = tuple((self._label(c), c.get("action", {}).get("type")) for c in choices)
            grid = self.cached(("choices", labels), partial(self._grid, labels))
            self.choice_buttons = list(grid.choice_buttons)
            column.add(grid)
        # The buttons may be reused from an earlier step: the actions they send are always this step's.
        for button, choice in zip(self.choice_buttons, choices, strict=False):
            button._on_tap = partial(self.app.act, choice["action"])
            button.payload = choice["action"]
        for entry in blocked[:8]:
            label, reason = str(entry.get("label", "")), str(entry.get("reason", _("Not allowed now.")))
            column.add(self.cached(("blocked", label, reason), partial(self._blocked, label, reason)))

    def _label(self, choice: dict[str, Any]) -> str:
        """The session's label; a contract also says what it does and scores (the card's text)."""
        label = str(choice.get("label", ""))
        number = choice.get("action", {}).get("contract")
        contract = self.components.contracts.get(number) if isinstance(number, int) else None
        if contract is None:
            return label
        return f"[b]{label}[/b]\n{describe(contract)}"

    def _grid(self, labels: tuple[tuple[str, Any], ...]) -> Any:
        m = metrics()
        two_lines = any("\n" in label for label, _kind in labels)
        grid = GridLayout(cols=2 if len(labels) > 4 and not two_lines else 1, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        grid.choice_buttons = []
        for label, kind in labels:
            colour = theme.PANEL_LIGHT if kind in ("pass", "decline", "idle") else theme.ACCENT
            height = m.target * 1.5 if "\n" in label else m.target
            button = BigButton(label, colour=colour, size="small", size_hint_y=None, height=height)
            grid.choice_buttons.append(button)
            grid.add_widget(button)
        return grid

    def _blocked(self, label: str, reason: str) -> Any:
        m = metrics()
        button = BigButton(label, size="small", size_hint_y=None, height=m.target, on_blocked=self.app.say)
        button.block(reason)
        return button
