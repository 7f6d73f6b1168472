"""The announcer: engine events become lines the table hears and sees, in the table's language.

It only words what the engine reports (which rubble came from which card, which track cards turned);
it never recomputes rules. Urgent lines (weather, events, game over) go before chatter in the voice
queue; `spoken=False` lines are shown but not said, so the speaker is not a running commentary.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from typing import Any

from tableassist.i18n import translator
from tableassist.session.labels import (
    area_name,
    describe_cubes,
    event_name,
    join_numbers,
    station_name,
    weather_name,
)


@dataclass(frozen=True)
class Line:
    text: str
    urgent: bool = False
    spoken: bool = True
    topic: str = ""  # the event type that produced it (the demo picks lines to render as WAV by topic)


class Announcer:
    def __init__(self, language: str = "en") -> None:
        self.tr: gettext.NullTranslations = translator(language)

    def lines(self, events: list[dict[str, Any]], game: Any) -> list[Line]:
        out: list[Line] = []
        run: list[dict[str, Any]] = []  # consecutive rubble taken by one player (or one event)
        # an excavation says where its rubble came from in one line: "Ben excavates 4: 2 from track card 3, …"
        excavators = {e.get("player") for e in events if e.get("type") == "excavation_done"}
        dug = {p: [e for e in events if e.get("type") == "rubble_taken" and e.get("player") == p]
               for p in excavators}
        for event in [*events, {"type": "_end"}]:
            if event.get("type") == "rubble_taken" and event.get("player") is None:
                continue  # cleared by an event: the event's own line says from where
            if event.get("type") == "rubble_taken" and event.get("player") in excavators:
                continue
            if event.get("type") == "excavation_done" and dug.get(event.get("player")):
                if run:
                    out.extend(self._rubble(run, game))
                    run = []
                out.append(Line(self.preview({"type": "excavate", "player": event.get("player")},
                                             dug[event.get("player")], game), False, True, "excavation_done"))
                continue
            if event.get("type") == "rubble_taken" and (not run or run[0].get("player") == event.get("player")):
                run.append(event)
                continue
            if run:
                out.extend(self._rubble(run, game))
                run = []
            if event.get("type") == "rubble_taken":
                run.append(event)
            else:
                out.extend(self.line(event, game))
        return out

    def preview(self, action: dict[str, Any], events: list[dict[str, Any]], game: Any) -> str:
        """The confirmation text for a forced step, from the events the engine says it will produce."""
        _ = self.tr.gettext
        player = action.get("player")
        name = str(game.setup.players[player]) if isinstance(player, int) else ""
        mine = [e for e in events if e.get("player") == player]
        if action.get("type") == "excavate":
            rubble = [e for e in mine if e.get("type") == "rubble_taken"]
            if not rubble:
                return _("{player} excavates, but there is no rubble to take.").format(player=name)
            parts = ", ".join(_("{n} from {where}").format(n=e.get("n"), where=self._where(e, game)) for e in rubble)
            return _("{player} excavates {n}: {parts}.").format(
                player=name, n=sum(int(e.get("n", 0)) for e in rubble), parts=parts)
        if action.get("type") == "lay_track":
            cards = [e.get("card") for e in mine if e.get("type") == "track_laid"]
            if not cards:
                return _("{player} lays track, but there is none to lay.").format(player=name)
            return _("{player} lays track: turn over track cards {cards}.").format(
                player=name, cards=join_numbers(cards, self.tr))
        lines = [line.text for line in self.lines(events, game)]
        return " ".join(lines[:2]) or _("Done.")

    def _where(self, event: dict[str, Any], game: Any) -> str:
        source = event.get("source") or {}
        if "track" in source:
            return self.tr.gettext("track card {card}").format(card=source["track"])
        return station_name(game, source.get("station"))

    def _rubble(self, run: list[dict[str, Any]], game: Any) -> list[Line]:
        """'Green takes 4 rubble: 2 from track card 3, 2 from track card 4.' — one line per excavation."""
        _ = self.tr.gettext
        total = sum(int(e.get("n", 0)) for e in run)
        parts = ", ".join(_("{n} from {where}").format(n=e.get("n"), where=self._where(e, game)) for e in run)
        index = run[0].get("player")
        if index is None:
            return []
        return [Line(_("{player} takes {n} rubble: {parts}.").format(
            player=game.setup.players[index], n=total, parts=parts), False, False, "rubble_taken")]

    def line(self, event: dict[str, Any], game: Any) -> list[Line]:
        _ = self.tr.gettext
        kind = str(event.get("type", ""))
        players = list(game.setup.players)

        def who(key: str = "player") -> str:
            index = event.get(key)
            return str(players[index]) if isinstance(index, int) and 0 <= index < len(players) else ""

        def say(text: str, urgent: bool = False, spoken: bool = True) -> list[Line]:
            return [Line(text, urgent, spoken, kind)]

        def show(text: str) -> list[Line]:
            return [Line(text, False, False, kind)]

        if kind == "round_started":
            weather = _current_weather(game)
            if weather is None:
                return say(_("Round {round}. {player} is the start player.").format(
                    round=event.get("round"), player=who("start_player")))
            return say(_("Round {round} — weather: {weather}. {player} is the start player.").format(
                round=event.get("round"), weather=weather_name(weather, self.tr), player=who("start_player")))
        if kind == "weather_changed":
            if event.get("weather") is None:  # setup or a swapped disc: only the forecast changed
                return show(_("Weather forecast: {middle}, then {lowest}.").format(
                    middle=weather_name(event.get("middle"), self.tr),
                    lowest=weather_name(event.get("lowest"), self.tr)))
            return say(_("Weather: {weather}.").format(weather=weather_name(event.get("weather"), self.tr)),
                       urgent=True)
        if kind == "work_rate_changed":
            track = _("Excavation") if event.get("track") == "excavation" else _("Lay Track")
            return show(_("{track} work rate: {old} to {new}.").format(track=track, old=event.get("from"),
                                                                        new=event.get("to")))
        if kind == "fog":
            return say(_("Fog: no labourers on Excavation or Lay Track this round."), urgent=True)
        if kind == "phase_changed":
            area = event.get("area")
            if area:
                return show(_("Now: {area}.").format(area=area_name(str(area), self.tr)))
            return show(_("Phase: {phase}.").format(phase=self._phase(str(event.get("phase", "")))))
        if kind == "temporary_labourer_hired":
            return say(_("{player} hires the temporary labourer for {coal} coal.").format(
                player=who(), coal=event.get("coal")))
        if kind == "labourer_placed":
            return show(_("{player} places a labourer on {area}, space {space}.").format(
                player=who(), area=area_name(str(event.get("area")), self.tr), space=event.get("space")))
        if kind == "contract_played":
            return say(_("{player} plays contract {contract}.").format(player=who(), contract=event.get("contract")))
        if kind == "cubes_drawn":
            cubes = {k: event.get(k, 0) for k in ("iron", "stone", "coal", "event")}
            return show(_("Drawn from the bag: {cubes}.").format(cubes=describe_cubes(cubes, self.tr)))
        if kind == "stock_yard_restocked":
            cubes = {k: event.get(k, 0) for k in ("iron", "stone", "coal")}
            return say(_("Restock the stock yard: put {cubes} on it.").format(cubes=describe_cubes(cubes, self.tr)))
        if kind == "cubes_taken":
            cubes = {k: event.get(k, 0) for k in ("iron", "stone", "coal")}
            return show(_("{player} takes {cubes} from the stock yard.").format(
                player=who(), cubes=describe_cubes(cubes, self.tr)))
        if kind == "start_player_changed":
            return say(_("{player} is now the start player.").format(player=who()))
        if kind == "rubble_taken":
            return self._rubble([event], game)
        if kind == "track_laid" and event.get("player") is None:
            return []  # laid by an event: the event's own line names the cards
        if kind == "excavation_done":
            return say(_("{player} excavates {n}.").format(player=who(), n=event.get("n")))
        if kind == "site_completed":
            if event.get("kind") != "excavation" or event.get("player") is None:
                return []  # a building site is announced as built; an event's clearing by the event
            return show(_("{player} clears a site at {station} for {vp} points.").format(
                player=who(), station=station_name(game, event.get("station")), vp=event.get("vp")))
        if kind == "converted":
            if not event.get("steel") and not event.get("stone"):
                return show(_("{player} makes nothing at the Works.").format(player=who()))
            return show(_("{player} converts: {steel} steel, {stone} stone.").format(
                player=who(), steel=event.get("steel", 0), stone=event.get("stone", 0)))
        if kind == "track_laid":
            return say(_("{player} lays track card {card}.").format(player=who(), card=event.get("card")))
        if kind == "station_built":
            return say(_("{player} builds at {station} for {vp} points.").format(
                player=who(), station=station_name(game, event.get("station")), vp=event.get("vp")))
        if kind == "train_bought":
            return say(_("{player} buys train {train}.").format(player=who(), train=event.get("train")))
        if kind == "train_returned":
            return say(_("{player} returns train {train} to the engine shed.").format(
                player=who(), train=event.get("train")))
        if kind == "contract_taken":
            return show(_("{player} takes contract {contract}.").format(player=who(), contract=event.get("contract")))
        if kind == "contract_revealed":
            return show(_("Contract {contract} goes into the site office.").format(contract=event.get("contract")))
        if kind == "contract_discarded":
            return show(_("Contract {contract} is discarded.").format(contract=event.get("contract")))
        if kind == "surveyor_moved":
            return show(_("{player}'s surveyor moves to {station}.").format(
                player=who(), station=station_name(game, event.get("station"))))
        if kind == "labourer_moved":
            return show(_("{player} moves a labourer.").format(player=who()))
        if kind == "site_office_restocked":
            return show(_("Site office restocked: contracts {cards}.").format(
                cards=join_numbers(list(event.get("cards", [])), self.tr)))
        if kind == "event_cube_placed":
            return show(_("Event on space {space}: {event}.").format(
                space=event.get("space"), event=event_name(str(event.get("kind")), self.tr)))
        if kind == "event_resolved":
            return self._event_resolved(event, game)
        if kind == "event_cubes_returned":
            return show(_("{n} event cubes go back into the bag.").format(n=event.get("n")))
        if kind in ("station_completed_by_event", "trains_available"):
            return []  # the event_resolved line says it, with what to do
        if kind == "maintenance_paid":
            return show(_("{player} maintains the train.").format(player=who()))
        if kind == "extra_build_area_opened":
            return say(_("All rubble is gone: the set-aside train opens an extra Build area."), urgent=True)
        if kind == "game_end_triggered":
            return say(_("The last track is laid: one more round, then the game ends."), urgent=True)
        if kind == "game_over":
            return self._game_over(event)
        return []

    def _phase(self, phase: str) -> str:
        _ = self.tr.gettext
        names = {
            "setup": _("setup"), "placement": _("placement"), "actions": _("resolution"),
            "end_of_round": _("end of round"), "over": _("game over"),
        }
        return names.get(phase, phase)

    def _event_resolved(self, event: dict[str, Any], game: Any) -> list[Line]:
        """One spoken line per event: what happened and what the table must move."""
        _ = self.tr.gettext
        kind = str(event.get("kind"))
        if kind == "lay_track":
            cards = list(event.get("cards") or [])
            if cards:
                text = _("Event: contractors lay track. Turn over the next track cards: {cards}.").format(
                    cards=join_numbers(cards, self.tr))
            else:
                text = _("Event: contractors lay track, but no track is left to lay.")
        elif kind == "excavate":
            cleared = [c for c in event.get("cleared") or [] if isinstance(c, dict)]
            if cleared:
                parts = ", ".join(_("{n} from {where}").format(n=c.get("n"), where=self._where({"source": c}, game))
                                  for c in cleared)
                text = _("Event: contractors clear rubble; nobody scores it. Remove {n} rubble: {parts}.").format(
                    n=sum(int(c.get("n", 0)) for c in cleared), parts=parts)
            else:
                text = _("Event: contractors clear rubble, but none is left.")
        elif kind == "complete_station":
            if event.get("station"):
                text = _("Event: contractors complete {station}. Put a game marker on it and remove its "
                         "rubble.").format(station=station_name(game, event.get("station")))
            else:
                text = _("Event: contractors complete a station, but every station is complete.")
        elif kind == "trains_available":
            text = _("Event: trains may now be bought.")
        elif kind == "maintenance":
            returned = list(event.get("returned") or [])
            text = _("Event: train maintenance. Every train owner pays 1 steel or returns the train.")
            if returned:
                text += " " + _("Trains returned: {trains}.").format(trains=join_numbers(returned, self.tr))
        else:
            text = _("Event: {event}.").format(event=event_name(kind, self.tr))
        return [Line(text, True, True, "event_resolved")]

    def _game_over(self, event: dict[str, Any]) -> list[Line]:
        _ = self.tr.gettext
        scores = event.get("scores") or {}
        winners = list(scores.get("winners", []))
        totals = {p.get("name"): p.get("total") for p in scores.get("players", [])}
        if len(winners) == 1:
            text = _("Game over. {winner} wins with {points} points.").format(
                winner=winners[0], points=totals.get(winners[0]))
        else:
            text = _("Game over. {winners} share the win.").format(winners=join_numbers(winners, self.tr))
        return [Line(text, True, True, "game_over")]


def _current_weather(game: Any) -> str | None:
    weather = getattr(game.state, "weather", None)
    if isinstance(weather, list | tuple) and weather:
        return weather[0] if isinstance(weather[0], str) else None
    return None
