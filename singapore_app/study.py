"""A balance study: agent mixes x rule variants x card-data variants, N games each.

    study = Study(mixes={"heuristic": ("heuristic",) * 4},
                  variants=[Variant("standard"),
                            Variant("capped", settings={"conflict_vp_full_strength": False})],
                  games=200, seed=1)
    records = study.run(workers=2)             # one record per game (records.py)
    result = summarize_study(study, records)   # JSON: per cell, differences, ratings

Every cell (variant x mix) plays the same seeds (game ``i`` uses
``game_seeds(seed, games)[i]``), each twice with ``swap`` (each faction's two seats
exchanged), so variants are compared on common random numbers. The first variant is
the baseline the others are compared with.

A study can be one TOML file (paths relative to the file)::

    games = 200
    seed = 1
    swap = true                       # default
    [mixes]                           # default: four heuristic players
    heuristic = ["heuristic", "heuristic", "heuristic", "heuristic"]
    mine = "bots/my_bot.py:MyBot,heuristic,heuristic,heuristic"
    [[variant]]                       # default: one variant, "standard"
    name = "standard"                 # the first is the baseline
    [[variant]]
    name = "capped conflict VP"
    ruleset = "standard"              # default
    set = {conflict_vp_full_strength = false}
    data = "my_cards"                 # an edited copy of singapore_env/engine/data (optional)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from singapore_env.engine.config import ConfigError, RulesConfig, check_keys
from singapore_env.engine.content import FACTIONS, ContentError, resolve_content
from arena.runner import Table, play_tables
from singapore_env.engine.state import VP_SOURCES
from arena.summary import (faction_source_vp, faction_wins, openskill_ratings, paired_by_seed,
                           summarize)

STUDY_SCHEMA = "singapore-1819-study/1"
#: The mix of a study that names none.
DEFAULT_MIXES = {"heuristic": ("heuristic",) * 4}


class StudyError(ValueError):
    """A study that cannot run: bad TOML, unknown key, setting, agent or data folder."""


def read_toml(path: Path) -> dict:
    """The table of a study file (a balance study's or a tuner's); StudyError if it
    cannot be read or is not TOML."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise StudyError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudyError(f"{path}: not valid TOML: {exc}") from None


@dataclass(frozen=True)
class Variant:
    """A rules and cards variant: a ruleset, changed settings, an edited data folder."""

    name: str
    ruleset: str = "standard"
    settings: dict = field(default_factory=dict)
    data: str | None = None

    def config(self) -> RulesConfig:
        """The variant's rules (ConfigError names a bad setting or value)."""
        check_keys(self.settings)
        return RulesConfig.named(self.ruleset, **self.settings)


@dataclass
class Study:
    """Mixes (name -> four agent specs, seat order) x variants, ``games`` seeds each."""

    mixes: dict
    variants: list
    games: int = 100
    seed: int = 1
    swap: bool = True

    def check(self) -> None:
        """Build every configuration, content and agent once: StudyError on any fault."""
        from agents.registry import make_agent

        if self.games < 1:
            raise StudyError(f"games must be >= 1, got {self.games}")
        if not self.mixes or not self.variants:
            raise StudyError("a study needs at least one mix and one variant")
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise StudyError(f"variant names must differ, got {names}")
        for variant in self.variants:
            try:
                resolve_content(variant.data, variant.config().slavery)
            except (ConfigError, ContentError, TypeError) as exc:
                raise StudyError(f"variant {variant.name!r}: {exc}") from None
        for name, players in self.mixes.items():
            if len(players) != 4 or not all(isinstance(p, str) and p for p in players):
                raise StudyError(f"mix {name!r} needs four agent specs, got {players!r}")
            for spec in dict.fromkeys(players):
                try:
                    make_agent(spec)
                except ValueError as exc:
                    raise StudyError(f"mix {name!r}: {exc}") from None

    def tables(self) -> list[Table]:
        """One table per cell, variants outer, mixes inner."""
        return [Table(tuple(players), variant.config(), variant.data,
                      {"variant": variant.name, "mix": mix})
                for variant in self.variants for mix, players in self.mixes.items()]

    def run(self, workers: int = 1, ray_address: str | None = None,
            progress: bool = False, engine: str | None = None) -> list[dict]:
        """Play the study on ``engine`` (None: one for every cell,
        :func:`arena.runner.run_engine`); the per-game records (identical for any
        ``workers`` and either engine)."""
        self.check()
        return play_tables(self.tables(), self.games, self.seed, swap=self.swap,
                           workers=workers, ray_address=ray_address, progress=progress,
                           desc="study", engine=engine)

    def to_dict(self) -> dict:
        return {"games": self.games, "seed": self.seed, "swap": self.swap,
                "mixes": {k: list(v) for k, v in self.mixes.items()},
                "variants": [{"name": v.name, "ruleset": v.ruleset, "set": v.settings,
                              "data": v.data} for v in self.variants]}

    @classmethod
    def from_toml(cls, path: str | Path) -> "Study":
        """Read a study file (format in the module docstring); StudyError if it is bad."""
        path = Path(path)
        return cls.from_dict(read_toml(path), base=path.parent, where=str(path))

    @classmethod
    def from_dict(cls, raw: dict, base: Path = Path("."), where: str = "study") -> "Study":
        unknown = sorted(set(raw) - {"games", "seed", "swap", "mixes", "variant"})
        if unknown:
            raise StudyError(f"{where}: unknown key(s) {unknown}; keys: games, seed, swap, "
                             f"mixes, variant")
        mixes = {name: _players(p) for name, p in raw.get("mixes", DEFAULT_MIXES).items()}
        variants = [_variant(v, base, where) for v in raw.get("variant", [{"name": "standard"}])]
        study = cls(mixes, variants, **{k: raw[k] for k in ("games", "seed", "swap") if k in raw})
        if not isinstance(study.games, int) or not isinstance(study.seed, int) or study.seed < 0:
            raise StudyError(f"{where}: games and seed must be non-negative integers")
        return study


def _players(value) -> tuple:
    return tuple(x.strip() for x in value.split(",")) if isinstance(value, str) else tuple(value)


def _variant(raw: dict, base: Path, where: str) -> Variant:
    unknown = sorted(set(raw) - {"name", "ruleset", "set", "data"})
    if unknown or "name" not in raw:
        raise StudyError(f"{where}: a [[variant]] has a name and optionally ruleset, set, "
                         f"data; got {sorted(raw)}")
    data = raw.get("data")
    return Variant(str(raw["name"]), raw.get("ruleset", "standard"), dict(raw.get("set", {})),
                   str((base / data).resolve()) if data else None)


# ---------------------------------------------------------------- results
def summarize_study(study: Study, records: list[dict], seconds: float | None = None,
                    engine: str | None = None) -> dict:
    """Per cell the shared summary; per non-baseline cell its difference from the
    baseline variant (same mix): faction win rates and mean VP by source; OpenSkill
    ratings over every agent of the study (if openskill is installed); the ``engine``
    that played it, when given."""
    cells = []
    for variant in study.variants:
        for mix in study.mixes:
            rows = [r for r in records if r["variant"] == variant.name and r["mix"] == mix]
            cells.append({"variant": variant.name, "mix": mix,
                          "summary": summarize(rows, ruleset=variant.ruleset,
                                               changes=variant.settings, data=variant.data)})
    out = {"schema": STUDY_SCHEMA, "study": study.to_dict(), "games": len(records),
           "cells": cells, "differences": _differences(study, cells, records)}
    if engine is not None:
        out["engine"] = engine
    if seconds is not None:
        out["seconds"] = seconds
        out["games_per_second"] = len(records) / max(seconds, 1e-9)
    try:
        out["ratings"] = openskill_ratings(records)
    except ImportError:  # openskill is an optional extra
        out["ratings"] = None
    return out


def _differences(study: Study, cells: list[dict], records: list[dict]) -> list[dict]:
    """Each non-baseline cell minus the baseline cell of its mix, paired by seed (the
    same seeds and seatings in both cells; :func:`arena.summary.paired_by_seed`): the
    faction win rates and the mean VP by source."""
    base_name = study.variants[0].name
    rows: dict = {}
    for r in records:
        rows.setdefault((r["variant"], r["mix"]), []).append(r)
    out = []
    for cell in cells:
        if cell["variant"] == base_name:
            continue
        now, ref = rows[(cell["variant"], cell["mix"])], rows[(base_name, cell["mix"])]
        rates = {f: paired_by_seed(now, ref, lambda r, f=f: faction_wins(r, f))
                 for f in FACTIONS}
        vp = {f: {src: paired_by_seed(now, ref, lambda r, f=f, src=src:
                                      faction_source_vp(r, f, src))
                  for src in VP_SOURCES} for f in FACTIONS}
        out.append({"variant": cell["variant"], "baseline": base_name, "mix": cell["mix"],
                    "win_rate_by_faction": rates, "mean_vp_by_source": vp})
    return out
