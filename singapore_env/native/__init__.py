"""The native engine: the compiled twin of :mod:`singapore_env.engine` (C++ in
``native/``, built by ``pip install -e .`` as ``singapore_env._native``; docs/native.md).

The build is optional: without a C++17 compiler the package installs with the Python
engine only, and :func:`require` (which everything that asks for the native engine
calls) raises :class:`NativeUnavailable` saying why and how to build it.

What is native: the random stream (:class:`Random` draws exactly what the Python engine's
``numpy.random.Generator(PCG64(seed))`` draws, with the same generator state after each
draw), the games of every ruleset (:class:`NativeGame`, with the Python engine's legal
decisions, scores and saves) and whole random games in C++ (:func:`play_random`), built
from the loaded :class:`~singapore_env.engine.content.Content` and
:class:`~singapore_env.engine.config.RulesConfig` of the Python engine: no card or number
is written twice; and the determinization of a native game (:func:`determinize`).
:func:`compare_random_game` is the check that keeps the two engines equal.
docs/native.md says what is not native yet.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from pathlib import Path
from typing import NamedTuple

from ..engine.config import NUMBER_LIMIT, ConfigError, RulesConfig
from ..engine.content import Content, check_numbers, default_content
from ..engine.decisions import (DECISION, N_CHOOSE, N_LOOP, Decision, Kind, arg_sizes,
                                is_decision)
from ..engine.game import Game, SaveFormatError, check_seed
from ..engine.query import ACTION_COST, D4_SIDES, FACES
from ..engine.rulesets import BY_NAME, ruleset_of
from ..engine.save_validation import FORMAT_NAME, FORMAT_VERSION, env_settings_in_saves
from ..engine.state import VP_SOURCES

#: The native sources of a source checkout (absent from an installed wheel).
_SOURCES = Path(__file__).resolve().parents[2] / "native"


def _source_digest() -> str:
    """The digest setup.py builds the module with, of the sources beside this file."""
    files = sorted(p for p in _SOURCES.glob("*") if p.suffix in (".cpp", ".hpp", ".inc"))
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:16]


def _stale(module) -> str:
    """Why a compiled module may not be used ("" when it may): in a source checkout, one
    built from other sources than ``native/`` holds (a failed rebuild leaves the module
    of the older sources in place)."""
    if _SOURCES.is_dir() and getattr(module, "SOURCE_DIGEST", "") != _source_digest():
        return "the compiled module was built from other sources than native/ holds"
    return ""


try:
    from .. import _native
except ImportError as exc:  # not built (no compiler at install time)
    _native = None
    _MISSING = f"{type(exc).__name__}: {exc}"
else:
    _MISSING = _stale(_native)
    if _MISSING:
        _native = None

#: What to do when the module is missing (said by every NativeUnavailable).
BUILD_HINT = ("build it with `python -m pip install -e .` from the project's root "
              "(it needs a C++17 compiler such as g++; pybind11 comes from PyPI); "
              "`pip install -v` shows the compiler's error if the compile fails")

_MASK64 = (1 << 64) - 1
_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1


class NativeUnavailable(ImportError):
    """The native engine was asked for but its compiled module is not built."""


def available() -> bool:
    """Whether the compiled native engine can be used here."""
    return _native is not None


def require():
    """The compiled module; raise :class:`NativeUnavailable` (why, and how to build it)
    when it is missing."""
    if _native is None:
        raise NativeUnavailable(f"the native engine (engine=\"native\") is not built here "
                                f"({_MISSING}); {BUILD_HINT}")
    return _native


class Random:
    """numpy's ``Generator(PCG64(seed))`` in C++, bit for bit, for the draws the engine
    makes: ``integers`` (int64, Lemire's bounded method) and ``permutation``."""

    __slots__ = ("_gen",)

    def __init__(self, seed: int = 0):
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK64:
            raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
        self._gen = require().Pcg64(seed)

    @classmethod
    def from_state(cls, state: dict) -> "Random":
        """The generator in a state given as numpy's ``bit_generator.state`` dict (of a
        PCG64: others are a ValueError)."""
        if state.get("bit_generator") != "PCG64":
            raise ValueError(f"the native engine draws from a PCG64 generator, "
                             f"not {state.get('bit_generator')!r}")
        r = cls.__new__(cls)
        r._gen = require().Pcg64(*_halves_of(state))
        return r

    @property
    def state(self) -> dict:
        """The state as numpy's ``bit_generator.state`` dict (equal to numpy's)."""
        return _rng_dict(self._gen.state_halves())

    def integers(self, low: int, high: int | None = None) -> int:
        """One int in ``[low, high)`` (or ``[0, low)``), as ``Generator.integers``."""
        if high is None:
            low, high = 0, low
        if low >= high:
            raise ValueError(f"low >= high ({low} >= {high})")
        return self._gen.integers(low, high)

    def permutation(self, n: int) -> list[int]:
        """A permutation of ``range(n)``, as ``Generator.permutation(n).tolist()``."""
        if n < 0:
            raise ValueError(f"n must be >= 0, got {n}")
        return self._gen.permutation(n)


#: The ruleset procedures the native engine implements (``Ruleset.procedures``).
NATIVE_PROCEDURES = frozenset({"first_edition_raid_and_war", "simulation_setup", "roles"})
#: The rulesets the native engine plays: those whose every procedure it implements.
NATIVE_RULESETS = tuple(name for name, ruleset in BY_NAME.items()
                        if ruleset.procedures <= NATIVE_PROCEDURES)


#: A NativeGame without running its ``__init__`` (clone, from_json).
_new = object.__new__


class PendingQuestion(NamedTuple):
    """The question a native game asks now, as far as the players read it: the ``kind``
    of the frame asking it (the Python engine's ``game.pending.kind``)."""

    kind: str


class NativeGame:
    """A game on the native rules, with the play surface of
    :class:`~singapore_env.engine.game.Game`: the same legal decisions in the same order,
    the same scores, for the same seed, configuration and content."""

    # _meta: (config, content, seed, decision table), shared by the clones; _game: the C++
    # game (a capsule the functions of the compiled module take)
    __slots__ = ("_meta", "_game")

    def __init__(self, seed: int = 0, config: RulesConfig | None = None,
                 content: Content | None = None):
        words = seed_words(seed)
        cfg = config if config is not None else RulesConfig.standard()
        _check_ruleset(cfg)
        c = content if content is not None else default_content(cfg.slavery)
        native, loaded = require(), _content(c)
        try:  # (the content or configuration asks for more than the other has)
            self._game = native.new_game(loaded, _config(cfg), words)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        self._meta = (cfg, c, int(seed), _decision_table(cfg))

    @property
    def cfg(self) -> RulesConfig:
        """The rules configuration."""
        return self._meta[0]

    @property
    def c(self) -> Content:
        """The content (cards and board)."""
        return self._meta[1]

    @property
    def seed(self) -> int:
        """The seed the game started from."""
        return self._meta[2]

    @property
    def is_over(self) -> bool:
        return _native.is_over(self._game)

    @property
    def acting_seat(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return _native.acting_seat(self._game)

    @property
    def pending(self) -> PendingQuestion | None:
        """The current question's kind, as :attr:`Game.pending
        <singapore_env.engine.game.Game.pending>` names it (None once the game is over);
        the rest of the frame stays in C++."""
        kind = _native.question(self._game)
        return None if kind is None else PendingQuestion(kind)

    def legal_decisions(self) -> list:
        """Every legal decision of the acting seat (empty once the game is over)."""
        return _native.legal_in(self._game, self._meta[3])

    def step(self, decision) -> None:
        """Apply one decision of the acting seat; raise IllegalDecision if not legal,
        with the Python engine's words (and the game unchanged)."""
        if (type(decision) is Decision and type(decision[0]) is Kind  # the tables' own
                and type(decision[1]) is int) or is_decision(decision):
            kind, arg = int(decision[0]), int(decision[1])
            if _INT32_MIN <= min(kind, arg) and max(kind, arg) <= _INT32_MAX \
                    and _native.step(self._game, kind, arg):
                return
        # The rare path: the Python engine, on a copy of this game, words the refusal.
        Game.from_json(self.to_json(), self.c).step(decision)
        raise RuntimeError(f"the engines disagree: the Python engine takes {decision!r}, "
                           f"the native engine does not (seed {self.seed})")

    @property
    def decisions(self) -> int:
        """Decisions made so far (the Python engine's ``s.decisions``)."""
        return _native.decisions(self._game)

    @property
    def final_scores(self) -> list[int]:
        """Final VP per seat; [] before the end."""
        return _native.final_vp(self._game)

    @property
    def winners(self) -> list[int]:
        """Seats with the highest final VP (ties share); [] before the end."""
        scores = self.final_scores
        return [p for p, v in enumerate(scores) if v == max(scores)] if scores else []

    def clone(self) -> "NativeGame":
        """An independent copy (state and random generator)."""
        g = _new(NativeGame)
        g._meta = self._meta
        g._game = _native.clone(self._game)
        return g

    # copy.copy and copy.deepcopy give clones (never two games sharing one C++ game);
    # pickle goes through the save.
    def __copy__(self) -> "NativeGame":
        return self.clone()

    def __deepcopy__(self, memo) -> "NativeGame":
        return self.clone()

    def __reduce__(self):
        if self.c.digest != default_content(self.cfg.slavery).digest:
            raise TypeError("a NativeGame pickles with the shipped content only (a Content "
                            "does not pickle): save it with to_json() and continue it with "
                            "NativeGame.from_json(text, content)")
        return NativeGame.from_json, (self.to_json(),)

    def broken_invariants(self) -> str:
        """"" if the game holds its invariants (every card in exactly one place, counts
        and scores in bounds, a valid acting seat and question: ``native/invariants.hpp``),
        else the first one broken. The debug build checks them after every step."""
        return _native.broken_invariants(self._game)

    def to_dict(self) -> dict:
        """The game as :meth:`Game.to_dict <singapore_env.engine.game.Game.to_dict>` saves
        it (the native engine keeps no text log: ``keep_text_log`` is false)."""
        return {"format": FORMAT_NAME, "version": FORMAT_VERSION, "content": self.c.digest,
                "seed": self.seed, "keep_text_log": False,
                "config": {**self.cfg.to_dict(), **env_settings_in_saves()},
                "history": [list(d) for d in _native.history(self._game)],
                "rng": _rng_dict(_native.rng(self._game)), "state": _native.state(self._game)}

    def to_json(self) -> str:
        """The save as canonical JSON: the Python engine's save of the same game (made
        with ``keep_text_log=False``), byte for byte; ``Game.from_json`` loads it."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, content: Content | None = None) -> "NativeGame":
        """Continue a saved game (a Python or native save) on the native engine. The save
        is read and validated by the Python engine's loader (the same SaveFormatError
        for a bad file); its text log is not kept. A save the Python engine takes but
        the native one cannot hold (a logged decision past 32-bit ints, a list past the
        room of the native state) is a SaveFormatError saying so."""
        return cls.from_game(Game.from_json(text, content))

    @classmethod
    def from_game(cls, python: Game) -> "NativeGame":
        """A native copy of a Python game as it stands: the same state, random generator
        and decisions (its text log not kept), so the same play from here on. A game the
        native engine cannot hold is a SaveFormatError saying so, as in :meth:`from_json`."""
        _check_ruleset(python.cfg)
        for i, (kind, arg) in enumerate(python.history):
            if not (_INT32_MIN <= kind <= _INT32_MAX and _INT32_MIN <= arg <= _INT32_MAX):
                raise SaveFormatError(f"the native engine cannot hold this save: history[{i}] "
                                      f"({kind}, {arg}) is past 32-bit ints")
        g = _new(cls)
        try:
            g._game = require().load(_content(python.c), _config(python.cfg),
                                     python.s.to_dict(),
                                     _halves_of(python.rng.bit_generator.state),
                                     [tuple(d) for d in python.history])
        except (ValueError, RuntimeError) as exc:  # past the room or the ints of the state
            raise SaveFormatError(f"the native engine cannot hold this save: {exc}") from None
        g._meta = (python.cfg, python.c, python.seed, _decision_table(python.cfg))
        return g


def determinize(game: NativeGame, seat: int, rng) -> NativeGame:
    """:func:`agents.determinize.determinize` of a native game, in C++
    (``native/determinize.hpp``): a copy with everything ``seat`` cannot see resampled,
    drawing from ``rng`` (a ``numpy.random.Generator`` on PCG64) exactly what the Python
    function draws, so that the same generator state gives the same world, save for save,
    and leaves ``rng`` in the same state."""
    if not isinstance(game, NativeGame):
        raise TypeError(f"not a native game: {type(game).__name__}")
    generator = Random.from_state(rng.bit_generator.state)
    if not 0 <= seat < 4:
        raise ValueError(f"seat must be 0..3, got {seat}")
    world = _new(NativeGame)
    world._meta = game._meta
    world._game = _native.determinize(game._game, int(seat), generator._gen)
    rng.bit_generator.state = generator.state
    return world


def heuristic_params(params: dict):
    """The heuristic player's params (every key of
    :data:`agents.heuristic.DEFAULT_PARAMS`) as the native player reads them."""
    return require().HeuristicParams(params)


def heuristic_choose(game: NativeGame, seat: int, params, generator: Random):
    """:meth:`agents.heuristic.HeuristicAgent.choose` of a native game, in C++
    (``native/heuristic.hpp``): the same decision for the same ``params`` (from
    :func:`heuristic_params`) and generator state, breaking its ties with draws from
    ``generator`` (a :class:`Random`, advanced in place) as the Python agent draws from
    its ``numpy.random.Generator``."""
    if not isinstance(game, NativeGame):
        raise TypeError(f"not a native game: {type(game).__name__}")
    if not isinstance(generator, Random):
        raise TypeError(f"the native heuristic draws from a native.Random, "
                        f"not {type(generator).__name__}")
    return _native.heuristic_choose(game._game, seat, params, generator._gen, game._meta[3])


def heuristic_option_scores(game: NativeGame, seat: int, params) -> list:
    """:meth:`agents.heuristic.HeuristicAgent.option_scores` of a native game, in C++:
    ``(score, Decision)`` for every legal decision of a scored question, the same
    floats as the Python agent's (``[]`` for the other questions)."""
    if not isinstance(game, NativeGame):
        raise TypeError(f"not a native game: {type(game).__name__}")
    return _native.heuristic_option_scores(game._game, seat, params, game._meta[3])


def mcts_values(game: NativeGame, seat: int, candidates, rng, params, *, iters: int,
                seconds: float, time_cap: float | None, horizon: int, vp_weight: float,
                encoder=None, nets=None) -> list[list[float]]:
    """The search of :class:`agents.mcts.MctsAgent` on a native game, in C++
    (``native/mcts.hpp``), the GIL released: every decision of ``candidates`` played in
    worlds of ``game`` seen from ``seat`` (:func:`determinize`, then a rollout seed, both
    drawn from ``rng``, a ``numpy.random.Generator`` on PCG64 advanced as the Python
    search advances it) by four heuristic players with ``params`` (from
    :func:`heuristic_params`), until ``iters`` simulations (or ``seconds`` of wall time
    with ``iters=0``; ``time_cap`` seconds in any case) are spent: the values, a row of
    one per candidate a world. With ``encoder`` (a native encoder's writer) and ``nets``
    (the two factions' native value networks) a rollout cut after ``horizon`` rounds is
    scored by the value head."""
    if not isinstance(game, NativeGame):
        raise TypeError(f"not a native game: {type(game).__name__}")
    generator = Random.from_state(rng.bit_generator.state)
    british, malay = nets if nets is not None else (None, None)
    values = _native.mcts_values(game._game, int(seat), [(int(k), int(a)) for k, a in candidates],
                                 generator._gen, params, iters, seconds,
                                 -1.0 if time_cap is None else time_cap, horizon, vp_weight,
                                 encoder, british, malay)
    rng.bit_generator.state = generator.state
    return values


def plays(cfg: RulesConfig) -> bool:
    """Whether the native engine plays this configuration's ruleset (knows each of its
    procedures)."""
    return ruleset_of(cfg).procedures <= NATIVE_PROCEDURES


def seed_words(seed) -> list[int]:
    """A game's seed as the native engine takes it: its 32-bit words, least significant
    first (as numpy's ``SeedSequence`` reads an int). Any non-negative int, as
    :class:`~singapore_env.engine.game.Game` takes it; anything else is its ValueError."""
    seed, words = check_seed(seed), []
    while True:
        words.append(seed & 0xFFFFFFFF)
        seed >>= 32
        if not seed:
            return words


def _wrap(game, cfg: RulesConfig, content: Content, seed: int) -> NativeGame:
    """A NativeGame around a C++ game (a capsule of the compiled module)."""
    g = _new(NativeGame)
    g._game, g._meta = game, (cfg, content, seed, _decision_table(cfg))
    return g


def _check_ruleset(cfg: RulesConfig) -> None:
    if not plays(cfg):
        raise ConfigError(f"the native engine does not play the {cfg.ruleset!r} "
                          f"ruleset yet (it plays: {', '.join(NATIVE_RULESETS)})")


def differences(python: Game, ours: NativeGame) -> list[str]:
    """What differs now between a Python game and a native one ([] when nothing does):
    the saves (each top-level entry and state field that differs; the Python game made
    with ``keep_text_log=False``) and the legal decisions."""
    bad = []
    if python.to_json() != ours.to_json():
        theirs, mine = python.to_dict(), json.loads(ours.to_json())
        bad += [k for k in theirs if json.dumps(theirs[k]) != json.dumps(mine[k])]
        bad += [f"state.{k}" for k in theirs["state"]
                if json.dumps(theirs["state"][k]) != json.dumps(mine["state"][k])]
    if python.legal_decisions() != ours.legal_decisions():
        bad.append("legal decisions")
    return bad


def compare_random_game(seed: int, config: RulesConfig | None = None,
                        content: Content | None = None, save_every: int = 25) -> tuple[int, str]:
    """Play one random game (decisions drawn with ``random.Random(seed)``) on both
    engines, comparing the legal decisions after every step and the saves after every
    ``save_every``-th step and at the end. Returns (decisions played, "" or where and
    what first differed)."""
    python = Game(seed, config, content, keep_text_log=False)
    ours = NativeGame(seed, config, content)
    pick = random.Random(seed)
    while True:
        step = python.s.decisions
        if step % save_every == 0 or python.is_over:
            bad = differences(python, ours)
        else:
            bad = [] if python.legal_decisions() == ours.legal_decisions() else ["legal decisions"]
        if not bad and python.is_over and (ours.final_scores != python.final_scores
                                           or not ours.is_over):
            bad = ["final scores"]
        if bad:
            return step, f"seed {seed}, decision {step}: {', '.join(bad)} differ"
        if python.is_over:
            return step, ""
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)


def play_random(seeds, ruleset: str = "standard", config: RulesConfig | None = None,
                content: Content | None = None) -> dict:
    """Play whole games on the native engine, one per seed, every decision drawn
    uniformly from the legal ones (by a PCG64 seeded with the game's seed), with no
    Python in the loop and the GIL released. ``config`` (default: the ruleset's) names
    the ruleset itself when given. Returns ``{"games", "decisions"`` (their sum),
    ``"decisions_per_game", "final_scores"}``."""
    cfg = config if config is not None else RulesConfig.named(ruleset)
    NativeGame(0, cfg, content)  # the same checks and errors as a single game
    words = [seed_words(seed) for seed in seeds]  # (a seed as a Game takes it)
    c = content if content is not None else default_content(cfg.slavery)
    per_game, scores = require().play_random(_content(c), _config(cfg), words)
    return {"games": len(words), "decisions": sum(per_game), "decisions_per_game": per_game,
            "final_scores": scores}


#: Content digest -> the native copy of that Content, the most recently used last: a
#: few contents at a time (a copy is about 0.3 MB; the games and encoders using one keep
#: it alive themselves).
_NATIVE_CONTENT: OrderedDict[str, tuple[Content, object]] = OrderedDict()
_NATIVE_CONTENT_KEPT = 4


#: (max_tableau, max_hand) -> the native table of the shared Decision objects.
_DECISION_TABLES: dict[tuple[int, int], object] = {}


def _decision_table(cfg: RulesConfig):
    """The Decision objects of the action table of ``cfg``'s limits, for the native
    engine to hand out as legal decisions."""
    key = (cfg.max_tableau, cfg.max_hand)
    table = _DECISION_TABLES.get(key)
    if table is None:
        sizes = arg_sizes(*key)
        kinds = sorted(int(k) for k in Kind)
        offsets, decisions = [], []
        for kind in kinds:
            offsets.append(len(decisions))
            decisions += [DECISION[kind, arg] for arg in range(sizes[kind])]
        table = _DECISION_TABLES[key] = require().DecisionTable(
            decisions, offsets, [sizes[kind] for kind in kinds], DECISION.__getitem__)
    return table


def _content(content: Content):
    """The native engine's copy of a loaded Content (what the rules read of it), built
    once per content digest while it stays among the last few used."""
    key = content.digest or f"id {id(content)}"  # (the entry keeps that id taken)
    entry = _NATIVE_CONTENT.get(key)
    if entry is None:
        record = _content_record(content)
        check_numbers(record, "content")  # (a Content built by hand, not loaded)
        entry = _NATIVE_CONTENT[key] = (content, require().content(record))
        while len(_NATIVE_CONTENT) > _NATIVE_CONTENT_KEPT:
            _NATIVE_CONTENT.popitem(last=False)
    elif next(reversed(_NATIVE_CONTENT)) != key:
        _NATIVE_CONTENT.move_to_end(key)
    return entry[1]


def _effects(effects) -> list[dict]:
    return [{"type": e.type, **e.args} for e in effects]


def _content_record(content: Content) -> dict:
    """A Content as plain lists and dicts, for the native engine to read."""
    b = content.board
    board = {"max_ships": b.max_ships, "max_population": b.max_population,
             "port_bands": [list(x) for x in b.port_bands],
             "multiplier_track": list(b.multiplier_track),
             "pw_ship_spaces": sorted(b.pw_ship_spaces), "loop_ids": list(b.loop_ids),
             "loop_kind": list(b.loop_kind), "loop_faction": list(b.loop_faction),
             "loop_multiplier": list(b.loop_multiplier),
             "loop_ship": [int(x) for x in b.loop_ship], "loop_opens_at": list(b.loop_opens_at),
             "leader_spaces": list(b.leader_spaces), "vices": list(b.vices),
             "vice_cost": list(b.vice_cost),
             "vice_can_legalize": [int(x) for x in b.vice_can_legalize]}
    defs = [{"key": d.key, "name": d.name, "category": d.category, "price": list(d.price),
             "kinds": sorted(d.kinds), "vice": content.vice_index[i], "pop_slots": d.pop_slots,
             "left": (d.left.colour, d.left.shape) if d.left else None,
             "right": (d.right.colour, d.right.shape) if d.right else None,
             "instant": _effects(d.instant), "action": _effects(d.action),
             "boosts": _effects(d.boosts), "end_game": _effects(d.end_game),
             "modifiers": _effects(d.modifiers), "faction": d.faction, "strength": d.strength,
             "star": bool(d.star),
             "legacies": [(x.metric, [list(band) for band in x.bands], x.per) for x in d.legacies],
             "tax_player": d.tax_player, "tax_neutral": d.tax_neutral,
             "cost_terms": [list(x) for x in d.cost_terms]}
            for i, d in enumerate(content.defs)]
    return {"board": board, "defs": defs,
            "conflict_tables": {name: [(low, high, _effects(effects)) for low, high, effects in rows]
                                for name, rows in content.conflict_tables.items()},
            "market_ids": list(content.market_ids), "leader_ids": list(content.leader_ids),
            "population_ids": list(content.population_ids), "folk_ids": list(content.folk_ids),
            "battle_ids": [list(ids) for ids in content.battle_ids],
            "event_ids_i": list(content.event_ids.get("I", ())),
            "event_ids_ii": list(content.event_ids.get("II", ()))}


def _config(cfg: RulesConfig):
    """The native engine's copy of a configuration, with the engine's constants."""
    record = cfg.to_dict()
    procedures = ruleset_of(cfg).procedures
    record.update(n_loop=N_LOOP, n_choose=N_CHOOSE, action_cost_war=ACTION_COST[Kind.WAR],
                  number_limit=NUMBER_LIMIT, d4_sides=D4_SIDES, faces=list(FACES),
                  vp_sources=list(VP_SOURCES),
                  **{name: name in procedures for name in NATIVE_PROCEDURES})
    return require().config(record)


def _rng_dict(halves) -> dict:
    (sh, sl), (ih, il), has_uint32, uinteger = halves
    return {"bit_generator": "PCG64", "state": {"state": sh << 64 | sl, "inc": ih << 64 | il},
            "has_uint32": int(has_uint32), "uinteger": uinteger}


def _halves_of(state: dict) -> tuple:
    """numpy's ``bit_generator.state`` dict as the native module takes it."""
    inner = state["state"]
    return (_halves(inner["state"]), _halves(inner["inc"]), bool(state["has_uint32"]),
            int(state["uinteger"]))


def _halves(value: int) -> tuple[int, int]:
    return value >> 64 & _MASK64, value & _MASK64
