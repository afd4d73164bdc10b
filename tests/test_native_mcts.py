"""The search's native twin (``native/mcts.hpp``) against the Python search (its oracle):
whole games on both engines with the same decisions, generator states and search counts
(``agents.heuristic.twin.compare_game``), with and without a value network, the same
evidence from the same position, and blind to hidden information on the native side
too; ``scripts/mcts_soak.py`` plays more games."""

import pytest

from agents.heuristic.twin import compare_game
from agents.mcts import MctsAgent
from agents.registry import make_agent
from arena.simulate import default_engine
from singapore_env import native
from singapore_env.engine.config import RULESETS, RulesConfig

from test_agents_mcts import hidden_twins

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

FAST = "mcts:iters=4:topk=2:horizon=1"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_whole_games_make_the_python_searchs_decisions(ruleset):
    players = (FAST, "heuristic", "mcts:iters=6:topk=3:horizon=2", FAST)
    decisions, asked, why = compare_game(7, RulesConfig.named(ruleset), players)
    assert not why, why
    assert decisions > 100 and asked["searched"] > 20


def test_a_value_network_guides_the_same_decisions():
    """With ``net=zero`` the cut rollouts are scored by the value head (numpy's on the
    Python engine, nets.hpp's on the native one, equal to float32 rounding)."""
    players = ("mcts:iters=4:topk=2:net=zero", "heuristic", "heuristic",
               "mcts:iters=4:topk=3:net=zero")
    decisions, asked, why = compare_game(3, None, players)
    assert not why, why
    assert decisions > 100 and asked["searched"] > 10


def _native_twins(ruleset: str):
    """A searched Python position, its native copy, a native copy of its hidden twin
    (``test_agents_mcts.hidden_twins``: only what the acting seat cannot see differs)
    and the acting seat."""
    g, h, seat, _ = hidden_twins(ruleset)
    return g, native.NativeGame.from_game(g), native.NativeGame.from_game(h), seat


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_native_search_never_reads_hidden_state(ruleset):
    """The same evidence (every world's values, to the last bit) and choice from the
    Python position, its native copy and a native copy with other hidden cards."""
    python, ours, hidden, seat = _native_twins(ruleset)
    choices, searches, states = [], [], []
    for game in (python, ours, hidden):
        agent = MctsAgent(seed=11, iters=9, topk=3, gap=float("inf"))
        choices.append(agent.choose(game, seat))
        searches.append(agent.last_search)
        states.append(agent.rng.bit_generator.state)
    assert choices[0] == choices[1] == choices[2]
    assert searches[0] == searches[1] == searches[2] and searches[0]["worlds"] == 3
    assert states[0] == states[1] == states[2]
    assert any(searches[0]["advantage"])


def test_the_net_guided_native_search_never_reads_hidden_state():
    _, ours, hidden, seat = _native_twins("standard")
    searches = []
    for game in (ours, hidden):
        agent = make_agent("mcts:iters=6:topk=3:gap=1000:net=zero", seed=11)
        agent.choose(game, seat)
        searches.append(agent.last_search)
    assert searches[0] == searches[1] and any(searches[0]["advantage"])


def test_a_seconds_budget_and_a_time_cap_stop_the_native_search():
    _, ours, _, seat = _native_twins("standard")
    timed = MctsAgent(seed=1, seconds=0.05, topk=3, gap=float("inf"))
    timed.choose(ours, seat)
    assert timed.last_search["worlds"] >= 1 and timed.stats.seconds < 2.0
    capped = MctsAgent(seed=1, iters=1_000_000, topk=3, gap=float("inf"))
    capped.time_cap = 0.05
    capped.choose(ours, seat)
    assert 1 <= capped.last_search["worlds"] < 1_000_000 // 3
    assert capped.stats.seconds < 2.0


def test_the_search_sits_at_native_tables():
    agents = [make_agent("mcts:iters=8"), make_agent("mcts:iters=8:net=zero"),
              make_agent("heuristic"), make_agent("random")]
    assert all(a.plays_native for a in agents[:2])
    assert default_engine(agents) == ("native", [])


def test_bad_native_search_arguments_are_clear_errors():
    _, ours, _, seat = _native_twins("standard")
    agent = MctsAgent(seed=1, iters=4)
    params = agent.players[0].native_params(native)
    with pytest.raises(ValueError, match="at least one candidate"):
        native.mcts_values(ours, seat, [], agent.rng, params, iters=4, seconds=0.5,
                           time_cap=None, horizon=0, vp_weight=0.5)
    with pytest.raises(ValueError, match="not legal in the sampled world"):
        native.mcts_values(ours, seat, [(0, 999)], agent.rng, params, iters=4, seconds=0.5,
                           time_cap=None, horizon=0, vp_weight=0.5)
