"""env()'s fast wrapper chain behaves as PettingZoo's stock chain (same checks, errors, play)."""

import numpy as np
import pytest
from pettingzoo.utils import wrappers

from singapore_env.env import IllegalActionError, env, raw_env


def stock_env(**kwargs):
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))


def test_the_chain_is_made_of_the_stock_wrappers():
    e = env()
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(e.unwrapped, raw_env)


@pytest.mark.parametrize("name", ["agent_selection", "agents", "terminations", "truncations",
                                  "rewards", "infos", "num_agents"])
def test_attributes_before_reset_fail_as_in_the_stock_chain(name):
    for e in (env(), stock_env()):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(e, name)


@pytest.mark.parametrize("action", [1040, -1, np.int64(1040), 3.0, "1", None])
def test_actions_outside_the_space_fail_as_in_the_stock_chain(action):
    for e in (env(), stock_env()):
        e.reset(seed=4)
        before = e.unwrapped.save()
        with pytest.raises(AssertionError, match="action is not in action space"):
            e.step(action)
        assert e.unwrapped.save() == before


@pytest.mark.parametrize("action", [10**30, -10**30, 2**63, np.int64(2**62),
                                    np.uint64(2**64 - 1), -1, 1040])
@pytest.mark.parametrize("make", [env, raw_env])
@pytest.mark.parametrize("mode", ["raise", "penalize"])
def test_any_integer_outside_the_space_is_the_envs_illegal_action_error(action, make, mode):
    """However large (the stock check overflows on 10**30), never an OverflowError: the
    env's illegal-action error (raw env: its mask rule, penalized in penalize mode), and in
    the standard chain also the stock AssertionError, always raised, nothing changed."""
    e = make(illegal_action=mode)
    e.reset(seed=4)
    before = e.unwrapped.save()
    if make is raw_env and mode == "penalize":
        e.step(action)
        assert e.rewards[e.agent_selection] == -1.0 and all(e.terminations.values())
        return
    with pytest.raises(IllegalActionError, match=r"legal actions.*\[2, 3, 4, 5\]") as caught:
        e.step(action)
    assert isinstance(caught.value, AssertionError) == (make is env)
    assert e.unwrapped.save() == before


def test_a_game_plays_the_same_through_both_chains():
    fast, stock = env(), stock_env()
    for e in (fast, stock):
        e.reset(seed=11)
    rng = np.random.default_rng(0)
    for agent in fast.agent_iter():
        got, want = fast.last(), stock.last()
        assert agent == stock.agent_selection
        assert np.array_equal(got[0]["observation"], want[0]["observation"])
        assert np.array_equal(got[0]["action_mask"], want[0]["action_mask"])
        assert got[1:] == want[1:]
        assert fast.rewards == stock.rewards
        if got[2] or got[3]:
            action = None
        else:
            legal = np.flatnonzero(got[0]["action_mask"])
            action = int(legal[rng.integers(legal.size)])
            if rng.random() < 0.2:
                action = np.int64(action)  # the stock path of the fast chain
        fast.step(action)
        stock.step(action)
    assert not stock.agents and fast.unwrapped.save() == stock.unwrapped.save()


def test_step_after_the_end_warns_as_in_the_stock_chain(caplog):
    for e in (env(), stock_env()):
        caplog.clear()
        e.reset(seed=2)
        e.unwrapped.agents = []
        e.step(0)
        assert "step() called after all agents are terminated" in caplog.text


def test_calls_before_reset_fail_as_in_the_stock_chain():
    for e in (env(), stock_env()):
        with pytest.raises(AssertionError, match="reset"):
            e.step(0)
        with pytest.raises(AssertionError, match="reset"):
            e.observe("resident")
