"""The native random stream against numpy: the same numbers and the same generator
state, for the draws the engine makes (dice, d4, first player, shuffles)."""

import numpy as np
import pytest

from singapore_env import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

SEEDS = [0, 1, 7, 2**32 + 5, 2**63 + 11, 2**64 - 1, 123456789]


def _numpy(seed):
    return np.random.Generator(np.random.PCG64(seed))


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_gives_numpys_state(seed):
    assert native.Random(seed).state == _numpy(seed).bit_generator.state


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_draws_match_numpy(seed):
    ours, theirs = native.Random(seed), _numpy(seed)
    # The engine's draws, interleaved as a game makes them: first player, shuffles of
    # decks of many sizes, d6 and d4 dice; then wide and 64-bit ranges.
    for n in (4, 0, 1, 2, 3, 40, 17, 256):
        assert ours.integers(4) == int(theirs.integers(4))
        assert ours.permutation(n) == theirs.permutation(n).tolist()
        assert [ours.integers(0, 6) for _ in range(7)] == \
            [int(theirs.integers(0, 6)) for _ in range(7)]
        assert ours.integers(1, 5) == int(theirs.integers(1, 5))
        assert ours.state == theirs.bit_generator.state
    for low, high in ((-3, 2**40), (0, 2**32), (0, 2**32 + 1), (5, 2**62 + 3), (-2**63, 2**63 - 1)):
        assert [ours.integers(low, high) for _ in range(5)] == \
            [int(theirs.integers(low, high)) for _ in range(5)]
    assert ours.state == theirs.bit_generator.state


def test_rejection_paths_match_numpy():
    """Ranges just above a power of two reject about half the draws: every loop of
    Lemire's method and of the shuffle's masked draw is exercised."""
    ours, theirs = native.Random(99), _numpy(99)
    for high in (2**31 + 1, 3 * 2**30, 2**63 + 1 - 2**62):
        assert [ours.integers(0, high) for _ in range(50)] == \
            [int(theirs.integers(0, high)) for _ in range(50)]
    assert ours.permutation(2**16 + 1) == theirs.permutation(2**16 + 1).tolist()
    assert ours.state == theirs.bit_generator.state


def test_from_state_continues_numpys_stream():
    theirs = _numpy(5)
    theirs.integers(0, 6)  # leaves half a 64-bit draw buffered (has_uint32 = 1)
    ours = native.Random.from_state(theirs.bit_generator.state)
    assert ours.state == theirs.bit_generator.state
    assert [ours.integers(0, 6) for _ in range(9)] == [int(theirs.integers(0, 6)) for _ in range(9)]


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, True, "3"])
def test_bad_seed_is_refused(bad):
    with pytest.raises(ValueError, match="seed must be an int"):
        native.Random(bad)


def test_empty_range_is_refused():
    with pytest.raises(ValueError, match="low >= high"):
        native.Random(1).integers(3, 3)
