"""Soak test of the heuristic's native twin (``native/heuristic.hpp``): whole games on
both engines, every decision of a ``heuristic`` seat made by the Python agent on the
Python game and by its copy on the native game (the same seed), which must be the same
decision with the generators left in the same state, for every ruleset
(``agents.heuristic.twin.compare_game``). Every ``--mixed``-th game seats random
players beside the heuristics and asks a shadow heuristic every seat's question too (the
random players lead it to the questions it rarely meets).

    .venv/bin/python scripts/heuristic_soak.py --games 1000            # per ruleset
    .venv/bin/python scripts/heuristic_soak.py --games 50 --ruleset first-edition --start 5000

Prints per ruleset the games, the decisions played, the heuristic's decisions (and by
question), and every difference (the seed and decision reproduce it). Exits 1 if any
differed. Runs on one core.
"""

from __future__ import annotations

import argparse
import sys
import time

from agents.heuristic.twin import compare_game
from singapore_env import native
from singapore_env.engine.config import RulesConfig

MIXED = ("heuristic", "random", "heuristic", "random")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--mixed", type=int, default=4,
                        help="every this many games seat random players beside the heuristics")
    parser.add_argument("--ruleset", choices=native.NATIVE_RULESETS, action="append",
                        help="a ruleset to play (repeatable; default: every native one)")
    args = parser.parse_args()
    if args.games < 1 or args.mixed < 1:
        parser.error("--games and --mixed must be >= 1")
    native.require()
    failures = 0
    for ruleset in args.ruleset or native.NATIVE_RULESETS:
        cfg, began = RulesConfig.named(ruleset), time.monotonic()
        decisions, asked, differing = 0, {}, 0
        for seed in range(args.start, args.start + args.games):
            players = MIXED if seed % args.mixed == args.mixed - 1 else ("heuristic",) * 4
            played, kinds, why = compare_game(seed, cfg, players, shadow=players == MIXED)
            decisions += played
            for kind, n in kinds.items():
                asked[kind] = asked.get(kind, 0) + n
            if why:
                differing += 1
                print(f"{ruleset}: {why}", flush=True)
        questions = ", ".join(f"{kind} {n}" for kind, n in sorted(asked.items()))
        print(f"{ruleset}: {args.games} games, {decisions} decisions, "
              f"{sum(asked.values())} by the heuristic, {differing} games differing "
              f"({time.monotonic() - began:.0f} s); questions: {questions}", flush=True)
        failures += differing
    print("all equal" if not failures else f"{failures} games differed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
