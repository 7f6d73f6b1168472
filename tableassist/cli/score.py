"""`tableassist score FILE|-`: the end-of-game score calculator.

Reads a described table (DESIGN.md, "`score` input"), prints every player's score with its breakdown,
the contracts fulfilled and what each used, and the winners, as JSON on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "score", parents=[common], help="the end-of-game score calculator",
        description="Score a finished game from a JSON description of the table (see DESIGN.md).",
    )
    parser.add_argument("file", metavar="FILE|-", help="the table as JSON; '-' reads standard input")
    parser.set_defaults(handler=handle)


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A key given twice would silently keep the last value; at a scoring table that is a typo to point out.
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise UserError(f"the field {key!r} appears twice in one object; give it once")
        obj[key] = value
    return obj


def _refuse_constant(name: str) -> None:
    raise UserError(f"not valid JSON: {name} is not a number a score table can hold; use a whole number")


def read_input(source: str) -> object:
    """The JSON document from FILE or standard input ('-'), or one UserError line saying what is wrong."""
    label = "standard input" if source == "-" else source
    try:
        if source == "-":
            text = sys.stdin.buffer.read().decode("utf-8-sig")
        else:
            with open(source, encoding="utf-8-sig") as handle:
                text = handle.read()
    except FileNotFoundError:
        raise UserError(f"{label}: no such file") from None
    except IsADirectoryError:
        raise UserError(f"{label}: is a directory, not a JSON file") from None
    except PermissionError:
        raise UserError(f"{label}: permission denied") from None
    except UnicodeDecodeError:
        raise UserError(f"{label}: not a UTF-8 text file; save the table as plain JSON") from None
    except OSError as err:
        raise UserError(f"{label}: cannot be read ({err.strerror or err})") from None
    if not text.strip():
        raise UserError(f"{label}: is empty; expected a JSON object with a \"players\" list")
    try:
        return json.loads(text, object_pairs_hook=_refuse_duplicate_keys, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise UserError(f"{label}: not valid JSON: {err.msg} at line {err.lineno} column {err.colno}") from None
    except RecursionError:
        raise UserError(f"{label}: nested too deeply to be a score table") from None
    except ValueError as err:  # e.g. a number with thousands of digits
        raise UserError(f"{label}: not valid JSON: {str(err).split(';')[0]}") from None


def handle(args: argparse.Namespace) -> int:
    from tableassist.engine import components as component_data
    from tableassist.engine import scoring

    data = read_input(args.file)
    components = component_data.default()
    try:
        holdings, tie_rule = scoring.table_from_json(data, components)
        table = scoring.score_table(holdings, tie_rule, components)
    except ValueError as err:
        raise UserError(str(err)) from None
    json.dump(table.to_json(), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
