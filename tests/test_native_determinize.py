"""The native determinization (``native/determinize.hpp``) against the Python one (its
oracle): from generators in the same state, the same world, save for save (and the same
legal decisions), and the generators left in the same state, on random positions of every
ruleset, pending hidden cards and choices among them (``compare_determinizations``), and
on the positions the Python tests build by hand. tests/test_determinize.py runs the
hidden-information tests on both engines; ``scripts/determinize_soak.py`` compares
thousands of positions."""

import numpy as np
import pytest

from agents.determinize import compare_determinizations, determinize
from singapore_env import native
from singapore_env.engine import Game
from singapore_env.engine.config import RulesConfig
from test_determinize import andromache_spent, hidden_war_commit, pending_keep_battle

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

#: Seeds whose random games hide, between them, every kind of card or choice the ruleset
#: can hide (:func:`agents.determinize.hidden_kinds`), and those kinds.
SEEDS = {"standard": (3, 4), "simulation": (6, 0), "first-edition": (0, 6)}
HIDDEN = {
    "standard": {"keep_battle", "war_commits", "conflict_contributions"},
    "simulation": {"keep_battle", "war_commits", "conflict_contributions", "counter_boosts",
                   "folk_heroes", "roles"},
    "first-edition": {"keep_battle", "first_edition_commits", "conflict_contributions",
                      "counter_boosts"},
}


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_native_worlds_equal_the_python_worlds(ruleset):
    compared: dict[str, int] = {}
    for seed in SEEDS[ruleset]:
        counts, differences = compare_determinizations(seed, RulesConfig.named(ruleset), every=20)
        assert not differences
        for kind, n in counts.items():
            compared[kind] = compared.get(kind, 0) + n
    assert compared["all"] > 300
    assert HIDDEN[ruleset] <= set(compared), f"not compared: {HIDDEN[ruleset] - set(compared)}"


@pytest.mark.parametrize("position", [pending_keep_battle, hidden_war_commit, andromache_spent])
def test_native_worlds_equal_the_python_worlds_of_built_positions(position):
    ours = native.NativeGame.from_json(position().to_json())
    python = Game.from_json(ours.to_json())  # (without the text log, as the native game)
    for seat in range(4):
        for i in range(6):
            gens = [np.random.default_rng(i) for _ in range(2)]
            world, twin = determinize(python, seat, gens[0]), determinize(ours, seat, gens[1])
            assert native.differences(world, twin) == []
            assert gens[0].bit_generator.state == gens[1].bit_generator.state


def test_the_game_is_left_as_it_was_and_bad_arguments_are_refused():
    game = native.NativeGame(2, RulesConfig.named("simulation"))
    for decision in range(60):
        game.step(game.legal_decisions()[decision % len(game.legal_decisions())])
    before = game.to_json()
    worlds = {determinize(game, 1, np.random.default_rng(i)).to_json() for i in range(5)}
    assert game.to_json() == before and len(worlds) == 5
    rng = np.random.default_rng(0)
    state = rng.bit_generator.state
    with pytest.raises(ValueError, match="seat must be 0..3, got 4"):
        determinize(game, 4, rng)
    other = np.random.Generator(np.random.MT19937(0))
    with pytest.raises(ValueError, match="draws from a PCG64 generator, not 'MT19937'"):
        determinize(game, 0, other)
    assert rng.bit_generator.state == state
    with pytest.raises(TypeError, match="not a native game"):
        native.determinize(Game(0), 0, rng)
