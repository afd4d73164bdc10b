"""The learning curve of an expert-iteration run (``learning_curve.png``), drawn from its
``progress.csv``."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from singapore_env.engine.content import FACTIONS

from .progress import read_progress


def plot_progress(progress_csv: Path, out_png: Path, baseline: dict | None = None) -> Path | None:
    """The learning curve: per faction the run trains, the distilled policy's win rate
    against the heuristic (95 % interval) and the mirror per iteration, the starting
    network at iteration -1 (from ``baseline``); below, the training losses and the value
    head's and the projected VP's MSE on each iteration's fresh games."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_progress(progress_csv)
    if not rows:
        return None
    x = [int(r["iteration"]) for r in rows]
    trained = [(f, name) for f, name in enumerate(FACTIONS) if rows[0][f"{name}_win"] != ""]
    fig, axes = plt.subplots(2, len(trained), figsize=(5 * len(trained), 6.5), sharex=True,
                             squeeze=False)
    for col, (f, name) in enumerate(trained):
        ax = axes[0][col]

        def series(key, name=name):
            return np.array([float(r[f"{name}_{key}"]) for r in rows])

        ax.plot(x, series("win"), marker="o", color="tab:blue", label="distilled policy")
        ax.fill_between(x, series("win_low"), series("win_high"), color="tab:blue", alpha=0.2)
        ax.plot(x, series("mirror"), color="grey", ls="--", label="heuristic mirror")
        kept = [i for i, r in zip(x, rows) if r[f"{name}_accepted"] == "1"]
        ax.plot(kept, [series("win")[x.index(i)] for i in kept], "k*", label="kept by the gate")
        if baseline:
            start = baseline[f]["start"]
            ax.errorbar([-1], [start["rate"]], yerr=[[start["rate"] - start["low"]],
                                                    [start["high"] - start["rate"]]],
                        fmt="s", color="tab:green", capsize=3, label="starting network")
        ax.set_ylim(0, 1)
        ax.set_title(f"{name}: win rate vs heuristic (95% CI)")
        ax.legend(loc="lower right", fontsize=8)
        lax = axes[1][col]
        lax.plot(x, series("policy_loss"), marker="o", label="policy cross-entropy")
        lax.plot(x, series("value_loss"), marker="o", label="value MSE (training)")
        lax.plot(x, series("value_mse_fresh"), marker="^", ls=":",
                 label="value MSE, fresh games")
        lax.plot(x, series("value_mse_projected"), marker="v", ls=":",
                 label="projected VP MSE, fresh games")
        lax.set_xlabel("iteration")
        lax.set_xticks(([-1] if baseline else []) + x)
        lax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_png, dpi=100)
    plt.close(fig)
    return Path(out_png)
