"""Soak test of the players reading the heuristic's prior on the native engine
(``rerank``: ``native/rerank.hpp``; ``learned:PATH`` of a pointer policy reading the
prior's columns, written from the heuristic's twin; no shipped network reads them, so
``--net`` names a pair that does, else the tables play ``zero``, which reads none): whole games on both engines, every seat's decision made by a Python
agent on the Python game and by its copy (the same spec and seed) on the native game,
which must agree, with the generators in the same state
(``agents.prior_twin.compare_players``), for every ruleset.

    .venv/bin/python scripts/prior_soak.py --games 100 --net DIR  # per ruleset
    .venv/bin/python scripts/prior_soak.py --games 20 --ruleset simulation --start 5000

Prints per ruleset the games, the decisions played, rerank's overrulings (the network
choosing another candidate than the heuristic's) and every difference (the seed and
decision reproduce it; a network's near-tie, two logits within 1e-4, may order the
candidates apart). Exits 1 if any differed. Runs on one core.
"""

from __future__ import annotations

import argparse
import sys
import time

from agents.prior_twin import compare_players
from singapore_env import native
from singapore_env.engine.config import RulesConfig



def tables(net: str) -> tuple:
    """The tables, in turn: rerank with the pair ``net`` (margins 0 and 1) and a
    ``learned:`` seat of its British network."""
    rerank, learned = f"rerank:net={net}", f"learned:{net}/british.npz"
    return ((rerank, f"{rerank}:margin=1", rerank, f"{rerank}:margin=1"),
            (learned, rerank, "heuristic", learned),
            (rerank, "random", learned, "heuristic"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per ruleset")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--ruleset", choices=native.NATIVE_RULESETS, action="append",
                        help="a ruleset to play (repeatable; default: every native one)")
    parser.add_argument("--net", default="agents/policies/zero",
                        help="a folder of a pointer pair reading the heuristic's prior")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be >= 1")
    native.require()
    failures, table = 0, tables(args.net)
    for ruleset in args.ruleset or native.NATIVE_RULESETS:
        cfg, began = RulesConfig.named(ruleset), time.monotonic()
        decisions, overruled, differing = 0, 0, 0
        for seed in range(args.start, args.start + args.games):
            try:
                played, by_spec = compare_players(seed, table[seed % len(table)], cfg)
            except AssertionError as exc:
                differing += 1
                print(f"{ruleset}: {exc}", flush=True)
                continue
            decisions += played
            overruled += sum(by_spec.values())
        print(f"{ruleset}: {args.games} games, {decisions} decisions, {overruled} overruled "
              f"by rerank's network, {differing} games differing "
              f"({time.monotonic() - began:.0f} s)", flush=True)
        failures += differing
    print("all equal" if not failures else f"{failures} games differed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
