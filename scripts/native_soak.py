"""Soak test of the native engine: many random games on both engines, compared step by
step (``singapore_env.native.compare_random_game``: the legal decisions after every
step, the saves every 25 steps and at the end), for every ruleset.

    .venv/bin/python scripts/native_soak.py --games 10000            # per ruleset
    .venv/bin/python scripts/native_soak.py --games 2000 --ruleset first-edition --start 50000
    SINGAPORE_NATIVE_DEBUG=1 .venv/bin/python setup.py build_ext --inplace --force
    .venv/bin/python scripts/native_soak.py --games 500 --debug-build

Prints the games and decisions compared per ruleset, and every difference found (the
seed reproduces it: ``compare_random_game(seed, RulesConfig.named(ruleset))``), a broken
invariant of the debug build among them. Exits 1 if any game differed. Runs on one core.
``--debug-build`` refuses to run on a module built without the invariant checks.
"""

from __future__ import annotations

import argparse
import sys
import time

from singapore_env import native
from singapore_env.engine.config import RulesConfig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per ruleset")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--ruleset", choices=native.NATIVE_RULESETS, action="append",
                        help="a ruleset to play (repeatable; default: every native one)")
    parser.add_argument("--debug-build", action="store_true",
                        help="require the debug build (invariants checked after every step)")
    args = parser.parse_args()
    module = native.require()
    if args.debug_build and not module.DEBUG_BUILD:
        parser.error("the native module is not the debug build: rebuild it with "
                     "SINGAPORE_NATIVE_DEBUG=1 .venv/bin/python setup.py build_ext --inplace --force")
    failures = 0
    for ruleset in args.ruleset or native.NATIVE_RULESETS:
        cfg, decisions, began = RulesConfig.named(ruleset), 0, time.monotonic()
        for seed in range(args.start, args.start + args.games):
            try:
                played, difference = native.compare_random_game(seed, cfg)
            except (RuntimeError, ValueError) as exc:  # a broken invariant (debug build),
                played, difference = 0, f"seed {seed}: {exc}"  # a list past its room
            decisions += played
            if difference:
                failures += 1
                print(f"{ruleset}: {difference}", flush=True)
        print(f"{ruleset}: {args.games} games, {decisions} decisions compared "
              f"({time.monotonic() - began:.0f} s)", flush=True)
    print("all equal" if not failures else f"{failures} games differed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
