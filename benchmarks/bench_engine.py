"""Engine speed on one core: random full games, clone() and to_json().

    .venv/bin/python benchmarks/bench_engine.py --games 200 --seed 0

Plays ``--games`` full games at engine level (``keep_text_log=False``), each decision
picked uniformly from ``legal_decisions()`` with ``random.Random``, and prints
decisions (steps) per second and games per second. Then times ``clone()``,
``to_json()`` and ``from_json()`` on game states sampled along those games.
Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from singapore_env.engine import Game  # noqa: E402


def play(n_games: int, seed: int, sample_every: int) -> tuple[int, float, list[Game]]:
    """Play the games; return (decisions, seconds, sampled mid-game clones)."""
    rng = random.Random(seed)
    steps = 0
    samples: list[Game] = []
    elapsed = 0.0
    for i in range(n_games):
        t0 = time.perf_counter()
        g = Game(seed * 100003 + i, keep_text_log=False)
        n = 0
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
            n += 1
            if sample_every and n % sample_every == 0 and len(samples) < 200:
                elapsed += time.perf_counter() - t0
                samples.append(g.clone())
                t0 = time.perf_counter()
        elapsed += time.perf_counter() - t0
        steps += n
    return steps, elapsed, samples


def time_op(fn, items, repeat: int) -> float:
    """Mean seconds per call of ``fn(item)`` over ``items`` x ``repeat``."""
    t0 = time.perf_counter()
    for _ in range(repeat):
        for x in items:
            fn(x)
    return (time.perf_counter() - t0) / (repeat * len(items))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="full random games to play")
    ap.add_argument("--seed", type=int, default=0, help="base seed (game i uses seed*100003+i)")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions of the op timings")
    args = ap.parse_args(argv)

    print(f"python {platform.python_version()} on {platform.machine()}, one core")
    steps, secs, samples = play(args.games, args.seed, sample_every=37)
    print(f"games:        {args.games} full random games in {secs:.2f} s")
    print(f"decisions/s:  {steps / secs:,.0f}  ({steps} decisions, "
          f"{steps / args.games:.1f} per game)")
    print(f"games/s:      {args.games / secs:,.1f}")
    if not samples:
        return
    clone = time_op(lambda g: g.clone(), samples, args.repeat)
    texts = [g.to_json() for g in samples]
    to_json = time_op(lambda g: g.to_json(), samples, args.repeat)
    from_json = time_op(Game.from_json, texts, max(1, args.repeat // 2))
    size = sum(map(len, texts)) / len(texts)
    print(f"clone():      {clone * 1e6:,.1f} us/call  ({len(samples)} mid-game states)")
    print(f"to_json():    {to_json * 1e6:,.1f} us/call  (mean {size / 1024:.1f} KiB)")
    print(f"from_json():  {from_json * 1e6:,.1f} us/call  (includes invariant checks)")


if __name__ == "__main__":
    main()
