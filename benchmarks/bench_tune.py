"""The cost of ``balance tune``: a two-knob study with four heuristics, and the games an
hour of a strong players' confirmation.

    nice -n 10 .venv/bin/python benchmarks/bench_tune.py --workers 2
    nice -n 10 .venv/bin/python benchmarks/bench_tune.py --workers 2 --strong-seeds 20

Part one runs the command itself (``singapore-1819 balance tune --knob outlaw_vp=2:12
--knob leader_money=1:6 --seed 1 --workers N``, the defaults otherwise: 40 trials,
rungs of 64, 256 and 1,024 seeds, 3 settings confirmed on 1,000 fresh seeds x 2, the
one-knob table on 300) in a fresh folder and prints its trials, the games of the search,
the minutes of the search and of the whole command (wall clock), and the result. Part
two plays what ``--confirm-with SPEC`` plays (the unchanged rules and one changed
setting, SPEC in every seat, seats swapped) on ``--strong-seeds`` seeds and prints the
games an hour it measured, wall clock on ``--workers`` processes, agents' loading
included. Not a test: numbers depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent.parent


def study(workers: int, trials: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "tune"
        command = [sys.executable, "-m", "singapore_app", "balance", "tune",
                   "--knob", "outlaw_vp=2:12", "--knob", "leader_money=1:6", "--seed", "1",
                   "--trials", str(trials), "--workers", str(workers), "--no-progress",
                   "--out", str(out)]
        start = time.perf_counter()
        subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        wall = time.perf_counter() - start
        summary = json.loads((out / "summary.json").read_text())
        best = json.loads((out / "best.json").read_text())
    rows = summary["trials"]
    print(f"two-knob study, four heuristics, {workers} worker(s): {len(rows)} trials "
          f"({sum(r['pruned'] for r in rows)} stopped early), {summary['search']['games']} "
          f"games in the search, {summary['search']['seconds'] / 60:.1f} min; the whole "
          f"command (confirmation, one-knob table, report) {wall / 60:.1f} min")
    print(f"  found {best['settings']}: British {100 * best['british']:.1f} % "
          f"[{100 * best['ci95'][0]:.1f}, {100 * best['ci95'][1]:.1f}] on {best['games']} "
          f"fresh games; {summary['verdict']}")


def strong(spec: str, seeds: int, workers: int) -> None:
    from arena.runner import Table, play_tables
    from singapore_env.engine.config import RulesConfig

    tables = [Table((spec,) * 4, RulesConfig.standard(), None, {"variant": "standard"}),
              Table((spec,) * 4, RulesConfig.standard(outlaw_vp=10), None,
                    {"variant": "outlaw_vp=10"})]
    start = time.perf_counter()
    records = play_tables(tables, seeds, 1, swap=True, workers=workers)
    wall = time.perf_counter() - start
    print(f"confirmation with {spec} in every seat, {workers} worker(s): {len(records)} "
          f"games ({seeds} seeds x 2 seatings x 2 rule sets) in {wall:.0f} s: "
          f"{3600 * len(records) / wall:,.0f} games an hour")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--strong", default="learned:zero")
    parser.add_argument("--strong-seeds", type=int, default=20)
    parser.add_argument("--skip-study", action="store_true")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs visible")
    if not args.skip_study:
        study(args.workers, args.trials)
    if args.strong_seeds:
        strong(args.strong, args.strong_seeds, args.workers)


if __name__ == "__main__":
    main()
