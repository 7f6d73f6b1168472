"""The engine's refusals a table meets, in German and Spanish.

The engine words its refusals (`why_not`) in English only; tableassist.session.labels matches them with
patterns and says them in the table's language. Here a few seeded games are played by the engine's own
players, and at every decision the options a table can reach — every placement space, hiring the temporary
labourer, the contracts in hand, the site office, the deck (a tapped card), building sites and trains,
maintenance, the works, the stock yard, a physical bag draw — are asked `why_not`. Each refusal must be
matched by a pattern (else the engine's wording drifted, or a new refusal is not translated yet), and each
pattern must still match something the engine says (else it is dead: the engine's sentence changed).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tableassist import i18n
from tableassist.engine import DigitalSource, Game, Options, Setup, players
from tableassist.session import labels

NAMES = ["Ann", "Ben", "Cai", "Dee", "Eve"]
# Patterns the seeded games do not reach by themselves: each is produced directly below.
RARE = {"The game is over.", "{player} has no ownership markers left.", "Only {n} steel bar is left in the supply.",
        "No contract left in the deck has {weather} on its back."}


def _probes(game: Any) -> list[dict[str, Any]]:
    """What a table could ask for at this decision (by touch, a tapped card, a camera reading, the steppers)."""
    d = game.waiting
    state, p = game.state, d.player
    out: list[dict[str, Any]] = []
    if d.kind == "reveal_contract":
        out += [{"type": "reveal_contract", "contract": c} for c in range(1, 31)]
    if d.kind == "contract_back":
        out += [{"type": "contract_back", "weather": w} for w in ("sun", "rain", "fog")]
    if d.kind == "draw":
        count = int(d.info.get("count", 0))
        out += [{"type": "draw", "iron": count + 1, "stone": 0, "coal": 0, "event": 0},
                {"type": "draw", "iron": 0, "stone": 0, "coal": 0, "event": state.bag["event"] + 1}]
    if p is None:
        return out
    if d.kind == "place":
        out.append({"type": "hire_temporary", "player": p})
        out += [{"type": "place", "player": p, "area": a, "space": k}
                for a in "ABCDEF" for k in range(1, state.spaces[a] + 1)]
        out.append({"type": "place", "player": p, "area": "G", "space": len(state.placed["G"]) + 2})
        out.append({"type": "works", "player": p, "steel": 1, "stone": 0})  # a stale Works screen
        if len(game.setup.players) > 1:
            out.append({"type": "place", "player": (p + 1) % len(game.setup.players), "area": "A", "space": 1})
    if d.kind == "contracts":
        held = [*state.players[p].hand, *state.players[p].played]  # a card played already, tapped again
        out += [{"type": "play_contract", "player": p, "contract": c} for c in held]
    if d.kind == "take_contract":
        out += [{"type": "take_contract", "player": p, "contract": c} for c in range(1, 31)]
    if d.kind in ("build", "extra_build"):
        for station in state.stations:
            out += [{"type": "build", "player": p, "station": station.id, "site": i, "pay": {"stone": 1}}
                    for i in range(len(station.building))]
        out += [{"type": "buy_train", "player": p, "train": t, "pay": {"steel": 1}} for t in range(1, 8)]
        out += [{"type": "idle", "player": p}, {"type": "decline", "player": p}]
    if d.kind == "maintenance":
        out += [{"type": "maintain", "player": p, "pay": pay} for pay in ("steel", 16, 21)]
    if d.kind == "works":
        out += [{"type": "works", "player": p, "steel": s, "stone": t} for s in range(5) for t in range(5 - s)]
    if d.kind == "stock_yard":
        out += [{"type": "stock_yard", "player": p, "iron": 0, "stone": 0, "coal": 0, cube: n}
                for cube in ("iron", "stone", "coal") for n in range(1, 8)]
    return out


def engine_refusals(seeds: range) -> dict[str, str]:
    """Every distinct refusal sentence the engine gives in these games → the first action that drew it."""
    found: dict[str, str] = {}
    for seed in seeds:
        n = 1 + seed % 5
        options = Options(fog_blocks=2 if seed % 3 == 0 else None, contracts_per_window=1 if seed % 4 == 0 else None)
        game = Game.new(Setup(players=NAMES[:n], options=options, solo_train=1 if n == 1 else None))
        source, rng = DigitalSource(seed), random.Random(seed)
        while not game.finished:
            for action in _probes(game):
                reason = game.why_not(action)
                if reason is not None:
                    found.setdefault(reason, repr(action))
            decision = game.waiting
            assert decision is not None
            game.apply(source.chance(game) if decision.player is None else players.choose(game, rng))
    return found


def rare_refusals() -> list[str]:
    """The refusals behind RARE, from the engine, in the situations that draw them."""
    game = Game.new(Setup(players=["Ann", "Ben"]))
    source, rng = DigitalSource(1), random.Random(1)
    said: list[str | None] = []
    while not game.finished:
        d = game.waiting
        assert d is not None
        if d.kind == "works" and not any(s and "supply" in s for s in said):
            supply, game.state.steel_supply = game.state.steel_supply, 1  # the supply nearly used up
            said.append(game.why_not({"type": "works", "player": d.player, "steel": 2, "stone": 0}))
            game.state.steel_supply = supply
        if d.kind == "build" and d.player is not None:
            build = next((a for a in game.legal_actions() if a["type"] == "build"), None)
            if build is not None and not any(s and "markers" in s for s in said):
                markers, game.state.players[d.player].markers = game.state.players[d.player].markers, 0
                said.append(game.why_not(build))
                game.state.players[d.player].markers = markers
        if d.kind == "contract_back" and not any(s and "on its back" in s for s in said):
            # the deck holds all three backs early on: a weather that is on no card draws the sentence
            said.append(game.why_not({"type": "contract_back", "weather": "snow"}))
        game.apply(source.chance(game) if d.player is None else players.choose(game, rng))
    said.append(game.why_not({"type": "pass", "player": 0}))
    return [s for s in said if s]


@pytest.fixture(scope="module")
def refusals() -> dict[str, str]:
    found = engine_refusals(range(8))
    for sentence in rare_refusals():
        found.setdefault(sentence, "(set up)")
    return found


def _matching(sentence: str, language: str) -> list[int]:
    return [i for i, (pattern, _words) in enumerate(labels._reasons(i18n.translator(language)))
            if pattern.match(sentence)]


@pytest.mark.parametrize("language", ["de", "es"])
def test_every_refusal_the_table_meets_is_said_in_the_tables_language(refusals: dict[str, str],
                                                                      language: str) -> None:
    tr = i18n.translator(language)
    untranslated = []
    for sentence, action in sorted(refusals.items()):
        said = labels.explain(sentence, None, tr)
        if not _matching(sentence, language) or said == sentence:
            untranslated.append(f"{sentence}   ({action})")
            continue
        assert "{" not in said and "'" not in said, f"{language}: {sentence!r} -> {said!r}"
        for name in re.findall(r"\b(?:Ann|Ben|Cai|Dee|Eve)\b", sentence.split(":")[0]):  # (the prompt after ":" goes)
            assert name in said, f"{language}: the player's name is lost in {said!r}"
    assert untranslated == [], "engine refusals without a pattern (wording drift or a new refusal):\n" + \
        "\n".join(untranslated)


def test_every_pattern_still_matches_what_the_engine_says(refusals: dict[str, str]) -> None:
    """A pattern nothing matches is one whose engine sentence changed: the refusal went back to English."""
    tr = i18n.translator("en")
    patterns = labels._reasons(tr)
    used = {i for sentence in refusals for i in _matching(sentence, "en")}
    dead = [patterns[i][0].pattern for i in range(len(patterns)) if i not in used]
    assert dead == []


def test_examples_read_as_the_editions_do() -> None:
    de, es = i18n.translator("de"), i18n.translator("es")
    assert labels.explain("Ann cannot pay {'stone': 4} that way.", None, de) == "Ann kann 4 Steine so nicht bezahlen."
    assert labels.explain("Contract 9 is not played before area A.", None, de) == \
        "Auftrag 9 wird nicht vor Lagerplatz gespielt."
    assert labels.explain("The top card shows fog on its back, so it cannot be contract 2.", None, es) == \
        "La carta de arriba muestra niebla en el reverso, así que no puede ser el contrato 2."
    assert labels.explain("Ben may take at most 1 cubes.", None, es) == "Ben puede tomar como máximo 1 cubo."
    assert labels.explain("The bag holds only 2 event cubes.", None, de).startswith("Im Beutel sind nur noch 2 ")
