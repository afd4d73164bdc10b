"""An agent that plays uniformly at random among the legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .base import Agent

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine.decisions import Decision
    from singapore_env.engine import Game


class RandomAgent(Agent):
    """Uniform over legal actions, with its own RNG (never numpy's global one).

    ``RandomAgent(seed)`` and ``reset(seed)`` seed a private
    :class:`numpy.random.Generator`; the same seed and the same questions give the
    same answers. ``reset()`` without a seed leaves the generator as it is.
    """

    name = "random"
    #: :meth:`choose` reads only ``game.legal_decisions()``.
    plays_native = True

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the private generator (no-op when ``seed`` is None)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: dict, mask: np.ndarray) -> int:
        """A uniformly random index among ``np.flatnonzero(mask)``."""
        legal = np.flatnonzero(np.asarray(mask))
        if legal.size == 0:
            raise ValueError("the action mask has no legal action")
        return int(legal[self.rng.integers(legal.size)])

    def choose(self, game: "Game", seat: int) -> "Decision":
        """A uniformly random decision among ``game.legal_decisions()``."""
        legal = game.legal_decisions()
        if not legal:
            raise ValueError("no legal decision (is the game over?)")
        return legal[int(self.rng.integers(len(legal)))]
