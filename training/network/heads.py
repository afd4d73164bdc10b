"""The pointer network's heads in plain torch: :class:`PointerHead`, which scores each
action from what it refers to, and :class:`ValueHead`, which scores the position; the
pointer network (:class:`training.network.actor_critic.PointerActorCritic`) puts them
on its trunk::

    q      = Linear(state)                                  # the state's query
    key[a] = E_action[a] + E_card[card[a]] + W · features[a]
    logit[a] = q · key[a] + b[a] + w · features[a]
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from agents.outcome import projected_margin
from agents.pointer_actor import VALUE_KEYS


#: The torch module of each activation name of the configs.
ACTIVATION_MODULES = {"tanh": nn.Tanh, "relu": nn.ReLU}


class PointerHead(nn.Module):
    """Logits from the state's query and each action's key (see the module docstring)."""

    def __init__(self, hidden: int, n_actions: int, n_features: int, n_cards: int,
                 embed_dim: int):
        super().__init__()
        self.hidden, self.n, self.k = hidden, n_actions, n_features
        self.query = nn.Linear(hidden, embed_dim)
        self.action_embedding = nn.Parameter(torch.randn(n_actions, embed_dim) * 0.02)
        self.card_embedding = nn.Embedding(n_cards + 1, embed_dim)
        nn.init.normal_(self.card_embedding.weight, std=0.02)
        self.feature_key = nn.Linear(n_features, embed_dim, bias=False)
        self.feature_logit = nn.Linear(n_features, 1, bias=False)
        self.action_bias = nn.Parameter(torch.zeros(n_actions))

    def score(self, state: torch.Tensor, actions: torch.Tensor, cards: torch.Tensor,
              feats: torch.Tensor) -> torch.Tensor:
        """The logits of some actions only (those of :meth:`forward` at their columns):
        ``state`` (B, hidden), ``actions`` (B, W) action indices, their ``cards``
        (B, W) and features (B, W, n_features)."""
        keys = (self.action_embedding[actions] + self.card_embedding(cards)
                + self.feature_key(feats))
        logits = torch.einsum("be,bwe->bw", self.query(state), keys)
        return logits + self.action_bias[actions] + self.feature_logit(feats).squeeze(-1)

    def arrays(self) -> dict[str, np.ndarray]:
        """The head as the numpy actor's arrays (:class:`agents.pointer_actor.PointerActor`):
        its query, embeddings and feature weights."""
        def np_(t):
            return t.detach().cpu().numpy().astype(np.float32)

        return dict(query_w=np_(self.query.weight).T, query_b=np_(self.query.bias),
                    action_embedding=np_(self.action_embedding),
                    card_embedding=np_(self.card_embedding.weight),
                    feature_key=np_(self.feature_key.weight).T,
                    feature_logit=np_(self.feature_logit.weight)[0],
                    action_bias=np_(self.action_bias))


#: Initial skip weights of a new value head (win share, margin) on the projected margin.
SKIP_INIT = (4.0, 1.0)


class ValueHead(nn.Module):
    """The value head of a pointer network, on the trunk's state and the seats'
    projected VP: for the observing seat's faction ``[win share, VP margin]`` (the
    margin over 20 VP, as :func:`agents.outcome.outcome`)::

        v     = Linear(act(Linear(state))) + skip * projected_margin(projected_vp)
        value = [sigmoid(v0), tanh(v1)]

    A new head starts with its last layer at zero and the skip weights at
    :data:`SKIP_INIT`, that is as a smoothed projected-VP evaluation (win share
    ``sigmoid(4 m)``, margin ``tanh(m)`` for a projected margin ``m`` in units of 20 VP):
    it learns a correction to that evaluation rather than a value from nothing. Its
    arrays are :data:`agents.pointer_actor.VALUE_KEYS`, which the numpy actor and its
    native twin evaluate the same way."""

    def __init__(self, hidden: int, value_hidden: int, activation: str):
        super().__init__()
        act = ACTIVATION_MODULES[activation]
        self.net = nn.Sequential(nn.Linear(hidden, value_hidden), act(),
                                 nn.Linear(value_hidden, 2))
        nn.init.zeros_(self.net[2].weight)
        nn.init.zeros_(self.net[2].bias)
        self.skip = nn.Parameter(torch.tensor(SKIP_INIT))

    def logits(self, state: torch.Tensor, projected_vp: torch.Tensor) -> torch.Tensor:
        """``(B, 2)``: ``v`` before its sigmoid and tanh, for ``state`` (B, hidden) and
        the seats' ``projected_vp`` (B, 4; observer first, VP / VP_SCALE)."""
        margin = projected_margin(projected_vp, torch.maximum)
        return self.net(state) + self.skip * margin[:, None]

    def forward(self, state: torch.Tensor, projected_vp: torch.Tensor) -> torch.Tensor:
        """``(B, 2)``: the win share and the margin (see :meth:`logits`)."""
        out = self.logits(state, projected_vp)
        return torch.stack([torch.sigmoid(out[:, 0]), torch.tanh(out[:, 1])], dim=1)

    def arrays(self) -> dict[str, np.ndarray]:
        """The head as the numpy actor's :data:`~agents.pointer_actor.VALUE_KEYS`."""
        v0, v1 = self.net[0], self.net[2]
        return {k: t.detach().cpu().numpy().astype(np.float32) for k, t in zip(
            VALUE_KEYS, (v0.weight.T, v0.bias, v1.weight.T, v1.bias, self.skip))}

    def load(self, arrays) -> None:
        """Copy a numpy actor's value head (its :data:`VALUE_KEYS` arrays) into this one;
        ValueError if the shapes differ."""
        mine = self.arrays()
        got = {k: tuple(np.shape(arrays[k])) for k in VALUE_KEYS}
        if got != {k: v.shape for k, v in mine.items()}:
            raise ValueError(f"a value head of {got} does not fit this one "
                             f"({ {k: v.shape for k, v in mine.items()} })")
        v0, v1 = self.net[0], self.net[2]
        with torch.no_grad():
            for param, key, transpose in ((v0.weight, "value_w0", True),
                                          (v0.bias, "value_b0", False),
                                          (v1.weight, "value_w1", True),
                                          (v1.bias, "value_b1", False),
                                          (self.skip, "value_skip", False)):
                array = np.asarray(arrays[key], np.float32)
                param.copy_(torch.from_numpy(np.ascontiguousarray(array.T if transpose
                                                                  else array)))
