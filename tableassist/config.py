"""The owner's settings: a TOML file in the user's config directory (platformdirs).

Every setting has a documented default, so a missing file means "nothing configured": no RFID port,
no GPIO, no camera — the app then runs on simulated devices. A file that is there but wrong (bad TOML,
an unknown setting, a value of the wrong kind) is refused with one sentence naming the file and the
setting, because a typo silently ignored would leave the owner wondering why the reader never starts.
`tableassist/data/config.sample.toml` is the documented sample; keep the two in step.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

from tableassist.errors import UserError
from tableassist.paths import default_config_file

LANGUAGES = ("en", "de", "es")
RFID_PROTOCOLS = ("rdm6300", "line")
BAG_MODES = ("digital", "physical")
# BCM numbers a Raspberry Pi header offers as plain GPIO (0 and 1 are the HAT EEPROM's I2C bus).
GPIO_PINS = range(2, 28)


@dataclass(frozen=True)
class TableSettings:
    language: str = "en"  # screens and voice: en, de or es
    bag_mode: str = "digital"  # digital: the assistant draws; physical: the table draws from the real bag


@dataclass(frozen=True)
class RfidSettings:
    port: str = ""  # serial device, e.g. /dev/ttyUSB0 or /dev/tableassist-rfid; empty: no reader (simulated)
    protocol: str = "rdm6300"  # rdm6300 (EM4100 STX…ETX frames) or line (one tag per text line)
    baudrate: int = 9600
    hold_seconds: float = 1.0  # the same tag again within this time of its previous frame is the same tap


@dataclass(frozen=True)
class GpioSettings:
    enabled: bool = False  # false: on-screen stand-ins for the buttons and LEDs
    pin_factory: str = ""  # gpiozero pin factory (lgpio, rpigpio, pigpio, native, mock); empty: gpiozero's default
    confirm: int = 17  # buttons: BCM pin numbers, wired to ground (internal pull-ups)
    back: int = 27
    next: int = 22
    led_waiting: int = 5  # status LEDs, active high through a resistor
    led_event: int = 6
    led_error: int = 13
    buzzer: int = 19  # an active buzzer (on/off), active high
    bounce_ms: int = 30  # contact bounce shorter than this is ignored
    hold_seconds: float = 1.0  # Back held this long is Undo


@dataclass(frozen=True)
class CameraSettings:
    enabled: bool = False  # false: the simulated camera
    index: int = 0  # OpenCV VideoCapture index (/dev/videoN)
    width: int = 1280
    height: int = 720


@dataclass(frozen=True)
class VoiceSettings:
    enabled: bool = True  # false: no speech at all (lines still show on screen)
    volume: float = 0.8  # 0.0 to 1.0
    muted: bool = False  # can be toggled at the table; this is the state at start


@dataclass(frozen=True)
class DisplaySettings:
    size: str = "800x480"  # window size, WIDTHxHEIGHT (the official 7" display); --size and $TABLEASSIST_SIZE win
    # true: fill the screen where the app owns the console (the Pi, no desktop); under a desktop it opens a
    # window of `size` unless run with --fullscreen. false: a window of `size` everywhere.
    fullscreen: bool = True


@dataclass(frozen=True)
class Config:
    table: TableSettings = field(default_factory=TableSettings)
    rfid: RfidSettings = field(default_factory=RfidSettings)
    gpio: GpioSettings = field(default_factory=GpioSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    voice: VoiceSettings = field(default_factory=VoiceSettings)
    display: DisplaySettings = field(default_factory=DisplaySettings)
    source: Path | None = None  # the file it came from; None: all defaults

    @property
    def language(self) -> str:
        return self.table.language


SECTIONS: dict[str, type[Any]] = {
    "table": TableSettings,
    "rfid": RfidSettings,
    "gpio": GpioSettings,
    "camera": CameraSettings,
    "voice": VoiceSettings,
    "display": DisplaySettings,
}


def load_config(path: str | Path | None = None) -> Config:
    """The config from `path`, or from the user's config directory when `path` is None.

    A missing default file gives the defaults; a missing file that was asked for by name is an error.
    """
    explicit = path is not None
    file = Path(path) if path is not None else default_config_file()
    if not file.exists():
        if explicit:
            raise UserError(f"config file {file} does not exist")
        return Config()
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise UserError(f"cannot read the config file {file}: {err}") from err
    return parse_config(text, file)


def parse_config(text: str, source: Path | None = None) -> Config:
    where = str(source) if source else "config"
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise UserError(f"{where} is not valid TOML: {err}") from err
    sections: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in SECTIONS:
            raise UserError(f"{where}: unknown section [{name}] (known: {', '.join(SECTIONS)})")
        if not isinstance(value, dict):
            raise UserError(f"{where}: '{name}' must be a section, [{name}]")
        sections[name] = _build_section(where, name, SECTIONS[name], value)
    config = Config(**sections, source=source)
    _validate(where, config)
    return config


def _build_section(where: str, name: str, cls: type[Any], values: dict[str, Any]) -> Any:
    known = {f.name: f for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in values.items():
        if key not in known:
            raise UserError(f"{where}: unknown setting '{key}' in [{name}] (known: {', '.join(known)})")
        default = getattr(cls(), key)
        kwargs[key] = _coerce(where, f"[{name}] {key}", value, default)
    return cls(**kwargs)


def _coerce(where: str, setting: str, value: Any, default: Any) -> Any:
    # TOML has its own types; a float setting also takes an integer (volume = 1), nothing else converts.
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        raise UserError(f"{where}: {setting} must be true or false, not {value!r}")
    if isinstance(default, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise UserError(f"{where}: {setting} must be a whole number, not {value!r}")
    if isinstance(default, float):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise UserError(f"{where}: {setting} must be a number, not {value!r}")
    if isinstance(value, str):
        return value
    raise UserError(f"{where}: {setting} must be text in quotes, not {value!r}")


def _validate(where: str, config: Config) -> None:
    def check(ok: bool, message: str) -> None:
        if not ok:
            raise UserError(f"{where}: {message}")

    check(config.table.language in LANGUAGES, f"[table] language must be one of {', '.join(LANGUAGES)}")
    check(config.table.bag_mode in BAG_MODES, f"[table] bag_mode must be one of {', '.join(BAG_MODES)}")
    check(config.rfid.protocol in RFID_PROTOCOLS, f"[rfid] protocol must be one of {', '.join(RFID_PROTOCOLS)}")
    check(config.rfid.baudrate > 0, "[rfid] baudrate must be positive")
    check(0.0 < config.rfid.hold_seconds <= 10.0, "[rfid] hold_seconds must be between 0 and 10")
    check(0.0 <= config.voice.volume <= 1.0, "[voice] volume must be between 0.0 and 1.0")
    check(config.camera.index >= 0, "[camera] index must be 0 or more")
    check(config.camera.width > 0 and config.camera.height > 0, "[camera] width and height must be positive")
    check(_size_ok(config.display.size), "[display] size must look like 800x480 (320x240 to 4096x4096)")
    gpio = config.gpio
    pins = gpio_pins(gpio)
    for role, pin in pins.items():
        check(pin in GPIO_PINS, f"[gpio] {role} = {pin} is not a GPIO pin (BCM 2 to 27)")
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        check(pin not in seen, f"[gpio] {role} and {seen.get(pin)} both use pin {pin}")
        seen[pin] = role
    check(0 <= gpio.bounce_ms <= 500, "[gpio] bounce_ms must be between 0 and 500")
    check(0.1 <= gpio.hold_seconds <= 10.0, "[gpio] hold_seconds must be between 0.1 and 10")


def _size_ok(text: str) -> bool:
    parts = text.lower().strip().split("x")
    if len(parts) != 2 or not all(part.isdigit() for part in parts):
        return False
    width, height = int(parts[0]), int(parts[1])
    return 320 <= width <= 4096 and 240 <= height <= 4096


def gpio_pins(gpio: GpioSettings) -> dict[str, int]:
    """Each wired role and its BCM pin, in the order the sample file lists them."""
    return {
        "confirm": gpio.confirm, "back": gpio.back, "next": gpio.next,
        "led_waiting": gpio.led_waiting, "led_event": gpio.led_event, "led_error": gpio.led_error,
        "buzzer": gpio.buzzer,
    }


def as_dict(config: Config) -> dict[str, Any]:
    """The settings as plain data (for the settings screen and `doctor`)."""
    return {name: {f.name: getattr(getattr(config, name), f.name) for f in fields(getattr(config, name))}
            for name in SECTIONS if is_dataclass(getattr(config, name))}
