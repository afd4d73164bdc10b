"""Speed of the native forward passes (``agents.native_nets``) next to the numpy actors',
in the same run, on one core.

    nice -n 10 .venv/bin/python benchmarks/bench_native_nets.py
    nice -n 10 .venv/bin/python benchmarks/bench_native_nets.py --games 6 --batch 256

Positions: the acting seat's observation and candidate keys at every third decision of
``--games`` random native games (standard rules; the heuristic prior's columns for the
networks that read them). Networks: a flat actor of the exported shape (two hidden
layers of 256, tanh, float16 weights), the shipped ``learned:zero-policy`` pointer
policy and the value head of ``net=zero`` (both ``agents/policies/zero/british.npz``).
For each, positions a CPU-second
(``time.process_time``: other jobs on the machine do not count) of numpy and of the
native actor, one position a call and ``--batch`` rows a call (numpy's flat actor takes
rows too; the pointer actor reads one position at a time).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.learned import POLICY_DIR, NumpyPolicy  # noqa: E402
from agents.native_nets import native_actor, random_positions  # noqa: E402
from agents.threads import limit_threads  # noqa: E402

KEYS = ("observation", "candidate_card", "candidate_features", "projected_vp")


def rate(fn, items, repeat: int) -> float:
    """Items a CPU-second of ``fn(item)``, the best of ``repeat`` runs over ``items``."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for item in items:
            fn(item)
        best = min(best, time.process_time() - start)
    return len(items) / best


def flat_policy(obs_size: int) -> NumpyPolicy:
    rng = np.random.default_rng(0)

    def half(*shape, scale):
        return rng.normal(0, scale, shape).astype(np.float16)

    layers = [(half(obs_size, 256, scale=0.05), half(256, scale=0.1)),
              (half(256, 256, scale=0.1), half(256, scale=0.1))]
    return NumpyPolicy(layers, (half(256, 1040, scale=0.3), half(1040, scale=0.1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    limit_threads(1)
    positions = random_positions("standard", range(args.games), 3, "heuristic")
    batches = [{k: np.stack([p[k] for p in positions[i:i + args.batch]]) for k in KEYS}
               for i in range(0, len(positions), args.batch)]
    flat = flat_policy(len(positions[0]["observation"]))
    pointer = value = NumpyPolicy.load(POLICY_DIR / "zero" / "british.npz")
    rows = []

    def measure(what, single_numpy, single_native, batch_numpy, batch_native):
        r = args.repeat
        n_single, o_single = rate(single_numpy, positions, r), rate(single_native, positions, r)
        o_batch = rate(batch_native, batches, r) * len(positions) / len(batches)
        n_batch = (rate(batch_numpy, batches, r) * len(positions) / len(batches)
                   if batch_numpy else None)
        rows.append((what, n_single, o_single, n_batch, o_batch))

    nflat, npointer, nvalue = native_actor(flat), native_actor(pointer), native_actor(value)
    measure("flat actor: logits", lambda p: flat.logits(p["observation"]),
            lambda p: nflat.logits(p["observation"]), lambda b: flat.logits(b["observation"]),
            lambda b: nflat.logits(b["observation"]))
    measure("pointer actor (learned:zero-policy): logits", pointer.logits, npointer.logits, None,
            npointer.logits)
    measure("value head (net=zero): outcome", value.outcome, nvalue.outcome, None,
            nvalue.outcome)
    print(f"{len(positions)} positions of {args.games} random games, batches of {args.batch}, "
          f"positions a CPU-second (one core)\n")
    print("| network | numpy, one a call | native, one a call | ratio | numpy, batched | "
          "native, batched | ratio to numpy one a call |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for what, n1, o1, nb, ob in rows:
        nb_text = f"{nb:,.0f}" if nb else "—"
        print(f"| {what} | {n1:,.0f} | {o1:,.0f} | {o1 / n1:.1f}× | {nb_text} | {ob:,.0f} | "
              f"{ob / n1:.1f}× |")


if __name__ == "__main__":
    main()
