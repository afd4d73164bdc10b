"""Strict inputs: only true integers make a decision or an action; the state is untouched."""

import numpy as np
import pytest

from singapore_env.engine.decisions import Decision
from singapore_env.engine import Game, IllegalDecision
from singapore_env.env import IllegalActionError, raw_env


@pytest.mark.parametrize("bad", [
    (float("inf"), 0), {2: 0}, ("2", "0"), (2.9, 0.5), "20", b"\x02\x00", [2, 0, 99],
    (True, 0), (2, np.float32(0)), None, 2,
])
def test_engine_refuses_anything_but_a_pair_of_ints(bad):
    game = Game(seed=3)
    before = game.to_json()
    with pytest.raises(IllegalDecision, match="is not a decision: give Decision") as exc:
        game.step(bad)
    assert "legal: " in str(exc.value)
    assert game.to_json() == before


def test_engine_takes_decisions_tuples_lists_and_numpy_ints():
    for make in (lambda d: d, tuple, list, lambda d: (np.int64(d[0]), np.int32(d[1]))):
        game = Game(seed=3)
        d = game.legal_decisions()[0]
        game.step(make(d))
        assert game.history == [Decision(*d)]


@pytest.mark.parametrize("bad", [2.7, "2", np.float32(2), True, np.bool_(True), None, [2]])
def test_raw_env_refuses_anything_but_an_int_action(bad):
    e = raw_env()
    e.reset(seed=1)
    before = e.game.to_json()
    with pytest.raises(IllegalActionError, match="is not an action index"):
        e.step(bad)
    assert e.game.to_json() == before


def test_raw_env_takes_numpy_int_actions():
    e = raw_env()
    e.reset(seed=1)
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    e.step(np.int64(legal[0]))
    assert e.game.s.decisions == 1
