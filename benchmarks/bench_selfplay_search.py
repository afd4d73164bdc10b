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

``--start ROUNDS`` then measures the search-labelled decisions per CPU second at
``search_worlds`` = 1 of the code the batched search started from (commit
:data:`START_COMMIT`, one rollout at a time: checked out and built under
``build/search_start`` the first time) and of this tree, alternating, ROUNDS times each,
each run in a process of its own: the ratio on this machine, whatever its speed
(``--json`` adds them under ``start``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.threads import limit_threads  # noqa: E402
from bench_training import selfplay  # noqa: E402


#: The code before the search in the loop was batched (one rollout at a time).
START_COMMIT = "6c8b23c"

#: One run with search of the tree it runs in: its search-labelled decisions per CPU s.
ONE_RUN = """
import json, sys
sys.path[:0] = ["benchmarks", "."]
from agents.threads import limit_threads
limit_threads()
import torch
torch.set_num_threads(1)
from bench_training import selfplay
r = selfplay("training/configs/zero.toml", {seconds}, search_worlds=1,
             target_temperature={temperature}, search_after=0)
print(json.dumps(r["searched"] / r["seconds"]))
"""


def start_tree() -> Path:
    """The checkout of START_COMMIT with its native module built (made the first time)."""
    tree = ROOT / "build" / "search_start"
    if not (tree / "setup.py").exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree),
                        START_COMMIT], check=True)
    if not list((tree / "singapore_env").glob("_native*.so")):
        print(f"building the native module of {START_COMMIT} in {tree} ...", flush=True)
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree,
                       check=True, stdout=subprocess.DEVNULL)
    return tree


def searched_rate(tree: Path, seconds: float, temperature: float) -> float:
    """Search-labelled decisions per CPU second of the code in ``tree`` (a process of
    its own)."""
    done = subprocess.run([sys.executable, "-c", ONE_RUN.format(seconds=seconds,
                                                                temperature=temperature)],
                          cwd=tree, check=True, capture_output=True, text=True)
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def against_start(rounds: int, seconds: float, temperature: float) -> dict:
    """This tree's search-labelled decisions per CPU second next to START_COMMIT's,
    alternating, and their ratio (of the medians)."""
    tree = start_tree()
    start, now = [], []
    for _ in range(rounds):
        start.append(searched_rate(tree, seconds, temperature))
        now.append(searched_rate(ROOT, seconds, temperature))
        print(f"search-labelled/CPU s: {START_COMMIT} {start[-1]:,.1f}   "
              f"this tree {now[-1]:,.1f}", flush=True)
    ratio = statistics.median(now) / statistics.median(start)
    print(f"this tree / {START_COMMIT}: {ratio:.2f}x (medians of {rounds})")
    return {"commit": START_COMMIT, "start": start, "this_tree": now, "ratio": ratio}


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
    parser.add_argument("--start", type=int, metavar="ROUNDS", default=0,
                        help=f"then {START_COMMIT}'s code and this tree, alternating, ROUNDS "
                        "runs each (search_worlds = 1)")
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
    start = against_start(args.start, seconds, temperature) if args.start else None
    if args.json:
        record = {"config": args.config, "seconds": seconds, "games": runs[0][1]["games"],
                  "search_worlds": figures}
        if start:
            record["start"] = start
        args.json.write_text(json.dumps(record, indent=2))


if __name__ == "__main__":
    main()
