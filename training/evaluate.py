"""Evaluation: seeded games between any agent mix, win rates with 95 % intervals,
OpenSkill ratings, and plots.

A *matchup* puts one agent on the British seats and one on the Malay seats (or four
agents, one per seat). With ``swap`` every seed is played twice, the agents of each
faction exchanging their two seats, so that seat advantages cancel out.

Ratings come from OpenSkill's Plackett-Luce model (a maintained multiplayer rating
library, not a home-made Elo): each game is a match between the two factions, each
team made of the distinct agents on its seats, ranked by which faction holds a winner.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from agents.base import Agent
from singapore_env.config import RulesConfig
from singapore_env.content import FACTIONS, SEAT_FACTION, SEAT_NAMES
from singapore_env.simulate import game_seeds, play_game, wilson_interval

FACTION_SEATS = {f: [p for p in range(4) if SEAT_FACTION[p] == i] for i, f in enumerate(FACTIONS)}
MIRROR = (1, 0, 3, 2)  # swap the two seats of each faction


def faction_win_rate(faction: str, agent: Agent, opponent: Agent, n_games: int, seed: int,
                     config: RulesConfig | None = None) -> dict:
    """Share of games won by ``faction`` with ``agent`` on both its seats against
    ``opponent`` on both others (ties split); rate and 95 % Wilson interval."""
    agents = [agent if SEAT_FACTION[p] == FACTIONS.index(faction) else opponent
              for p in range(4)]
    result = run_matchup(agents, n_games, seed, config, swap=False)
    wins = result.faction_wins[faction]
    return {"rate": wins / n_games, "ci95": wilson_interval(wins, n_games), "games": n_games}


@dataclass
class MatchupResult:
    """Totals of a matchup (``labels[p]`` names the agent at seat ``p``)."""

    labels: list[str]
    games: int = 0
    seat_wins: list[float] = field(default_factory=lambda: [0.0] * 4)
    faction_wins: dict = field(default_factory=lambda: {f: 0.0 for f in FACTIONS})
    agent_wins: dict = field(default_factory=dict)     # label -> games won (split)
    agent_games: dict = field(default_factory=dict)    # label -> games played
    vp_sum: list[float] = field(default_factory=lambda: [0.0] * 4)
    outcomes: list = field(default_factory=list)       # (labels by seat, winners)

    def summary(self) -> dict:
        n = self.games
        by_faction = {f: {"wins": w, "rate": w / n, "ci95": wilson_interval(w, n)}
                      for f, w in self.faction_wins.items()}
        by_agent = {a: {"games": self.agent_games[a], "wins": w,
                        "rate": w / self.agent_games[a],
                        "ci95": wilson_interval(w, self.agent_games[a])}
                    for a, w in self.agent_wins.items()}
        return {"labels": self.labels, "games": n,
                "win_rate_by_faction": by_faction,
                "win_rate_by_agent": by_agent,
                "win_rate_by_seat": {SEAT_NAMES[p]: self.seat_wins[p] / n for p in range(4)},
                "mean_vp_by_seat": {SEAT_NAMES[p]: self.vp_sum[p] / n for p in range(4)}}


def run_matchup(agents: Sequence[Agent], n_games: int, seed: int,
                config: RulesConfig | None = None, swap: bool = True,
                labels: Sequence[str] | None = None,
                on_game: Callable[[], None] | None = None) -> MatchupResult:
    """Play ``n_games`` seeded games (with ``swap``: twice as many, mirrored seats);
    ``on_game()`` is called after each game (progress bars)."""
    labels = list(labels or [a.name for a in agents])
    result = MatchupResult(labels)
    for engine_seed, *agent_seeds in game_seeds(seed, n_games):
        layouts = [tuple(range(4))] + ([MIRROR] if swap else [])
        for layout in layouts:
            seats_agents = [agents[layout[p]] for p in range(4)]
            seat_labels = [labels[layout[p]] for p in range(4)]
            game = play_game(engine_seed, seats_agents, config,
                             agent_seeds=[agent_seeds[layout[p]] for p in range(4)])
            _record(result, seat_labels, game.winners, game.final_scores)
            if on_game is not None:
                on_game()
    return result


def _record(result: MatchupResult, seat_labels, winners, scores) -> None:
    result.games += 1
    share = 1.0 / len(winners)
    for p in range(4):
        result.vp_sum[p] += scores[p]
    for p in winners:
        result.seat_wins[p] += share
        result.faction_wins[FACTIONS[SEAT_FACTION[p]]] += share
    for label in set(seat_labels):
        result.agent_games[label] = result.agent_games.get(label, 0) + 1
        won = sum(share for p in winners if seat_labels[p] == label)
        result.agent_wins[label] = result.agent_wins.get(label, 0.0) + won
    result.outcomes.append((list(seat_labels), list(winners)))


def openskill_ratings(results: Sequence[MatchupResult]) -> dict:
    """OpenSkill (Plackett-Luce) ratings of every agent label over all games played."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict = {}
    for result in results:
        for seat_labels, winners in result.outcomes:
            teams, ranks = [], []
            for faction in FACTIONS:
                names = sorted({seat_labels[p] for p in FACTION_SEATS[faction]})
                teams.append([ratings.setdefault(n, model.rating(name=n)) for n in names])
                won = any(SEAT_FACTION[p] == FACTIONS.index(faction) for p in winners)
                ranks.append(1 if won else 2)
            if len({n for team in teams for n in (r.name for r in team)}) < \
                    sum(len(t) for t in teams):
                continue  # the same agent on both sides: no information about strength
            new = model.rate(teams, ranks=ranks)
            for team in new:
                for r in team:
                    ratings[r.name] = r
    return {name: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for name, r in sorted(ratings.items(), key=lambda kv: -kv[1].ordinal())}


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
