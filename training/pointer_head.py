"""The pointer network's parts in plain torch (no Stable-Baselines3): :class:`PointerHead`,
which scores each action from what it refers to, and :func:`mlp`, the state trunk's
layers. The batched self-play network (:mod:`training.ppo_network`), expert iteration's
policy-value network (:mod:`training.policy_value`) and the SB3 pointer policy
(:mod:`training.pointer_policy`) are built from them::

    q      = Linear(state)                                  # the state's query
    key[a] = E_action[a] + E_card[card[a]] + W · features[a]
    logit[a] = q · key[a] + b[a] + w · features[a]
"""

from __future__ import annotations

import torch
from torch import nn


def mlp(sizes: list[int], activation) -> nn.Sequential:
    """Linear layers of ``sizes``, each followed by ``activation``."""
    layers: list[nn.Module] = []
    for a, b in zip(sizes, sizes[1:]):
        layers += [nn.Linear(a, b), activation()]
    return nn.Sequential(*layers)


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

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        h, n = self.hidden, self.n
        state = latent[:, :h]
        cards = latent[:, h:h + n].long()
        feats = latent[:, h + n:].reshape(-1, n, self.k)
        keys = self.action_embedding + self.card_embedding(cards) + self.feature_key(feats)
        logits = torch.einsum("be,bne->bn", self.query(state), keys)
        return logits + self.action_bias + self.feature_logit(feats).squeeze(-1)

    def score(self, state: torch.Tensor, actions: torch.Tensor, cards: torch.Tensor,
              feats: torch.Tensor) -> torch.Tensor:
        """The logits of some actions only (those of :meth:`forward` at their columns):
        ``state`` (B, hidden), ``actions`` (B, W) action indices, their ``cards``
        (B, W) and features (B, W, n_features)."""
        keys = (self.action_embedding[actions] + self.card_embedding(cards)
                + self.feature_key(feats))
        logits = torch.einsum("be,bwe->bw", self.query(state), keys)
        return logits + self.action_bias[actions] + self.feature_logit(feats).squeeze(-1)
