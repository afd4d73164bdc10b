"""An action-aware ("pointer") policy for sb3-contrib's MaskablePPO.

A plain MLP maps the flat observation to one logit per action index, so it must learn
separately that "activate tableau position 3" is good when a Godown lies there and bad
when a School does. This policy scores each action from what the action *refers to*
(:mod:`singapore_env.candidates`, observation keys ``candidate_card`` and
``candidate_features``), sharing what it learns about a card across every slot, hand
index and position that can hold it::

    q      = Linear(MLP(observation, projected_vp))         # the state's query
    key[a] = E_action[a] + E_card[card[a]] + W · features[a]
    logit[a] = q · key[a] + b[a] + w · features[a]

The value head is a separate MLP on the observation. Use it with
``FactionEnv(candidates=True)``::

    MaskablePPO(PointerPolicy, FactionEnv("malay", candidates=True),
                policy_kwargs={"net_arch": [256, 256], "embed_dim": 32})

:func:`training.export.pointer_actor_from_sb3` copies the actor to numpy.
"""

from __future__ import annotations

import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from .pointer_head import PointerHead, mlp


class CandidateExtractor(BaseFeaturesExtractor):
    """Concatenates the state (``observation`` and ``projected_vp``), ``candidate_card``
    and the flattened ``candidate_features`` (in that order) for the split done by
    :class:`PointerExtractor`."""

    def __init__(self, observation_space):
        d = observation_space["observation"].shape[0] + observation_space["projected_vp"].shape[0]
        n, k = observation_space["candidate_features"].shape
        super().__init__(observation_space, d + n + n * k)
        self.sizes = (d, n, k)

    def forward(self, obs: dict) -> torch.Tensor:
        return torch.cat([obs["observation"], obs["projected_vp"], obs["candidate_card"],
                          obs["candidate_features"].flatten(1)], dim=1)


class PointerExtractor(nn.Module):
    """The ``mlp_extractor``: state MLPs for the actor and the critic; the actor's
    latent carries the candidate block through to :class:`PointerHead` unchanged."""

    def __init__(self, sizes: tuple[int, int, int], net_arch, activation):
        super().__init__()
        d, _, _ = sizes
        pi_arch = net_arch["pi"] if isinstance(net_arch, dict) else list(net_arch)
        vf_arch = net_arch["vf"] if isinstance(net_arch, dict) else list(net_arch)
        self.d = d
        self.policy_net = mlp([d] + pi_arch, activation)
        self.value_net = mlp([d] + vf_arch, activation)
        self.hidden = pi_arch[-1] if pi_arch else d
        self.latent_dim_pi = self.hidden + sum(sizes) - d
        self.latent_dim_vf = vf_arch[-1] if vf_arch else d

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return torch.cat([self.policy_net(features[:, :self.d]), features[:, self.d:]], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features[:, :self.d])


class PointerPolicy(MaskableMultiInputActorCriticPolicy):
    """MaskablePPO policy with a :class:`PointerHead` (``embed_dim`` sized keys).

    ``candidate_prior`` names the prior whose scores the env writes into the candidate
    features (:mod:`singapore_env.candidates`; ``None``: no prior); it travels with the
    policy so that its numpy actor asks for the same features."""

    def __init__(self, *args, embed_dim: int = 32, candidate_prior: str | None = None,
                 **kwargs):
        self.embed_dim = embed_dim
        self.candidate_prior = candidate_prior
        kwargs.setdefault("features_extractor_class", CandidateExtractor)
        super().__init__(*args, **kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "embed_dim": self.embed_dim,
                "candidate_prior": self.candidate_prior}

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = PointerExtractor(self.features_extractor.sizes, self.net_arch,
                                              self.activation_fn)

    def _build(self, lr_schedule) -> None:
        self._build_mlp_extractor()
        _, n, k = self.features_extractor.sizes
        n_cards = int(self.observation_space["candidate_card"].high.max())
        self.action_net = PointerHead(self.mlp_extractor.hidden, n, k, n_cards, self.embed_dim)
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.mlp_extractor.apply(lambda m: self.init_weights(m, gain=np.sqrt(2)))
            self.value_net.apply(lambda m: self.init_weights(m, gain=1))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)
