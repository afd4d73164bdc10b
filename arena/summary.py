"""The one summary of a set of games, shared by ``simulate``, ``evaluate`` and ``balance``.

:func:`summarize` folds per-game records (:mod:`arena.records`) into a
JSON-serializable dict (schema :data:`SCHEMA`)::

    {"schema": "singapore-1819-summary/1", "games": 200, ...meta (seed, ruleset, ...),
     "players": [agent by seat, as given] (null if the games had several seatings),
     "win_rate_by_seat":    {seat: {"wins", "games", "seeds", "rate", "ci95": [low, high]}},
     "win_rate_by_faction": {faction: {...same...}},
     "win_rate_by_agent":   {agent:   {...same, over the games it played...}},
     "mean_vp_by_seat":     {seat: mean final VP},
     "mean_vp_by_source":   {faction: {source: mean VP per seat and game}},
     "mean_vp_by_source_ci95": {faction: {source: [low, high]}},
     "facts":               {fact: mean per game} (see records.FACT_COLUMNS; the
                            Treaty's round is averaged over the games where it came,
                            ``anglo_dutch_share`` is the share of those games),
     "shared_wins", "mean_decisions_per_game", "seconds", "games_per_second"}

``evaluate --mirror`` adds ``"mirror": {faction: {...a rate...}}`` and
``"minus_mirror": {faction: {"difference", "seeds", "ci95"}}``
(:func:`arena.evaluate.mirror_difference`).

A win shared by ``k`` seats counts ``1/k`` for each, so seat wins sum to the games.

**The seed is the unit.** The games of one seed (played twice when seat-swapped) are
not independent: between equal players the two seatings of a seed are often the very
same game. Every interval therefore treats the games of a seed as one cluster
(``seeds`` counts them): a win rate's is a 95 % Wilson score interval (statsmodels; the
closed form below where it is not installed) on the effective number of games, the
games divided by the cluster-robust design effect; a mean's (VP by source) is a t
interval with the cluster-robust standard error. A difference between two sets of
games on the same seeds (an agent against the mirror, a variant against the baseline)
is paired by seed: :func:`paired_by_seed`, a t interval over the per-seed differences.
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


def wilson_interval(successes: float, n: float) -> list[float]:
    """95 % Wilson score interval ``[low, high]`` of a proportion (fractional successes,
    from split ties, and an effective, fractional, number of trials allowed)."""
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


def _wilson_closed_form(p: float, n: float) -> tuple[float, float]:
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return centre - half, centre + half


def seed_key(record: dict, index: int = 0):
    """The cluster a game's record belongs to: its seed (the game index where a record
    holds no seed; the record's own position where it holds neither)."""
    if "seed" in record:
        return ("seed", record["seed"])
    return ("game", record["game"]) if "game" in record else ("record", index)


def seed_groups(records: Sequence[dict], value) -> dict:
    """``{seed key: [value(record) of each of its games]}`` (:func:`seed_key`)."""
    groups: dict = {}
    for i, r in enumerate(records):
        groups.setdefault(seed_key(r, i), []).append(value(r))
    return groups


def by_seed(records: Sequence[dict], value) -> list[list[float]]:
    """``value(record)`` of each game, grouped by seed."""
    return list(seed_groups(records, value).values())


def _clustered_variance(groups: Sequence[Sequence[float]], mean: float) -> float:
    """Cluster-robust (CR1) variance of the mean of all values, clusters ``groups``."""
    k, n = len(groups), sum(len(g) for g in groups)
    if k < 2:
        return 0.0
    return k / (k - 1) * sum(sum(v - mean for v in g) ** 2 for g in groups) / (n * n)


def clustered_rate(groups: Sequence[Sequence[float]]) -> dict:
    """``{"wins", "games", "seeds", "rate", "ci95"}`` of win shares grouped by seed: a
    Wilson interval on the effective number of games (the games over the design effect;
    the number of seeds where the wins do not vary, e.g. none or all)."""
    wins, games = sum(map(sum, groups)), sum(map(len, groups))
    p = wins / games if games else 0.0
    variance = _clustered_variance(groups, p)
    effective = min(games, p * (1 - p) / variance) if variance > 0 else len(groups)
    return {"wins": wins, "games": games, "seeds": len(groups), "rate": p,
            "ci95": wilson_interval(p * effective, effective)}


def rate(records: Sequence[dict], value) -> dict:
    """:func:`clustered_rate` of the win share ``value(record)`` of each game."""
    return clustered_rate(by_seed(records, value))


def _t95(df: int) -> float:
    """Two-sided 95 % quantile of Student's t (the normal one without scipy)."""
    try:
        from scipy.stats import t
    except ImportError:
        return Z95
    return float(t.ppf(0.975, df))


def clustered_mean(groups: Sequence[Sequence[float]]) -> tuple[float, list[float]]:
    """The mean of all values and its 95 % t interval over the clusters (``groups``: the
    values by seed; ``[mean, mean]`` with fewer than two seeds)."""
    n = sum(map(len, groups))
    mean = sum(map(sum, groups)) / n
    if len(groups) < 2:
        return mean, [mean, mean]
    half = _t95(len(groups) - 1) * math.sqrt(_clustered_variance(groups, mean))
    return mean, [mean - half, mean + half]


def paired_by_seed(records: Sequence[dict], base: Sequence[dict], value) -> dict:
    """``{"difference", "seeds", "ci95"}`` of ``value(record)`` in ``records`` minus in
    ``base``, games on the same seeds: per seed, the mean over its games minus the
    base's, then the mean and its t interval over the seeds both sets played."""
    mine, theirs = seed_groups(records, value), seed_groups(base, value)
    common = [k for k in mine if k in theirs]
    if not common:
        raise ValueError("the two sets of games share no seed")
    diffs = [[sum(mine[k]) / len(mine[k]) - sum(theirs[k]) / len(theirs[k])] for k in common]
    difference, interval = clustered_mean(diffs)
    return {"difference": difference, "seeds": len(common), "ci95": interval}


def summarize(records: Sequence[dict], *, seconds: float | None = None, **meta) -> dict:
    """The shared summary of the games in ``records`` (``meta`` is copied in first)."""
    n = len(records)
    if n == 0:
        raise ValueError("no games to summarize")
    # The players as given (layout 0; swapped games exchange each faction's seats).
    seatings = {tuple(r[f"agent_{s}"] for s in SEAT_NAMES) for r in records
                if not r.get("layout")}
    vp_means, vp_intervals = _vp_by_source(records)
    summary = {"schema": SCHEMA, "games": n, **meta,
               "players": list(next(iter(seatings))) if len(seatings) == 1 else None,
               "win_rate_by_seat": {s: rate(records, lambda r, s=s: r[f"win_{s}"])
                                    for s in SEAT_NAMES},
               "win_rate_by_faction": {f: rate(records, lambda r, f=f: faction_wins(r, f))
                                       for f in FACTIONS},
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
    """Each agent's win share over the games it played (its seats' shares summed)."""
    played: dict[str, list[dict]] = {}
    for r in records:
        for label in dict.fromkeys(r[f"agent_{s}"] for s in SEAT_NAMES):
            played.setdefault(label, []).append(r)
    return {label: rate(rows, lambda r, label=label: sum(
                r[f"win_{s}"] for s in SEAT_NAMES if r[f"agent_{s}"] == label))
            for label, rows in played.items()}


def faction_wins(record: dict, faction: str) -> float:
    """The share of a game's win that went to ``faction``."""
    return sum(record[f"win_{s}"] for p, s in enumerate(SEAT_NAMES)
               if FACTIONS[SEAT_FACTION[p]] == faction)


def faction_source_vp(record: dict, faction: str, source: str) -> float:
    """A game's VP from ``source`` per seat of ``faction`` (the mean of its two seats)."""
    seats = [s for p, s in enumerate(SEAT_NAMES) if FACTIONS[SEAT_FACTION[p]] == faction]
    return sum(record[f"vp_{s}_{source}"] for s in seats) / len(seats)


def _vp_by_source(records: Sequence[dict]) -> tuple[dict, dict]:
    """Mean VP per seat and game by source and faction, and their 95 % intervals."""
    means: dict[str, dict[str, float]] = {}
    intervals: dict[str, dict[str, list[float]]] = {}
    for faction in FACTIONS:
        for src in VP_SOURCES:
            groups = by_seed(records, lambda r, src=src, faction=faction: faction_source_vp(r, faction, src))
            means.setdefault(faction, {})[src], intervals.setdefault(faction, {})[src] = \
                clustered_mean(groups)
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
