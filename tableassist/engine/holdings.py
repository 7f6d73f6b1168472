"""The adapter from the game state to `scoring.Holding`: the live estimate and the final scores."""

from __future__ import annotations

from tableassist.engine import scoring
from tableassist.engine.core import Ctx


def holdings(ctx: Ctx) -> list[scoring.Holding]:
    """Every player's holding, in turn order of the current (or final) round."""
    s = ctx.state
    out = []
    for i in range(ctx.n):
        player = (s.round_start_player + i) % ctx.n
        p = s.players[player]
        site_vps = []
        for station_id, kind, index in p.sites:
            station = s.stations[s.station_index(station_id)]
            site_vps.append((station.excavation if kind == "excavation" else station.building)[index].vp)
        track_vps = [t.vp for t in s.route if t.laid_by == player]
        out.append(scoring.Holding(name=p.name, site_vps=site_vps, track_vps=track_vps, rubble=p.rubble, coal=p.coal,
                                   surveyor=s.stations[p.surveyor].id, train=p.train,
                                   contracts=sorted([*p.hand, *p.played])))
    return out


def table_score(ctx: Ctx) -> scoring.TableScore:
    return scoring.score_table(holdings(ctx), ctx.setup.options.tie_rule, ctx.comps)
