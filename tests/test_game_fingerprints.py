"""Games stay byte-identical to the committed ones: a digest per ruleset of fixed games
(random and heuristic tables) covering, at every step, the legal decisions, a clone's
save and, every few steps, the save itself and a reload of it, plus the heuristic's
option scores. Restructuring the code (moving modules, typed frame data, ruleset
objects) must leave every digest as it is; a failure names the table that changed.

After an intended change to the rules or the heuristic, write the new digests with
``python tests/test_game_fingerprints.py --write``.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import pytest
from digest_fixture import changed_keys, write_fixture

from agents.heuristic import HeuristicAgent
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine import Game

FIXTURE = Path(__file__).parent / "data" / "game_digests.json"
GAMES = 6  # random games per ruleset (heuristic games: 2)
SAVE_EVERY = 17  # steps between full save/reload checks


def _game_digest(cfg: RulesConfig, seed: int, choose) -> str:
    """sha256 over one game: legal decisions each step, saves, reloads, clones, scores."""
    h = hashlib.sha256()
    g, rng = Game(seed, cfg, keep_text_log=False), random.Random(seed)
    step = 0
    while not g.is_over:
        legal = g.legal_decisions()
        h.update(repr([(int(d.kind), d.arg) for d in legal]).encode())
        if step % SAVE_EVERY == 0:
            text = g.to_json()
            h.update(text.encode())
            assert Game.from_json(text).to_json() == text
            assert g.clone().to_json() == text
        g.step(choose(g, g.acting_seat, rng, legal))
        step += 1
    h.update(g.to_json().encode())
    h.update(repr((g.final_scores, g.winners)).encode())
    return h.hexdigest()


def digests(ruleset: str) -> dict[str, str]:
    """Table name -> sha256 over the fixed games of ``ruleset`` at that table."""
    cfg = RulesConfig.named(ruleset)
    heuristics = [HeuristicAgent(seed=s) for s in range(4)]
    h_scores = hashlib.sha256()

    def random_table(g, seat, rng, legal):
        return rng.choice(legal)

    def heuristic_table(g, seat, rng, legal):
        # the heuristic's scores of the options it ranks (the search's prior), then its choice
        scores = heuristics[seat].option_scores(g, seat)
        h_scores.update(repr([(round(v, 9), int(d.kind), d.arg) for v, d in scores]).encode())
        return heuristics[seat].choose(g, seat)

    out = {}
    for name, choose in (("random", random_table), ("heuristic", heuristic_table)):
        h = hashlib.sha256()
        for i in range(GAMES if name == "random" else 2):
            h.update(_game_digest(cfg, 8100 + i, choose).encode())
        out[name] = h.hexdigest()
    out["heuristic option scores"] = h_scores.hexdigest()
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_games_match_the_committed_digests(ruleset):
    changed = changed_keys(FIXTURE, ruleset, digests(ruleset))
    assert not changed, f"{ruleset}: these tables' games changed: {', '.join(changed)}"


if __name__ == "__main__" and "--write" in sys.argv:
    write_fixture(FIXTURE, digests)
