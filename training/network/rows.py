"""The compact rows the networks read, the one row store of the trainer.

The observation is sparse (about 90 of its 5,146 entries are non-zero in a typical
position, at most ~160) and few actions are legal (about 5 on average, at most ~40 of
1,040), so a decision is kept as the indices and values of its non-zero entries
(:func:`sparse_rows`, read by the network's first layer as a CSR matrix, :func:`to_csr`)
and its legal actions (:func:`legal_rows`, with their cards and candidate features,
:func:`legal_candidates`), each padded to a width. The rollouts
(:class:`training.loop.rollout.Rollout`), the search's labels and the teacher's warm
start all store their decisions in these arrays.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from singapore_env import native

#: The logit of the padding of a legal-action row.
PAD_LOGIT = -1e9


def _nonzero_positions(array: np.ndarray, width: int):
    """Rows, columns and positions within their row of ``array``'s non-zero entries, and
    the width that holds them: ``width``, or the widest row's count if that is more."""
    rows, cols = np.nonzero(array)
    counts = np.bincount(rows, minlength=array.shape[0])
    widest = int(counts.max()) if len(counts) else 0
    pos = np.arange(len(rows)) - np.repeat(np.cumsum(counts) - counts, counts)
    return rows, cols, pos, max(width, widest)


def sparse_rows(obs: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """``(index, value)`` of the non-zero entries of each row of ``obs`` (N, D), padded
    with index 0 and value 0 to ``width`` columns (more if a row has more); in C++ where
    the native module is built (the same rows, several times faster than the scan)."""
    if native.available():
        return native.require().nonzero_rows(np.ascontiguousarray(obs, np.float32), width)
    rows, cols, pos, width = _nonzero_positions(obs, width)
    n = obs.shape[0]
    index = np.zeros((n, width), np.int32)
    value = np.zeros((n, width), np.float32)
    index[rows, pos] = cols
    value[rows, pos] = obs[rows, cols]
    return index, value


def legal_rows(mask: np.ndarray, width: int, pad: int) -> np.ndarray:
    """The legal action indices of each row of ``mask`` (N, A), padded with ``pad`` to
    ``width`` columns (more if a row allows more)."""
    rows, cols, pos, width = _nonzero_positions(mask, width)
    legal = np.full((mask.shape[0], width), pad, np.int32)
    legal[rows, pos] = cols
    return legal


def legal_candidates(card: np.ndarray, features: np.ndarray, legal: np.ndarray, pad: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The cards ``(N, W)`` int32 and candidate features ``(N, W, k)`` of the actions of
    ``legal`` (:func:`legal_rows`), from the whole table's ``card`` (N, A) and
    ``features`` (N, A, k); zero at the padding."""
    valid = legal != pad
    cols = np.where(valid, legal, 0)
    rows = np.arange(len(legal))[:, None]
    cards = np.where(valid, card[rows, cols], 0).astype(np.int32)
    return cards, features[rows, cols] * valid[..., None]


def put_padded(target: np.ndarray, at, rows: np.ndarray, fill) -> np.ndarray:
    """Write ``rows`` into ``target[at]``, the columns past them set to ``fill``; a
    ``target`` too narrow for them is first widened with ``fill`` (the array written to
    is returned). Dimensions past the second (a feature row per column) are copied
    whole."""
    if rows.shape[1] > target.shape[1]:
        pad = ((0, 0), (0, rows.shape[1] - target.shape[1])) + ((0, 0),) * (target.ndim - 2)
        target = np.pad(target, pad, constant_values=fill)
    target[at, :rows.shape[1]] = rows
    target[at, rows.shape[1]:] = fill
    return target


def to_csr(index: np.ndarray, value: np.ndarray, size: int) -> scipy.sparse.csr_matrix:
    """The CSR matrix (rows, ``size`` columns) of padded rows of :func:`sparse_rows`."""
    keep = value != 0
    crow = np.zeros(len(index) + 1, np.int64)
    np.cumsum(keep.sum(axis=1), out=crow[1:])
    return scipy.sparse.csr_matrix((value[keep], index[keep], crow), shape=(len(index), size))
