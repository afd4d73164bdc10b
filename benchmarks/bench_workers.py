"""Games per second of random players on 1 and N worker processes (on the Python
engine), and whether the per-game records are identical (they must be).

    python benchmarks/bench_workers.py --games 2000 --workers 2

Prints wall-clock games/s, the speed-up, and games per CPU-second (this process and
its finished children), which shows whether a low speed-up comes from the work or
from other load on the machine (the load average is printed too).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.runner import Table, play_tables  # noqa: E402


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(games: int, workers: int, seed: int) -> tuple[float, float, list[dict]]:
    table = Table(("random",) * 4)
    play_tables([table], 4, seed, workers=workers, engine="python")  # warm up (imports)
    cpu, wall = cpu_seconds(), time.perf_counter()
    records = play_tables([table], games, seed, workers=workers, engine="python")
    return time.perf_counter() - wall, cpu_seconds() - cpu, records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}")
    base_wall, base_cpu, base = measure(args.games, 1, args.seed)
    wall, cpu, records = measure(args.games, args.workers, args.seed)
    identical = records == base
    print(f"1 worker : {args.games / base_wall:7.1f} games/s wall, "
          f"{args.games / base_cpu:7.1f} games per CPU-second")
    print(f"{args.workers} workers: {args.games / wall:7.1f} games/s wall, "
          f"{args.games / cpu:7.1f} games per CPU-second")
    print(f"speed-up {base_wall / wall:.2f}x; records identical: {identical}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
