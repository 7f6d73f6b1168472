"""Names and labels in the game's own words, in the table's language (gettext).

Every string passes through `tr.gettext` with a literal msgid, so the catalogs can be checked for
completeness (tests/session/test_i18n.py extracts them with Babel).
"""

from __future__ import annotations

import ast
import gettext
import re
from collections.abc import Callable
from typing import Any

GOODS = ("iron", "stone", "coal")


def area_name(area: str, tr: gettext.NullTranslations) -> str:
    names = {
        "A": tr.gettext("Stock Yard"),
        "B": tr.gettext("Excavation"),
        "C": tr.gettext("Works"),
        "D": tr.gettext("Lay Track"),
        "E": tr.gettext("Build"),
        "F": tr.gettext("Site Office"),
        "G": tr.gettext("Surveyor"),
    }
    return names.get(area, area)


def weather_name(weather: str | None, tr: gettext.NullTranslations) -> str:
    names = {"sun": tr.gettext("sun"), "rain": tr.gettext("rain"), "fog": tr.gettext("fog")}
    return names.get(weather or "", tr.gettext("none"))


def event_name(kind: str, tr: gettext.NullTranslations) -> str:
    names = {
        "excavate": tr.gettext("contractors clear rubble"),
        "lay_track": tr.gettext("contractors lay track"),
        "complete_station": tr.gettext("contractors complete the station"),
        "trains_available": tr.gettext("trains may now be bought"),
        "maintenance": tr.gettext("train maintenance"),
    }
    return names.get(kind, kind)


def cube_name(cube: str, n: int, tr: gettext.NullTranslations) -> str:
    names = {
        "iron": tr.ngettext("iron", "iron", n),
        "stone": tr.ngettext("stone", "stone", n),
        "coal": tr.ngettext("coal", "coal", n),
        "steel": tr.ngettext("steel", "steel", n),
        "rubble": tr.ngettext("rubble", "rubble", n),
        "event": tr.ngettext("event cube", "event cubes", n),
    }
    return names.get(cube, cube)


def describe_cubes(counts: dict[str, Any], tr: gettext.NullTranslations) -> str:
    """'2 iron and 1 coal' in the table's language; 'nothing' when empty."""
    parts = [f"{n} {cube_name(cube, n, tr)}" for cube, n in counts.items() if isinstance(n, int) and n > 0]
    if not parts:
        return tr.gettext("nothing")
    if len(parts) == 1:
        return parts[0]
    return tr.gettext("{items} and {last}").format(items=", ".join(parts[:-1]), last=parts[-1])


def join_numbers(numbers: list[Any], tr: gettext.NullTranslations) -> str:
    items = [str(n) for n in numbers]
    if len(items) <= 1:
        return "".join(items)
    return tr.gettext("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def station_name(game: Any, station_id: str | None) -> str:
    if station_id is None:
        return ""
    try:
        return str(game.setup.comps.station(station_id).name)
    except (KeyError, AttributeError):
        return str(station_id)


def prompt(game: Any, tr: gettext.NullTranslations) -> str:
    """What the table waits for, in the table's language (the engine's own prompt is English only)."""
    d = game.waiting
    if d is None:
        return tr.gettext("The game is over.")
    who = game.setup.players[d.player] if d.player is not None else ""
    area = area_name(d.area, tr) if d.area else ""
    prompts = {
        "route": tr.gettext("Shuffle the track cards and lay the route."),
        "engine_shed": tr.gettext("Shuffle the trains and fill the engine shed."),
        "reveal_contract": tr.gettext("Turn the next contract face up."),
        "contract_back": tr.gettext("Which weather icon is on the back of the top contract?"),
        "draw": tr.gettext("Draw {n} cubes from the bag.").format(n=d.info.get("count", "?")),
        "stock_yard_setup": tr.gettext("Draw 6 cubes from the bag for the stock yard."),
        "place": tr.gettext("{player}: place a labourer.").format(player=who),
        "contracts": tr.gettext("{player}: play contracts for {area}, or pass.").format(player=who, area=area),
        "stock_yard": tr.gettext("{player}: take cubes from the stock yard.").format(player=who),
        "excavate": tr.gettext("{player}: excavate.").format(player=who),
        "works": tr.gettext("{player}: make steel or stone at the Works.").format(player=who),
        "lay_track": tr.gettext("{player}: lay track.").format(player=who),
        "build": tr.gettext("{player}: build a site or buy a train.").format(player=who),
        "take_contract": tr.gettext("{player}: take a contract from the site office.").format(player=who),
        "survey": tr.gettext("{player}: move the surveyor.").format(player=who),
        "maintenance": tr.gettext("{player}: maintain the train or return it.").format(player=who),
    }
    return prompts.get(d.kind, tr.gettext(d.prompt))


def label(game: Any, action: dict[str, Any], tr: gettext.NullTranslations) -> str:
    """A short button label for one action."""
    kind = action.get("type")
    goods = {cube: action.get(cube, 0) for cube in (*GOODS, "event") if cube in action}
    if kind == "place":
        return tr.gettext("{area}, space {space}").format(area=area_name(action["area"], tr), space=action["space"])
    if kind == "hire_temporary":
        return tr.gettext("Hire the temporary labourer")
    if kind == "pass":
        return tr.gettext("Pass")
    if kind == "play_contract":
        return tr.gettext("Play contract {n}").format(n=action["contract"])
    if kind in ("stock_yard", "take_cubes", "stock_yard_setup", "draw"):
        return describe_cubes(goods, tr)
    if kind == "works":
        return tr.gettext("{steel} steel, {stone} stone").format(steel=action.get("steel", 0),
                                                                 stone=action.get("stone", 0))
    if kind == "excavate":
        return tr.gettext("Excavate")
    if kind == "lay_track":
        return tr.gettext("Lay track")
    if kind == "survey":
        return tr.gettext("Move the surveyor")
    if kind == "build":
        return tr.gettext("Build at {station}, site {site}, paying {pay}").format(
            station=station_name(game, action.get("station")), site=action.get("site"),
            pay=describe_cubes(action.get("pay", {}), tr))
    if kind == "buy_train":
        return tr.gettext("Buy train {n}, paying {pay}").format(n=action.get("train"),
                                                                pay=describe_cubes(action.get("pay", {}), tr))
    if kind in ("take_contract", "keep_contract", "reveal_contract"):
        return tr.gettext("Contract {n}").format(n=action.get("contract"))
    if kind == "contract_back":
        return weather_name(action.get("weather"), tr)
    if kind == "swap_weather":
        return weather_name(action.get("weather"), tr)
    if kind == "idle":
        return tr.gettext("Nothing to do")
    if kind == "decline":
        return tr.gettext("Decline")
    if kind == "convert":
        return tr.gettext("Convert {n} times").format(n=action.get("times"))
    if kind == "maintain":
        pay = action.get("pay")
        if pay == "steel":
            return tr.gettext("Pay 1 steel")
        return tr.gettext("Discard contract {n}").format(n=pay)
    if kind == "return_train":
        return tr.gettext("Return the train")
    if kind == "move_labourer":
        return tr.gettext("Move a labourer to {area}").format(area=area_name(str(action.get("to", ["?"])[0]), tr))
    return str(kind)


ENGLISH_AREAS = {"Stock Yard": "A", "Excavation": "B", "Works": "C", "Lay Track": "D", "Build": "E",
                 "Site Office": "F", "Surveyor": "G"}


def _reasons(tr: gettext.NullTranslations) -> list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]]:
    """The engine's refusals a table meets in play, in the table's language. The engine words them in
    English only; these patterns follow its sentences (tests/session/test_refusals.py plays seeded games and
    checks that every refusal a table can meet is matched, and every pattern still matches the engine)."""
    _ = tr.gettext
    return [
        (re.compile(r"This space is taken\.$"), lambda m: _("This space is taken.")),
        (re.compile(r"Fog: no labourers on (.+) this round\.$"),
         lambda m: _("Fog: no labourers on {area} this round.").format(
             area=area_name(ENGLISH_AREAS.get(m[1], m[1]), tr))),
        (re.compile(r"(.+) has no train, so cannot hire the temporary labourer\.$"),
         lambda m: _("{player} has no train, so cannot hire the temporary labourer.").format(player=m[1])),
        (re.compile(r"The temporary labourer is hired before the first placement of the round\.$"),
         lambda m: _("The temporary labourer is hired before the first placement of the round.")),
        (re.compile(r"Surveyor labourers stand in order\.$"), lambda m: _("Surveyor labourers stand in order.")),
        (re.compile(r"It is (.+)'s turn now: .*$"),
         lambda m: _("It is {player}'s turn now.").format(player=m[1])),
        (re.compile(r"Trains cannot be bought until the 'Trains may now be bought' event\.$"),
         lambda m: _("Trains cannot be bought before the event 'trains may now be bought'.")),
        (re.compile(r"This site is already built\.$"), lambda m: _("This site is already built.")),
        (re.compile(r"The track cards up to (.+) are not all excavated yet\.$"),
         lambda m: _("The track cards up to {station} are not all excavated yet.").format(station=m[1])),
        (re.compile(r"The game is over\.$"), lambda m: _("The game is over.")),
        # placement: the temporary labourer
        (re.compile(r"(.+) has already hired the temporary labourer this round\.$"),
         lambda m: _("{player} has already hired the temporary labourer this round.").format(player=m[1])),
        (re.compile(r"(.+) needs (\d+) coal to hire the temporary labourer\.$"),
         lambda m: _("{player} needs {n} coal to hire the temporary labourer.").format(player=m[1], n=m[2])),
        # contracts: played before an area, revealed from the deck (a tapped card), taken from the site office
        (re.compile(r"Contract (\d+) is not played before area ([A-G])\.$"),
         lambda m: _("Contract {n} is not played before {area}.").format(n=m[1], area=area_name(m[2], tr))),
        (re.compile(r"(.+) does not hold contract (\d+) unplayed\.$"),
         lambda m: _("{player} does not hold contract {n} unplayed.").format(player=m[1], n=m[2])),
        (re.compile(r"Contract (\d+) is not in the deck\.$"),
         lambda m: _("Contract {n} is not in the deck.").format(n=m[1])),
        (re.compile(r"The top card shows (\w+) on its back, so it cannot be contract (\d+)\.$"),
         lambda m: _("The top card shows {weather} on its back, so it cannot be contract {n}.").format(
             weather=weather_name(m[1], tr), n=m[2])),
        (re.compile(r"No contract left in the deck has (\w+) on its back\.$"),
         lambda m: _("No contract left in the deck has {weather} on its back.").format(
             weather=weather_name(m[1], tr))),
        (re.compile(r"Contract (\d+) is not in the site office\.$"),
         lambda m: _("Contract {n} is not in the site office.").format(n=m[1])),
        # building sites and trains
        (re.compile(r"(.+) was completed by an event: nobody builds there any more\.$"),
         lambda m: _("{station} was completed by an event: nobody builds there any more.").format(station=m[1])),
        (re.compile(r"(.+) can build or buy a train, so the labourer must\.$"),
         lambda m: _("{player} can build or buy a train, so the labourer must.").format(player=m[1])),
        (re.compile(r"(.+) cannot pay (\d+) steel that way\.$"),
         lambda m: _("{player} cannot pay {n} steel that way.").format(player=m[1], n=m[2])),
        (re.compile(r"(.+) cannot pay (\{.*\}) that way\.$"),
         lambda m: _("{player} cannot pay {cost} that way.").format(player=m[1], cost=_cost(m[2], tr))),
        (re.compile(r"(.+) has no ownership markers left\.$"),
         lambda m: _("{player} has no ownership markers left.").format(player=m[1])),
        (re.compile(r"Train (\d+) is not in the engine shed\.$"),
         lambda m: _("Train {n} is not in the engine shed.").format(n=m[1])),
        (re.compile(r"A labourer on a Build space must act\.$"), lambda m: _("A labourer on a Build space must act.")),
        # train maintenance
        (re.compile(r"(.+) does not hold contract (\d+)\.$"),
         lambda m: _("{player} does not hold contract {n}.").format(player=m[1], n=m[2])),
        (re.compile(r"(.+) has no steel bar to pay\.$"), lambda m: _("{player} has no steel bar to pay.").format(
            player=m[1])),
        # the works
        (re.compile(r"(\d+) steel needs (\d+) iron ore; (.+) has (\d+)\.$"),
         lambda m: _("{steel} steel needs {iron} iron ore; {player} has {have}.").format(
             steel=m[1], iron=m[2], player=m[3], have=m[4])),
        (re.compile(r"(\d+) stone needs (\d+) rubble; (.+) has (\d+)\.$"),
         lambda m: _("{stone} stone needs {rubble} rubble; {player} has {have}.").format(
             stone=m[1], rubble=m[2], player=m[3], have=m[4])),
        (re.compile(r"The bag holds only (\d+) stone\.$"),
         lambda m: _("The bag holds only {n} stone.").format(n=m[1])),
        (re.compile(r"Only (\d+) steel bars are left in the supply\.$"),
         lambda m: tr.ngettext("Only {n} steel bar is left in the supply.",
                               "Only {n} steel bars are left in the supply.", int(m[1])).format(n=m[1])),
        (re.compile(r"The works convert at most three times per labourer\.$"),
         lambda m: _("The works convert at most three times per labourer.")),
        # the stock yard
        (re.compile(r"(.+) may take at most (\d+) cubes\.$"),
         lambda m: tr.ngettext("{player} may take at most {n} cube.", "{player} may take at most {n} cubes.",
                               int(m[2])).format(player=m[1], n=m[2])),
        (re.compile(r"(.+) may take at most (\d+) coal\.$"),
         lambda m: _("{player} may take at most {n} coal.").format(player=m[1], n=m[2])),
        # a physical bag draw that does not add up (the camera or the steppers)
        (re.compile(r"The bag holds only (\d+) (iron|stone|coal|event) cubes\.$"),
         lambda m: _("The bag holds only {cubes}.").format(cubes=f"{m[1]} {cube_name(m[2], int(m[1]), tr)}")),
        (re.compile(r"Exactly (\d+) cubes are drawn\.$"), lambda m: _("Exactly {n} cubes are drawn.").format(n=m[1])),
        # a stale screen or a tap after the moment passed
        (re.compile(r"That is not one of the choices: .*$"), lambda m: _("That is not one of the choices now.")),
        (re.compile(r"Now is not the time for '.*': .*$"), lambda m: _("That cannot be done now.")),
    ]


def _cost(text: str, tr: gettext.NullTranslations) -> str:
    """A payment the engine writes as a dict ("{'stone': 4}") in the table's words ("4 Stein")."""
    try:
        cost = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return describe_cubes(cost, tr) if isinstance(cost, dict) else text


def explain(reason: str, game: Any, tr: gettext.NullTranslations) -> str:
    """An engine refusal in the table's language (unknown sentences stay as the engine wrote them)."""
    for pattern, words in _reasons(tr):
        match = pattern.match(reason)
        if match:
            return words(match)
    return tr.gettext(reason)
