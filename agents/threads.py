"""One BLAS / torch thread per process for every player that does inference.

Under load a numpy forward pass of a small policy measured 15 ms with the default BLAS
thread pool against 0.5 ms with one thread, and evaluation runs one game per process
anyway; :func:`limit_threads` is called when a player that reads a policy is built (a
learned agent, `mcts` or `rerank` with a network: `agents.learned.PolicyView`), by training and
by the ladder. It limits the BLAS / OpenMP pools through threadpoolctl, torch's
intra-op pool if torch is loaded, and sets ``OMP_NUM_THREADS`` / ``MKL_NUM_THREADS``
so that a library loaded later (torch imported after the call) starts with as many.
"""

from __future__ import annotations

import os
import sys

from threadpoolctl import threadpool_limits

_LIMITS: list = []  # (threads, limiter): keeps the threadpoolctl limiter alive


def limit_threads(threads: int = 1) -> None:
    """Use ``threads`` threads (default one) for numpy's BLAS and for torch (if
    imported, or imported later) from now on."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    # Applied again on every call: a library loaded since (scipy's OpenBLAS, torch's
    # OpenMP) brings a new pool with its own default.
    _LIMITS[:] = [(threads, threadpool_limits(threads))]
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)
