"""The stand-alone score calculator: a table that played without the assistant enters its final position.

Touch only: site and track VPs are tapped from the values printed on the cards, counts use steppers,
contracts are toggles. The described table goes through the same checks and scorer as
`tableassist score` (tableassist.engine.scoring), so the screen and the command always agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from tableassist.engine import scoring
from ui import theme
from ui.i18n import _
from ui.screens.base import BaseScreen
from ui.widgets import BigButton, Chip, Column, Panel, Stepper, Text, metrics, row

COLOURS = ("yellow", "blue", "green", "pink", "purple")


@dataclass
class Entry:
    """One player's final position as the table enters it."""

    colour: str
    site_vps: list[int] = field(default_factory=list)
    track_vps: list[int] = field(default_factory=list)
    rubble: int = 0
    coal: int = 0
    surveyor: str = "llanberis"
    train: int | None = None
    contracts: set[int] = field(default_factory=set)
    daffodils: int = 0

    @property
    def name(self) -> str:
        return self.colour.capitalize()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "site_vps": list(self.site_vps), "track_vps": list(self.track_vps),
                "rubble": self.rubble, "coal": self.coal, "surveyor": self.surveyor, "train": self.train,
                "contracts": sorted(self.contracts), "daffodils": self.daffodils}


def site_values(components: Any) -> list[int]:
    """Every VP printed on a station site, once each, from the component data."""
    values = {s.vp for st in components.stations for s in (*st.excavation, *st.building)}
    return sorted(values)


class CalculatorScreen(BaseScreen):
    screen_name = "calculator"
    title = "Score calculator"

    def build(self) -> None:
        self.components = self.app.components
        self.entries: list[Entry] = [Entry("yellow"), Entry("blue")]
        self.selected = 0
        self.tie_rule = "last_in_turn_order"
        self.result: dict[str, Any] | None = None
        m = metrics()
        layout = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.side = BoxLayout(orientation="vertical", spacing=m.gap, size_hint_x=None, width=m.px(176))
        self.main = BoxLayout(orientation="vertical")
        layout.add_widget(self.side)
        layout.add_widget(self.main)
        self.body.add_widget(layout)
        self._draw()

    # ---- table-level controls -------------------------------------------------------------------

    def table_json(self) -> dict[str, Any]:
        return {"tie_rule": self.tie_rule, "players": [e.to_json() for e in self.entries]}

    def select(self, index: int) -> None:
        self.selected = index
        self.result = None
        self._draw()

    def add_player(self) -> None:
        used = {e.colour for e in self.entries}
        free = [c for c in COLOURS if c not in used]
        if free:
            self.entries.append(Entry(free[0]))
            self.selected = len(self.entries) - 1
        self.result = None
        self._draw()

    def remove_player(self) -> None:
        if len(self.entries) > 1:
            del self.entries[self.selected]
            self.selected = max(0, self.selected - 1)
        self.result = None
        self._draw()

    def toggle_tie_rule(self) -> None:
        self.tie_rule = "shared" if self.tie_rule == "last_in_turn_order" else "last_in_turn_order"
        self.result = None
        self._draw()

    def score(self) -> dict[str, Any] | None:
        """Score the entered table; a check that fails goes on the message line, as one sentence."""
        try:
            holdings, tie_rule = scoring.table_from_json(self.table_json(), self.components)
            self.result = scoring.score_table(holdings, tie_rule, self.components).to_json()
        except ValueError as err:  # ScoreInputError: names the field and the problem
            self.result = None
            self.app.message.show(str(err), "error")
            return None
        self._draw()
        return self.result

    # ---- drawing ---------------------------------------------------------------------------------

    def _draw(self) -> None:
        self._draw_side()
        self.main.clear_widgets()
        if self.result is not None:
            self.main.add_widget(self._results(self.result))
        else:
            self.main.add_widget(self._editor(self.entries[self.selected]))

    def _draw_side(self) -> None:
        m = metrics()
        self.side.clear_widgets()
        self.player_buttons: list[BigButton] = []
        for i, entry in enumerate(self.entries):
            colour = theme.player_colour(entry.colour)
            mark = "> " if i == self.selected and self.result is None else ""
            button = BigButton(f"{mark}{_(entry.name)}", on_tap=partial(self.select, i), colour=colour,
                               size_hint_y=None, height=m.target)
            self.player_buttons.append(button)
            self.side.add_widget(button)
        if len(self.entries) < len(COLOURS):
            self.side.add_widget(BigButton(_("+ Player"), on_tap=self.add_player, size_hint_y=None, height=m.target))
        self.side.add_widget(BoxLayout())
        self.score_button = BigButton(_("Score"), on_tap=self.score, colour=theme.CONFIRM, size="large",
                                      size_hint_y=None, height=m.target)
        self.side.add_widget(self.score_button)

    def _editor(self, entry: Entry) -> Any:
        m = metrics()
        column = Column()
        sites = sum(entry.site_vps)
        head = row(Chip(_(entry.name), theme.player_colour(entry.colour), size_hint_x=None, width=m.px(120)),
                   BigButton(_("Ties: {rule}").format(rule=_("shared") if self.tie_rule == "shared"
                                                      else _("last in turn order")),
                             on_tap=self.toggle_tie_rule, size="small"),
                   BigButton(_("Remove"), on_tap=self.remove_player, colour=theme.DANGER, size="small",
                             size_hint_x=None, width=m.px(110)))
        column.add(head)

        column.add(Text(_("Sites with {name}'s marker: {sum} = {vp} VP").format(
            name=_(entry.name), sum=self._sum_text(entry.site_vps), vp=sites),
                        fit_height=True))
        column.add(self._keypad(site_values(self.components), entry.site_vps))
        column.add(Text(_("Track cards with a marker: {sum} = {vp} VP").format(
            sum=self._sum_text(entry.track_vps), vp=sum(entry.track_vps)),
                        fit_height=True))
        column.add(self._keypad(list(range(0, 8)), entry.track_vps))

        column.add(self._stepper(_("Rubble"), entry, "rubble", 90, big_step=5))
        column.add(self._stepper(_("Coal"), entry, "coal", 14))

        column.add(Text(_("Surveyor reached"), fit_height=True))
        stations = self.components.stations_for(len(self.entries))
        column.add(self._choice_grid([(s.id, f"{s.number} {s.name}") for s in stations], entry.surveyor,
                                     lambda v: self._set(entry, "surveyor", v), cols=3))
        column.add(Text(_("Train"), fit_height=True))
        trains: list[tuple[Any, str]] = [(None, _("none"))]
        trains += [(n, f"{n} {t.name}") for n, t in sorted(self.components.trains.items())]
        column.add(self._choice_grid(trains, entry.train, lambda v: self._set(entry, "train", v), cols=4))

        column.add(Text(_("Contracts held (played or not)"), fit_height=True))
        allowed = self.components.contracts_for(len(self.entries))
        grid = GridLayout(cols=10, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.contract_buttons: dict[int, BigButton] = {}
        for number in sorted(self.components.contracts):
            held = number in entry.contracts
            button = BigButton(str(number), on_tap=partial(self._toggle_contract, entry, number),
                               colour=theme.ACCENT if held else theme.PANEL_LIGHT, size_hint_y=None,
                               height=m.target, on_blocked=self.app.say)
            if number not in allowed:
                button.block(_("Contract {n} is only in play with 3 to 5 players.").format(n=number))
            self.contract_buttons[number] = button
            grid.add_widget(button)
        column.add(grid)
        column.add(self._stepper(_("Daffodils (Daffodil Line)"), entry, "daffodils", 40))
        return column

    @staticmethod
    def _sum_text(values: list[int]) -> str:
        return " + ".join(str(v) for v in values) if values else _("none")

    def _keypad(self, values: list[int], target: list[int]) -> Any:
        m = metrics()
        grid = GridLayout(cols=min(len(values) + 1, 9), spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for value in values:
            grid.add_widget(BigButton(f"+{value}", on_tap=partial(self._append, target, value),
                                      size_hint_y=None, height=m.target))
        grid.add_widget(BigButton(_("Undo"), on_tap=lambda: self._pop(target), size="small",
                                  size_hint_y=None, height=m.target))
        return grid

    def _choice_grid(self, options: list[tuple[Any, str]], current: Any, pick: Any, cols: int) -> Any:
        m = metrics()
        grid = GridLayout(cols=cols, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for value, label in options:
            grid.add_widget(BigButton(label, on_tap=partial(pick, value), size="small",
                                      colour=theme.ACCENT if value == current else theme.PANEL_LIGHT,
                                      size_hint_y=None, height=m.target))
        return grid

    def _stepper(self, label: str, entry: Entry, attribute: str, maximum: int, big_step: int = 0) -> Any:
        stepper = Stepper(label, getattr(entry, attribute), 0, maximum,
                          on_change=lambda v: setattr(entry, attribute, v))
        if big_step:
            m = metrics()
            stepper.add_widget(BigButton(f"+{big_step}", on_tap=lambda: stepper.change(big_step),
                                         size_hint_x=None, width=m.target * 1.2))
        return stepper

    def _append(self, target: list[int], value: int) -> None:
        target.append(value)
        self._draw_keep_scroll()

    def _pop(self, target: list[int]) -> None:
        if target:
            target.pop()
        self._draw_keep_scroll()

    def _set(self, entry: Entry, attribute: str, value: Any) -> None:
        setattr(entry, attribute, value)
        self._draw_keep_scroll()

    def _toggle_contract(self, entry: Entry, number: int) -> None:
        entry.contracts.symmetric_difference_update({number})
        self._draw_keep_scroll()

    def _draw_keep_scroll(self) -> None:
        old = self.main.children[0] if self.main.children else None
        scroll = getattr(old, "scroll_y", None)
        self._draw()
        new = self.main.children[0] if self.main.children else None
        if scroll is not None and new is not None and hasattr(new, "scroll_y"):
            new.scroll_y = scroll

    def _results(self, result: dict[str, Any]) -> Any:
        return score_table_widget(result, on_edit=self._edit)

    def _edit(self) -> None:
        self.result = None
        self._draw()


def score_table_widget(result: dict[str, Any], on_edit: Any = None, colours: dict[str, str] | None = None,
                       final: bool = True, buttons: tuple[Any, ...] = ()) -> Any:
    """Totals, breakdown and fulfilled contracts per player, the winner marked. Shared with Final scores.

    The headline (who won, or who is ahead in the live estimate) and the buttons stay pinned at the top;
    the players' lines scroll below them.
    """
    m = metrics()
    box = BoxLayout(orientation="vertical", spacing=m.gap)
    column = Column()
    winners = result.get("winners") or []
    note = ""
    names = " and ".join(winners)
    if not final:
        headline = (_("If the game ended now: {names} ahead").format(names=names) if winners
                    else _("If the game ended now"))
    else:
        won = _("{names} win!") if len(winners) > 1 else _("{names} wins!")
        headline = won.format(names=names) if winners else _("No winner")
        totals = [p.get("total") for p in result.get("players") or []]
        if totals and totals.count(max(totals)) > len(winners):
            note = _("Tied on points: the last in turn order wins.")
    top = [Text(headline, size="huge" if final else "large", bold=True, colour=theme.WARNING, shorten=True)]
    if on_edit is not None:
        top.append(BigButton(_("Edit"), on_tap=on_edit, size_hint_x=None, width=m.px(120)))
    top.extend(buttons)
    box.add_widget(row(*top, height=m.px(56)))
    if note:
        box.add_widget(Text(note, size="small", colour=theme.WARNING, size_hint_y=None, height=m.px(26)))
    box.add_widget(column)
    keys = ["sites", "tracks", "surveyor", "contracts", "train"]
    if any((p.get("breakdown") or {}).get("daffodils") for p in result.get("players") or []):
        keys.append("daffodils")
    header = Panel(orientation="horizontal", size_hint_y=None, height=m.px(36), colour=theme.BACKGROUND, padding=0)
    header.add_widget(Text("", size="small", size_hint_x=1.3))
    for key in keys:
        header.add_widget(Text(_(key), size="small", align="center", colour=theme.TEXT_DIM, shorten=True))
    header.add_widget(Text(_("total"), size="small", align="center", colour=theme.TEXT_DIM))
    column.add(header)
    for p in result.get("players") or []:
        name = str(p.get("name", ""))
        colour_name = (colours or {}).get(name, name.lower())
        line = Panel(orientation="horizontal", size_hint_y=None, height=m.px(50),
                     colour=theme.PANEL_LIGHT if name in winners else theme.PANEL, radius=m.px(6), padding=m.px(3))
        line.add_widget(Chip(name, theme.player_colour(colour_name), size_hint_x=1.3))
        breakdown = p.get("breakdown") or {}
        for key in keys:
            line.add_widget(Text(str(breakdown.get(key, 0)), align="center"))
        line.add_widget(Text(f"[b]{p.get('total', 0)}[/b]", size="large", align="center"))
        column.add(line)
        fulfilled = p.get("fulfilled") or {}
        vps = p.get("contract_vps") or {}
        if fulfilled:
            parts = []
            for number, used in fulfilled.items():
                what = ", ".join(f"{v} {k}" if k != "surveyor" else f"surveyor at {v}" for k, v in used.items())
                vp = vps.get(number)
                parts.append(f"#{number}" + (f" ({vp} VP)" if vp is not None else "") + (f": {what}" if what else ""))
            text = _("{name}'s contracts fulfilled: {list}").format(name=name, list="; ".join(parts))
            column.add(Text(text, size="small", colour=theme.TEXT_DIM, fit_height=True))
    return box
