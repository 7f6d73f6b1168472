"""Whole rounds through the real table session on simulated devices (journal, voice, buttons, reader, camera)."""

from __future__ import annotations

import json
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from tableassist.cards import CardSpec
from tableassist.ports import YardReading
from tableassist.session import rules
from tableassist.session.forecast import event_odds
from tests.session.helpers import journal_actions, make_table, play_until, seeded_choice, waiting_kind


def round_is(n: int) -> Any:
    return lambda game: game.state.round == n and game.waiting is not None and game.waiting.kind == "place"


def test_two_whole_rounds_every_action_journalled_and_announced(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    seen_rows: list[int] = []

    def check(view: dict[str, Any]) -> None:  # at every notification the journal already holds the action
        seen_rows.append(len(journal_actions(table)))
        assert len(journal_actions(table)) == len(session.game.actions)

    session.subscribe(check)
    play_until(session, round_is(3))
    assert journal_actions(table) == session.game.actions
    assert seen_rows and seen_rows == sorted(seen_rows)
    said = table.said()
    assert any(line.startswith("Weather: ") for line in said)
    assert any(line.startswith("Round 2") for line in said)
    assert any("Restock the stock yard" in line for line in said)
    assert "Ann: place a labourer." in said  # whose turn it is, said when it changes
    assert not any(a == b for a, b in zip(said, said[1:], strict=False) if a.endswith("place a labourer."))
    view = session.view()
    json.dumps(view)  # everything the screen draws is JSON-able
    assert view["round"] == 3 and view["waiting"]["kind"] == "place"
    assert view["choices"] and all(c["action"]["player"] == view["waiting"]["player"] for c in view["choices"])
    assert view["scores_now"]["players"][0]["name"] == "Ann"


def test_illegal_actions_are_refused_with_the_engines_reason_and_change_nothing(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    before = session.game.state.to_json()
    player = session.game.waiting.player
    other = (player + 1) % 3
    outcome = session.act({"type": "place", "player": other, "area": "A", "space": 1})
    assert not outcome.ok and session.game.setup.players[player] in outcome.message
    assert session.view()["error"] == outcome.message
    assert session.game.state.to_json() == before
    assert len(journal_actions(table)) == len(session.game.actions)
    assert table.controls.status == "error" and table.controls.buzzes == 1
    blocked = session.view()["blocked"]
    assert blocked and all(b["reason"] for b in blocked)
    legal = [c["action"] for c in session.view()["choices"]]
    assert not any(b["action"] in legal for b in blocked)


def test_camera_mismatch_is_shown_and_spoken_never_overwritten(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    engine_yard = rules.stock_yard(session.game)
    assert engine_yard["iron"] >= 2
    table.yard.set_yard(iron=engine_yard["iron"] - 2)  # someone knocked two iron off the stock yard
    session.check_yard()
    view = session.view()
    assert view["yard"]["differences"] == {"iron": -2}
    assert view["yard"]["message"] == "2 iron missing from the stock yard."
    assert "2 iron missing from the stock yard." in table.said()
    assert rules.stock_yard(session.game) == engine_yard  # the engine keeps its count
    assert view["pending"] is None  # not a Stock Yard action: nothing to propose
    session.check_yard()  # the same reading again is not said again
    assert table.said().count("2 iron missing from the stock yard.") == 1


def test_unsure_camera_is_reported_not_compared(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    session.on_yard(YardReading(iron=0, stone=0, coal=0, unsure="a hand covers the stock yard"))
    yard = session.view()["yard"]
    assert yard["differences"] == {} and yard["message"] is None
    assert "a hand covers the stock yard" in yard["unsure"]
    session.on_yard(YardReading(iron=0, stone=0, coal=0, confidence=0.05))
    assert "not sure" in session.view()["yard"]["unsure"]


def test_a_stock_yard_action_is_proposed_from_the_cameras_difference_and_confirmed_by_button(
        tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("stock_yard"))
    player = session.game.waiting.player
    name = session.game.setup.players[player]
    yard = rules.stock_yard(session.game)
    taken = {"iron": min(2, yard["iron"]), "stone": min(1, yard["stone"]), "coal": 0}
    assert sum(taken.values()) >= 2
    table.yard.set_yard(**{c: yard[c] - taken[c] for c in taken})
    session.check_yard()
    pending = session.view()["pending"]
    assert pending is not None
    assert pending["action"] == {"type": "stock_yard", "player": player, **taken}
    assert pending["text"].startswith(f"{name} takes ")
    assert rules.stock_yard(session.game) == yard  # nothing happens before the player confirms
    count = len(session.game.actions)
    table.controls.press("confirm")
    assert len(session.game.actions) == count + 1
    assert session.game.actions[count] == {"type": "stock_yard", "player": player, **taken}
    assert table.journal.sources(session.game_id or 0)[count] == "camera"
    assert (session.view()["pending"] or {}).get("source") != "camera"  # the proposal is used up


def test_a_rejected_proposal_leaves_the_table_to_correct_it(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("stock_yard"))
    yard = rules.stock_yard(session.game)
    table.yard.set_yard(iron=yard["iron"] - 1)
    session.check_yard()
    assert session.view()["pending"] is not None
    count = len(session.game.actions)
    table.controls.press("back")
    assert session.view()["pending"] is None and len(session.game.actions) == count
    session.check_yard()  # the camera sees the same yard again: the turned-down proposal is not offered again
    assert session.view()["pending"] is None
    table.yard.set_yard(iron=yard["iron"] - 2)
    session.check_yard()  # the yard changed: a new proposal
    assert session.view()["pending"]["action"]["iron"] == 2


def test_unknown_rfid_tag_is_refused_and_spoken(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    count = len(session.game.actions)
    table.reader.tap("0A1B2C3D4E")
    assert len(session.game.actions) == count
    assert "Unknown card 0A1B2C3D4E" in (session.view()["error"] or "")
    assert any("Unknown card 0A1B2C3D4E" in line for line in table.said())


def test_a_tapped_contract_card_takes_that_contract(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("take_contract"))
    offered = [a["contract"] for a in rules.legal(session.game) if a["type"] == "take_contract"]
    assert offered
    table.cards.enrol("00000000AA", CardSpec(kind="contract", number=offered[-1]))
    absent = next(n for n in range(1, 31) if n not in offered)
    table.cards.enrol("00000000BB", CardSpec(kind="contract", number=absent))
    count = len(session.game.actions)
    table.reader.tap("00000000BB")  # a real card, but not one on offer now
    assert len(session.game.actions) == count and session.view()["error"]
    table.reader.tap("00000000AA")
    assert session.game.actions[count]["contract"] == offered[-1]
    assert table.journal.sources(session.game_id or 0)[count] == "rfid"


def test_undo_across_a_round_boundary_and_redo(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, round_is(2))
    round_two = session.game.state.to_json()
    actions_two = session.game.actions
    sources = table.journal.sources(session.game_id or 0)
    last_person = max(i for i, s in enumerate(sources) if s != "digital")
    session.undo()  # back over the end of round 1 and its draws to the last step a person took
    assert session.game.state.round == 1
    assert len(session.game.actions) == last_person
    assert journal_actions(table) == actions_two[:last_person]
    assert session.can_redo and session.view()["can_redo"]
    session.redo()
    assert session.game.state.to_json() == round_two
    assert journal_actions(table) == actions_two
    assert not session.can_redo


def test_a_new_action_ends_redo(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    session.act(seeded_choice(session.game, 1))
    session.undo()
    assert session.can_redo
    session.act(seeded_choice(session.game, 2))
    assert not session.can_redo
    assert not session.redo().ok


def test_undo_by_the_held_back_button(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    count = len(session.game.actions)
    session.act(seeded_choice(session.game, 1))
    table.controls.press("undo")
    assert len(session.game.actions) == count


def test_physical_bag_waits_for_the_camera_and_the_table_confirms_before_events(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, bag_mode="physical", follow=False)
    session = table.session
    # the table draws setup cards by hand too; here the digital source stands in for them (draw())
    play_until(session, lambda g: rules.awaits_bag_draw(g) and g.state.round >= 1 and g.state.phase != "setup")
    count = rules.bag_draw_size(session.game)
    outcomes = [a for a in rules.legal(session.game) if a["event"] >= 1] or rules.legal(session.game)
    drawn = outcomes[0]
    assert drawn["iron"] + drawn["stone"] + drawn["coal"] + drawn["event"] == count
    yard = rules.stock_yard(session.game)
    before = len(session.game.actions)
    session.on_yard(YardReading(iron=yard["iron"], stone=yard["stone"], coal=yard["coal"]))  # nothing drawn yet
    assert (session.view()["pending"] or {}).get("source") != "camera"
    # the players put the goods they drew on the stock yard and the event cubes on the event track
    session.on_yard(YardReading(iron=yard["iron"] + drawn["iron"], stone=yard["stone"] + drawn["stone"],
                                coal=yard["coal"] + drawn["coal"]))
    pending = session.view()["pending"]
    assert pending is not None
    assert pending["action"] == {"type": "draw", **{k: drawn[k] for k in ("iron", "stone", "coal", "event")}}
    assert "Confirm before the events resolve" in pending["text"]
    assert len(session.game.actions) == before  # nothing resolves before the table confirms
    table.controls.press("confirm")
    assert session.game.actions[before]["type"] == "draw"
    assert table.journal.sources(session.game_id or 0)[before] == "camera"
    if drawn["event"]:
        assert any(a["topic"] == "event_resolved" for a in session.view()["announcements"])


def test_physical_bag_does_not_draw_by_itself(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, bag_mode="physical")
    session = table.session
    assert session.game.waiting.player is None  # the route is the table's to lay
    assert session.game.actions == []
    assert session.draw().ok  # unless the table asks the assistant to draw
    assert len(session.game.actions) == 1


def test_resume_after_a_power_cut_continues_exactly(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, seed=11)
    play_until(table.session, round_is(2))
    state = table.session.game.state.to_json()
    actions = table.session.game.actions
    game_id = table.session.game_id
    # the power goes: nothing is closed; a new process opens the same file
    again = make_table(tmp_path, players=3, new=False)
    assert again.session.resume("latest") == game_id
    assert again.session.game.state.to_json() == state
    assert again.session.game.actions == actions
    # the digital bag draws the same after the resume as an uninterrupted game with the same seed
    uninterrupted = make_table(tmp_path / "other", players=3, seed=11)
    play_until(uninterrupted.session, round_is(3))
    play_until(again.session, round_is(3))
    assert again.session.game.actions == uninterrupted.session.game.actions


def test_forecast_in_the_view_is_the_exact_odds_of_the_engines_bag(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=4)
    session = table.session
    play_until(session, round_is(2))
    forecast = session.view()["forecast"]
    bag = session.game.state.bag
    odds = event_odds({k: bag.get(k, 0) for k in ("iron", "stone", "coal", "event")}, 12)
    assert forecast["restock"] == 12
    assert abs(forecast["p_event"] - float(1 - odds[0])) < 1e-12
    assert sum(o["p"] for o in forecast["outcomes"]) == 1.0 or abs(sum(o["p"] for o in forecast["outcomes"]) - 1) < 1e-9
    kinds = session.game.state.event_kinds
    occupied = [i for i, c in enumerate(session.game.state.event_track) if c]
    next_space = (max(occupied) + 1) if occupied else 0
    assert forecast["outcomes"][1]["fire"] == [kinds[next_space]]


def test_german_and_spanish_tables(tmp_path: Path) -> None:
    de = make_table(tmp_path / "de", players=3, language="de")
    play_until(de.session, round_is(2))
    assert any(line.startswith("Runde 2") for line in de.shown() + de.said())
    assert de.session.view()["waiting"]["prompt"].endswith("setze einen Arbeiter ein.")
    es = make_table(tmp_path / "es", players=3, language="es")
    play_until(es.session, round_is(2))
    assert any(line.startswith("Ronda 2") for line in es.shown() + es.said())
    es.session.set_language("en")
    assert es.session.view()["waiting"]["prompt"].endswith("place a labourer.")


def test_device_threads_and_the_screen_at_once(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("place"))
    stop = threading.Event()
    errors: list[BaseException] = []

    def devices() -> None:
        try:
            while not stop.is_set():
                table.reader.tap("FFFFFFFFFF")
                session.check_yard()
                session.view()
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=devices) for _ in range(3)]
    for t in threads:
        t.start()
    play_until(session, round_is(3), seed=5)
    stop.set()
    for t in threads:
        t.join()
    assert errors == []
    assert journal_actions(table) == session.game.actions


def test_a_forced_step_shows_what_will_happen_before_the_table_confirms(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, lambda g: waiting_kind("excavate")(g) and len(rules.legal(g)) == 1)
    player = session.game.waiting.player
    name = session.game.setup.players[player]
    before = session.game.state.to_json()
    count = len(session.game.actions)
    pending = session.view()["pending"]
    assert pending is not None and pending["action"] == {"type": "excavate", "player": player}
    assert session.game.state.to_json() == before and len(session.game.actions) == count  # only a preview
    table.controls.press("confirm")
    assert session.game.actions[count] == {"type": "excavate", "player": player}
    taken = [e for e in session.game.events if e.get("type") == "rubble_taken" and e.get("player") == player]
    last = taken[-1]
    where = f"track card {last['source']['track']}" if "track" in last["source"] else ""
    assert pending["text"].startswith(f"{name} excavates ")
    assert f"{last['n']} from {where}" in pending["text"]


def test_setup_by_tapping_track_cards_in_route_order_then_the_trains(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, bag_mode="physical", follow=False)
    session = table.session
    assert session.game.waiting.kind == "route"
    count = session.game.waiting.info["count"]
    order = list(range(14, 14 - count, -1))  # the order the table laid them, up the mountain
    for card in range(1, 15):
        table.cards.enrol(f"00000002{card:02X}", CardSpec(kind="track", number=card, rubble=2, vp=2))
    for train in range(1, 8):
        table.cards.enrol(f"00000003{train:02X}", CardSpec(kind="train", number=train))
    for card in order[:-1]:
        table.reader.tap(f"00000002{card:02X}")
        assert session.game.actions == []  # nothing happens before the last card of the route is in
    table.reader.tap(f"00000002{order[0]:02X}")
    assert "already tapped" in (session.view()["error"] or "")
    table.reader.tap(f"00000002{order[-1]:02X}")
    assert session.game.actions[0] == {"type": "route", "tracks": order}
    assert [t["card"] for t in session.game.state.to_json()["route"]] == order
    while session.game.waiting.kind != "engine_shed":
        assert session.draw().ok  # the site office cards: drawn by the assistant here
    shed = [5, 2, 7, 1, 3, 6]
    for train in shed:
        table.reader.tap(f"00000003{train:02X}")
    last = session.game.actions[-1]
    assert last == {"type": "engine_shed", "trains": shed, "set_aside": 4}
    assert table.journal.sources(session.game_id or 0)[-1] == "rfid"


def test_the_camera_thread_posts_readings_and_stops_on_close(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, follow=False)
    session = table.session
    play_until(session, waiting_kind("place"))
    table.yard.set_yard(**rules.stock_yard(session.game))
    table.yard.set_yard(coal=rules.stock_yard(session.game)["coal"] + 1)
    changes: list[dict[str, Any]] = []
    session.subscribe(changes.append)
    watchers_before = sum(t.name == "stock-yard camera" for t in threading.enumerate())
    session.start_camera(interval=0.02)
    assert sum(t.name == "stock-yard camera" for t in threading.enumerate()) == watchers_before + 1
    deadline = time.monotonic() + 5
    while not session.view()["yard"]["differences"] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert session.view()["yard"]["differences"] == {"coal": 1}
    time.sleep(0.2)  # several more identical readings...
    assert len(changes) == 1  # ...and the screen was told once
    session.close()
    assert sum(t.name == "stock-yard camera" for t in threading.enumerate()) == watchers_before


def test_a_whole_game_to_the_final_scores(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=2, seed=8)
    session = table.session
    play_until(session, lambda g: g.finished, limit=5000)
    view = session.view()
    assert view["finished"] and view["waiting"] is None and view["choices"] == []
    final = view["final"]
    totals = {p["name"]: p["total"] for p in final["players"]}
    best = max(totals.values())
    assert set(final["winners"]) <= {name for name, total in totals.items() if total == best}
    listing = session.games()[0]
    assert listing["finished"] and listing["winners"] == final["winners"] and listing["scores"] == totals
    assert any(line.startswith("Game over.") for line in table.said())
    assert table.controls.status == "idle"
    assert not session.act({"type": "pass", "player": 0}).ok


def test_refusals_the_table_meets_are_in_its_language(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, language="de")
    session = table.session
    play_until(session, waiting_kind("place"))
    first = session.game.waiting.player
    session.act({"type": "place", "player": first, "area": "A", "space": 1})
    blocked = {(b["action"].get("area"), b["action"].get("space")): b["reason"] for b in session.view()["blocked"]}
    assert blocked[("A", 1)] == "Dieses Feld ist besetzt."
    assert blocked[(None, None)].endswith("hat keine Lok und kann daher den dritten Arbeiter nicht holen.")
    wrong = (session.game.waiting.player + 1) % 3
    outcome = session.act({"type": "place", "player": wrong, "area": "C", "space": 1})
    assert outcome.message == f"{session.game.setup.players[session.game.waiting.player]} ist jetzt an der Reihe."


def test_physical_table_reveals_site_office_cards_by_tapping_them(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3, bag_mode="physical", follow=False)
    session = table.session
    play_until(session, lambda g: waiting_kind("reveal_contract")(g) and len(rules.legal(g)) < 30)
    possible = sorted({a["contract"] for a in rules.legal(session.game)})
    impossible = next(n for n in range(1, 31) if n not in possible)
    table.cards.enrol("0000000401", CardSpec(kind="contract", number=possible[0]))
    table.cards.enrol("0000000402", CardSpec(kind="contract", number=impossible))
    count = len(session.game.actions)
    table.reader.tap("0000000402")  # not a card that can be on top of the deck now: the engine says why
    assert len(session.game.actions) == count and session.view()["error"]
    table.reader.tap("0000000401")
    assert session.game.actions[count] == {"type": "reveal_contract", "contract": possible[0]}
    assert table.journal.sources(session.game_id or 0)[count] == "rfid"


def test_recent_taps_say_what_each_card_is_and_what_became_of_it(tmp_path: Path) -> None:
    table = make_table(tmp_path, players=3)
    session = table.session
    play_until(session, waiting_kind("take_contract"))
    offered = [a["contract"] for a in rules.legal(session.game) if a["type"] == "take_contract"]
    absent = next(n for n in range(1, 31) if n not in offered)
    table.cards.enrol("00000000AA", CardSpec(kind="contract", number=offered[-1]))
    table.cards.enrol("00000000BB", CardSpec(kind="contract", number=absent))
    assert session.view()["recent_taps"] == []
    for tag in ("0A1B2C3D4E", "00000000BB", "00000000AA"):
        table.reader.tap(tag)
    taps = session.view()["recent_taps"]
    assert [(t["tag"], t["card"], t["ok"]) for t in taps] == [
        ("0A1B2C3D4E", "unknown", False), ("00000000BB", f"contract {absent}", False),
        ("00000000AA", f"contract {offered[-1]}", True)]
    assert "Unknown card 0A1B2C3D4E" in taps[0]["result"]
    assert "does not fit" in taps[1]["result"]
    assert str(offered[-1]) in taps[2]["result"]  # what the session said when it took the contract
    assert all(datetime.fromisoformat(t["at"]).tzinfo is not None for t in taps)
    json.dumps(taps)
    for i in range(12):
        table.reader.tap(f"FFFFFFFF{i:02X}")
    taps = session.view()["recent_taps"]
    assert [t["tag"] for t in taps] == [f"FFFFFFFF{i:02X}" for i in range(2, 12)]  # the last ten, oldest first


def test_next_event_space_is_where_the_next_event_cube_lands(tmp_path: Path) -> None:
    """Over a whole game, every first event cube of a restock lands where view() said it would."""
    table = make_table(tmp_path, players=3, seed=4)
    session = table.session
    layout = list(session.game.setup.comps.event_track)
    checked, spaces = 0, set()
    for _ in range(3000):
        game = session.game
        if game.finished:
            break
        predicted = session.view()["next_event_space"]
        before = len(game.events)
        outcome = session.draw() if game.waiting.player is None else session.act(seeded_choice(game, 3))
        assert outcome.ok, outcome.message
        placed = [e for e in session.game.events[before:] if e["type"] == "event_cube_placed"]
        if placed:
            assert predicted == {"space": placed[0]["space"], "kind": placed[0]["kind"]}
            assert predicted["kind"] == layout[predicted["space"] - 1]
            checked += 1
            spaces.add(predicted["space"])
    assert session.game.finished and session.view()["next_event_space"] is None
    assert checked >= 5 and max(spaces) >= 8, (checked, spaces)
