"""The native engine against the Python engine, in the same run on one core, for what
the native engine does so far: the setup of new games (``native.deal`` against the
Python engine's setup of the same seeds, which it equals) and the random stream.

    .venv/bin/python benchmarks/bench_native.py --games 2000

Times are CPU time of this process (``time.process_time``); numpy/BLAS run on one thread.
Each figure is the best of ``--reps`` repetitions. Not a test: numbers depend on the
machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from singapore_env import native  # noqa: E402
from singapore_env.engine.config import RulesConfig  # noqa: E402
from singapore_env.engine.game import Game  # noqa: E402
from singapore_env.engine.state import GameState  # noqa: E402

clock = time.process_time


def python_deal(seed: int, cfg: RulesConfig) -> None:
    """The Python engine's setup alone (as ``Game(seed)`` runs it before the first round)."""
    g = Game(seed, cfg, keep_text_log=False, _empty=True)
    g.rng = np.random.Generator(np.random.PCG64(seed))
    g.s = GameState()
    g._setup()


def best_rate(fn, n: int, reps: int) -> float:
    """Calls of ``fn(i)`` per CPU second, best of ``reps`` runs of ``n`` calls."""
    best = 0.0
    for _ in range(reps):
        start = clock()
        for i in range(n):
            fn(i)
        best = max(best, n / max(clock() - start, 1e-9))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games set up per repetition")
    parser.add_argument("--draws", type=int, default=200_000, help="dice drawn per repetition")
    parser.add_argument("--reps", type=int, default=3, help="repetitions (the best counts)")
    args = parser.parse_args()
    native.require()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}, one core (CPU time), best of {args.reps}")
    print(f"{'what':<34}{'python /s':>14}{'native /s':>14}{'ratio':>8}")
    rows = []
    for ruleset in ("standard", "simulation", "first-edition"):
        cfg = RulesConfig.named(ruleset)
        rows.append((f"game setups ({ruleset})",
                     best_rate(lambda i: python_deal(i, cfg), args.games, args.reps),
                     best_rate(lambda i: native.deal(i, cfg, keep_text_log=False),
                               args.games, args.reps)))
    theirs, ours = np.random.Generator(np.random.PCG64(1)), native.Random(1)
    rows.append(("d6 draws (one call each)",
                 best_rate(lambda i: theirs.integers(0, 6), args.draws, args.reps),
                 best_rate(lambda i: ours.integers(0, 6), args.draws, args.reps)))
    for what, py_rate, native_rate in rows:
        print(f"{what:<34}{py_rate:>14,.0f}{native_rate:>14,.0f}{native_rate / py_rate:>7.1f}x")


if __name__ == "__main__":
    main()
