"""Final rewards from final scores: one pure function per reward mode.

``rewards(final_scores, mode)`` returns one float per seat (seat order 0..3):

* ``"win"`` (default): +1 shared equally among the winners (the seats with the highest
  final VP; a two-way tie gives 0.5 each), 0 for everyone else.
* ``"vp_margin"``: own final VP minus the best final VP among the other three seats
  (positive only for a sole winner; zero-sum is not implied).
* ``"faction"``: the ``win`` reward of a seat is shared with its faction mate: each seat
  receives the share of the win that went to its faction (a British win gives both British
  seats +1; a tie between a British and a Malay seat gives every seat 0.5).

The engine defines the final scores and the winners; this module only turns them into
numbers for learning.
"""

from __future__ import annotations

from typing import Sequence

from .engine.content import SEAT_FACTION

__all__ = ["rewards", "REWARD_MODES"]

#: The reward modes, the default first.
REWARD_MODES = ("win", "vp_margin", "faction")


def rewards(final_scores: Sequence[int], mode: str = "win") -> list[float]:
    """Per-seat rewards for a finished game (``final_scores`` = final VP by seat)."""
    scores = list(final_scores)
    if len(scores) != 4:
        raise ValueError(f"expected 4 final scores, got {scores!r}")
    if mode not in REWARD_MODES:
        raise ValueError(f"unknown reward mode {mode!r}; known: {', '.join(REWARD_MODES)}")
    best = max(scores)
    winners = [p for p, v in enumerate(scores) if v == best]
    win = [1.0 / len(winners) if p in winners else 0.0 for p in range(4)]
    if mode == "win":
        return win
    if mode == "vp_margin":
        return [float(scores[p] - max(scores[q] for q in range(4) if q != p))
                for p in range(4)]
    share = [0.0, 0.0]
    for p in range(4):
        share[SEAT_FACTION[p]] += win[p]
    return [share[SEAT_FACTION[p]] for p in range(4)]
