"""The arena's games on the native engine against the Python engine, in the same run on
one core: ``arena.runner.play_tables`` (what ``simulate`` and ``evaluate`` play) with
``engine="python"`` and ``engine="native"``, the same seeds and players, records
included.

    .venv/bin/python benchmarks/bench_arena_engine.py --games 200 --learned runs/selfplay/british.npz

Rows: four ``random`` players; four ``heuristic`` players (the native twin thinks in
C++ at a native game); four ``learned:PATH`` players of a flat ``.npz`` actor
(``--learned``, e.g. one the self-play trainer wrote; without it, an actor of random
weights of the self-play trainer's shape, 256-256 tanh, which costs what a trained one
costs); four ``learned:zero-policy`` (the shipped pointer policy) and four
``learned:zero`` (its lookahead: native worlds and rollouts, the networks in C++ on the
native engine); four ``rerank`` (the shipped networks choosing among the heuristic's
candidates: one C++ call a decision on the native engine); one ``mcts:iters=24`` and one
``mcts:iters=24:net=zero`` seat beside
three heuristics (the search's whole loop in C++ on the native engine: native worlds,
heuristic rollouts, the value head). Each row also checks that both engines wrote the
same records. Times are CPU time of this process (``time.process_time``), the best of
``--reps`` repetitions, the engines alternating; a row's players are made once before
its clock starts, so the shipped networks (loaded once a process,
``agents/reference.py``, ``load_value_nets``) are not counted as a cost of its few games
(the native twins of the networks are: built in the first native games;
``mcts:...:net=zero`` loads its value networks in its first Python games, about
0.15 s). Not a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from agents.learned import NumpyPolicy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from arena.runner import Table, play_tables  # noqa: E402
from singapore_env.encoding import encoder_for  # noqa: E402
from singapore_env.engine.config import RulesConfig  # noqa: E402
from singapore_env.engine.content import default_content  # noqa: E402

ENGINES = ("python", "native")


def random_actor(folder: str) -> str:
    """A flat actor of random weights (256-256 tanh) over the standard observation."""
    enc = encoder_for(default_content(True), RulesConfig.standard())
    rng = np.random.default_rng(0)
    sizes = [enc.size, 256, 256]
    layers = [(rng.normal(0, 1 / np.sqrt(a), (a, b)), np.zeros(b))
              for a, b in zip(sizes, sizes[1:])]
    head = (rng.normal(0, 0.01, (256, enc.n_actions)), np.zeros(enc.n_actions))
    path = os.path.join(folder, "actor.npz")
    NumpyPolicy(layers, head).save(path)
    return path


def rates(players: tuple, games: int, seed: int, reps: int) -> tuple[dict, bool]:
    """Games per CPU-second on each engine (best of ``reps``) and whether the records
    were equal."""
    best = dict.fromkeys(ENGINES, float("inf"))
    records = {}
    for _ in range(reps):
        for engine in ENGINES:
            start = time.process_time()
            records[engine] = play_tables([Table(players)], games, seed, engine=engine)
            best[engine] = min(best[engine], time.process_time() - start)
    return {e: games / s for e, s in best.items()}, records["python"] == records["native"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--heuristic-games", type=int, default=50,
                        help="games of the heuristic row")
    parser.add_argument("--learned-games", type=int, default=50,
                        help="games of the learned row (its network dominates)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--learned", help="a flat .npz actor (default: random weights)")
    parser.add_argument("--policy-games", type=int, default=10,
                        help="games of the learned:zero-policy row")
    parser.add_argument("--lookahead-games", type=int, default=2,
                        help="games of the learned:zero row (a few CPU-seconds each)")
    parser.add_argument("--rerank-games", type=int, default=20, help="games of the rerank row")
    parser.add_argument("--search-games", type=int, default=1,
                        help="games of the mcts rows (10 to 40 CPU-seconds each on Python)")
    args = parser.parse_args()
    play_tables([Table(("random",) * 4)], 2, 0, engine="native")  # imports, first games
    print(f"# {platform.machine()}, Python {platform.python_version()}, numpy "
          f"{np.__version__}; load average {os.getloadavg()[0]:.1f}; CPU time, one core")
    print("| players | games | Python engine games/s | native games/s | ratio | same records |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        learned = args.learned or random_actor(folder)
        rows = [(("random",) * 4, args.games), (("heuristic",) * 4, args.heuristic_games),
                ((f"learned:{learned}",) * 4, args.learned_games),
                (("learned:zero-policy",) * 4, args.policy_games),
                (("learned:zero",) * 4, args.lookahead_games), (("rerank",) * 4, args.rerank_games)]
        rows += [((spec,) + ("heuristic",) * 3, args.search_games)
                 for spec in ("mcts:iters=24", "mcts:iters=24:net=zero")]
        for players, games in rows:
            for spec in set(players):
                make_agent(spec)  # the shipped networks it plays, loaded
            rate, same = rates(players, games, args.seed, args.reps)
            print(f"| {_label(players, learned, args.learned)} | {games} | {_rate(rate['python'])} "
                  f"| {_rate(rate['native'])} | {rate['native'] / rate['python']:.1f}× "
                  f"| {'yes' if same else 'NO'} |")


def _label(players: tuple, learned: str, given: str | None) -> str:
    """The players of a row: ``4 × `spec` `` or ``1 × `spec` + 3 × `heuristic` ``."""
    def name(spec: str) -> str:
        return "learned (random weights)" if spec == f"learned:{learned}" and not given else spec

    first, rest = players[0], players[1:]
    if all(p == first for p in rest):
        return f"4 × `{name(first)}`"
    return f"1 × `{name(first)}` + 3 × `{rest[0]}`"


def _rate(games_per_second: float) -> str:
    return f"{games_per_second:,.2f}" if games_per_second >= 1 else f"{games_per_second:.3g}"


if __name__ == "__main__":
    main()
