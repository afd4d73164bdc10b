"""A tuning study's result, confirmed on fresh seeds (:mod:`singapore_app.tune`).

* **Confirmation.** The best few settings the search found (those that reached its
  last rung) and the unchanged rules play ``confirm_seeds`` fresh seeds, each twice
  with each faction's seats exchanged (base seed :func:`confirm_seed`, never the
  search's): each candidate's British share with its interval, and its difference from
  the unchanged rules paired by seed. The best is the candidate closest to the target
  on these seeds (then the smallest change). It is *balanced within ±X* (``X`` the
  interval's farthest end from the target) only when ``X`` is within the study's
  tolerance; otherwise it is the closest found.
* **Under strong play.** With ``confirm_with``, the best settings and the unchanged
  rules again, that player in every seat, on the first ``strong_seeds`` of the same
  seeds.
* **Sensitivity.** Each knob alone at each end of its range (each value of a list),
  the other settings unchanged, on the first ``sensitivity_seeds`` of the same seeds:
  the British share's change from the unchanged rules, paired by seed (the one-knob grid
  a designer would run by hand; the report's tornado plot).
"""

from __future__ import annotations

import json
import math

import numpy as np

from arena.runner import Table, play_tables
from arena.summary import faction_wins, paired_by_seed, summarize
from singapore_env.engine.content import FACTIONS

from .tune import imbalance, measure
from .tune_spec import TuneSpec

STANDARD = "standard"


def confirm_seed(spec: TuneSpec) -> int:
    """The base seed of the confirmation's games: drawn from the study's seed, apart
    from the search's seeds."""
    return int(np.random.SeedSequence([spec.seed, 1819, 56]).generate_state(1)[0])


def _british(record: dict) -> float:
    return faction_wins(record, FACTIONS[0])


def _play(spec: TuneSpec, cells: dict, players, seeds: int, workers: int,
          ray_address) -> dict:
    """``{name: records}`` of every cell (``name -> settings``), on the same seeds."""
    tables = [Table(tuple(players), *spec.game(settings), {"variant": name})
              for name, settings in cells.items()]
    records = play_tables(tables, seeds, confirm_seed(spec), swap=True, workers=workers,
                          ray_address=ray_address)
    out: dict = {name: [] for name in cells}
    for r in records:
        out[r["variant"]].append(r)
    return out


def _cell(spec: TuneSpec, settings: dict, records: list[dict], base: list[dict] | None) -> dict:
    """A cell's summary: :func:`~singapore_app.tune.measure`, the shared summary's VP
    by source, and the paired difference from ``base``."""
    stats = measure(records)
    summary = summarize(records)
    out = {"settings": settings, **stats, "imbalance": imbalance(spec, stats),
           "change": spec.change(settings),
           "malay": summary["win_rate_by_faction"][FACTIONS[1]],
           "vp_by_source": summary["mean_vp_by_source"], "facts": summary["facts"]}
    if base is not None:
        out["difference"] = paired_by_seed(records, base, _british)
    return out


def balanced_within(spec: TuneSpec, cell: dict) -> float:
    """The farthest end of the cell's 95 % interval from the target (in the
    objective's unit)."""
    low, high = cell["ci95"] if spec.objective == "british" else cell["margin_ci95"]
    return max(abs(low - spec.target), abs(high - spec.target))


def confirm(spec: TuneSpec, candidates: list[dict], workers: int = 1,
            ray_address: str | None = None, echo=None) -> dict:
    """Play the confirmation, the strong players' replay and the sensitivity table;
    a JSON-serializable result (``best`` the chosen candidate)."""
    echo = echo or (lambda text: None)
    standard = spec.standard()
    cells = {STANDARD: standard}
    for c in candidates:
        cells.setdefault(f"trial {c['number']}", c["settings"])
    echo(f"confirming {len(cells) - 1} setting(s) on {spec.confirm_seeds} fresh seeds x 2")
    played = _play(spec, cells, spec.players, spec.confirm_seeds, workers, ray_address)
    base = played[STANDARD]
    rows = {name: _cell(spec, cells[name], played[name], None if name == STANDARD else base)
            for name in cells}
    tried = [name for name in cells if name != STANDARD] or [STANDARD]
    best_name = min(tried, key=lambda n: (rows[n]["imbalance"], rows[n]["change"]))
    best = rows[best_name]
    within = balanced_within(spec, best)
    out = {"seed": confirm_seed(spec), "seeds": spec.confirm_seeds, "baseline": rows[STANDARD],
           "candidates": {n: rows[n] for n in tried if n != STANDARD}, "best_name": best_name,
           "best": best, "within": within,
           "balanced": within <= spec.balance_tolerance + 1e-12}
    if spec.confirm_with:
        seeds = min(spec.strong_seeds, spec.confirm_seeds)
        echo(f"replaying with {spec.confirm_with} in every seat on {seeds} of those seeds x 2")
        strong = _play(spec, {STANDARD: standard, best_name: best["settings"]},
                       [spec.confirm_with] * 4, seeds, workers, ray_address)
        out["strong"] = {"players": spec.confirm_with, "seeds": seeds,
                         "baseline": _cell(spec, standard, strong[STANDARD], None),
                         "best": _cell(spec, best["settings"], strong[best_name],
                                       strong[STANDARD])}
    out["sensitivity"] = sensitivity(spec, base, workers, ray_address, echo)
    return out


def sensitivity(spec: TuneSpec, base: list[dict], workers: int, ray_address,
                echo) -> list[dict]:
    """Each knob alone at each of its values (:meth:`Knob.values`): the British share
    and its change from the unchanged rules, paired by seed (``base``: the unchanged
    rules' confirmation games, whose first seeds these games share)."""
    standard = spec.standard()
    seeds = min(spec.sensitivity_seeds, spec.confirm_seeds)
    cells = {f"{k.name}={v}": {k.name: v} for k in spec.knobs for v in k.values()
             if v != standard[k.name]}
    played = {}
    if cells:
        echo(f"one knob at a time: {len(cells)} setting(s) on {seeds} seeds x 2")
        played = _play(spec, cells, spec.players, seeds, workers, ray_address)
    shared = [r for r in base if r["game"] < seeds]
    rows = []
    for k in spec.knobs:
        for v in k.values():
            name = f"{k.name}={v}"
            records = played.get(name, shared)
            stats = measure(records)
            diff = (paired_by_seed(records, shared, _british) if name in played
                    else {"difference": 0.0, "ci95": [0.0, 0.0], "seeds": seeds})
            rows.append({"knob": k.name, "value": v, "standard": standard[k.name],
                         "british": stats["british"], "ci95": stats["ci95"],
                         "difference": diff["difference"], "difference_ci95": diff["ci95"],
                         "seeds": seeds})
    return rows


def best_json(result: dict) -> dict:
    """``best.json``: the chosen settings, their British share and interval on the
    confirmation's fresh seeds, its games, and whether the interval shows balance
    within the study's tolerance."""
    best = result["best"]
    return {"settings": best["settings"], "british": best["british"], "ci95": best["ci95"],
            "games": best["games"], "confirmed": bool(result["balanced"])}


def verdict(spec: TuneSpec, result: dict) -> str:
    """The one sentence of the result: balanced within ±X, or the closest found."""
    best, within = result["best"], result["within"]
    if spec.objective == "british":
        shown = (f"British {100 * best['british']:.1f} % "
                 f"[{100 * best['ci95'][0]:.1f}, {100 * best['ci95'][1]:.1f}]")
        amount, unit = math.ceil(100 * within - 1e-9), "points"
    else:
        shown = (f"VP margin {best['margin']:+.2f} "
                 f"[{best['margin_ci95'][0]:+.2f}, {best['margin_ci95'][1]:+.2f}]")
        amount, unit = round(within, 2), "VP"
    target = (f"{100 * spec.target:g} %" if spec.objective == "british"
              else f"{spec.target:+g} VP")
    where = f"on {result['seeds']} fresh seeds x 2 seatings (95 %)"
    if result["balanced"]:
        return f"balanced within ±{amount} {unit} of {target} {where}: {shown}"
    tolerance = (f"±{100 * spec.balance_tolerance:g} points" if spec.objective == "british"
                 else f"±{spec.balance_tolerance:g} VP")
    return (f"closest found: {shown} {where}; its interval reaches {amount} {unit} from "
            f"{target}, beyond the tolerance of {tolerance}")


def write_json(path, data) -> None:
    """Write ``data`` as indented JSON, whole or not at all."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, default=float))
    tmp.replace(path)
