"""An engine-level bot: the heuristic player, with a taste for surprises.

Play it anywhere an agent plays, with its parameter after the class name::

    singapore-1819 simulate --players examples/my_bot.py:MyBot,random,random,random --games 10
    singapore-1819 evaluate --british examples/my_bot.py:MyBot:explore=0.2 --malay heuristic --games 50

An engine-level bot answers ``choose(game, seat)`` with one of ``game.legal_decisions()``.
The bot is handed the whole game: a fair bot reads only what its seat may see (the
public board, its own hand), as the project's agents do.
"""

from __future__ import annotations

import numpy as np

from agents import Agent, make_agent


class MyBot(Agent):
    """The heuristic's decision, except that with probability ``explore`` a random one."""

    name = "my-bot"

    def __init__(self, seed: int | None = None, explore: float = 0.1):
        if not 0.0 <= explore <= 1.0:
            raise ValueError(f"explore is a probability, got {explore}")
        self.explore = explore
        self.heuristic = make_agent("heuristic")
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        """A new game: the same seed gives the same choices."""
        self.rng = np.random.default_rng(seed)
        self.heuristic.reset(seed)

    def choose(self, game, seat):
        """One of ``game.legal_decisions()`` for ``seat``."""
        if self.rng.random() < self.explore:
            legal = game.legal_decisions()
            return legal[int(self.rng.integers(len(legal)))]
        return self.heuristic.choose(game, seat)
