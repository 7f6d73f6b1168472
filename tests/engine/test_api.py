"""The engine's contract with the session and the UI: refusals change nothing, undo, replay, JSON, why_not."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tableassist.engine import DigitalSource, Game, IllegalAction, Setup
from tableassist.engine.simulate import random_game, round_trip

from .helpers import Table


def test_illegal_action_is_refused_with_reason_and_changes_nothing() -> None:
    t = Table(3)
    t.place(("C", 1))
    before = t.state.to_json()
    actions = t.game.actions
    with pytest.raises(IllegalAction) as err:
        t.game.apply({"type": "place", "player": 1, "area": "C", "space": 1})
    assert err.value.reason == "This space is taken."
    assert t.state.to_json() == before and t.game.actions == actions


def test_why_not_names_the_problem_and_none_when_legal() -> None:
    t = Table(3)
    assert t.game.why_not({"type": "place", "player": 0, "area": "C", "space": 1}) is None
    assert t.game.why_not({"type": "place", "player": 0, "area": "Q", "space": 1}) == "There is no action area Q."
    assert t.game.why_not({"type": "excavate", "player": 0}) == \
        "Now is not the time for 'excavate': Ann: place a labourer"
    assert t.game.why_not({"nothing": 1}) == "An action needs a type."


def test_undo_drops_the_last_action() -> None:
    t = Table(3)
    before = t.state.to_json()
    n = len(t.game.actions)
    t.place(("A", 1))
    assert t.game.undo() == {"type": "place", "player": 0, "area": "A", "space": 1}
    assert t.state.to_json() == before and len(t.game.actions) == n
    assert t.waiting.player == 0


def test_replay_from_json_rebuilds_the_same_state() -> None:
    game, result = random_game(4, seed=11)
    assert result.finished and not result.violations
    assert round_trip(game) is None
    again = Game.replay(Setup.from_json(json.loads(json.dumps(game.setup.to_json()))),
                        json.loads(json.dumps(game.actions)))
    assert again.events == game.events


def test_replay_names_the_bad_action() -> None:
    with pytest.raises(IllegalAction, match=r"Action 2 \(route\)"):
        Game.replay(Setup(players=["A", "B"]), [{"type": "route", "tracks": list(range(1, 13))},
                                                {"type": "route", "tracks": list(range(1, 13))}])


def test_chance_outcomes_are_validated_against_hidden_state() -> None:
    t = Table(3)
    t.place(*[("G", i) for i in range(1, 7)])
    t.run(lambda d: d.kind == "draw")
    bag = t.state.bag
    assert t.game.why_not({"type": "draw", "iron": 0, "stone": 0, "coal": bag["coal"] + 1, "event": 8}) == \
        f"The bag holds only {bag['coal']} coal cubes."
    assert t.game.why_not({"type": "draw", "iron": 1, "stone": 0, "coal": 0, "event": 0}) == \
        "Exactly 9 cubes are drawn."
    assert t.game.why_not({"type": "draw", "player": 0, "iron": 9}) == \
        "This is a chance outcome, not a player's decision."
    outcome = DigitalSource(3).chance(t.game)
    assert t.game.why_not(outcome) is None


def test_digital_source_is_reproducible() -> None:
    a, _ = random_game(3, seed=5)
    b, _ = random_game(3, seed=5)
    assert a.actions == b.actions


def test_state_json_has_what_the_ui_draws() -> None:
    t = Table(4)
    data = json.loads(json.dumps(t.state.to_json()))
    for key in ("weather", "work_rates", "event_track", "bag", "stock_yard", "site_office", "route", "stations",
                "engine_shed", "players", "placed"):
        assert key in data
    assert data["players"][0]["markers"] == 16 and data["work_rates"]["excavation"]["rate"] == 2


def test_placeholders_reported() -> None:
    game = Game.new(Setup(players=["A", "B"]))
    assert set(game.placeholders) == {"track_cards.vp", "event_track", "work_rate_tracks"}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", *args], capture_output=True, text=True)


def test_simulate_json() -> None:
    result = run_cli("simulate", "--players", "2", "--games", "3", "--seed", "4", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 3 and report["violations"] == [] and report["actions"] > 100
    assert len(report["scores"]) == 3 and all(s["winners"] for s in report["scores"])


def test_simulate_with_sensible_players_plays_real_games() -> None:
    """Sensible players build and lay track, so their games reach far more of the rules than random play."""
    result = run_cli("simulate", "--players", "3", "--games", "2", "--seed", "1", "--policy", "sensible", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["violations"] == [] and report["games"] == 2
    assert all(max(s["totals"].values()) >= 30 for s in report["scores"])


@pytest.mark.parametrize("args", [("--players", "6"), ("--players", "two"), ("--players", "2", "--games", "0"), (),
                                  ("--players", "2", "--policy", "clever")])
def test_simulate_bad_arguments_one_line(args: tuple[str, ...]) -> None:
    result = run_cli("simulate", *args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr


def test_malformed_actions_get_a_sentence_not_a_traceback() -> None:
    t = Table(3)
    t.place(("A", 1), ("G", 1), ("G", 2), ("G", 3), ("G", 4), ("G", 5))
    t.run_to("stock_yard")
    assert t.game.why_not({"type": "stock_yard", "player": 0, "iron": "lots"}) == \
        "That action is malformed: Ann: take up to 3 cubes from the stock yard (at most 1 coal)"
    assert t.game.why_not([1, 2]) == "An action needs a type."  # type: ignore[arg-type]


def test_surveyor_placement_needs_no_space() -> None:
    t = Table(3)
    t.act("place", area="G")
    assert t.game.actions[-1] == {"type": "place", "player": 0, "area": "G", "space": 1}
