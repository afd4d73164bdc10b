"""An env-level bot: it sees what a PettingZoo agent sees (the observation and the mask).

    singapore-1819 simulate --players examples/first_legal.py:FirstLegal,random,random,random --games 10

A class with only ``act(observation, mask)`` plays everywhere an agent plays: the
project builds its seat's observation and legal-action mask, exactly as the env gives
them, and maps the returned index back to a decision. ``observation["observation"]``
is the flat ``float32`` vector (its slices: docs/observation.md); ``mask`` is the
``int8`` legal-action mask over the whole action table.
"""

from __future__ import annotations

import numpy as np


class FirstLegal:
    """Always the legal action with the lowest index."""

    def act(self, observation: dict, mask: np.ndarray) -> int:
        """The index of the first 1 in ``mask``."""
        return int(np.flatnonzero(mask)[0])
