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
    those ``mask`` allows: always one of them, whatever the logits hold. A NaN logit
    counts as -inf; the best is the highest legal logit, the lowest index among equals
    (so the first legal action where every legal logit is -inf or NaN), as the native
    players choose (``native/rollout.hpp`` best). A sample is drawn from the softmax of
    the legal logits, uniformly among the highest where that is infinite."""
    legal = np.flatnonzero(np.asarray(mask).astype(bool))
    if not len(legal):
        raise ValueError("the action mask allows no action")
    values = np.asarray(logits)[legal]
    values = np.where(np.isnan(values), -np.inf, values)
    top = values.max()
    if deterministic or rng is None:
        return int(legal[np.argmax(values)])
    if np.isfinite(top):
        z = np.exp(values - top)
    else:
        z = (values == top).astype(values.dtype)
    return int(legal[rng.choice(len(z), p=z / z.sum())])


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
