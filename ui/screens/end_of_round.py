"""End of round, and every moment the table itself must act (a bag draw, a card turned over).

After a round ends: the site office restock, the weather change, the stock-yard restock and the events,
each as the session announced it, with the new weather, site office and stock yard drawn; the table
taps Continue to go on to placement. When a chance outcome is awaited (physical bag, a card to reveal),
it shows the session's proposal from the camera, the possible outcomes, and "let the assistant draw".
"""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui import theme
from ui.i18n import _, cube_name
from ui.screens.base import BaseScreen
from ui.screens.overview import event_track_row, site_office_row, weather_row, yard_row
from ui.viewdata import waiting
from ui.widgets import BigButton, Column, Panel, Stepper, Text, metrics, row

ENGINE_SHED_TRAINS = 6
DRAWN = ("iron", "stone", "coal", "event")


def round_end_lines(session: Any, language: str) -> list[tuple[str, bool]] | None:
    """What happened between the end of the last round and the start of this one — site office restock,
    weather, work rates, the bag draw, event cubes — worded by the session's announcer from the engine's
    own events (so it is complete after a restart too, unlike the passing announcements)."""
    events = getattr(getattr(session, "game", None), "events", None)
    if not events:
        return None
    started = [i for i, e in enumerate(events) if e.get("type") == "round_started"]
    if len(started) < 2:
        return None
    ended = [i for i in range(started[-2], started[-1])
             if events[i].get("type") == "phase_changed" and events[i].get("phase") == "end_of_round"]
    if not ended:
        return None
    from tableassist.session.announcer import Announcer

    lines = Announcer(language).lines(list(events[ended[-1]:started[-1] + 1]), session.game)
    return [(line.text, line.urgent) for line in lines if line.topic != "phase_changed"]


class EndOfRoundScreen(BaseScreen):
    screen_name = "end_of_round"
    title = "End of round"

    def build(self) -> None:
        m = metrics()
        self.heading = Text("", size="large", bold=True, size_hint_y=None, height=m.px(40))
        self.add_widget(self.heading)
        self.main = BoxLayout(orientation="horizontal", spacing=m.gap)
        self.add_widget(self.main)
        self.continue_button: BigButton | None = None
        self.draw_button: BigButton | None = None
        self.outcome_buttons: list[BigButton] = []
        self.components = self.app.components
        self.pick_kind = ""  # the table's own order of track cards / trains, tapped one by one
        self.pick_order: list[int] = []
        self.pick_buttons: dict[int, BigButton] = {}
        self.lay_button: BigButton | None = None
        self.draw_key: Any = None
        self.draw_counts: dict[str, int] = {}
        self.draw_steppers: dict[str, Stepper] = {}
        self.drawn_button: BigButton | None = None

    def update(self, view: dict[str, Any]) -> None:
        m = metrics()
        self.main.clear_widgets()
        self.continue_button = None
        self.draw_button = None
        self.outcome_buttons = []
        wait = waiting(view)
        table_step = bool(wait) and wait.get("player") is None
        board = Column(size_hint_x=0.6)
        board.add(weather_row(view))
        board.add(site_office_row(view))
        board.add(yard_row(view))
        board.add(event_track_row(view, compact=True))
        side_box = BoxLayout(orientation="vertical", spacing=m.gap, size_hint_x=0.4)
        side = Column()
        side_box.add_widget(side)
        self.side_column, self.side_box = side, side_box
        if table_step:
            self.heading.text = str(wait.get("prompt") or _("The table"))
            self._table_step(view, side)
        else:
            round_now = view.get("round")
            self.heading.text = (_("End of round {n}").format(n=round_now - 1) if isinstance(round_now, int)
                                 else _("End of round"))
            lines = round_end_lines(self.app.session, str(view.get("language") or "en"))
            if lines is None:  # no engine to ask: the session's latest announcements
                lines = [(str(a.get("text", "")), bool(a.get("urgent"))) for a in view.get("announcements") or []][-8:]
            for text, urgent in lines:
                side.add(Text(text, size="small", fit_height=True, colour=theme.WARNING if urgent else theme.TEXT))
            self.continue_button = BigButton(_("Continue to round {n}").format(n=round_now),
                                             on_tap=self.app.acknowledge_round, colour=theme.CONFIRM,
                                             size="large", size_hint_y=None, height=m.target * 1.3)
            side_box.add_widget(self.continue_button)  # pinned: never scrolled away by a long round
        if table_step and wait.get("kind") in ("route", "engine_shed", "draw"):
            side_box.size_hint_x = 1  # the whole width for the cards or the counts; the board is not needed
        else:
            self.main.add_widget(board)
        self.main.add_widget(side_box)

    def _table_step(self, view: dict[str, Any], side: Column) -> None:
        m = metrics()
        pending = view.get("pending")
        if pending:
            box = Panel(orientation="vertical", colour=theme.hex_rgba("#1b3a4b"), radius=m.px(6), size_hint_y=None)
            box.bind(minimum_height=box.setter("height"))
            box.add_widget(Text(str(pending.get("text", "")), size="large", fit_height=True))
            box.add_widget(row(BigButton(_("Confirm"), on_tap=self.app.confirm, colour=theme.CONFIRM),
                               BigButton(_("Correct"), on_tap=self.app.reject)))
            side.add(box)
        self.draw_button = BigButton(_("Let the assistant draw"), on_tap=self.app.draw, colour=theme.ACCENT,
                                     size_hint_y=None, height=m.target)
        kind = waiting(view).get("kind")
        if kind in ("route", "engine_shed"):
            self._ordered_pick(view, side, str(kind))
            return
        if kind == "draw":
            self._draw_entry(view, side)
            return
        side.add(self.draw_button)
        self.pick_order = []
        choices = view.get("choices") or []
        if choices:
            side.add(Text(_("or tap what the table drew:"), size="small", fit_height=True))
            grid = GridLayout(cols=2, spacing=m.gap, size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for choice in choices:
                button = BigButton(str(choice.get("label", "")), on_tap=partial(self.app.act, choice["action"]),
                                   payload=choice["action"],
                                   size="small", size_hint_y=None, height=m.target)
                self.outcome_buttons.append(button)
                grid.add_widget(button)
            side.add(grid)

    # ---- the route and the engine shed, laid by the table (physical set-up) ---------------------------

    def _pick_options(self, kind: str) -> list[tuple[int, str]]:
        if kind == "route":
            return [(t.id, _("card {n}").format(n=t.id) + "\n" + _("{n} rubble").format(n=t.rubble))
                    for t in self.components.track_cards]
        return [(n, f"{n}\n{t.name}") for n, t in sorted(self.components.trains.items())]

    def _pick_count(self, view: dict[str, Any], kind: str) -> int:
        info = waiting(view).get("info") or {}
        if kind == "route":
            return int(info.get("count", len(self.components.track_cards)))
        return int(info.get("count", ENGINE_SHED_TRAINS))

    def _ordered_pick(self, view: dict[str, Any], side: Column, kind: str) -> None:
        """Tap the track cards (or trains) in the order the table laid them; the session checks the result."""
        m = metrics()
        if self.pick_kind != kind:
            self.pick_kind, self.pick_order = kind, []
        count = self._pick_count(view, kind)
        what = (_("Tap the track cards in route order, from Llanberis up: {done} of {count} — {order}")
                if kind == "route" else
                _("Tap the trains in engine-shed order (the one left over is set aside): {done} of {count} — {order}"))
        order = ", ".join(str(n) for n in self.pick_order) or _("none yet")
        side.add(Text(what.format(done=len(self.pick_order), count=count, order=order), size="small",
                      fit_height=True))
        grid = GridLayout(cols=7, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.pick_buttons = {}
        for number, label in self._pick_options(kind):
            place = self.pick_order.index(number) + 1 if number in self.pick_order else None
            shown = f"#{place}: {label.split(chr(10))[0]}" if place else label
            button = BigButton(shown, on_tap=partial(self._pick, number), size="small", size_hint_y=None,
                               height=m.target, on_blocked=self.app.say)
            if number in self.pick_order:
                button.block(_("{label} is already number {n}.").format(label=label.split(chr(10))[0],
                                                                        n=self.pick_order.index(number) + 1))
            self.pick_buttons[number] = button
            grid.add_widget(button)
        side.add(grid)
        self.lay_button = BigButton(_("Lay it") if kind == "route" else _("Fill the engine shed"), on_tap=self._lay,
                                    colour=theme.CONFIRM, size_hint_y=None, height=m.target, on_blocked=self.app.say)
        if len(self.pick_order) != count:
            self.lay_button.block(_("Tap {n} more.").format(n=count - len(self.pick_order)))
        # Pinned below the list: the last card is tapped, then Lay it, without scrolling back.
        self.side_box.add_widget(row(self.draw_button, BigButton(_("Undo last"), on_tap=self._unpick, size="small"),
                                     self.lay_button))

    def _pick(self, number: int) -> None:
        self.pick_order.append(number)
        self.update(self.app.view)

    def _unpick(self) -> None:
        if self.pick_order:
            self.pick_order.pop()
        self.update(self.app.view)

    def _lay(self) -> Any:
        order = list(self.pick_order)
        if self.pick_kind == "route":
            action: dict[str, Any] = {"type": "route", "tracks": order}
        else:
            left = [n for n in sorted(self.components.trains) if n not in order]
            action = {"type": "engine_shed", "trains": order, "set_aside": left[0] if len(left) == 1 else None}
        outcome = self.app.act(action)
        if outcome is not None and getattr(outcome, "ok", False):
            self.pick_kind, self.pick_order = "", []
        return outcome

    # ---- cubes drawn from the real bag (physical bag) -------------------------------------------------

    def _draw_entry(self, view: dict[str, Any], side: Column) -> None:
        """How many of each the table drew: four steppers, checked against the count the engine awaits.

        Every combination is a legal outcome (hundreds for a restock of 9): counting is quicker than
        finding the right one of hundreds of buttons.
        """
        m = metrics()
        info = waiting(view).get("info") or {}
        count = int(info.get("count", 0))
        # A new draw (the bag changed since the last one) starts from zero.
        key = (view.get("round"), info.get("purpose"), count, repr((view.get("state") or {}).get("bag")))
        if self.draw_key != key:
            self.draw_key, self.draw_counts = key, {k: 0 for k in DRAWN}
        side.add(Text(_("Count what the table drew ({n} cubes):").format(n=count), size="small",
                      fit_height=True))
        self.draw_steppers = {}
        grid = GridLayout(cols=2, spacing=m.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for kind in DRAWN:
            stepper = Stepper(cube_name(kind, 2).capitalize(), self.draw_counts[kind], 0, count,
                              on_change=partial(self._count_drawn, kind))
            self.draw_steppers[kind] = stepper
            grid.add_widget(stepper)
        side.add(grid)
        total = sum(self.draw_counts.values())
        self.drawn_button = BigButton(_("These {n} were drawn").format(n=total), on_tap=self._drawn,
                                      colour=theme.CONFIRM, on_blocked=self.app.say)
        if total != count:
            self.drawn_button.block(_("That is {total} cubes; the bag gave {n}.").format(total=total, n=count))
        # Pinned below: the assistant's draw or the table's count, always in reach.
        self.side_box.add_widget(row(self.draw_button, self.drawn_button))

    def _count_drawn(self, kind: str, value: int) -> None:
        self.draw_counts[kind] = value
        total = sum(self.draw_counts.values())
        if self.drawn_button is not None:
            count = int((waiting(self.app.view).get("info") or {}).get("count", 0))
            self.drawn_button.text = _("These {n} were drawn").format(n=total)
            self.drawn_button.block(None if total == count else
                                    _("That is {total} cubes; the bag gave {n}.").format(total=total, n=count))

    def _drawn(self) -> Any:
        return self.app.act({"type": "draw", **self.draw_counts})
