"""The self-play trainer's periodic evaluation, ``progress.csv`` and learning curve.

Each evaluation plays ``eval_games`` seeds, each twice with the faction's seats
swapped, of each learned faction (its actor, most likely legal action) against two
random players and against two heuristic players; the heuristic mirror (four heuristic
players) is measured once on the same seeds, so ``british_vs_heuristic`` reads against
``mirror_british``. The seeds (``arena`` seeds from ``EVAL_SEED + seed``) are never
those of the training games (:func:`singapore_env.vector.game_seed` streams).
"""

from __future__ import annotations

import csv
from pathlib import Path

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from training.progress import append_progress

EVAL_SEED = 50_000
OPPONENTS = ("random", "heuristic")
RATE_FIELDS = [f"{f}_vs_{o}" for f in FACTIONS for o in OPPONENTS]
MIRROR_FIELDS = [f"mirror_{f}" for f in FACTIONS]
PROGRESS_FIELDS = (["decisions", "wall_s", "games", "updates", "decisions_per_s"]
                   + RATE_FIELDS + MIRROR_FIELDS
                   + [f"{k}_{f}" for k in ("entropy", "value_loss") for f in FACTIONS])


def _faction_rate(agents: list, faction: str, cfg) -> float:
    from arena.evaluate import run_matchup

    result = run_matchup(agents, cfg.eval_games, EVAL_SEED + cfg.seed,
                         RulesConfig.named(cfg.ruleset), swap=True)
    return result.summary()["win_rate_by_faction"][faction]["rate"]


def evaluate(policies, cfg) -> dict:
    """Win rates of the two actors (``[british, malay]``) against random and heuristic
    players; with ``policies`` None, the heuristic mirror's rate per faction."""
    from agents.learned import LearnedAgent
    from agents.registry import make_agent

    if policies is None:
        agents = [make_agent("heuristic", seed=p) for p in range(4)]
        return {f"mirror_{f}": _faction_rate(agents, f, cfg) for f in FACTIONS}
    rates = {}
    for f, (faction, policy) in enumerate(zip(FACTIONS, policies)):
        for opponent in OPPONENTS:
            agents = [LearnedAgent(policy, name=f"selfplay-{faction}")
                      if SEAT_FACTION[p] == f else make_agent(opponent, seed=p)
                      for p in range(4)]
            rates[f"{faction}_vs_{opponent}"] = _faction_rate(agents, faction, cfg)
    return rates


def write_row(out: Path, rates: dict, counters: dict, wall_s: float, stats: dict) -> None:
    """Append one evaluation's row to ``out/progress.csv`` (``counters`` and
    ``wall_s``: the training's when the evaluated networks were taken)."""
    row = {"decisions": counters["decisions"], "wall_s": round(wall_s, 1),
           "games": counters["games"], "updates": counters["updates"],
           "decisions_per_s": round(counters["decisions"] / max(wall_s, 1e-9), 1),
           **{k: round(v, 4) for k, v in rates.items()},
           **{k: round(stats.get(k, float("nan")), 4) for k in PROGRESS_FIELDS[-4:]}}
    append_progress(out / "progress.csv", PROGRESS_FIELDS, row)


def trim_progress(out: Path, decisions: int) -> None:
    """Drop the rows written after the checkpoint a resumed run continues from."""
    path = out / "progress.csv"
    if not path.exists():
        return
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if int(r["decisions"]) <= decisions]
    path.unlink()
    for row in rows:
        append_progress(path, PROGRESS_FIELDS, row)


def plot_curve(out: Path) -> Path:
    """``out/learning_curve.png``: each faction's win rates over learned decisions, the
    mirror's as a dashed line."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(out / "progress.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    x = [int(r["decisions"]) for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, faction in zip(axes, FACTIONS):
        for opponent, colour in zip(OPPONENTS, ("tab:green", "tab:red")):
            ax.plot(x, [float(r[f"{faction}_vs_{opponent}"]) for r in rows], marker="o",
                    color=colour, label=f"vs {opponent}")
        ax.axhline(float(rows[-1][f"mirror_{faction}"]), color="tab:red", ls="--", lw=0.8,
                   label="heuristic mirror")
        ax.set_title(f"learned {faction}")
        ax.set_xlabel("learned decisions (both factions)")
        ax.set_ylim(0, 1)
        ax.legend(loc="lower right")
    axes[0].set_ylabel("faction win rate")
    fig.tight_layout()
    path = out / "learning_curve.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
