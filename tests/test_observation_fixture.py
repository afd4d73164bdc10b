"""Observations stay byte-identical to the committed ones, so trained policies keep
working: a digest of every slice of every seat's observation (and of the action mask)
over fixed games — random and heuristic tables, every ruleset, every step — is compared
with ``tests/data/observation_digests.json``. A failure names the slices that changed.

After an intended change to the observation (retrain the shipped policies too), write
the new digests with ``python tests/test_observation_fixture.py --write``.
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
from singapore_env.encoding import ObservationEncoder
from singapore_env.engine import Game

FIXTURE = Path(__file__).parent / "data" / "observation_digests.json"
GAMES = 2  # per ruleset and table


def _tables():
    """(name, chooser) pairs: how a table picks each decision."""
    def random_table(g, seat, rng):
        return rng.choice(g.legal_decisions())
    heuristics = [HeuristicAgent(seed=s) for s in range(4)]

    def heuristic_table(g, seat, rng):
        return heuristics[seat].choose(g, seat)
    return (("random", random_table), ("heuristic", heuristic_table))


def digests(ruleset: str) -> dict[str, str]:
    """Slice name (and ``action_mask``) -> sha256 of that slice over every observation
    of the fixed games of ``ruleset``."""
    cfg = RulesConfig.named(ruleset)
    enc = ObservationEncoder(config=cfg)
    hashes: dict = {}  # slice name -> running sha256
    for _name, choose in _tables():
        for i in range(GAMES):
            g, rng = Game(7100 + i, cfg, keep_text_log=False), random.Random(i)
            while not g.is_over:
                for seat in range(4):
                    for key, part in enc.decode(enc.encode(g, seat)).items():
                        hashes.setdefault(key, hashlib.sha256()).update(part.tobytes())
                    hashes.setdefault("action_mask", hashlib.sha256()).update(
                        enc.legal_mask(g, seat).tobytes())
                g.step(choose(g, g.acting_seat, rng))
    return {key: h.hexdigest() for key, h in sorted(hashes.items())}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_observations_match_the_committed_digests(ruleset):
    changed = changed_keys(FIXTURE, ruleset, digests(ruleset))
    assert not changed, f"{ruleset}: these observation slices changed: {', '.join(changed)}"


if __name__ == "__main__" and "--write" in sys.argv:
    write_fixture(FIXTURE, digests)
