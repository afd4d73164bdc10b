"""Throughput of search in the batched self-play loop (``search_worlds``,
:mod:`training.loop.search`), next to the same trainer without search, in the same run.

    nice .venv/bin/python benchmarks/bench_selfplay_search.py [--seconds 120] [--worlds 1 2] [--json PATH]
    nice .venv/bin/python benchmarks/bench_selfplay_search.py --minutes 60 --worlds 2   # memory over an hour

For the config (default ``training/configs/zero.toml``, from random weights) with
``search_worlds`` = 0 (no ``search_after``, no ``target_temperature``), then each of
``--worlds`` searching from the first decision (``search_after`` = 0; the config's
``target_temperature``, 0.1 where it has none): learned decisions a second,
search-labelled decisions a second (the main Action questions the lookahead answered),
self-play games an hour (finished games, all of them played by the trainer's one
process), per second of this process's CPU time after one warm-up update; and the
trainer's resident memory after every update (first, highest, last). ``--json PATH``
writes them, by ``search_worlds``: ``decisions_per_cpu_s``, ``search_labelled_per_cpu_s``,
``games_per_cpu_hour``, ``cpu_s``, ``memory_mb``. A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    args = parser.parse_args(argv)
    limit_threads()
    import torch

    from training.config import load_config

    torch.set_num_threads(1)
    temperature = load_config(args.config).target_temperature or 0.1
    seconds = args.minutes * 60 if args.minutes else args.seconds
    runs = [] if args.minutes else [(0, selfplay(args.config, seconds, search_worlds=0,
                                                 target_temperature=0.0, search_after=0))]
    for worlds in args.worlds:
        runs.append((worlds, selfplay(args.config, seconds, search_worlds=worlds,
                                      target_temperature=temperature, search_after=0)))
    base = runs[0][1]["rate"]
    print(f"{'search_worlds':>13} {'decisions/s':>12} {'x no search':>12} "
          f"{'searched/s':>11} {'games/hour':>11} {'memory MB (first/high/last)':>28}")
    figures = {}
    for worlds, r in runs:
        first, top, last = r["memory_mb"]
        figures[str(worlds)] = {
            "decisions_per_cpu_s": r["rate"],
            "search_labelled_per_cpu_s": r["searched"] / r["seconds"],
            "games_per_cpu_hour": r["finished"] / r["seconds"] * 3600,
            "cpu_s": r["seconds"], "memory_mb": [first, top, last]}
        print(f"{worlds:>13} {r['rate']:>12,.0f} {r['rate'] / base:>12.2f} "
              f"{r['searched'] / r['seconds']:>11,.1f} "
              f"{r['finished'] / r['seconds'] * 3600:>11,.0f} "
              f"{f'{first:,.0f} / {top:,.0f} / {last:,.0f}':>28}")
    print(f"({runs[0][1]['games']} games at once, {seconds:.0f} s a run, CPU time of one process)")
    if args.json:
        args.json.write_text(json.dumps({"config": args.config, "seconds": seconds,
                                         "games": runs[0][1]["games"],
                                         "search_worlds": figures}, indent=2))


if __name__ == "__main__":
    main()
