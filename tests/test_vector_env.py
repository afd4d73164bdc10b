"""VectorEnv: the same games as env(), finished games restart, workers change nothing."""

import numpy as np
import pytest

from singapore_env import env
from singapore_env.env import AGENTS
from singapore_env.vector import VectorEnv, game_seed


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly drawn legal action per row of ``mask``."""
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def test_slots_play_the_games_of_env_and_restart_when_one_ends():
    venv = VectorEnv(2, seed=11)
    obs, mask, seat = venv.reset()
    games = []
    for slot in range(2):
        e = env()
        e.reset(seed=game_seed(11, slot, 0))
        games.append(e)
    assert list(venv.game_seeds) == [game_seed(11, s, 0) for s in range(2)]
    rng = np.random.default_rng(0)
    finished = 0
    while finished < 1:
        for slot, e in enumerate(games):
            agent = e.agent_selection
            assert seat[slot] == AGENTS.index(agent)
            np.testing.assert_array_equal(obs[slot], e.observe(agent)["observation"])
            np.testing.assert_array_equal(mask[slot], e.observe(agent)["action_mask"])
        actions = random_actions(mask, rng)
        for slot, e in enumerate(games):
            e.step(int(actions[slot]))
        obs, mask, seat, rewards, done = venv.step(actions)
        for slot, e in enumerate(games):
            if done[slot]:
                assert all(e.terminations.values())
                assert list(rewards[slot]) == [e.rewards[a] for a in AGENTS]
                assert list(venv.final_vp[slot]) == [e.infos[a]["final_vp"] for a in AGENTS]
                assert venv.game_seeds[slot] == game_seed(11, slot, 1)
                e.reset(seed=game_seed(11, slot, 1))
                finished += 1
            else:
                assert not rewards[slot].any()
    venv.close()


def test_workers_give_the_same_arrays_as_one_process():
    rng = np.random.default_rng(1)
    with VectorEnv(3, seed=5) as local, VectorEnv(3, seed=5, workers=2) as shared:
        for a, b in zip(local.reset(), shared.reset()):
            np.testing.assert_array_equal(a, b)
        for _ in range(60):
            actions = random_actions(local.mask, rng)
            for a, b in zip(local.step(actions), shared.step(actions)):
                np.testing.assert_array_equal(a, b)


def test_an_illegal_action_or_unknown_engine_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown engine 'fast'"):
        VectorEnv(1, engine="fast")
    with VectorEnv(2, seed=1, workers=2) as venv:
        _, mask, _ = venv.reset()
        actions = mask.argmax(axis=1)
        actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
        with pytest.raises(ValueError, match="slot 1: action"):
            venv.step(actions)
