"""Evaluation: seeded games between any agent mix, win rates with 95 % intervals,
OpenSkill ratings, and plots.

A *matchup* puts one agent on the British seats and one on the Malay seats (or four
agents, one per seat). With ``swap`` every seed is played twice, the agents of each
faction exchanging their two seats, so that seat advantages cancel out. The games are
played by :func:`arena.runner.play_tables` (the runner of ``simulate`` and
``balance``) and summarized in their shared schema.

Ratings come from OpenSkill's Plackett-Luce model (a maintained multiplayer rating
library, not a home-made Elo): each game is a match between the two factions, each
team made of the distinct agents on its seats, ranked by which faction holds a winner.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from agents.base import Agent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from arena.runner import Table, play_tables
from arena.summary import openskill_ratings, summarize  # noqa: F401 (re-exported)


def faction_win_rate(faction: str, agent: Agent, opponent: Agent, n_games: int, seed: int,
                     config: RulesConfig | None = None, content=None) -> dict:
    """Share of games won by ``faction`` with ``agent`` on both its seats against
    ``opponent`` on both others (ties split); rate and 95 % Wilson interval."""
    agents = [agent if SEAT_FACTION[p] == FACTIONS.index(faction) else opponent
              for p in range(4)]
    result = run_matchup(agents, n_games, seed, config, swap=False, content=content)
    return result.summary()["win_rate_by_faction"][faction]


@dataclass
class MatchupResult:
    """The per-game records of a matchup (:mod:`arena.records`)."""

    records: list = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)

    def summary(self) -> dict:
        """The shared summary (:func:`arena.summary.summarize`)."""
        return summarize(self.records)


def run_matchup(agents: Sequence, n_games: int, seed: int,
                config: RulesConfig | None = None, swap: bool = True, *,
                content=None, workers: int = 1, progress: bool = False) -> MatchupResult:
    """Play ``n_games`` seeded games (with ``swap``: twice as many, mirrored seats) with
    agent objects or specs (specs only with ``workers > 1``), through
    :func:`arena.runner.play_tables`."""
    table = Table(tuple(agents), config or RulesConfig.standard(), content)
    return MatchupResult(play_tables([table], n_games, seed, swap=swap, workers=workers,
                                     progress=progress, desc="evaluating"))


# ---------------------------------------------------------------- plots
def plot_learning_curves(progress_csv: str | Path, out_png: str | Path) -> Path:
    """Win rate vs own training timesteps, per faction, against random and heuristic."""
    import csv

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(progress_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, faction in zip(axes, FACTIONS):
        mine = [r for r in rows if r["faction"] == faction]
        x = [int(r["faction_timesteps"]) for r in mine]
        for key, colour in (("win_vs_random", "tab:green"), ("win_vs_heuristic", "tab:red")):
            y = np.array([float(r[key]) for r in mine])
            lo = np.array([float(r[f"{key}_low"]) for r in mine])
            hi = np.array([float(r[f"{key}_high"]) for r in mine])
            ax.plot(x, y, marker="o", color=colour, label=key.replace("win_", "").replace("_", " "))
            ax.fill_between(x, lo, hi, color=colour, alpha=0.2)
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_title(f"learned {faction}")
        ax.set_xlabel("own training timesteps")
        ax.set_ylim(0, 1)
        ax.legend(loc="lower right")
    axes[0].set_ylabel("faction win rate (95% CI)")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return Path(out_png)


def plot_faction_win_rates(summaries: dict, out_png: str | Path) -> Path:
    """Bar chart: British win rate of each matchup (Malay = 1 − British), with CIs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(summaries)
    rates = [summaries[n]["win_rate_by_faction"]["british"]["rate"] for n in names]
    cis = [summaries[n]["win_rate_by_faction"]["british"]["ci95"] for n in names]
    err = np.array([[r - c[0] for r, c in zip(rates, cis)], [c[1] - r for r, c in zip(rates, cis)]])
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(names)), 4.5))
    ax.bar(range(len(names)), rates, yerr=err, capsize=4, color="tab:blue", label="British")
    ax.bar(range(len(names)), [1 - r for r in rates], bottom=rates, color="tab:green",
           alpha=0.5, label="Malay")
    ax.axhline(0.5, color="black", lw=0.8, ls="--")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=20, ha="right", fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games won by the faction")
    ax.legend(loc="upper right")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return Path(out_png)


def write_json(data: dict, path: str | Path) -> None:
    Path(path).write_text(json.dumps(data, indent=2, sort_keys=True))
