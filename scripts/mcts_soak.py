"""Soak test of the search's native twin (``native/mcts.hpp``): whole games on both
engines, every decision of an ``mcts`` seat made by the Python search on the Python game
and by its copy (the same spec and seed) on the native game, which must be the same
decision with the generators in the same state and the same search counts
(``agents.heuristic.twin.compare_game``), for every ruleset. The table seats two
searches (one per faction) beside two heuristics; every ``--net``-th game the searches
score their cut rollouts with the shipped value networks (``net=zero``).

    .venv/bin/python scripts/mcts_soak.py --games 20                  # per ruleset
    .venv/bin/python scripts/mcts_soak.py --games 5 --spec mcts:iters=24 --ruleset standard

Prints per ruleset the games, the decisions played and those searched, and every
difference (the seed and decision reproduce it). Exits 1 if any differed. Runs on one
core (the Python side costs 5 to 40 CPU-seconds a game).
"""

from __future__ import annotations

import argparse
import sys
import time

from agents.heuristic.twin import compare_game
from singapore_env import native
from singapore_env.engine.config import RulesConfig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per ruleset")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--spec", default="mcts:iters=8", help="the searches' agent spec")
    parser.add_argument("--net", type=int, default=4,
                        help="every this many games the searches read net=zero "
                             "(0: never)")
    parser.add_argument("--ruleset", choices=native.NATIVE_RULESETS, action="append",
                        help="a ruleset to play (repeatable; default: every native one)")
    args = parser.parse_args()
    if args.games < 1 or args.net < 0 or not args.spec.startswith("mcts"):
        parser.error("--games must be >= 1, --net >= 0 and --spec an mcts spec")
    native.require()
    failures = 0
    for ruleset in args.ruleset or native.NATIVE_RULESETS:
        cfg, began = RulesConfig.named(ruleset), time.monotonic()
        decisions, searched, differing, with_net = 0, 0, 0, 0
        for seed in range(args.start, args.start + args.games):
            spec = args.spec
            if args.net and seed % args.net == args.net - 1 and "net=" not in spec:
                spec, with_net = f"{spec}:net=zero", with_net + 1
            played, asked, why = compare_game(seed, cfg, (spec, "heuristic", spec, "heuristic"))
            decisions, searched = decisions + played, searched + asked.get("searched", 0)
            if why:
                differing += 1
                print(f"{ruleset}: {spec}: {why}", flush=True)
        print(f"{ruleset}: {args.games} games ({with_net} with net=zero), {decisions} "
              f"decisions ({searched} searched), {differing} games differing "
              f"({time.monotonic() - began:.0f} s)", flush=True)
        failures += differing
    print("all equal" if not failures else f"{failures} games differed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
