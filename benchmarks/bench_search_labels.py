"""Search-labelled decisions a second: DAgger's labelling (``training.dagger.label``,
what ``algorithm = "dagger"`` runs) with a search as the teacher, on the native engine
next to the Python engine, in the same run on one core.

    nice .venv/bin/python benchmarks/bench_search_labels.py --games 4 --python-games 1

One faction's seats play the shipped student (``learned:pure-policy``) or the teacher's
choice, the other faction two heuristics; the teacher (``--teacher``, default
``mcts:iters=24``) answers every decision of the faction, and searches the ones worth it
(the main Action question and the other searched kinds). Rates are per second of this
process's CPU time (``time.process_time``): labelled decisions, searched decisions (the
search's own count) and games an hour. Both engines give the same rows
(``tests/test_dagger.py``). Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from training import dagger  # noqa: E402
from training.config import TrainConfig  # noqa: E402

STUDENT = Path("agents/policies/pure")


def measure(teacher: str, engine: str, games: int, faction: int) -> dict:
    """One labelling run: CPU seconds, labelled and searched decisions."""
    made = []
    make_teacher = dagger.make_teacher

    def keep(*args):  # the teacher label() makes, to read its search count
        made.append(make_teacher(*args))
        return made[-1]

    dagger.make_teacher = keep
    try:
        cfg = TrainConfig(algorithm="dagger", seed=1, teacher=teacher, games=games,
                          init=str(STUDENT))
        started = time.process_time()
        rows = dagger.label(cfg, STUDENT / ("british.npz", "malay.npz")[faction], faction, 7,
                            engine=engine)
        seconds = time.process_time() - started
    finally:
        dagger.make_teacher = make_teacher
    stats = getattr(made[-1], "stats", None)
    return {"seconds": seconds, "decisions": len(rows), "games": games,
            "searched": getattr(stats, "searched", 0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teacher", default="mcts:iters=24")
    parser.add_argument("--games", type=int, default=4, help="native games a faction")
    parser.add_argument("--python-games", type=int, default=1, help="Python games a faction")
    args = parser.parse_args()
    print(f"teacher {args.teacher}; rates per CPU second of one core")
    print(f"{'faction':8} {'engine':7} {'games':>5} {'decisions/s':>12} {'searched/s':>11} "
          f"{'games/hour':>11}")
    for faction, name in enumerate(("British", "Malay")):
        rates = {}
        for engine, games in (("python", args.python_games), ("native", args.games)):
            m = measure(args.teacher, engine, games, faction)
            rates[engine] = m["decisions"] / m["seconds"]
            print(f"{name:8} {engine:7} {games:>5} {rates[engine]:>12.1f} "
                  f"{m['searched'] / m['seconds']:>11.2f} {3600 * games / m['seconds']:>11.0f}")
        print(f"{name:8} native / python: {rates['native'] / rates['python']:.1f}x")


if __name__ == "__main__":
    main()
