"""The ``singapore-1819`` command line.

    singapore-1819 simulate --players random,random,random,random --games 1000 --seed 1
    singapore-1819 simulate --games 1 --save game.json
    singapore-1819 replay game.json

    singapore-1819 play --seat sultan --opponents heuristic
    singapore-1819 train --config training/configs/demo.toml --out runs/train
    singapore-1819 evaluate --british learned:runs/train/british.npz --malay heuristic
    singapore-1819 ladder --agents random,heuristic,mcts:iters=24 --games 20 --plot l.png
    singapore-1819 demo --out runs/demo

``train``, ``evaluate`` and ``demo`` import the ``training`` package (and torch) only
when they run, so the engine and the environment never import torch.
"""

from __future__ import annotations

import json
import os
import sys
from importlib import metadata

import click

from .config import RULESETS, ConfigError, RulesConfig
from .content import FACTIONS, SEAT_NAMES

N_SEATS = 4


def _version() -> str:
    try:
        return metadata.version("singapore-1819")
    except metadata.PackageNotFoundError:  # pragma: no cover (not installed)
        return "unknown"


class _Commands(click.Group):
    """The command group: a missing optional dependency is a clear usage error."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as exc:
            package = (exc.name or "?").split(".")[0]
            raise click.UsageError(
                f"this command needs the optional package {package!r}, which is not "
                f"installed: pip install 'singapore-1819[train]' (or [env] for the "
                f"environment alone)") from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", prog_name="singapore-1819")
def main() -> None:
    """1819 Singapore: rules engine, simulations and replays."""


# ---------------------------------------------------------------- simulate
def _parse_players(ctx, param, value: str) -> list[str]:
    names = [x.strip() for x in value.split(",")]
    if len(names) != N_SEATS or any(not n for n in names):
        raise click.BadParameter(
            f"expected {N_SEATS} comma-separated agent names (one per seat: "
            f"{', '.join(SEAT_NAMES)}), got {value!r}")
    _check_specs(names)
    return names


def _check_specs(specs: list[str]) -> None:
    """Build each agent spec once (``name`` or ``name:key=value...``): an unknown agent
    or parameter is a usage error (exit code 2) with the registry's message."""
    from agents.registry import make_agent

    for spec in dict.fromkeys(specs):
        try:
            make_agent(spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _ci(ci: list[float]) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]"


def format_summary(summary: dict) -> str:
    """A readable table of a :func:`run_tournament` summary."""
    players = summary["players"]
    lines = [
        f"1819 Singapore: {summary['games']} games, ruleset {summary['ruleset']} "
        f"(slavery {'on' if summary.get('slavery', True) else 'off'}), seed {summary['seed']}",
        "",
        f"{'seat':<21}{'agent':<12}{'wins':>8}  {'win rate':>8}  {'95% CI':<18}{'mean VP':>8}",
    ]
    for p in range(N_SEATS):
        rate = summary["win_rate_by_seat"][p]
        lines.append(
            f"{SEAT_NAMES[p]:<21}{players[p]:<12}{summary['wins_by_seat'][p]:>8.1f}  "
            f"{_pct(rate['rate']):>8}  {_ci(rate['ci95']):<18}"
            f"{summary['mean_vp_by_seat'][p]:>8.2f}")
    lines += ["", f"{'faction':<33}{'wins':>8}  {'win rate':>8}  {'95% CI':<18}"]
    for fac in FACTIONS:
        rate = summary["win_rate_by_faction"][fac]
        lines.append(f"{fac:<33}{summary['wins_by_faction'][fac]:>8.1f}  "
                     f"{_pct(rate['rate']):>8}  {_ci(rate['ci95']):<18}")
    lines += [
        "",
        f"shared wins (ties split): {summary.get('shared_wins', 0)}",
        f"mean decisions per game: {summary['mean_decisions_per_game']:.1f}",
        f"games per second: {summary['games_per_second']:.1f}",
    ]
    return "\n".join(line.rstrip() for line in lines)


class OutputFile(click.Path):
    """A file the command will write: its folder must exist and be writable, checked
    before any game is played (so a long run never ends in a write error)."""

    def __init__(self):
        super().__init__(dir_okay=False, writable=True)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            self.fail(f"cannot write {path!r}: {folder!r} is not a writable folder", param, ctx)
        return path


OUTPUT_FILE = OutputFile()


class OutputDir(click.Path):
    """A folder the command will create or fill: its nearest existing ancestor must be a
    writable folder, checked before any work starts."""

    def __init__(self):
        super().__init__(file_okay=False, writable=True)

    def convert(self, value, param, ctx):
        path = super().convert(value, param, ctx)
        folder = os.path.abspath(path)
        while not os.path.exists(folder):
            folder = os.path.dirname(folder)
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            self.fail(f"cannot write into {path!r}: {folder!r} is not a writable folder",
                      param, ctx)
        return path


OUTPUT_DIR = OutputDir()


def rules_options(fn):
    """The ``--ruleset`` and ``--no-slavery`` options of every command that plays games."""
    fn = click.option("--no-slavery", is_flag=True,
                      help="Play without the slavery-related content.")(fn)
    return click.option("--ruleset", type=click.Choice(RULESETS), default="standard",
                        show_default=True, help="Which rules to play.")(fn)


def rules_config(ruleset: str, no_slavery: bool) -> RulesConfig:
    """The engine configuration chosen by :func:`rules_options`."""
    try:
        return RulesConfig.named(ruleset, slavery=not no_slavery)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--ruleset'") from None


@main.command()
@click.option("--players", default="random,random,random,random", show_default=True,
              callback=_parse_players,
              help="Four comma-separated agent names, in seat order; parameters after a "
                   "colon, e.g. mcts:iters=200:topk=3.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of games.")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Base seed; per-game seeds derive from it.")
@rules_options
@click.option("--json", "json_path", type=OUTPUT_FILE,
              help="Write the summary as JSON to this file.")
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Save the first game (snapshot + log) as JSON for `replay`.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Show a progress bar (only on a terminal).")
def simulate(players: list[str], games: int, seed: int, ruleset: str, no_slavery: bool,
             json_path: str | None, save_path: str | None, progress: bool) -> None:
    """Play GAMES games between agents and print win rates with 95% intervals."""
    from .simulate import run_tournament

    cfg = rules_config(ruleset, no_slavery)
    first: list = []

    def keep(i, result):
        if i == 0 and result.game is not None:
            first.append(result.game)

    summary = run_tournament(games, players, seed, cfg, progress, on_game=keep,
                             keep_first_game=save_path is not None)
    click.echo(format_summary(summary))
    try:
        if json_path:
            with open(json_path, "w", encoding="utf-8") as fh:
                json.dump(summary, fh, indent=2)
                fh.write("\n")
            click.echo(f"summary written to {json_path}")
        if save_path:
            with open(save_path, "w", encoding="utf-8") as fh:
                fh.write(first[0].to_json())
            click.echo(f"first game (seed {first[0].seed}) saved to {save_path}")
    except OSError as exc:
        raise click.ClickException(f"cannot write: {exc}") from None


# ---------------------------------------------------------------- replay
def _fail(path: str, message: str) -> None:
    click.echo(f"error: cannot replay {path}: {message}", err=True)
    sys.exit(2)


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
def replay(path: str, snapshot: bool, events: bool) -> None:
    """Replay a saved game decision by decision, then show the final board."""
    from .engine import Game, SaveFormatError
    from .render import describe, render_text

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        stored = Game.from_json(text) if snapshot else None
        final = Game.load_replay(text)
    except SaveFormatError as exc:
        _fail(path, str(exc))
    except (OSError, UnicodeDecodeError) as exc:
        _fail(path, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 -- a malformed file must not print a traceback
        _fail(path, f"malformed saved game ({type(exc).__name__}: {exc})")
    if stored is not None and _comparable(stored) != _comparable(final):
        _fail(path, "the stored snapshot does not match the state its decision log leads to")

    game = Game(final.seed, final.cfg)
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
    from .engine import Game, SaveFormatError
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
              help="Training config (TOML); defaults for every missing key.")
@click.option("--out", default="runs/train", show_default=True, type=OUTPUT_DIR,
              help="Output folder (a run resumes when started again on it).")
@click.option("--phases", type=click.IntRange(min=1), help="Override the number of phases.")
@click.option("--timesteps", type=click.IntRange(min=1), help="Override timesteps per phase.")
@click.option("--seed", type=click.IntRange(min=0), help="Override the seed.")
@click.option("--ruleset", type=click.Choice(RULESETS), help="Override the ruleset.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def train(config_path, out, phases, timesteps, seed, ruleset, progress) -> None:
    """Self-play training of a British and a Malay MaskablePPO policy."""
    from training.config import TrainConfig, TrainConfigError
    from training.selfplay import train as run

    try:
        cfg = TrainConfig.load(config_path, phases=phases, timesteps_per_phase=timesteps,
                               seed=seed, ruleset=ruleset)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    run(cfg, out, progress=progress, log=click.echo)
    click.echo(f"policies: {out}/british.npz, {out}/malay.npz; curve: {out}/progress.csv")


@main.command()
@click.option("--british", default="heuristic", show_default=True,
              help="Agent on both British seats (a name or learned:PATH).")
@click.option("--malay", default="random", show_default=True,
              help="Agent on both Malay seats (a name or learned:PATH).")
@click.option("--players", help="Four comma-separated agents in seat order (instead).")
@click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Seeds to play (each twice with --swap).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--swap/--no-swap", default=True, show_default=True,
              help="Play every seed again with each faction's two seats exchanged.")
@click.option("--json", "json_path", type=OUTPUT_FILE)
@click.option("--plot", "plot_path", type=OUTPUT_FILE,
              help="Write a faction win-rate chart (PNG).")
@rules_options
def evaluate(british, malay, players, games, seed, swap, json_path, plot_path, ruleset,
             no_slavery) -> None:
    """Seeded games between an agent mix: win rates with 95% intervals and ratings."""
    from agents.registry import make_agent
    from training.evaluate import openskill_ratings, plot_faction_win_rates, run_matchup, write_json

    names = (_parse_players(None, None, players) if players
             else [british, british, malay, malay])
    try:
        agents = [make_agent(n, seed + p) for p, n in enumerate(names)]
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    result = run_matchup(agents, games, seed, rules_config(ruleset, no_slavery), swap=swap,
                         labels=names)
    summary = result.summary()
    summary["ratings"] = openskill_ratings([result])
    click.echo(f"{result.games} games ({'seat-swapped' if swap else 'fixed seats'}), "
               f"seed {seed}, ruleset {ruleset}")
    for faction, row in summary["win_rate_by_faction"].items():
        click.echo(f"  {faction:8s} {_pct(row['rate'])} {_ci(row['ci95'])}")
    for label, row in summary["win_rate_by_agent"].items():
        click.echo(f"  {label:40s} won {_pct(row['rate'])} {_ci(row['ci95'])} of its games")
    for label, r in summary["ratings"].items():
        click.echo(f"  rating {label:33s} mu {r['mu']:6.2f} sigma {r['sigma']:5.2f}")
    if json_path:
        write_json(summary, json_path)
        click.echo(f"written {json_path}")
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
@click.option("--progress/--no-progress", default=True, show_default=True)
def demo(out, config_path, games, ruleset, progress) -> None:
    """Short self-play training, then an evaluation report (markdown + PNGs) in OUT."""
    from training.config import TrainConfigError
    from training.report import run_demo

    try:
        report = run_demo(out, config_path, games, progress=progress, log=click.echo,
                          ruleset=ruleset)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    click.echo(f"report: {report}")


# ---------------------------------------------------------------- ladder
def _parse_agents(ctx, param, value: str) -> list[str]:
    specs = [x.strip() for x in value.split(",")]
    if any(not x for x in specs):
        raise click.BadParameter(f"expected comma-separated agent names, got {value!r}")
    _check_specs(specs)
    return list(dict.fromkeys(specs))


@main.command()
@click.option("--agents", "specs", default="random,heuristic,mcts", show_default=True,
              callback=_parse_agents,
              help="Comma-separated agents (parameters after a colon: mcts:iters=24).")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True,
              help="Seeds per matchup (each played twice, seats swapped).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True)
@click.option("--json", "json_path", type=OUTPUT_FILE)
@click.option("--plot", "plot_path", type=OUTPUT_FILE,
              help="Write the ladder chart (PNG).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@rules_options
def ladder(specs, games, seed, ruleset, no_slavery, json_path, plot_path, progress) -> None:
    """Every agent against the heuristic faction and each other: win rates with 95%
    intervals next to the mirror baseline, and OpenSkill ratings."""
    from training.evaluate import write_json
    from training.ladder import plot_ladder, run_ladder

    summary = run_ladder(specs, games, seed, rules_config(ruleset, no_slavery), progress=progress)
    click.echo(format_ladder(summary))
    if json_path:
        write_json(summary, json_path)
        click.echo(f"written {json_path}")
    if plot_path:
        plot_ladder(summary, plot_path)
        click.echo(f"written {plot_path}")


def format_ladder(summary: dict) -> str:
    """A readable table of a :func:`training.ladder.run_ladder` summary."""
    lines = [f"ladder: {summary['games_per_matchup']} seat-swapped games per matchup, "
             f"seed {summary['seed']}, ruleset {summary['ruleset']}", ""]
    base = summary["mirror_baseline"]
    lines.append(f"{'agent':<34}{'as british vs heuristic':<34}{'as malay vs heuristic':<34}")
    lines.append(f"{'(mirror baseline)':<34}" + "".join(
        f"{_pct(base[f]['rate'])} {_ci(base[f]['ci95']):<26}" for f in FACTIONS))
    for spec, rates in summary["vs_heuristic"].items():
        lines.append(f"{spec:<34}" + "".join(
            f"{_pct(rates[f]['rate'])} {_ci(rates[f]['ci95']):<26}" for f in FACTIONS))
    lines += ["", "matchups (british vs malay): british win rate"]
    for m in summary["matchups"]:
        row = m["win_rate_by_faction"][FACTIONS[0]]
        lines.append(f"  {m['british'] + ' vs ' + m['malay']:<60}"
                     f"{_pct(row['rate'])} {_ci(row['ci95'])}")
    lines += ["", "OpenSkill ratings"]
    for spec, r in summary["ratings"].items():
        lines.append(f"  {spec:<34} mu {r['mu']:6.2f}  sigma {r['sigma']:5.2f}  "
                     f"ordinal {r['ordinal']:6.2f}")
    return "\n".join(line.rstrip() for line in lines)


if __name__ == "__main__":  # pragma: no cover
    main()
