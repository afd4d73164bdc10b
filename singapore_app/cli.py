"""The ``singapore-1819`` command line.

    singapore-1819 simulate --players random,random,random,random --games 1000 --seed 1
    singapore-1819 simulate --games 1 --save game.json
    singapore-1819 replay game.json
    singapore-1819 balance --games 200 --set conflict_vp_full_strength=false --workers 2

    singapore-1819 play --seat sultan --opponents heuristic
    singapore-1819 train --config training/configs/demo.toml --out runs/train
    singapore-1819 evaluate --british learned:runs/train/british.npz --malay heuristic
    singapore-1819 ladder --agents random,heuristic,mcts:iters=24 --games 20 --plot l.png
    singapore-1819 demo --out runs/demo
    singapore-1819 serve --port 8819 --games-dir games

``train``, ``evaluate`` and ``demo`` import the ``training`` package (and torch) only
when they run, so the engine and the environment never import torch. The options
shared by the commands that play games live in :mod:`singapore_app.cli_options`.
"""

from __future__ import annotations

import json
import os
import sys
from importlib import metadata

import click

from .cli_options import (OUTPUT_DIR, OUTPUT_FILE, RECORDS_HELP, check_specs, ci_text,
                          format_summary, parse_players, pct, rules_config, rules_options,
                          variant_config, variant_options, write_records_file,
                          write_summary_json)
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_NAMES, ContentError, resolve_content


def _version() -> str:
    try:
        return metadata.version("singapore-1819")
    except metadata.PackageNotFoundError:  # pragma: no cover (not installed)
        return "unknown"


#: The extra that installs an optional package (the rest come with [train]).
EXTRA_OF = {"ray": "ray", "pandas": "lab", "pyarrow": "lab", "statsmodels": "lab",
            "starlette": "web", "uvicorn": "web", "httpx": "web", "selenium": "web",
            "pyspiel": "openspiel", "open_spiel": "openspiel"}


def missing_package(exc: ModuleNotFoundError, extra: str | None = None) -> click.UsageError:
    """The usage error (exit code 2) of a missing optional package: which one, and the
    extra that installs it (``extra``, or the one :data:`EXTRA_OF` names)."""
    package = (exc.name or "?").split(".")[0]
    extra = extra or EXTRA_OF.get(package, "train")
    return click.UsageError(
        f"this command needs the optional package {package!r}, which is not "
        f"installed: pip install 'singapore-1819[{extra}]' (or [env] for the "
        f"environment alone)")


class _Commands(click.Group):
    """The command group: a missing optional dependency or an unreachable Ray cluster is
    a clear usage error."""

    def invoke(self, ctx):
        from arena.runner import RayUnavailable

        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as exc:
            raise missing_package(exc) from None
        except RayUnavailable as exc:
            raise click.BadParameter(str(exc), param_hint="'--ray'") from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", prog_name="singapore-1819")
def main() -> None:
    """1819 Singapore: rules engine, simulations and replays."""


# ---------------------------------------------------------------- simulate
@main.command()
@click.option("--players", default="random,random,random,random", show_default=True,
              callback=parse_players,
              help="Four comma-separated agents, in seat order: a name with parameters "
                   "after colons (mcts:iters=200:topk=3), learned:PATH, path/to/bot.py:Class "
                   "or package.module:Class.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of games (seeds).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Base seed; per-game seeds derive from it.")
@click.option("--swap/--no-swap", default=False, show_default=True,
              help="Play every seed again with each faction's two seats exchanged.")
@rules_options
@variant_options
@click.option("--json", "json_path", type=OUTPUT_FILE,
              help="Write the summary as JSON to this file.")
@click.option("--records", "records_path", type=OUTPUT_FILE, help=RECORDS_HELP)
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Save the first game (snapshot + log) as JSON for `replay`.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Show a progress bar (only on a terminal).")
def simulate(players: list[str], games: int, seed: int, swap: bool, ruleset: str,
             no_slavery: bool, settings: dict, data_dir: str | None, workers: int,
             ray_address: str | None, json_path: str | None, records_path: str | None,
             save_path: str | None, progress: bool) -> None:
    """Play GAMES games between agents and print win rates with 95% intervals."""
    import time

    from arena.runner import Table, config_changes, play_tables
    from arena.summary import summarize

    cfg, data = variant_config(ruleset, no_slavery, settings, data_dir)
    start = time.perf_counter()
    records = play_tables([Table(tuple(players), cfg, data)], games, seed, swap=swap,
                          workers=workers, ray_address=ray_address, progress=progress,
                          desc="simulating")
    summary = summarize(records, seconds=time.perf_counter() - start, seed=seed, seeds=games,
                        swap=swap, ruleset=cfg.ruleset, slavery=cfg.slavery,
                        changes=config_changes(cfg), data=data)
    click.echo(format_summary(summary))
    try:
        if json_path:
            write_summary_json(summary, json_path)
        if records_path:
            write_records_file(records, records_path)
        if save_path:
            game = _first_game(players, cfg, data, seed, games)
            with open(save_path, "w", encoding="utf-8") as fh:
                fh.write(game.to_json())
            click.echo(f"first game (seed {game.seed}) saved to {save_path}")
    except OSError as exc:
        raise click.ClickException(f"cannot write: {exc}") from None


def _first_game(players: list[str], cfg: RulesConfig, data, seed: int, games: int):
    """Game 0 of a run again, with its text log, to save it."""
    from agents.registry import make_agent

    from arena.simulate import game_seeds, play_game

    engine_seed, *agent_seeds = game_seeds(seed, games)[0]
    return play_game(engine_seed, [make_agent(p) for p in players], cfg, content=data,
                     agent_seeds=agent_seeds, keep_text_log=True, keep_game=True).game


# ---------------------------------------------------------------- balance
def _parse_mixes(ctx, param, values) -> dict:
    """``NAME=A,B,C,D`` or ``A,B,C,D`` (named by its agents). A name is the text before
    the first ``=`` when that text holds no ``:`` nor ``,`` (so ``heuristic:seed=3,...``
    is not a name)."""
    mixes = {}
    for value in values:
        name, sep, specs = value.partition("=")
        if not sep or ":" in name or "," in name:
            name, specs = "", value
        players = parse_players(ctx, param, specs)
        mixes[name or ",".join(players)] = tuple(players)
    return mixes


@main.command()
@click.argument("study_file", required=False, type=click.Path(dir_okay=False))
@click.option("--players", "mixes", multiple=True, callback=_parse_mixes,
              metavar="[NAME=]A,B,C,D",
              help="An agent mix (four agents in seat order, optionally named); repeatable. "
                   "Default: four heuristic players.")
@click.option("--games", type=click.IntRange(min=1),
              help="Seeds per cell (each played twice unless --no-swap)  [default: 100]")
@click.option("--seed", type=click.IntRange(min=0), help="Base seed  [default: 1]")
@click.option("--swap/--no-swap", default=None,
              help="Play every seed again with each faction's two seats exchanged "
                   "[default: swap].")
@rules_options
@variant_options
@click.option("--out", default="runs/balance", show_default=True,
              type=OUTPUT_DIR,
              help="Folder for summary.json, the records, report.md and its figures.")
@click.option("--format", "records_format", type=click.Choice(["parquet", "csv"]),
              default="parquet", show_default=True, help="Format of the per-game records.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def balance(study_file, mixes, games, seed, swap, ruleset, no_slavery, settings, data_dir,
            workers, ray_address, out, records_format, progress) -> None:
    """A balance study: agent mixes x rule variants x card data, seat-swapped games,
    win rates with 95% intervals, VP by source, ratings and a report.

    Without STUDY_FILE the study compares the ruleset (the baseline) with the same
    ruleset changed by --set and --data, if given. STUDY_FILE (TOML, see
    docs/balance.md) describes mixes and variants itself; --games, --seed and --swap
    override its values."""
    import time

    from .balance_report import write_report
    from .study import DEFAULT_MIXES, Study, StudyError, Variant, summarize_study

    if study_file:
        ruleset_given = (click.get_current_context().get_parameter_source("ruleset")
                         is not click.core.ParameterSource.DEFAULT)
        if mixes or settings or data_dir or ruleset_given or no_slavery:
            raise click.UsageError("give either a study file or --players/--ruleset/--set/"
                                   "--data, not both")
        try:
            study = Study.from_toml(study_file)
        except StudyError as exc:
            raise click.BadParameter(str(exc), param_hint="'STUDY_FILE'") from None
    else:
        variant_config(ruleset, no_slavery, settings, data_dir)  # a usage error if bad
        base = {"slavery": not no_slavery}
        variants = [Variant(ruleset, ruleset, base)]
        if settings or data_dir:
            name = ", ".join([f"{k}={v}" for k, v in settings.items()]
                             + ([f"data={data_dir}"] if data_dir else []))
            variants.append(Variant(name, ruleset, {**base, **settings}, data_dir))
        study = Study(mixes or dict(DEFAULT_MIXES), variants)
    for key, value in (("games", games), ("seed", seed), ("swap", swap)):
        if value is not None:
            setattr(study, key, value)
    try:
        study.check()
    except StudyError as exc:
        raise click.BadParameter(str(exc), param_hint="'STUDY_FILE'") from None
    os.makedirs(out, exist_ok=True)
    start = time.perf_counter()
    records = study.run(workers=workers, ray_address=ray_address, progress=progress)
    result = summarize_study(study, records, seconds=time.perf_counter() - start)
    write_summary_json(result, os.path.join(out, "summary.json"))
    write_records_file(records, os.path.join(out, f"records.{records_format}"))
    report = write_report(result, out, command="singapore-1819 " + " ".join(sys.argv[1:]))
    for cell in result["cells"]:
        rates = cell["summary"]["win_rate_by_faction"]
        click.echo(f"  {cell['variant']} / {cell['mix']}: " + ", ".join(
            f"{f} {pct(rates[f]['rate'])} {ci_text(rates[f]['ci95'])}" for f in FACTIONS))
    for diff in result["differences"]:
        row = diff["win_rate_by_faction"][FACTIONS[0]]
        click.echo(f"  {diff['variant']} / {diff['mix']} minus baseline: british "
                   f"{100 * row['difference']:+.1f} pts {ci_text(row['ci95'])}, paired "
                   f"{ci_text(row['paired_ci95'])}")
    click.echo(f"report: {report}")


# ---------------------------------------------------------------- replay
def _fail(path: str, message: str) -> None:
    click.echo(f"error: cannot replay {path}: {message}", err=True)
    sys.exit(2)


def _saved_content(text: str, data_dir: str | None):
    """The content of ``--data`` (or the shipped one) for the saved game's slavery
    setting; ContentError if the game was saved with other cards."""
    try:
        saved = json.loads(text)
        slavery, digest = bool(saved["config"]["slavery"]), saved["content"]
    except (ValueError, KeyError, TypeError):
        return None  # a malformed save fails to load next, with its own message
    content = resolve_content(data_dir, slavery)
    if digest != content.digest:
        raise ContentError(f"the game was played with other cards (content {digest!r}, "
                           f"{'--data' if data_dir else 'the shipped data'} is "
                           f"{content.digest!r}); give --data with the folder it was "
                           f"played with")
    return content


def _comparable(game) -> dict:
    """A game's saved form without the text log (not part of the game's identity)."""
    d = game.to_dict()
    d["state"] = dict(d["state"], log_text=[])
    return d


@main.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--snapshot/--from-log", default=False, show_default=True,
              help="--from-log rebuilds the game from its seed and decision log; "
                   "--snapshot also loads the stored state and checks the log leads to it.")
@click.option("--events/--no-events", default=True, show_default=True,
              help="Also print what the engine did between decisions (text log).")
@click.option("--data", "data_dir", type=click.Path(file_okay=False),
              help="The edited data folder the game was played with (simulate --data).")
def replay(path: str, snapshot: bool, events: bool, data_dir: str | None) -> None:
    """Replay a saved game decision by decision, then show the final board."""
    from singapore_env.engine import Game, SaveFormatError
    from singapore_env.engine.describe import describe
    from singapore_env.render import render_text

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        content = _saved_content(text, data_dir)
        stored = Game.from_json(text, content) if snapshot else None
        final = Game.load_replay(text, content)
    except (SaveFormatError, ContentError) as exc:
        _fail(path, str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        _fail(path, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 -- a malformed file must not print a traceback
        _fail(path, f"malformed saved game ({type(exc).__name__}: {exc})")
    if stored is not None and _comparable(stored) != _comparable(final):
        _fail(path, "the stored snapshot does not match the state its decision log leads to")

    game = Game(final.seed, final.cfg, final.c)
    shown = 0

    def show_events() -> None:
        nonlocal shown
        if events:
            for line in game.s.log_text[shown:]:
                click.echo(f"        . {line}")
        shown = len(game.s.log_text)

    click.echo(f"Replay of {path}: seed {final.seed}, ruleset {final.cfg.ruleset} "
               f"(slavery {'on' if final.cfg.slavery else 'off'}), "
               f"{len(final.history)} decisions")
    show_events()
    for i, decision in enumerate(final.history):
        seat = game.acting_seat
        click.echo(f"#{i + 1:<5} R{game.s.round}  {SEAT_NAMES[seat]}: {describe(game, decision)}")
        game.step(decision)
        show_events()
    board = stored if stored is not None else game
    click.echo("")
    click.echo(render_text(board))
    click.echo("")
    if board.is_over:
        scores = ", ".join(f"{SEAT_NAMES[p]} {v}" for p, v in enumerate(board.final_scores))
        click.echo(f"Final scores: {scores}")
        click.echo("Winners: " + ", ".join(SEAT_NAMES[p] for p in board.winners))
    else:
        pending = board.pending
        click.echo(f"Not finished: round {board.s.round}, {len(board.history)} decisions, "
                   f"{SEAT_NAMES[pending.seat]} to decide ({pending.kind})")


# ---------------------------------------------------------------- play
@main.command()
@click.option("--seat", type=click.Choice(SEAT_NAMES), default="sultan", show_default=True,
              help="The seat you play.")
@click.option("--opponents", default="heuristic", show_default=True,
              help="One agent for the three other seats, or three comma-separated agents "
                   "(the other seats in seat order), e.g. heuristic,mcts:iters=8,random.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--load", "load_path", type=click.Path(exists=True, dir_okay=False),
              help="Resume a game saved with 'save FILE' at the prompt (its rules apply).")
@rules_options
def play(seat: str, opponents: str, seed: int, load_path: str | None, ruleset: str,
         no_slavery: bool) -> None:
    """Play one seat in the terminal against agents (type help at the prompt)."""
    from singapore_env.engine import Game, SaveFormatError
    from .play import Session, make_opponents

    me = SEAT_NAMES.index(seat)
    try:
        agents = make_opponents(opponents, me, seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--opponents'") from None
    if load_path:
        try:
            with open(load_path, encoding="utf-8") as fh:
                game = Game.from_json(fh.read())
        except (SaveFormatError, OSError, UnicodeDecodeError) as exc:
            raise click.BadParameter(str(exc)[:300], param_hint="'--load'") from None
        if game.is_over:
            raise click.BadParameter("that game is over", param_hint="'--load'")
    else:
        game = Game(seed, rules_config(ruleset, no_slavery))
    Session(game, me, agents, resumed=bool(load_path)).run()


# ---------------------------------------------------------------- training
@main.command()
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Training config (TOML); defaults for every missing key. Its key "
                   "algorithm picks the run: \"ppo\" (default) or \"expert\" (expert "
                   "iteration, docs/training.md).")
@click.option("--out", default="runs/train", show_default=True, type=OUTPUT_DIR,
              help="Output folder (a run resumes when started again on it).")
@click.option("--phases", type=click.IntRange(min=1), help="PPO: override the number of phases.")
@click.option("--timesteps", type=click.IntRange(min=1),
              help="PPO: override timesteps per phase.")
@click.option("--iterations", type=click.IntRange(min=1),
              help="Expert iteration: override the number of iterations.")
@click.option("--workers", type=click.IntRange(min=1),
              help="Expert iteration: processes generating and evaluating games (the "
                   "results do not depend on it).")
@click.option("--seed", type=click.IntRange(min=0), help="Override the seed.")
@click.option("--ruleset", type=click.Choice(RULESETS), help="Override the ruleset.")
@click.option("--progress/--no-progress", default=True, show_default=True)
@click.option("--backend", type=click.Choice(["sb3", "rllib"]), default="sb3",
              show_default=True,
              help="sb3: the config's algorithm (MaskablePPO phases, or expert iteration); "
                   "rllib: PPO on RLlib, both policies at once "
                   "(pip install 'singapore-1819[rllib]').")
@click.option("--ray", "ray_address", metavar="auto|local|ADDRESS",
              help="rllib: the Ray cluster to train on (default: a local one); expert "
                   "iteration: the Ray cluster playing the games (same games as on "
                   "processes).")
def train(config_path, out, phases, timesteps, iterations, workers, seed, ruleset,
          progress, backend, ray_address) -> None:
    """Train a British and a Malay policy: self-play MaskablePPO, expert iteration
    (search targets distilled into policy-value networks) with algorithm = "expert",
    or PPO on RLlib with --backend rllib."""
    from training.config import TrainConfig, TrainConfigError, load_config

    if backend == "rllib":
        if phases or timesteps or iterations or workers:
            raise click.UsageError("--phases, --timesteps, --iterations and --workers are "
                                   "for --backend sb3; an RLlib run is sized by its config")
        _train_rllib(config_path, out, seed, ruleset, ray_address)
        return
    try:
        if config_path and _is_expert(config_path):
            if phases or timesteps:
                raise click.UsageError("--phases and --timesteps are PPO options; an "
                                       "expert run takes --iterations")
            cfg = load_config(config_path, iterations=iterations, workers=workers,
                              seed=seed, ruleset=ruleset, ray=ray_address)
        else:
            if iterations or workers or ray_address:
                raise click.UsageError("--iterations, --workers and --ray are options of "
                                       "expert iteration (algorithm = \"expert\" in the "
                                       "config) and of --backend rllib (--ray)")
            cfg = load_config(config_path, phases=phases, timesteps_per_phase=timesteps,
                              seed=seed, ruleset=ruleset)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    if isinstance(cfg, TrainConfig):
        from training.selfplay import train as run

        run(cfg, out, progress=progress, log=click.echo)
        click.echo(f"policies: {out}/british.npz, {out}/malay.npz; curve: {out}/progress.csv")
        return
    from training.expert import train as run_expert

    try:
        run_expert(cfg, out, log=click.echo, progress=progress)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--out'") from None
    click.echo(f"best networks: {out}/british.npz, {out}/malay.npz; curve: "
               f"{out}/progress.csv, {out}/learning_curve.png")


def _is_expert(config_path: str) -> bool:
    """Whether a training config names ``algorithm = "expert"`` (read errors are left
    to the full load)."""
    from training.config import TrainConfigError, read_toml

    try:
        return read_toml(config_path).get("algorithm") == "expert"
    except TrainConfigError:
        return False


def _train_rllib(config_path, out, seed, ruleset, ray_address) -> None:
    """``train --backend rllib``: RLlib's PPO, then the numpy actors."""
    from training.config import TrainConfigError
    from training.rllib_config import RllibConfig

    try:
        cfg = RllibConfig.load(config_path, seed=seed, ruleset=ruleset)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    try:  # RLlib imports its parts as it goes: any missing one is the rllib extra's
        from training.rllib_train import train_rllib

        train_rllib(cfg, out, ray_address=ray_address, log=click.echo)
    except ModuleNotFoundError as exc:
        raise missing_package(exc, "rllib") from None
    click.echo(f"policies: {out}/british.npz, {out}/malay.npz (play as learned:PATH); "
               f"checkpoint: {out}/checkpoint; curve: {out}/progress.csv")


@main.command()
@click.option("--british", default="heuristic", show_default=True,
              help="Agent on both British seats (any agent spec, as in simulate).")
@click.option("--malay", default="random", show_default=True,
              help="Agent on both Malay seats (any agent spec, as in simulate).")
@click.option("--players", help="Four comma-separated agents in seat order (instead).")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Seeds to play (each twice with --swap).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--swap/--no-swap", default=True, show_default=True,
              help="Play every seed again with each faction's two seats exchanged.")
@click.option("--json", "json_path", type=OUTPUT_FILE)
@click.option("--records", "records_path", type=OUTPUT_FILE, help=RECORDS_HELP)
@click.option("--plot", "plot_path", type=OUTPUT_FILE,
              help="Write a faction win-rate chart (PNG).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@rules_options
@variant_options
def evaluate(british, malay, players, games, seed, swap, json_path, records_path, plot_path,
             progress, ruleset, no_slavery, settings, data_dir, workers, ray_address) -> None:
    """Seeded games between an agent mix: win rates with 95% intervals and ratings."""
    from arena.evaluate import write_json
    from arena.summary import openskill_ratings
    from singapore_app.plots import plot_faction_win_rates

    from arena.runner import Table, config_changes, play_tables
    from arena.summary import summarize

    names = (parse_players(None, None, players) if players
             else [british, british, malay, malay])
    check_specs(names)
    cfg, data = variant_config(ruleset, no_slavery, settings, data_dir)
    records = play_tables([Table(tuple(names), cfg, data)], games, seed, swap=swap,
                          workers=workers, ray_address=ray_address, progress=progress,
                          desc="evaluating")
    summary = summarize(records, seed=seed, seeds=games, swap=swap, ruleset=cfg.ruleset,
                        slavery=cfg.slavery, changes=config_changes(cfg), data=data)
    summary["ratings"] = openskill_ratings(records)
    click.echo(f"{summary['games']} games ({'seat-swapped' if swap else 'fixed seats'}), "
               f"seed {seed}, ruleset {ruleset}")
    for faction, row in summary["win_rate_by_faction"].items():
        click.echo(f"  {faction:8s} {pct(row['rate'])} {ci_text(row['ci95'])}")
    for label, row in summary["win_rate_by_agent"].items():
        click.echo(f"  {label:40s} won {pct(row['rate'])} {ci_text(row['ci95'])} of its games")
    for label, r in summary["ratings"].items():
        click.echo(f"  rating {label:33s} mu {r['mu']:6.2f} sigma {r['sigma']:5.2f}")
    if json_path:
        write_json(summary, json_path)
        click.echo(f"written {json_path}")
    if records_path:
        write_records_file(records, records_path)
    if plot_path:
        plot_faction_win_rates({f"{names[0]} vs {names[2]}": summary}, plot_path)
        click.echo(f"written {plot_path}")


@main.command()
@click.option("--out", default="runs/demo", show_default=True, type=OUTPUT_DIR)
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Training config (default: training/configs/demo.toml).")
@click.option("--games", type=click.IntRange(min=1), default=50, show_default=True,
              help="Evaluation seeds per matchup (each played twice, seats swapped).")
@click.option("--ruleset", type=click.Choice(RULESETS), help="Override the config's ruleset.")
@click.option("--expert-config", type=click.Path(exists=True, dir_okay=False),
              help="Expert-iteration config of the short expert run "
                   "(default: training/configs/expert_demo.toml).")
@click.option("--expert/--no-expert", default=True, show_default=True,
              help="Add a short expert-iteration run to the report.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def demo(out, config_path, games, ruleset, expert_config, expert, progress) -> None:
    """Short self-play training and a short expert-iteration run, then an evaluation
    report (markdown + PNGs) in OUT."""
    from training.config import TrainConfigError
    from singapore_app.demo import run_demo

    try:
        report = run_demo(out, config_path, games, progress=progress, log=click.echo,
                          ruleset=ruleset, expert_config=expert_config, expert=expert)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config' / '--expert-config'") from None
    click.echo(f"report: {report}")


# ---------------------------------------------------------------- serve
@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback unless told otherwise).")
@click.option("--port", type=click.IntRange(1, 65535), default=8819, show_default=True)
@click.option("--games-dir", default="games", show_default=True,
              type=click.Path(file_okay=False),
              help="Folder of the games (in progress ones are resumed on restart).")
@click.option("--workers", type=click.IntRange(min=1), default=4, show_default=True,
              help="Threads running the agents' moves (a game's agent uses one at a time, "
                   "so this many games' agents think at once; the others wait in line).")
@click.option("--allow-code", is_flag=True,
              help="Let agent specs from the page or the API load code or policy files "
                   "from this machine (file.py:Class, module:Class, learned:PATH).")
def serve(host, port, games_dir, workers, allow_code) -> None:
    """The web app: play a seat in a browser, watch agents, replay saved games, and a
    JSON API under /api/ (docs/web.md). Needs the web extra."""
    from .web.server import serve as run_server

    run_server(host, port, games_dir, workers, allow_code, log=click.echo)


# ---------------------------------------------------------------- ladder
def _parse_agents(ctx, param, value: str) -> list[str]:
    specs = [x.strip() for x in value.split(",")]
    if any(not x for x in specs):
        raise click.BadParameter(f"expected comma-separated agent names, got {value!r}")
    check_specs(specs)
    return list(dict.fromkeys(specs))


@main.command()
@click.option("--agents", "specs", default="random,heuristic,mcts", show_default=True,
              callback=_parse_agents,
              help="Comma-separated agents (parameters after a colon: mcts:iters=24; "
                   "OpenSpiel's ISMCTS: openspiel-ismcts:seconds=0.5, extra openspiel).")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Seeds per matchup (each played twice, seats swapped).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--json", "json_path", type=OUTPUT_FILE)
@click.option("--plot", "plot_path", type=OUTPUT_FILE,
              help="Write the ladder chart (PNG).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes playing games (the results do not depend on it).")
@rules_options
def ladder(specs, games, seed, ruleset, no_slavery, json_path, plot_path, progress,
           workers) -> None:
    """Every agent against the heuristic faction and each other: win rates with 95%
    intervals next to the mirror baseline, and OpenSkill ratings."""
    from arena.evaluate import write_json
    from arena.ladder import run_ladder
    from singapore_app.plots import plot_ladder

    summary = run_ladder(specs, games, seed, rules_config(ruleset, no_slavery), progress=progress,
                         workers=workers)
    click.echo(format_ladder(summary))
    if json_path:
        write_json(summary, json_path)
        click.echo(f"written {json_path}")
    if plot_path:
        plot_ladder(summary, plot_path)
        click.echo(f"written {plot_path}")


def format_ladder(summary: dict) -> str:
    """A readable table of a :func:`arena.ladder.run_ladder` summary."""
    lines = [f"ladder: {summary['games_per_matchup']} seat-swapped games per matchup, "
             f"seed {summary['seed']}, ruleset {summary['ruleset']}", ""]
    base = summary["mirror_baseline"]
    lines.append(f"{'agent':<34}{'as british vs heuristic':<34}{'as malay vs heuristic':<34}")
    lines.append(f"{'(mirror baseline)':<34}" + "".join(
        f"{pct(base[f]['rate'])} {ci_text(base[f]['ci95']):<26}" for f in FACTIONS))
    for spec, rates in summary["vs_heuristic"].items():
        lines.append(f"{spec:<34}" + "".join(
            f"{pct(rates[f]['rate'])} {ci_text(rates[f]['ci95']):<26}" for f in FACTIONS))
    lines += ["", "matchups (british vs malay): british win rate"]
    for m in summary["matchups"]:
        row = m["win_rate_by_faction"][FACTIONS[0]]
        lines.append(f"  {m['british'] + ' vs ' + m['malay']:<60}"
                     f"{pct(row['rate'])} {ci_text(row['ci95'])}")
    lines += ["", "OpenSkill ratings"]
    for spec, r in summary["ratings"].items():
        lines.append(f"  {spec:<34} mu {r['mu']:6.2f}  sigma {r['sigma']:5.2f}  "
                     f"ordinal {r['ordinal']:6.2f}")
    return "\n".join(line.rstrip() for line in lines)


if __name__ == "__main__":  # pragma: no cover
    main()
