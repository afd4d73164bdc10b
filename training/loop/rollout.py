"""Self-play collection on a :class:`singapore_env.vector.VectorEnv`: who plays each
faction of each game, one batched forward pass per network and step, the rows the
learners learn from, and their advantages.

Every game's two factions are played by the two learners, except that a new game gives
one faction (drawn) to a league opponent with probability ``league_share`` (an agent
spec of ``league``, drawn), or else to a frozen past self of that faction with
probability ``past_self_share`` (once the pool holds one; drawn by the pool's weights,
prioritized fictitious self-play, :mod:`training.loop.league`). That player plays the
whole game, even if the pool changes meanwhile; a past self's result against the
learner is counted in :attr:`Collector.results`. A decision of a learner is a row of its
faction's :class:`Rollout`; the others' decisions are played, not learned from. With a
search (:class:`training.loop.search.SelfPlaySearch`), a learner's main Action question
is answered by it, and the row keeps its policy target (:attr:`Rollout.target`).

A network that reads candidate features (the pointer network) gets, for each decision,
the legal actions' cards and features and the seats' projected VP from the vector env
(:meth:`singapore_env.vector.VectorEnv.candidates`, written in C++ on the native engine),
and its rows keep them. Where the native module is built, the pointer learners' logits
and values come from their native twins of the rollout's weights (one C++ pass of
their layers, the same floats to about 1e-5); the update differentiates the torch
networks.

Each seat of each game is one trajectory: its decisions in order, the reward at its
last one (the faction's share of the win: 1, 0, or a tie's share, so the two seats of a
faction share it; plus ``vp_weight`` times the faction's VP margin,
:func:`agents.outcome.outcome`), no discount by default. A trajectory still running at
the end of a rollout keeps its last row *pending*: the row moves to the front of the
next rollout, where the seat's next decision (its value: the seat's position then) or
the game's outcome completes it, whichever rollout the game ends in. Only complete rows
(:attr:`Rollout.ready`) are learned from.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from agents.native_nets import native_twin
from agents.outcome import outcome
from singapore_env import native

from training.network.actor_critic import ActorCritic
from training.network.rows import (PAD_LOGIT, legal_candidates, legal_rows, put_padded, sparse_rows,
                                   to_csr)

#: Starting width of the compact rows: non-zero observation entries and legal actions
#: (random play shows at most ~160 non-zero entries and ~40 legal actions; a rarer,
#: wider position widens the rows).
NONZERO_WIDTH = 256
LEGAL_WIDTH = 64
LEARNER = -1


class Rollout:
    """One faction's rows of a rollout (preallocated; ``n`` rows filled)."""

    #: The arrays a row is made of (the candidate ones only with ``n_features``).
    FIELDS = ("index", "value_in", "legal", "choice", "logp", "value", "stream", "target")

    def __init__(self, capacity: int, n_actions: int, n_features: int = 0):
        self.capacity, self.n, self.n_actions = capacity, 0, n_actions
        self.n_features = n_features
        # the legal actions' cards and candidate features (pointer network)
        self.cand_card = np.zeros((capacity, LEGAL_WIDTH) if n_features else (0, 0), np.int32)
        self.cand_feat = np.zeros((capacity, LEGAL_WIDTH, n_features) if n_features
                                  else (0, 0, 0), np.float32)
        self.index = np.zeros((capacity, NONZERO_WIDTH), np.int32)
        self.value_in = np.zeros((capacity, NONZERO_WIDTH), np.float32)
        self.legal = np.full((capacity, LEGAL_WIDTH), n_actions, np.int32)
        self.choice = np.zeros(capacity, np.int64)       # position in the legal row
        self.logp = np.zeros(capacity, np.float32)
        self.value = np.zeros(capacity, np.float32)
        self.reward = np.zeros(capacity, np.float32)
        self.terminal = np.zeros(capacity, np.bool_)
        self.stream = np.zeros(capacity, np.int64)        # slot * 4 + seat
        # the search's policy target over the legal row (all zeros: not searched)
        self.target = np.zeros((capacity, LEGAL_WIDTH), np.float32)
        self.ready = np.zeros(capacity, np.bool_)         # complete: learned from
        self.advantage = np.zeros(capacity, np.float32)
        self.ret = np.zeros(capacity, np.float32)

    def clear(self) -> None:
        self.n = 0
        self.reward[:] = 0.0
        self.terminal[:] = False
        self.ready[:] = False

    def carry(self, rows: np.ndarray) -> np.ndarray:
        """Clear, keeping the rows at ``rows`` (pending trajectories' last rows) as the
        first rows, in that order; their new positions."""
        kept = {k: getattr(self, k)[rows].copy() for k in self.FIELDS}
        candidates = ((self.cand_card[rows].copy(), self.cand_feat[rows].copy())
                      if self.n_features else None)
        self.clear()
        return self.add(*(kept[k] for k in self.FIELDS), candidates=candidates)

    def add(self, index, value_in, legal, choice, logp, value, stream, target=None,
            candidates=None) -> np.ndarray:
        """Append rows (``target``: the search's policy targets over their legal rows,
        None: none searched; ``candidates``: their legal actions' cards and features,
        kept when the rollout has ``n_features``); their positions."""
        k = len(choice)
        at = np.arange(self.n, self.n + k)
        self.put_rows(at, index, value_in, legal)
        if target is None:
            self.target[at] = 0.0
        else:
            self.target = put_padded(self.target, at, target, 0.0)
        if self.n_features:
            self.cand_card = put_padded(self.cand_card, at, candidates[0], 0)
            self.cand_feat = put_padded(self.cand_feat, at, candidates[1], 0)
        self.choice[at], self.logp[at], self.value[at], self.stream[at] = \
            choice, logp, value, stream
        self.n += k
        return at

    def put_rows(self, at, index, value_in, legal) -> None:
        """Write the compact rows at ``at`` (the arrays widened if they are wider)."""
        self.index = put_padded(self.index, at, index, 0)
        self.value_in = put_padded(self.value_in, at, value_in, 0)
        self.legal = put_padded(self.legal, at, legal, self.n_actions)

    def finish(self, gamma: float, lam: float, n_streams: int) -> None:
        """Generalized advantage estimates and returns of the complete rows: those that
        end their trajectory or that the same seat's next decision follows in this
        rollout. A pending row (its trajectory's last so far) gets none and is not
        :attr:`ready`; the rows before it bootstrap from its value."""
        next_value = np.zeros(n_streams, np.float32)
        next_adv = np.zeros(n_streams, np.float32)
        seen = np.zeros(n_streams, np.bool_)
        for t in range(self.n - 1, -1, -1):
            s = self.stream[t]
            if self.terminal[t]:
                nv, na = 0.0, 0.0
            elif seen[s]:
                nv, na = next_value[s], next_adv[s]
            else:                       # pending: completed in a later rollout
                self.advantage[t], self.ready[t] = 0.0, False
                next_value[s], next_adv[s], seen[s] = self.value[t], 0.0, True
                continue
            delta = self.reward[t] + gamma * nv - self.value[t]
            adv = delta + gamma * lam * na
            self.advantage[t], next_value[s], next_adv[s], seen[s] = adv, self.value[t], adv, True
            self.ready[t] = True
        self.ret[:self.n] = self.advantage[:self.n] + self.value[:self.n]


@dataclass
class Acted:
    """A network's forward pass over the games ``rows`` of a step: their compact
    observation rows, legal rows, logits, chosen positions in the legal rows (the
    policy's draw, or the search's), values, candidate keys (a pointer network's) and
    the search's targets (None: none searched)."""

    rows: np.ndarray
    index: np.ndarray
    value_in: np.ndarray
    legal: np.ndarray
    logits: np.ndarray
    choice: np.ndarray
    values: np.ndarray
    candidates: tuple | None
    target: np.ndarray | None = None

    def actions(self) -> np.ndarray:
        """The chosen answers' indices in the action table."""
        return self.legal[np.arange(len(self.rows)), self.choice]

    def logp(self) -> np.ndarray:
        """The log-probabilities of the chosen answers under the logits."""
        shifted = self.logits - self.logits.max(axis=1, keepdims=True)
        return (shifted[np.arange(len(self.rows)), self.choice]
                - np.log(np.exp(shifted).sum(axis=1)))


class Collector:
    """Steps the games and feeds each faction's acting seats to its network."""

    def __init__(self, venv, learners: list[ActorCritic], rng: np.random.Generator,
                 past_self_share: float, rollout_steps: int, gamma: float = 1.0,
                 lam: float = 0.95, league: list[str] = (), league_share: float = 0.0,
                 search=None, vp_weight: float = 0.0):
        self.venv, self.learners, self.rng = venv, learners, rng
        #: A finished game's reward: the faction's win share plus this times its margin.
        self.vp_weight = vp_weight
        #: The learners' lookahead at the main Action question
        #: (:class:`training.loop.search.SelfPlaySearch`), or None.
        self.search = search
        self.past_self_share, self.gamma, self.lam = past_self_share, gamma, lam
        self.league, self.league_share = list(league), league_share
        self.pool: list[list[ActorCritic]] = [[], []]
        # each past self's number (the trainer's) and its weight (empty: all equal)
        self.pool_ids: list[list[int]] = [[], []]
        self.pool_weights: list[list[float]] = [[], []]
        # past self's number -> [games, its faction's win share] against the learner
        self.results: dict[int, list] = {}
        n = venv.num_games
        # Room for every game's steps and the pending rows of its four seats.
        self.rollouts = [Rollout(n * (rollout_steps + 4), venv.num_actions,
                                 getattr(net, "n_features", 0) if net.reads_candidates else 0)
                         for net in learners]
        # Who plays each faction of each game: LEARNER, or the number of a past self or
        # a league agent in ``players`` (kept for the whole game, whatever the pool
        # becomes; numbered in order of first use, so the games are the same on every
        # run).
        self.controller = np.full((n, 2), LEARNER, np.int64)
        self.players: dict[int, object] = {}    # a network or a league agent
        self.source: dict[int, int] = {}        # a past self's player -> its pool number
        self.league_agents: dict[tuple, object] = {}  # (slot, spec) -> agent
        self.next_player = 0
        self.last_row = np.full((n, 4), -1, np.int64)
        self.games_played = 0
        self.obs, self.mask, self.seat = venv.reset()

    def _assign(self, slot: int) -> None:
        """Who plays the factions of the game starting in ``slot``."""
        self.controller[slot] = LEARNER
        u = self.rng.random()
        if u < self.league_share and self.league:
            faction = int(self.rng.integers(2))
            spec = self.league[int(self.rng.integers(len(self.league)))]
            agent = self.league_agents.get((slot, spec))
            if agent is None:
                from agents.registry import make_agent
                agent = self.league_agents[slot, spec] = make_agent(spec)
            agent.reset(int(self.rng.integers(2**31)))
            key, self.next_player = self.next_player, self.next_player + 1
            self.players[key] = agent
            self.controller[slot, faction] = key
        elif u < self.league_share + self.past_self_share:
            faction = int(self.rng.integers(2))
            if self.pool[faction]:
                i = self._pick_past_self(faction)
                net = self.pool[faction][i]
                key = next((k for k, p in self.players.items() if p is net), None)
                if key is None:
                    key, self.next_player = self.next_player, self.next_player + 1
                    self.players[key] = net
                    if self.pool_ids[faction]:
                        self.source[key] = self.pool_ids[faction][i]
                self.controller[slot, faction] = key
        in_play = set(self.controller[self.controller != LEARNER].tolist())
        self.players = {k: p for k, p in self.players.items() if k in in_play}
        self.source = {k: i for k, i in self.source.items() if k in in_play}

    def _pick_past_self(self, faction: int) -> int:
        """The position in the pool of the past self to play (by the pool's weights)."""
        n, weights = len(self.pool[faction]), self.pool_weights[faction]
        if len(weights) != n:
            return int(self.rng.integers(n))
        p = np.asarray(weights, np.float64)
        return int(self.rng.choice(n, p=p / p.sum()))

    def _act(self, net: ActorCritic, rows: np.ndarray, twin=None) -> Acted:
        """``net``'s policy in the games ``rows``: its answers drawn from its logits, which
        come with its values from ``twin`` where given (its native twin of the same
        weights: one C++ pass of its layers), else from ``net`` itself."""
        obs = self.obs[rows]
        legal = legal_rows(self.mask[rows], LEGAL_WIDTH, net.n_actions)
        width = int((legal != net.n_actions).sum(axis=1).max())
        candidates = used = None
        state_in = obs
        if net.reads_candidates:
            card, features, projected = self.venv.candidates(rows, net.n_features)
            state_in = np.concatenate([obs, projected], axis=1)
            candidates = legal_candidates(card, features, legal, net.n_actions)
            used = (candidates[0][:, :width], candidates[1][:, :width])
        index, value_in = sparse_rows(state_in, NONZERO_WIDTH)
        if twin is not None:
            logits, outcomes = twin.policy(obs, projected, legal[:, :width], *used, PAD_LOGIT)
            values = outcomes[:, 0] + np.float32(net.vp_weight) * outcomes[:, 1]
        else:
            with torch.no_grad():
                scored, valued = net(to_csr(index, value_in, net.obs_size), legal[:, :width],
                                     used)
            logits, values = scored.numpy(), valued.numpy()
        gumbel = -np.log(-np.log(self.rng.random(legal.shape) + 1e-12) + 1e-12)
        choice = (logits + gumbel[:, :width]).argmax(axis=1)
        return Acted(rows, index, value_in, legal, logits, choice, values, candidates)

    def _search(self, acted: list[Acted | None]) -> None:
        """The search's moves and targets in place of the policy's, where a learner
        (``acted[f]``: faction ``f``'s, None where it has no game) faces the main Action
        question: both factions' searches in one (:meth:`training.loop.search.
        SelfPlaySearch.choose`)."""
        asked = []
        for f, a in enumerate(acted):
            if a is not None:
                searched = np.flatnonzero(self.search.wanted(a.legal))
                if len(searched):
                    asked.append((f, a, searched))
        if not asked:
            return
        answers = self.search.choose([(f, a.rows[s], a.legal[s], a.logits[s])
                                      for f, a, s in asked])
        for (_, a, s), (choice, target) in zip(asked, answers):
            a.target = np.zeros(a.logits.shape, np.float32)
            a.choice[s], a.target[s] = choice, target

    def _agent_action(self, agent, slot: int) -> int:
        """The action index a league agent picks in ``slot``'s game."""
        from singapore_env.encoding import encoder_for

        game = self.venv.game(slot)
        decision = agent.choose(game, int(self.seat[slot]))
        return encoder_for(game.c, game.cfg).table.index(decision)

    def collect(self, steps: int, search: bool = True) -> int:
        """Play ``steps`` steps of every game into the rollouts (after the pending rows
        of the last one), the learners searching (where the collector has a search)
        unless ``search`` is false; the learned decisions made."""
        for f, r in enumerate(self.rollouts):
            games, seats = np.nonzero(self.last_row >= 0)
            mine = (seats >> 1) == f
            games, seats = games[mine], seats[mine]
            self.last_row[games, seats] = r.carry(self.last_row[games, seats])
        carried = sum(r.n for r in self.rollouts)
        searching = search and self.search is not None
        twins = self._twins(searching)
        n = self.venv.num_games
        actions = np.zeros(n, np.int64)
        slots = np.arange(n)
        for _ in range(steps):
            faction = self.seat >> 1
            who = self.controller[slots, faction]
            acted: list[Acted | None] = []
            for f in (0, 1):
                rows = np.flatnonzero((faction == f) & (who == LEARNER))
                acted.append(self._act(self.learners[f], rows, twins[f]) if len(rows) else None)
            if searching:
                self._search(acted)
            for f, a in enumerate(acted):
                if a is not None:
                    actions[a.rows] = a.actions()
                    at = self.rollouts[f].add(
                        a.index, a.value_in, a.legal, a.choice, a.logp(), a.values,
                        a.rows * 4 + self.seat[a.rows], a.target, candidates=a.candidates)
                    self.last_row[a.rows, self.seat[a.rows]] = at
            for f in (0, 1):
                mine = faction == f
                for k in np.unique(who[mine & (who != LEARNER)]):
                    rows = np.flatnonzero(mine & (who == k))
                    player = self.players[k]
                    if isinstance(player, torch.nn.Module):
                        actions[rows] = self._act(player, rows).actions()
                    else:
                        actions[rows] = [self._agent_action(player, r) for r in rows]
            self.obs, self.mask, self.seat, rewards, done = self.venv.step(actions)
            for slot in np.flatnonzero(done):
                self._end_game(slot, rewards[slot], self.venv.final_vp[slot])
        for r in self.rollouts:
            r.finish(self.gamma, self.lam, n * 4)
        return sum(r.n for r in self.rollouts) - carried

    def _twins(self, searching: bool) -> list:
        """The learners' native twins of their weights now, for this rollout (None where
        a learner is not a pointer network with a value head or the module is not
        built); the search takes the same weights for its rollouts."""
        twins: list = [None, None]
        pointers = native.available() and all(net.reads_candidates for net in self.learners)
        if not (searching or pointers):
            return twins
        students = [net.to_numpy() for net in self.learners]
        if searching:
            self.search.refresh(self.learners, students)
        if pointers:
            twins = [native_twin(s) for s in students]
        return twins

    def close(self) -> None:
        """Close the vector env."""
        self.venv.close()

    def _end_game(self, slot: int, rewards: np.ndarray, final_vp: np.ndarray) -> None:
        share = (rewards[0] + rewards[1], rewards[2] + rewards[3])
        reward = share
        if self.vp_weight:
            reward = tuple(share[f] + self.vp_weight * outcome(final_vp.tolist(), 2 * f)[1]
                           for f in (0, 1))
        for f in (0, 1):
            number = self.source.get(int(self.controller[slot, f]))
            if number is not None:
                result = self.results.setdefault(number, [0, 0.0])
                result[0] += 1
                result[1] += float(share[f])
        for seat in range(4):
            row = self.last_row[slot, seat]
            if row >= 0:
                r = self.rollouts[seat >> 1]
                r.reward[row], r.terminal[row] = reward[seat >> 1], True
        self.last_row[slot] = -1
        self.games_played += 1
        self._assign(slot)

