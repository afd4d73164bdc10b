"""Thinking on a native copy of a Python game (``agents.native_copy``), as the web app
and ``play`` do: what a copy costs, and ``learned:zero``'s decisions on Python positions
asked on the Python game and on a native copy, in the same run on one core.

    .venv/bin/python benchmarks/bench_native_copy.py --games 2

The positions are every position of ``--games`` games of ``learned:zero-policy`` (the
student) on the Python engine; ``learned:zero`` is reset with the same seed for each
way, so both make the same decisions (checked). Times are CPU time of this process
(``time.process_time``). Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from agents.lookahead import LookaheadPolicies  # noqa: E402
from agents.native_copy import NativeCopy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from singapore_env.engine import Game  # noqa: E402
from singapore_env.native import NativeGame  # noqa: E402


def positions(games: int, seed: int) -> list[Game]:
    """Every position of ``games`` games of the student on the Python engine."""
    student, out = make_agent("learned:zero-policy"), []
    for k in range(games):
        game = Game(seed + k)
        student.reset(seed + k)
        while not game.is_over:
            out.append(game.clone())
            game.step(student.choose(game, game.acting_seat))
    return out


def ms_per_decision(agent, sample: list[Game]) -> tuple[float, list]:
    agent.reset(7)
    start = time.process_time()
    chosen = [agent.choose(g, g.acting_seat) for g in sample]
    return (time.process_time() - start) / len(sample) * 1000, chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    sample = positions(args.games, args.seed)
    start = time.process_time()
    for game in sample:
        NativeGame.from_game(game)
    copy_ms = (time.process_time() - start) / len(sample) * 1000
    zero: LookaheadPolicies = make_agent("learned:zero")
    looked = [g for g in sample if len(zero.candidates(g, g.acting_seat,
                                                       g.legal_decisions())) >= 2]
    print(f"# {platform.machine()}, Python {platform.python_version()}, numpy "
          f"{np.__version__}; load average {os.getloadavg()[0]:.1f}; CPU time, one core")
    print(f"native copy (NativeGame.from_game): {copy_ms:.3f} ms per position "
          f"({len(sample)} positions)")
    print("| learned:zero on | positions | Python game ms/decision | native copy ms/decision "
          "| ratio | same decisions |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for label, rows in (("every question", sample), ("questions it looks ahead on", looked)):
        python_ms, python_chosen = ms_per_decision(make_agent("learned:zero"), rows)
        copy_ms, copy_chosen = ms_per_decision(NativeCopy(make_agent("learned:zero")), rows)
        same = sum(a == b for a, b in zip(python_chosen, copy_chosen))
        print(f"| {label} | {len(rows)} | {python_ms:.2f} | {copy_ms:.2f} "
              f"| {python_ms / copy_ms:.1f}× | {same}/{len(rows)} |")


if __name__ == "__main__":
    main()
