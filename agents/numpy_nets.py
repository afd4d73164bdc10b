"""The numpy pieces that every learned actor shares: hidden-layer activations, a choice
among the actions a mask allows and the writing of its file (no torch)."""

from __future__ import annotations

import os
from pathlib import Path

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


def save_npz(path: str | Path, **arrays) -> None:
    """``np.savez_compressed(path, **arrays)`` written whole or not at all: into a
    temporary file beside ``path``, then renamed over it, so that a reader (or a run
    stopped mid-write) never meets a half-written network. As numpy does, ``.npz`` is
    appended to a path without it."""
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **arrays)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
