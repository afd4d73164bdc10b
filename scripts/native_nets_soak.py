"""Soak test of the native forward passes (``agents.native_nets``): every shipped
network, and flat actors of the exported shape (tanh and relu), against its numpy actor
on positions of random native games of every ruleset (the acting seat's observation
and candidate keys at every ``--every``-th decision; the heuristic prior's columns for
the networks that read them).

    .venv/bin/python scripts/native_nets_soak.py                      # 10,000 positions
    .venv/bin/python scripts/native_nets_soak.py --positions 30000 --start 5000

Prints, per network and in all: the positions, the largest difference of a logit or a
value-head output from numpy's (absolute, and over max(1, |numpy's|), which must stay
within ``TOLERANCE``), the near-ties (two best legal logits within it), the decisions
that differed at one and those that differed elsewhere (must be none). Exits 1 if a
difference passed the tolerance or a decision differed away from a near-tie. One core.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import count
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.learned import POLICY_DIR, SHIPPED_NETS, NumpyPolicy  # noqa: E402
from agents.native_nets import TOLERANCE, Comparison, compare, random_positions  # noqa: E402
from agents.threads import limit_threads  # noqa: E402
from singapore_env import native  # noqa: E402

SHIPPED = [f"{net}/{faction}.npz" for net in SHIPPED_NETS for faction in ("british", "malay")]


def flat_policy(activation: str, obs_size: int, seed: int = 0) -> NumpyPolicy:
    """A flat actor of the exported shape, its weights rounded to float16."""
    rng = np.random.default_rng(seed)

    def half(*shape, scale):
        return rng.normal(0, scale, shape).astype(np.float16)

    layers = [(half(obs_size, 256, scale=0.05), half(256, scale=0.1)),
              (half(256, 256, scale=0.1), half(256, scale=0.1))]
    return NumpyPolicy(layers, (half(256, 1040, scale=0.3), half(1040, scale=0.1)), activation)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions in all")
    parser.add_argument("--every", type=int, default=5, help="a position every N decisions")
    parser.add_argument("--start", type=int, default=1000, help="first game seed")
    args = parser.parse_args()
    native.require()
    limit_threads(1)
    nets = {name: NumpyPolicy.load(POLICY_DIR / name) for name in SHIPPED}
    results = {name: Comparison() for name in [*SHIPPED, "flat tanh", "flat relu"]}
    began, total = time.monotonic(), 0
    for ruleset in native.NATIVE_RULESETS:
        share = args.positions // len(native.NATIVE_RULESETS)
        seen = 0
        for seed in count(args.start):
            positions = random_positions(ruleset, [seed], args.every, "heuristic")
            plain = [{**p, "candidate_features": p["candidate_features"].copy()} for p in positions]
            for p in plain:
                p["candidate_features"][:, 9:] = 0.0  # the prior's columns
            if "flat tanh" not in nets:
                size = len(positions[0]["observation"])
                nets["flat tanh"], nets["flat relu"] = (flat_policy(a, size, i)
                                                        for i, a in enumerate(("tanh", "relu")))
            for name, policy in nets.items():
                reads_prior = policy.meta.get("candidate_prior")
                results[name].add(compare(policy, positions if reads_prior else plain))
            seen += len(positions)
            if seen >= share:
                break
        total += seen
        print(f"{ruleset}: {seen} positions (seeds {args.start}..{seed}), "
              f"{time.monotonic() - began:.0f} s", flush=True)
    everything = Comparison()
    for name, r in results.items():
        everything.add(r)
        print(f"{name:24} {r.positions:6} positions  max diff {r.max_abs_diff:.3g} "
              f"(scaled {r.max_scaled_diff:.3g})  near-ties {r.near_ties}  "
              f"flipped at a near-tie {r.tie_flips}  mismatches {r.mismatches}")
    print(f"in all: {total} positions, {everything.positions} network evaluations, "
          f"max abs diff {everything.max_abs_diff:.3g}, max scaled diff "
          f"{everything.max_scaled_diff:.3g} (tolerance {TOLERANCE:g}), near-ties "
          f"{everything.near_ties} ({everything.tie_flips} flipped), decision mismatches "
          f"{everything.mismatches}")
    bad = everything.mismatches or everything.max_scaled_diff >= TOLERANCE
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
