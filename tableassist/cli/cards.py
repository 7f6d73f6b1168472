"""`tableassist cards`: the RFID card registry — enrol cards by tapping them, list them, forget one."""

from __future__ import annotations

import argparse
import json
import queue
import sys
from typing import Any

from tableassist.cards import EXAMPLES, Card, CardRegistry, parse_card
from tableassist.config import RFID_PROTOCOLS
from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "cards", parents=[common], help="the RFID card registry"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    enrol = actions.add_parser("enrol", parents=[common], help="tap cards and say what each one is")
    enrol.add_argument("--port", metavar="DEVICE", help="serial device (default: [rfid] port in the config)")
    enrol.add_argument("--protocol", choices=RFID_PROTOCOLS, help="default: [rfid] protocol in the config")
    enrol.add_argument("--count", type=int, metavar="N", help="stop after N cards")
    enrol.add_argument("--config", metavar="FILE", help="config file (default: the user's config directory)")
    enrol.set_defaults(handler=handle_enrol)
    add = actions.add_parser("add", parents=[common], help="enrol one tag typed by hand: add TAG contract 12")
    add.add_argument("tag", metavar="TAG", help="10 hex digits")
    add.add_argument("description", nargs="+", metavar="WORDS", help=EXAMPLES)
    add.set_defaults(handler=handle_add)
    listing = actions.add_parser("list", parents=[common], help="the enrolled cards")
    listing.add_argument("--json", action="store_true", help="one JSON object per card")
    listing.set_defaults(handler=handle_list)
    forget = actions.add_parser("forget", parents=[common], help="remove a tag from the registry")
    forget.add_argument("tag", metavar="TAG")
    forget.set_defaults(handler=handle_forget)


def handle_add(args: argparse.Namespace) -> int:
    registry = CardRegistry.open(args.db)
    try:
        try:
            spec = parse_card(" ".join(args.description))
            card = registry.enrol(args.tag, spec)
        except ValueError as err:
            raise UserError(str(err)) from err
        print(f"{card.tag}  {card.describe()}")
    finally:
        registry.close()
    return 0


def handle_list(args: argparse.Namespace) -> int:
    registry = CardRegistry.open(args.db)
    try:
        cards = registry.cards()
    finally:
        registry.close()
    for card in cards:
        print(json.dumps(card.to_json()) if args.json else f"{card.tag}  {card.describe()}")
    if not cards and not args.json:
        print("no cards enrolled yet (tableassist cards enrol)", file=sys.stderr)
    return 0


def handle_forget(args: argparse.Namespace) -> int:
    registry = CardRegistry.open(args.db)
    try:
        try:
            found = registry.forget(args.tag)
        except ValueError as err:
            raise UserError(str(err)) from err
    finally:
        registry.close()
    if not found:
        raise UserError(f"no card with tag {args.tag.strip().upper()} is enrolled", exit_code=1)
    print(f"forgot {args.tag.strip().upper()}")
    return 0


def handle_enrol(args: argparse.Namespace) -> int:
    from tableassist.cli.rfid import configured_reader

    reader = configured_reader(args).reader
    if args.count is not None and args.count < 1:
        raise UserError("--count must be at least 1")
    registry = CardRegistry.open(args.db)
    taps: queue.Queue[str] = queue.Queue()
    reader.start(taps.put, lambda message: print(f"  ({message})", file=sys.stderr, flush=True))
    enrolled = 0
    try:
        print(f"Tap a card on the reader, then type what it is, e.g. {EXAMPLES}. Ctrl-C ends.", flush=True)
        while args.count is None or enrolled < args.count:
            tag = taps.get()
            card = enrol_one(registry, tag)
            if card is None:
                break  # end of input
            enrolled += 1
            print(f"  stored: {card.tag} is {card.describe()}. Next card…", flush=True)
            drop_repeats(taps, tag)
    except KeyboardInterrupt:
        print()  # Ctrl-C is the normal way to finish; every card stored so far is committed
    finally:
        reader.stop()
        registry.close()
    print(f"{enrolled} card{'s' if enrolled != 1 else ''} enrolled")
    return 0


def drop_repeats(taps: queue.Queue[str], tag: str) -> None:
    """Forget taps of the card just enrolled that came while its answer was typed (lifted and put back)."""
    others = []
    while True:
        try:
            queued = taps.get_nowait()
        except queue.Empty:
            break
        if queued != tag:
            others.append(queued)
    for queued in others:
        taps.put(queued)


def enrol_one(registry: CardRegistry, tag: str) -> Card | None:
    """Ask what the tapped card is until the answer makes sense; None when input ends."""
    known = registry.lookup(tag)
    if known is not None:
        question = f"{tag} is enrolled as {known.describe()}. What is it? (empty: keep) "
    else:
        question = f"{tag} is new. What is it? "
    while True:
        print(question, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            return None
        text = line.strip()
        if not text and known is not None:
            return known
        try:
            spec = parse_card(text)
        except ValueError as err:
            print(f"  {err}. Try again.", flush=True)
            continue
        others = [t for t in registry.tags_for(spec) if t != tag]
        if others:
            print(f"  note: {spec.describe()} is also on tag {', '.join(others)}", flush=True)
        return registry.enrol(tag, spec)
