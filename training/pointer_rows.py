"""Compact decision rows of the pointer policy (for :mod:`training.dagger`).

A decision row keeps what :class:`agents.pointer_actor.PointerActor` reads, at the size
of what is there: the non-zero entries of the state (``observation`` and
``projected_vp``, ~90 of 5,150) and, for each *legal* action only, its index, card and
candidate features (:mod:`singapore_env.candidates`). That is ~1 kB a decision instead of
the ~45 kB of the dense observation dict, so hundreds of thousands of labelled decisions
fit in memory. :class:`DecisionRows` holds the states as
:class:`~training.sparse_rows.SparseRows` and the legal actions' arrays end to end with
offsets, and pads one minibatch at a time.

:meth:`DecisionRows.batch` gives a minibatch as the self-play trainer's pointer network
reads it (:class:`training.ppo_network.PointerActorCritic`, which starts from a
``PointerActor`` with ``from_actor`` and writes one back with ``to_numpy``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse

from singapore_env.candidates import CandidateEncoder

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
        #: Row -> target share of each legal action, for the rows given one (the others:
        #: all on the label).
        self.targets: dict[int, np.ndarray] = {}

    def observe(self, game, seat: int) -> tuple[dict, np.ndarray]:
        """The actor's observation dict of ``seat`` and the legal action indices."""
        obs = {"observation": self.encoder.encode(game, seat),
               **self.candidates.encode(game, seat)}
        return obs, np.array(self.encoder.legal_indices(game), np.int64)

    def add(self, obs: dict, legal: np.ndarray, label: int,
            target: np.ndarray | None = None) -> None:
        """One row: ``obs`` and ``legal`` of :meth:`observe`, ``label`` a position in
        ``legal``; ``target`` a share of each legal action to learn instead of the label
        alone (a search's improved policy)."""
        if target is not None:
            self.targets[len(self.labels)] = target
        self.states.append(SparseRows.from_dense(
            np.concatenate([obs["observation"], obs["projected_vp"]])[None]))
        self.actions["legal"].append(legal.astype(np.int16))
        self.actions["cards"].append(obs["candidate_card"][legal].astype(np.int16))
        self.actions["feats"].append(obs["candidate_features"][legal].astype(np.float16))
        self.labels.append(label)

    def rows(self) -> "DecisionRows":
        """The rows written so far."""
        sizes = [len(a) for a in self.actions["legal"]]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        labels = np.array(self.labels, np.int16)
        target = None
        if self.targets:
            target = one_hot(offsets, labels)
            for row, share in self.targets.items():
                target[offsets[row]:offsets[row + 1]] = share
        return DecisionRows(SparseRows.concatenate(self.states), offsets,
                            *(np.concatenate(self.actions[k]) for k in ACTION_ARRAYS),
                            labels, target)


def one_hot(act_offsets: np.ndarray, label: np.ndarray) -> np.ndarray:
    """Per-action target shares that put each row's whole share on its label."""
    target = np.zeros(int(act_offsets[-1]), np.float16)
    target[act_offsets[:-1] + label] = 1.0
    return target


@dataclass
class DecisionRows:
    """Labelled decisions: the states (5,150 wide: observation and projected VP) by
    their non-zero entries; the legal actions of row ``i`` at
    ``act_offsets[i]:act_offsets[i + 1]`` of ``legal``, ``cards`` and ``feats``; the
    label, a position among them; ``target`` (optional, per action like ``legal``) the
    share of each legal action to learn, where the labels came with an improved policy
    (:mod:`training.dagger`'s ``target_temperature``)."""

    state: SparseRows
    act_offsets: np.ndarray
    legal: np.ndarray
    cards: np.ndarray
    feats: np.ndarray
    label: np.ndarray
    target: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.label)

    def save(self, path) -> None:
        s = self.state
        np.savez(path, state_indptr=s.indptr, state_indices=s.indices, state_values=s.values,
                 state_shape=np.array(s.row_shape),
                 act_offsets=self.act_offsets, label=self.label,
                 **{k: getattr(self, k) for k in ACTION_ARRAYS},
                 **({} if self.target is None else {"target": self.target}))

    @classmethod
    def load(cls, path) -> "DecisionRows":
        with np.load(path) as d:
            state = SparseRows(d["state_indptr"], d["state_indices"], d["state_values"],
                               tuple(d["state_shape"]))
            return cls(state, d["act_offsets"], *(d[k] for k in ACTION_ARRAYS), d["label"],
                       d["target"] if "target" in d else None)

    @classmethod
    def join(cls, parts: list["DecisionRows"]) -> "DecisionRows":
        """The rows of ``parts`` end to end (with targets where any part has them)."""
        bases = np.cumsum([0] + [p.act_offsets[-1] for p in parts[:-1]])
        offsets = np.concatenate([[0]] + [p.act_offsets[1:] + b for p, b in zip(parts, bases)])
        target = None
        if any(p.target is not None for p in parts):
            target = np.concatenate([one_hot(p.act_offsets, p.label) if p.target is None
                                     else p.target for p in parts])
        return cls(SparseRows.concatenate([p.state for p in parts]), offsets.astype(np.int64),
                   *(np.concatenate([getattr(p, k) for p in parts]) for k in ACTION_ARRAYS),
                   np.concatenate([p.label for p in parts]), target)

    def batch(self, ids: np.ndarray, net) -> tuple:
        """``(csr, legal, (cards, feats), label)`` of rows ``ids`` as ``net`` (a
        :class:`~training.ppo_network.PointerActorCritic`) reads them: the states as a
        CSR matrix, the per-action arrays padded to the widest row."""
        s = self.state[ids]
        csr = scipy.sparse.csr_matrix((s.values, s.indices, s.indptr),
                                      shape=(len(ids), net.obs_size))
        src, valid = self._padded(ids)
        legal = np.where(valid, self.legal[src], net.n_actions).astype(np.int64)
        cards = np.where(valid, self.cards[src], 0).astype(np.int64)
        feats = np.where(valid[..., None], self.feats[src][..., :net.n_features], 0)
        return csr, legal, (cards, feats.astype(np.float32)), self.label[ids].astype(np.int64)

    def target_batch(self, ids: np.ndarray) -> np.ndarray:
        """The target shares of rows ``ids`` padded as in :meth:`batch` (zero on the
        padding; all on the label for rows without targets)."""
        src, valid = self._padded(ids)
        if self.target is None:
            return (np.arange(valid.shape[1]) == self.label[ids][:, None]).astype(np.float32)
        return np.where(valid, self.target[src], 0).astype(np.float32)

    def _padded(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(src, valid)``, ``(N, W)``: where in the per-action arrays each padded slot
        of rows ``ids`` reads (0 on the padding), and which slots are legal actions."""
        a = self.act_offsets
        counts = a[ids + 1] - a[ids]
        pos = np.arange(int(counts.max()))
        valid = pos[None, :] < counts[:, None]
        return np.where(valid, a[ids][:, None] + pos[None, :], 0), valid
