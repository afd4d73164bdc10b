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

The package's names, by module: ``loading`` (the compiled module: :func:`available`,
:func:`require`), ``random_stream`` (:class:`Random`, :func:`seed_words`), ``records``
(what the compiled module is built from: the rulesets it plays, its copies of the
content and configuration), ``game`` (:class:`NativeGame`), ``players`` (the
determinization, the heuristic's twin and the search's loop) and ``random_games``
(:func:`compare_random_game`, :func:`play_random`); ``encoding`` and ``vector`` (the
native encoder and the vector env's native slots) are imported where used.
"""

from .game import NativeGame, PendingQuestion
from .loading import BUILD_HINT, NativeUnavailable, available, require
from .players import (determinize, heuristic_choose, heuristic_option_scores,
                      heuristic_params, mcts_values)
from .random_games import compare_random_game, differences, play_random
from .random_stream import Random, seed_words
from .records import NATIVE_PROCEDURES, NATIVE_RULESETS, plays

# The helpers the frame fuzzer and the tests reach for.
from .game import _new as _new, _wrap as _wrap
from .random_stream import _halves_of as _halves_of
from .records import (_NATIVE_CONTENT as _NATIVE_CONTENT,
                      _NATIVE_CONTENT_KEPT as _NATIVE_CONTENT_KEPT, _config as _config,
                      _content as _content, _decision_table as _decision_table)

__all__ = ["BUILD_HINT", "NATIVE_PROCEDURES", "NATIVE_RULESETS", "NativeGame",
           "NativeUnavailable", "PendingQuestion", "Random", "available",
           "compare_random_game", "determinize", "differences", "heuristic_choose",
           "heuristic_option_scores", "heuristic_params", "mcts_values", "play_random",
           "plays", "require", "seed_words"]
