"""The native game's invariants (``native/invariants.hpp``: every card in exactly one
place, counts and scores in bounds, a valid acting seat and question) after every step
of random games of each ruleset; the checker itself finds a broken state. The debug
build checks them inside every step (docs/native.md)."""

import random

import pytest

from singapore_env import native
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.game import Game

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_invariants_hold_after_every_step(ruleset):
    cfg, steps = RulesConfig.named(ruleset), 0
    for seed in range(6):
        game, pick = native.NativeGame(seed, cfg), random.Random(seed)
        assert game.broken_invariants() == ""
        while not game.is_over:
            game.step(pick.choice(game.legal_decisions()))
            steps += 1
            assert game.broken_invariants() == "", (seed, game.decisions)
    assert steps > 1000


def broken(edit) -> str:
    """The broken invariant of a game whose saved state ``edit`` changed (loaded past
    the Python engine's save validation)."""
    python = native.NativeGame(4)
    for _ in range(30):
        python.step(python.legal_decisions()[0])
    state = Game.from_json(python.to_json()).s.to_dict()
    edit(state)
    game = native._new(native.NativeGame)
    game._meta = python._meta
    try:
        game._game = native.require().load(
            native._content(python.c), native._config(python.cfg), state,
            native._halves_of(python.to_dict()["rng"]), [])
    except RuntimeError as exc:  # the debug build checks them as it loads
        assert native.require().DEBUG_BUILD
        return str(exc)
    return game.broken_invariants()


def test_the_checker_finds_a_broken_state():
    assert broken(lambda s: None) == ""
    assert "a card twice" in broken(lambda s: s["market_deck"].append(s["market_deck"][0]))
    assert "Battle card in 0 places" in broken(lambda s: s["battle_deck"][0].pop())
    assert "negative wealth" in broken(lambda s: s["wealth"].__setitem__(2, -1))
    assert "VP track" in broken(lambda s: s["vp"].__setitem__(1, 3))

