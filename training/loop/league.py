"""Prioritized fictitious self-play (AlphaStar's PFSP): how often the batched trainer's
games draw each past self of the pool (:mod:`training.loop.rollout`).

A past self that beats the learner often is drawn often: its weight is its faction's
win share against the learner, ``(wins + 1) / (games + 2)`` (one win and one loss
assumed before any game, so a new past self starts at one half), raised to
``pfsp_power`` (AlphaStar's f_hard: ``(1 - p) ** power`` with ``p`` the learner's
chance to win). ``pfsp_power = 0`` draws the past selves uniformly.
"""

from __future__ import annotations


def pfsp_weights(results: list[list], power: float) -> list[float]:
    """The weight of each past self from its ``[games, win share]`` against the
    learner (empty with ``power`` 0: uniform)."""
    if power == 0:
        return []
    return [((wins + 1.0) / (games + 2.0)) ** power for games, wins in results]
