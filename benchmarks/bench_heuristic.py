"""Heuristic agent vs random agents, seat-swapped, with 95% Wilson intervals.

    .venv/bin/python benchmarks/bench_heuristic.py            # 400 games per match-up
    .venv/bin/python benchmarks/bench_heuristic.py --games 100 --seed 7

Match-ups (seats: 0 lieutenant_governor, 1 resident [British]; 2 temenggong,
3 sultan [Malay]):

* heuristic on both British seats vs random Malay seats, and the reverse
  (faction win rate; base rate 50%);
* one heuristic seat vs three random seats, for each seat (seat win rate; base 25%);
* four heuristic seats (speed in games/s on one core, and seat balance).

A win shared by k seats counts 1/k (``arena.runner.run_tournament``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from singapore_env.engine.content import SEAT_NAMES  # noqa: E402
from arena.runner import run_tournament  # noqa: E402


def _fmt(rate: dict) -> str:
    lo, hi = rate["ci95"]
    return f"{100 * rate['rate']:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per match-up")
    ap.add_argument("--seed", type=int, default=2024, help="base tournament seed")
    args = ap.parse_args(argv)
    n = args.games

    print(f"heuristic vs random, {n} games per match-up (95% Wilson CI)\n")
    print("Faction match-ups (faction win rate, base 50%):")
    for label, names, fac in (
            ("heuristic British vs random Malay", ["heuristic"] * 2 + ["random"] * 2,
             "british"),
            ("heuristic Malay vs random British", ["random"] * 2 + ["heuristic"] * 2,
             "malay")):
        r = run_tournament(n, names, seed=args.seed)
        print(f"  {label:36s} {_fmt(r['win_rate_by_faction'][fac])}   "
              f"mean VP {[round(v, 1) for v in r['mean_vp_by_seat'].values()]}")

    print("\nOne heuristic vs three random (seat win rate, base 25%):")
    for seat in range(4):
        names = ["random"] * 4
        names[seat] = "heuristic"
        r = run_tournament(n, names, seed=args.seed + 1 + seat)
        vp = list(r["mean_vp_by_seat"].values())
        print(f"  heuristic as {SEAT_NAMES[seat]:20s} "
              f"{_fmt(r['win_rate_by_seat'][SEAT_NAMES[seat]])}   "
              f"mean VP heuristic {vp[seat]:.1f}, random "
              f"{sum(v for p, v in enumerate(vp) if p != seat) / 3:.1f}")

    r = run_tournament(n, ["heuristic"] * 4, seed=args.seed + 10)
    print(f"\nFour heuristic seats: {r['games_per_second']:.1f} games/s "
          f"({r['mean_decisions_per_game']:.0f} decisions per game)")
    for seat in SEAT_NAMES:
        print(f"  {seat:20s} {_fmt(r['win_rate_by_seat'][seat])}   "
              f"mean VP {r['mean_vp_by_seat'][seat]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
