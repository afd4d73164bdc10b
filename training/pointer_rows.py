"""The pointer policy in torch over compact decision rows (for :mod:`training.dagger`).

A decision row keeps what :class:`agents.pointer_actor.PointerActor` reads, at the size
of what is there: the non-zero entries of the state (``observation`` and
``projected_vp``, ~90 of 5,150) and, for each *legal* action only, its index, card and
candidate features (:mod:`singapore_env.candidates`). That is ~1 kB a decision instead of
the ~45 kB of the dense observation dict, so hundreds of thousands of labelled decisions
fit in memory. :class:`DecisionRows` holds the states as
:class:`~training.sparse_rows.SparseRows` and the legal actions' arrays end to end with
offsets, and pads one minibatch at a time.

:class:`PointerNet` is the actor in torch, with the first layer's product taken over the
non-zero entries only (:mod:`training.ppo_network`); it starts from a ``PointerActor``
and gives the same logits on the legal actions, and :meth:`PointerNet.to_actor` writes it
back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
import torch
from torch import nn

from agents.pointer_actor import PointerActor
from singapore_env.candidates import CandidateEncoder

from .ppo_network import PAD_LOGIT, SparseProduct
from .sparse_rows import SparseRows

#: The per-action arrays of a :class:`DecisionRows` (the legal actions' rows end to end).
ACTION_ARRAYS = ("legal", "cards", "feats")


class RowWriter:
    """Reads a seat's decision from a game into rows (the state's non-zero entries, the
    legal actions with their cards and features), with a label each."""

    def __init__(self, encoder):
        self.encoder = encoder
        self.candidates = CandidateEncoder.for_observations(encoder)
        self.states: list[SparseRows] = []
        self.actions: dict[str, list] = {k: [] for k in ACTION_ARRAYS}
        self.labels: list[int] = []

    def observe(self, game, seat: int) -> tuple[dict, np.ndarray]:
        """The actor's observation dict of ``seat`` and the legal action indices."""
        obs = {"observation": self.encoder.encode(game, seat),
               **self.candidates.encode(game, seat)}
        return obs, np.array(self.encoder.legal_indices(game), np.int64)

    def add(self, obs: dict, legal: np.ndarray, label: int) -> None:
        """One row: ``obs`` and ``legal`` of :meth:`observe`, ``label`` a position in
        ``legal``."""
        self.states.append(SparseRows.from_dense(
            np.concatenate([obs["observation"], obs["projected_vp"]])[None]))
        self.actions["legal"].append(legal.astype(np.int16))
        self.actions["cards"].append(obs["candidate_card"][legal].astype(np.int16))
        self.actions["feats"].append(obs["candidate_features"][legal].astype(np.float16))
        self.labels.append(label)

    def rows(self) -> "DecisionRows":
        """The rows written so far."""
        sizes = [len(a) for a in self.actions["legal"]]
        return DecisionRows(SparseRows.concatenate(self.states),
                            np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                            *(np.concatenate(self.actions[k]) for k in ACTION_ARRAYS),
                            np.array(self.labels, np.int16))


@dataclass
class DecisionRows:
    """Labelled decisions: the states (5,150 wide: observation and projected VP) by
    their non-zero entries; the legal actions of row ``i`` at
    ``act_offsets[i]:act_offsets[i + 1]`` of ``legal``, ``cards`` and ``feats``; the
    label, a position among them."""

    state: SparseRows
    act_offsets: np.ndarray
    legal: np.ndarray
    cards: np.ndarray
    feats: np.ndarray
    label: np.ndarray

    def __len__(self) -> int:
        return len(self.label)

    def save(self, path) -> None:
        s = self.state
        np.savez(path, state_indptr=s.indptr, state_indices=s.indices, state_values=s.values,
                 state_shape=np.array(s.row_shape),
                 act_offsets=self.act_offsets, label=self.label,
                 **{k: getattr(self, k) for k in ACTION_ARRAYS})

    @classmethod
    def load(cls, path) -> "DecisionRows":
        with np.load(path) as d:
            state = SparseRows(d["state_indptr"], d["state_indices"], d["state_values"],
                               tuple(d["state_shape"]))
            return cls(state, d["act_offsets"], *(d[k] for k in ACTION_ARRAYS), d["label"])

    @classmethod
    def join(cls, parts: list["DecisionRows"]) -> "DecisionRows":
        """The rows of ``parts`` end to end."""
        bases = np.cumsum([0] + [p.act_offsets[-1] for p in parts[:-1]])
        offsets = np.concatenate([[0]] + [p.act_offsets[1:] + b for p, b in zip(parts, bases)])
        return cls(SparseRows.concatenate([p.state for p in parts]), offsets.astype(np.int64),
                   *(np.concatenate([getattr(p, k) for p in parts]) for k in ACTION_ARRAYS),
                   np.concatenate([p.label for p in parts]))

    def batch(self, ids: np.ndarray, in_size: int, pad_action: int) -> tuple:
        """``(csr, legal, cards, feats, label)`` of rows ``ids``: the states as a CSR
        matrix, the per-action arrays padded to the widest row (``pad_action``)."""
        s = self.state[ids]
        csr = scipy.sparse.csr_matrix((s.values, s.indices, s.indptr), shape=(len(ids), in_size))
        a = self.act_offsets
        counts = a[ids + 1] - a[ids]
        pos = np.arange(int(counts.max()))
        valid = pos[None, :] < counts[:, None]
        src = np.where(valid, a[ids][:, None] + pos[None, :], 0)
        legal = np.where(valid, self.legal[src], pad_action).astype(np.int64)
        cards = np.where(valid, self.cards[src], 0).astype(np.int64)
        feats = np.where(valid[..., None], self.feats[src], 0).astype(np.float32)
        return csr, legal, cards, feats, self.label[ids].astype(np.int64)


class PointerNet(nn.Module):
    """A :class:`~agents.pointer_actor.PointerActor` in torch (tanh state MLP)."""

    def __init__(self, actor: PointerActor):
        super().__init__()
        if actor.activation != "tanh":
            raise ValueError(f"a pointer actor with tanh layers is needed, got {actor.activation}")
        self.meta = dict(actor.meta)
        self.weights = nn.ParameterDict({k: nn.Parameter(torch.from_numpy(v.copy()))
                                         for k, v in actor.arrays.items()})
        self.n_layers = len(actor.layers)
        self.in_size, self.n_actions = actor.layers[0][0].shape[0], actor.n_actions

    def forward(self, csr, legal: np.ndarray, cards: np.ndarray, feats: np.ndarray):
        """Logits over each row's legal actions (``legal`` padded with ``n_actions``,
        whose logits are -1e9)."""
        p = self.weights
        x = torch.tanh(SparseProduct.apply(p["w0"], csr) + p["b0"])
        for i in range(1, self.n_layers):
            x = torch.tanh(x @ p[f"w{i}"] + p[f"b{i}"])
        query = x @ p["query_w"] + p["query_b"]
        valid = torch.from_numpy(legal != self.n_actions)
        acts = torch.from_numpy(np.minimum(legal, self.n_actions - 1))
        f = torch.from_numpy(feats)
        keys = p["action_embedding"][acts] + p["card_embedding"][torch.from_numpy(cards)] \
            + f @ p["feature_key"]
        logits = (keys * query[:, None, :]).sum(-1) + p["action_bias"][acts] \
            + f @ p["feature_logit"]
        return torch.where(valid, logits, torch.full_like(logits, PAD_LOGIT))

    def to_actor(self, meta: dict | None = None) -> PointerActor:
        """The network as a numpy actor (``meta`` added to the one it started with)."""
        arrays = {k: v.detach().numpy().astype(np.float32) for k, v in self.weights.items()}
        return PointerActor(arrays, "tanh", {**self.meta, **(meta or {})})
