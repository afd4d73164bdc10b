"""Trained torch networks to the numpy actors of :mod:`agents` (which never import
torch): an SB3 policy (MLP or the action-aware pointer policy) and a torch MLP actor
(RLlib's) become a :class:`~agents.learned.NumpyPolicy` or
:class:`~agents.pointer_actor.PointerActor` that ``learned:FILE`` plays once saved.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.learned import NumpyPolicy
from agents.pointer_actor import PointerActor


def actor_from_sb3(policy, meta: dict | None = None) -> NumpyPolicy | PointerActor:
    """The numpy actor of an SB3 policy (MLP or action-aware pointer policy)."""
    if "candidate_card" in getattr(policy.observation_space, "spaces", {}):
        return pointer_actor_from_sb3(policy, meta)
    return mlp_actor_from_torch([policy.mlp_extractor.policy_net, policy.action_net], meta)


def load_sb3_actor(path: str | Path) -> NumpyPolicy | PointerActor:
    """The numpy actor of the policy in an SB3 ``.zip`` checkpoint."""
    from sb3_contrib import MaskablePPO

    return actor_from_sb3(MaskablePPO.load(path, device="cpu").policy)


def mlp_actor_from_torch(modules, meta: dict | None = None) -> NumpyPolicy:
    """Copy a torch MLP actor given as modules in order (for SB3: the policy net and
    the action head; for RLlib: the actor encoder and the policy head): its Linear
    layers, the last one the head, with one activation (Tanh or ReLU) between them."""
    import torch.nn as nn

    linears, activations = [], set()
    for module in (m for part in modules for m in part.modules()):
        if isinstance(module, nn.Linear):
            linears.append((module.weight.detach().cpu().numpy().T,
                            module.bias.detach().cpu().numpy()))
        elif isinstance(module, (nn.ReLU, nn.Tanh)):
            activations.add("relu" if isinstance(module, nn.ReLU) else "tanh")
        elif not list(module.children()) and not isinstance(module, nn.Identity):
            raise ValueError(f"unsupported layer in the policy net: {module!r}")
    if not linears or len(activations) > 1:
        raise ValueError(f"expected Linear layers with one activation, got "
                         f"{len(linears)} Linear and activations {sorted(activations)}")
    return NumpyPolicy(linears[:-1], linears[-1],
                       activations.pop() if activations else "tanh", meta)


def pointer_actor_from_sb3(policy, meta: dict | None = None) -> PointerActor:
    """Copy the actor of a :class:`~training.pointer_policy.PointerPolicy`."""
    import torch.nn as nn

    net = policy.mlp_extractor.policy_net
    activation = "relu" if any(isinstance(m, nn.ReLU) for m in net) else "tanh"
    meta = dict(meta or {})
    if getattr(policy, "candidate_prior", None):
        meta["candidate_prior"] = policy.candidate_prior
    return PointerActor(network_arrays(net, policy.action_net), activation, meta)


def network_arrays(trunk, head) -> dict[str, np.ndarray]:
    """The numpy arrays of a torch pointer network: the linear layers of the state MLP
    ``trunk`` (``w0``, ``b0``, ...) and the pointer ``head``'s query, embeddings and
    feature weights (a :class:`training.pointer_head.PointerHead`)."""
    import torch.nn as nn

    def np_(t):
        return t.detach().cpu().numpy()

    arrays = {}
    for i, m in enumerate(m for m in trunk if isinstance(m, nn.Linear)):
        arrays[f"w{i}"], arrays[f"b{i}"] = np_(m.weight).T, np_(m.bias)
    arrays.update(head_arrays(head))
    return arrays


def head_arrays(head) -> dict[str, np.ndarray]:
    """The numpy arrays of a :class:`training.pointer_head.PointerHead`: its query,
    embeddings and feature weights."""
    def np_(t):
        return t.detach().cpu().numpy()

    return dict(query_w=np_(head.query.weight).T, query_b=np_(head.query.bias),
                action_embedding=np_(head.action_embedding),
                card_embedding=np_(head.card_embedding.weight),
                feature_key=np_(head.feature_key.weight).T,
                feature_logit=np_(head.feature_logit.weight)[0],
                action_bias=np_(head.action_bias))

