"""Soak test of the native determinization: random games on both engines, determinized
for every seat on both from generators in the same state at every ``--every``-th decision
and wherever a pending frame or a Role hides something
(``agents.determinize.compare_determinizations``: the saves, the legal decisions, the
generator states after and the native world's invariants), for every ruleset.

    .venv/bin/python scripts/determinize_soak.py --games 200            # per ruleset
    .venv/bin/python scripts/determinize_soak.py --games 50 --ruleset simulation --start 1000

Prints per ruleset the positions compared (a position: a game's state determinized for
one seat; all of them, and those hiding each kind of card or choice from the seat), how
many were equal and how many differed, and every difference (the
seed, decision and seat reproduce it). Exits 1 if any differed. Runs on one core.
"""

from __future__ import annotations

import argparse
import sys
import time

from agents.determinize import compare_determinizations
from singapore_env import native
from singapore_env.engine.config import RulesConfig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--every", type=int, default=5,
                        help="compare at every this many decisions (besides hidden frames)")
    parser.add_argument("--ruleset", choices=native.NATIVE_RULESETS, action="append",
                        help="a ruleset to play (repeatable; default: every native one)")
    args = parser.parse_args()
    if args.games < 1 or args.every < 1:
        parser.error("--games and --every must be >= 1")
    native.require()
    failures = 0
    for ruleset in args.ruleset or native.NATIVE_RULESETS:
        cfg, began = RulesConfig.named(ruleset), time.monotonic()
        compared: dict[str, int] = {}
        differing = 0
        for seed in range(args.start, args.start + args.games):
            try:
                counts, differences = compare_determinizations(seed, cfg, args.every)
            except (RuntimeError, ValueError) as exc:  # a broken invariant (debug build)
                counts, differences = {}, [f"seed {seed}: {exc}"]
            for kind, n in counts.items():
                compared[kind] = compared.get(kind, 0) + n
            differing += len({line.split(":")[0] for line in differences})  # positions
            for line in differences:
                print(f"{ruleset}: {line}", flush=True)
        total = compared.pop("all", 0)
        kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(compared.items()))
        print(f"{ruleset}: {args.games} games, {total} positions compared, "
              f"{total - differing} equal, {differing} differing ({time.monotonic() - began:.0f} s); "
              f"hiding {kinds}", flush=True)
        failures += differing
    print("all equal" if not failures else f"{failures} positions differed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
