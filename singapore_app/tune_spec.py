"""What a tuning study searches (``singapore-1819 balance tune``): the knobs, the
players, the objective and its constraints, the sampler and the rungs of successive
halving, and the confirmation; read from a TOML file or from the quick form's options.

A study file (every key but ``[knobs]`` optional; paths relative to the file)::

    seed = 1                  # the sampler's seed and the base seed of the games
    trials = 40               # the study's total (a second run finishes what is left)
    players = "heuristic,heuristic,heuristic,heuristic"   # any four agent specs
    ruleset = "standard"      # the unchanged rules the knobs move away from
    data = "my_cards"         # an edited copy of the card files (optional, fixed)
    sampler = "tpe"           # or "cmaes"
    rungs = [64, 256, 1024]   # seeds per rung of successive halving (each played twice)
    eta = 3                   # one trial in eta goes on to the next rung
    [objective]
    british = 0.5             # the British share of wins -> 0.5; or: margin = 0 (VP)
    [knobs]                   # rules settings (RulesConfig's names, as --set)
    outlaw_vp = "2:12"        # integers LOW..HIGH
    "card.cathedral.price" = "4:8"   # a card-data number (singapore_app.tune_data)
    leader_money = [1, 2, 4]  # a list (or "1,2,4")
    conflict_vp_full_strength = [true, false]
    [constraints]             # optional: the mean over a trial's games within bounds
    decisions = [250, 400]    # decisions per game (the game's length)
    "vp_share.decree" = [0.0, 0.08]   # a VP source's share of all VP
    [confirm]
    seeds = 1000              # fresh seeds (x 2 seatings) the best settings replay on
    best = 3                  # how many of the best settings replay
    tolerance = 0.05          # "balanced within" needs the interval inside target +- this
    with = "learned:zero"     # optional: strong players in every seat, the same seeds
    strong_seeds = 200        # seeds of that replay
    sensitivity_seeds = 300   # seeds of the one-knob-at-a-time table

The same fields come from ``--knob``, ``--players``, ``--target`` and the other options
(:mod:`singapore_app.cli_tune`).
"""

from __future__ import annotations

import dataclasses
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from singapore_env.engine.config import ConfigError, RulesConfig, check_keys, parse_setting
from singapore_env.engine.content import ContentError, resolve_content
from singapore_env.engine.state import VP_SOURCES

from .study import StudyError, read_toml
from .tune_data import is_data_knob, standard_value, variant_folder

#: The objectives: the British share of wins (a fraction) or the VP margin, British
#: minus Malay per seat, and the imbalance a trial that breaks a constraint adds.
OBJECTIVES = {"british": 1.0, "margin": 100.0}
#: The tolerance of "balanced within" by objective when the study names none.
DEFAULT_TOLERANCE = {"british": 0.05, "margin": 2.0}
SAMPLERS = ("tpe", "cmaes")
DEFAULT_PLAYERS = ("heuristic",) * 4
#: The keys whose values make a study: a second run on the same folder must agree.
SEARCH_KEYS = ("knobs", "players", "ruleset", "data", "objective", "target", "constraints",
               "sampler", "seed", "rungs", "eta")


@dataclass(frozen=True)
class Knob:
    """A rules setting a study moves: integers ``low..high`` or one of ``choices``."""

    name: str
    low: int | None = None
    high: int | None = None
    choices: tuple = ()

    @property
    def is_range(self) -> bool:
        return not self.choices

    def values(self) -> list:
        """The values the check and the sensitivity table try: a range's two ends, or
        every choice."""
        return [self.low, self.high] if self.is_range else list(self.choices)

    def suggest(self, trial):
        """This knob's value in an Optuna trial."""
        if self.is_range:
            return trial.suggest_int(self.name, self.low, self.high)
        return trial.suggest_categorical(self.name, list(self.choices))

    def contains(self, value) -> bool:
        if self.is_range:
            return isinstance(value, int) and self.low <= value <= self.high
        return value in self.choices

    def distance(self, value, standard) -> float:
        """How far ``value`` is from the standard one: a range's (or a numeric list's)
        difference over its span; another choice counts 1."""
        if value == standard:
            return 0.0
        numbers = self.values()
        if all(isinstance(x, int) and not isinstance(x, bool) for x in numbers + [standard]):
            span = max(numbers) - min(numbers)
            return abs(value - standard) / span if span else 1.0
        return 1.0

    def text(self) -> str:
        """The knob as ``--knob`` writes it."""
        if self.is_range:
            return f"{self.name}={self.low}:{self.high}"
        return f"{self.name}=" + ",".join(_value_text(x) for x in self.choices)


def _value_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_knob(text: str, value=None) -> Knob:
    """A knob from ``NAME=LOW:HIGH``, ``NAME=a,b,c`` or ``NAME`` (a boolean setting: both
    values), or from a name and a TOML value (``"LOW:HIGH"``, ``"a,b"``, a list).
    StudyError names what is wrong."""
    if value is None:
        name, sep, raw = (x.strip() for x in text.partition("="))
        if not sep:
            raw = None
    else:
        name, raw = text, value
    if is_data_knob(name):
        return _data_knob(name, raw)
    try:
        check_keys({name: None})
    except ConfigError as exc:
        raise StudyError(f"knob {name!r}: {exc}") from None
    standard = getattr(RulesConfig(), name)
    if raw is None:
        if not isinstance(standard, bool):
            raise StudyError(f"knob {name!r}: give its values, NAME=LOW:HIGH or NAME=a,b,c "
                             f"(only a boolean setting may be named alone)")
        return Knob(name, choices=(False, True))
    if isinstance(raw, str) and ":" in raw:
        if type(standard) is not int:
            raise StudyError(f"knob {name!r}: a range needs an integer setting; {name} is "
                             f"a {type(standard).__name__}: list its values (a,b,c)")
        knob = Knob(name, *_int_range(name, raw))
    else:
        items = [x.strip() for x in raw.split(",")] if isinstance(raw, str) else raw
        if not isinstance(items, list) or len(items) < 2:
            raise StudyError(f"knob {name!r}: a list needs at least two values, got {raw!r}")
        try:
            values = [parse_setting(f"{name}={x}")[1] if isinstance(x, str) else x
                      for x in items]
        except ConfigError as exc:
            raise StudyError(f"knob {name!r}: {exc}") from None
        if len(set(map(repr, values))) != len(values):
            raise StudyError(f"knob {name!r}: a list's values must differ, got {raw!r}")
        knob = Knob(name, choices=tuple(values))
    for v in knob.values():
        try:
            RulesConfig(**{name: v})
        except (ConfigError, TypeError) as exc:
            raise StudyError(f"knob {name!r}: {exc}") from None
    return knob


def _int_range(name: str, raw: str) -> tuple[int, int]:
    """``LOW:HIGH`` of knob ``name`` as two integers, LOW below HIGH; StudyError if not."""
    low, _, high = raw.partition(":")
    try:
        bounds = int(low), int(high)
    except ValueError:
        raise StudyError(f"knob {name!r}: a range is two integers LOW:HIGH, "
                         f"got {raw!r}") from None
    if bounds[0] >= bounds[1]:
        raise StudyError(f"knob {name!r}: LOW must be below HIGH, got {raw!r}")
    return bounds


def _data_knob(name: str, raw) -> Knob:
    """A card-data knob (:mod:`singapore_app.tune_data`): integers only, its name
    checked against the shipped data (the values are checked by
    :meth:`TuneSpec.check`, which builds the data they give)."""
    standard_value(name)
    if raw is None:
        raise StudyError(f"knob {name!r}: give its values, NAME=LOW:HIGH or NAME=a,b,c")
    if isinstance(raw, str) and ":" in raw:
        return Knob(name, *_int_range(name, raw))
    items = [x.strip() for x in raw.split(",")] if isinstance(raw, str) else raw
    if not isinstance(items, list) or len(items) < 2:
        raise StudyError(f"knob {name!r}: a list needs at least two values, got {raw!r}")
    try:
        values = [int(x) if isinstance(x, str) else x for x in items]
    except ValueError:
        values = []
    if not values or any(type(v) is not int for v in values):
        raise StudyError(f"knob {name!r}: a card-data number takes integers, got {raw!r}")
    if len(set(values)) != len(values):
        raise StudyError(f"knob {name!r}: a list's values must differ, got {raw!r}")
    return Knob(name, choices=tuple(values))


@dataclass
class TuneSpec:
    """A tuning study: what it searches, how, and how its result is confirmed."""

    knobs: list
    players: tuple = DEFAULT_PLAYERS
    ruleset: str = "standard"
    data: str | None = None
    objective: str = "british"
    target: float = 0.5
    constraints: dict = field(default_factory=dict)
    sampler: str = "tpe"
    seed: int = 1
    trials: int = 40
    rungs: tuple = (64, 256, 1024)
    eta: int = 3
    confirm_seeds: int = 1000
    confirm_best: int = 3
    tolerance: float | None = None
    confirm_with: str | None = None
    strong_seeds: int = 200
    sensitivity_seeds: int = 300
    #: Where the edited data folders of card-data knobs are written (the study's
    #: folder; not part of the study's definition).
    workdir: str | None = None

    # ------------------------------------------------------------ the rules
    def base_config(self, **settings) -> RulesConfig:
        """The study's unchanged rules, with ``settings`` changed."""
        return RulesConfig.named(self.ruleset, **settings)

    def game(self, settings: dict) -> tuple[RulesConfig, str | None]:
        """The rules and the data folder (``Table``'s config and content) of a trial's
        ``settings``: the rules settings change the study's rules; the card-data knobs
        give an edited copy of its data in ``workdir``
        (:func:`~singapore_app.tune_data.variant_folder`)."""
        rules = {k: v for k, v in settings.items() if not is_data_knob(k)}
        edits = {k: v for k, v in settings.items() if is_data_knob(k)}
        if not edits:
            return self.base_config(**rules), self.data
        if self.workdir is None:
            raise StudyError("card-data knobs need the study's folder (workdir) to write "
                             "their data in")
        return self.base_config(**rules), variant_folder(edits, self.data, self.workdir)

    def standard(self) -> dict:
        """Each knob's value in the unchanged rules and data."""
        base = self.base_config()
        return {k.name: standard_value(k.name, self.data) if is_data_knob(k.name)
                else getattr(base, k.name) for k in self.knobs}

    def change(self, settings: dict) -> float:
        """The size of the change from the standard settings: the knobs' distances
        (:meth:`Knob.distance`) summed (0 for the unchanged rules)."""
        std = self.standard()
        return sum(k.distance(settings[k.name], std[k.name]) for k in self.knobs)

    @property
    def penalty(self) -> float:
        """What a trial that breaks a constraint adds to its imbalance."""
        return OBJECTIVES[self.objective]

    @property
    def balance_tolerance(self) -> float:
        return DEFAULT_TOLERANCE[self.objective] if self.tolerance is None else self.tolerance

    # ------------------------------------------------------------ checks
    def check(self) -> None:
        """StudyError on any fault, before a game is played: the knobs, players, rules
        and card data, the numbers, and the learned players' networks against the
        observation every setting in range gives
        (:func:`singapore_app.tune_layout.check_layout`)."""
        from agents.registry import make_agent

        if not self.knobs:
            raise StudyError("name at least one knob (--knob NAME=LOW:HIGH, or [knobs] in "
                             "the study file)")
        names = [k.name for k in self.knobs]
        if len(set(names)) != len(names):
            raise StudyError(f"a knob is named twice: {names}")
        if self.objective not in OBJECTIVES:
            raise StudyError(f"unknown objective {self.objective!r}; known: "
                             f"{', '.join(OBJECTIVES)}")
        if self.objective == "british" and not 0 < self.target < 1:
            raise StudyError(f"the target British share must be within 0..1, got {self.target}")
        if self.sampler not in SAMPLERS:
            raise StudyError(f"unknown sampler {self.sampler!r}; known: {', '.join(SAMPLERS)}")
        rungs = list(self.rungs)
        if not rungs or any(not isinstance(n, int) or n < 2 for n in rungs) \
                or rungs != sorted(set(rungs)):
            raise StudyError(f"rungs are increasing seed counts of at least 2, got {rungs}")
        for key in ("trials", "eta", "confirm_seeds", "confirm_best", "strong_seeds",
                    "sensitivity_seeds", "seed"):
            value = getattr(self, key)
            least = 2 if key == "eta" else 0 if key == "seed" else 1
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise StudyError(f"{key} must be an integer >= {least}, got {value!r}")
        for key, bounds in self.constraints.items():
            _check_constraint(key, bounds)
        try:
            cfg = self.base_config()
            resolve_content(self.data, cfg.slavery)
        except (ConfigError, ContentError) as exc:
            raise StudyError(str(exc)) from None
        if len(self.players) != 4:
            raise StudyError(f"players: four agent specs, got {list(self.players)}")
        for spec in dict.fromkeys(self.all_players()):
            try:
                make_agent(spec)
            except ValueError as exc:
                raise StudyError(str(exc)) from None
        from .tune_layout import check_layout

        if self.workdir is not None or not any(is_data_knob(k.name) for k in self.knobs):
            self._check_values()
            check_layout(self)
            return
        with tempfile.TemporaryDirectory() as tmp:  # checked before the study's folder
            self.workdir = tmp
            try:
                self._check_values()
                check_layout(self)
            finally:
                self.workdir = None

    def _check_values(self) -> None:
        """StudyError unless each data knob names a number of the study's data and
        gives valid data at each of its values."""
        for k in self.knobs:
            if is_data_knob(k.name):
                standard_value(k.name, self.data)
                for v in k.values():
                    self.game({k.name: v})

    def all_players(self) -> list[str]:
        """The search's players and the strong players of the confirmation."""
        return list(self.players) + ([self.confirm_with] if self.confirm_with else [])

    # ------------------------------------------------------------ reading and writing
    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        del out["workdir"]
        out["knobs"] = [k.text() for k in self.knobs]
        out["players"] = list(self.players)
        out["rungs"] = list(self.rungs)
        out["constraints"] = {k: list(v) for k, v in self.constraints.items()}
        return out

    def search_key(self) -> dict:
        """What a second run on the same folder must agree with."""
        return {k: v for k, v in self.to_dict().items() if k in SEARCH_KEYS}

    @classmethod
    def from_toml(cls, path: str | Path) -> "TuneSpec":
        """Read a study file (format in the module docstring); StudyError if it is bad."""
        path = Path(path)
        return cls.from_dict(read_toml(path), base=path.parent, where=str(path))

    @classmethod
    def from_dict(cls, raw: dict, base: Path = Path("."), where: str = "study") -> "TuneSpec":
        top = {"seed", "trials", "players", "ruleset", "data", "sampler", "rungs", "eta",
               "objective", "target", "knobs", "constraints", "confirm"}
        unknown = sorted(set(raw) - top)
        if unknown:
            raise StudyError(f"{where}: unknown key(s) {unknown}; keys: {', '.join(sorted(top))}")
        spec = cls(_knobs(raw.get("knobs", {}), where))
        for key in ("seed", "trials", "ruleset", "sampler", "eta"):
            if key in raw:
                setattr(spec, key, raw[key])
        if "players" in raw:
            players = raw["players"]
            spec.players = tuple(x.strip() for x in players.split(",")) \
                if isinstance(players, str) else tuple(players)
        if "rungs" in raw:
            spec.rungs = tuple(raw["rungs"])
        if raw.get("data"):
            spec.data = str((base / raw["data"]).resolve())
        if "objective" in raw:
            objective = raw["objective"]
            if isinstance(objective, str):  # objective = "margin", target = 0
                objective = {objective: raw.get("target", 0.5 if objective == "british" else 0)}
            if not isinstance(objective, dict) or len(objective) != 1:
                raise StudyError(f"{where}: [objective] holds one of british = SHARE or "
                                 f"margin = VP")
            ((spec.objective, spec.target),) = objective.items()
        elif "target" in raw:
            spec.target = raw["target"]
        spec.constraints = {k: tuple(v) for k, v in _flat(raw.get("constraints", {})).items()}
        confirm = dict(raw.get("confirm", {}))
        names = {"seeds": "confirm_seeds", "best": "confirm_best", "with": "confirm_with",
                 "tolerance": "tolerance", "strong_seeds": "strong_seeds",
                 "sensitivity_seeds": "sensitivity_seeds"}
        unknown = sorted(set(confirm) - set(names))
        if unknown:
            raise StudyError(f"{where}: unknown [confirm] key(s) {unknown}; keys: "
                             f"{', '.join(names)}")
        for key, value in confirm.items():
            setattr(spec, names[key], value)
        return spec


def _knobs(raw, where: str) -> list[Knob]:
    """The knobs of a study file: a table ``NAME = "LOW:HIGH"`` (or ``"a,b"``, a list,
    or ``{low = L, high = H}``), or an array of tables ``[[knobs]]`` with ``name`` and
    ``low`` and ``high`` or ``values``."""
    if isinstance(raw, list):
        entries = []
        for entry in raw:
            if not isinstance(entry, dict) or "name" not in entry:
                raise StudyError(f"{where}: each [[knobs]] has a name, and low and high or "
                                 f"values; got {entry!r}")
            entries.append((entry["name"], {k: v for k, v in entry.items() if k != "name"}))
    elif isinstance(raw, dict):
        entries = list(_flat(raw, leaf=lambda v: set(v) <= {"low", "high", "values"}).items())
    else:
        raise StudyError(f"{where}: [knobs] is a table NAME = \"LOW:HIGH\" or a list")
    knobs = []
    for name, value in entries:
        if isinstance(value, dict):
            if set(value) == {"low", "high"}:
                value = f"{value['low']}:{value['high']}"
            elif set(value) == {"values"}:
                value = value["values"]
            else:
                raise StudyError(f"{where}: knob {name!r} takes low and high, or values; "
                                 f"got {sorted(value)}")
        knobs.append(parse_knob(str(name), value))
    return knobs


def _flat(table: dict, prefix: str = "", leaf=lambda value: False) -> dict:
    """``{"vp_share": {"decree": [..]}}`` -> ``{"vp_share.decree": [..]}`` (a table
    ``leaf`` accepts is kept whole: a knob's ``{low, high}``)."""
    out = {}
    for key, value in table.items():
        if isinstance(value, dict) and not leaf(value):
            out.update(_flat(value, f"{prefix}{key}.", leaf))
        else:
            out[prefix + key] = value
    return out


def _check_constraint(key: str, bounds) -> None:
    kind, _, source = key.partition(".")
    if not (key == "decisions" or (kind == "vp_share" and source in VP_SOURCES)):
        raise StudyError(f"unknown constraint {key!r}; known: decisions, "
                         + ", ".join(f"vp_share.{s}" for s in VP_SOURCES))
    if (len(bounds) != 2 or not all(isinstance(b, (int, float)) for b in bounds)
            or not bounds[0] <= bounds[1]):
        raise StudyError(f"constraint {key!r}: bounds are [LOW, HIGH], got {list(bounds)}")


def parse_constraint(text: str) -> tuple[str, tuple]:
    """``decisions=250:400`` -> ``("decisions", (250.0, 400.0))`` (StudyError if bad)."""
    key, sep, raw = (x.strip() for x in text.partition("="))
    low, colon, high = raw.partition(":")
    try:
        bounds = (float(low), float(high))
    except ValueError:
        bounds = ()
    if not sep or not colon or not bounds:
        raise StudyError(f"a constraint is NAME=LOW:HIGH (e.g. decisions=250:400), got {text!r}")
    _check_constraint(key, bounds)
    return key, bounds
