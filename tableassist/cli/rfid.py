"""`tableassist rfid listen`: print one line per card tap."""

from __future__ import annotations

import argparse
import json
import queue
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tableassist.config import RFID_PROTOCOLS, load_config
from tableassist.errors import UserError

if TYPE_CHECKING:
    from hardware.rfid import SerialCardReader


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "rfid", parents=[common], help="the RFID card reader"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    listen = actions.add_parser("listen", parents=[common], help="print one line per card tap")
    listen.add_argument("--port", metavar="DEVICE", help="serial device (default: [rfid] port in the config)")
    listen.add_argument("--protocol", choices=RFID_PROTOCOLS, help="rdm6300 frames or one tag per line "
                        "(default: [rfid] protocol in the config, else rdm6300)")
    listen.add_argument("--count", type=positive_int, metavar="N", help="exit after N taps")
    listen.add_argument("--timeout", type=positive_float, metavar="SECONDS",
                        help="give up (exit 1) when no tap comes for this long")
    listen.add_argument("--json", action="store_true", help='one JSON object per tap: {"tag": "0F00A1B2C3"}')
    listen.add_argument("--config", metavar="FILE", help="config file (default: the user's config directory)")
    listen.set_defaults(handler=handle)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
    return value


@dataclass(frozen=True)
class ConfiguredReader:
    reader: SerialCardReader
    port: str
    protocol: str


def configured_reader(args: argparse.Namespace) -> ConfiguredReader:
    """The reader on --port/--protocol, else the config's [rfid] port and protocol, checked before it is
    opened: one plain sentence (UserError) when there is no port or it cannot be read."""
    from hardware.rfid import SerialCardReader, check_port

    config = load_config(args.config)
    port = args.port or config.rfid.port
    if not port:
        raise UserError("no RFID port: give --port DEVICE or set [rfid] port in the config")
    problem = check_port(port)
    if problem:
        raise UserError(f"cannot read cards: {problem}")
    protocol = args.protocol or config.rfid.protocol
    reader = SerialCardReader(port, protocol, baudrate=config.rfid.baudrate, hold_seconds=config.rfid.hold_seconds)
    return ConfiguredReader(reader, port, protocol)


def handle(args: argparse.Namespace) -> int:
    configured = configured_reader(args)
    port, reader = configured.port, configured.reader
    taps: queue.Queue[str] = queue.Queue()
    connections = 0

    def status(message: str) -> None:
        nonlocal connections
        if message.startswith("RFID reader connected"):
            connections += 1
            if connections == 1:  # taps go to stdout; this tells a person (or a script) when to start tapping
                message = f"listening on {port} ({configured.protocol}); tap a card"
        print(f"tableassist rfid: {message}", file=sys.stderr, flush=True)

    reader.start(taps.put, status)
    seen = 0
    try:
        while args.count is None or seen < args.count:
            try:
                tag = taps.get(timeout=args.timeout if args.timeout else 3600)
            except queue.Empty:
                if args.timeout:
                    raise UserError(f"no card tapped within {args.timeout:g} s", exit_code=1) from None
                continue
            seen += 1
            print(json.dumps({"tag": tag}) if args.json else tag, flush=True)
    finally:
        reader.stop()
    return 0
