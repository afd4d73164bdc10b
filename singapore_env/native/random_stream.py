"""The random stream of the native engine: :class:`Random`, numpy's
``Generator(PCG64(seed))`` in C++ (the same draws, the same generator state after each),
the conversions between numpy's ``bit_generator.state`` dict and the halves the compiled
module takes, and a game's seed as the native engine takes it (:func:`seed_words`).
"""

from __future__ import annotations

from ..engine.game import check_seed
from .loading import require

_MASK64 = (1 << 64) - 1


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
