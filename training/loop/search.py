"""Search in the batched self-play loop (config ``search_worlds`` above 0).

On the main Action question (a question offering a Market card, an Activation or a
Decree, :data:`agents.lookahead.LOOKAHEAD_KINDS`) a learner's move is chosen by
``learned:zero``'s lookahead (:mod:`agents.lookahead`) over the learners themselves,
the way Gumbel MuZero improves a policy with few simulations:

1. **Proposals**: up to :data:`~agents.lookahead.TOP_K` of its legal answers, drawn
   without replacement from the learner's policy (the Gumbel top-k trick: its logits
   plus Gumbel noise, the best k), so the search explores as the policy does.
2. **Worlds**: each proposal is played in the same ``search_worlds`` copies of the game
   in which everything the seat cannot see is resampled (:func:`~agents.determinize.
   determinize`), and both learners play on, their most likely answers, in C++
   (:func:`agents.native_nets.roll_out`), until the seat faces the main Action question
   for the second time (:data:`ROLLOUT_QUESTIONS`) or the game ends:
   every rollout of the step's searching games, both factions', in **one call**, in
   lockstep, each layer of a learner's network run once for all the rollouts waiting
   on it (a batch of positions, each weight block read once a batch).
3. **Values**: every position reached, in every game of the step where a faction's
   learner searches, is scored by that learner's own value head in **one batched
   forward pass** a faction (a pointer network's in C++, its native twin's: the same
   weights as the rollouts'; a finished game by its outcome); a proposal's score is
   its mean value plus :data:`~agents.lookahead.LOGP_WEIGHT` times the policy's
   log-probability of it.
4. **Target and move**: the policy target is the softmax of the scores over
   ``target_temperature`` (zero on the answers not proposed), and the move is drawn
   from it; the update fits it by cross-entropy (the search's improved policy, as
   AlphaZero fits its visit counts) instead of PPO's clipped ratio on those rows.

Nothing hand-written is read: the proposals, the rollouts and the values are the
learners' own networks, on the rules' legal answers.
"""

from __future__ import annotations

import numpy as np
import torch

from agents.determinize import determinize
from agents.lookahead import LOGP_WEIGHT, LOOKAHEAD_KINDS, ROLLOUT_LIMIT, TOP_K, improved_policy
from agents.native_nets import native_twin, roll_out

from training.network.actor_critic import ActorCritic
from training.network.rows import to_csr


#: The search's rollouts end where the seat faces the main Action question for the
#: second time: one question shorter than play's (:data:`agents.lookahead.
#: ROLLOUT_QUESTIONS`), for more labelled decisions a CPU second.
ROLLOUT_QUESTIONS = 2


class SelfPlaySearch:
    """The lookahead of the self-play loop over ``venv``'s games (a native vector env):
    ``worlds`` sampled worlds per proposal, targets at ``temperature``."""

    def __init__(self, venv, worlds: int, temperature: float, rng: np.random.Generator,
                 vp_weight: float = 0.0):
        if worlds < 1 or not temperature > 0:
            raise ValueError("search needs worlds >= 1 and a temperature > 0")
        self.venv, self.worlds, self.temperature, self.rng = venv, worlds, temperature, rng
        #: A finished rollout's value: win share plus this times the margin (the reward's).
        self.vp_weight = vp_weight
        self.decisions = venv.action_table.decisions
        # whether each action of the table (and the padding index after it) is one of
        # the kinds the lookahead answers
        self.searchable = np.array([d.kind in LOOKAHEAD_KINDS for d in self.decisions]
                                   + [False])
        self.nets: list[ActorCritic] | None = None
        self.students: list | None = None
        #: Questions searched so far (the throughput benchmark's).
        self.searched = 0

    def refresh(self, nets: list[ActorCritic], students: list | None = None) -> None:
        """Take the learners (for their values) and their current weights for the
        rollouts (after each update): ``students``, their numpy actors where the caller
        made them already."""
        self.nets = nets
        self.students = students or [net.to_numpy() for net in nets]

    def wanted(self, legal: np.ndarray) -> np.ndarray:
        """Which rows (padded legal actions, the table's size as padding) ask the main
        Action question with at least two answers."""
        pad = len(self.decisions)
        return ((legal != pad).sum(axis=1) >= 2) & self.searchable[legal].any(axis=1)

    def choose(self, asked: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]
               ) -> list[tuple[np.ndarray, np.ndarray]]:
        """For each faction's request ``(f, slots, legal, logits)`` (the games ``slots``,
        whose acting seats are learners of faction ``f`` at the main Action question,
        their legal actions ``legal`` and the policy's ``logits`` over them), the chosen
        positions in ``legal`` and the policy targets (rows of shares over ``legal``'s
        positions, summing to 1). Every request's rollouts run in one call."""
        if self.nets is None or self.students is None:
            raise RuntimeError("refresh the search with the learners first")
        proposals, worlds, seats, starts, spans = [], [], [], [], []
        for _, slots, legal, logits in asked:
            n, width = logits.shape
            gumbel = -np.log(-np.log(self.rng.random((n, width)) + 1e-12) + 1e-12)
            valid = legal[:, :width] != len(self.decisions)
            order = np.argsort(-np.where(valid, logits + gumbel, -np.inf), axis=1, kind="stable")
            mine = [order[i, :min(TOP_K, int(valid[i].sum()))] for i in range(n)]
            first = len(starts)
            for i, slot in enumerate(slots):    # (world, proposal) starts
                game = self.venv.game(int(slot))
                for _ in range(self.worlds):
                    seats.append(game.acting_seat)
                    worlds.append(determinize(game, game.acting_seat, self.rng))
                    starts += [(len(worlds) - 1, self.decisions[legal[i, pos]]) for pos in mine[i]]
            proposals.append(mine)
            spans.append((first, len(starts)))
        leaves = roll_out(worlds, seats, starts, self.students, LOOKAHEAD_KINDS,
                          ROLLOUT_QUESTIONS, ROLLOUT_LIMIT)
        value = leaves.finished_values([seats[w] for w, _ in starts], self.vp_weight)
        answers = []
        for (f, _, _, logits), mine, (first, end) in zip(asked, proposals, spans):
            going = first + np.flatnonzero(~leaves.over[first:end])
            if len(going):
                value[going] = self._values(f, leaves, going)
            answers.append(self._targets(value[first:end], mine, logits))
        return answers

    def _values(self, f: int, leaves, going: np.ndarray) -> np.ndarray:
        """Faction ``f``'s learner's values of the positions ``leaves`` reached at
        ``going``: the pointer network's value head in C++ (its native twin's, the same
        function as the learner's critic), the flat network's critic over the
        observation alone."""
        net = self.nets[f]
        if net.reads_candidates:
            return native_twin(self.students[f]).value(
                {"observation": leaves.obs[going], "projected_vp": leaves.projected[going]},
                net.vp_weight)
        index, value_in = leaves.nonzero_index[going], leaves.nonzero_value[going]
        value_in = np.where(index < leaves.obs.shape[1], value_in, 0.0)
        with torch.no_grad():
            return net.critic(to_csr(index, value_in, net.obs_size)).numpy()

    def _targets(self, value: np.ndarray, proposals: list[np.ndarray], logits: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
        """The moves and policy targets of one request from its starts' ``value``
        (proposal-major within a game, world-major without): all its games at once,
        their proposals padded to the most (the padding scores -inf), each move drawn
        as ``rng.choice`` draws it (one uniform a game, the shares' cumulative sum)."""
        n, width = logits.shape
        count = np.array([len(p) for p in proposals])
        padded = np.zeros((n, count.max()), np.int64)
        valid = np.arange(padded.shape[1]) < count[:, None]
        padded[valid] = np.concatenate(proposals)
        # start of game i, world w, proposal j: its first start plus w * count[i] + j
        first = np.cumsum(self.worlds * count) - self.worlds * count
        start = (first[:, None, None] + np.arange(self.worlds)[None, :, None] * count[:, None, None]
                 + np.arange(padded.shape[1])[None, None, :])
        mean = value[np.where(valid[:, None, :], start, 0)].mean(axis=1)
        log_p = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
        rows = np.arange(n)[:, None]
        scores = np.where(valid, mean + LOGP_WEIGHT * log_p[rows, padded], -np.inf)
        shares = improved_policy(scores, self.temperature)
        target = np.zeros((n, width), np.float32)
        target[np.nonzero(valid)[0], padded[valid]] = shares[valid]
        cdf = shares.cumsum(axis=1)
        cdf /= cdf[:, -1:]
        drawn = (cdf <= self.rng.random(n)[:, None]).sum(axis=1)
        self.searched += n
        return padded[np.arange(n), drawn], target
