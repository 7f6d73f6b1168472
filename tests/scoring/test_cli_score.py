"""`tableassist score FILE|-` through a real subprocess: JSON out, or one line on stderr and a non-zero exit."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
GOOD: dict[str, Any] = {
    "tie_rule": "last_in_turn_order",
    "players": [
        {"name": "Green", "site_vps": [9, 4, 7], "track_vps": [3, 4], "rubble": 12, "coal": 2,
         "surveyor": "clogwyn", "train": 4, "contracts": [3, 20, 29], "daffodils": 0},
        {"name": "Blue", "site_vps": [5], "track_vps": [3, 3, 3], "rubble": 8, "coal": 3,
         "surveyor": "halfway", "train": None, "contracts": [21, 27, 7]},
        {"name": "Pink", "site_vps": [], "track_vps": [], "rubble": 0, "coal": 0,
         "surveyor": "llanberis", "train": None, "contracts": []},
    ],
}


def run_score(source: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tableassist", "score", source], input=stdin,
                          capture_output=True, text=True, timeout=60)


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "table.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_scores_a_file(tmp_path: Path) -> None:
    result = run_score(write(tmp_path, GOOD))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    green, blue, pink = out["players"]
    # Green: sites 20, tracks 7, surveyor 15, contracts 3 (6) + 29 (10), train 9 = 67.
    assert green["total"] == 67
    assert green["breakdown"] == {"sites": 20, "tracks": 7, "surveyor": 15, "contracts": 16, "train": 9,
                                  "daffodils": 0}
    assert green["fulfilled"] == {"3": {"sites": 3}, "29": {"surveyor": "clogwyn"}}
    # Blue: sites 5, tracks 9, surveyor 7, contracts 21 (24) + 27 (3 coal, 6) + 7 (11) = 41 → 62.
    assert blue["total"] == 62
    assert blue["fulfilled"] == {"7": {"rubble": 8}, "21": {"tracks": 3}, "27": {"coal": 3}}
    assert pink["total"] == 0
    assert out["winners"] == ["Green"]


def test_scores_standard_input() -> None:
    result = run_score("-", stdin=json.dumps(GOOD))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Green"]


def test_tie_rule_defaults_to_last_in_turn_order() -> None:
    table = {"players": [dict(GOOD["players"][2], name="A", surveyor="hebron"),
                         dict(GOOD["players"][2], name="B", surveyor="hebron")]}
    result = run_score("-", stdin=json.dumps(table))
    assert json.loads(result.stdout)["winners"] == ["B"]


def test_hand_checked_position_through_the_cli(tmp_path: Path) -> None:
    cases = json.loads((HERE / "positions.json").read_text())["cases"]
    case = next(c for c in cases if c["id"] == "all-30-contracts-rich")
    out = json.loads(run_score(write(tmp_path, case["input"])).stdout)
    assert {p["name"]: p["total"] for p in out["players"]} == case["expected"]["totals"]


def changed(path: tuple[Any, ...], value: Any, delete: bool = False) -> dict[str, Any]:
    data = copy.deepcopy(GOOD)
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


TWO_PLAYERS = {"players": GOOD["players"][1:]}
BAD: list[tuple[str, object, str]] = [
    ("malformed JSON", '{"players": [', "not valid JSON"),
    ("empty file", "", "empty"),
    ("not an object", "[1, 2]", "JSON object"),
    ("duplicate key", '{"players": [], "players": []}', "twice"),
    ("NaN", '{"players": [{"rubble": NaN}]}', "NaN"),
    ("number with 5000 digits", '{"players": [{"rubble": ' + "9" * 5000 + "}]}", "not valid JSON"),
    ("no players field", {"tie_rule": "shared"}, "players: missing"),
    ("no players", {"players": []}, "has 0"),
    ("six players", {"players": [dict(GOOD["players"][2], name=str(i)) for i in range(6)]}, "has 6"),
    ("players not a list", {"players": {"name": "x"}}, "players: must be a list"),
    ("player not an object", {"players": ["Green"]}, "players[0]"),
    ("unknown tie rule", changed(("tie_rule",), "coin_toss"), "tie_rule"),
    ("unknown contract", changed(("players", 0, "contracts"), [3, 31]), "players[0].contracts[1]"),
    ("contract 0", changed(("players", 0, "contracts"), [0]), "no contract 0"),
    ("28 with 2 players", {"players": [dict(GOOD["players"][1], contracts=[28]), GOOD["players"][2]]},
     "3 or more players"),
    ("29 with 2 players", {"players": [GOOD["players"][1], dict(GOOD["players"][2], contracts=[29])]},
     "players[1].contracts[0]"),
    ("29 solo", {"players": [dict(GOOD["players"][0], contracts=[29])]}, "3 or more players"),
    ("negative rubble", changed(("players", 1, "rubble"), -1), "players[1].rubble"),
    ("negative coal", changed(("players", 1, "coal"), -2), "players[1].coal"),
    ("negative daffodils", changed(("players", 1, "daffodils"), -2), "players[1].daffodils"),
    ("negative site vp", changed(("players", 0, "site_vps"), [9, -4]), "players[0].site_vps[1]"),
    ("unknown station", changed(("players", 0, "surveyor"), "snowdon"), "players[0].surveyor"),
    ("waterfall with 2 players", {"players": [dict(GOOD["players"][1], surveyor="waterfall"), GOOD["players"][2]]},
     "Waterfall"),
    ("passing loop with 3 players", changed(("players", 2, "surveyor"), "passing_loop"), "Passing Loop"),
    ("17 markers", changed(("players", 0, "site_vps"), [1] * 15), "17 ownership markers"),
    ("duplicate names", changed(("players", 1, "name"), "Green"), "players[1].name"),
    ("empty name", changed(("players", 1, "name"), " "), "players[1].name"),
    ("rubble as text", changed(("players", 0, "rubble"), "12"), "players[0].rubble"),
    ("rubble as fraction", changed(("players", 0, "rubble"), 1.5), "whole number"),
    ("rubble as true", changed(("players", 0, "rubble"), True), "players[0].rubble"),
    ("track vps not a list", changed(("players", 0, "track_vps"), 7), "players[0].track_vps"),
    ("contract as text", changed(("players", 0, "contracts"), ["3"]), "players[0].contracts[0]"),
    ("surveyor as number", changed(("players", 0, "surveyor"), 6), "players[0].surveyor"),
    ("contract held twice", changed(("players", 1, "contracts"), [3]), "contract 3 is held"),
    ("contract twice by one", changed(("players", 2, "contracts"), [5, 5]), "held twice"),
    ("train held twice", changed(("players", 1, "train"), 4), "train No. 4 is already held"),
    ("unknown train", changed(("players", 1, "train"), 9), "players[1].train"),
    ("train as text", changed(("players", 1, "train"), "Snowdon"), "players[1].train"),
    ("missing rubble", changed(("players", 0, "rubble"), None, delete=True), "players[0].rubble: missing"),
    ("missing surveyor", changed(("players", 0, "surveyor"), None, delete=True), "players[0].surveyor: missing"),
    ("missing train", changed(("players", 0, "train"), None, delete=True), "players[0].train: missing"),
    ("missing contracts", changed(("players", 0, "contracts"), None, delete=True), "contracts: missing"),
    ("missing name", changed(("players", 0, "name"), None, delete=True), "players[0].name: missing"),
    ("misspelt field", changed(("players", 0, "daffodil"), 6), "did you mean 'daffodils'"),
]


@pytest.mark.parametrize(("case", "data", "names"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_and_non_zero(tmp_path: Path, case: str, data: object, names: str) -> None:
    result = run_score(write(tmp_path, data))
    assert result.returncode != 0, case
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert names in lines[0], lines[0]


def test_missing_file_and_directory(tmp_path: Path) -> None:
    for source, says in ((str(tmp_path / "nope.json"), "no such file"), (str(tmp_path), "directory")):
        result = run_score(source)
        assert result.returncode != 0
        assert len(result.stderr.strip().splitlines()) == 1
        assert says in result.stderr


def test_binary_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "photo.json"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    result = run_score(str(path))
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and "UTF-8" in result.stderr


def test_missing_argument_is_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "tableassist", "score"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1


def test_extra_fields_that_are_not_typos_are_ignored() -> None:
    data = changed(("players", 0, "colour"), "green")
    data["_comment"] = "from the score pad"
    result = run_score("-", stdin=json.dumps(data))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["players"][0]["total"] == 67


# The shipped example inputs, worked out by hand:
#   three-players: Green 20+7+15+(3: 6, 29: 10)+9 = 67; Blue 5+9+7+(21: 24, 27: 6, 7: 11) = 62;
#   Pink 27+4+21+(28: 23 beats 1: 15 for the five sites; 14: 11) = 86 → Pink.
#   daffodil-line (shared): Yellow 6+3+1+43 = 53; Purple 16+4+9+34 = 63 → Purple.
EXAMPLES = {"three-players.json": ({"Green": 67, "Blue": 62, "Pink": 86}, ["Pink"]),
            "daffodil-line.json": ({"Yellow": 53, "Purple": 63}, ["Purple"])}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_inputs(name: str) -> None:
    result = run_score(str(HERE / "examples" / name))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    totals, winners = EXAMPLES[name]
    assert {p["name"]: p["total"] for p in out["players"]} == totals
    assert out["winners"] == winners


def test_surveyor_may_be_typed_as_the_printed_station_name() -> None:
    data = changed(("players", 0, "surveyor"), "Clogwyn Station")
    data["players"][1]["surveyor"] = "rocky valley halt"
    result = run_score("-", stdin=json.dumps(data))
    assert result.returncode == 0, result.stderr
    green, blue, _ = json.loads(result.stdout)["players"]
    assert green["breakdown"]["surveyor"] == 15 and green["fulfilled"]["29"] == {"surveyor": "clogwyn"}
    assert blue["breakdown"]["surveyor"] == 11


def test_null_tie_rule_means_the_default() -> None:
    data = {"tie_rule": None, "players": [dict(GOOD["players"][2], name="A", surveyor="hebron"),
                                          dict(GOOD["players"][2], name="B", surveyor="hebron")]}
    result = run_score("-", stdin=json.dumps(data))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["B"]
