"""Options and output helpers shared by the commands of :mod:`singapore_app.cli`:
agent lists, rules and card variants, output files, the summary table, and the usage
error of a missing optional package.
"""

from __future__ import annotations

import json
import os

import click

from singapore_env.engine.config import RULESETS, ConfigError, RulesConfig, parse_setting
from singapore_env.engine.content import FACTIONS, SEAT_NAMES, ContentError, resolve_content

N_SEATS = 4

#: The extra that installs an optional package (the rest come with [train]).
EXTRA_OF = {"ray": "ray", "pandas": "lab", "pyarrow": "lab", "statsmodels": "lab", "optuna": "lab",
            "cmaes": "lab",
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


def parse_players(ctx, param, value: str) -> list[str]:
    names = [x.strip() for x in value.split(",")]
    if len(names) != N_SEATS or any(not n for n in names):
        raise click.BadParameter(
            f"expected {N_SEATS} comma-separated agent names (one per seat: "
            f"{', '.join(SEAT_NAMES)}), got {value!r}")
    check_specs(names)
    return names


def check_specs(specs: list[str]) -> None:
    """Build each agent spec once (``name`` or ``name:key=value...``): an unknown agent
    or parameter is a usage error (exit code 2) with the registry's message."""
    from agents.registry import make_agent

    for spec in dict.fromkeys(specs):
        try:
            make_agent(spec)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None


def pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def ci_text(ci: list[float]) -> str:
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def points(difference: float, ci: list[float]) -> str:
    """A difference of win rates in points with its interval: ``+8.2 [+0.6, +15.9]``."""
    return f"{100 * difference:+.1f} [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]"


def format_summary(summary: dict) -> str:
    """A readable table of a summary (:func:`arena.summary.summarize`)."""
    players = summary["players"] or ["(mixed)"] * N_SEATS
    changes = ", ".join(f"{k}={v}" for k, v in summary.get("changes", {}).items())
    lines = [
        f"1819 Singapore: {summary['games']} games"
        f"{' (seats swapped)' if summary.get('swap') else ''}, ruleset {summary['ruleset']} "
        f"(slavery {'on' if summary.get('slavery', True) else 'off'}), seed {summary['seed']}"
        + (f", {summary['engine']} engine" if summary.get("engine") else "")
        + (f"; changed: {changes}" if changes else "")
        + (f"; data: {summary['data']}" if summary.get("data") else ""),
        "",
        f"{'seat':<21}{'agent':<12}{'wins':>8}  {'win rate':>8}  {'95% CI':<18}{'mean VP':>8}",
    ]
    for p, seat in enumerate(SEAT_NAMES):
        rate = summary["win_rate_by_seat"][seat]
        lines.append(
            f"{seat:<21}{players[p]:<12}{rate['wins']:>8.1f}  "
            f"{pct(rate['rate']):>8}  {ci_text(rate['ci95']):<18}"
            f"{summary['mean_vp_by_seat'][seat]:>8.2f}")
    lines += ["", f"{'faction':<33}{'wins':>8}  {'win rate':>8}  {'95% CI':<18}"]
    for fac in FACTIONS:
        rate = summary["win_rate_by_faction"][fac]
        lines.append(f"{fac:<33}{rate['wins']:>8.1f}  "
                     f"{pct(rate['rate']):>8}  {ci_text(rate['ci95']):<18}")
    if len(summary["win_rate_by_agent"]) > 1:
        lines += ["", f"{'agent':<33}{'games':>8}  {'win rate':>8}  {'95% CI':<18}"]
        for label, rate in summary["win_rate_by_agent"].items():
            lines.append(f"{label:<33}{rate['games']:>8}  {pct(rate['rate']):>8}  "
                         f"{ci_text(rate['ci95']):<18}")
    lines += ["", "mean VP per seat by source: " + "; ".join(
        f"{fac} " + ", ".join(f"{src} {v:.1f}" for src, v in row.items() if v)
        for fac, row in summary["mean_vp_by_source"].items())]
    lines += [
        f"shared wins (ties split): {summary.get('shared_wins', 0)}",
        f"mean decisions per game: {summary['mean_decisions_per_game']:.1f}",
    ]
    if "games_per_second" in summary:
        lines.append(f"games per second: {summary['games_per_second']:.1f}")
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


def _parse_settings(ctx, param, values) -> dict:
    settings = {}
    for text in values:
        try:
            key, value = parse_setting(text)
        except ConfigError as exc:
            raise click.BadParameter(str(exc)) from None
        settings[key] = value
    return settings


def variant_options(fn):
    """``--set KEY=VALUE`` (any rules setting, repeatable) and ``--data DIR`` (an edited
    copy of the card and board files), with the run options ``--workers`` and ``--ray``."""
    fn = click.option("--ray", "ray_address", metavar="auto|local|ADDRESS",
                      help="Play the games on a Ray cluster (pip install "
                           "'singapore-1819[ray]').")(fn)
    fn = click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                      help="Processes playing games (the records do not depend on it).")(fn)
    fn = click.option("--data", "data_dir", type=click.Path(file_okay=False),
                      help="Folder with an edited copy of singapore_env/engine/data (board.toml, "
                           "cards.toml, folk_heroes.toml).")(fn)
    return click.option("--set", "settings", multiple=True, callback=_parse_settings,
                        metavar="KEY=VALUE",
                        help="Change a rules setting (repeatable), e.g. --set war_cost=6 "
                             "--set conflict_vp_full_strength=false.")(fn)


def engine_option(fn):
    """``--engine native|python``: the rules engine the games are played on (default:
    :func:`resolve_engine`'s)."""
    from arena.simulate import ENGINES

    return click.option("--engine", type=click.Choice(ENGINES[::-1]), default=None,
                        help="The engine playing the games: native is the compiled twin "
                             "(the same games and records, faster), python the reference. "
                             "[default: native where it is built and every player has a "
                             "native twin, else python]")(fn)


def resolve_engine(players, engine: str | None, configs=()) -> str:
    """The engine a command plays ``players`` (specs) on under ``configs``: ``engine``
    when given, checked (a usage error, exit code 2, naming the players that cannot sit
    at a native game, or saying that the native module is not built); else the default
    (:func:`arena.simulate.default_engine`), and when Python-only players keep the games
    on the Python engine, one line on stderr naming them."""
    from arena.simulate import check_engine, default_engine
    from singapore_env.native import NativeUnavailable

    if engine is None:
        engine, python_only = default_engine(players, configs)
        if python_only:
            click.echo(f"playing on the python engine: {', '.join(python_only)} "
                       f"{'has' if len(python_only) == 1 else 'have'} no native twin",
                       err=True)
        return engine
    try:
        check_engine(players, engine)
    except NativeUnavailable as exc:
        raise click.UsageError(str(exc)) from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--engine'") from None
    return engine


def variant_config(ruleset: str, no_slavery: bool, settings: dict, data_dir: str | None):
    """``(RulesConfig, content folder or None)`` of :func:`rules_options` and
    :func:`variant_options`; a bad setting or data folder is a usage error."""
    try:
        cfg = RulesConfig.named(ruleset, **{"slavery": not no_slavery, **settings})
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--set'") from None
    if data_dir is not None:
        try:
            resolve_content(data_dir, cfg.slavery)
        except ContentError as exc:
            raise click.BadParameter(str(exc), param_hint="'--data'") from None
    return cfg, data_dir


def rules_config(ruleset: str, no_slavery: bool) -> RulesConfig:
    """The engine configuration chosen by :func:`rules_options`."""
    try:
        return RulesConfig.named(ruleset, slavery=not no_slavery)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--ruleset'") from None


RECORDS_HELP = "Write one row per game (VP by source, facts) to this .parquet or .csv file."


def write_summary_json(data: dict, path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")
    click.echo(f"summary written to {path}")


def write_records_file(records: list[dict], path: str, engine: str | None = None) -> None:
    from arena.records import write_records

    write_records(records, path, engine)
    click.echo(f"{len(records)} game records written to {path}")
