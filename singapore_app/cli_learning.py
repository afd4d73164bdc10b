"""The learning commands: ``train`` (batched self-play, or its config run by SB3 or RLlib),
``evaluate`` (a matchup's win rates), ``ladder`` (every agent against the heuristic and
each other) and ``demo`` (a short run and its report). They import ``training`` (and
torch) only when they run."""

from __future__ import annotations

import click

from singapore_env.engine.config import RULESETS
from singapore_env.engine.content import FACTIONS

from .cli_options import (OUTPUT_DIR, OUTPUT_FILE, RECORDS_HELP, check_specs, ci_text,
                          engine_option, missing_package, parse_players, pct, points,
                          resolve_engine, rules_config, rules_options, variant_config,
                          variant_options, write_records_file)


# ---------------------------------------------------------------- training
@click.command()
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Training config (TOML); defaults for every missing key. Its key "
                   "backend picks the trainer: \"selfplay\" (the project's batched "
                   "self-play, the default), \"sb3\" or \"rllib\" (the same "
                   "vocabulary run by Stable-Baselines3 or RLlib): docs/training.md.")
@click.option("--out", default="runs/train", show_default=True, type=OUTPUT_DIR,
              help="Output folder (a run resumes when started again on it).")
@click.option("--backend", type=click.Choice(["selfplay", "sb3", "rllib"]),
              help="Override the config's backend: selfplay (batched self-play, the "
                   "project's own), sb3 (MaskablePPO through FactionEnv; pip install "
                   "'singapore-1819[train]') or rllib (PPO on RLlib; pip install "
                   "'singapore-1819[rllib]').")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True),
              help="Train this long, then checkpoint and write the networks (run again "
                   "on the same --out to continue).")
@click.option("--workers", type=click.IntRange(min=0),
              help="Processes playing the games (the config's workers; the results do "
                   "not depend on it).")
@click.option("--seed", type=click.IntRange(min=0), help="Override the seed.")
@click.option("--ruleset", type=click.Choice(RULESETS), help="Override the ruleset.")
@click.option("--ray", "ray_address", metavar="auto|local|ADDRESS",
              help="The Ray cluster that plays the games: selfplay's collectors, "
                   "rllib's env runners (local: a cluster started here; default for "
                   "rllib).")
@click.option("--progress/--no-progress", default=True, show_default=True)
def train(config_path, out, backend, seconds, workers, seed, ruleset, ray_address,
          progress) -> None:
    """Train a British and a Malay network: batched self-play (the project's trainer,
    what the main job runs), or the same config run by SB3 or RLlib."""
    from training.config import TrainConfigError, load_config

    try:
        cfg = load_config(config_path, backend=backend, workers=workers, seed=seed,
                          ruleset=ruleset)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    if ray_address and cfg.kind == "sb3":
        raise click.UsageError("--ray: the sb3 backend plays its games in this process")
    try:
        _run(cfg, out, progress, ray_address, seconds)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config' / '--out'") from None


def _run(cfg, out, progress: bool, ray_address: str | None, seconds: float | None) -> None:
    """Train the run of ``cfg`` in ``out``, then say where its results are."""
    if cfg.kind == "selfplay":
        from training.loop.trainer import run_cli

        run_cli(cfg, out, seconds, progress=progress, log=click.echo, ray_address=ray_address)
        return
    try:  # the bridges import their library as they go: a missing one is its extra's
        if cfg.kind == "sb3":
            from training.bridges.sb3 import train as train_sb3

            train_sb3(cfg, out, seconds=seconds, progress=progress, log=click.echo)
        else:
            from training.bridges.rllib import train_rllib

            train_rllib(cfg, out, seconds=seconds, ray_address=ray_address, log=click.echo)
    except ModuleNotFoundError as exc:
        raise missing_package(exc, "rllib" if cfg.kind == "rllib" else "train") from None
    click.echo(f"policies: {out}/british.npz, {out}/malay.npz (play as learned:PATH); "
               f"curve: {out}/progress.csv")


@click.command()
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
@click.option("--mirror", is_flag=True,
              help="Also play the mirror (four heuristics) on the same seeds and give each "
                   "faction's difference from it, paired by seed.")
@click.option("--mirror-agent", default="heuristic", show_default=True, metavar="SPEC",
              help="With --mirror: the agent on the mirror's four seats (head to head: "
                   "--british A --malay B --mirror-agent B gives how much more A's "
                   "faction wins against B than B's own does).")
@click.option("--json", "json_path", type=OUTPUT_FILE)
@click.option("--records", "records_path", type=OUTPUT_FILE, help=RECORDS_HELP)
@click.option("--plot", "plot_path", type=OUTPUT_FILE,
              help="Write a faction win-rate chart (PNG).")
@click.option("--progress/--no-progress", default=True, show_default=True)
@rules_options
@variant_options
@engine_option
def evaluate(british, malay, players, games, seed, swap, mirror, mirror_agent, json_path,
             records_path, plot_path, progress, ruleset, no_slavery, settings, data_dir,
             workers, ray_address, engine) -> None:
    """Seeded games between an agent mix: win rates with 95% intervals (the seed as the
    unit) and ratings; with --mirror, each faction's difference from the mirror."""
    from arena.evaluate import mirror_difference, write_json
    from arena.summary import openskill_ratings
    from singapore_app.plots import plot_faction_win_rates

    from arena.runner import Table, config_changes, play_tables
    from arena.summary import summarize

    names = (parse_players(None, None, players) if players
             else [british, british, malay, malay])
    check_specs(names + [mirror_agent])
    cfg, data = variant_config(ruleset, no_slavery, settings, data_dir)
    # the mirror (four of one agent on the same seeds) in the same run: one engine for both
    tables = [Table(tuple(names), cfg, data)] + (
        [Table((mirror_agent,) * 4, cfg, data)] if mirror else [])
    played = resolve_engine([p for t in tables for p in t.players], engine, [cfg])
    both = play_tables(tables, games, seed, swap=swap, workers=workers,
                       ray_address=ray_address, progress=progress, desc="evaluating",
                       engine=engine)
    records, base = both[:len(both) // len(tables)], both[len(both) // len(tables):]
    summary = summarize(records, seed=seed, seeds=games, swap=swap, ruleset=cfg.ruleset,
                        slavery=cfg.slavery, changes=config_changes(cfg), data=data,
                        engine=played)
    summary["ratings"] = openskill_ratings(records)
    if mirror:
        summary.update(mirror_difference(records, base), mirror_agent=mirror_agent)
    click.echo(f"{summary['games']} games ({'seat-swapped' if swap else 'fixed seats'}), "
               f"seed {seed}, ruleset {ruleset}, {played} engine")
    for faction, row in summary["win_rate_by_faction"].items():
        click.echo(f"  {faction:8s} {pct(row['rate'])} {ci_text(row['ci95'])}")
        if mirror:
            base_rate, diff = summary["mirror"][faction], summary["minus_mirror"][faction]
            click.echo(f"  {'':8s} mirror ({mirror_agent} x4) {pct(base_rate['rate'])} "
                       f"{ci_text(base_rate['ci95'])}"
                       f", difference {points(diff['difference'], diff['ci95'])} points "
                       "(paired by seed)")
    for label, row in summary["win_rate_by_agent"].items():
        click.echo(f"  {label:40s} won {pct(row['rate'])} {ci_text(row['ci95'])} of its games")
    for label, r in summary["ratings"].items():
        click.echo(f"  rating {label:33s} mu {r['mu']:6.2f} sigma {r['sigma']:5.2f}")
    if json_path:
        write_json(summary, json_path)
        click.echo(f"written {json_path}")
    if records_path:
        write_records_file(records, records_path, played)
    if plot_path:
        plot_faction_win_rates({f"{names[0]} vs {names[2]}": summary}, plot_path)
        click.echo(f"written {plot_path}")


@click.command()
@click.option("--out", default="runs/demo", show_default=True, type=OUTPUT_DIR)
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Self-play config (backend \"selfplay\"; default: "
                   "training/configs/demo.toml).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=120,
              show_default=True,
              help="Seconds of self-play (run again on the same --out to train that much "
                   "longer).")
@click.option("--games", type=click.IntRange(min=1), default=30, show_default=True,
              help="Evaluation seeds per matchup (each played twice, seats swapped).")
@click.option("--ruleset", type=click.Choice(RULESETS), help="Override the config's ruleset.")
@click.option("--progress/--no-progress", default=True, show_default=True)
def demo(out, config_path, seconds, games, ruleset, progress) -> None:
    """Short batched self-play training with search in the loop, then an evaluation
    report (markdown + PNGs) in OUT."""
    from training.config import TrainConfigError
    from singapore_app.demo import run_demo

    try:
        report = run_demo(out, config_path, games, progress=progress, log=click.echo,
                          ruleset=ruleset, seconds=seconds)
    except TrainConfigError as exc:
        raise click.BadParameter(str(exc), param_hint="'--config'") from None
    click.echo(f"report: {report}")



# ---------------------------------------------------------------- ladder
def _parse_agents(ctx, param, value: str) -> list[str]:
    specs = [x.strip() for x in value.split(",")]
    if any(not x for x in specs):
        raise click.BadParameter(f"expected comma-separated agent names, got {value!r}")
    check_specs(specs)
    return list(dict.fromkeys(specs))


@click.command()
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
@engine_option
def ladder(specs, games, seed, ruleset, no_slavery, json_path, plot_path, progress,
           workers, engine) -> None:
    """Every agent against the heuristic faction and each other: win rates with 95%
    intervals next to the mirror baseline, and OpenSkill ratings."""
    from arena.evaluate import write_json
    from arena.ladder import BASE, run_ladder
    from singapore_app.plots import plot_ladder

    cfg = rules_config(ruleset, no_slavery)
    resolve_engine([BASE, *specs], engine, [cfg])  # checked, or the fallback said
    summary = run_ladder(specs, games, seed, cfg, progress=progress, workers=workers,
                         engine=engine)
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
             f"seed {summary['seed']}, ruleset {summary['ruleset']}, "
             f"{summary['engine']} engine", ""]
    base = summary["mirror_baseline"]
    lines.append(f"{'agent':<34}{'as british vs heuristic':<34}{'as malay vs heuristic':<34}")
    lines.append(f"{'(mirror baseline)':<34}" + "".join(
        f"{pct(base[f]['rate'])} {ci_text(base[f]['ci95']):<26}" for f in FACTIONS))
    for spec, rates in summary["vs_heuristic"].items():
        lines.append(f"{spec:<34}" + "".join(
            f"{pct(rates[f]['rate'])} {ci_text(rates[f]['ci95']):<26}" for f in FACTIONS))
    lines += ["", "minus the mirror, paired by seed (points)"]
    for spec, rates in summary["vs_heuristic"].items():
        lines.append(f"{spec:<34}" + "".join(
            f"{points(rates[f]['minus_mirror'], rates[f]['minus_mirror_ci95']):<34}"
            for f in FACTIONS))
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
