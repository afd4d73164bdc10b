"""The native engine against the Python engine, in the same run on one core: random
games (decisions per second), ``clone()`` and the environments (agent steps per second,
observations and masks written).

    .venv/bin/python benchmarks/bench_native.py --games 200

Rows:

* Python engine: ``Game`` (``keep_text_log=False``), each decision drawn with
  ``random.Random`` from ``legal_decisions()``, as ``bench_engine.py`` plays;
* native, driven from Python: ``NativeGame`` played the same way (one crossing into
  C++ per call);
* native ``play_random``: whole games in C++ (decisions drawn by a seeded PCG64);
* ``clone()`` of both engines on states sampled along the Python-driven games;
* ``env()`` (PettingZoo, with its wrappers) on each engine: every agent step reads
  ``last()`` (the observation and mask) and plays a random legal action;
* ``VectorEnv(engine="native")`` of ``--slots`` games against the Python ``env()``: one
  agent step per slot per ``step``, the random legal actions drawn with numpy from the mask rows
  (a row with the policy's time, a row with ``step``'s alone).

The decisions are the questions asked (forced decisions, applied by the engine, are
not counted), the same in both engines for the same game. Times are CPU time of this
process (``time.process_time``); each figure is the best of ``--reps`` repetitions. Not a
test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from singapore_env import env, native  # noqa: E402
from singapore_env.engine.game import Game  # noqa: E402

from singapore_env.vector import VectorEnv  # noqa: E402

clock = time.process_time


def play(make, seeds, samples: list | None = None) -> int:
    """Play one random game per seed with ``make(seed)``; return the decisions made.
    With ``samples``, keep a copy of every 25th state."""
    decisions = 0
    for seed in seeds:
        game, pick = make(seed), random.Random(seed)
        while not game.is_over:
            legal = game.legal_decisions()
            game.step(pick.choice(legal))
            decisions += 1
            if samples is not None and decisions % 25 == 0:
                samples.append(game.clone())
    return decisions


def best(fn, reps: int) -> tuple[int, float]:
    """(work count, best seconds) of ``reps`` runs of ``fn() -> work count``."""
    runs = []
    for _ in range(reps):
        start = clock()
        work = fn()
        runs.append((work, clock() - start))
    return min(runs, key=lambda r: r[1])


def clone_rate(states, reps: int) -> float:
    n, seconds = best(lambda: sum(1 for g in states for _ in range(20) if g.clone()), reps)
    return n / seconds


def env_steps(engine: str, seeds) -> int:
    """Agent steps of one random game per seed in ``env(engine=...)``."""
    steps = 0
    for seed in seeds:
        e = env(engine=engine, seed=seed)
        e.reset()
        pick = random.Random(seed)
        for _agent in e.agent_iter():
            ob, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(pick.choice(np.flatnonzero(ob["action_mask"]).tolist()))
            steps += 1
    return steps


def vector_steps(slots: int, steps: int, in_step: list) -> int:
    """Agent steps of ``steps`` vector steps of a native VectorEnv of ``slots`` games;
    appends to ``in_step`` the seconds spent in ``step`` alone (without the policy)."""
    venv = VectorEnv(slots, seed=0, engine="native")
    _, mask, _ = venv.reset()
    rng = np.random.default_rng(0)
    seconds = 0.0
    for _ in range(steps):
        actions = (rng.random(mask.shape, np.float32) * mask).argmax(axis=1)
        start = clock()
        _, mask, *_ = venv.step(actions)
        seconds += clock() - start
    in_step.append(seconds)
    return slots * steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per repetition")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--reps", type=int, default=3, help="repetitions (the best counts)")
    parser.add_argument("--env-games", type=int, default=10, help="env games per repetition")
    parser.add_argument("--slots", type=int, default=16, help="games of the vector env")
    args = parser.parse_args()
    native.require()
    seeds = range(args.seed, args.seed + args.games)
    python_states: list = []
    native_states: list = []
    play(lambda s: Game(s, keep_text_log=False), seeds[:20], python_states)
    play(native.NativeGame, seeds[:20], native_states)
    py_n, py_s = best(lambda: play(lambda s: Game(s, keep_text_log=False), seeds), args.reps)
    nd_n, nd_s = best(lambda: play(native.NativeGame, seeds), args.reps)
    pr_n, pr_s = best(lambda: native.play_random(seeds)["decisions"], args.reps)
    rows = [("random games, Python engine", py_n / py_s, py_n / py_s),
            ("random games, NativeGame from Python", py_n / py_s, nd_n / nd_s),
            ("random games, native play_random", py_n / py_s, pr_n / pr_s),
            ("clone()", clone_rate(python_states, args.reps), clone_rate(native_states, args.reps))]
    env_seeds = seeds[:args.env_games]
    ep_n, ep_s = best(lambda: env_steps("python", env_seeds), args.reps)
    en_n, en_s = best(lambda: env_steps("native", env_seeds), args.reps)
    vec_steps = max(1, ep_n // args.slots)
    in_step: list[float] = []
    vn_n, vn_s = best(lambda: vector_steps(args.slots, vec_steps, in_step), args.reps)
    rows += [("env() agent steps, engine=native", ep_n / ep_s, en_n / en_s),
             (f"VectorEnv({args.slots}, engine=native), numpy policy", ep_n / ep_s, vn_n / vn_s),
             (f"VectorEnv({args.slots}, engine=native), step alone", ep_n / ep_s,
              vn_n / min(in_step))]
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"numpy {np.__version__}; one core (CPU time), {args.games} games, best of {args.reps}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'what':<44}{'python /s':>12}{'native /s':>12}{'ratio':>8}")
    print(f"{'random games, Python engine':<44}{rows[0][1]:>12,.0f}\n"
          f"{'env() agent steps, Python engine':<44}{ep_n / ep_s:>12,.0f}")
    for what, py_rate, native_rate in rows[1:]:
        print(f"{what:<44}{py_rate:>12,.0f}{native_rate:>12,.0f}{native_rate / py_rate:>7.1f}x")


if __name__ == "__main__":
    main()
