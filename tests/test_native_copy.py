"""Thinking on a native copy of a Python game (``agents.native_copy``): the copy is the
position itself, and an agent that looks ahead decides there what it decides on the
Python game, from its seat's view alone."""

import numpy as np
import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.lookahead import LookaheadPolicies
from agents.native_copy import NativeCopy, on_native_copy
from singapore_env import native
from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import SEAT_FACTION

needs_native = pytest.mark.skipif(not native.available(),
                                  reason="the native engine is not built here")


@pytest.fixture(scope="module")
def zero() -> LookaheadPolicies:
    return make_agent("learned:zero")


def _positions(seed: int, ruleset: str = "standard", every: int = 7) -> list[Game]:
    """Every ``every``-th position of a game of heuristic play (no text log, so its save
    is the native copy's)."""
    game = Game(seed, RulesConfig.named(ruleset), keep_text_log=False)
    agent = HeuristicAgent(seed=seed)
    out = []
    while not game.is_over:
        if len(game.history) % every == 0:
            out.append(game.clone())
        game.step(agent.choose(game, game.acting_seat))
    return out


@needs_native
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_copy_is_the_position_and_plays_on_the_same(ruleset):
    rng = np.random.default_rng(3)
    for game in _positions(5, ruleset, every=29):
        copy = native.NativeGame.from_game(game)
        assert native.differences(game, copy) == []
        for _ in range(20):  # the same random stream from here on
            if game.is_over:
                break
            legal = game.legal_decisions()
            decision = legal[rng.integers(len(legal))]
            game.step(decision)
            copy.step(decision)
        assert native.differences(game, copy) == []


@needs_native
def test_learned_zero_decides_the_same_on_a_native_copy(zero):
    positions = [g for seed in (2, 4) for g in _positions(seed, every=3) if len(
        zero.candidates(g, g.acting_seat, g.legal_decisions())) >= 2][:6]  # it looks ahead
    positions += _positions(3, every=53)  # and questions the student answers alone
    copied, looked = NativeCopy(make_agent("learned:zero")), 0
    for game in positions:
        seat = game.acting_seat
        zero.reset(17)
        copied.reset(17)
        zero.last_scores, copied.last_scores = {}, {}
        assert copied.choose(game, seat) == zero.choose(game, seat)
        assert copied.rng.bit_generator.state == zero.rng.bit_generator.state
        assert copied.last_scores.keys() == zero.last_scores.keys()
        looked += len(zero.last_scores) >= 2
        assert list(copied.last_scores.values()) == pytest.approx(
            list(zero.last_scores.values()), abs=1e-4)  # (forward passes in C++)
    assert looked >= 6 and len(positions) > 10


@needs_native
def test_the_copy_reads_no_more_than_the_seat_sees(zero):
    """Two Python games that differ only in what the acting seat cannot see (another
    seat's hand swapped with its Battle deck, the Market and Population decks reversed):
    the same decision on their native copies as on the first one itself."""
    game = next(g for g in _positions(2, every=3) if g.s.round >= 2
                and len(zero.candidates(g, g.acting_seat, g.legal_decisions())) >= 2
                and any(g.s.hands[p] for p in range(4) if p != g.acting_seat))
    seat = game.acting_seat
    other = next(p for p in range(4) if p != seat and game.s.hands[p])
    hidden = game.clone()
    hand, deck = hidden.s.hands[other], hidden.s.battle_deck[SEAT_FACTION[other]]
    hand[0], deck[-1] = deck[-1], hand[0]
    hidden.s.market_deck.reverse()
    hidden.s.population_deck.reverse()
    assert native.differences(game, native.NativeGame.from_game(hidden)) != []
    zero.reset(5)
    expected = zero.choose(game, seat)
    copied = NativeCopy(make_agent("learned:zero"))
    for position in (game, hidden):
        copied.reset(5)
        assert copied.choose(position, seat) == expected


@needs_native
def test_only_the_agents_that_look_ahead_are_wrapped_and_the_wrapper_is_transparent():
    wrapped = on_native_copy(make_agent("learned:zero", 3))
    assert isinstance(wrapped, NativeCopy) and wrapped.name == "learned:zero"
    assert wrapped.plays_native and wrapped.looks_ahead
    for spec in ("random", "learned:zero-policy", "heuristic"):
        agent = make_agent(spec)
        assert on_native_copy(agent) is agent, spec  # no faster there
    assert isinstance(on_native_copy(make_agent("mcts:iters=2")), NativeCopy)
    wrapped.last_scores = {0: 1.0}  # an attribute of the agent: set on it
    assert wrapped.agent.last_scores == {0: 1.0}
    assert "last_scores" not in vars(wrapped)
    game = native.NativeGame(4)  # a native game as it is
    assert wrapped.choose(game, game.acting_seat) in game.legal_decisions()


@needs_native
def test_the_agent_is_asked_on_a_native_copy_of_the_position():
    from agents.base import Agent

    class Seen(Agent):
        looks_ahead = plays_native = True

        def choose(self, game, seat):
            self.game = game
            return game.legal_decisions()[-1]

    game = _positions(6, every=31)[3]
    spy = on_native_copy(Seen())
    assert spy.choose(game, game.acting_seat) == game.legal_decisions()[-1]
    assert type(spy.game) is native.NativeGame and native.differences(game, spy.game) == []
    first_edition = Game(1, RulesConfig.named("first-edition"))
    spy.choose(first_edition, first_edition.acting_seat)
    assert type(spy.game) is native.NativeGame


def test_without_the_module_nothing_is_wrapped(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    agent = make_agent("learned:zero")
    assert on_native_copy(agent) is agent


@needs_native
def test_the_web_app_s_and_play_s_agents_that_look_ahead_think_on_copies():
    from singapore_app.play import make_opponents
    from singapore_app.web.table import PERSON, Table

    table = Table("t", Game(1), [PERSON, "learned:zero", "random", "learned:zero-policy"])
    assert isinstance(table.agent(1), NativeCopy)
    assert not isinstance(table.agent(2), NativeCopy)
    assert not isinstance(table.agent(3), NativeCopy)
    agents = make_opponents("learned:zero,random,heuristic", 0, 1)
    assert [type(a).__name__ for a in agents[1:]] == ["NativeCopy", "RandomAgent",
                                                       "HeuristicAgent"]
