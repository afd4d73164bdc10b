"""The numpy pieces that every learned actor shares: hidden-layer activations and a choice
among the actions a mask allows (no torch)."""

from __future__ import annotations

import numpy as np

#: Activation name (as saved in a policy file) -> its numpy function.
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def masked_choice(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None,
                  deterministic: bool = True) -> int:
    """The best (or, with ``rng`` and not ``deterministic``, a sampled) action among
    those ``mask`` allows."""
    legal = mask.astype(bool)
    if not legal.any():
        raise ValueError("the action mask allows no action")
    logits = np.where(legal, logits, -np.inf)
    if deterministic or rng is None:
        return int(np.argmax(logits))
    z = np.exp(logits - logits.max())
    return int(rng.choice(len(z), p=z / z.sum()))
