"""Contracts in words for the screen: what playing one does and what it scores at the end.

The component data names each effect by a code; these are the card texts (components.md, contracts
table) a player reads before deciding. Pure data, no Kivy.
"""

from __future__ import annotations

from typing import Any

from ui.i18n import _

EFFECTS = {
    "lay_track_plus_1": "lay track at rate +1 this round",
    "excavate_next_site_after_all": "after all other excavations, clear the next site completely",
    "swap_middle_weather": "swap the middle weather disc for any from the supply",
    "draw_2_keep_1_of_3": "draw 2 contracts, keep one of the three",
    "build_3_iron_as_steel": "Build: 3 iron may stand for 1 steel this round",
    "stock_yard_plus_2": "Stock Yard: up to 2 extra cubes this round",
    "extra_lay_track_after_all": "after all other Lay Track actions, one more",
    "stone_cost_minus_1": "stone costs of sites 1 less this round",
    "extra_build_after_all": "after all other Build actions, one more",
    "convert_rubble_to_stone_x3": "now: 2 rubble into 1 stone, up to 3 times",
    "convert_2_iron_to_steel_x2": "now: 2 iron into 1 steel, once or twice",
    "no_other_contracts_this_round": "no other contract may be played this round",
    "maintenance_discard": "discard instead of 1 steel for train maintenance",
    "build_2_rubble_as_stone": "Build: 2 rubble stand for 1 stone this round",
    "draw_3_cubes": "now: draw 3 cubes from the bag, keep the goods",
    "take_2_from_stock_yard": "now: take any 2 cubes from the stock yard",
    "take_start_player_locked": "take the start player marker; it stays this round",
    "excavate_double": "excavate double this round",
    "surveyor_plus_1": "now: the surveyor moves 1 station",
    "move_placed_labourer": "now: move a placed labourer to an empty space",
    "ignore_coal_limit": "ignore the 1-coal limit at the Stock Yard this round",
}


def condition_text(condition: dict[str, Any], vp: int) -> str:
    """'3 sites = 6 VP', 'surveyor at 5 / 6 / 7 = 6 / 10 / 15 VP', '2 VP per coal' (in the table's language)."""
    if "coal_vp" in condition:
        return _("{vp} VP per coal").format(vp=condition["coal_vp"])
    if "surveyor_tiers" in condition:
        tiers = condition["surveyor_tiers"]
        stations = " / ".join(str(t[0]) for t in tiers)
        points = " / ".join(str(t[1]) for t in tiers)
        return _("surveyor at {stations} = {points} VP").format(stations=stations, points=points)
    # Roboto (Kivy's font) has no arrow glyph: "=" reads as well from across the table.
    words = {"sites": (_("{n} site"), _("{n} sites")), "tracks": (_("{n} track"), _("{n} tracks")),
             "rubble": (_("{n} rubble"), _("{n} rubble"))}
    parts = [words[k][0 if n == 1 else 1].format(n=n) for k in ("sites", "tracks", "rubble") if (n := condition.get(k))]
    if condition.get("surveyor_min"):
        parts.append(_("surveyor at {n}+").format(n=condition["surveyor_min"]))
    return _("{parts} = {vp} VP").format(parts=" + ".join(parts), vp=vp)


def describe(contract: Any) -> str:
    """'before E: Build: 3 iron may stand for 1 steel this round · end: 12 rubble + 1 track = 22 VP'."""
    effect = _(EFFECTS.get(contract.effect, contract.effect.replace("_", " ")))
    if contract.letter:
        effect = _("before {letter}: {effect}").format(letter=contract.letter, effect=effect)
    return _("{effect} · end: {condition}").format(effect=effect,
                                                     condition=condition_text(contract.condition, contract.vp))
