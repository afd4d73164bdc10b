"""CPU seconds a game for every shipped agent, in one run (docs/agents.md's CPU column).

    nice .venv/bin/python benchmarks/bench_agents_cpu.py               # every agent
    nice .venv/bin/python benchmarks/bench_agents_cpu.py --agents heuristic,learned:zero
    nice .venv/bin/python benchmarks/bench_agents_cpu.py --engine native   # the arena's default

Each game is a whole game (all four seats) with the agent on both seats of its faction
and heuristics on the other two, in this process on one thread. The figure is process
CPU time (``time.process_time``), not wall time, so other jobs on the machine inflate it
less; the agents are made (networks loaded) before the clock starts. The seeds are the
same for every agent (``arena.simulate.game_seeds(1, n)``); slow agents play fewer games.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.registry import make_agent  # noqa: E402
from agents.threads import limit_threads  # noqa: E402
from arena.simulate import game_seeds, play_game  # noqa: E402

#: (spec, faction it plays, games): every shipped agent, fewer games for the slow ones.
AGENTS = [("random", "british", 10), ("heuristic", "british", 10),
          ("learned:zero-policy", "british", 6), ("learned:zero", "british", 3),
          ("rerank:net=zero", "british", 6), ("rerank:net=zero", "malay", 6),
          ("mcts:iters=24:net=zero", "british", 10), ("mcts:iters=24", "british", 10),
          ("openspiel-ismcts:seconds=0.05", "british", 1)]


def cpu_per_game(spec: str, faction: str, games: int, engine: str = "python") -> float:
    """Mean process CPU seconds of ``games`` games with ``spec`` on ``faction``'s seats,
    on ``engine``."""
    agent = make_agent(spec)
    players = ([agent, agent, "heuristic", "heuristic"] if faction == "british"
               else ["heuristic", "heuristic", agent, agent])
    start = time.process_time()
    for engine_seed, *agent_seeds in game_seeds(1, games):
        play_game(engine_seed, players, agent_seeds=agent_seeds, engine=engine)
    return (time.process_time() - start) / games


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", help="comma-separated specs (default: every shipped agent)")
    ap.add_argument("--engine", choices=("python", "native"), default="python",
                    help="the games' engine (native: every agent with a native twin "
                         "plays there; openspiel-ismcts has none)")
    args = ap.parse_args(argv)
    rows = AGENTS
    if args.agents:
        wanted = args.agents.split(",")
        rows = [r for r in AGENTS if r[0] in wanted] or [(s, "british", 3) for s in wanted]
    limit_threads()
    print(f"# {platform.processor() or platform.machine()}, Python "
          f"{platform.python_version()}, {args.engine} engine")
    print("| agent | as | games | CPU s per game |")
    print("|---|---|---:|---:|")
    for spec, faction, games in rows:
        try:
            seconds = cpu_per_game(spec, faction, games, args.engine)
        except (ImportError, ModuleNotFoundError) as exc:  # an optional extra is missing
            print(f"| `{spec}` | {faction} | 0 | (not installed: {exc.name}) |", flush=True)
            continue
        except ValueError:  # the native engine cannot seat it
            print(f"| `{spec}` | {faction} | 0 | (no native twin: --engine python) |",
                  flush=True)
            continue
        print(f"| `{spec}` | {faction} | {games} | {seconds:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
