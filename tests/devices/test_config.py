"""The TOML config: documented defaults, the sample in step with them, one-sentence errors."""

from __future__ import annotations

import re
import tomllib
from dataclasses import fields
from importlib import resources
from pathlib import Path

import pytest

from tableassist.config import SECTIONS, Config, load_config, parse_config
from tableassist.errors import UserError


def test_no_file_means_the_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = load_config()
    assert config == Config()
    assert config.rfid.port == "" and not config.gpio.enabled and not config.camera.enabled
    assert (config.gpio.confirm, config.gpio.back, config.gpio.next) == (17, 27, 22)


def test_the_default_location_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "tableassist").mkdir()
    (tmp_path / "tableassist" / "config.toml").write_text('[table]\nlanguage = "de"\n', encoding="utf-8")
    assert load_config().language == "de"


def test_the_sample_documents_exactly_the_defaults() -> None:
    sample = resources.files("tableassist.data").joinpath("config.sample.toml").read_text(encoding="utf-8")
    assert parse_config(sample) == Config()
    # Every setting appears in the sample, so the sample is the complete documentation.
    raw = tomllib.loads(sample)
    assert set(raw) == set(SECTIONS)
    for name, cls in SECTIONS.items():
        assert set(raw[name]) == {f.name for f in fields(cls)}, name


def test_settings_are_read() -> None:
    config = parse_config("""
[table]
language = "es"
bag_mode = "physical"
[rfid]
port = "/dev/tableassist-rfid"
protocol = "line"
[gpio]
enabled = true
confirm = 23
[voice]
volume = 1
muted = true
""")
    assert (config.language, config.table.bag_mode) == ("es", "physical")
    assert (config.rfid.port, config.rfid.protocol) == ("/dev/tableassist-rfid", "line")
    assert config.gpio.enabled and config.gpio.confirm == 23 and config.gpio.back == 27
    assert config.voice.volume == 1.0 and config.voice.muted


@pytest.mark.parametrize(("text", "complaint"), [
    ("[rfid\nport = 1", "not valid TOML"),
    ("[rfid]\nprot = 'x'", "unknown setting 'prot' in [rfid]"),
    ("[sound]\nvolume = 1", "unknown section [sound]"),
    ("rfid = 3", "'rfid' must be a section"),
    ("[rfid]\nbaudrate = '9600'", "[rfid] baudrate must be a whole number"),
    ("[gpio]\nenabled = 1", "[gpio] enabled must be true or false"),
    ("[voice]\nvolume = 'loud'", "[voice] volume must be a number"),
    ("[voice]\nvolume = 1.5", "volume must be between 0.0 and 1.0"),
    ("[rfid]\nport = 0", "[rfid] port must be text"),
    ("[table]\nlanguage = 'fr'", "language must be one of en, de, es"),
    ("[table]\nbag_mode = 'cloth'", "bag_mode must be one of digital, physical"),
    ("[rfid]\nprotocol = 'wiegand'", "protocol must be one of rdm6300, line"),
    ("[gpio]\nconfirm = 40", "confirm = 40 is not a GPIO pin"),
    ("[gpio]\nnext = 17", "next and confirm both use pin 17"),
    ("[camera]\nindex = -1", "index must be 0 or more"),
])
def test_bad_settings_are_one_sentence(text: str, complaint: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_config(text, Path("/etc/tableassist/config.toml"))
    message = str(caught.value)
    assert complaint in message
    assert message.startswith("/etc/tableassist/config.toml")
    assert "\n" not in message


def test_a_named_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_toml_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[table]\nlanguage = \"en\"\nvolume 3\n", encoding="utf-8")
    with pytest.raises(UserError, match="line 3"):
        load_config(path)


def test_display_section_has_documented_defaults_and_is_checked() -> None:
    assert (Config().display.size, Config().display.fullscreen) == ("800x480", True)
    config = parse_config('[display]\nsize = "1024x600"\nfullscreen = false\n')
    assert (config.display.size, config.display.fullscreen) == ("1024x600", False)
    for bad, words in (('size = "big"', "[display] size must look like 800x480"),
                       ('size = "100x100"', "[display] size must look like 800x480"),
                       ('fullscreen = "yes"', "[display] fullscreen must be true or false")):
        with pytest.raises(UserError, match=re.escape(words)):
            parse_config(f"[display]\n{bad}\n")
