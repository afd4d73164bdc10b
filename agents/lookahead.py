"""A learned player that looks ahead on the main Action question.

``learned:zero`` (:mod:`agents.reference`) is a :class:`LookaheadPolicies`: per faction a
*student* (the pointer policy that decides every question) and a *value network* (a
pointer actor with a value head, :mod:`agents.pointer_actor`; for ``learned:zero`` the
student's own network) that scores a position
from one seat's view. On a question that offers a Market card, an Activation or a
Decree (the main Action question, :data:`LOOKAHEAD_KINDS`), the student names its best
answers (up to :data:`TOP_K`, within :data:`GAP` logits of its best); each one is played
on a copy of the game in which everything the seat cannot see is resampled
(:func:`~agents.determinize.determinize`; the same :data:`WORLDS` worlds for all of
them), the students of both factions play on from there until the seat
faces the main Action question for the :data:`ROLLOUT_QUESTIONS`-th time (the
*rollout*: the rest of the action, the seat's next actions, the other seats' turns), and
the answer with the highest value of the position reached (the win share, where the
game ended; the mean over the worlds; plus ``vp_weight`` times the VP margin where the
value network's meta gives one, as the self-play trainer's do with ``vp_weight``), plus
:data:`LOGP_WEIGHT` times the student's log-probability of it, is played. Every other
question gets the student's most likely answer.

Neither network reads a heuristic score: the student reads the observation and the
candidate features without the prior, the value network the observation and the
projected VP. ``docs/selfplay.md`` says how ``learned:zero``'s networks were trained
and what the lookahead adds.
"""

from __future__ import annotations

import sys

import numpy as np

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Kind

from .base import Agent
from .determinize import determinize
from .learned import LearnedAgent, PolicyView, position_value, reads_prior
from .outcome import outcome
from .pointer_actor import PointerActor

#: The questions the lookahead answers: those offering one of these kinds of decision.
LOOKAHEAD_KINDS = frozenset({Kind.BUY_MARKET, Kind.ACTIVATE, Kind.DECREE})
#: At most this many of the student's answers are looked at ...
TOP_K = 5
#: ... those within this many logits of its best.
GAP = 3.0
#: Weight of the student's log-probability next to the value (a win share, 0..1).
LOGP_WEIGHT = 0.1
#: A rollout ends where the seat faces the main Action question for this many times
#: (the students answer it on the way) ...
ROLLOUT_QUESTIONS = 4
#: ... or after this many decisions (a bound: those questions come within a few dozen).
ROLLOUT_LIMIT = 1000
#: Sampled worlds each answer is scored in (the mean of its values). Four worlds and
#: rollouts to the fourth question are 3.1 points [2.1, 4.0] above one world and the
#: second question as Malay on 2,000 seeds, at 4.6 times the CPU (docs/training.md).
WORLDS = 4


class LookaheadPolicies(Agent):
    """Each faction's student (``student``: a :class:`~agents.reference.FactionPolicies`,
    one learned agent per faction), with its value network choosing among the student's
    best answers to the main Action question. With ``rollout`` false the value network
    scores the position right after the answer. Each answer is scored in ``worlds``
    sampled worlds (the mean of its values; :data:`WORLDS` by default): more worlds,
    less noise from the hidden cards, at ``worlds`` times the cost. A rollout ends
    where the seat faces the main Action question for the ``questions``-th time
    (:data:`ROLLOUT_QUESTIONS` by default)."""

    looks_ahead = True

    def __init__(self, student: Agent, values: dict[int, PointerActor],
                 seed: int | None = None, rollout: bool = True, worlds: int = WORLDS,
                 questions: int = ROLLOUT_QUESTIONS):
        if not all(net.has_value for net in values.values()):
            raise ValueError("a lookahead value network needs a value head")
        if worlds < 1:
            raise ValueError(f"worlds must be >= 1, got {worlds}")
        if questions < 1:
            raise ValueError(f"questions must be >= 1, got {questions}")
        self.student, self.values, self.rollout = student, values, rollout
        self.worlds, self.questions = worlds, questions
        self._views = {f: PolicyView(a.policy) for f, a in student.by_faction.items()}
        self.rng = np.random.default_rng(seed)
        #: The last question's scores: index in its legal answers -> score (empty where
        #: it compared no answers).
        self.last_scores: dict[int, float] = {}

    @property
    def plays_native(self) -> bool:
        """Whether it plays a native game: its students read what both engines write
        (and the determinization and the value networks work on either)."""
        return self.student.plays_native

    def networks(self) -> list:
        """The students' policies and the value networks."""
        return [*self.student.networks(), *self.values.values()]

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
        if not _looks_ahead(legal):
            return [], np.zeros(0)
        logits = self._views[SEAT_FACTION[seat]].decision_logits(game, seat, legal)
        best = np.argsort(-logits, kind="stable")[:TOP_K]
        return ([int(i) for i in best if logits[i] >= logits[best[0]] - GAP],
                logits - np.logaddexp.reduce(logits))

    def choose(self, game, seat: int):
        legal = game.legal_decisions()
        candidates, log_p = self._proposals(game, seat, legal)
        self.last_scores = {}
        if not candidates:
            return self.student.choose(game, seat)
        if len(candidates) == 1:
            return legal[candidates[0]]
        value_net = self.values[SEAT_FACTION[seat]]
        vp_weight = float(value_net.meta.get("vp_weight", 0.0))
        worlds = [determinize(game, seat, self.rng) for _ in range(self.worlds)]
        students = self._native_students(game) if self.rollout else None
        if students is not None:
            values = self._native_values(worlds, seat, [legal[i] for i in candidates],
                                         students, value_net, vp_weight, self.questions)
        else:
            values = np.zeros(len(candidates))
            for world in worlds:
                for j, i in enumerate(candidates):
                    after = world.clone()
                    after.step(legal[i])
                    if self.rollout:
                        self.roll_out(after, seat)
                    if after.is_over:
                        win, margin = outcome(after.final_scores, seat)
                        values[j] += win + vp_weight * margin
                    else:
                        values[j] += position_value(value_net, after, seat, vp_weight)
        scores = [float(v) for v in values / self.worlds + LOGP_WEIGHT * log_p[candidates]]
        self.last_scores = dict(zip(candidates, scores))
        return legal[candidates[int(np.argmax(scores))]]

    def roll_out(self, world, seat: int) -> None:
        """The students play every seat of ``world`` until ``seat`` faces the main Action
        question for the ``questions``-th time, the game ends or
        :data:`ROLLOUT_LIMIT` decisions are played: the Python loop, the reference of
        the C++ rollouts :meth:`choose` runs on a native game
        (:func:`agents.native_nets.roll_out`, the same decisions)."""
        faced = 0
        for _ in range(ROLLOUT_LIMIT):
            if world.is_over:
                return
            acting = world.acting_seat
            if acting == seat and _looks_ahead(world.legal_decisions()):
                faced += 1
                if faced == self.questions:
                    return
            world.step(self.student.choose(world, acting))

    @staticmethod
    def _native_values(worlds: list, seat: int, answers: list, students: list,
                       value_net: PointerActor, vp_weight: float, questions: int) -> np.ndarray:
        """Each answer's value summed over the native ``worlds``: every (world, answer)
        rolled out to the seat's ``questions``-th main Action question, in C++ in one
        batch (:func:`agents.native_nets.roll_out`), the positions reached scored by
        ``value_net``'s native twin in one call, a finished game by its outcome."""
        from .native_nets import native_twin, roll_out

        starts = [(w, d) for w in range(len(worlds)) for d in answers]
        leaves = roll_out(worlds, [seat] * len(worlds), starts, students, LOOKAHEAD_KINDS,
                          questions, ROLLOUT_LIMIT)
        value = leaves.finished_values([seat] * len(starts), vp_weight)
        going = np.flatnonzero(~leaves.over)
        if len(going):
            value[going] = native_twin(value_net).value(
                {"observation": leaves.obs[going], "projected_vp": leaves.projected[going]},
                vp_weight)
        return value.reshape(len(worlds), len(answers)).sum(axis=0)

    def _native_students(self, world) -> list | None:
        """The two factions' policies where the rollout runs in C++: a native world and
        students that are learned agents taking their most likely answer and reading no
        prior; None otherwise."""
        native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
        agents = getattr(self.student, "by_faction", None)
        if native is None or not isinstance(world, native.NativeGame) or agents is None:
            return None
        if not all(isinstance(a, LearnedAgent) and a.deterministic
                   and not reads_prior(a.policy) for a in agents.values()):
            return None
        return [agents[0].policy, agents[1].policy]


def improved_policy(scores: np.ndarray, temperature: float) -> np.ndarray:
    """The search's improved policy over the answers it compared: the softmax of their
    scores (mean value plus :data:`LOGP_WEIGHT` times the log-probability) over
    ``temperature`` (what DAgger's ``target_temperature`` and the self-play search
    learn); of each row, for scores in rows."""
    logits = np.asarray(scores, np.float64) / temperature
    return np.exp(logits - np.logaddexp.reduce(logits, axis=-1, keepdims=True))


def _looks_ahead(legal: list) -> bool:
    """Whether a question with these legal answers is one the lookahead answers."""
    return len(legal) >= 2 and bool({d.kind for d in legal} & LOOKAHEAD_KINDS)
