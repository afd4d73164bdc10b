"""How strong ``learned:zero``'s lookahead plays at other settings: sampled worlds per
answer (``worlds``) and the Action question a rollout ends at (``questions``), on the
same seeds, each setting's faction win rate against two heuristics and its difference
from the first setting's, paired by seed.

    .venv/bin/python scripts/lookahead_settings.py --seed 31001 --games 2000 --workers 2 1x2 4x2 1x3 4x3 4x4

plays ``learned:zero``'s networks as Malay (``--faction british`` for the other side)
at 1 world to the second question, 4 to the second, ... (``WORLDSxQUESTIONS``), each
through :func:`arena.evaluate.run_matchup` on the native engine. ``docs/training.md`` has
what it measured.
As an agent spec the file gives one setting: ``scripts/lookahead_settings.py:lookahead:
worlds=1:questions=2``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.lookahead import ROLLOUT_QUESTIONS, WORLDS  # noqa: E402
from agents.reference import lookahead_over  # noqa: E402
from arena.evaluate import run_matchup  # noqa: E402
from arena.summary import faction_wins, paired_by_seed, rate  # noqa: E402
from singapore_env.engine.content import FACTIONS, SEAT_FACTION  # noqa: E402


def lookahead(seed: int | None = None, worlds: int = WORLDS, questions: int = ROLLOUT_QUESTIONS):
    """``learned:zero`` (the shipped ``zero`` networks and their lookahead) at ``worlds``
    sampled worlds and rollouts to the seat's ``questions``-th Action question."""
    return lookahead_over("zero", seed, worlds=worlds, questions=questions)


def _setting(text: str) -> tuple[int, int]:
    worlds, sep, questions = text.partition("x")
    if not (sep and worlds.isdigit() and questions.isdigit()) or min(int(worlds), int(questions)) < 1:
        raise argparse.ArgumentTypeError(f"a setting is WORLDSxQUESTIONS, both at least 1, "
                                         f"e.g. 4x2; got {text!r}")
    return int(worlds), int(questions)


def main() -> None:
    """Play each setting on the same seeds and print its win rate and paired difference."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("settings", nargs="+", type=_setting, help="WORLDSxQUESTIONS, e.g. 4x2")
    parser.add_argument("--faction", choices=["british", "malay"], default="malay")
    parser.add_argument("--seed", type=int, default=31001)
    parser.add_argument("--games", type=int, default=2000, help="seeds, each played seat-swapped")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    played = []
    for worlds, questions in args.settings:
        spec = f"{Path(__file__).resolve()}:lookahead:worlds={worlds}:questions={questions}"
        seats = [spec if FACTIONS[SEAT_FACTION[p]] == args.faction else "heuristic"
                 for p in range(4)]
        played.append((f"{worlds}x{questions}",
                       run_matchup(seats, args.games, args.seed, workers=args.workers,
                                   engine="native").records))

    def wins(record: dict) -> float:
        return faction_wins(record, args.faction)

    first_name, first = played[0]
    for name, records in played:
        won = rate(records, wins)
        line = (f"{name}: {args.faction} wins {100 * won['rate']:.2f} % "
                f"[{100 * won['ci95'][0]:.2f}, {100 * won['ci95'][1]:.2f}]")
        if records is not first:
            d = paired_by_seed(records, first, wins)
            line += (f", {100 * d['difference']:+.2f} [{100 * d['ci95'][0]:+.2f}, "
                     f"{100 * d['ci95'][1]:+.2f}] points from {first_name} ({d['seeds']} seeds)")
        print(line)


if __name__ == "__main__":
    main()
