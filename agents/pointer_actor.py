"""The actor of a :class:`training.pointer_policy.PointerPolicy` in numpy (no torch).

Same interface as :class:`agents.learned.NumpyPolicy` (``choose``, ``save``,
``load``; :mod:`training.bridges.export` copies one out of torch) but its input is the
observation *dict* with the candidate keys
of :mod:`singapore_env.candidates`; ``needs_candidates`` tells the agent to supply them.

A policy-value network (:class:`training.policy_value.PolicyValueNet`, expert
iteration) adds a *value head* on the state MLP's output: the arrays
:data:`VALUE_KEYS`, one hidden layer and two outputs, the observing seat's faction's
predicted win share (sigmoid, in [0, 1]) and its VP margin over the other faction
(tanh: over 20 VP, as :func:`agents.outcome.outcome` scores it). Each output also
reads the faction's projected margin (:func:`agents.outcome.projected_margin`) through
a skip weight, so a new head (last layer zero) starts as a smoothed projected-VP
evaluation, the one the search uses without a network, and training learns a
correction to it.
:meth:`PointerActor.value` and :meth:`PointerActor.outcome` read them; a file without
them (the shipped policies) loads and plays as before, with ``has_value`` false.
The value head reads only ``observation`` and ``projected_vp``, never the candidate
features, so it can score a position from any seat's view.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .net_files import meta_of
from .numpy_nets import ACTIVATIONS, check_input_size, masked_choice, save_npz
from .outcome import projected_margin

KIND = "pointer"
#: Arrays of the optional value head: hidden layer (weights, bias), output layer, and
#: the weights of the projected-margin skip input of the two outputs.
VALUE_KEYS = ("value_w0", "value_b0", "value_w1", "value_b1", "value_skip")


class PointerActor:
    """State MLP, query, action and card embeddings, feature weights (numpy float32)."""

    needs_candidates = True

    def __init__(self, arrays: dict[str, np.ndarray], activation: str = "tanh",
                 meta: dict | None = None):
        if activation not in ACTIVATIONS:
            raise ValueError(f"unknown activation {activation!r}; known: {sorted(ACTIVATIONS)}")
        self.arrays = {k: np.asarray(v, np.float32) for k, v in arrays.items()}
        n_layers = sum(1 for k in self.arrays if k.startswith("w"))
        self.layers = [(self.arrays[f"w{i}"], self.arrays[f"b{i}"]) for i in range(n_layers)]
        self.activation = activation
        self._act = ACTIVATIONS[activation]
        self.meta = dict(meta or {})

    @property
    def n_actions(self) -> int:
        return self.arrays["action_embedding"].shape[0]

    @property
    def has_value(self) -> bool:
        """Whether the file carried a value head (:data:`VALUE_KEYS`)."""
        return all(k in self.arrays for k in VALUE_KEYS)

    def state(self, obs: dict) -> np.ndarray:
        """The state MLP's output for ``observation`` and ``projected_vp``."""
        x = np.concatenate([np.asarray(obs["observation"], np.float32),
                            np.asarray(obs["projected_vp"], np.float32)])
        check_input_size(x.shape[-1], self.layers[0][0].shape[0])
        for w, b in self.layers:
            x = self._act(x @ w + b)
        return x

    def logits(self, obs: dict) -> np.ndarray:
        a = self.arrays
        x = self.state(obs)
        query = x @ a["query_w"] + a["query_b"]
        cards = np.asarray(obs["candidate_card"]).astype(np.int64)
        feats = np.asarray(obs["candidate_features"], np.float32)
        keys = a["action_embedding"] + a["card_embedding"][cards] + feats @ a["feature_key"]
        return keys @ query + a["action_bias"] + feats @ a["feature_logit"]

    def outcome(self, obs: dict) -> np.ndarray:
        """The value head's ``[win share, VP margin]`` for the observing seat's faction
        (float32; ValueError if the file has no value head)."""
        if not self.has_value:
            raise ValueError("this policy has no value head (a file saved without "
                             "value_w0..value_b1, e.g. a shipped PPO policy)")
        a = self.arrays
        h = self._act(self.state(obs) @ a["value_w0"] + a["value_b0"])
        out = h @ a["value_w1"] + a["value_b1"] + a["value_skip"] * projected_margin(
            obs["projected_vp"])
        return np.array([1.0 / (1.0 + np.exp(-out[0])), np.tanh(out[1])], np.float32)

    def value(self, obs: dict, vp_weight: float = 0.0) -> float:
        """Predicted outcome for the observing seat's faction: its win share plus
        ``vp_weight`` times its VP margin (the score :class:`agents.mcts.MctsAgent`
        gives a finished game)."""
        win, margin = self.outcome(obs)
        return float(win + vp_weight * margin)

    def choose(self, obs: dict, mask: np.ndarray, rng: np.random.Generator | None,
               deterministic: bool = True) -> int:
        """Best (or sampled) legal action for one observation dict."""
        return masked_choice(self.logits(obs), mask, rng, deterministic)

    def save(self, path: str | Path, dtype=np.float32) -> None:
        """Write the actor as a compressed ``.npz``, its weights as ``dtype`` (float16
        halves the file; loading reads them back as float32)."""
        extra = {f"meta_{k}": np.array(v) for k, v in self.meta.items()}
        arrays = {k: v.astype(dtype) for k, v in self.arrays.items()}
        save_npz(path, kind=np.array(KIND), activation=np.array(self.activation),
                 **arrays, **extra)

    @classmethod
    def from_arrays(cls, data: dict) -> "PointerActor":
        """Build from the checked arrays of a file written by :meth:`save`
        (:func:`agents.net_files.read_network`)."""
        skip = {"kind", "activation"}
        arrays = {k: v for k, v in data.items() if k not in skip and not k.startswith("meta_")}
        return cls(arrays, data["activation"], meta_of(data))
