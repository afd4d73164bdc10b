"""``VectorEnv(engine="native")``: the slots stepped in C++ write, row for row, what the
Python slots write for the same seeds and actions, across auto-resets, on one thread or
split among threads (``workers``)."""

import numpy as np
import pytest

from singapore_env import native
from singapore_env.vector import VectorEnv, game_seed

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

FIELDS = ("obs", "mask", "seat", "rewards", "done", "final_vp", "game_seeds")


def test_slot_seeds_are_the_seed_sequences():
    for seed, slot, k in ((0, 0, 0), (1, 2, 3), (2**40 + 5, 7, 2**33), (2**64 - 1, 0, 1),
                          (2**64, 3, 0), (2**200 + 9, 1, 4)):
        assert native.require().slot_game_seed(native.seed_words(seed), slot, k) \
            == game_seed(seed, slot, k)


def assert_same_rows(ruleset: str, steps: int, workers: int = 0) -> int:
    """Step both engines' vector envs with the same random legal actions; return the
    games finished."""
    envs = [VectorEnv(3, ruleset, seed=11, engine=engine, workers=w)
            for engine, w in (("python", 0), ("native", workers))]
    rng = np.random.default_rng(0)
    finished = 0
    try:
        for e in envs:
            e.reset()
        for _ in range(steps):
            for field in FIELDS:
                assert getattr(envs[0], field).tobytes() == getattr(envs[1], field).tobytes(), field
            mask = envs[0].mask
            actions = (rng.random(mask.shape) * mask).argmax(axis=1)
            for e in envs:
                e.step(actions)
            finished += int(envs[0].done.sum())
    finally:
        for e in envs:
            e.close()
    return finished


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_rows_equal_the_python_slots(ruleset):
    assert assert_same_rows(ruleset, 400) >= 1


def test_workers_write_the_same_rows():
    assert_same_rows("standard", 60, workers=2)


def test_rows_do_not_depend_on_the_threads():
    """workers=0, 1 and 3 (threads of the C++ step, no processes): the same rows, over
    7 slots (blocks of 2 and 3) and games that end."""
    envs = [VectorEnv(7, "simulation", seed=5, engine="native", workers=w) for w in (0, 1, 3)]
    assert [e._slots._batch.threads for e in envs] == [1, 1, 3]
    assert not any(e._procs for e in envs)
    rng = np.random.default_rng(1)
    rows = [e.reset() for e in envs]
    finished = 0
    for _ in range(500):
        for field in FIELDS:
            assert len({getattr(e, field).tobytes() for e in envs}) == 1, field
        actions = (rng.random(envs[0].mask.shape) * envs[0].mask).argmax(axis=1)
        rows = [e.step(actions) for e in envs]
        finished += int(rows[0][4].sum())
    assert finished >= 3


def test_an_illegal_action_moves_no_slot():
    venv = VectorEnv(2, seed=3, engine="native")
    obs, mask, _ = venv.reset()
    before = obs.copy()
    legal = int(np.flatnonzero(mask[0])[0])
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match=f"slot 1: action {illegal} is not legal now") as native_error:
        venv.step(np.array([legal, illegal]))
    assert np.array_equal(venv.obs, before)
    python = VectorEnv(2, seed=3)
    python.reset()
    other = int(np.flatnonzero(mask[1])[0])
    for action in (int(np.flatnonzero(mask[0] == 0)[0]), -1, 10**9):
        # the Python slots' words (the legal list, the refusal); slot 0 (the Python slots
        # step in order: none has moved)
        with pytest.raises(ValueError) as python_error:
            python.step(np.array([action, other]))
        with pytest.raises(ValueError) as native_error:
            venv.step(np.array([action, other]))
        assert str(native_error.value) == str(python_error.value)
        assert "(legal: [" in str(native_error.value)


def test_a_missing_module_says_why(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")
    with pytest.raises(native.NativeUnavailable, match="not built here"):
        VectorEnv(2, engine="native")
