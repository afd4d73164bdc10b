"""The ladder: every agent against the heuristic faction and against each other.

    summary = run_ladder(["random", "heuristic", "mcts:iters=24"], n_games=20, seed=7)

Matchups (each seat-swapped on the same seeds, so ``2 * n_games`` games each, played
by :func:`arena.runner.play_tables`, on ``workers`` processes and one engine, the
native one where every agent sits there, :func:`arena.runner.run_engine`):

* the **mirror baseline**: heuristic British against heuristic Malay -- what an agent
  that plays exactly like the heuristic wins as each faction on these seeds;
* every other agent as British against heuristic Malay, and as Malay against heuristic
  British (its strength figure, read next to the mirror);
* every pair of other agents, each as British and as Malay.

The summary (JSON-serializable) holds the faction win rates of every matchup with 95 %
intervals (the seed as the unit: :mod:`arena.summary`), the mirror baseline, each
agent's rates against the heuristic with their difference to the mirror (paired by
seed: ``minus_mirror`` and ``minus_mirror_ci95``), and OpenSkill ratings over all games
(:func:`arena.summary.openskill_ratings`); :func:`singapore_app.plots.plot_ladder`
draws it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from agents.registry import make_agent
from agents.threads import limit_threads
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS

from .evaluate import MatchupResult
from .runner import Table, play_tables, run_engine
from .summary import faction_wins, openskill_ratings, paired_by_seed

BASE = "heuristic"


def ladder_matchups(specs: Sequence[str]) -> list[tuple[str, str]]:
    """``(british, malay)`` agent specs of every matchup, the mirror first."""
    others = list(dict.fromkeys(s for s in specs if s != BASE))
    pairs = [(BASE, BASE)]
    for spec in others:
        pairs += [(spec, BASE), (BASE, spec)]
    for a, b in combinations(others, 2):
        pairs += [(a, b), (b, a)]
    return pairs


def _faction_rate(result: MatchupResult, faction: str) -> dict:
    return dict(result.summary()["win_rate_by_faction"][faction])


def run_ladder(specs: Sequence[str], n_games: int, seed: int = 0,
               config: RulesConfig | None = None, progress: bool = False,
               workers: int = 1, engine: str | None = None) -> dict:
    """Play every ladder matchup on ``n_games`` seeds (seat-swapped) on ``engine`` (None:
    one for all of them, :func:`arena.runner.run_engine`) and summarize."""
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    for spec in specs:
        make_agent(spec)  # an unknown agent or parameter fails before any game
    limit_threads()
    pairs = ladder_matchups(specs)
    cfg = config if config is not None else RulesConfig.standard()
    tables = [Table((british, british, malay, malay), cfg) for british, malay in pairs]
    records = play_tables(tables, n_games, seed, swap=True, workers=workers,
                          progress=progress, desc="ladder", engine=engine)
    per_table = 2 * n_games
    results = [(british, malay, MatchupResult(records[i * per_table:(i + 1) * per_table]))
               for i, (british, malay) in enumerate(pairs)]
    return _summary(specs, n_games, seed, cfg, results, run_engine(tables, engine))


def _summary(specs, n_games, seed, config, results, engine) -> dict:
    by_pair = {(b, m): r for b, m, r in results}
    mirror = by_pair[(BASE, BASE)]
    baseline = {f: _faction_rate(mirror, f) for f in FACTIONS}
    vs_heuristic = {}
    for spec in dict.fromkeys(specs):
        rates = {FACTIONS[0]: _faction_rate(by_pair[(spec, BASE)], FACTIONS[0]),
                 FACTIONS[1]: _faction_rate(by_pair[(BASE, spec)], FACTIONS[1])}
        matchups = {FACTIONS[0]: by_pair[(spec, BASE)], FACTIONS[1]: by_pair[(BASE, spec)]}
        for faction, row in rates.items():
            paired = paired_by_seed(matchups[faction].records, mirror.records,
                                    lambda r, f=faction: faction_wins(r, f))
            row["minus_mirror"] = row["rate"] - baseline[faction]["rate"]
            row["minus_mirror_ci95"] = paired["ci95"]
        vs_heuristic[spec] = rates
    cfg = config
    return {
        "agents": list(dict.fromkeys(specs)),
        "seeds": n_games, "games_per_matchup": 2 * n_games, "seed": seed,
        "ruleset": cfg.ruleset, "slavery": cfg.slavery, "engine": engine,
        "mirror_baseline": baseline,
        "vs_heuristic": vs_heuristic,
        "matchups": [{"british": b, "malay": m, "games": r.games,
                      "win_rate_by_faction": {f: _faction_rate(r, f) for f in FACTIONS},
                      "mean_vp_by_seat": r.summary()["mean_vp_by_seat"]}
                     for b, m, r in results],
        "ratings": openskill_ratings([x for _, _, r in results for x in r.records]),
    }
