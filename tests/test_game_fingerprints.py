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
import json
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


def _python_game(seed: int, cfg: RulesConfig):
    return Game(seed, cfg, keep_text_log=False)


def _game_digest(cfg: RulesConfig, seed: int, choose, new=_python_game) -> str:
    """sha256 over one game (``new(seed, cfg)``: a game of either engine): legal decisions
    each step, saves, reloads, clones, scores."""
    h = hashlib.sha256()
    g, rng = new(seed, cfg), random.Random(seed)
    step = 0
    while not g.is_over:
        legal = g.legal_decisions()
        h.update(repr([(int(d.kind), d.arg) for d in legal]).encode())
        if step % SAVE_EVERY == 0:
            text = g.to_json()
            h.update(text.encode())
            assert type(g).from_json(text).to_json() == text
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

    def heuristic_table(g, seat, rng, legal):
        # the heuristic's scores of the options it ranks (the search's prior), then its choice
        scores = heuristics[seat].option_scores(g, seat)
        h_scores.update(repr([(round(v, 9), int(d.kind), d.arg) for v, d in scores]).encode())
        return heuristics[seat].choose(g, seat)

    out = {"random": random_digest(cfg)}
    h = hashlib.sha256()
    for i in range(2):
        h.update(_game_digest(cfg, 8100 + i, heuristic_table).encode())
    out["heuristic"] = h.hexdigest()
    out["heuristic option scores"] = h_scores.hexdigest()
    return out


def random_digest(cfg: RulesConfig, new=_python_game) -> str:
    """The random table's digest: ``GAMES`` games of random decisions."""
    h = hashlib.sha256()
    for i in range(GAMES):
        h.update(_game_digest(cfg, 8100 + i, lambda g, seat, rng, legal: rng.choice(legal),
                              new).encode())
    return h.hexdigest()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_games_match_the_committed_digests(ruleset):
    changed = changed_keys(FIXTURE, ruleset, digests(ruleset))
    assert not changed, f"{ruleset}: these tables' games changed: {', '.join(changed)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_native_engine_plays_the_committed_random_games(ruleset):
    """The native twin gives the same digest: the same legal decisions, saves (its own
    and its clones'), reloads and scores at every step."""
    from singapore_env import native

    if not native.available():
        pytest.skip("the native engine is not built here")
    cfg = RulesConfig.named(ruleset)
    expected = json.loads(FIXTURE.read_text())[ruleset]["random"]
    assert random_digest(cfg, lambda seed, c: native.NativeGame(seed, config=c)) == expected


if __name__ == "__main__" and "--write" in sys.argv:
    write_fixture(FIXTURE, digests)
