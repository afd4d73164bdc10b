"""The demo: a short run of batched self-play, then an evaluation report (markdown + PNGs).

``run_demo(out)`` writes into ``out``:
- ``train/`` — the self-play run (``training/configs/demo.toml``, :mod:`training.ppo_trainer`):
  ``checkpoint.pt``, ``config.json``, the actors ``british.npz`` / ``malay.npz``,
  ``progress.csv`` and ``learning_curve.png`` (win rates over learned decisions);
- ``evaluation.json`` — every matchup's win rates with 95 % intervals, and ratings;
- ``faction_win_rates.png``;
- ``expert/`` — a short expert-iteration run (``training/configs/expert_demo.toml``): its
  checkpoints, ``progress.csv`` and ``learning_curve.png``;
- ``report.md`` — the above as a readable page.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Callable

from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent
from agents.random_agent import RandomAgent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS
from singapore_env.native import NativeUnavailable, require

from arena.evaluate import run_matchup, write_json
from arena.summary import openskill_ratings
from training.config import CONFIG_DIR, TrainConfig, TrainConfigError, load_config, read_toml
from training.expert import train as train_expert
from training.ppo_trainer import train
from training.progress import read_progress

from .plots import plot_faction_win_rates

DEMO_CONFIG = CONFIG_DIR / "demo.toml"
EXPERT_DEMO_CONFIG = CONFIG_DIR / "expert_demo.toml"
MIRROR_MATCHUP = "heuristic vs heuristic (mirror baseline)"


def matchups(british: LearnedAgent, malay: LearnedAgent) -> dict[str, list]:
    """Name -> agents by seat (LG, Resident, Temenggong, Sultan)."""
    r, h = RandomAgent(), HeuristicAgent()
    return {
        "learned British vs random": [british, british, r, r],
        "random vs learned Malay": [r, r, malay, malay],
        "learned British vs heuristic": [british, british, h, h],
        "heuristic vs learned Malay": [h, h, malay, malay],
        "learned British vs learned Malay": [british, british, malay, malay],
        MIRROR_MATCHUP: [h, h, h, h],
        "heuristic vs random": [h, h, r, r],
        "random vs heuristic": [r, r, h, h],
        "random vs random": [r, r, r, r],
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _interval(rate: float, low: float, high: float) -> str:
    return f"{_pct(rate)} [{_pct(low)}, {_pct(high)}]"


def _row(name: str, summary: dict) -> str:
    b = summary["win_rate_by_faction"]["british"]
    m = summary["win_rate_by_faction"]["malay"]
    return (f"| {name} | {summary['games']} | {_interval(b['rate'], *b['ci95'])} "
            f"| {_interval(m['rate'], *m['ci95'])} |")


def training_section(run: Path, cfg: TrainConfig, counters: dict,
                     seconds: float) -> list[str]:
    """The report's lines on the self-play run in ``run`` (folder name relative to the
    report: ``train``): how it was trained, and its evaluations over learned decisions."""
    if cfg.imitation_games:
        agree = " and ".join(f"{name.capitalize()} "
                             f"{_pct(counters[f'imitation_agreement_{name}'])}"
                             for name in FACTIONS)
        start = (f"A warm start imitates {cfg.imitation_games} games of `{cfg.teacher}` "
                 f"(agreement with the teacher on its decisions: {agree}); then the")
    else:
        start = f"From {'`' + cfg.init + '`' if cfg.init else 'random weights'}, the"
    rows = read_progress(run / "progress.csv")
    rate = counters["decisions"] / max(counters["wall_s"], 1e-9)
    return [
        "## Training", "",
        f"Batched self-play PPO (`training/ppo_trainer.py`, `docs/selfplay.md`) in "
        f"{seconds / 60:.1f} min: one network per faction reads the observation alone "
        f"(no heuristic input). {start} British and the Malay policy learn at once, "
        f"against each other and a pool of their past selves, on {cfg.num_games} games "
        f"in lockstep ({cfg.engine} engine, seed {cfg.seed}): "
        f"{counters['decisions']:,} learned decisions in {counters['wall_s']:.0f} s "
        f"({rate:,.0f} a second). Configuration: `{run.name}/config.json`; the actors "
        f"play as `learned:{run.name}/british.npz` and `learned:{run.name}/malay.npz`.", "",
        f"Each evaluation during training plays {cfg.eval_games} seeds, seat-swapped, of "
        "each learned faction (its most likely legal action) on both its seats against "
        "two random and two heuristic players; the heuristic mirror scores "
        f"{_pct(float(rows[-1]['mirror_british']))} British and "
        f"{_pct(float(rows[-1]['mirror_malay']))} Malay on the same seeds.", "",
        "| learned decisions | training s | British vs random | British vs heuristic "
        "| Malay vs random | Malay vs heuristic |", "|---|---|---|---|---|---|",
        *[f"| {int(r['decisions']):,} | {float(r['wall_s']):.0f} | "
          + " | ".join(_pct(float(r[f"{f}_vs_{o}"])) for f in FACTIONS
                       for o in ("random", "heuristic")) + " |" for r in rows], "",
        f"![learning curve]({run.name}/learning_curve.png)", "",
    ]


def write_report(out: Path, summaries: dict, ratings: dict, eval_seconds: float,
                 sections: list[str] = (), training: list[str] = ()) -> Path:
    """``report.md`` of the demo in ``out``: ``training`` (markdown lines) first, then
    the evaluation, then ``sections``."""
    games = next(iter(summaries.values()))["games"]
    lines = [
        "# 1819 Singapore — self-play demo report", "",
        *training,
        "## Faction win rates", "",
        f"Evaluation in {eval_seconds / 60:.1f} min: each matchup plays the same "
        f"{games // 2} seeds, every seed twice, the two seats of each faction exchanged. "
        "A faction wins a game when one of its seats has the most VP (ties split). "
        "Random play gives each faction about 50 %. The *mirror baseline* is what the "
        "heuristic itself scores in the same seats: a learned faction that plays as well "
        "as the heuristic wins about as often against it as the mirror row's faction "
        "(about 32 % British, 68 % Malay).", "",
        "| matchup (British vs Malay) | games | British wins [95% CI] | Malay wins [95% CI] |",
        "|---|---|---|---|",
        *[_row(name, s) for name, s in summaries.items()], "",
        "![faction win rates](faction_win_rates.png)", "",
        "## Ratings (OpenSkill, Plackett-Luce)", "",
        "| agent | mu | sigma | ordinal |", "|---|---|---|---|",
        *[f"| {name} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |"
          for name, r in ratings.items()], "",
        *sections,
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def expert_section(run: Path, cfg: TrainConfig, seconds: float) -> list[str]:
    """The report's lines on the expert-iteration run in ``run`` (folder name relative
    to the report: ``expert``): each faction's distilled policy at the gate, per
    iteration, next to the mirror on the same seeds."""
    baseline = json.loads((run / "baseline.json").read_text())
    searchers = "the two seats of one faction search against two heuristics"
    start = {"reference": "the shipped `learned:default`",
             "scratch": "a new network"}.get(cfg.init, f"`{cfg.init}`")
    lines = [
        "## Expert iteration (a short run)", "",
        f"`{run.name}/`: {cfg.iterations} iterations of {cfg.games_per_iteration} games in "
        f"{seconds / 60:.1f} min (configuration: `{run.name}/config.json`). In each game "
        f"{searchers} (`{cfg.search}`), and every decision of a searching seat is a "
        "row: the search's choice is the policy's target, the game's outcome the value "
        f"head's. One policy-value network per faction, started from {start}, is "
        "trained on the rows. "
        f"The *gate* plays it without search (one forward pass a decision) on "
        f"{cfg.eval_games} seeds, seat-swapped, against two heuristics, next to the "
        "mirror on the same seeds, and keeps it if it is not worse than the best so "
        "far. A run this short shows the loop working, not a stronger player: the "
        "shipped networks and their measured strength are in `docs/agents.md`.", "",
        "| iteration | faction | rows (searched) | distilled vs heuristic [95% CI] "
        "| mirror [95% CI] | kept |", "|---|---|---|---|---|---|",
    ]
    for f, name in enumerate(FACTIONS):
        start, mirror = (_interval(r["rate"], r["low"], r["high"])
                         for r in (baseline[str(f)]["start"], baseline[str(f)]["mirror"]))
        lines.append(f"| start | {name} | | {start} | {mirror} | |")
    for row in read_progress(run / "progress.csv"):
        for name in FACTIONS:
            win, mirror = (_interval(*(float(row[f"{name}_{k}{s}"]) for s in ("", "_low", "_high")))
                           for k in ("win", "mirror"))
            lines.append(f"| {row['iteration']} | {name} | {row[f'{name}_samples']} "
                         f"({row[f'{name}_searched']}) | {win} | {mirror} "
                         f"| {'yes' if row[f'{name}_accepted'] == '1' else 'no'} |")
    return lines + ["", f"![expert iteration]({run.name}/learning_curve.png)", ""]


def expert_demo_config(path: str | Path | None = None,
                       ruleset: str | None = None) -> TrainConfig:
    """The short expert run's config (default ``training/configs/expert_demo.toml``); a
    TrainConfigError if ``path`` is not an expert-iteration config."""
    path = path or EXPERT_DEMO_CONFIG
    cfg = load_config(path, ruleset=ruleset)
    if cfg.kind != "expert":
        raise TrainConfigError(f"{path}: not an expert-iteration config "
                               f"(it needs algorithm = \"expert\")")
    return cfg


def demo_config(path: str | Path | None = None, ruleset: str | None = None,
                log: Callable[[str], None] = print) -> TrainConfig:
    """The self-play config of the demo (default ``training/configs/demo.toml``); a
    TrainConfigError if ``path`` is not a self-play config. A config on the native
    engine falls back to the Python engine (the same games, slower), saying why, where
    the compiled module is missing."""
    path = path or DEMO_CONFIG
    try:
        require()
    except NativeUnavailable as exc:
        if read_toml(path).get("engine") == "native":
            log(f"{exc}. The demo trains on the Python engine instead (the same games, "
                f"slower).")
            return _selfplay_config(path, ruleset=ruleset, engine="python")
    return _selfplay_config(path, ruleset=ruleset)


def _selfplay_config(path: str | Path, **overrides) -> TrainConfig:
    """The config of ``path``; a TrainConfigError unless it is a batched self-play one."""
    cfg = load_config(path, **overrides)
    if cfg.kind != "selfplay":
        raise TrainConfigError(f"{path}: not a self-play config (the demo trains "
                               f"backend = \"native\", algorithm = \"selfplay\")")
    return cfg


def evaluate_pair(run: Path, games: int, cfg: TrainConfig,
                  log: Callable[[str], None] = print) -> tuple[dict, dict]:
    """The actors of ``run`` in every matchup, on the same ``games`` seeds
    (seat-swapped): the summaries by matchup name, and the OpenSkill ratings."""
    british = LearnedAgent.load(run / "british.npz", name="learned British")
    malay = LearnedAgent.load(run / "malay.npz", name="learned Malay")
    results, summaries = [], {}
    rules = RulesConfig.named(cfg.ruleset)
    for name, agents in matchups(british, malay).items():
        result = run_matchup(agents, games, cfg.seed * 100, rules, swap=True)
        results.append(result)
        summaries[name] = result.summary()
        b = summaries[name]["win_rate_by_faction"]["british"]["rate"]
        log(f"  {name}: British {_pct(b)}, Malay {_pct(1 - b)}")
    return summaries, openskill_ratings([x for r in results for x in r.records])


def run_demo(out: str | Path, config_path: str | Path | None = None, games: int = 30,
             progress: bool = True, log: Callable[[str], None] = print,
             ruleset: str | None = None, expert_config: str | Path | None = None,
             expert: bool = True, seconds: float = 60.0) -> Path:
    """Train a short self-play run (``seconds`` of PPO after the warm start; run again
    on the same ``out`` to train that much longer) and write the evaluation report
    (``ruleset`` overrides the training config's); with ``expert``, a short
    expert-iteration run (``expert_config``, default ``training/configs/expert_demo.toml``)
    joins the report."""
    out = Path(out)
    cfg = demo_config(config_path, ruleset, log)
    expert_cfg = expert_demo_config(expert_config, ruleset) if expert else None
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    counters = train(cfg, out / "train", seconds=seconds, progress=progress, log=log)
    training = training_section(out / "train", cfg, counters, time.time() - t0)

    log("evaluating...")
    t1 = time.time()
    summaries, ratings = evaluate_pair(out / "train", games, cfg, log)
    eval_seconds = time.time() - t1
    write_json({"matchups": summaries, "ratings": ratings, "training": counters,
                "eval_seconds": eval_seconds}, out / "evaluation.json")
    plot_faction_win_rates(summaries, out / "faction_win_rates.png")
    sections = []
    if expert_cfg:
        log("expert iteration...")
        t2 = time.time()
        train_expert(expert_cfg, out / "expert", log=log, progress=progress)
        sections = expert_section(out / "expert", expert_cfg, time.time() - t2)
    return write_report(out, summaries, ratings, eval_seconds, sections, training)
