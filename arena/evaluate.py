"""Evaluation: seeded games between any agent mix, win rates with 95 % intervals and
OpenSkill ratings (the plots are the applications', :mod:`singapore_app.plots`).

A *matchup* puts one agent on the British seats and one on the Malay seats (or four
agents, one per seat). With ``swap`` every seed is played twice, the agents of each
faction exchanging their two seats, so that seat advantages cancel out. The games are
played by :func:`arena.runner.play_tables` (the runner of ``simulate`` and
``balance``), on the native engine where every player sits there (unless an engine is
named: :func:`arena.runner.run_engine`), and summarized in their shared schema.

Ratings come from OpenSkill's Plackett-Luce model (a maintained multiplayer rating
library, not a home-made Elo): each game is a match between the two factions, each
team made of the distinct agents on its seats, ranked by which faction holds a winner.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from agents.base import Agent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from .runner import Table, play_tables, run_engine
from .summary import faction_wins, paired_by_seed, rate, summarize


def faction_win_rate(faction: str, agent: Agent, opponent: Agent, n_games: int, seed: int,
                     config: RulesConfig | None = None, content=None,
                     engine: str | None = None) -> dict:
    """Share of games won by ``faction`` with ``agent`` on both its seats against
    ``opponent`` on both others (ties split); rate and 95 % Wilson interval."""
    agents = [agent if SEAT_FACTION[p] == FACTIONS.index(faction) else opponent
              for p in range(4)]
    result = run_matchup(agents, n_games, seed, config, swap=False, content=content,
                         engine=engine)
    return result.summary()["win_rate_by_faction"][faction]


@dataclass
class MatchupResult:
    """The per-game records of a matchup (:mod:`arena.records`)."""

    records: list = field(default_factory=list)
    engine: str | None = None  # the engine that played them, when known

    @property
    def games(self) -> int:
        return len(self.records)

    def summary(self) -> dict:
        """The shared summary (:func:`arena.summary.summarize`), naming the engine."""
        if self.engine:
            return summarize(self.records, engine=self.engine)
        return summarize(self.records)


def run_matchup(agents: Sequence, n_games: int, seed: int,
                config: RulesConfig | None = None, swap: bool = True, *,
                content=None, workers: int = 1, progress: bool = False,
                engine: str | None = None) -> MatchupResult:
    """Play ``n_games`` seeded games (with ``swap``: twice as many, mirrored seats) with
    agent objects or specs (specs only with ``workers > 1``), through
    :func:`arena.runner.play_tables`, on ``engine`` (None: the default,
    :func:`arena.runner.run_engine`)."""
    tables = [Table(tuple(agents), config or RulesConfig.standard(), content)]
    return MatchupResult(play_tables(tables, n_games, seed, swap=swap, workers=workers,
                                     progress=progress, desc="evaluating", engine=engine),
                         run_engine(tables, engine))


def mirror_difference(records: Sequence[dict], mirror: Sequence[dict]) -> dict:
    """``{"mirror": {faction: rate}, "minus_mirror": {faction: {"difference", "seeds",
    "ci95"}}}``: the mirror's faction win rates and each faction's win rate in
    ``records`` minus the mirror's, paired by seed (the two sets on the same seeds)."""
    out: dict = {"mirror": {}, "minus_mirror": {}}
    for faction in FACTIONS:
        wins = lambda r, f=faction: faction_wins(r, f)  # noqa: E731
        out["mirror"][faction] = rate(mirror, wins)
        out["minus_mirror"][faction] = paired_by_seed(records, mirror, wins)
    return out


def write_json(data: dict, path: str | Path) -> None:
    """Write a summary as indented JSON with sorted keys."""
    Path(path).write_text(json.dumps(data, indent=2, sort_keys=True))
