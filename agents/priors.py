"""Candidate priors by name: a prior scores the answers of a question from one seat's
view, ``(game, seat) -> [(score, decision), ...]``, and
:class:`~singapore_env.candidates.CandidateEncoder` writes those scores into the
``prior_score`` / ``prior_gap`` candidate columns. The environment takes the scorer
itself; a name (in a training config, a saved policy's metadata, ``FactionEnv``) is
turned into one here, where the agents live.
"""

from __future__ import annotations

from typing import Callable

from .heuristic import HeuristicAgent

#: Prior name -> a factory of its scorer.
PRIORS: dict[str, Callable[[], Callable]] = {
    "heuristic": lambda: HeuristicAgent().option_scores,
}


def resolve_prior(prior):
    """The scorer of ``prior``: a name of :data:`PRIORS`, a callable (returned as it is)
    or ``None`` (no prior)."""
    if prior is None or callable(prior):
        return prior
    if isinstance(prior, str) and prior in PRIORS:
        return PRIORS[prior]()
    raise ValueError(f"unknown candidate prior {prior!r}; known: {list(PRIORS)} "
                     f"or a callable (game, seat) -> [(score, decision), ...]")
