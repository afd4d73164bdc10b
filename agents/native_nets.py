"""The forward passes of the numpy actors in C++ (``native/nets.hpp``): the flat
:class:`~agents.learned.NumpyPolicy` and the :class:`~agents.pointer_actor.PointerActor`
with its value head, from the same float32 arrays (a float16 file loaded as the Python
side loads it), with the numpy actor's interface.

    actor = native_actor(NumpyPolicy.load(path))     # NativeUnavailable if not built
    actor.logits(obs)      # one observation (dict for a pointer policy), or a batch of rows
    actor.outcome(obs), actor.value(obs, vp_weight)   # a network with a value head

The logits equal numpy's to float32 rounding (within :data:`TOLERANCE`, relative above
1: the sums run in another order), so the decisions are the same but where the two
best legal logits lie within that of each other. :func:`compare` measures it on
positions of random native games (:func:`random_positions`):
``tests/test_native_nets.py`` and ``scripts/native_nets_soak.py``. A batch of rows is
one call into C++ with the GIL released, split among ``threads`` threads.
"""

from __future__ import annotations

import random
import weakref
from dataclasses import dataclass
from typing import NamedTuple, Protocol

import numpy as np

from singapore_env import native
from singapore_env.candidates import PRIOR_GAP_FLOOR, PRIOR_SCALE, VP_SCALE, CandidateEncoder
from singapore_env.engine.content import default_content
from singapore_env.engine.game import Game

from .numpy_nets import check_input_size, masked_choice
from .outcome import MARGIN_SCALE, outcome
from .pointer_actor import PointerActor
from .priors import resolve_prior

#: How far a native output may lie from numpy's, over ``max(1, |numpy's|)``; two legal
#: logits this close are a near-tie, which the engines may order either way.
TOLERANCE = 1e-4


class Actor(Protocol):
    """A numpy actor as its native twin reads it: a :class:`~agents.pointer_actor.
    PointerActor`, or the flat ``agents.learned.NumpyPolicy`` (not imported here:
    ``agents.learned`` imports this module)."""

    needs_candidates: bool
    meta: dict


class NativeActor:
    """A numpy actor's forward passes in C++: ``logits``, ``outcome``, ``value`` and
    ``choose`` as the numpy actor's, for one position or a batch of rows."""

    def __init__(self, policy: Actor, threads: int = 1):
        module = native.require()
        # (no reference to ``policy`` is kept: the twin cache is weakly keyed by it)
        self.needs_candidates = policy.needs_candidates
        self.meta = policy.meta
        if isinstance(policy, PointerActor):
            arrays = policy.arrays
        else:
            arrays = {"head_w": policy.head[0], "head_b": policy.head[1]}
            for i, (w, b) in enumerate(policy.layers):
                arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        self._net = module.Net(arrays, policy.activation,
                               float(np.float32(VP_SCALE / MARGIN_SCALE)), threads)
        self.has_value = self._net.has_value
        self.n_actions = self._net.n_actions
        self.threads = self._net.threads

    def logits(self, obs) -> np.ndarray:
        """Logits over the action table of one observation (as the numpy actor reads
        it: the vector, or for a pointer policy the dict with the candidate keys), or of
        a batch (arrays with a leading axis of positions)."""
        if not self._net.has_logits:
            raise ValueError("this network has no policy head (a value network: outcome "
                             "and value only)")
        if not self.needs_candidates:
            x = _floats(obs)
            check_input_size(x.shape[-1], self._net.obs_size)
            out = self._net.logits(x.reshape(-1, x.shape[-1]))
            return out if x.ndim > 1 else out[0]
        x, pv = self._state_input(obs)
        n = len(pv.reshape(-1, 4))
        out = self._net.logits(x.reshape(n, -1), _floats(obs["candidate_card"]).reshape(n, -1),
                               _floats(obs["candidate_features"]).reshape(n, self.n_actions, -1),
                               pv.reshape(n, 4))
        return out if x.ndim > 1 else out[0]

    def outcome(self, obs: dict) -> np.ndarray:
        """The value head's ``[win share, VP margin]`` (float32; ``(n, 2)`` for a batch);
        ValueError if the network has none."""
        if not self.has_value:
            raise ValueError("this policy has no value head (a file saved without "
                             "value_w0..value_b1, e.g. a shipped PPO policy)")
        x, pv = self._state_input(obs)
        out = self._net.outcome(x.reshape(-1, x.shape[-1]), pv.reshape(-1, 4))
        return out if x.ndim > 1 else out[0]

    def policy(self, observation: np.ndarray, projected: np.ndarray, legal: np.ndarray,
               cards: np.ndarray, features: np.ndarray, pad_logit: float
               ) -> tuple[np.ndarray, np.ndarray]:
        """A pointer network's logits of a batch's legal actions and its value head's
        ``[win share, VP margin]``, from one pass of the hidden layers: ``observation``
        (n, D), ``projected`` (n, 4), ``legal`` (n, W) the legal actions' indices padded
        with the table's size after them, ``cards`` (n, W) and ``features`` (n, W, k) the
        legal actions' (:func:`training.network.rows.legal_candidates`, k up to the
        network's feature columns: the rest read as zeros). Returns the logits (n, W),
        ``pad_logit`` at the padding, and the outcomes (n, 2)."""
        full = self._net.n_features
        if features.shape[2] < full:
            features = np.pad(features, ((0, 0), (0, 0), (0, full - features.shape[2])))
        return self._net.policy(_floats(observation), _floats(projected),
                                np.ascontiguousarray(legal, np.int32), _floats(cards),
                                _floats(features), float(pad_logit))

    def value(self, obs: dict, vp_weight: float = 0.0):
        """Win share plus ``vp_weight`` times the VP margin (a float; an array for a
        batch), as :meth:`PointerActor.value`."""
        out = self.outcome(obs)
        score = out[..., 0] + vp_weight * out[..., 1]
        return float(score) if out.ndim == 1 else score

    def choose(self, obs: dict, mask: np.ndarray, rng: np.random.Generator | None,
               deterministic: bool = True) -> int:
        """Best (or sampled) legal action for one observation dict, as the numpy actor's
        ``choose``."""
        x = obs if self.needs_candidates else obs["observation"]
        return masked_choice(self.logits(x), mask, rng, deterministic)

    def _state_input(self, obs: dict) -> tuple[np.ndarray, np.ndarray]:
        x, pv = _floats(obs["observation"]), _floats(obs["projected_vp"])
        check_input_size(x.shape[-1] + 4, self._net.obs_size + 4)
        return x, pv


def _floats(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32)


_TWINS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def native_twin(policy: Actor) -> NativeActor | Actor:
    """What plays ``policy`` on a native game: its native actor (one a policy, built at
    the first call), or ``policy`` itself where the module is not built."""
    if not native.available():
        return policy
    twin = _TWINS.get(policy)
    if twin is None:
        twin = _TWINS[policy] = native_actor(policy)
    return twin


def native_net(policy: Actor):
    """The C++ network of ``policy``'s native twin (:func:`native_twin`), as the native
    players (rollout, rerank, search) take it."""
    return native_twin(policy)._net


class Leaves(NamedTuple):
    """What a batch of rollouts reached (:func:`roll_out`), a row a start."""

    over: np.ndarray        # (n,) bool: the game ended
    final_vp: np.ndarray    # (n, 4) int64: its final VP where it ended (zeros elsewhere)
    obs: np.ndarray         # (n, D) float32: the seat's observation where it did not
    projected: np.ndarray   # (n, 4) float32: the seat's projected VP (singapore_env.candidates.projected_vp)
    played: np.ndarray      # (n,) int64: the decisions the students played
    #: (n, width) int32 and float32: the nonzero entries of ``obs`` then ``projected`` (as
    #: indices D to D + 3), indices ascending, padded with index 0 and value 0 to the
    #: widest row (:func:`training.network.rows.sparse_rows` of the two side by side)
    nonzero_index: np.ndarray
    nonzero_value: np.ndarray

    def finished_values(self, seats, vp_weight: float) -> np.ndarray:
        """Each start's value where its game ended, for its seat ``seats[k]``: the win
        share plus ``vp_weight`` times the VP margin (:func:`agents.outcome.outcome`);
        zero where it did not end (the value head's to score)."""
        value = np.zeros(len(self.over))
        for k in np.flatnonzero(self.over):
            win, margin = outcome(self.final_vp[k].tolist(), int(seats[k]))
            value[k] = win + vp_weight * margin
        return value


def roll_out(worlds: list, seats: list[int], starts: list[tuple[int, object]], students: list,
             kinds, questions: int, limit: int) -> Leaves:
    """A lookahead's rollouts in C++ (``native/rollout.hpp``), all in lockstep, each
    network layer run once for every rollout waiting on that network: for each start
    ``(w, decision)``, a copy of the native game ``worlds[w]`` after ``decision``, where
    ``students[f]``, the policy of faction ``f``, answers each of its seats' questions
    with its most likely legal answer (the same forward passes and inputs as a learned
    agent on a native game, so the same decisions, in any batch), until ``seats[w]``
    faces a question offering one of ``kinds`` for the ``questions``-th time, the game
    ends or ``limit`` decisions are played. The worlds are not changed."""
    from singapore_env.native.encoding import native_candidates_for, native_encoder_for

    if not worlds:
        raise ValueError("no worlds to roll out from")
    encoder = native_encoder_for(worlds[0].c, worlds[0].cfg)
    candidates = native_candidates_for(encoder)
    british, malay = (native_net(policy) for policy in students)
    first = [native_action(d) for _, d in starts]
    return Leaves(*native.require().roll_out(
        [w._game for w in worlds], [int(s) for s in seats], [int(w) for w, _ in starts],
        [k for k, _ in first], [a for _, a in first], encoder._writer, candidates._writer,
        british, malay, [int(k) for k in kinds], questions, limit))


def native_action(decision) -> tuple[int, int]:
    """A decision's (kind, arg) as the native engine takes it."""
    return int(decision[0]), int(decision[1])


def rerank_choose(game, seat: int, params, generator, policies, prior_columns, searched,
                  topk: int, gap: float, margin: float):
    """:meth:`agents.rerank.RerankAgent.choose` of a native game, in one C++ call
    (``native/rerank.hpp``): the heuristic's answer (``params``: its native params,
    ties drawn from ``generator``, a :class:`~singapore_env.native.Random` advanced in
    place, as ``heuristic_choose``) unless the question is one of ``searched`` with
    several answers, where ``policies[f]``, the pointer network of the seat's faction
    ``f`` (reading the heuristic's prior columns where ``prior_columns[f]``), picks among
    the heuristic's candidates (``topk``, ``gap``), the heuristic's answer raised by
    ``margin``. Returns (the decision, whether the network overruled the heuristic)."""
    encoder, candidates = _writers(game)
    return native.require().rerank_choose(
        game._game, seat, params, generator._gen, encoder, candidates,
        native_net(policies[0]), native_net(policies[1]), prior_columns,
        PRIOR_SCALE, PRIOR_GAP_FLOOR, searched, topk, gap, margin, game._meta[3])


def pointer_choose(game, policy, prior=None):
    """The most likely legal decision of the pointer ``policy`` for the acting seat of a
    native game, in one C++ call (``native/rerank.hpp`` pointer_logits): its logits from
    the observation and the candidate keys, with the heuristic's option scores (``prior``:
    its native params) in the prior columns where given, as
    :meth:`agents.learned.LearnedAgent.choose` (deterministic) decides."""
    encoder, candidates = _writers(game)
    return native.require().pointer_choose(game._game, game.acting_seat, encoder, candidates,
                                           native_net(policy), prior, PRIOR_SCALE,
                                           PRIOR_GAP_FLOOR, game._meta[3])


def _writers(game) -> tuple:
    """The C++ observation and candidate writers of a native game's content and rules."""
    from singapore_env.native.encoding import native_candidates_for, native_encoder_for

    if not isinstance(game, native.NativeGame):
        raise TypeError(f"not a native game: {type(game).__name__}")
    cfg, content = game._meta[:2]
    encoder = native_encoder_for(content, cfg)
    return encoder._writer, native_candidates_for(encoder)._writer


def native_actor(policy: Actor, threads: int = 1) -> NativeActor:
    """``policy``'s forward passes in C++ (``threads`` share a batch);
    :class:`~singapore_env.native.NativeUnavailable` where the module is not built."""
    return NativeActor(policy, threads)


# ---------------------------------------------------------------- the differential check
def random_positions(ruleset: str, seeds, every: int = 7, prior: str | None = None) -> list[dict]:
    """Observation dicts (the observation, the candidate keys, the legal mask) of the
    acting seat at every ``every``-th decision of random native games, one per seed;
    with a ``prior`` (a policy's ``candidate_prior``), its columns written by the Python
    prior on a Python copy of each position."""
    from singapore_env.engine.config import RulesConfig
    from singapore_env.native.encoding import NativeCandidateEncoder, native_encoder_for

    cfg = RulesConfig.named(ruleset)
    content = default_content(cfg.slavery)
    encoder = native_encoder_for(content, cfg)
    candidates = NativeCandidateEncoder(encoder)
    scorer = (CandidateEncoder.for_observations(encoder.python, resolve_prior(prior))
              if prior else None)
    out = []
    for seed in seeds:
        game, pick = native.NativeGame(seed, cfg, content), random.Random(seed)
        while not game.is_over:
            legal = game.legal_decisions()
            if game.decisions % every == 0:
                seat = game.acting_seat
                obs = {"observation": encoder.encode(game, seat), **candidates.encode(game, seat),
                       "action_mask": encoder.legal_mask(game, seat)}
                if scorer is not None:
                    scorer._prior_columns(Game.from_json(game.to_json(), content),
                                          seat, obs["candidate_features"])
                out.append(obs)
            game.step(pick.choice(legal))
    return out


@dataclass
class Comparison:
    """How far a native actor's outputs lie from numpy's over some positions. A
    difference is measured against ``max(1, |numpy's value|)`` (absolute below 1,
    relative above: float32 holds a logit of 500 to 3e-5)."""

    positions: int = 0
    max_abs_diff: float = 0.0       # over every action's logit and the value head's outputs
    max_scaled_diff: float = 0.0    # the same, over max(1, |numpy's value|): within TOLERANCE
    near_ties: int = 0              # two best legal numpy logits within TOLERANCE
    tie_flips: int = 0              # of those, the ones where the two engines chose apart
    mismatches: int = 0             # best legal actions that differ away from a near-tie

    def add(self, other: "Comparison") -> None:
        """Count ``other``'s positions in this comparison."""
        self.positions += other.positions
        self.max_abs_diff = max(self.max_abs_diff, other.max_abs_diff)
        self.max_scaled_diff = max(self.max_scaled_diff, other.max_scaled_diff)
        self.near_ties += other.near_ties
        self.tie_flips += other.tie_flips
        self.mismatches += other.mismatches

    def see(self, want: np.ndarray, got: np.ndarray) -> None:
        """Count the differences of one output array."""
        diff = np.abs(got.astype(np.float64) - want)
        self.max_abs_diff = max(self.max_abs_diff, float(diff.max()))
        self.max_scaled_diff = max(self.max_scaled_diff,
                                   float((diff / np.maximum(1.0, np.abs(want))).max()))

    def decide(self, want: np.ndarray, got: np.ndarray, mask: np.ndarray) -> None:
        """Count one decision: the best legal action by either engine's logits."""
        legal = np.flatnonzero(mask)
        ranked = np.sort(want[legal])
        tie = len(legal) > 1 and ranked[-1] - ranked[-2] <= TOLERANCE * max(1.0, abs(ranked[-1]))
        same = legal[np.argmax(want[legal])] == legal[np.argmax(got[legal])]
        self.near_ties += int(tie)
        self.tie_flips += int(tie and not same)
        self.mismatches += int(not tie and not same)


def compare(policy: Actor, positions: list[dict],
            batch: int = 64) -> Comparison:
    """The native actor of ``policy`` against ``policy`` on ``positions``: the logits
    and decisions (where the network has a policy head) and the value head's outcome
    (where it has one), the native side in batches of ``batch`` rows."""
    ours = native_actor(policy)
    result = Comparison(positions=len(positions))
    keys = ("observation", "candidate_card", "candidate_features", "projected_vp")
    pointer = policy.needs_candidates
    has_logits = not pointer or "query_w" in policy.arrays
    for start in range(0, len(positions), batch):
        part = positions[start:start + batch]
        rows = {k: np.stack([p[k] for p in part]) for k in keys}
        if has_logits:
            got = ours.logits(rows if pointer else rows["observation"])
            for p, native_logits in zip(part, got):
                want = policy.logits(p if pointer else p["observation"])
                result.see(want, native_logits)
                result.decide(want, native_logits, p["action_mask"])
        if pointer and policy.has_value:
            for p, native_outcome in zip(part, ours.outcome(rows)):
                result.see(policy.outcome(p), native_outcome)
    return result
