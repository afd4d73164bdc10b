"""Engine speed on one core: random full games, clone(), to_json() and from_json(),
optionally side by side with another checkout of the project (the "before").

    .venv/bin/python benchmarks/bench_engine.py --games 200 --seed 0
    git worktree add /tmp/base <commit>          # the code to compare with
    .venv/bin/python benchmarks/bench_engine.py --games 200 --baseline /tmp/base --reps 5

Plays ``--games`` full games at engine level (``keep_text_log=False``), each decision
picked uniformly from ``legal_decisions()`` with ``random.Random``, and prints
decisions (steps) per second and games per second. Then times ``clone()``,
``to_json()`` and ``from_json()`` on game states sampled along those games, and
``from_json()`` on the saves of the finished games ("game over": the longest logs).

With ``--baseline DIR`` every repetition runs once with this checkout's code and once
with ``DIR``'s, alternating, each in a fresh process (``PYTHONPATH``), on the same seeds;
the table shows the medians and the ratio, so a loaded machine slows both sides alike.
Times are CPU time of the measuring process (``time.process_time``), which other
processes on the machine disturb less than wall time. Only the public engine API is
used, so any version of the engine can be the baseline. Not a test: numbers depend on
the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
clock = time.process_time


def play(n_games: int, seed: int, sample_every: int) -> tuple[int, float, list, list]:
    """Play the games; return (decisions, seconds, sampled mid-game clones, the saves of
    the first 200 finished games)."""
    from singapore_env.engine import Game

    rng = random.Random(seed)
    steps = 0
    samples, finished = [], []
    elapsed = 0.0
    for i in range(n_games):
        t0 = clock()
        g = Game(seed * 100003 + i, keep_text_log=False)
        n = 0
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
            n += 1
            if sample_every and n % sample_every == 0 and len(samples) < 200:
                elapsed += clock() - t0
                samples.append(g.clone())
                t0 = clock()
        elapsed += clock() - t0
        steps += n
        if len(finished) < 200:
            finished.append(g.to_json())
    return steps, elapsed, samples, finished


def time_op(fn, items, repeat: int) -> float:
    """Mean seconds per call of ``fn(item)`` over ``items`` x ``repeat``."""
    t0 = clock()
    for _ in range(repeat):
        for x in items:
            fn(x)
    return (clock() - t0) / (repeat * len(items))


def measure(games: int, seed: int, repeat: int) -> dict:
    """One run of every figure, with the code found first on ``sys.path``."""
    from singapore_env.engine import Game

    steps, secs, samples, final_texts = play(games, seed, sample_every=37)
    texts = [g.to_json() for g in samples]
    return {
        "decisions": steps,
        "decisions_per_s": steps / secs,
        "games_per_s": games / secs,
        "clone_us": time_op(lambda g: g.clone(), samples, repeat) * 1e6,
        "to_json_us": time_op(lambda g: g.to_json(), samples, repeat) * 1e6,
        "from_json_us": time_op(Game.from_json, texts, max(1, repeat // 2)) * 1e6,
        "from_json_end_us": time_op(Game.from_json, final_texts, max(1, repeat // 2)) * 1e6,
        "save_kib": sum(map(len, texts)) / len(texts) / 1024,
    }


def run_in(tree: Path, args) -> dict:
    """:func:`measure` in a fresh process importing the project from ``tree``."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", "--games",
           str(args.games), "--seed", str(args.seed), "--repeat", str(args.repeat)]
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(cmd, env=env, cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


FIGURES = (("decisions_per_s", "decisions/s", ",.0f"), ("games_per_s", "games/s", ",.1f"),
           ("clone_us", "clone() us", ",.1f"), ("to_json_us", "to_json() us", ",.1f"),
           ("from_json_us", "from_json() us", ",.1f"),
           ("from_json_end_us", "  game over us", ",.1f"))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="full random games to play")
    ap.add_argument("--seed", type=int, default=0, help="base seed (game i uses seed*100003+i)")
    ap.add_argument("--repeat", type=int, default=5, help="repetitions of the op timings")
    ap.add_argument("--baseline", type=Path, help="another checkout to measure side by side")
    ap.add_argument("--reps", type=int, default=3, help="alternating runs with --baseline")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(measure(args.games, args.seed, args.repeat)))
        return

    print(f"python {platform.python_version()} on {platform.machine()}, one core, CPU time; "
          f"load average {os.getloadavg()[0]:.2f}")
    trees = {"this": HERE} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    runs: dict[str, list[dict]] = {name: [] for name in trees}
    for _ in range(args.reps if args.baseline else 1):
        for name, tree in trees.items():
            runs[name].append(run_in(tree, args))
    med = {name: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for name, rs in runs.items()}
    this = med["this"]
    print(f"{args.games} full random games, {this['decisions']:.0f} decisions "
          f"({this['decisions'] / args.games:.1f} per game), mean save "
          f"{this['save_kib']:.1f} KiB; medians of {len(runs['this'])} run(s)")
    if args.baseline:
        same = runs["this"][0]["decisions"] == runs["baseline"][0]["decisions"]
        print(f"{'':16}{'this':>12}{'baseline':>12}{'ratio':>8}   "
              f"(same games: {'yes' if same else 'NO'})")
        for key, label, fmt in FIGURES:
            a, b = this[key], med["baseline"][key]
            print(f"{label:16}{a:>12{fmt}}{b:>12{fmt}}{a / b:>8.2f}")
    else:
        for key, label, fmt in FIGURES:
            print(f"{label:16}{this[key]:>12{fmt}}")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
