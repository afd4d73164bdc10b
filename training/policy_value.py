"""The policy-value network of expert iteration (torch): the action-aware pointer policy
of :mod:`training.pointer_policy` plus a value head.

::

    s        = MLP(observation, projected_vp)                     # the state (trunk)
    logit[a] = PointerHead(s, candidate_card[a], candidate_features[a])
    value    = ValueHead(s, projected_vp)                          # [win share, margin]

The policy part is the same trunk and :class:`~training.pointer_head.PointerHead` as
the PPO pointer policy, so a shipped reference policy (``agents/policies/*.npz``) is a
valid starting point (:meth:`PolicyValueNet.from_actor`: its weights copied, the value
head new). The value head (:class:`~training.pointer_head.ValueHead`) shares the trunk
and predicts, for the observing seat's faction, its win share and its VP margin over
the other faction (over 20 VP, clipped: :func:`agents.outcome.outcome`); a new one
starts as a smoothed projected-VP evaluation: with the few hundred games an iteration
affords, the outcome of one game is too noisy a target to learn a value from nothing,
so the head learns a correction to the evaluation the search already trusts. :meth:`PolicyValueNet.to_actor` exports a numpy
:class:`~agents.pointer_actor.PointerActor` whose ``value`` / ``outcome`` compute the
same numbers without torch.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from agents.pointer_actor import PointerActor
from singapore_env.candidates import FEATURES

from .export import network_arrays
from .pointer_head import ACTIVATION_MODULES, PointerHead, ValueHead, mlp


class PolicyValueNet(nn.Module):
    """Pointer policy logits and a two-output value head over a shared state MLP."""

    def __init__(self, obs_dim: int, n_actions: int, n_cards: int,
                 net_arch: tuple = (256, 256), embed_dim: int = 32, value_hidden: int = 64,
                 activation: str = "tanh", candidate_prior: str | None = "heuristic"):
        super().__init__()
        if not net_arch:
            raise ValueError("net_arch needs at least one hidden layer")
        act = ACTIVATION_MODULES[activation]
        self.activation, self.candidate_prior = activation, candidate_prior or None
        self.trunk = mlp([obs_dim + 4] + list(net_arch), act)
        hidden = int(net_arch[-1])
        self.head = PointerHead(hidden, n_actions, len(FEATURES), n_cards, embed_dim)
        self.value_head = ValueHead(hidden, value_hidden, activation)

    def forward(self, obs: dict) -> tuple[torch.Tensor, torch.Tensor]:
        """``(logits (B, N), value (B, 2))`` for a batch of observation dicts (float
        tensors of the keys ``observation``, ``projected_vp``, ``candidate_card``,
        ``candidate_features``). The logits are not masked."""
        state = self.trunk(torch.cat([obs["observation"], obs["projected_vp"]], dim=1))
        latent = torch.cat([state, obs["candidate_card"], obs["candidate_features"].flatten(1)],
                           dim=1)
        return self.head(latent), self.value_head(state, obs["projected_vp"])

    # -------------------------------------------------------------- numpy actors
    def to_actor(self, meta: dict | None = None) -> PointerActor:
        """The numpy actor (policy and value head) of this network."""
        arrays = network_arrays(self.trunk, self.head)
        arrays.update(self.value_head.arrays())
        meta = dict(meta or {})
        if self.candidate_prior:
            meta["candidate_prior"] = self.candidate_prior
        return PointerActor(arrays, self.activation, meta)

    @classmethod
    def from_actor(cls, actor: PointerActor, value_hidden: int = 64) -> "PolicyValueNet":
        """A network holding ``actor``'s weights; its value head too if it has one, a
        fresh one (torch's current seed) otherwise."""
        a = actor.arrays
        arch = tuple(int(w.shape[1]) for w, _ in actor.layers)
        if actor.has_value:
            value_hidden = int(a["value_w0"].shape[1])
        net = cls(int(actor.layers[0][0].shape[0]) - 4, int(a["action_embedding"].shape[0]),
                  int(a["card_embedding"].shape[0]) - 1, arch,
                  int(a["action_embedding"].shape[1]), value_hidden, actor.activation,
                  actor.meta.get("candidate_prior"))

        def put(param, array):
            with torch.no_grad():
                param.copy_(torch.as_tensor(np.ascontiguousarray(array)))

        linears = [m for m in net.trunk if isinstance(m, nn.Linear)]
        for (w, b), m in zip(actor.layers, linears):
            put(m.weight, w.T)
            put(m.bias, b)
        h = net.head
        put(h.query.weight, a["query_w"].T)
        put(h.query.bias, a["query_b"])
        put(h.action_embedding, a["action_embedding"])
        put(h.card_embedding.weight, a["card_embedding"])
        put(h.feature_key.weight, a["feature_key"].T)
        put(h.feature_logit.weight, a["feature_logit"][None, :])
        put(h.action_bias, a["action_bias"])
        if actor.has_value:
            net.value_head.load(a)
        return net


def network_dims(config=None, content=None) -> dict:
    """``obs_dim``, ``n_actions`` and ``n_cards`` of the observation of a ruleset and
    content (the sizes a network from scratch needs)."""
    from agents.base import _encoder_for
    from singapore_env.engine import Game

    encoder = _encoder_for(Game(0, config, content))
    return {"obs_dim": encoder.size, "n_actions": encoder.n_actions,
            "n_cards": len(encoder.c.defs)}


def as_tensors(obs: dict, rows=slice(None)) -> dict:
    """Float tensors of the rows ``rows`` of stored observation arrays (compact dtypes
    such as float16 features or int16 card ids widened to float32)."""
    return {k: torch.as_tensor(np.asarray(v[rows], np.float32)) for k, v in obs.items()}
