"""``env.state()`` and ``state_space``: the whole game for a centralized critic (every
seat's view, hidden cards included), PettingZoo's state test on both engines."""

import numpy as np
import pytest
from pettingzoo.test.state_test import test_state as pettingzoo_state
from pettingzoo.test.state_test import test_state_space as pettingzoo_state_space

from singapore_env import env, raw_env
from singapore_env.env import AGENTS
from singapore_env import native
from singapore_env.encoding import encoder_for

ENGINES = ["python"] + (["native"] if native.available() else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_pettingzoos_state_test_passes(engine):
    e = env(illegal_action="penalize", engine=engine)
    pettingzoo_state_space(e)
    pettingzoo_state(e, num_cycles=10)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_state_is_every_seats_view_in_seat_order_through_a_game(engine):
    e = raw_env(engine=engine)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    d = e.observation_space(AGENTS[0])["observation"].shape[0]
    assert e.state_space.shape == (4 * d,)
    own, hidden_seen = own_hand(e), False
    for step, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        state = e.state()
        assert e.state_space.contains(state)
        if step % 25 == 0 or terminated:
            for seat, name in enumerate(AGENTS):
                np.testing.assert_array_equal(state[seat * d:(seat + 1) * d],
                                              e.observe(name)["observation"])
        # Another seat's hand is in the state, not in the acting seat's observation.
        other = (AGENTS.index(agent) + 1) % 4
        hand = state[other * d + own.start:other * d + own.stop]
        hidden_seen |= hand.any() and not np.array_equal(hand, obs["observation"][own])
        if terminated or truncated:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert hidden_seen


def own_hand(e) -> slice:
    """Where the observer's own hand lies in an observation."""
    layout = encoder_for(e.content, e.cfg)  # the native encoder has the same layout
    start = layout.offsets["own_hand"]
    shape = next(shape for name, shape, *_ in layout.slices if name == "own_hand")
    return slice(start, start + int(np.prod(shape)))
