"""A balance study's report: ``report.md`` and its PNG figures, from the study summary
(:func:`singapore_app.study.summarize_study`) and the per-game records.

Figures (matplotlib, drawn headless):

* ``win_rates.png`` -- each faction's win rate per variant and mix, 95 % intervals;
* ``vp_sources.png`` -- mean VP per seat and game by source, stacked, per faction and
  variant (first mix);
* ``differences.png`` -- each variant's change of the British win rate from the
  baseline, with its 95 % interval (only when there are variants).

The markdown adds the seat win rates (seat effects), the game facts, the ratings and
the command that made the study.
"""

from __future__ import annotations

from pathlib import Path

from singapore_env.engine.content import FACTIONS, SEAT_NAMES
from singapore_env.engine.state import VP_SOURCES


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_win_rates(result: dict, path: Path) -> None:
    plt = _plt()
    cells = result["cells"]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(cells)), 4.2))
    width = 0.38
    for k, faction in enumerate(FACTIONS):
        rows = [c["summary"]["win_rate_by_faction"][faction] for c in cells]
        rates = [r["rate"] for r in rows]
        err = [[r["rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["rate"] for r in rows]]
        ax.bar([i + (k - 0.5) * width for i in range(len(cells))], rates, width, yerr=err,
               capsize=3, label=faction)
    ax.axhline(0.5, color="black", lw=0.8, ls="--")
    ax.set_xticks(range(len(cells)))
    ax.set_xticklabels([f"{c['variant']}\n{c['mix']}" for c in cells], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("faction win rate (95 % CI)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_vp_sources(result: dict, path: Path) -> None:
    plt = _plt()
    mix = result["cells"][0]["mix"]
    cells = [c for c in result["cells"] if c["mix"] == mix]
    bars = [(c["variant"], f, c["summary"]["mean_vp_by_source"][f]) for c in cells
            for f in FACTIONS]
    sources = [s for s in VP_SOURCES if any(b[2][s] for b in bars)]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(bars)), 4.5))
    bottom = [0.0] * len(bars)
    for src in sources:
        values = [b[2][src] for b in bars]
        ax.bar(range(len(bars)), values, bottom=bottom, label=src)
        bottom = [x + v for x, v in zip(bottom, values)]
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([f"{v}\n{f}" for v, f, _ in bars], fontsize=8)
    ax.set_ylabel(f"mean VP per seat and game ({mix})")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_differences(result: dict, path: Path) -> None:
    plt = _plt()
    diffs = result["differences"]
    fig, ax = plt.subplots(figsize=(max(5, 1.5 * len(diffs)), 3.8))
    rows = [d["win_rate_by_faction"][FACTIONS[0]] for d in diffs]
    values = [r["difference"] for r in rows]
    err = [[v - r["ci95"][0] for v, r in zip(values, rows)],
           [r["ci95"][1] - v for v, r in zip(values, rows)]]
    ax.errorbar(range(len(diffs)), values, yerr=err, fmt="o", capsize=4)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(diffs)))
    ax.set_xticklabels([f"{d['variant']}\n{d['mix']}" for d in diffs], fontsize=8)
    ax.set_ylabel(f"{FACTIONS[0]} win rate minus baseline (95 % CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_report(result: dict, out: str | Path, command: str = "") -> Path:
    """Write ``report.md`` and its figures into ``out``; return the report's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    plot_win_rates(result, out / "win_rates.png")
    plot_vp_sources(result, out / "vp_sources.png")
    figures = ["win_rates.png", "vp_sources.png"]
    if result["differences"]:
        plot_differences(result, out / "differences.png")
        figures.append("differences.png")
    study = result["study"]
    lines = ["# Balance study", "",
             f"{study['games']} seeds per cell{', each played twice (seats swapped)' if study['swap'] else ''}, "
             f"seed {study['seed']}; {result['games']} games in all"
             + (f", on the {result['engine']} engine." if result.get("engine") else ".")]
    if command:
        lines += ["", "```", command, "```"]
    lines += ["", "## Faction win rates (95 % intervals, the seed as the unit)", "",
              "| variant | mix | games | british | malay | shared wins |", "|---|---|---|---|---|---|"]
    for c in result["cells"]:
        s = c["summary"]
        rates = [s["win_rate_by_faction"][f] for f in FACTIONS]
        lines.append(f"| {c['variant']} | {c['mix']} | {s['games']} | "
                     + " | ".join(f"{_pct(r['rate'])} {_ci(r['ci95'])}" for r in rates)
                     + f" | {s['shared_wins']} |")
    if result["differences"]:
        lines += ["", "## Differences from the baseline (95 % intervals)", "",
                  "Paired by seed (the same seeds and seatings in both cells): per seed the "
                  "cell's mean minus the baseline's, a t interval over the seeds; VP per "
                  "seat and game.", "",
                  "| variant | mix | british win rate change | largest VP source changes |",
                  "|---|---|---|---|"]
        for d in result["differences"]:
            r = d["win_rate_by_faction"][FACTIONS[0]]
            moves = sorted(((f, src, v) for f, row in d["mean_vp_by_source"].items()
                            for src, v in row.items()),
                           key=lambda x: -abs(x[2]["difference"]))[:3]
            lines.append(f"| {d['variant']} | {d['mix']} | {100 * r['difference']:+.1f} pts "
                         f"{_ci(r['ci95'])} | " + ", ".join(
                             f"{f} {src} {v['difference']:+.2f} "
                             f"[{v['ci95'][0]:+.2f}, {v['ci95'][1]:+.2f}]"
                             for f, src, v in moves) + " |")
    lines += ["", "## Seat win rates (seat effects)", "",
              "| variant | mix | " + " | ".join(SEAT_NAMES) + " |", "|---|---|" + "---|" * 4]
    for c in result["cells"]:
        rates = c["summary"]["win_rate_by_seat"]
        lines.append(f"| {c['variant']} | {c['mix']} | "
                     + " | ".join(f"{_pct(rates[s]['rate'])} {_ci(rates[s]['ci95'])}"
                                  for s in SEAT_NAMES) + " |")
    lines += ["", "## VP by source (mean per seat and game, 95 % interval half-width)", "",
              "| variant | mix | faction | " + " | ".join(VP_SOURCES[:-1]) + " |",
              "|---|---|---|" + "---|" * (len(VP_SOURCES) - 1)]
    for c in result["cells"]:
        for f in FACTIONS:
            row = c["summary"]["mean_vp_by_source"][f]
            ci = c["summary"]["mean_vp_by_source_ci95"][f]
            lines.append(f"| {c['variant']} | {c['mix']} | {f} | " + " | ".join(
                f"{row[s]:.2f} ±{(ci[s][1] - ci[s][0]) / 2:.2f}" for s in VP_SOURCES[:-1]) + " |")
    lines += ["", "## Game facts (mean per game)", "",
              "| variant | mix | Anglo-Dutch (share, round) | wars | raids | decrees | conflicts |",
              "|---|---|---|---|---|---|---|"]
    for c in result["cells"]:
        f = c["summary"]["facts"]
        treaty = f"{_pct(f['anglo_dutch_share'])}, " + (
            f"{f['anglo_dutch_round']:.1f}" if f["anglo_dutch_round"] else "-")
        lines.append(f"| {c['variant']} | {c['mix']} | {treaty} | {f['wars']:.2f} | "
                     f"{f['raids']:.2f} | {f['decrees']:.2f} | {f['conflicts']:.2f} |")
    if result.get("ratings"):
        lines += ["", "## OpenSkill ratings (every agent of the study)", "",
                  "| agent | mu | sigma | ordinal |", "|---|---|---|---|"]
        for name, r in result["ratings"].items():
            lines.append(f"| {name} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |")
    lines += [""] + [f"![{name}]({name})" for name in figures] + [""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path
