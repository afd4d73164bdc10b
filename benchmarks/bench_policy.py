"""Speed of a learned policy's decision on one thread, next to the heuristic's.

    nice -n 10 .venv/bin/python benchmarks/bench_policy.py                   # learned:zero-policy's British
    nice -n 10 .venv/bin/python benchmarks/bench_policy.py --policy runs/zero/british.npz

Positions: every decision of the British seats in ``--games`` heuristic games. For each,
in CPU time of this one process (``time.process_time``, so other jobs on the machine
do not count):

* *forward pass*: the numpy network alone on a ready observation (the bound: at
  most 1 ms per decision);
* *whole decision*: :meth:`agents.learned.LearnedAgent.choose` -- observation and
  candidate encoding (with the heuristic's scores of the answers when the policy reads
  that prior), the forward pass, the decision;
* *heuristic decision*: :meth:`agents.heuristic.HeuristicAgent.choose` on the same
  positions, the reference.

A benchmark, not a timed test; ``docs/benchmarks.md`` records its figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.base import _encoder_for  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.learned import POLICY_DIR, LearnedAgent  # noqa: E402
from agents.priors import resolve_prior  # noqa: E402
from agents.threads import limit_threads  # noqa: E402
from singapore_env.candidates import CandidateEncoder  # noqa: E402
from singapore_env.engine import Game  # noqa: E402


def positions(n_games: int, seats=(0, 1)) -> list[tuple[Game, int]]:
    """Clones of every position where one of ``seats`` decides, in heuristic games."""
    out = []
    players = [HeuristicAgent(seed=p) for p in range(4)]
    for seed in range(n_games):
        game = Game(seed, keep_text_log=False)
        while not game.is_over:
            seat = game.acting_seat
            if seat in seats and len(game.legal_decisions()) > 1:
                out.append((game.clone(), seat))
            game.step(players[seat].choose(game, seat))
    return out


def per_decision_ms(fn, items) -> float:
    """Mean CPU milliseconds of ``fn(item)`` over ``items``."""
    start = time.process_time()
    for item in items:
        fn(item)
    return 1000 * (time.process_time() - start) / len(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--policy", type=Path, default=POLICY_DIR / "zero" / "british.npz")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    limit_threads(1)
    agent = LearnedAgent.load(args.policy)
    spots = positions(args.games)
    encoder = _encoder_for(spots[0][0])
    cand = CandidateEncoder.for_observations(
        encoder, resolve_prior(agent.policy.meta.get("candidate_prior")))
    ready = [({"observation": encoder.encode(g, s), **cand.encode(g, s)},
              encoder.legal_mask(g, s)) for g, s in spots]
    heuristic = HeuristicAgent(seed=0)
    rows = {
        "forward pass (numpy)": lambda item: agent.policy.choose(item[0], item[1], None),
        "whole decision (encode + forward)": lambda gs: agent.choose(*gs),
        "heuristic decision (reference)": lambda gs: heuristic.choose(*gs),
    }
    print(f"{len(spots)} British decisions from {args.games} heuristic games; policy "
          f"{args.policy} (prior: {agent.policy.meta.get('candidate_prior') or 'none'}); "
          f"CPU ms per decision, median of {args.repeat} runs")
    for label, fn in rows.items():
        items = ready if label.startswith("forward") else spots
        ms = statistics.median(per_decision_ms(fn, items) for _ in range(args.repeat))
        print(f"  {label:36s} {ms:7.3f} ms")


if __name__ == "__main__":
    main()
