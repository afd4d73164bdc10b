"""The one summary of a set of games, shared by ``simulate``, ``evaluate`` and ``balance``.

:func:`summarize` folds per-game records (:mod:`arena.records`) into a
JSON-serializable dict (schema :data:`SCHEMA`)::

    {"schema": "singapore-1819-summary/1", "games": 200, ...meta (seed, ruleset, ...),
     "players": [agent by seat, as given] (null if the games had several seatings),
     "win_rate_by_seat":    {seat:    {"wins", "games", "rate", "ci95": [low, high]}},
     "win_rate_by_faction": {faction: {...same...}},
     "win_rate_by_agent":   {agent:   {...same, over the games it played...}},
     "mean_vp_by_seat":     {seat: mean final VP},
     "mean_vp_by_source":   {faction: {source: mean VP per seat and game}},
     "mean_vp_by_source_ci95": {faction: {source: [low, high]}} (normal approximation),
     "facts":               {fact: mean per game} (see records.FACT_COLUMNS; the
                            Treaty's round is averaged over the games where it came,
                            ``anglo_dutch_share`` is the share of those games),
     "shared_wins", "mean_decisions_per_game", "seconds", "games_per_second"}

A win shared by ``k`` seats counts ``1/k`` for each, so seat wins sum to the games.
Intervals are 95 % Wilson score intervals from statsmodels (the closed form below is
only used where statsmodels is not installed: the engine itself needs only numpy).
:func:`openskill_ratings` rates every agent of a set of records with OpenSkill.
"""

from __future__ import annotations

import math
from typing import Sequence

from singapore_env.engine.content import FACTIONS, SEAT_FACTION, SEAT_NAMES
from .records import FACT_COLUMNS
from singapore_env.engine.state import VP_SOURCES

SCHEMA = "singapore-1819-summary/1"
FACTION_SEATS = {f: [p for p in range(4) if SEAT_FACTION[p] == i] for i, f in enumerate(FACTIONS)}
#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int) -> list[float]:
    """95 % Wilson score interval ``[low, high]`` of a proportion (fractional successes,
    from split ties, allowed)."""
    if n <= 0:
        return [0.0, 1.0]
    successes = min(max(float(successes), 0.0), float(n))
    try:
        from statsmodels.stats.proportion import proportion_confint
    except ImportError:
        low, high = _wilson_closed_form(successes / n, n)
    else:
        low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    p = successes / n
    return [0.0 if p == 0.0 else min(p, max(0.0, float(low))),
            1.0 if p == 1.0 else max(p, min(1.0, float(high)))]


def _wilson_closed_form(p: float, n: int) -> tuple[float, float]:
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def difference_interval(wins: float, n: int, base_wins: float, base_n: int) -> list[float]:
    """95 % interval of ``wins/n - base_wins/base_n`` for independent samples
    (Newcombe's hybrid score method, statsmodels' ``confint_proportions_2indep``)."""
    from statsmodels.stats.proportion import confint_proportions_2indep

    low, high = confint_proportions_2indep(wins, n, base_wins, base_n, method="newcomb",
                                           compare="diff")
    return [float(low), float(high)]


def rate(wins: float, games: int) -> dict:
    """``{"wins", "games", "rate", "ci95"}`` of a win count."""
    return {"wins": wins, "games": games, "rate": wins / games if games else 0.0,
            "ci95": wilson_interval(wins, games)}


def summarize(records: Sequence[dict], *, seconds: float | None = None, **meta) -> dict:
    """The shared summary of the games in ``records`` (``meta`` is copied in first)."""
    n = len(records)
    if n == 0:
        raise ValueError("no games to summarize")
    seat_wins = [sum(r[f"win_{s}"] for r in records) for s in SEAT_NAMES]
    by_faction = {f: sum(faction_wins(r, f) for r in records) for f in FACTIONS}
    # The players as given (layout 0; swapped games exchange each faction's seats).
    seatings = {tuple(r[f"agent_{s}"] for s in SEAT_NAMES) for r in records
                if not r.get("layout")}
    vp_means, vp_intervals = _vp_by_source(records)
    summary = {"schema": SCHEMA, "games": n, **meta,
               "players": list(next(iter(seatings))) if len(seatings) == 1 else None,
               "win_rate_by_seat": {s: rate(seat_wins[p], n) for p, s in enumerate(SEAT_NAMES)},
               "win_rate_by_faction": {f: rate(w, n) for f, w in by_faction.items()},
               "win_rate_by_agent": _agent_rates(records),
               "mean_vp_by_seat": {s: sum(r[f"vp_{s}"] for r in records) / n
                                   for s in SEAT_NAMES},
               "mean_vp_by_source": vp_means,
               "mean_vp_by_source_ci95": vp_intervals,
               "facts": _facts(records),
               "shared_wins": sum(max(r[f"win_{s}"] for s in SEAT_NAMES) < 1 for r in records),
               "mean_decisions_per_game": sum(r["decisions"] for r in records) / n}
    if seconds is not None:
        summary["seconds"] = seconds
        summary["games_per_second"] = n / max(seconds, 1e-9)
    return summary


def _facts(records: Sequence[dict]) -> dict:
    n = len(records)
    out = {k: sum(r[k] for r in records) / n for k in FACT_COLUMNS}
    treaty = [r["anglo_dutch_round"] for r in records if r["anglo_dutch_round"] > 0]
    out["anglo_dutch_round"] = sum(treaty) / len(treaty) if treaty else None
    out["anglo_dutch_share"] = len(treaty) / n
    return out


def _agent_rates(records: Sequence[dict]) -> dict:
    games: dict[str, int] = {}
    wins: dict[str, float] = {}
    for r in records:
        labels = [r[f"agent_{s}"] for s in SEAT_NAMES]
        for label in dict.fromkeys(labels):
            games[label] = games.get(label, 0) + 1
            wins[label] = wins.get(label, 0.0) + sum(
                r[f"win_{s}"] for s, x in zip(SEAT_NAMES, labels) if x == label)
    return {label: rate(wins[label], games[label]) for label in games}


def faction_wins(record: dict, faction: str) -> float:
    """The share of a game's win that went to ``faction``."""
    return sum(record[f"win_{s}"] for p, s in enumerate(SEAT_NAMES)
               if FACTIONS[SEAT_FACTION[p]] == faction)


def faction_source_vp(record: dict, faction: str, source: str) -> float:
    """A game's VP from ``source`` per seat of ``faction`` (the mean of its two seats)."""
    seats = [s for p, s in enumerate(SEAT_NAMES) if FACTIONS[SEAT_FACTION[p]] == faction]
    return sum(record[f"vp_{s}_{source}"] for s in seats) / len(seats)


def mean_interval(values: Sequence[float]) -> list[float]:
    """Normal-approximation 95 % interval of a mean (``[mean, mean]`` for one value)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return [mean, mean]
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return [mean - Z95 * sd / math.sqrt(n), mean + Z95 * sd / math.sqrt(n)]


def _vp_by_source(records: Sequence[dict]) -> tuple[dict, dict]:
    """Mean VP per seat and game by source and faction, and their 95 % intervals."""
    means, intervals = {}, {}
    for faction in FACTIONS:
        per_game = {src: [faction_source_vp(r, faction, src) for r in records]
                    for src in VP_SOURCES}
        means[faction] = {src: sum(v) / len(v) for src, v in per_game.items()}
        intervals[faction] = {src: mean_interval(v) for src, v in per_game.items()}
    return means, intervals


def openskill_ratings(records: Sequence[dict]) -> dict:
    """OpenSkill (Plackett-Luce) ratings of every agent over the games of ``records``:
    each game is a match between the two factions, each team the distinct agents on its
    seats, ranked by which faction holds a winner (games with the same agent on both
    sides carry no information about strength and are skipped)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict = {}
    # Online ratings depend on the order of the games: interleave the tables (by game
    # index) so that no matchup comes last and dominates.
    for record in sorted(records, key=lambda r: (r.get("game", 0), r.get("layout", 0))):
        labels = [record[f"agent_{seat}"] for seat in SEAT_NAMES]
        teams = [sorted({labels[p] for p in FACTION_SEATS[f]}) for f in FACTIONS]
        if set(teams[0]) & set(teams[1]):
            continue
        won = [any(record[f"win_{SEAT_NAMES[p]}"] > 0 for p in FACTION_SEATS[f])
               for f in FACTIONS]
        rated = model.rate([[ratings.setdefault(n, model.rating(name=n)) for n in team]
                            for team in teams], ranks=[1 if w else 2 for w in won])
        for team in rated:
            for r in team:
                ratings[r.name] = r
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in sorted(ratings.items(), key=lambda kv: -kv[1].ordinal())}
