"""The designer's commands: ``balance`` (a study of rules variants and agent mixes) and
``cards export`` (the card and board data copied out for editing, for ``--data DIR``)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import click

from singapore_env.engine.content import DATA_DIR, FACTIONS

from .cli_options import (OUTPUT_DIR, ci_text, engine_option, parse_players, pct,
                          resolve_engine, rules_options, variant_config, variant_options,
                          write_records_file, write_summary_json)
from .cli_tune import tune


# ---------------------------------------------------------------- balance
class _WithSubcommands(click.Command):
    """A command that also has subcommands: ``balance tune ...`` runs ``tune``
    (:mod:`singapore_app.cli_tune`), ``balance [STUDY_FILE] ...`` the study itself (a
    study file named like a subcommand is written ``./tune``)."""

    def __init__(self, *args, subcommands=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.subcommands = {command.name: command for command in subcommands}

    def make_context(self, info_name, args, parent=None, **extra):
        if args and args[0] in self.subcommands:
            command = self.subcommands[args[0]]
            return command.make_context(f"{info_name} {args[0]}", list(args[1:]),
                                        parent=parent, **extra)
        return super().make_context(info_name, args, parent=parent, **extra)


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


@click.command(cls=_WithSubcommands, subcommands=[tune],
               epilog="singapore-1819 balance tune --help: search the settings that even "
                      "the factions.")
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
@engine_option
@click.option("--out", default="runs/balance", show_default=True,
              type=OUTPUT_DIR,
              help="Folder for summary.json, the records, report.md and its figures.")
@click.option("--format", "records_format", type=click.Choice(["parquet", "csv"]),
              default="parquet", show_default=True, help="Format of the per-game records.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def balance(study_file, mixes, games, seed, swap, ruleset, no_slavery, settings, data_dir,
            workers, ray_address, engine, out, records_format, progress) -> None:
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
    tables = study.tables()
    played = resolve_engine([p for t in tables for p in t.players], engine,
                            [t.config for t in tables])
    os.makedirs(out, exist_ok=True)
    start = time.perf_counter()
    records = study.run(workers=workers, ray_address=ray_address, progress=progress,
                        engine=engine)
    result = summarize_study(study, records, seconds=time.perf_counter() - start,
                             engine=played)
    write_summary_json(result, os.path.join(out, "summary.json"))
    write_records_file(records, os.path.join(out, f"records.{records_format}"), played)
    report = write_report(result, out, command="singapore-1819 " + " ".join(sys.argv[1:]))
    for cell in result["cells"]:
        rates = cell["summary"]["win_rate_by_faction"]
        click.echo(f"  {cell['variant']} / {cell['mix']}: " + ", ".join(
            f"{f} {pct(rates[f]['rate'])} {ci_text(rates[f]['ci95'])}" for f in FACTIONS))
    for diff in result["differences"]:
        row = diff["win_rate_by_faction"][FACTIONS[0]]
        click.echo(f"  {diff['variant']} / {diff['mix']} minus baseline: british "
                   f"{100 * row['difference']:+.1f} pts {ci_text(row['ci95'])} (paired by seed)")
    click.echo(f"report: {report}")




# ---------------------------------------------------------------- cards
@click.group()
def cards() -> None:
    """The game's card and board data (TOML files, docs/content-format.md)."""


@cards.command("export")
@click.argument("folder", type=click.Path(file_okay=False))
def export_cards(folder: str) -> None:
    """Copy the shipped card and board files into FOLDER (created if needed; no file
    there is overwritten), to edit and play with --data FOLDER."""
    files = sorted(DATA_DIR.glob("*.toml"))
    target = Path(folder)
    taken = [f.name for f in files if (target / f.name).exists()]
    if taken:
        raise click.BadParameter(f"{folder} already holds {', '.join(taken)}: choose another "
                                 f"folder or remove them", param_hint="'FOLDER'")
    try:
        target.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copyfile(f, target / f.name)
    except OSError as exc:
        raise click.ClickException(f"cannot write {folder}: {exc}") from None
    click.echo(f"copied {', '.join(f.name for f in files)} to {folder}; edit them and play "
               f"with --data {folder}")
