"""Property tests: many seeded random games end normally, invariants after every step."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from singapore_env.engine.config import RulesConfig
from singapore_env.engine import Game
from singapore_env.engine.invariants import check_invariants

pytestmark = pytest.mark.slow

CHUNKS = 10
GAMES_PER_CHUNK = 100


def play(seed: int, config=None, check: bool = True, text_log: bool = False) -> Game:
    g = Game(seed, config, keep_text_log=text_log)
    rng = random.Random(seed)
    vp = list(g.s.vp)
    while not g.is_over:
        legal = g.legal_decisions()
        assert legal, "the acting seat always has a legal decision"
        assert len(set(legal)) == len(legal), "no duplicate decisions"
        g.step(rng.choice(legal))
        if check:
            check_invariants(g)
            assert all(now >= before for now, before in zip(g.s.vp, vp)), "VP never drop"
            vp = list(g.s.vp)
    return g


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_invariants(chunk):
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        g = play(seed)
        assert g.s.round == 8 and g.acting_seat == -1 and g.legal_decisions() == []
        assert len(g.final_scores) == 4 and g.winners


def test_games_without_slavery_never_see_slavery_cards():
    cfg = RulesConfig.standard(slavery=False)
    for seed in range(30):
        g = play(seed, cfg)
        keys = {g.c.defs[c].key for c in g.s.market_deck + g.s.market_discard + g.s.market}
        keys |= {g.c.defs[s.card].key for row in g.s.tableau for s in row}
        assert not keys & {"hamba_abdi", "sakai"}


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_same_seed_same_decisions_same_game(seed):
    a = play(seed, check=False, text_log=True)
    b = Game.replay(seed, a.history)
    assert a.to_json() == b.to_json()
