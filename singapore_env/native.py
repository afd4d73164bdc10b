"""The native engine: the compiled twin of :mod:`singapore_env.engine` (C++ in
``native/``, built by ``pip install -e .`` as ``singapore_env._native``; docs/native.md).

The build is optional: without a C++17 compiler the package installs with the Python
engine only, and :func:`require` (which everything that asks for the native engine
calls) raises :class:`NativeUnavailable` saying why and how to build it.

What is native so far: the random stream (:class:`Random` draws exactly what the Python
engine's ``numpy.random.Generator(PCG64(seed))`` draws, with the same generator state
after each draw) and the setup of a game (:func:`deal`), built from the loaded
:class:`~singapore_env.engine.content.Content` and :class:`~singapore_env.engine.config.RulesConfig`
of the Python engine: no card or number is written twice.
"""

from __future__ import annotations

from .engine.config import ConfigError, RulesConfig
from .engine.content import Content, default_content

try:
    from . import _native
except ImportError as exc:  # not built (no compiler at install time) or a stale build
    _native = None
    _MISSING = f"{type(exc).__name__}: {exc}"
else:
    _MISSING = ""

#: What to do when the module is missing (said by every NativeUnavailable).
BUILD_HINT = ("build it with `python -m pip install -e .` from the project's root "
              "(it needs a C++17 compiler such as g++; pybind11 comes from PyPI): the "
              "install prints `building extension failed` and the compiler's error if "
              "the compile fails")

_MASK64 = (1 << 64) - 1


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
        """The generator in a state given as numpy's ``bit_generator.state`` dict."""
        inner = state["state"]
        r = cls.__new__(cls)
        r._gen = require().Pcg64(_halves(inner["state"]), _halves(inner["inc"]),
                                 bool(state["has_uint32"]), int(state["uinteger"]))
        return r

    @property
    def state(self) -> dict:
        """The state as numpy's ``bit_generator.state`` dict (equal to numpy's)."""
        (sh, sl), (ih, il), has_uint32, uinteger = self._gen.state_halves()
        return {"bit_generator": "PCG64", "state": {"state": sh << 64 | sl, "inc": ih << 64 | il},
                "has_uint32": int(has_uint32), "uinteger": uinteger}

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


def deal(seed: int, config: RulesConfig | None = None, content: Content | None = None,
         keep_text_log: bool = True) -> dict:
    """The state of a new game right after its setup, before the first round starts:
    the fields the setup writes, named as ``GameState.to_dict()`` names them, and
    ``"rng"``, the generator's state as numpy's ``bit_generator.state`` dict. Equal to the
    Python engine's setup for the same seed, configuration and content."""
    cfg = config if config is not None else RulesConfig.standard()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    native_content = _content(content if content is not None else default_content(cfg.slavery))
    try:
        d = require().deal(native_content, _config_record(cfg), seed, keep_text_log)
    except ValueError as exc:  # the configuration asks for more than the content has
        raise ConfigError(str(exc)) from None
    (sh, sl), (ih, il), has_uint32, uinteger = d["rng"]
    d["rng"] = {"bit_generator": "PCG64", "state": {"state": sh << 64 | sl, "inc": ih << 64 | il},
                "has_uint32": int(has_uint32), "uinteger": uinteger}
    d["tableau"] = [[list(slot) for slot in row] for row in d["tableau"]]
    return d


#: Content -> its native copy (a Content is frozen: built once; the Content is kept so
#: that its id is not reused).
_NATIVE_CONTENT: dict[int, tuple[Content, object]] = {}


def _content(content: Content):
    """The native engine's copy of a loaded Content (what the rules read of it)."""
    entry = _NATIVE_CONTENT.get(id(content))
    if entry is None:
        board = content.board
        entry = _NATIVE_CONTENT[id(content)] = (content, require().content({
            "market_ids": list(content.market_ids), "leader_ids": list(content.leader_ids),
            "population_ids": list(content.population_ids), "folk_ids": list(content.folk_ids),
            "battle_ids": [list(ids) for ids in content.battle_ids],
            "event_ids_i": list(content.event_ids.get("I", ())),
            "event_ids_ii": list(content.event_ids.get("II", ())),
            "star": [int(d.star) for d in content.defs], "keys": [d.key for d in content.defs],
            "loop_spaces": len(board.loop_ids), "vices": len(board.vices),
            "leader_spaces": len(board.leader_spaces)}))
    return entry[1]


def _config_record(cfg: RulesConfig) -> dict:
    """The numbers of a configuration that the native rules read."""
    return {"ruleset": cfg.ruleset, "market_slots": cfg.market_slots, "max_hand": cfg.max_hand,
            "event_i_cards": cfg.event_i_cards, "event_ii_cards": cfg.event_ii_cards,
            "sim_put_away_british": list(cfg.sim_put_away_british)}


def _halves(value: int) -> tuple[int, int]:
    return value >> 64 & _MASK64, value & _MASK64
