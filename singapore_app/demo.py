"""The demo: a short self-play run, then an evaluation report (markdown + PNGs).

``run_demo(out)`` writes into ``out``:
- ``train/`` — checkpoints, ``progress.csv`` (the learning curve), ``config.json``;
- ``evaluation.json`` — every matchup's win rates with 95 % intervals, and ratings;
- ``learning_curves.png``, ``faction_win_rates.png``;
- ``expert/`` — a short expert-iteration run (``training/configs/expert_demo.toml``): its
  checkpoints, ``progress.csv`` and ``learning_curve.png``;
- ``report.md`` — the above as a readable page.
"""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Callable

from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent
from agents.random_agent import RandomAgent
from singapore_env.engine.content import FACTIONS

from arena.evaluate import run_matchup, write_json
from arena.summary import openskill_ratings
from training.config import CONFIG_DIR, TrainConfig, TrainConfigError, load_config
from training.expert import train as train_expert
from training.expert_config import ExpertConfig
from training.progress import read_progress
from training.selfplay import train

from .plots import plot_faction_win_rates, plot_learning_curves

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
    return (f"| {name} | {summary['games']} | {_pct(b['rate'])} "
            f"[{_pct(b['ci95'][0])}, {_pct(b['ci95'][1])}] | {_pct(m['rate'])} "
            f"[{_pct(m['ci95'][0])}, {_pct(m['ci95'][1])}] |")


def write_report(out: Path, cfg: TrainConfig, summaries: dict, ratings: dict,
                 train_seconds: float, eval_seconds: float,
                 sections: list[str] = ()) -> Path:
    """``report.md`` of the demo in ``out``; ``sections`` (markdown lines) are appended."""
    with open(out / "train" / "progress.csv", newline="") as fh:
        progress = list(csv.DictReader(fh))
    lines = [
        "# 1819 Singapore — self-play demo report", "",
        f"Training: {cfg.phases} phases × {cfg.timesteps_per_phase} learner steps "
        f"(MaskablePPO, {cfg.n_envs} envs, seed {cfg.seed}) in {train_seconds / 60:.1f} min; "
        f"evaluation in {eval_seconds / 60:.1f} min. Configuration: `train/config.json`.", "",
        "## Faction win rates", "",
        "Each matchup plays the same seeds, every seed twice, the two seats of each "
        "faction exchanged. "
        "A faction wins a game when one of its seats has the most VP (ties split). "
        "Random play gives each faction about 50 %. The *mirror baseline* is what the "
        "heuristic itself scores in the same seats: a learned faction that plays as well "
        "as the heuristic wins about as often against it as the mirror row's faction "
        "(about 32 % British, 68 % Malay).", "",
        "| matchup (British vs Malay) | games | British wins [95% CI] | Malay wins [95% CI] |",
        "|---|---|---|---|",
        *[_row(name, s) for name, s in summaries.items()], "",
        "![faction win rates](faction_win_rates.png)", "",
        "## Learning curves", "",
        "Win rate of each learned faction after each of its phases (both of its seats "
        "played by the policy) against random and heuristic opponents.", "",
        "| phase | faction | own steps | vs random | vs heuristic |", "|---|---|---|---|---|",
        *[f"| {r['phase']} | {r['faction']} | {r['faction_timesteps']} | "
          f"{_pct(float(r['win_vs_random']))} | {_pct(float(r['win_vs_heuristic']))} |"
          for r in progress], "",
        "![learning curves](learning_curves.png)", "",
        "## Ratings (OpenSkill, Plackett-Luce)", "",
        "| agent | mu | sigma | ordinal |", "|---|---|---|---|",
        *[f"| {name} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |"
          for name, r in ratings.items()], "",
        *sections,
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def expert_section(run: Path, cfg: ExpertConfig, seconds: float) -> list[str]:
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
                       ruleset: str | None = None) -> ExpertConfig:
    """The short expert run's config (default ``training/configs/expert_demo.toml``); a
    TrainConfigError if ``path`` is not an expert-iteration config."""
    path = path or EXPERT_DEMO_CONFIG
    cfg = load_config(path, ruleset=ruleset)
    if not isinstance(cfg, ExpertConfig):
        raise TrainConfigError(f"{path}: not an expert-iteration config "
                               f"(it needs algorithm = \"expert\")")
    return cfg


def run_demo(out: str | Path, config_path: str | Path | None = None, games: int = 50,
             progress: bool = True, log: Callable[[str], None] = print,
             ruleset: str | None = None, expert_config: str | Path | None = None,
             expert: bool = True) -> Path:
    """Train (or resume) a short self-play run and write the evaluation report
    (``ruleset`` overrides the training config's); with ``expert``, a short
    expert-iteration run (``expert_config``, default ``training/configs/expert_demo.toml``)
    joins the report."""
    out = Path(out)
    cfg = TrainConfig.load(config_path or DEMO_CONFIG, ruleset=ruleset)
    expert_cfg = expert_demo_config(expert_config, ruleset) if expert else None
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    train(cfg, out / "train", progress=progress, log=log)
    train_seconds = time.time() - t0

    log("evaluating...")
    t1 = time.time()
    british = LearnedAgent.load(out / "train" / "british.npz", name="learned British")
    malay = LearnedAgent.load(out / "train" / "malay.npz", name="learned Malay")
    results, summaries = [], {}
    for name, agents in matchups(british, malay).items():  # the same seeds for all
        result = run_matchup(agents, games, cfg.seed * 100, cfg.rules(), swap=True,
                             content=cfg.content())
        results.append(result)
        summaries[name] = result.summary()
        b = summaries[name]["win_rate_by_faction"]["british"]["rate"]
        log(f"  {name}: British {_pct(b)}, Malay {_pct(1 - b)}")
    ratings = openskill_ratings([x for r in results for x in r.records])
    eval_seconds = time.time() - t1
    write_json({"matchups": summaries, "ratings": ratings,
                "train_seconds": train_seconds, "eval_seconds": eval_seconds},
               out / "evaluation.json")
    plot_learning_curves(out / "train" / "progress.csv", out / "learning_curves.png")
    plot_faction_win_rates(summaries, out / "faction_win_rates.png")
    sections = []
    if expert_cfg:
        log("expert iteration...")
        t2 = time.time()
        train_expert(expert_cfg, out / "expert", log=log, progress=progress)
        sections = expert_section(out / "expert", expert_cfg, time.time() - t2)
    return write_report(out, cfg, summaries, ratings, train_seconds, eval_seconds, sections)
