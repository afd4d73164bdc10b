"""The demo: a short self-play run, then an evaluation report (markdown + PNGs).

``run_demo(out)`` writes into ``out``:
- ``train/`` — checkpoints, ``progress.csv`` (the learning curve), ``config.json``;
- ``evaluation.json`` — every matchup's win rates with 95 % intervals, and ratings;
- ``learning_curves.png``, ``faction_win_rates.png``;
- ``report.md`` — the above as a readable page.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Callable

from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent
from agents.random_agent import RandomAgent

from .config import TrainConfig
from .evaluate import (openskill_ratings, plot_faction_win_rates, plot_learning_curves,
                       run_matchup, write_json)
from .selfplay import train

DEMO_CONFIG = Path(__file__).parent / "configs" / "demo.toml"
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


def _row(name: str, summary: dict) -> str:
    b = summary["win_rate_by_faction"]["british"]
    m = summary["win_rate_by_faction"]["malay"]
    return (f"| {name} | {summary['games']} | {_pct(b['rate'])} "
            f"[{_pct(b['ci95'][0])}, {_pct(b['ci95'][1])}] | {_pct(m['rate'])} "
            f"[{_pct(m['ci95'][0])}, {_pct(m['ci95'][1])}] |")


def write_report(out: Path, cfg: TrainConfig, summaries: dict, ratings: dict,
                 train_seconds: float, eval_seconds: float) -> Path:
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
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def run_demo(out: str | Path, config_path: str | Path | None = None, games: int = 50,
             progress: bool = True, log: Callable[[str], None] = print,
             ruleset: str | None = None) -> Path:
    """Train (or resume) a short self-play run and write the evaluation report
    (``ruleset`` overrides the training config's)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = TrainConfig.load(config_path or DEMO_CONFIG, ruleset=ruleset)
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
    return write_report(out, cfg, summaries, ratings, train_seconds, eval_seconds)
