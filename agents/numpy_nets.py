"""The numpy pieces that every learned actor shares: hidden-layer activations and a choice
among the actions a mask allows (no torch)."""

from __future__ import annotations

import numpy as np

#: Activation name (as saved in a policy file) -> its numpy function.
ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def check_input_size(size: int, expected: int) -> None:
    """ValueError unless a network that reads ``expected`` inputs is given ``size``: the
    observation's size follows the rules (card counts, market and spoils sizes, limits),
    so a network trained on other rules cannot read this game."""
    if size != expected:
        raise ValueError(
            f"this network reads {expected} inputs but the game's observation gives {size}: "
            f"it was trained for other rules (card counts, market or spoils sizes, limits "
            f"shape the observation); train a network for these rules")


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
