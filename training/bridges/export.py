"""The bridges' torch actors to the numpy actors of :mod:`agents` (which never import
torch): an SB3 MLP policy and a torch MLP actor (RLlib's) become a
:class:`~agents.learned.NumpyPolicy` that ``learned:FILE`` plays once saved.
"""

from __future__ import annotations

from pathlib import Path

from agents.learned import NumpyPolicy


def actor_from_sb3(policy, meta: dict | None = None) -> NumpyPolicy:
    """The numpy actor of an SB3 MLP policy."""
    return mlp_actor_from_torch([policy.mlp_extractor.policy_net, policy.action_net], meta)


def load_sb3_actor(path: str | Path) -> NumpyPolicy:
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
