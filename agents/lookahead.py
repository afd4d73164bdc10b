"""A learned player that looks one decision ahead on the main Action question.

``learned:pure`` (:mod:`agents.reference`) is a :class:`LookaheadPolicies`: per faction a
*student* (the pointer policy that decides every question) and a *value network* (a
pointer actor with a value head, :mod:`agents.pointer_actor`) that scores a position
from one seat's view. On a question that offers a Market card, an Activation or a
Decree (the main Action question, :data:`LOOKAHEAD_KINDS`), the student names its best
answers (up to :data:`TOP_K`, within :data:`GAP` logits of its best); each one is played
on a copy of the game in which everything the seat cannot see is resampled
(:func:`~agents.determinize.determinize`, one world for all of them), and the answer
with the highest value of the position it leads to, plus :data:`LOGP_WEIGHT` times the
student's log-probability of it, is played. Every other question gets the student's
most likely answer.

Neither network reads a heuristic score: the student reads the observation and the
candidate features without the prior, the value network the observation and the
projected VP. ``docs/selfplay.md`` says how each was trained and what the lookahead
adds.
"""

from __future__ import annotations

import numpy as np

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Kind

from .base import Agent
from .determinize import determinize
from .learned import PolicyView, position_value
from .pointer_actor import PointerActor

#: The questions the lookahead answers: those offering one of these kinds of decision.
LOOKAHEAD_KINDS = frozenset({Kind.BUY_MARKET, Kind.ACTIVATE, Kind.DECREE})
#: At most this many of the student's answers are looked at ...
TOP_K = 3
#: ... those within this many logits of its best.
GAP = 2.0
#: Weight of the student's log-probability next to the value (a win share, 0..1).
LOGP_WEIGHT = 0.1


class LookaheadPolicies(Agent):
    """Each faction's student (``student``: a :class:`~agents.reference.FactionPolicies`,
    one learned agent per faction), with its value network choosing among the student's
    best answers to the main Action question."""

    def __init__(self, student: Agent, values: dict[int, PointerActor],
                 seed: int | None = None):
        if not all(net.has_value for net in values.values()):
            raise ValueError("a lookahead value network needs a value head")
        self.student, self.values = student, values
        self._views = {f: PolicyView(a.policy) for f, a in student.by_faction.items()}
        self.rng = np.random.default_rng(seed)
        #: The last looked-ahead question's scores: index in its legal answers -> score.
        self.last_scores: dict[int, float] = {}

    def reset(self, seed: int | None = None) -> None:
        """New game; with ``seed`` the sampled worlds repeat."""
        self.student.reset(seed)
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def candidates(self, game, seat: int, legal: list) -> list[int]:
        """Indices in ``legal`` of the student's answers the lookahead compares: its best
        (up to :data:`TOP_K`, within :data:`GAP` logits of the first), best first; an
        empty list for a question the lookahead leaves to the student."""
        return self._proposals(game, seat, legal)[0]

    def _proposals(self, game, seat: int, legal: list) -> tuple[list[int], np.ndarray]:
        """:meth:`candidates` and the student's log-probabilities of ``legal``."""
        if len(legal) < 2 or not {d.kind for d in legal} & LOOKAHEAD_KINDS:
            return [], np.zeros(0)
        logits = self._views[SEAT_FACTION[seat]].decision_logits(game, seat, legal)
        best = np.argsort(-logits, kind="stable")[:TOP_K]
        return ([int(i) for i in best if logits[i] >= logits[best[0]] - GAP],
                logits - np.logaddexp.reduce(logits))

    def choose(self, game, seat: int):
        legal = game.legal_decisions()
        candidates, log_p = self._proposals(game, seat, legal)
        if not candidates:
            return self.student.choose(game, seat)
        if len(candidates) == 1:
            return legal[candidates[0]]
        value_net = self.values[SEAT_FACTION[seat]]
        world = determinize(game, seat, self.rng)
        scores = []
        for i in candidates:
            after = world.clone()
            after.step(legal[i])
            scores.append(position_value(value_net, after, seat) + LOGP_WEIGHT * log_p[i])
        self.last_scores = dict(zip(candidates, scores))
        return legal[candidates[int(np.argmax(scores))]]
