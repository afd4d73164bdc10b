"""The commands that play and show games: ``simulate`` (many games between agents),
``replay`` (a saved game turn by turn) and ``play`` (a seat in the terminal)."""

from __future__ import annotations

import json
import sys

import click

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import SEAT_NAMES, ContentError, resolve_content

from .cli_options import (OUTPUT_FILE, RECORDS_HELP, engine_option, format_summary,
                          parse_players, resolve_engine, rules_config, rules_options,
                          variant_config, variant_options, write_records_file,
                          write_summary_json)


# ---------------------------------------------------------------- simulate
@click.command()
@click.option("--players", default="random,random,random,random", show_default=True,
              callback=parse_players,
              help="Four comma-separated agents, in seat order: a name with parameters "
                   "after colons (mcts:iters=200:topk=3), learned:PATH, lookahead:DIR, path/to/bot.py:Class "
                   "or package.module:Class.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of games (seeds).")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="Base seed; per-game seeds derive from it.")
@click.option("--swap/--no-swap", default=False, show_default=True,
              help="Play every seed again with each faction's two seats exchanged.")
@rules_options
@variant_options
@engine_option
@click.option("--json", "json_path", type=OUTPUT_FILE,
              help="Write the summary as JSON to this file.")
@click.option("--records", "records_path", type=OUTPUT_FILE, help=RECORDS_HELP)
@click.option("--save", "save_path", type=OUTPUT_FILE,
              help="Save the first game (snapshot + log) as JSON for `replay`.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Show a progress bar (only on a terminal).")
def simulate(players: list[str], games: int, seed: int, swap: bool, ruleset: str,
             no_slavery: bool, settings: dict, data_dir: str | None, workers: int,
             ray_address: str | None, engine: str | None, json_path: str | None,
             records_path: str | None, save_path: str | None, progress: bool) -> None:
    """Play GAMES games between agents and print win rates with 95% intervals."""
    import time

    from arena.runner import Table, config_changes, play_tables
    from arena.summary import summarize

    cfg, data = variant_config(ruleset, no_slavery, settings, data_dir)
    played = resolve_engine(players, engine, [cfg])
    start = time.perf_counter()
    records = play_tables([Table(tuple(players), cfg, data)], games, seed, swap=swap,
                          workers=workers, ray_address=ray_address, progress=progress,
                          desc="simulating", engine=engine)
    summary = summarize(records, seconds=time.perf_counter() - start, seed=seed, seeds=games,
                        swap=swap, ruleset=cfg.ruleset, slavery=cfg.slavery,
                        changes=config_changes(cfg), data=data, engine=played)
    click.echo(format_summary(summary))
    try:
        if json_path:
            write_summary_json(summary, json_path)
        if records_path:
            write_records_file(records, records_path, played)
        if save_path:
            game = _first_game(players, cfg, data, seed, games)
            with open(save_path, "w", encoding="utf-8") as fh:
                fh.write(game.to_json())
            click.echo(f"first game (seed {game.seed}) saved to {save_path}")
    except OSError as exc:
        raise click.ClickException(f"cannot write: {exc}") from None


def _first_game(players: list[str], cfg: RulesConfig, data, seed: int, games: int):
    """Game 0 of a run again, with its text log, to save it (on the Python engine, which
    keeps the log: the same game as on either engine)."""
    from agents.registry import make_agent

    from arena.simulate import game_seeds, play_game

    engine_seed, *agent_seeds = game_seeds(seed, games)[0]
    return play_game(engine_seed, [make_agent(p) for p in players], cfg, content=data,
                     agent_seeds=agent_seeds, keep_text_log=True, keep_game=True).game



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


@click.command()
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
@click.command()
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


