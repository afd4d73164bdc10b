"""A readable golden log beside the digest fingerprints: for a few fixed games of every
ruleset (random players on seeded generators), the number of legal decisions at every
step, the final scores and the winners, committed as text in ``tests/data/golden_log.txt``.
A digest says *that* a game changed; this log says where: the first step whose number
of legal decisions differs, or the scores.

After an intended change to the rules, rewrite it with
``python tests/test_golden_log.py --write`` and read the diff.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig

LOG = Path(__file__).parent / "data" / "golden_log.txt"
SEEDS = (8200, 8201)
PER_LINE = 25  # legal counts per line


def game_log(ruleset: str, seed: int) -> list[str]:
    """The lines of one game: a header, the legal counts (``PER_LINE`` a line, each line
    starting with its first step), the final scores by seat and the winners."""
    g, rng = Game(seed, RulesConfig.named(ruleset), keep_text_log=False), random.Random(seed)
    counts = []
    while not g.is_over:
        legal = g.legal_decisions()
        counts.append(len(legal))
        g.step(rng.choice(legal))
    lines = [f"game {ruleset} seed {seed}: {len(counts)} steps"]
    for start in range(0, len(counts), PER_LINE):
        lines.append(f"  legal {start:4d}: " + " ".join(map(str, counts[start:start + PER_LINE])))
    lines.append(f"  final scores {list(g.final_scores)} winners {list(g.winners)}")
    return lines


def golden_log() -> list[str]:
    """Every game's lines, rulesets in their order."""
    return [line for ruleset in RULESETS for seed in SEEDS for line in game_log(ruleset, seed)]


def first_difference(want: list[str], got: list[str]) -> str:
    """The first line that differs, with the game it belongs to."""
    game = ""
    for a, b in zip(want, got):
        if a.startswith("game "):
            game = a
        if a != b:
            return f"{game}\n  committed: {a.strip()}\n  now:       {b.strip()}"
    return f"the logs differ in length ({len(want)} committed lines, {len(got)} now)"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fixed_games_follow_the_golden_log(ruleset):
    want = LOG.read_text().splitlines()
    mine = [line for seed in SEEDS for line in game_log(ruleset, seed)]
    header = f"game {ruleset} seed {SEEDS[0]}:"
    start = next((i for i, line in enumerate(want) if line.startswith(header)), None)
    assert start is not None, f"{LOG.name} has no {ruleset} games: rewrite it (--write)"
    committed = want[start:start + len(mine)]
    assert committed == mine, first_difference(committed, mine)


def test_the_comparison_names_the_first_different_step():
    """A test that cannot fail is a defect: a changed count is reported with its game."""
    lines = game_log("standard", SEEDS[0])
    changed = list(lines)
    changed[2] += " 99"
    report = first_difference(lines, changed)
    assert report.startswith(f"game standard seed {SEEDS[0]}") and "committed" in report


if __name__ == "__main__" and "--write" in sys.argv:
    LOG.write_text("\n".join(golden_log()) + "\n")
    print(f"wrote {LOG}")
