"""The composition root: from the config, build real or simulated devices and the table session.

This is the one module that names both the core and the adapters (DESIGN.md). Hardware modules are
imported lazily, inside the functions, so `tableassist score` never pays for OpenCV and a machine without
a camera never imports its driver.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tableassist.config import Config, load_config
from tableassist.errors import UserError
from tableassist.ports import StockYardCamera, Voice, YardReading
from tableassist.session import Devices, Journal, TableSession


class SimulatedTable:
    """The cubes physically on the stock yard of a simulated table.

    By default the simulated players do what the assistant says, so the yard follows the engine after
    every change (`follow`); a test moves cubes by hand with `set_yard` to make the camera disagree.
    """

    def __init__(self, counts: dict[str, int] | None = None) -> None:
        self._lock = threading.Lock()
        self._counts = {"iron": 0, "stone": 0, "coal": 0, "event": 0, **(counts or {})}

    def set_yard(self, **counts: int) -> None:
        with self._lock:
            self._counts.update(counts)

    def yard(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)

    def follow(self, session: TableSession) -> Callable[[], None]:
        """Keep the yard equal to the engine's after every change (obedient players)."""

        def update(view: dict[str, Any]) -> None:
            state = view.get("state") or {}
            yard = state.get("stock_yard")
            if isinstance(yard, dict):
                self.set_yard(**{k: int(v) for k, v in yard.items() if k in ("iron", "stone", "coal")})

        update(session.view())
        return session.subscribe(update)


class CountingCamera:
    """A simulated camera that reports the simulated table's counts directly (no image involved).

    Used where rendering and reading images would only cost time (unit tests of the session's logic);
    the demo uses `RenderedYardCamera`, which runs the real stock-yard reader on rendered frames.
    """

    def __init__(self, table: SimulatedTable) -> None:
        self.table = table
        self.unsure: str | None = None

    def read_yard(self) -> YardReading:
        counts = self.table.yard()
        return YardReading(iron=counts["iron"], stone=counts["stone"], coal=counts["coal"],
                           event=counts.get("event", 0), unsure=self.unsure)

    def close(self) -> None:
        pass


class RenderedYardCamera:
    """The simulated camera of the demo: renders the table's stock yard (hardware.yard_render) and reads
    the frame with the real stock-yard reader (hardware.stockyard), calibrated on the rendered empty yard."""

    def __init__(self, table: SimulatedTable, seed: int = 0) -> None:
        from hardware import yard_render
        from hardware.stockyard import YardReader, build_profile

        self.table = table
        self.seed = seed
        self._render = yard_render.render_stock_yard
        # One reader for every frame: it keeps the empty yard's blurs and the net between frames.
        self._reader = YardReader(build_profile(self._render({}, seed=seed)))
        self._frames = 0
        self.last_frame: Any = None
        self._last: Any = None  # the reader's FrameReading of the last frame

    def read_yard(self) -> YardReading:
        counts = self.table.yard()
        self._frames += 1
        frame = self._render(counts, seed=self.seed)
        self.last_frame = frame
        self._last = self._reader.read(frame)
        reading: YardReading = self._last.reading
        return reading

    def debug_image(self) -> Any:
        """The last frame read, warped, cubes outlined (BGR), for the diagnostics screen; None before one."""
        from hardware.stockyard.debug import debug_view

        return None if self._last is None else debug_view(self._last)

    def close(self) -> None:
        pass


def build_voice(config: Config, *, simulate: bool) -> Voice | None:
    if not config.voice.enabled:
        return None
    from hardware.voice import RecordingVoice, SpeakerVoice

    if simulate:
        return RecordingVoice(language=config.language, volume=config.voice.volume, muted=config.voice.muted)
    return SpeakerVoice(language=config.language, volume=config.voice.volume, muted=config.voice.muted)


def open_real_camera(config: Config) -> StockYardCamera:
    """The camera and the real stock-yard reader, with the profile `tableassist vision calibrate` wrote."""
    from hardware.stockyard import CameraYardReader, load_profile
    from hardware.stockyard.cubenet import ModelMissing
    from tableassist.paths import config_dir

    try:
        from hardware import camera as capture
    except ImportError as err:
        raise UserError(f"the camera driver is not available: {err}") from None
    profile_dir = config_dir() / "stockyard"
    try:
        profile = load_profile(profile_dir)
    except (OSError, ValueError) as err:
        raise UserError(f"no stock-yard calibration in {profile_dir} ({err}): run "
                        f"'tableassist vision calibrate EMPTY_IMAGE --out {profile_dir}'") from None
    source = capture.open_camera(config.camera)
    try:
        return CameraYardReader(source, profile)
    except ModelMissing:
        source.close()  # the camera is not left held by a session that never started
        raise


def build_devices(config: Config, *, simulate: bool = False, table: SimulatedTable | None = None,
                  db: str | Path | None = None) -> Devices:
    """Real devices where the config names them (and not simulating), simulated stand-ins elsewhere."""
    from hardware.rfid import SerialCardReader, SimulatedCardReader

    reader: Any
    if config.rfid.port and not simulate:
        reader = SerialCardReader(config.rfid.port, config.rfid.protocol, baudrate=config.rfid.baudrate,
                                  hold_seconds=config.rfid.hold_seconds)
    else:
        reader = SimulatedCardReader()
    from hardware import controls as gpio

    controls: Any
    if config.gpio.enabled and not simulate:
        try:
            controls = gpio.GpioControls(config.gpio)
        except gpio.ControlsUnavailable as err:
            raise UserError(f"the buttons and LEDs are not available: {err}") from None
    else:
        controls = gpio.SimulatedControls()
    camera: StockYardCamera
    if config.camera.enabled and not simulate:
        camera = open_real_camera(config)
    else:
        camera = CountingCamera(table or SimulatedTable())
    from tableassist.cards import CardRegistry

    cards = CardRegistry.open(db)
    return Devices(voice=build_voice(config, simulate=simulate), reader=reader, controls=controls,
                   camera=camera, cards=cards)


def build_session(config_path: str | Path | None = None, *, simulate: bool = False,
                  db: str | Path | None = None) -> TableSession:
    """The table session the touchscreen app runs: devices from the config, the journal in `db`."""
    config = load_config(config_path)
    table = SimulatedTable()
    devices = build_devices(config, simulate=simulate, table=table, db=db)
    from tableassist.engine import components
    from tableassist.paths import config_dir

    try:
        comps = components.load(config_dir() / "components.json")
    except ValueError as err:
        raise UserError(str(err)) from None
    session = TableSession(Journal(db), devices, comps, language=config.language,  # type: ignore[arg-type]
                           override_path=config_dir() / "components.json")
    if isinstance(devices.camera, CountingCamera):
        table.follow(session)
    session.start_reader()
    session.start_camera()
    return session
