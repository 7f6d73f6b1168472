"""Names and labels in the game's own words, in the table's language (gettext).

Every string passes through `tr.gettext` with a literal msgid, so the catalogs can be checked for
completeness (tests/session/test_i18n.py extracts them with Babel).
"""

from __future__ import annotations

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
    English only; these patterns follow its sentences (tests/session/test_i18n.py checks they still match)."""
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
    ]


def explain(reason: str, game: Any, tr: gettext.NullTranslations) -> str:
    """An engine refusal in the table's language (unknown sentences stay as the engine wrote them)."""
    for pattern, words in _reasons(tr):
        match = pattern.match(reason)
        if match:
            return words(match)
    return tr.gettext(reason)
