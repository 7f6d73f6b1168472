"""The touchscreen app: draws the table session's view and sends the table's intentions.

It never recomputes a rule: every legal choice, every reason a space is closed, every computed outcome
comes from `session.view()`. Session callbacks may arrive from device threads (RFID, buttons, camera);
they only schedule a redraw on Kivy's clock, so the UI thread is never blocked by them.

Import this only after `ui.boot.configure(...)` (Kivy reads its window settings on first import).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window

from tableassist.errors import UserError
from ui import i18n, theme
from ui.chrome import MessageLine, StandIns, TopBar
from ui.i18n import _
from ui.screens import SCREENS
from ui.screens.base import BaseScreen, Stage
from ui.viewdata import screen_for
from ui.widgets import Panel, set_metrics

log = logging.getLogger("tableassist.ui")

# Screens the game moves on by itself; the others (overview, menu, settings…) stay until the table leaves.
GAME_SCREENS = frozenset({"new_game", "placement", "resolution", "end_of_round", "final_scores"})
WATCHDOG_INTERVAL_S = 5.0
PREWARM_DELAY_S = 0.4  # after the last change, when a table is reading rather than tapping
PREBUILD_INTERVAL_S = 0.3
GC_INTERVAL_S = 1.0
GC_QUIET_S = 1.0  # a full collection only after this long without a touch
GC_FULL_EVERY_S = 5.0
GC_FULL_AT_LEAST_EVERY_S = 20.0  # even while tapping without pause, so garbage cycles never pile up
NEVER = 1_000_000  # a collection threshold never reached
DEFAULT_GC_THRESHOLD = gc.get_threshold()


def _service() -> Any:
    """tableassist.service (systemd notify), or None where it is not installed."""
    try:
        from tableassist import service
    except ImportError:
        return None
    return service


class Screens(Mapping[str, BaseScreen]):
    """The app's screens by name, each built the first time it is needed: a table that never opens the
    score calculator never pays for its hundred buttons (start-up time and memory)."""

    def __init__(self, app: TableApp) -> None:
        self._app = app
        self._classes = {cls.screen_name: cls for cls in SCREENS}
        self._built: dict[str, BaseScreen] = {}

    def __getitem__(self, name: str) -> BaseScreen:
        if name not in self._built:
            self._built[name] = self._classes[name](self._app)
        return self._built[name]

    def built(self, name: str) -> bool:
        return name in self._built

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)


class TableApp(App):
    title = "Snowdonia Table Assistant"

    def __init__(self, session: Any, *, size: tuple[int, int] = (800, 480), stand_ins: bool = False,
                 read_only: bool = False, db_label: str = "", first_screen: str | None = None,
                 on_first_screen: Callable[[TableApp], None] | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.size = size
        self.stand_ins = stand_ins
        self.read_only = read_only
        self.db_label = db_label
        self.first_screen = first_screen
        self.on_first_screen = on_first_screen
        self.view: dict[str, Any] = {}
        self.manager: Stage | None = None
        self.manager_current = ""
        self._acked_round: int | None = None  # the end-of-round summary the table has seen
        self._changes_lock = threading.Lock()
        self._changes = 0  # session changes seen
        self._drawn = 0  # session changes drawn
        self._redraw_scheduled = False
        self._unsubscribe: Callable[[], None] | None = None
        self._watchdog: Any = None
        self.first_screen_at: float | None = None

    # ---- building ------------------------------------------------------------------------------

    def build(self) -> Any:
        Window.clearcolor = theme.BACKGROUND
        if tuple(Window.size) != tuple(self.size):
            Window.size = self.size
        # The root paints the background itself, so a widget export (screenshot) is not transparent.
        self.root = Panel(orientation="vertical", colour=theme.BACKGROUND, padding=0, spacing=0)
        self.rebuild()
        if self.session is not None and not self.read_only:
            self._unsubscribe = self.session.subscribe(self._session_changed)
        # "Up" means drawn: the first frame on the glass, not merely built (systemd's READY, the bench).
        Window.fbind("on_flip", self._first_flip)
        service = _service()
        if service is not None:
            # Pinged from the UI loop itself: if the loop freezes, the pings stop and systemd restarts us.
            self._watchdog = Clock.schedule_interval(lambda _dt: service.watchdog_ping(),
                                                     service.watchdog_interval(WATCHDOG_INTERVAL_S))
        return self.root

    def rebuild(self) -> None:
        """(Re)create every widget for the current window size (used again when the snapshot tool resizes)."""
        set_metrics(Window.height)
        self._follow_language(self._read_view())
        root = self.root
        self.manager_current = self.manager.current if self.manager is not None else ""
        root.clear_widgets()
        self.top = TopBar(self)
        self.manager = Stage()  # no transitions: nothing ever holds a tap back
        self.screens = Screens(self)
        self.message = MessageLine()
        self._prewarm_overview = Clock.create_trigger(self._prewarm, PREWARM_DELAY_S)
        root.add_widget(self.top)
        root.add_widget(self.manager)
        root.add_widget(self.message)
        self.stand_in_bar: StandIns | None = None
        if self.stand_ins:
            self.stand_in_bar = StandIns(self)
            root.add_widget(self.stand_in_bar)
        self.view = self._read_view()
        previous = self.manager_current
        target = self.first_screen or previous or self._game_screen(self.view)
        self.first_screen = None
        self.show(target)
        self._show_session_message(self.view)

    def _follow_language(self, view: dict[str, Any]) -> bool:
        """Switch the app's own words to the table's language; True if it changed."""
        wanted = view.get("language") or getattr(self.session, "language", None) or "en"
        if wanted == i18n.language():
            return False
        i18n.set_language(str(wanted))
        return True

    def _first_flip(self, *_args: Any) -> None:
        Window.funbind("on_flip", self._first_flip)
        self._first_frame(0)

    def _first_frame(self, _dt: float) -> None:
        if self.first_screen_at is not None:
            return  # once per app, even when the window is rebuilt
        self.first_screen_at = time.perf_counter()
        self._take_over_garbage_collection()
        # The other screens are built one at a time while nobody touches the table, so opening any of them
        # later is only a switch; the first screen did not wait for them.
        self._prebuild = Clock.schedule_interval(self._prebuild_next, PREBUILD_INTERVAL_S)
        service = _service()
        if service is not None:
            service.notify_ready("the touchscreen is up")
        if self.on_first_screen is not None:
            self.on_first_screen(self)

    def _take_over_garbage_collection(self) -> None:
        """Collect garbage when the table is not tapping.

        Kivy keeps many objects alive, so Python's automatic full collection can pause a tap by 60–140 ms.
        Everything built at start lives as long as the app (frozen: never scanned); the young generations
        are still collected automatically (short), but the oldest only here: after a second without a touch,
        or every 20 s in any case.
        """
        gc.collect()
        gc.freeze()
        young, middle, _oldest = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        self._last_touch = time.perf_counter()
        self._last_full_collection = time.perf_counter()
        Window.bind(on_touch_down=self._touched)
        Clock.schedule_interval(self._collect_garbage, GC_INTERVAL_S)

    def _prebuild_next(self, _dt: float) -> bool:
        if time.perf_counter() - self._last_touch < GC_QUIET_S / 2:
            return True
        # The card-reader stand-in is only reachable when the table has no reader.
        waiting = [name for name in self.screens
                   if not self.screens.built(name) and (name != "reader" or self.stand_ins)]
        if not waiting:
            return False  # all built: stop the interval
        self.screens[waiting[0]].update(self.view)
        return True

    def _touched(self, *_args: Any) -> bool:
        self._last_touch = time.perf_counter()
        return False

    def _collect_garbage(self, _dt: float) -> None:
        now = time.perf_counter()
        since_full = now - self._last_full_collection
        quiet = now - self._last_touch >= GC_QUIET_S
        if (quiet and since_full >= GC_FULL_EVERY_S) or since_full >= GC_FULL_AT_LEAST_EVERY_S:
            gc.collect()
            self._last_full_collection = now

    def on_stop(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
        if self._unsubscribe is not None:
            self._unsubscribe()
        gc.set_threshold(*DEFAULT_GC_THRESHOLD)
        service = _service()
        if service is not None and hasattr(service, "notify_stopping"):
            service.notify_stopping()

    # ---- the session ---------------------------------------------------------------------------

    @property
    def components(self) -> Any:
        """The session's component data (with the owner's corrections), or the shipped data without one."""
        found = getattr(self.session, "components", None)
        if found is None:
            from tableassist.engine import components

            found = components.default()
        return found

    def _read_view(self) -> dict[str, Any]:
        if self.session is None:
            return {"game_id": None}
        view: dict[str, Any] = self.session.view()
        return view

    def _session_changed(self, _view: dict[str, Any]) -> None:
        """Called by the session after every change, from whatever thread made it: only schedule a redraw.

        Changes are counted, and a redraw remembers the count it drew, so a change the UI itself made (and
        redrew at once, see `_after`) costs no second redraw, and a burst of device changes costs one.
        """
        with self._changes_lock:
            self._changes += 1
            if self._redraw_scheduled:
                return
            self._redraw_scheduled = True
        Clock.schedule_once(self._redraw_from_clock, 0)

    def _redraw_from_clock(self, _dt: float) -> None:
        with self._changes_lock:
            self._redraw_scheduled = False
            stale = self._drawn < self._changes
        if stale:
            self.refresh()

    def refresh(self) -> None:
        """Read the view and redraw the top bar, the message line and the visible screen."""
        with self._changes_lock:
            self._drawn = self._changes
        self.view = self._read_view()
        view = self.view
        current = self.manager.current if self.manager else ""
        target = self._game_screen(view)
        if current in GAME_SCREENS or not current:
            current = target
        self.show(current, refresh_view=False)
        self._show_session_message(view)
        if current != "overview":
            self._prewarm_overview()

    def _prewarm(self, _dt: float) -> None:
        """Bring the Overview up to date while the table is not tapping, so opening it is only a switch."""
        if self.manager is not None and self.manager.current != "overview" and "overview" in self.screens:
            self.screens["overview"].update(self.view)

    def _game_screen(self, view: dict[str, Any]) -> str:
        target = screen_for(view)
        round_now = view.get("round")
        if isinstance(round_now, int):
            if self._acked_round is None:
                self._acked_round = round_now
            elif round_now > self._acked_round and target == "placement":
                # A new round began: show what happened at the end of the last one until the table moves on.
                return "end_of_round"
        return target

    def acknowledge_round(self) -> None:
        round_now = self.view.get("round")
        if isinstance(round_now, int):
            self._acked_round = round_now
        self.refresh()

    def _show_session_message(self, view: dict[str, Any]) -> None:
        if view.get("error"):
            self.message.show(str(view["error"]), "error")
            return
        announcements = view.get("announcements") or []
        if announcements:
            last = announcements[-1]
            self.message.show(str(last.get("text", "")), "urgent" if last.get("urgent") else "info")
        else:
            self.message.show("")

    def _after(self, outcome: Any) -> Any:
        """Redraw after the table acted from this thread; a refusal's reason goes on the message line."""
        self.refresh()
        if outcome is not None and not getattr(outcome, "ok", True):
            self.message.show(str(outcome.message), "error")
        return outcome

    def _send(self, call: Callable[..., Any], *args: Any) -> Any:
        """One of the table's intentions to the session, then a redraw. A fault in the session is shown as
        one sentence and logged, never a dead touchscreen (the journal holds everything acknowledged)."""
        if self.read_only or self.session is None:
            return None
        try:
            outcome = call(*args)
        except UserError as err:
            self.message.show(str(err), "error")
            return None
        except Exception:  # noqa: BLE001 - the table must keep its screen; the log keeps the traceback
            log.exception("the session failed on %s%r", getattr(call, "__name__", call), args)
            self.refresh()
            self.message.show(_("That did not work; the game is unchanged. (The log says why.)"), "error")
            return None
        return self._after(outcome)

    def act(self, action: dict[str, Any]) -> Any:
        return self._send(self.session.act, action) if self.session is not None else None

    def confirm(self) -> Any:
        return self._send(self.session.confirm) if self.session is not None else None

    def reject(self) -> Any:
        return self._send(self.session.reject) if self.session is not None else None

    def draw(self) -> Any:
        return self._send(self.session.draw) if self.session is not None else None

    def undo(self) -> Any:
        return self._send(self.session.undo) if self.session is not None else None

    def redo(self) -> Any:
        return self._send(self.session.redo) if self.session is not None else None

    def press_button(self, button: str) -> None:
        """The on-screen stand-in for a GPIO button: the same path a real button takes."""
        if self.session is not None:
            self._send(self.session.on_button, button)

    def tap_card(self, tag: str) -> Any:
        """The on-screen stand-in for the RFID reader (the session keeps the tap in view()["recent_taps"])."""
        return self._send(self.session.on_tag, tag) if self.session is not None else None

    # ---- navigation ----------------------------------------------------------------------------

    def show(self, name: str, *, refresh_view: bool = True) -> None:
        if self.manager is None or name not in self.screens:
            return
        if refresh_view and self.session is not None:
            self.view = self._read_view()
        if self._follow_language(self.view):
            self.first_screen = name
            self.rebuild()  # every widget again, in the new language
            return
        screen = self.screens[name]
        screen.update(self.view)
        self.manager.switch(screen)
        self.top.update(self.view, name)

    def refresh_to_game(self) -> None:
        """After a new game or a resume: forget the old round and go to what the table needs now."""
        self._acked_round = None
        self.view = self._read_view()
        self.show(self._game_screen(self.view), refresh_view=False)
        self._show_session_message(self.view)

    def show_game(self) -> None:
        self.show(self._game_screen(self._read_view()))

    def say(self, text: str) -> None:
        """A reason or hint on the message line (e.g. why a space cannot be used now)."""
        self.message.show(text, "reason")
