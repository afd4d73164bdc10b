"""Rows of a mostly-zero array kept by their non-zero entries.

A recorded decision's observation is about 2 % non-zero and its candidate features
(1,040 actions, of which about 5 are legal) about 0.2 %: stored densely a row takes
about 55 KB, and a replay buffer of several large iterations tens of GB.
:class:`SparseRows` keeps those arrays in a twentieth of the space or less (a
recorded row then takes about 10 KB, most of it the dense masks and targets). It answers the few
operations the training code asks of a row array: ``len``, ``shape``, ``dtype``,
indexing by rows (a slice, indices or a boolean mask; the result is again sparse) and
``np.asarray`` (the dense rows, exactly the values stored).
"""

from __future__ import annotations

import numpy as np


class SparseRows:
    """``n`` rows of shape ``row_shape``: for row ``i`` the flat positions
    ``indices[indptr[i]:indptr[i + 1]]`` hold ``values`` at the same places."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, values: np.ndarray,
                 row_shape: tuple[int, ...]):
        self.indptr, self.indices, self.values = indptr, indices, values
        self.row_shape = tuple(row_shape)

    @classmethod
    def from_dense(cls, array: np.ndarray) -> "SparseRows":
        """The non-zero entries of ``array`` (rows along its first axis)."""
        flat = array.reshape(len(array), -1)
        rows, cols = np.nonzero(flat)
        indptr = np.zeros(len(array) + 1, np.int64)
        np.cumsum(np.bincount(rows, minlength=len(array)), out=indptr[1:])
        return cls(indptr, cols.astype(np.int32), flat[rows, cols], array.shape[1:])

    @classmethod
    def concatenate(cls, parts: list["SparseRows"]) -> "SparseRows":
        """The rows of ``parts`` one after the other."""
        offsets = np.cumsum([0] + [p.indptr[-1] for p in parts[:-1]])
        indptr = np.concatenate([[0]] + [p.indptr[1:] + off for p, off in zip(parts, offsets)])
        return cls(indptr.astype(np.int64), np.concatenate([p.indices for p in parts]),
                   np.concatenate([p.values for p in parts]), parts[0].row_shape)

    def __len__(self) -> int:
        return len(self.indptr) - 1

    @property
    def shape(self) -> tuple[int, ...]:
        return (len(self), *self.row_shape)

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype

    def _entries(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The positions in ``indices`` / ``values`` of the entries of the rows ``rows``,
        row after row, and each row's number of entries."""
        starts = self.indptr[rows]
        counts = self.indptr[rows + 1] - starts
        first = starts - (np.cumsum(counts) - counts)   # entry position - output position
        return np.repeat(first, counts) + np.arange(counts.sum()), counts

    def __getitem__(self, rows) -> "SparseRows":
        rows = np.arange(len(self))[rows]
        entries, counts = self._entries(rows)
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        return SparseRows(indptr, self.indices[entries], self.values[entries], self.row_shape)

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        out = np.zeros((len(self), int(np.prod(self.row_shape, dtype=np.int64))),
                       dtype or self.dtype)
        out[np.repeat(np.arange(len(self)), np.diff(self.indptr)), self.indices] = self.values
        return out.reshape(self.shape)
