"""The outcome of a game (or of a projected end) for one faction: the score that search
gives a rollout and that a value head learns (no torch, no agents).

``outcome(scores, seat)`` is ``(win share, margin)``: the share of the winners (highest
VP, ties shared) that are on ``seat``'s side, and its best VP minus the other side's
best over :data:`MARGIN_SCALE`, clipped to ±1. :func:`projected_margin` reads the same
margin, unclipped, from the ``projected_vp`` candidate key of an observation (the
value head's skip input).
"""

from __future__ import annotations

import numpy as np

from singapore_env.candidates import VP_SCALE
from singapore_env.engine.content import SEAT_FACTION

#: VP margin that counts as a full point of score (the margin term is clipped to ±1).
MARGIN_SCALE = 20.0


def outcome(scores: list[int], seat: int) -> tuple[float, float]:
    """``(win share, margin)`` of final (or projected) VP for ``seat``'s faction: the
    share of the winners (highest VP) that are its own, and its best VP minus the other
    side's best, over :data:`MARGIN_SCALE`, clipped to ±1."""
    def mine(p: int) -> bool:
        return SEAT_FACTION[p] == SEAT_FACTION[seat]

    top = max(scores)
    winners = [p for p in range(4) if scores[p] == top]
    win = sum(1 for p in winners if mine(p)) / len(winners)
    own = max(scores[p] for p in range(4) if mine(p))
    other = max(scores[p] for p in range(4) if not mine(p))
    return win, max(-1.0, min(1.0, (own - other) / MARGIN_SCALE))


def projected_margin(projected_vp, maximum=np.maximum):
    """The observer's faction's projected margin over :data:`MARGIN_SCALE` (not
    clipped) from ``projected_vp`` rows (observer first, then clockwise: the faction
    mate sits two places on, the opponents one and three); shape ``(..., 4) -> (...)``.
    The one place the margin is computed: numpy arrays by default, or another array
    library's rows with its element-wise ``maximum`` (the trainer's torch tensors)."""
    pv = projected_vp if maximum is not np.maximum else np.asarray(projected_vp, np.float32)
    own = maximum(pv[..., 0], pv[..., 2])
    other = maximum(pv[..., 1], pv[..., 3])
    return (own - other) * float(np.float32(VP_SCALE / MARGIN_SCALE))
