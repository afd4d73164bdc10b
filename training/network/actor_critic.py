"""The trainer's networks (torch trains, numpy plays), reading the compact rows of
:mod:`training.network.rows`, so they never touch the zeros:

* the first layer multiplies a sparse matrix of the rows' non-zero entries (kept as
  indices and values; scipy's CSR product, forward and backward)
  with its weights: the same product as ``x @ W`` at ~2 % of its cost (torch's
  ``EmbeddingBag`` with per-entry weights measured 4x slower forward and backward);
* the policy head scores only the legal actions (:func:`~training.network.rows.legal_rows`): the logits of a
  linear head over the whole table, computed at the legal columns only;
* a value head (one linear output) shares the trunk.

:meth:`ActorCritic.to_numpy` writes the actor as an :class:`agents.learned.NumpyPolicy`
(``learned:PATH`` plays it): dense ``w0`` = the first layer's matrix, the hidden layers, and
``head_w`` / ``head_b`` over the whole table. It gives the same logits on the legal
actions.

:class:`PointerActorCritic` is the pointer network on the same sparse trunk: the trunk
reads the observation and the seats' projected VP, and the pointer head
(:class:`training.network.heads.PointerHead`) scores each legal action from its query and
the action's key (its embedding, its card's, its candidate features': the per-action
rows of :mod:`singapore_env.candidates`); its value head is
:class:`training.network.heads.ValueHead`. :meth:`PointerActorCritic.to_numpy` writes both
as an :class:`agents.pointer_actor.PointerActor`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse
import torch
from torch import nn

from singapore_env.candidates import RULES_FEATURES

from training.network.rows import PAD_LOGIT

class SparseProduct(torch.autograd.Function):
    """``csr @ weight`` for a scipy CSR matrix (no gradient to the matrix)."""

    @staticmethod
    def forward(ctx, weight, csr):
        ctx.csr = csr
        return torch.from_numpy(csr @ weight.detach().numpy())

    @staticmethod
    def backward(ctx, grad):
        return torch.from_numpy(np.ascontiguousarray(ctx.csr.T @ grad.numpy())), None


class ActorCritic(nn.Module):
    """Sparse first layer, ``len(hidden) - 1`` dense hidden layers, a policy head over
    the legal actions and a value head."""

    #: Whether :meth:`forward` reads the legal actions' candidate features.
    reads_candidates = False

    def __init__(self, obs_size: int, n_actions: int, hidden: list[int],
                 activation: str = "tanh", flat_head: bool = True):
        super().__init__()
        if not hidden:
            raise ValueError("hidden needs at least one layer width")
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation must be 'tanh' or 'relu', got {activation!r}")
        self.obs_size, self.n_actions, self.activation = obs_size, n_actions, activation
        self.w0 = nn.Parameter(torch.randn(obs_size, hidden[0]) / np.sqrt(30.0))
        self.b0 = nn.Parameter(torch.zeros(hidden[0]))
        self.dense = nn.ModuleList(nn.Linear(a, b) for a, b in zip(hidden, hidden[1:]))
        self.act = torch.tanh if activation == "tanh" else torch.relu
        if flat_head:  # else a subclass brings its own policy and value heads
            self.head_w = nn.Parameter(torch.randn(n_actions, hidden[-1]) * 0.01)
            self.head_b = nn.Parameter(torch.zeros(n_actions))
            self.value = nn.Linear(hidden[-1], 1)

    def copy_layers(self, layers) -> None:
        """Copy numpy ``(weight, bias)`` layers (an actor's, inputs first) into the trunk."""
        with torch.no_grad():
            self.w0.copy_(torch.from_numpy(layers[0][0]))
            self.b0.copy_(torch.from_numpy(layers[0][1]))
            for m, (w, b) in zip(self.dense, layers[1:]):
                m.weight.copy_(torch.from_numpy(w.T))
                m.bias.copy_(torch.from_numpy(b))

    def trunk(self, csr: scipy.sparse.csr_matrix) -> torch.Tensor:
        x = self.act(SparseProduct.apply(self.w0, csr) + self.b0)
        for layer in self.dense:
            x = self.act(layer(x))
        return x

    def forward(self, csr, legal: np.ndarray, candidates=None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits over each row's legal actions (``legal`` padded with ``n_actions``;
        padding scores -1e9) and the values, for the observations of ``csr``
        (``candidates``: not read by this network)."""
        x = self.trunk(csr)
        rows, pos = np.nonzero(legal != self.n_actions)
        rows_t, pos_t = torch.from_numpy(rows), torch.from_numpy(pos)
        acts = torch.from_numpy(legal[rows, pos].astype(np.int64))
        scores = (x[rows_t] * self.head_w[acts]).sum(-1) + self.head_b[acts]
        logits = torch.full(legal.shape, PAD_LOGIT).index_put((rows_t, pos_t), scores)
        return logits, self.state_value(x, csr)

    def state_value(self, x: torch.Tensor, csr) -> torch.Tensor:
        """The values (N,) of the trunk's states ``x`` of the observations ``csr``."""
        return self.value(x).squeeze(-1)

    def critic(self, csr) -> torch.Tensor:
        """The values (N,) of the observations of ``csr`` (the value head alone)."""
        return self.state_value(self.trunk(csr), csr)

    def to_numpy(self, meta: dict | None = None):
        """The actor as an :class:`agents.learned.NumpyPolicy` (dense, whole table)."""
        from agents.learned import NumpyPolicy

        def np_(t):
            return t.detach().cpu().numpy().astype(np.float32)

        layers = [(np_(self.w0), np_(self.b0))]
        layers += [(np_(m.weight).T, np_(m.bias)) for m in self.dense]
        head = (np_(self.head_w).T, np_(self.head_b))
        return NumpyPolicy(layers, head, self.activation, meta)



class PointerActorCritic(ActorCritic):
    """The sparse trunk of :class:`ActorCritic` over the observation and the seats'
    projected VP (``obs_size + 4`` inputs, the projected VP last), a
    :class:`~training.network.heads.PointerHead` over the legal actions and a
    :class:`~training.network.heads.ValueHead` (``value_hidden`` units) whose win share
    plus ``vp_weight`` times its margin is the value PPO learns (the reward's sum,
    :class:`~training.loop.rollout.Collector`): it starts as a smoothed projected-VP
    evaluation, and the saved actor carries it and ``vp_weight`` (its meta), so the
    lookahead can score with it (``lookahead:DIR``). ``n_features`` candidate feature columns (the first
    ``n_features`` of :data:`singapore_env.candidates.FEATURES`)."""

    reads_candidates = True

    def __init__(self, obs_size: int, n_actions: int, hidden: list[int], activation: str,
                 n_features: int, n_cards: int, embed_dim: int, value_hidden: int = 64,
                 vp_weight: float = 0.0):
        from training.network.heads import PointerHead, ValueHead

        super().__init__(obs_size + 4, n_actions, hidden, activation, flat_head=False)
        self.n_features = n_features
        self.head = PointerHead(hidden[-1], n_actions, n_features, n_cards, embed_dim)
        self.value_head = ValueHead(hidden[-1], value_hidden, activation)
        self.vp_weight = vp_weight

    @classmethod
    def from_actor(cls, actor) -> "PointerActorCritic":
        """A network of a :class:`~agents.pointer_actor.PointerActor`'s shapes holding
        its weights (its value head's too if it has one, else a new one); the inverse of
        :meth:`to_numpy`."""
        hidden = [w.shape[1] for w, _ in actor.layers]
        value_hidden = actor.arrays["value_w0"].shape[1] if actor.has_value else 64
        net = cls(actor.layers[0][0].shape[0] - 4, actor.n_actions, hidden, actor.activation,
                  len(RULES_FEATURES), actor.arrays["card_embedding"].shape[0] - 1,
                  actor.arrays["query_w"].shape[1], value_hidden,
                  float(actor.meta.get("vp_weight", 0.0)))
        net.copy_actor(actor)
        return net

    def copy_actor(self, actor) -> None:
        """Copy a :class:`~agents.pointer_actor.PointerActor` of this network's shapes
        that reads no prior (its feature columns past the rules facts are written as
        zeros) into the trunk and the pointer head, and its value head if it has one
        (else this one's stays); ValueError if it does not fit."""
        from agents.pointer_actor import PointerActor

        if not isinstance(actor, PointerActor) or actor.meta.get("candidate_prior"):
            raise ValueError("not a pointer actor without a prior")
        head, a = self.head, actor.arrays
        want = {"w0": tuple(self.w0.shape), "query_w": tuple(head.query.weight.T.shape),
                "action_embedding": tuple(head.action_embedding.shape),
                "card_embedding": tuple(head.card_embedding.weight.shape)}
        got = {k: tuple(a[k].shape) for k in want}
        if (got != want or len(actor.layers) != len(self.dense) + 1
                or actor.activation != self.activation):
            raise ValueError(f"not a pointer actor of this shape ({want}, {self.activation});"
                             f" it has {got}")
        k = self.n_features
        with torch.no_grad():
            self.copy_layers(actor.layers)
            head.query.weight.copy_(torch.from_numpy(a["query_w"].T))
            head.query.bias.copy_(torch.from_numpy(a["query_b"]))
            head.action_embedding.copy_(torch.from_numpy(a["action_embedding"]))
            head.card_embedding.weight.copy_(torch.from_numpy(a["card_embedding"]))
            head.feature_key.weight.copy_(torch.from_numpy(a["feature_key"][:k].T))
            head.feature_logit.weight.copy_(torch.from_numpy(a["feature_logit"][None, :k]))
            head.action_bias.copy_(torch.from_numpy(a["action_bias"]))
        if actor.has_value:
            self.value_head.load(a)

    def forward(self, csr, legal: np.ndarray, candidates=None
                ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits over each row's legal actions and the values; ``csr`` holds the
        observations with the projected VP, ``candidates`` the legal actions' cards
        ``(N, W)`` and features ``(N, W, n_features)`` (W: ``legal``'s width)."""
        x = self.trunk(csr)
        cards, features = candidates
        valid = torch.from_numpy(legal != self.n_actions)
        actions = torch.from_numpy(np.where(legal != self.n_actions, legal, 0).astype(np.int64))
        scores = self.head.score(x, actions, torch.from_numpy(cards.astype(np.int64)),
                                 torch.from_numpy(features))
        return scores.masked_fill(~valid, PAD_LOGIT), self.state_value(x, csr)

    def state_value(self, x: torch.Tensor, csr) -> torch.Tensor:
        """The value head's win shares plus ``vp_weight`` times its margins (N,) of the
        states ``x`` of the observations ``csr`` (whose last four columns are the
        projected VP)."""
        projected = torch.from_numpy(csr[:, -4:].toarray().astype(np.float32))
        v = self.value_head(x, projected)
        return v[:, 0] + self.vp_weight * v[:, 1]

    def to_numpy(self, meta: dict | None = None):
        """The actor and its value head as an :class:`agents.pointer_actor.PointerActor` (its feature
        weights padded with zeros to every column of
        :data:`~singapore_env.candidates.FEATURES`, which the players' candidate
        encoders write: the columns not trained on weigh nothing)."""
        from agents.pointer_actor import PointerActor
        from singapore_env.candidates import FEATURES

        def np_(t):
            return t.detach().cpu().numpy().astype(np.float32)

        arrays = {"w0": np_(self.w0), "b0": np_(self.b0)}
        for i, m in enumerate(self.dense, 1):
            arrays[f"w{i}"], arrays[f"b{i}"] = np_(m.weight).T, np_(m.bias)
        arrays.update(self.head.arrays())
        extra = len(FEATURES) - self.n_features
        arrays["feature_key"] = np.pad(arrays["feature_key"], ((0, extra), (0, 0)))
        arrays["feature_logit"] = np.pad(arrays["feature_logit"], (0, extra))
        arrays.update(self.value_head.arrays())
        if self.vp_weight:
            meta = {**(meta or {}), "vp_weight": self.vp_weight}
        return PointerActor(arrays, self.activation, meta)
