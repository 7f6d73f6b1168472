"""`tableassist replay GAME_ID|latest|FILE [--json]`: rebuild a game from its journal and print where it stands.

FILE is a JSON export of a game (`{"setup": …, "actions": […], "components": …}`, as `Journal.export` writes).
The game is rebuilt by the engine from its setup and actions with the component data stored with it,
exactly as a restart after a power cut does (a game journalled before games kept their components is
rebuilt with the current ones, the owner's corrections included).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tableassist.errors import UserError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    parser = commands.add_parser(
        "replay", parents=[common], help="rebuild a game from its journal and print where it stands"
    )
    parser.add_argument("game", metavar="GAME_ID|latest|FILE", help="a game id, 'latest', or a JSON export")
    parser.add_argument("--json", action="store_true", help="one JSON object: game, actions, round, phase, finished")
    parser.add_argument("--export", metavar="FILE", help="also write the game (setup and actions) to FILE as JSON")
    parser.set_defaults(handler=handle)


@dataclass(frozen=True)
class Loaded:
    game_id: Any  # the journal's id, or the export's file name
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    components: dict[str, Any] | None  # stored with the game; None: an older game (the current ones apply)


def load(game: str, db: str | None) -> Loaded:
    """The game's id, setup, actions and stored components, from the journal or an export file."""
    from tableassist.session.journal import Journal, load_export

    path = Path(game)
    if not game.isdigit() and game != "latest":
        if not path.exists():
            raise UserError(f"'{game}' is neither a game id, 'latest', nor an existing file")
        data = load_export(path)
        return Loaded(data.get("game", str(path)), data["setup"], data["actions"], data.get("components"))
    journal = Journal(db)
    try:
        record = journal.load(journal.resolve(game))
    finally:
        journal.close()
    return Loaded(record.id, record.setup, record.actions, record.components)


def rebuild(setup_json: dict[str, Any], actions: list[dict[str, Any]], stored: dict[str, Any] | None = None) -> Any:
    from tableassist.engine import Game, IllegalAction, Setup, components
    from tableassist.paths import config_dir

    try:
        # the components stored with the game; an older game: the owner's current corrections (tableassist.compose)
        comps = components.build(stored) if stored is not None else components.load(config_dir() / "components.json")
        setup = Setup.from_json(setup_json, components=comps)
    except (KeyError, TypeError, ValueError) as err:
        raise UserError(f"the game's setup cannot be read: {err}") from None
    if not all(isinstance(a, dict) for a in actions):
        raise UserError("every action must be a JSON object")
    try:
        return Game.replay(setup, actions)
    except IllegalAction as err:
        raise UserError(f"the actions do not replay: {err.reason}") from None


def summary(game_id: Any, game: Any) -> dict[str, Any]:
    from tableassist.i18n import translator
    from tableassist.session import rules
    from tableassist.session.labels import prompt

    state = rules.state_json(game)
    data: dict[str, Any] = {
        "game": game_id, "actions": len(game.actions), "round": state.get("round"),
        "phase": state.get("phase"), "finished": bool(game.finished),
        "players": list(game.setup.players),
        "waiting": None if game.finished else prompt(game, translator("en")),
    }
    if game.finished:
        result = rules.result(game)
        data["scores"] = result["scores"]
        data["winners"] = result["winners"]
    else:
        data["scores_now"] = {p["name"]: p["total"] for p in (rules.estimate(game) or {}).get("players", [])}
    return data


def export(path: Path, loaded: Loaded) -> None:
    data: dict[str, Any] = {"game": loaded.game_id, "setup": loaded.setup, "actions": loaded.actions}
    if loaded.components is not None:
        data["components"] = loaded.components
    try:
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None


def handle(args: argparse.Namespace) -> int:
    loaded = load(args.game, args.db)
    data = summary(loaded.game_id, rebuild(loaded.setup, loaded.actions, loaded.components))
    if args.export:
        export(Path(args.export), loaded)
    if args.json:
        print(json.dumps(data, sort_keys=True))
        return 0
    print(f"Game {data['game']}: {', '.join(data['players'])}")
    print(f"{data['actions']} actions, round {data['round']}, phase {data['phase']}")
    if data["finished"]:
        print("Finished. " + ", ".join(f"{name} {total}" for name, total in data["scores"].items()))
        print(f"Winner: {', '.join(data['winners'])}")
    else:
        print(f"Waiting: {data['waiting']}")
        if data.get("scores_now"):
            print("If it ended now: " + ", ".join(f"{n} {t}" for n, t in data["scores_now"].items()))
    return 0
