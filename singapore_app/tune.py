"""The balance tuner's search: Optuna proposes settings of the study's knobs
(:mod:`singapore_app.tune_spec`), the arena plays them, successive halving stops the
bad ones early.

    spec = TuneSpec([parse_knob("outlaw_vp=2:12")], trials=30, seed=1)
    search = Search(spec, "runs/tune", workers=2)
    search.run()                      # until the study holds spec.trials trials
    rows = search.rows()              # one per finished trial (trials.csv)

**Objectives.** Two, minimized: the *imbalance*, ``|British share - target|`` (or
``|VP margin - target|``), plus a penalty (1, or 100 VP) when the trial's games break a
constraint; and the *change*, how far the settings are from the unchanged rules
(:meth:`~singapore_app.tune_spec.TuneSpec.change`). TPE (the default) searches both
(Optuna's multi-objective TPE); CMA-ES searches the imbalance alone (it is single
objective), the change being recorded. The Pareto front is read from the trials.

**Paired, multi-fidelity.** Every trial plays the same seeds (game ``i`` is
``game_seeds(seed, n)[i]`` for any ``n``), each twice with each faction's seats
exchanged. Rung ``r`` plays seeds up to ``rungs[r]``: a trial plays the first rung,
then goes on to the next one only while its 95 % interval still holds the target or
its imbalance ranks within the best ``1/eta`` of all the trials that reached that rung
(asynchronous successive halving, run here by hand: Optuna's pruners do not take
multi-objective studies; the interval keeps every setting that may be balanced, so
that the last rung measures them all precisely). A stopped
trial reports the values of its last rung, marked ``pruned``; only trials that
reached the last rung are candidates for the best settings. A setting proposed
again reuses the earlier trial's games.

**Reproducible and resumable.** The study lives in ``DIR/study.db`` (Optuna's RDB
storage on SQLite: every trial committed as it ends; no server). Trial ``k`` is asked
with a sampler seeded from ``(seed, k)``, so the proposals depend only on the seed and
the trials before, and a run stopped in the middle of a trial and started again (the
unfinished trial marked failed and asked again) proposes what an uninterrupted run
would have. ``DIR/study.json`` holds the study's definition; a second run must agree.
"""

from __future__ import annotations

import csv
import json
import logging
import math
import time
import warnings
from pathlib import Path

import numpy as np

from arena.runner import Table, play_tables
from arena.summary import by_seed, clustered_mean, faction_source_vp, faction_wins, rate
from singapore_env.engine.content import FACTIONS, SEAT_NAMES
from singapore_env.engine.state import VP_SOURCES

from .study import StudyError
from .tune_spec import TuneSpec

STUDY_NAME = "balance-tune"
#: Games below which a rung is played in this process (a worker pool costs more).
POOL_MIN_GAMES = 400
#: TPE's first trials, drawn at random before it models the others.
STARTUP = 10


def measure(records: list[dict]) -> dict:
    """What a tuner reads of a set of games: the British share of wins and its
    interval, the VP margin (British minus Malay, per seat) and its interval, the
    mean decisions per game and each VP source's share of all VP."""
    british = rate(records, lambda r: faction_wins(r, FACTIONS[0]))
    margin, margin_ci = clustered_mean(by_seed(records, _margin))
    total = sum(r[f"vp_{s}"] for r in records for s in SEAT_NAMES) or 1
    shares = {src: sum(r[f"vp_{s}_{src}"] for r in records for s in SEAT_NAMES) / total
              for src in VP_SOURCES}
    return {"british": british["rate"], "ci95": british["ci95"], "margin": margin,
            "margin_ci95": margin_ci, "seeds": british["seeds"], "games": len(records),
            "decisions": sum(r["decisions"] for r in records) / len(records),
            "vp_share": shares}


def _margin(record: dict) -> float:
    return sum(faction_source_vp(record, FACTIONS[0], s) - faction_source_vp(record, FACTIONS[1], s)
               for s in VP_SOURCES)


def violations(spec: TuneSpec, stats: dict) -> list[str]:
    """The constraints ``stats`` (:func:`measure`) breaks, as text."""
    out = []
    for key, (low, high) in spec.constraints.items():
        kind, _, source = key.partition(".")
        value = stats["decisions"] if key == "decisions" else stats["vp_share"][source]
        if not low <= value <= high:
            out.append(f"{key} {value:.3g} outside [{low:g}, {high:g}]")
    return out


def imbalance(spec: TuneSpec, stats: dict) -> float:
    """The first objective: distance to the target, plus the penalty of a broken
    constraint."""
    value = stats["british"] if spec.objective == "british" else stats["margin"]
    return abs(value - spec.target) + (spec.penalty if violations(spec, stats) else 0.0)


def _quiet_optuna():
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna


class Search:
    """A tuning study's search in the folder ``out`` (created; resumed if it holds one)."""

    def __init__(self, spec: TuneSpec, out: str | Path, workers: int = 1,
                 ray_address: str | None = None, echo=None):
        self.spec, self.out = spec, Path(out)
        self.workers, self.ray_address = workers, ray_address
        self.echo = echo or (lambda text: None)
        self.optuna = _quiet_optuna()
        self.out.mkdir(parents=True, exist_ok=True)
        self._check_same_study()
        if spec.workdir is None:  # the card-data knobs' edited data: DIR/data/<hash>/
            spec.workdir = str(self.out)
        self.storage = self.optuna.storages.RDBStorage(f"sqlite:///{self.out / 'study.db'}")
        directions = ["minimize", "minimize"] if spec.sampler == "tpe" else ["minimize"]
        self.study = self.optuna.create_study(study_name=STUDY_NAME, storage=self.storage,
                                              directions=directions, load_if_exists=True)
        self.games_played = 0

    def _check_same_study(self) -> None:
        path = self.out / "study.json"
        mine = self.spec.search_key()
        if path.exists():
            theirs = json.loads(path.read_text()).get("search")
            if theirs != mine:
                diff = sorted(k for k in mine if mine.get(k) != (theirs or {}).get(k))
                raise StudyError(f"{self.out} holds another study ({', '.join(diff)} differ): "
                                 f"give the same study, or another --out")
        elif (self.out / "study.db").exists():
            raise StudyError(f"{self.out} holds a study.db without its study.json: "
                             f"give another --out")
        path.write_text(json.dumps({"search": mine, "spec": self.spec.to_dict()}, indent=2))

    # ------------------------------------------------------------ the loop
    def finished(self) -> list:
        """The study's finished trials, in order."""
        state = self.optuna.trial.TrialState.COMPLETE
        return self.study.get_trials(deepcopy=False, states=(state,))

    def run(self, progress: bool = False) -> None:
        """Play trials until the study holds ``spec.trials`` finished ones (a trial left
        unfinished by a stopped run is marked failed and asked again); write
        ``trials.csv`` after each."""
        running = self.optuna.trial.TrialState.RUNNING
        for trial in self.study.get_trials(deepcopy=False, states=(running,)):
            self.study.tell(trial.number, state=self.optuna.trial.TrialState.FAIL)
        done = len(self.finished())
        if done:
            self.echo(f"resuming: {done} of {self.spec.trials} trials already finished")
        while len(self.finished()) < self.spec.trials:
            row = self._one_trial(len(self.finished()))
            self.write_csv()
            if progress:
                self.echo(_progress_line(row, self.spec))
        self.write_csv()

    def _sampler(self, k: int):
        """The sampler of trial ``k``: seeded from the study's seed and ``k``, with
        nothing that depends on the study's total (a study continued with more trials
        asks what one run of them would)."""
        seed = int(np.random.SeedSequence([self.spec.seed, k]).generate_state(1)[0])
        samplers = self.optuna.samplers
        if self.spec.sampler == "cmaes":
            return samplers.CmaEsSampler(seed=seed, with_margin=True,
                                         warn_independent_sampling=False)
        return samplers.TPESampler(seed=seed, multivariate=True, n_startup_trials=STARTUP)

    def _one_trial(self, k: int) -> dict:
        """Ask, play and tell trial ``k`` (the first plays the unchanged rules when the
        knobs' ranges hold them: the change 0 end of the Pareto front)."""
        std = self.spec.standard()
        waiting = self.study.get_trials(deepcopy=False,
                                        states=(self.optuna.trial.TrialState.WAITING,))
        if k == 0 and not waiting and all(knob.contains(std[knob.name])
                                          for knob in self.spec.knobs):
            self.study.enqueue_trial(std)
        self.study.sampler = self._sampler(k)
        trial = self.study.ask()
        settings = {knob.name: knob.suggest(trial) for knob in self.spec.knobs}
        attrs = self._earlier(settings) or self._play(settings)
        trial.set_user_attr("result", attrs)  # one attribute: one commit
        values = [attrs["imbalance"], attrs["change"]][:len(self.study.directions)]
        self.study.tell(trial, values)
        return {"number": k, **attrs}

    def _earlier(self, settings: dict) -> dict | None:
        """The results of a finished trial with the same settings, if any."""
        for row in self.rows():
            if row["settings"] == settings:
                attrs = {k: v for k, v in row.items() if k != "number"}
                attrs["repeat_of"] = row["number"] if row["repeat_of"] is None \
                    else row["repeat_of"]
                attrs["seconds"] = 0.0
                return attrs
        return None

    def _play(self, settings: dict) -> dict:
        spec = self.spec
        table = Table(tuple(spec.players), *spec.game(settings))
        start, records, rung_values = time.perf_counter(), [], []
        pruned = False
        for r, seeds in enumerate(spec.rungs):
            first = spec.rungs[r - 1] if r else 0
            games = 2 * (seeds - first)
            records += play_tables([table], seeds, spec.seed, swap=True, first=first,
                                   workers=self.workers if games >= POOL_MIN_GAMES else 1,
                                   ray_address=self.ray_address)
            self.games_played += games
            stats = measure(records)
            rung_values.append(imbalance(spec, stats))
            if r + 1 < len(spec.rungs) and not self._promoted(r, rung_values[-1], stats):
                pruned = True
                break
        return {"settings": settings, **stats, "imbalance": rung_values[-1],
                "change": spec.change(settings),
                "changed": sum(settings[k] != v for k, v in spec.standard().items()),
                "violations": violations(spec, stats), "rung": len(rung_values) - 1,
                "rung_imbalance": rung_values, "pruned": pruned, "repeat_of": None,
                "seconds": time.perf_counter() - start}

    def _promoted(self, rung: int, value: float, stats: dict) -> bool:
        """Whether a trial goes on from ``rung``: its 95 % interval there (``stats``,
        :func:`measure`) still holds the target and it breaks no constraint (it may be
        balanced: more seeds will tell), or its imbalance ``value`` ranks within the
        best ``1/eta`` of the trials that reached that rung (itself included)."""
        low, high = stats["ci95"] if self.spec.objective == "british" else stats["margin_ci95"]
        if low <= self.spec.target <= high and not violations(self.spec, stats):
            return True
        others = [r["rung_imbalance"][rung] for r in self.rows()
                  if r["repeat_of"] is None and len(r["rung_imbalance"]) > rung]
        better = sum(v < value for v in others)
        return better < math.ceil((len(others) + 1) / self.spec.eta)

    # ------------------------------------------------------------ results
    def rows(self) -> list[dict]:
        """One row per finished trial: its number (among the finished trials: a trial
        a stopped run left unfinished and asked again has one number), settings and
        results."""
        return [{"number": i, **t.user_attrs["result"]} for i, t in enumerate(self.finished())]

    def candidates(self) -> list[dict]:
        """The best distinct settings that reached the last rung, best first (by
        imbalance, then change), at most ``spec.confirm_best``."""
        last = len(self.spec.rungs) - 1
        full = [r for r in self.rows() if r["rung"] == last and r["repeat_of"] is None]
        full.sort(key=lambda r: (r["imbalance"], r["change"], r["number"]))
        return full[:self.spec.confirm_best]

    def importances(self) -> dict:
        """Each knob's importance for a low imbalance (Optuna's PED-ANOVA over the
        finished trials: which knobs set the best trials apart; no scikit-learn
        needed, unlike fANOVA); empty when too few trials vary."""
        evaluator = self.optuna.importance.PedAnovaImportanceEvaluator()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # "low target values": meant
                return self.optuna.importance.get_param_importances(
                    self.study, evaluator=evaluator, target=lambda t: t.values[0])
        except (ValueError, RuntimeError):
            return {}

    def write_csv(self) -> Path:
        """``trials.csv``: one row per finished trial."""
        path = self.out / "trials.csv"
        knobs = [k.name for k in self.spec.knobs]
        header = ["number", *knobs, "seeds", "games", "british", "british_low",
                  "british_high", "margin", "decisions", "imbalance", "change", "rung",
                  "pruned", "repeat_of", "violations", "seconds"]
        tmp = path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(header)
            for r in self.rows():
                writer.writerow([r["number"], *(r["settings"][k] for k in knobs), r["seeds"],
                                 r["games"], f"{r['british']:.4f}", f"{r['ci95'][0]:.4f}",
                                 f"{r['ci95'][1]:.4f}", f"{r['margin']:.3f}",
                                 f"{r['decisions']:.1f}", f"{r['imbalance']:.4f}",
                                 f"{r['change']:.4f}", r["rung"], r["pruned"],
                                 "" if r["repeat_of"] is None else r["repeat_of"],
                                 "; ".join(r["violations"]), f"{r['seconds']:.2f}"])
        tmp.replace(path)
        return path


def _progress_line(row: dict, spec: TuneSpec) -> str:
    shown = ", ".join(f"{k}={v}" for k, v in row["settings"].items())
    state = ("repeat of %d" % row["repeat_of"] if row["repeat_of"] is not None
             else "pruned at rung %d" % row["rung"] if row["pruned"] else "full")
    return (f"  trial {row['number']:3d}: {shown}: british {100 * row['british']:.1f} % "
            f"[{100 * row['ci95'][0]:.1f}, {100 * row['ci95'][1]:.1f}] on {row['seeds']} seeds "
            f"({state})")


def pareto_front(rows: list[dict]) -> list[dict]:
    """The trials no other trial beats on both imbalance and change (ties kept once),
    smallest change first."""
    front = [r for r in rows
             if not any((o["imbalance"] <= r["imbalance"] and o["change"] <= r["change"])
                        and (o["imbalance"] < r["imbalance"] or o["change"] < r["change"])
                        for o in rows)]
    seen, out = set(), []
    for r in sorted(front, key=lambda r: (r["change"], r["imbalance"], r["number"])):
        key = json.dumps(r["settings"], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out
