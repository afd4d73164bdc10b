"""RandomAgent and the agent registry."""

import numpy as np
import pytest

from agents import Agent, RandomAgent, make_agent
from agents.registry import known_agents, register
from singapore_env.engine import Game


def _play(seed: int, agent_seed: int) -> list:
    agent = RandomAgent(agent_seed)
    game = Game(seed, keep_text_log=False)
    chosen = []
    while not game.is_over:
        legal = game.legal_decisions()
        d = agent.choose(game, game.acting_seat)
        assert d in legal
        chosen.append(d)
        game.step(d)
    return chosen


def test_choose_is_always_legal_over_full_games():
    for seed in range(4):
        assert len(_play(seed, agent_seed=seed)) > 50


def test_same_seed_same_choices_and_reset_reseeds():
    assert _play(3, agent_seed=11) == _play(3, agent_seed=11)
    assert _play(3, agent_seed=11) != _play(3, agent_seed=12)
    agent = RandomAgent(5)
    game = Game(1)
    first = [agent.choose(game, game.acting_seat) for _ in range(20)]
    agent.reset(5)
    assert [agent.choose(game, game.acting_seat) for _ in range(20)] == first


def test_act_picks_only_masked_actions_and_is_reproducible():
    mask = np.zeros(50, dtype=np.int8)
    mask[[3, 17, 42]] = 1
    a, b = RandomAgent(7), RandomAgent(7)
    picks = [a.act({}, mask) for _ in range(200)]
    assert set(picks) == {3, 17, 42}
    assert picks == [b.act({}, mask) for _ in range(200)]
    with pytest.raises(ValueError):
        a.act({}, np.zeros(5, dtype=np.int8))


def test_does_not_touch_the_global_rng():
    np.random.seed(0)
    before = np.random.get_state()[1].copy()
    _play(0, agent_seed=None)
    assert (np.random.get_state()[1] == before).all()


def test_base_agent_is_abstract():
    agent = Agent()
    with pytest.raises(NotImplementedError):
        agent.act({}, np.ones(3, dtype=np.int8))
    with pytest.raises(NotImplementedError, match="act"):
        agent.choose(Game(0), 0)  # the default choose() encodes, then asks act()


def test_env_level_agent_plays_at_engine_level():
    class First(Agent):
        def act(self, observation, mask):
            assert observation["observation"].dtype == np.float32
            return int(np.flatnonzero(mask)[0])

    g = Game(4)
    decision = First().choose(g, g.acting_seat)
    assert decision in g.legal_decisions()


def test_registry():
    agent = make_agent("random", seed=3)
    assert isinstance(agent, RandomAgent) and agent.name == "random"
    with pytest.raises(ValueError, match="known agents: .*random"):
        make_agent("alphazero")
    with pytest.raises(ValueError, match="already registered"):
        register("random", RandomAgent)
    register("test_random_alias", RandomAgent)
    try:
        assert "test_random_alias" in known_agents()
        assert isinstance(make_agent("test_random_alias"), RandomAgent)
    finally:
        from agents import registry
        registry._REGISTRY.pop("test_random_alias")
