"""The players' entry points into the C++ of a native game: the determinization
(:func:`determinize`), the heuristic's twin (:func:`heuristic_params`,
:func:`heuristic_choose`, :func:`heuristic_option_scores`) and the search's loop
(:func:`mcts_values`), each drawing from a generator exactly what its Python counterpart
draws and leaving it in the same state.
"""

from __future__ import annotations

from .game import NativeGame, _new
from .loading import _native, require
from .random_stream import Random


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
