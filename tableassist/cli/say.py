"""`tableassist say`: speak, or write speech to a WAV file."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from tableassist.config import LANGUAGES, load_config
from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "say", parents=[common], help="speak, or write speech to a WAV file"
    )
    parser.add_argument("text", nargs="+", metavar="TEXT", help="what to say")
    parser.add_argument("--lang", choices=LANGUAGES, help="voice language (default: [table] language in the config)")
    parser.add_argument("--to", metavar="FILE.wav", type=Path, help="write a WAV file instead of speaking")
    parser.add_argument("--volume", type=volume, metavar="0..1", help="default: [voice] volume in the config")
    parser.add_argument("--config", metavar="FILE", help="config file (default: the user's config directory)")
    parser.set_defaults(handler=handle)


def volume(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {text}")
    return value


def handle(args: argparse.Namespace) -> int:
    from hardware.voice import VoiceUnavailable, speak_now, write_wav

    config = load_config(args.config)
    text = " ".join(args.text).strip()
    if not text:
        raise UserError("there is nothing to say")
    language = args.lang or config.table.language
    level = args.volume if args.volume is not None else config.voice.volume
    if args.to is None:
        try:
            speak_now(text, language, level)
        except VoiceUnavailable as err:
            raise UserError(f"cannot speak here: {err}; --to FILE.wav writes the speech to a file",
                            exit_code=1) from err
        return 0
    target: Path = args.to
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise UserError(f"{target} is a directory; give a file name such as {target / 'speech.wav'}")
    if not folder.is_dir():
        raise UserError(f"cannot write {target}: the directory {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write {target}: no permission to write in {folder}")
    try:
        write_wav(text, language, target, level)
    except VoiceUnavailable as err:
        raise UserError(f"cannot write speech: {err}", exit_code=1) from err
    except OSError as err:
        raise UserError(f"cannot write {target}: {err.strerror or err}") from err
    return 0
