"""The save fuzzer through the native loader: the mutated saves of ``test_save_fuzz``
fed to ``NativeGame.from_json`` end as they end in the Python loader: the same
SaveFormatError in the same words, or a game with the same state, generator, decision
log and legal decisions, which plays on as the Python game does. One exception: a save
the Python engine takes but the native one cannot hold (a logged decision past 32-bit
ints, a list past the native state's room) is a SaveFormatError that says so."""

import json
import random

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from singapore_env import native
from singapore_env.engine import Game, SaveFormatError
from test_save_fuzz import PATHS, SAVES, WRONG, _mutate

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


def assert_same_outcome(text: str, seed: int, steps: int) -> str:
    """Load ``text`` on both engines and compare; play ``steps`` random decisions on.
    Returns "refused", "accepted" or "past the native engine"."""
    try:
        python = Game.from_json(text)
    except SaveFormatError as theirs:
        with pytest.raises(SaveFormatError) as mine:
            native.NativeGame.from_json(text)
        assert str(mine.value) == str(theirs)
        return "refused"
    try:
        ours = native.NativeGame.from_json(text)
    except SaveFormatError as exc:
        assert str(exc).startswith("the native engine cannot hold this save: ")
        return "past the native engine"
    saved, mine = python.to_dict(), ours.to_dict()
    for key in ("seed", "history", "rng", "content"):
        assert saved[key] == mine[key], key
    saved["state"]["log_text"] = []
    assert json.dumps(saved["state"], sort_keys=True) == json.dumps(mine["state"], sort_keys=True)
    pick = random.Random(seed)
    for _ in range(steps):
        assert python.legal_decisions() == ours.legal_decisions()
        if python.is_over:
            assert ours.is_over and ours.final_scores == python.final_scores
            break
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)
    return "accepted"


def test_the_unmutated_saves_load_alike():
    assert {assert_same_outcome(json.dumps(save), i, 40) for i, save in enumerate(SAVES)} \
        == {"accepted"}


def test_a_save_past_the_native_engine_is_refused_saying_so():
    data = json.loads(json.dumps(SAVES[-1]))
    data["history"][-1][1] = 2**31
    text = json.dumps(data)
    Game.from_json(text)  # the Python engine takes it
    with pytest.raises(SaveFormatError, match=r"cannot hold this save: history\[\d+\] .* 32-bit"):
        native.NativeGame.from_json(text)


MUTATION = dict(which=st.integers(0, len(SAVES) - 1), where=st.integers(0, 10**6),
                how=st.sampled_from(["set", "set", "set", "drop", "duplicate", "nest", "shift"]),
                value=st.one_of(st.sampled_from(WRONG), st.integers(-2, 12)))
SETTINGS = dict(deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def mutated(which: int, where: int, how: str, value) -> str:
    data = json.loads(json.dumps(SAVES[which]))
    return _mutate(data, PATHS[which][where % len(PATHS[which])], how, value)


@settings(max_examples=100, **SETTINGS)
@given(**MUTATION)
def test_mutated_saves_end_alike(which, where, how, value):
    event(assert_same_outcome(mutated(which, where, how, value), where, 30))


@pytest.mark.slow
@settings(max_examples=2000, **SETTINGS)
@given(**MUTATION)
def test_many_mutated_saves_end_alike_to_the_end_of_the_game(which, where, how, value):
    event(assert_same_outcome(mutated(which, where, how, value), where, 20000))
