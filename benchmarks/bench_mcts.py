"""Speed of the search agent: simulations per second on one core, seconds per decision.

    nice -n 10 .venv/bin/python benchmarks/bench_mcts.py                 # iters=24
    nice -n 10 .venv/bin/python benchmarks/bench_mcts.py --spec mcts:iters=48:topk=2

Wall-clock figures depend on the machine's load; the CPU figures (``time.process_time``
of this one process) are the per-core ones.

1. *Search speed*: positions where the seat must answer a searched question (taken
   from heuristic games, every round) are searched with the spec's budget and
   ``gap=inf`` (every such position searched); reported: simulations (rollouts) per
   second, worlds per second and seconds per searched decision.
2. *One game*: the spec on both British seats against heuristic Malay seats: how many
   decisions were searched (the others go to the heuristic at once), the seconds per
   searched decision and the seconds of the whole game.

A benchmark, not a timed test: run it on an idle core (one process) for figures to
compare; ``docs/benchmarks.md`` records the measured figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.mcts import SEARCHED, MctsAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from singapore_env.engine import Game  # noqa: E402
from arena.simulate import play_game  # noqa: E402


def searched_positions(n: int, seed: int) -> list[Game]:
    """``n`` positions at searched questions with at least 3 options, spread over games."""
    positions: list[Game] = []
    game_seed = seed
    while len(positions) < n:
        g, h = Game(game_seed), HeuristicAgent(seed=game_seed)
        step = 0
        while not g.is_over and len(positions) < n:
            if (g.pending.kind in SEARCHED and len(g.legal_decisions()) >= 3
                    and step % 25 == 0):
                positions.append(g.clone())
            g.step(h.choose(g, g.acting_seat))
            step += 1
        game_seed += 1
    return positions


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="mcts:iters=24", help="agent spec (mcts:key=value...)")
    ap.add_argument("--positions", type=int, default=20, help="positions to search")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    agent = make_agent(args.spec, seed=args.seed)
    if not isinstance(agent, MctsAgent):
        ap.error(f"{args.spec!r} is not an mcts agent")
    agent.gap = float("inf")
    worlds = 0
    cpu = time.process_time()
    for g in searched_positions(args.positions, args.seed):
        agent.choose(g, g.acting_seat)
        worlds += agent.last_search.get("worlds", 0)
    cpu = time.process_time() - cpu  # includes collecting the positions (a few games)
    st = agent.stats
    print(f"{args.spec}: {st.searched} positions searched (gap=inf)")
    print(f"  wall: {st.per_second():.0f} simulations/s, {worlds / st.seconds:.1f} worlds/s, "
          f"{st.seconds / max(st.searched, 1):.3f} s per searched decision")
    print(f"  CPU (one core): {st.simulations / cpu:.0f} simulations/s, "
          f"{cpu / max(st.searched, 1):.3f} s per searched decision")

    agents = [make_agent(args.spec), make_agent(args.spec),
              make_agent("heuristic"), make_agent("heuristic")]
    start, cpu = time.perf_counter(), time.process_time()
    result = play_game(args.seed, agents)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    searched = sum(a.stats.searched for a in agents[:2])
    spent = sum(a.stats.seconds for a in agents[:2])
    overruled = sum(a.stats.overruled for a in agents[:2])
    print(f"one game, {args.spec} British vs heuristic Malay (seed {args.seed}): "
          f"{seconds:.1f} s wall, {cpu:.1f} s CPU, {result.decisions} decisions")
    print(f"  {searched / 2:.1f} searched decisions per British seat, "
          f"{spent / max(searched, 1):.3f} s each, prior overruled {overruled} times; "
          f"final VP {result.final_scores}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
