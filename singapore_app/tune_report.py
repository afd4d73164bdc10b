"""A tuning study's report: ``report.md`` and its figures, from the study's summary
(``summary.json``, :func:`singapore_app.cli_tune.tune`).

Figures (matplotlib, drawn headless):

* ``pareto.png`` -- every trial's imbalance against its size of change, the Pareto
  front (the smallest change for each level of balance) joined;
* ``history.png`` -- the optimization history: each trial's imbalance in order, the
  best so far among the trials that reached the last rung;
* ``importance.png`` -- each knob's importance for a low imbalance (PED-ANOVA);
* ``tornado.png`` -- each knob alone at each end of its range: the British share's
  change from the unchanged rules with its 95 % interval;
* ``win_rates.png`` -- British and Malay win rates, unchanged rules and the found
  settings, with the search's players and (if asked) the strong players.
"""

from __future__ import annotations

from pathlib import Path

from singapore_env.engine.content import FACTIONS
from singapore_env.engine.state import VP_SOURCES

FIGURES = ("pareto.png", "history.png", "importance.png", "tornado.png", "win_rates.png")


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _pts(diff: dict) -> str:
    return (f"{100 * diff['difference']:+.1f} pts [{100 * diff['ci95'][0]:+.1f}, "
            f"{100 * diff['ci95'][1]:+.1f}]")


def _settings(settings: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in settings.items())


def _objective_label(spec: dict) -> str:
    return ("|British share - target|" if spec["objective"] == "british"
            else "|VP margin - target|")


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    _plt().close(fig)


# ---------------------------------------------------------------- figures
def plot_pareto(result: dict, path: Path) -> None:
    plt = _plt()
    rows, front = result["trials"], result["pareto"]
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    full = [r for r in rows if not r["pruned"]]
    pruned = [r for r in rows if r["pruned"]]
    ax.scatter([r["change"] for r in pruned], [r["imbalance"] for r in pruned], s=14,
               color="0.7", label="stopped early (its last rung)")
    ax.scatter([r["change"] for r in full], [r["imbalance"] for r in full], s=22,
               color="tab:blue", label="last rung")
    ax.plot([r["change"] for r in front], [r["imbalance"] for r in front], "-o",
            color="tab:red", ms=5, label="Pareto front")
    ax.set_xlabel("size of change from the standard settings")
    ax.set_ylabel(_objective_label(result["spec"]))
    ax.legend(fontsize=8)
    _save(fig, path)


def plot_history(result: dict, path: Path) -> None:
    plt = _plt()
    rows = result["trials"]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.scatter([r["number"] for r in rows], [r["imbalance"] for r in rows], s=16,
               c=["0.7" if r["pruned"] else "tab:blue" for r in rows])
    best, xs, ys = None, [], []
    for r in rows:
        if not r["pruned"] and (best is None or r["imbalance"] < best):
            best = r["imbalance"]
        if best is not None:
            xs.append(r["number"])
            ys.append(best)
    ax.step(xs, ys, where="post", color="tab:red", label="best on the last rung")
    ax.set_xlabel("trial")
    ax.set_ylabel(_objective_label(result["spec"]) + " (grey: stopped early)")
    ax.legend(fontsize=8)
    _save(fig, path)


def plot_importance(result: dict, path: Path) -> None:
    plt = _plt()
    imp = result["importances"]
    names = list(imp) or ["(too few trials)"]
    fig, ax = plt.subplots(figsize=(6.0, 1.2 + 0.5 * len(names)))
    ax.barh(range(len(names)), [imp.get(n, 0.0) for n in names], color="tab:blue")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("importance for the imbalance (PED-ANOVA, sums to 1)")
    _save(fig, path)


def plot_tornado(result: dict, path: Path) -> None:
    plt = _plt()
    rows = result["confirmation"]["sensitivity"]
    knobs = list(dict.fromkeys(r["knob"] for r in rows))
    span = {k: max(abs(r["difference"]) for r in rows if r["knob"] == k) for k in knobs}
    knobs.sort(key=lambda k: -span[k])
    fig, ax = plt.subplots(figsize=(7.0, 1.4 + 0.6 * len(knobs)))
    for y, knob in enumerate(knobs):
        mine = [r for r in rows if r["knob"] == knob]
        for r in mine:
            d = 100 * r["difference"]
            lo, hi = (100 * x for x in r["difference_ci95"])
            ax.barh(y, d, color="tab:red" if d < 0 else "tab:blue", alpha=0.6, height=0.6)
            ax.errorbar(d, y, xerr=[[d - lo], [hi - d]], color="black", capsize=3, lw=0.8)
            ax.annotate(f"{r['value']}", (d, y), fontsize=8, xytext=(3 if d >= 0 else -3, 6),
                        textcoords="offset points", ha="left" if d >= 0 else "right")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(range(len(knobs)))
    ax.set_yticklabels(knobs)
    ax.invert_yaxis()
    ax.set_xlabel("British win rate minus the standard rules' (points, 95 % CI)")
    _save(fig, path)


def plot_win_rates(result: dict, path: Path) -> None:
    plt = _plt()
    conf = result["confirmation"]
    bars = [("standard", conf["baseline"]), ("found", conf["best"])]
    if "strong" in conf:
        bars += [("standard\n(strong)", conf["strong"]["baseline"]),
                 ("found\n(strong)", conf["strong"]["best"])]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(bars)), 4.0))
    for k, faction in enumerate(FACTIONS):
        rows = [(b["british"], b["ci95"]) if faction == FACTIONS[0]
                else (b["malay"]["rate"], b["malay"]["ci95"]) for _, b in bars]
        err = [[r - c[0] for r, c in rows], [c[1] - r for r, c in rows]]
        ax.bar([i + (k - 0.5) * 0.38 for i in range(len(bars))], [r for r, _ in rows], 0.38,
               yerr=err, capsize=3, label=faction)
    ax.axhline(0.5, color="black", lw=0.8, ls="--")
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([name for name, _ in bars], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("faction win rate (95 % CI)")
    ax.legend()
    _save(fig, path)


# ---------------------------------------------------------------- markdown
def _win_rows(label: str, cell: dict) -> str:
    diff = _pts(cell["difference"]) if "difference" in cell else "-"
    return (f"| {label} | {_settings(cell['settings'])} | {_pct(cell['british'])} "
            f"{_ci(cell['ci95'])} | {_pct(cell['malay']['rate'])} {_ci(cell['malay']['ci95'])} "
            f"| {diff} | {cell['margin']:+.2f} | {cell['decisions']:.1f} |")


def _vp_table(conf: dict) -> list[str]:
    base, best = conf["baseline"], conf["best"]
    lines = ["| source | British, standard | British, found | Malay, standard | Malay, found |",
             "|---|---|---|---|---|"]
    for src in VP_SOURCES:
        values = [cell["vp_by_source"][f][src] for f in FACTIONS for cell in (base, best)]
        if any(values):
            lines.append(f"| {src} | " + " | ".join(f"{v:.2f}" for v in values) + " |")
    lines += ["", f"Game length: {base['decisions']:.1f} decisions per game with the standard "
              f"rules, {best['decisions']:.1f} with the found settings; Wars per game "
              f"{base['facts']['wars']:.2f} and {best['facts']['wars']:.2f}; Decrees "
              f"{base['facts']['decrees']:.2f} and {best['facts']['decrees']:.2f}."]
    return lines


def write_report(result: dict, out: str | Path) -> Path:
    """Write ``report.md`` and its figures into ``out``; return the report's path."""
    out = Path(out)
    plot_pareto(result, out / "pareto.png")
    plot_history(result, out / "history.png")
    plot_importance(result, out / "importance.png")
    plot_tornado(result, out / "tornado.png")
    plot_win_rates(result, out / "win_rates.png")
    spec, conf, search = result["spec"], result["confirmation"], result["search"]
    best, std = conf["best"], conf["baseline"]["settings"]
    players = (f"four {spec['players'][0]}" if len(set(spec["players"])) == 1
               else ", ".join(spec["players"]))
    lines = ["# Balance tuning", "", f"**{result['verdict']}.**", "",
             "```", result.get("command", ""), "```", "",
             f"Players: {players}. Objective: {_objective_label(spec)} with target "
             f"{spec['target']:g}, and the size of the change from the standard settings "
             f"(the knobs' distances summed, each over its range). Sampler "
             f"{spec['sampler']}, seed {spec['seed']}, rungs {spec['rungs']} seeds (x 2 "
             f"seatings), 1 trial in {spec['eta']} goes on.",
             "", "## The found settings next to the standard ones", "",
             "| knob | range | standard | found |", "|---|---|---|---|"]
    for knob in spec["knobs"]:
        name, _, values = knob.partition("=")
        lines.append(f"| {name} | {values} | {std[name]} | **{best['settings'][name]}** |")
    lines += ["", f"## Win rates on fresh seeds ({conf['seeds']} seeds x 2 seatings, "
              f"base seed {conf['seed']})", "",
              "The best settings of the search (those that reached its last rung) replayed "
              "against the standard rules on the same fresh seeds; the difference is paired "
              "by seed. 95 % intervals, the seed as the unit.", "",
              "| cell | settings | British | Malay | British minus standard | VP margin | "
              "decisions |", "|---|---|---|---|---|---|---|",
              _win_rows("standard", conf["baseline"])]
    for name, cell in conf["candidates"].items():
        label = f"**{name}** (found)" if name == conf["best_name"] else name
        lines.append(_win_rows(label, cell))
    if "strong" in conf:
        strong = conf["strong"]
        lines += ["", f"## Under strong play: {strong['players']} in every seat "
                  f"({strong['seeds']} seeds x 2)", "",
                  f"| rules | British, {players} | British, four {strong['players']} |",
                  "|---|---|---|",
                  f"| standard | {_pct(conf['baseline']['british'])} "
                  f"{_ci(conf['baseline']['ci95'])} | {_pct(strong['baseline']['british'])} "
                  f"{_ci(strong['baseline']['ci95'])} |",
                  f"| found | {_pct(best['british'])} {_ci(best['ci95'])} | "
                  f"{_pct(strong['best']['british'])} {_ci(strong['best']['ci95'])} |",
                  f"| found minus standard | {_pts(best['difference'])} | "
                  f"{_pts(strong['best']['difference'])} |"]
    lines += ["", "![win rates](win_rates.png)", "",
              "## VP by source and game length against the standard rules", "",
              "Mean VP per seat and game, on the confirmation's seeds.", ""] + _vp_table(conf)
    front = result["pareto"]
    lines += ["", "## The trade-off: balance against the size of the change", "",
              "The Pareto front of the trials that reached the last rung: no other trial "
              "is both more balanced and a smaller change.", "",
              "| trial | settings | change | British (search seeds) | imbalance |",
              "|---|---|---|---|---|"]
    for r in front:
        lines.append(f"| {r['number']} | {_settings(r['settings'])} | {r['change']:.2f} | "
                     f"{_pct(r['british'])} {_ci(r['ci95'])} | {r['imbalance']:.4f} |")
    pruned = sum(r["pruned"] for r in result["trials"])
    lines += ["", "![Pareto front](pareto.png)", "", "## The search", "",
              f"{len(result['trials'])} trials ({pruned} stopped early by successive "
              f"halving, {sum(r['repeat_of'] is not None for r in result['trials'])} "
              f"repeats of earlier settings), {search['games']} games played in this run "
              f"in {search['seconds'] / 60:.1f} min; every trial in `trials.csv`.", "",
              "![optimization history](history.png)", "",
              "Parameter importance for a low imbalance (PED-ANOVA):", "",
              "| knob | importance |", "|---|---|"]
    lines += [f"| {k} | {v:.2f} |" for k, v in result["importances"].items()] or \
        ["| (too few trials vary) | - |"]
    sens = conf["sensitivity"]
    lines += ["", "![parameter importance](importance.png)", "",
              f"## One knob at a time ({sens[0]['seeds'] if sens else 0} seeds x 2)", "",
              "Each knob alone at each end of its range, the other settings standard: the "
              "British share and its change from the standard rules, paired by seed.", "",
              "| knob | value (standard) | British | change |", "|---|---|---|---|"]
    for r in sens:
        lines.append(f"| {r['knob']} | {r['value']} ({r['standard']}) | {_pct(r['british'])} "
                     f"{_ci(r['ci95'])} | {100 * r['difference']:+.1f} pts "
                     f"[{100 * r['difference_ci95'][0]:+.1f}, "
                     f"{100 * r['difference_ci95'][1]:+.1f}] |")
    lines += ["", "![tornado](tornado.png)", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path
