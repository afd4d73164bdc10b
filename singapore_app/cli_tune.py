"""``singapore-1819 balance tune``: search the rule settings that even the factions
(:mod:`singapore_app.tune`), confirm them on fresh seeds and under strong play
(:mod:`singapore_app.tune_confirm`), and write ``trials.csv``, ``best.json``,
``summary.json`` and ``report.md`` with its figures (:mod:`singapore_app.tune_report`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from singapore_env.engine.config import RULESETS

from .cli_options import OUTPUT_DIR, missing_package, parse_players

#: The options that override a study file's values: option -> TuneSpec field.
OVERRIDES = {"trials": "trials", "seed": "seed", "sampler": "sampler", "eta": "eta",
             "confirm_seeds": "confirm_seeds", "confirm_best": "confirm_best",
             "confirm_with": "confirm_with", "strong_seeds": "strong_seeds",
             "sensitivity_seeds": "sensitivity_seeds", "tolerance": "tolerance",
             "ruleset": "ruleset"}


def _players(ctx, param, value):
    return None if value is None else tuple(parse_players(ctx, param, value))


def _confirm_with(ctx, param, value):
    if value is not None:
        from .cli_options import check_specs

        check_specs([value])
    return value


def _target(ctx, param, value):
    if value is None:
        return None
    kind, sep, number = (x.strip() for x in value.partition("="))
    try:
        target = float(number)
    except ValueError:
        target = None
    if not sep or kind not in ("british", "margin") or target is None:
        raise click.BadParameter(f"a target is british=SHARE (e.g. british=0.5) or margin=VP "
                                 f"(e.g. margin=0), got {value!r}")
    if kind == "british" and not 0 < target < 1:
        raise click.BadParameter(f"the British share is within 0..1, got {target:g}")
    return kind, target


def _rungs(ctx, param, value):
    if value is None:
        return None
    try:
        return tuple(int(x) for x in value.split(","))
    except ValueError:
        raise click.BadParameter(f"rungs are seed counts N,N,... (e.g. 64,256,1024), "
                                 f"got {value!r}") from None


@click.command("tune")
@click.argument("study_file", required=False, type=click.Path(dir_okay=False))
@click.option("--knob", "knobs", multiple=True, metavar="NAME=LOW:HIGH|NAME=a,b,c|NAME",
              help="A rules setting or card-data number (card.ID.FIELD, board.FIELD; "
                   "docs/balance.md) to search (repeatable): integers LOW..HIGH, a list "
                   "of values, or a boolean setting's name alone (both values).")
@click.option("--players", callback=_players, metavar="A,B,C,D",
              help="The four players of every game  [default: four heuristics]")
@click.option("--target", callback=_target, metavar="british=SHARE|margin=VP",
              help="The objective: the British share of wins -> SHARE, or the VP margin "
                   "(British minus Malay per seat) -> VP  [default: british=0.5]")
@click.option("--constraint", "constraints", multiple=True, metavar="NAME=LOW:HIGH",
              help="Keep a mean within bounds (repeatable): decisions (per game) or "
                   "vp_share.SOURCE (a VP source's share of all VP).")
@click.option("--ruleset", type=click.Choice(RULESETS),
              help="The unchanged rules  [default: standard]")
@click.option("--trials", type=click.IntRange(min=1),
              help="The study's total number of trials (a second run on the same --out "
                   "plays those the first left)  [default: 40]")
@click.option("--seed", type=click.IntRange(min=0),
              help="The sampler's seed and the games' base seed  [default: 1]")
@click.option("--sampler", type=click.Choice(["tpe", "cmaes"]),
              help="Optuna's sampler: multi-objective TPE, or CMA-ES on the imbalance "
                   "alone  [default: tpe]")
@click.option("--rungs", callback=_rungs, metavar="N,N,...",
              help="Seeds per rung of successive halving, each played twice  "
                   "[default: 64,256,1024]")
@click.option("--eta", type=click.IntRange(min=2),
              help="One trial in ETA goes on to the next rung  [default: 3]")
@click.option("--confirm-seeds", type=click.IntRange(min=1),
              help="Fresh seeds (x 2 seatings) the best settings replay on  [default: 1000]")
@click.option("--confirm-best", type=click.IntRange(min=1),
              help="How many of the best settings replay  [default: 3]")
@click.option("--confirm-with", callback=_confirm_with, metavar="SPEC",
              help="Replay the found settings with this player in every seat too (e.g. "
                   "learned:zero).")
@click.option("--strong-seeds", type=click.IntRange(min=1),
              help="Seeds of the --confirm-with replay  [default: 200]")
@click.option("--sensitivity-seeds", type=click.IntRange(min=1),
              help="Seeds of the one-knob-at-a-time table  [default: 300]")
@click.option("--tolerance", type=click.FloatRange(min=0),
              help="'Balanced within' needs the 95 % interval inside target +- this "
                   "[default: 0.05 of share, 2 VP of margin]")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes playing a trial's games (the results do not depend on it).")
@click.option("--ray", "ray_address", metavar="auto|local|ADDRESS",
              help="Play the games on a Ray cluster (pip install 'singapore-1819[ray]').")
@click.option("--out", required=True, type=OUTPUT_DIR,
              help="The study's folder: study.db, trials.csv, best.json, report.md...")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="A line per trial.")
def tune(study_file, knobs, players, target, constraints, rungs, workers, ray_address, out,
         progress, **options) -> None:
    """Search the rule settings that even the factions: Optuna proposes settings of the
    knobs, seat-swapped games on the same seeds measure them, successive halving stops
    the bad ones early; the best are replayed on fresh seeds against the unchanged
    rules (and with --confirm-with in every seat).

    STUDY_FILE (TOML, docs/balance.md) names the knobs and the rest; without it,
    --knob names them (or, to continue a study, --out alone). The options override
    the file's values."""
    from arena.runner import RayUnavailable

    from .study import StudyError

    try:
        spec = _spec(study_file, knobs, players, target, constraints, rungs, out, options)
        spec.check()
        try:  # checked before any work
            import optuna  # noqa: F401
            if spec.sampler == "cmaes":
                import cmaes  # noqa: F401
        except ModuleNotFoundError as exc:
            raise missing_package(exc, "lab") from None
        _run(spec, out, workers, ray_address, progress)
    except StudyError as exc:
        raise click.UsageError(str(exc)) from None
    except RayUnavailable as exc:
        raise click.UsageError(str(exc)) from None


def _spec(study_file, knobs, players, target, constraints, rungs, out, options):
    from .study import StudyError
    from .tune_spec import TuneSpec, parse_constraint, parse_knob

    saved = Path(out) / "study.json"
    if study_file and knobs:
        raise StudyError("give either a study file or --knob, not both")
    if study_file:
        spec = TuneSpec.from_toml(study_file)
    elif knobs:
        spec = TuneSpec([parse_knob(text) for text in knobs])
    elif saved.exists():
        spec = TuneSpec.from_dict(_file_form(json.loads(saved.read_text())["spec"]))
    else:
        raise StudyError("name the knobs: a study file, or --knob NAME=LOW:HIGH (repeatable)")
    for option, key in OVERRIDES.items():
        if options.get(option) is not None:
            setattr(spec, key, options[option])
    if players is not None:
        spec.players = players
    if target is not None:
        spec.objective, spec.target = target
    if rungs is not None:
        spec.rungs = rungs
    if constraints:
        spec.constraints = dict(parse_constraint(text) for text in constraints)
    return spec


def _file_form(saved: dict) -> dict:
    """A study's saved definition (``study.json``) as a study file's table."""
    knobs = {}
    for text in saved["knobs"]:
        name, _, values = text.partition("=")
        knobs[name] = values
    confirm = {"seeds": saved["confirm_seeds"], "best": saved["confirm_best"],
               "strong_seeds": saved["strong_seeds"],
               "sensitivity_seeds": saved["sensitivity_seeds"]}
    confirm.update({k: saved[f] for k, f in (("with", "confirm_with"),
                                             ("tolerance", "tolerance")) if saved[f] is not None})
    raw = {k: saved[k] for k in ("seed", "trials", "players", "ruleset", "sampler", "rungs",
                                 "eta") if saved[k] is not None}
    raw.update(knobs=knobs, objective={saved["objective"]: saved["target"]},
               constraints=saved["constraints"], confirm=confirm)
    if saved["data"]:
        raw["data"] = saved["data"]
    return raw


def _run(spec, out, workers, ray_address, progress) -> None:
    from .tune import Search, pareto_front
    from .tune_confirm import best_json, confirm, verdict, write_json
    from .tune_report import write_report

    start = time.perf_counter()
    search = Search(spec, out, workers=workers, ray_address=ray_address, echo=click.echo)
    search.run(progress=progress)
    searched = time.perf_counter() - start
    rows = search.rows()
    last = len(spec.rungs) - 1
    confirmation = confirm(spec, search.candidates(), workers, ray_address, echo=click.echo)
    result = {"spec": spec.to_dict(), "trials": rows,
              "pareto": pareto_front([r for r in rows
                                      if r["rung"] == last and r["repeat_of"] is None]),
              "importances": search.importances(), "confirmation": confirmation,
              "search": {"games": search.games_played, "seconds": searched,
                         "total_seconds": time.perf_counter() - start},
              "verdict": verdict(spec, confirmation),
              "command": "singapore-1819 " + " ".join(sys.argv[1:])}
    out = Path(out)
    write_json(out / "summary.json", result)
    write_json(out / "best.json", best_json(confirmation))
    report = write_report(result, out)
    click.echo(result["verdict"])
    click.echo("settings: " + ", ".join(f"{k}={v}" for k, v in
                                         confirmation["best"]["settings"].items()))
    click.echo(f"best: {out / 'best.json'}  trials: {out / 'trials.csv'}  report: {report}")
