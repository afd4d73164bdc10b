"""``env(engine="native")``: the PettingZoo environment on the native engine, with the
Python engine's spaces, observations, masks, rewards and infos, step for step."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from singapore_env import env, native, raw_env
from singapore_env.env import IllegalActionError
from singapore_env.engine.game import Game

needs_native = pytest.mark.skipif(not native.available(),
                                  reason="the native engine is not built here")


def play_both(seed: int, **kwargs) -> int:
    """Play one game on both engines with the same random legal actions, comparing every
    agent's observation and mask, the rewards, terminations, truncations and infos after
    every step; return the steps played."""
    envs = [raw_env(engine=engine, **kwargs) for engine in ("python", "native")]
    for e in envs:
        e.reset(seed=seed)
    pick = random.Random(seed)
    steps = 0
    while True:
        python, ours = envs
        assert python.agent_selection == ours.agent_selection
        for agent in python.agents:
            want, got = python.observe(agent), ours.observe(agent)
            assert want["observation"].tobytes() == got["observation"].tobytes()
            assert np.array_equal(want["action_mask"], got["action_mask"])
        for field in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
            assert getattr(python, field) == getattr(ours, field)
        agent = python.agent_selection
        if python.terminations[agent] or python.truncations[agent]:
            return steps
        action = pick.choice(np.flatnonzero(python.observe(agent)["action_mask"]).tolist())
        for e in envs:
            e.step(action)
        steps += 1


@needs_native
@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_the_native_env_equals_the_python_env(ruleset):
    assert play_both(3, ruleset=ruleset, reward_mode="vp_margin") > 100


@needs_native
def test_truncation_is_the_same():
    assert play_both(5, max_steps=40) == 40


@needs_native
def test_the_native_env_passes_the_api_test():
    api_test(env(engine="native", seed=2), num_cycles=300)


@needs_native
def test_spaces_are_the_python_envs():
    python, ours = raw_env(), raw_env(engine="native")
    assert python.observation_space("sultan") == ours.observation_space("sultan")
    assert python.action_space("sultan") == ours.action_space("sultan")


@needs_native
def test_a_masked_out_action_is_refused_in_the_same_words():
    messages = []
    for engine in ("python", "native"):
        e = raw_env(engine=engine, seed=1)
        e.reset()
        illegal = int(np.flatnonzero(e.action_mask() == 0)[0])
        with pytest.raises(IllegalActionError) as info:
            e.step(illegal)
        messages.append(str(info.value))
        assert e.game.legal_decisions()  # unchanged, still playable
    assert messages[0] == messages[1]


@needs_native
def test_saves_cross_between_the_engines():
    python = raw_env(seed=4)
    python.reset()
    for _ in range(30):
        python.step(int(np.flatnonzero(python.action_mask())[-1]))
    ours = raw_env(engine="native")
    ours.load(python.save())
    assert ours.save() == python.save()
    assert isinstance(ours.game, native.NativeGame)
    ours.set_game(Game.from_json(python.save()))
    assert ours.observe(ours.agent_selection)["observation"].tobytes() == \
        python.observe(python.agent_selection)["observation"].tobytes()
    with pytest.raises(ValueError, match="engine=\"native\""):
        python.set_game(ours.game)
    assert ours.describe_action(int(np.flatnonzero(ours.action_mask())[0]))


def test_bad_engine_names_and_options_are_refused():
    with pytest.raises(ValueError, match="engine must be one of"):
        raw_env(engine="fast")
    if native.available():
        with pytest.raises(ValueError, match="keeps no text log"):
            raw_env(engine="native", keep_text_log=True)


def test_a_missing_module_says_why(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")
    with pytest.raises(native.NativeUnavailable, match=r"engine=\"native\"\) is not built "
                                                       r"here \(ImportError"):
        raw_env(engine="native")
    assert raw_env().engine == "python"
