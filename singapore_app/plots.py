"""The applications' figures: faction win rates of matchups, learning curves, the
ladder (matplotlib, drawn to PNG files)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from singapore_env.engine.content import FACTIONS


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


def plot_curves(run: list[dict], shipped: list[dict], out_png: str | Path) -> Path:
    """Each faction's win rates against random and heuristic players over learned
    decisions (progress.csv rows): the run's (solid) beside the shipped ``learned:zero``'s
    (dashed), decisions on a log scale (the first evaluation, at 0, drawn at 1,000)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, faction in zip(axes, FACTIONS):
        for rows, style, who in ((run, "-", "this run"), (shipped, "--", "learned:zero")):
            x = [max(int(r["decisions"]), 1000) for r in rows]
            for opponent, colour in (("random", "tab:green"), ("heuristic", "tab:red")):
                ax.plot(x, [float(r[f"{faction}_vs_{opponent}"]) for r in rows], style,
                        marker="o", ms=3, color=colour, label=f"{who} vs {opponent}")
        ax.set_xscale("log")
        ax.set_title(f"learned {faction}")
        ax.set_xlabel("learned decisions (both factions)")
        ax.set_ylim(0, 1)
        ax.legend(loc="lower right", fontsize=7)
    axes[0].set_ylabel("faction win rate")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return Path(out_png)


def plot_ladder(summary: dict, out_png: str | Path) -> Path:
    """Win rate of each agent against the heuristic faction, as British and as Malay,
    with 95 % intervals and the mirror baseline; and the OpenSkill ratings."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    agents = summary["agents"]
    fig, axes = plt.subplots(1, 3, figsize=(5 + 2.2 * len(agents), 4.5))
    for ax, faction in zip(axes, FACTIONS):
        rows = [summary["vs_heuristic"][a][faction] for a in agents]
        rates = [r["rate"] for r in rows]
        err = [[r["rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["rate"] for r in rows]]
        ax.bar(range(len(agents)), rates, yerr=err, capsize=4, color="tab:blue")
        base = summary["mirror_baseline"][faction]
        ax.axhline(base["rate"], color="black", ls="--", lw=1, label="mirror (heuristic)")
        ax.axhspan(*base["ci95"], color="grey", alpha=0.2)
        ax.set_title(f"as {faction} vs heuristic")
        ax.set_ylim(0, 1)
        ax.set_ylabel("faction win rate (95% CI)")
        _agent_ticks(ax, agents)
        ax.legend(loc="upper left", fontsize=8)
    ratings = summary["ratings"]
    named = [a for a in agents if a in ratings]
    axes[2].bar(range(len(named)), [ratings[a]["mu"] for a in named],
                yerr=[ratings[a]["sigma"] for a in named], capsize=4, color="tab:green")
    axes[2].set_title("OpenSkill rating (mu ± sigma)")
    _agent_ticks(axes[2], named)
    fig.suptitle(f"ladder: {summary['games_per_matchup']} seat-swapped games per matchup, "
                 f"seed {summary['seed']}")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)
    plt.close(fig)
    return Path(out_png)


def _agent_ticks(ax, agents) -> None:
    ax.set_xticks(range(len(agents)))
    ax.set_xticklabels(agents, rotation=20, ha="right", fontsize=8)
