"""The ``singapore-1819`` command line.

    singapore-1819 simulate --players random,random,random,random --games 1000 --seed 1
    singapore-1819 simulate --games 1 --save game.json
    singapore-1819 replay game.json
    singapore-1819 balance --games 200 --set conflict_vp_full_strength=false --workers 2
    singapore-1819 cards export my_cards/

    singapore-1819 play --seat sultan --opponents heuristic
    singapore-1819 train --config training/configs/demo.toml --out runs/train --seconds 60
    singapore-1819 evaluate --british learned:runs/train/british.npz --malay heuristic
    singapore-1819 ladder --agents random,heuristic,mcts:iters=24 --games 20 --plot l.png
    singapore-1819 demo --out runs/demo
    singapore-1819 serve --port 8819 --games-dir games

The commands live by concept: games (:mod:`singapore_app.cli_games`: ``simulate``,
``replay``, ``play``), design (:mod:`singapore_app.cli_balance`: ``balance``, ``cards``),
learning (:mod:`singapore_app.cli_learning`: ``train``, ``evaluate``, ``ladder``,
``demo``; they import the ``training`` package, and torch, only when they run) and the
web app (``serve``, here). The options and helpers they share live in
:mod:`singapore_app.cli_options`.
"""

from __future__ import annotations

from importlib import metadata

import click

from .cli_balance import balance, cards
from .cli_games import play, replay, simulate
from .cli_learning import demo, evaluate, ladder, train
from .cli_options import missing_package


def _version() -> str:
    try:
        return metadata.version("singapore-1819")
    except metadata.PackageNotFoundError:  # pragma: no cover (not installed)
        return "unknown"


class _Commands(click.Group):
    """The command group: a missing optional dependency, an unreachable Ray cluster or a
    network that cannot read a table's observation is a clear usage error."""

    def invoke(self, ctx):
        from agents.net_layout import LayoutMismatch
        from arena.runner import RayUnavailable

        try:
            return super().invoke(ctx)
        except ModuleNotFoundError as exc:
            raise missing_package(exc) from None
        except RayUnavailable as exc:
            raise click.BadParameter(str(exc), param_hint="'--ray'") from None
        except LayoutMismatch as exc:
            raise click.UsageError(str(exc)) from None


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", prog_name="singapore-1819")
def main() -> None:
    """1819 Singapore: rules engine, simulations and replays."""


# ---------------------------------------------------------------- serve
@click.command()
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
@click.option("--think-limit", type=click.FloatRange(0.1, 600), default=5.0,
              show_default=True, help="Seconds an agent may think per decision: search "
              "budgets over it are refused.")
@click.option("--max-games", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games in progress at once; starting one more is refused (429).")
@click.option("--request-timeout", type=click.FloatRange(1, 3600), default=60.0,
              show_default=True, help="Seconds a connection may take to send its whole "
              "request (headers and body); a slower one is closed.")
@click.option("--max-connections", type=click.IntRange(min=1), default=None,
              help="Connections held at once; one more is answered 503 and closed "
                   "[default: 512, or half the open-file limit if lower; more than half "
                   "the open-file limit is cut to it, with a warning].")
@click.option("--max-client-connections", type=click.IntRange(min=1), default=None,
              help="Connections one client address may hold at once; one more from it is "
                   "answered 503 [default: a quarter of --max-connections].")
def serve(host, port, games_dir, workers, allow_code, think_limit, max_games,
          request_timeout, max_connections, max_client_connections) -> None:
    """The web app: play a seat in a browser, watch agents, replay saved games, and a
    JSON API under /api/ (docs/web.md). Needs the web extra."""
    from .web.server import serve as run_server

    run_server(host, port, games_dir, workers, allow_code, log=click.echo,
               request_timeout=request_timeout, max_connections=max_connections,
               client_connections=max_client_connections, think_limit=think_limit,
               max_games=max_games)


for _command in (simulate, replay, play, balance, cards, train, evaluate, ladder, demo, serve):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
