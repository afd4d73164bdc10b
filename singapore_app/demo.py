"""The demo: the first minutes of the learned:zero recipe (batched self-play from random
weights), then an evaluation report (markdown + PNGs).

``run_demo(out)`` writes into ``out``:
- ``train/`` — the self-play run (``training/configs/demo.toml``, :mod:`training.loop.trainer`):
  ``checkpoint.pt``, ``config.json``, the actors ``british.npz`` / ``malay.npz``,
  ``progress.csv`` and ``learning_curve.png`` (win rates over learned decisions);
- ``evaluation.json`` — every matchup's win rates with 95 % intervals, ratings, and
  ``against_the_mirror``: the run's networks and the shipped ``learned:zero``
  and ``learned:zero-policy`` on each faction against two heuristics,
  next to the mirror on the same seeds (:func:`against_the_mirror`);
- ``faction_win_rates.png``; ``curves.png`` — the run's curve beside the shipped
  ``learned:zero``'s (``agents/policies/zero/progress.csv``);
- ``report.md`` — the above as a readable page.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from agents.learned import POLICY_DIR, LearnedAgent
from agents.random_agent import RandomAgent
from agents.registry import make_agent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from singapore_env.native import NativeUnavailable, require

from arena.evaluate import MatchupResult, mirror_difference, run_matchup, write_json
from arena.summary import faction_wins, openskill_ratings, rate, wilson_interval
from training.config import CONFIG_DIR, TrainConfig, TrainConfigError, load_config, read_toml
from training.loop.trainer import train
from training.progress import read_progress

from .cli_options import points
from .plots import plot_curves, plot_faction_win_rates

DEMO_CONFIG = CONFIG_DIR / "demo.toml"
MIRROR_MATCHUP = "heuristic vs heuristic (mirror baseline)"
#: The shipped learned players (:mod:`agents.reference`) the report plays against the
#: heuristic next to the run's networks: the one learned from zero, looking ahead and
#: its policy alone.
SHIPPED_PLAYERS = ("learned:zero", "learned:zero-policy")
#: The shipped ``learned:zero``'s own curve (:func:`shipped_curve_section`).
SHIPPED_ZERO_PROGRESS = POLICY_DIR / "zero" / "progress.csv"
#: The run's networks' name in the matchups (``learned British``, ``learned Malay``).
RUN_PLAYER = "learned"


def against_heuristic(player: str, faction: str) -> str:
    """The name of the matchup of ``player`` on ``faction``'s two seats against two
    heuristics."""
    return (f"{player} British vs heuristic" if faction == "british"
            else f"heuristic vs {player} Malay")


def _seats(player: Agent, faction: str, opponent: Agent) -> list[Agent]:
    """``player`` on ``faction``'s seats, ``opponent`` on the others'."""
    return [player if SEAT_FACTION[p] == FACTIONS.index(faction) else opponent
            for p in range(4)]


def matchups(british: LearnedAgent, malay: LearnedAgent,
             shipped: Sequence[Agent] = ()) -> dict[str, list]:
    """Name -> agents by seat (LG, Resident, Temenggong, Sultan); each of ``shipped``
    plays each faction against two heuristics."""
    r, h = RandomAgent(), HeuristicAgent()
    return {
        "learned British vs random": [british, british, r, r],
        "random vs learned Malay": [r, r, malay, malay],
        against_heuristic(RUN_PLAYER, "british"): _seats(british, "british", h),
        against_heuristic(RUN_PLAYER, "malay"): _seats(malay, "malay", h),
        "learned British vs learned Malay": [british, british, malay, malay],
        **{against_heuristic(player.name, faction): _seats(player, faction, h)
           for player in shipped for faction in FACTIONS},
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
    games = 2 * cfg.eval_games  # an evaluation's games of a faction against an opponent
    return [
        "## Training", "",
        f"Batched self-play PPO (`training/loop/trainer.py`, `docs/selfplay.md`) in "
        f"{seconds / 60:.1f} min: one network per faction reads the observation alone "
        f"(no heuristic input). {start} British and the Malay policy learn at once, "
        f"{_search(cfg, counters['decisions'])}"
        f"against each other and a pool of their past selves, on {cfg.num_games} games "
        f"in lockstep ({cfg.engine} engine, seed {cfg.seed}): "
        f"{counters['decisions']:,} learned decisions in {counters['wall_s']:.0f} s "
        f"({rate:,.0f} a second). Configuration: `{run.name}/config.json`; the actors "
        f"play as `learned:{run.name}/british.npz` and `learned:{run.name}/malay.npz`.", "",
        f"Each evaluation during training plays {cfg.eval_games} seeds, seat-swapped, of "
        "each learned faction (its most likely legal action) on both its seats against "
        "two random and two heuristic players; the heuristic mirror scores "
        f"{_pct(float(rows[-1]['mirror_british']))} British and "
        f"{_pct(float(rows[-1]['mirror_malay']))} Malay on the same seeds "
        f"(95% Wilson intervals over the {games} games of each rate).", "",
        curve_verdict(rows), "",
        "| learned decisions | training s | British vs random | British vs heuristic "
        "| Malay vs random | Malay vs heuristic |", "|---|---|---|---|---|---|",
        *[f"| {int(r['decisions']):,} | {float(r['wall_s']):.0f} | "
          + " | ".join(_rate_interval(float(r[f"{f}_vs_{o}"]), games) for f in FACTIONS
                       for o in ("random", "heuristic")) + " |" for r in rows], "",
        f"![learning curve]({run.name}/learning_curve.png)", "",
    ]


def _rate_interval(rate: float, games: int) -> str:
    """A rate over ``games`` games with its 95 % Wilson interval."""
    return _interval(rate, *wilson_interval(rate * games, games))


def random_mean(row: dict) -> float:
    """The two factions' mean win rate against random players in a progress row."""
    return (float(row["british_vs_random"]) + float(row["malay_vs_random"])) / 2


def curve_verdict(rows: list[dict]) -> str:
    """The report's sentence on the run's curve against random players: where it starts
    and ends (the two factions' mean, and each faction)."""
    first, last = rows[0], rows[-1]
    change = random_mean(last) - random_mean(first)
    word = "rose" if change > 0 else "did not rise"
    each = ", ".join(f"{f.capitalize()} {_pct(float(first[f'{f}_vs_random']))} → "
                     f"{_pct(float(last[f'{f}_vs_random']))}" for f in FACTIONS)
    return (f"Against random players the curve {word}: the two factions' mean "
            f"{_pct(random_mean(first))} at {int(first['decisions']):,} learned decisions, "
            f"{_pct(random_mean(last))} at {int(last['decisions']):,} ({each}).")


def shipped_curve_section(path: Path = SHIPPED_ZERO_PROGRESS) -> list[str]:
    """The report's table of the shipped ``learned:zero``'s own curve over its hours
    (``agents/policies/zero/progress.csv``), beside which the run's first minutes stand."""
    rows = read_progress(path)
    if not rows:
        return []
    return [
        "## The shipped `learned:zero`'s curve over its hours", "",
        "The same recipe (`training/configs/zero.toml`, 2.9 hours, then "
        "`zero_continue.toml` from its networks, 1.8 hours, `zero_anneal.toml`, 45 "
        "minutes, and `zero_league.toml`, with the search among its opponents, 70 "
        "minutes) made the shipped `learned:zero`; its evaluations on the trainer's 10 "
        "seeds, seat-swapped (mirror "
        "30 % British / 70 % Malay on them), from `agents/policies/zero/progress.csv` "
        "(its first rows reconstructed from the table in `docs/training.md`: that run's own "
        "file was not kept). This run's minutes lie between its first two rows; the search "
        "in the loop starts at 9.45M decisions.", "",
        "| learned decisions | hours | British vs random | British vs heuristic "
        "| Malay vs random | Malay vs heuristic |", "|---|---|---|---|---|---|",
        *[f"| {int(r['decisions']):,} | {float(r['wall_s']) / 3600:.2f} | "
          + " | ".join(_pct(float(r[f"{f}_vs_{o}"])) for f in FACTIONS
                       for o in ("random", "heuristic")) + " |" for r in rows], "",
        "![this run's curve beside the shipped learned:zero's](curves.png)", "",
    ]


def _search(cfg: TrainConfig, decisions: int) -> str:
    """The training paragraph's words on the search in the loop (none without it; where
    it starts past the run's ``decisions``, when it would)."""
    if not cfg.search_worlds:
        return ""
    if cfg.search_after > decisions:
        return (f"by PPO alone (the search in the loop starts at {cfg.search_after:,} "
                f"learned decisions, `search_after`, past this run's end), ")
    return (f"the main Action question's moves chosen by the lookahead over their own "
            f"networks ({cfg.search_worlds} sampled world{'s' * (cfg.search_worlds > 1)} "
            f"an answer, `training/loop/search.py`) and learned as its improved policy, ")


def write_report(out: Path, summaries: dict, ratings: dict, eval_seconds: float,
                 training: list[str] = ()) -> Path:
    """``report.md`` of the demo in ``out``: ``training`` (markdown lines: the run and
    its players next to the mirror) first, then the evaluation."""
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
    ]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


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
            return _selfplay_config(path, ruleset=ruleset, engine="python",
                                    search_worlds=0, target_temperature=0.0, search_after=0)
    return _selfplay_config(path, ruleset=ruleset)


def _selfplay_config(path: str | Path, **overrides) -> TrainConfig:
    """The config of ``path``; a TrainConfigError unless it is a batched self-play one."""
    cfg = load_config(path, **overrides)
    if cfg.kind != "selfplay":
        raise TrainConfigError(f"{path}: not a self-play config (the demo trains "
                               f"backend = \"selfplay\")")
    return cfg


def evaluate_pair(run: Path, games: int, cfg: TrainConfig,
                  log: Callable[[str], None] = print) -> dict[str, MatchupResult]:
    """The actors of ``run`` and the :data:`SHIPPED_PLAYERS` in every matchup, on the
    same ``games`` seeds (seat-swapped), each on the arena's default engine (native
    where the module is built): the results by matchup name."""
    british = LearnedAgent.load(run / "british.npz", name=f"{RUN_PLAYER} British")
    malay = LearnedAgent.load(run / "malay.npz", name=f"{RUN_PLAYER} Malay")
    shipped = [make_agent(spec) for spec in SHIPPED_PLAYERS]
    results = {}
    rules = RulesConfig.named(cfg.ruleset)
    for name, agents in matchups(british, malay, shipped).items():
        results[name] = run_matchup(agents, games, cfg.seed * 100, rules, swap=True)
        b = results[name].summary()["win_rate_by_faction"]["british"]["rate"]
        log(f"  {name}: British {_pct(b)}, Malay {_pct(1 - b)}")
    return results


def against_the_mirror(results: dict[str, MatchupResult],
                       players: Sequence[str] = (RUN_PLAYER, *SHIPPED_PLAYERS)) -> dict:
    """``{faction: {"mirror": rate, player: rate and "minus_mirror"}}`` from the
    matchups of :func:`evaluate_pair`: the mirror's win rate of each faction, and each
    of ``players`` on that faction's seats against two heuristics, its win rate and its
    difference from the mirror, paired by seed
    (:func:`arena.evaluate.mirror_difference`; rates as in the summaries)."""
    mirror = results[MIRROR_MATCHUP].records
    out: dict = {}
    for faction in FACTIONS:
        for player in players:
            records = results[against_heuristic(player, faction)].records
            paired = mirror_difference(records, mirror)
            out.setdefault(faction, {"mirror": paired["mirror"][faction]})[player] = {
                **rate(records, lambda r, f=faction: faction_wins(r, f)),
                "minus_mirror": paired["minus_mirror"][faction]}
    return out


def mirror_section(comparison: dict, summaries: dict, run: Path,
                   training_seconds: float) -> list[str]:
    """The report's table of :func:`against_the_mirror` (``comparison``; ``summaries``:
    the matchups' summaries by name): the run's networks (folder name relative to the
    report: ``train``) and the shipped players against the heuristic, next to the
    mirror on the same seeds."""
    games = summaries[MIRROR_MATCHUP]["games"]
    engines = " and ".join(sorted({s["engine"] for s in summaries.values()}))
    names = {RUN_PLAYER: "this run's network (`learned:{run}/{faction}.npz`)",
             **{p: f"`{p}` (shipped)" for p in SHIPPED_PLAYERS}}
    lines = [
        "## Learned players against the heuristic, next to the mirror", "",
        f"Each learned player on its faction's two seats against two heuristics, on the "
        f"same {games // 2} seeds (seat-swapped, {engines} engine) as the mirror; its "
        "difference from the mirror is paired by seed (points, a t interval over the "
        "seeds). `learned:zero` learned by self-play from random weights, nothing "
        "hand-written beyond the rules, and looks ahead with its own value heads on the "
        "main Action question; `learned:zero-policy` is the same networks without the "
        "lookahead (one forward pass a decision; `docs/agents.md`). The shipped players were "
        "trained for hours (`docs/training.md`); this run's network "
        f"had {training_seconds / 60:.1f} min.", "",
        "| faction | player | wins against the heuristic [95% CI] "
        "| minus the mirror, paired by seed [95% CI] |", "|---|---|---|---|",
    ]
    for faction, rows in comparison.items():
        m = rows["mirror"]
        lines.append(f"| {faction.capitalize()} | mirror (the heuristic) "
                     f"| {_interval(m['rate'], *m['ci95'])} | |")
        for player, name in names.items():
            r, d = rows[player], rows[player]["minus_mirror"]
            lines.append(f"| {faction.capitalize()} | "
                         f"{name.format(run=run.name, faction=faction)} "
                         f"| {_interval(r['rate'], *r['ci95'])} "
                         f"| {points(d['difference'], d['ci95'])} |")
    return lines + [""]


def run_demo(out: str | Path, config_path: str | Path | None = None, games: int = 30,
             progress: bool = True, log: Callable[[str], None] = print,
             ruleset: str | None = None, seconds: float = 120.0) -> Path:
    """Train a short self-play run (``seconds`` of training; run again on the same
    ``out`` to train that much longer) and write the evaluation report (``ruleset``
    overrides the training config's)."""
    out = Path(out)
    cfg = demo_config(config_path, ruleset, log)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    counters = train(cfg, out / "train", seconds=seconds, progress=progress, log=log)
    training_seconds = time.time() - t0
    training = training_section(out / "train", cfg, counters, training_seconds)
    if read_progress(SHIPPED_ZERO_PROGRESS):
        plot_curves(read_progress(out / "train" / "progress.csv"),
                    read_progress(SHIPPED_ZERO_PROGRESS), out / "curves.png")
        training += shipped_curve_section()

    log("evaluating...")
    t1 = time.time()
    results = evaluate_pair(out / "train", games, cfg, log)
    eval_seconds = time.time() - t1
    summaries = {name: result.summary() for name, result in results.items()}
    ratings = openskill_ratings([x for r in results.values() for x in r.records])
    comparison = against_the_mirror(results)
    write_json({"matchups": summaries, "ratings": ratings, "training": counters,
                "against_the_mirror": comparison, "eval_seconds": eval_seconds},
               out / "evaluation.json")
    plot_faction_win_rates(summaries, out / "faction_win_rates.png")
    training += mirror_section(comparison, summaries, out / "train", training_seconds)
    return write_report(out, summaries, ratings, eval_seconds, training)
