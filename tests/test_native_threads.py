"""The native engine shared by Python threads (docs/native.md, "Threads"): two threads
stepping one ``VectorEnv(engine="native")`` neither crash nor hang and play what a
serial run of the same calls plays; a thread writing ``actions`` during ``step`` cannot
reach past the action table; two threads on one ``NativeGame`` do not crash it."""

import threading

import numpy as np
import pytest

from singapore_env import native
from singapore_env.engine.game import IllegalDecision
from singapore_env.vector import VectorEnv

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

FIELDS = ("obs", "mask", "seat", "rewards", "done", "final_vp", "game_seeds")


def run_threads(*targets, timeout: float = 60.0) -> None:
    """Run each target on its own thread; fail if one is still running after ``timeout``
    seconds (a hang) or raised."""
    errors = []

    def guarded(target):
        try:
            target()
        except BaseException as exc:  # reported to the test
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread hangs"
    assert not errors, errors


def test_two_threads_stepping_one_vector_env_play_a_serial_run():
    """Each thread steps with actions read from the mask it saw; a step whose mask went
    stale in between is refused (ValueError, nothing moved). The steps applied, recorded
    in the order the env ran them, replayed on one thread give the same rows."""
    venv = VectorEnv(6, "simulation", seed=4, engine="native", workers=2)
    venv.reset()
    applied, refused = [], []
    slots_step = venv._slots.step

    def recording_step():  # runs under the env's lock, in the order the steps happen
        actions = venv.actions.copy()
        slots_step()
        applied.append(actions)
    venv._slots.step = recording_step

    def player(seed: int):
        def play():
            rng = np.random.default_rng(seed)
            for _ in range(150):
                mask = venv.mask.copy()
                try:
                    venv.step((rng.random(mask.shape) * mask).argmax(axis=1))
                except ValueError as exc:
                    assert "is not legal now (legal: [" in str(exc)
                    refused.append(exc)
        return play

    run_threads(player(1), player(2))
    assert len(applied) + len(refused) == 300 and len(applied) > 100
    serial = VectorEnv(6, "simulation", seed=4, engine="native", workers=2)
    serial.reset()
    for actions in applied:
        serial.step(actions)
    for field in FIELDS:
        assert getattr(serial, field).tobytes() == getattr(venv, field).tobytes(), field


def test_a_thread_writing_actions_during_step_cannot_reach_past_the_table():
    """One thread writes out-of-range actions into ``venv.actions`` as fast as it can
    while another steps legal ones: each step applies the actions it checked (the legal
    ones, or a refusal naming a written one), never an unchecked index."""
    venv = VectorEnv(8, seed=2, engine="native", workers=2)
    venv.reset()
    stop = threading.Event()
    outcomes = {"stepped": 0, "refused": 0}

    def writer():
        junk = np.array([10**9, -1, 2**62, -(2**40)] * 2, dtype=np.int64)
        while not stop.is_set():
            venv.actions[:] = junk
            venv.actions[:] = junk[::-1]

    def stepper():
        rng = np.random.default_rng(0)
        try:
            for _ in range(400):
                mask = venv.mask
                actions = (rng.random(mask.shape) * mask).argmax(axis=1)
                try:
                    venv.step(actions)
                    outcomes["stepped"] += 1
                except ValueError as exc:
                    assert "is not legal now" in str(exc) and "not an action index" in str(exc)
                    outcomes["refused"] += 1
                    assert venv.mask.sum(axis=1).min() >= 1  # the slots still show a question
        finally:
            stop.set()

    run_threads(writer, stepper)
    assert outcomes["stepped"] + outcomes["refused"] == 400 and outcomes["stepped"] > 0


def test_the_batch_itself_serializes_its_callers():
    """Two threads calling the C++ batch's step directly (no VectorEnv lock) and one
    copying a slot's game: its own lock keeps the games whole."""
    venv = VectorEnv(4, seed=9, engine="native")
    venv.reset()
    slots = venv._slots

    def stepper():
        for _ in range(200):
            venv.actions[:] = venv.mask.argmax(axis=1)
            try:
                slots.step()
            except ValueError:
                pass  # (the other thread moved the slots since this one read the mask)

    def copier():
        for _ in range(300):
            game = native._wrap(slots._batch.game(1), slots.cfg, slots.content, 0)
            assert game.broken_invariants() == ""

    run_threads(stepper, stepper, copier)


def test_two_threads_on_one_native_game_do_not_crash_it():
    game = native.NativeGame(seed=5)

    def play(seed: int):
        def run():
            rng = np.random.default_rng(seed)
            for _ in range(300):
                if game.is_over:
                    return
                legal = game.legal_decisions()
                if not legal:
                    return  # (the other thread ended the game since is_over was read)
                try:
                    game.step(legal[int(rng.integers(len(legal)))])
                except IllegalDecision:
                    pass  # (the other thread stepped in between)
                assert game.broken_invariants() == ""
        return run

    run_threads(play(1), play(2))
    assert native.NativeGame.from_json(game.to_json()).to_json() == game.to_json()
