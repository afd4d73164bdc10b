"""A few full random games end normally."""

import random

from singapore_env.engine import Game


def test_random_games_finish():
    for seed in range(5):
        g = Game(seed)
        rng = random.Random(seed)
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
        assert g.s.round == 8
        assert len(g.final_scores) == 4
        assert g.winners
