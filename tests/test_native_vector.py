"""NativeVectorEnv: native games stepped together in C++ write, row for row, what the
Python engine and encoder show for the same seeds and actions, across auto-resets."""

import random

import numpy as np
import pytest

from singapore_env import native
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content
from singapore_env.engine.game import Game
from singapore_env.rewards import rewards

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

if native.available():
    from singapore_env.native_vector import NativeVectorEnv, game_seed


def test_slot_seeds_are_the_seed_sequences():
    for seed, slot, k in ((0, 0, 0), (1, 2, 3), (2**40 + 5, 7, 2**33), (2**64 - 1, 0, 1)):
        assert native.require().slot_game_seed(seed, slot, k) == game_seed(seed, slot, k)


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_rows_equal_the_python_engine(ruleset):
    cfg = RulesConfig.named(ruleset)
    enc = encoder_for(default_content(cfg.slavery), cfg)
    n, seed = 3, 11
    venv = NativeVectorEnv(n, ruleset, seed=seed)
    obs, mask, seat = venv.reset()
    games = [Game(game_seed(seed, i, 0), cfg) for i in range(n)]
    played = [1] * n
    pick = random.Random(seed)
    finished = 0
    for _ in range(400):
        for i, g in enumerate(games):
            assert seat[i] == g.acting_seat
            assert obs[i].tobytes() == enc.encode(g, g.acting_seat).tobytes()
            assert np.array_equal(mask[i], enc.legal_mask(g, g.acting_seat))
        actions = [pick.choice(np.flatnonzero(mask[i]).tolist()) for i in range(n)]
        obs, mask, seat, reward, done = venv.step(np.array(actions))
        for i, g in enumerate(games):
            g.step(enc.table.decision(actions[i]))
            assert done[i] == g.is_over
            if g.is_over:
                finished += 1
                assert venv.final_vp[i].tolist() == g.final_scores
                assert reward[i].tolist() == rewards(g.final_scores, "win")
                games[i] = Game(game_seed(seed, i, played[i]), cfg)
                played[i] += 1
            else:
                assert not reward[i].any()
            assert venv.game_seeds[i] == games[i].seed
    assert finished >= 1


def test_an_illegal_action_moves_no_slot():
    venv = NativeVectorEnv(2, seed=3)
    obs, mask, _ = venv.reset()
    before = obs.copy()
    legal = int(np.flatnonzero(mask[0])[0])
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=f"slot 1: action {illegal} is not legal now"):
        venv.step(np.array([legal, illegal]))
    assert np.array_equal(venv.obs, before)
    with pytest.raises(ValueError, match="expected 2 action indices"):
        venv.step([legal])
    with pytest.raises(ValueError, match="num_games must be at least 1"):
        NativeVectorEnv(0)
