"""Throughput of search in the batched self-play loop (``search_worlds``,
:mod:`training.ppo_search`), next to the same trainer without search, in the same run.

    nice .venv/bin/python benchmarks/bench_selfplay_search.py [--seconds 120] [--worlds 1 2]
    nice .venv/bin/python benchmarks/bench_selfplay_search.py --minutes 60 --worlds 2   # memory over an hour

For the config (default ``training/configs/zero.toml``) with ``search_worlds`` = 0, then
each of ``--worlds``: learned decisions a second, search-labelled decisions a second
(the main Action questions the lookahead answered), self-play games an hour (finished
games, all of them played by the trainer's one process), per second of this process's
CPU time after one warm-up update; and the trainer's resident memory after every
update (first, highest, last). A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.threads import limit_threads  # noqa: E402
from bench_training import selfplay  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="training/configs/zero.toml")
    parser.add_argument("--seconds", type=float, default=120.0, help="wall time of each run")
    parser.add_argument("--minutes", type=float,
                        help="the search runs alone, this many minutes each (memory over a "
                        "long run; no run without search)")
    parser.add_argument("--worlds", type=int, nargs="+", default=[1, 2],
                        help="the search_worlds values measured")
    args = parser.parse_args(argv)
    limit_threads()
    import torch

    torch.set_num_threads(1)
    seconds = args.minutes * 60 if args.minutes else args.seconds
    runs = [] if args.minutes else [(0, selfplay(args.config, seconds, search_worlds=0,
                                                 target_temperature=0.0))]
    for worlds in args.worlds:
        runs.append((worlds, selfplay(args.config, seconds, search_worlds=worlds,
                                      target_temperature=0.05)))
    base = runs[0][1]["rate"]
    print(f"{'search_worlds':>13} {'decisions/s':>12} {'x no search':>12} "
          f"{'searched/s':>11} {'games/hour':>11} {'memory MB (first/high/last)':>28}")
    for worlds, r in runs:
        first, top, last = r["memory_mb"]
        print(f"{worlds:>13} {r['rate']:>12,.0f} {r['rate'] / base:>12.2f} "
              f"{r['searched'] / r['seconds']:>11,.1f} "
              f"{r['finished'] / r['seconds'] * 3600:>11,.0f} "
              f"{f'{first:,.0f} / {top:,.0f} / {last:,.0f}':>28}")
    print(f"({runs[0][1]['games']} games at once, {seconds:.0f} s a run, CPU time of one process)")


if __name__ == "__main__":
    main()
