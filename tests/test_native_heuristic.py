"""The heuristic's native twin (``native/heuristic.hpp``) against the Python agent (its
oracle): whole games of every ruleset on both engines, every decision the same with the
generators left in the same state (``agents.heuristic.twin.compare_game``), at tables of
heuristics and mixed with random players, with other params; one generator stream
across engines; ``scripts/heuristic_soak.py`` plays thousands."""

import numpy as np
import pytest

from agents.heuristic import DEFAULT_PARAMS, HeuristicAgent
from agents.heuristic.twin import compare_game
from arena.simulate import play_game
from singapore_env import native
from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_decision_is_the_python_agents(ruleset):
    cfg, asked = RulesConfig.named(ruleset), {}
    for seed in range(16):
        players = ("heuristic", "random", "heuristic", "random") if seed % 3 == 2 \
            else ("heuristic",) * 4
        decisions, kinds, why = compare_game(seed, cfg, players, shadow=seed % 3 == 2)
        assert not why, why
        assert decisions > 100
        for kind, n in kinds.items():
            asked[kind] = asked.get(kind, 0) + n
    # the games ask the heuristic its turn questions and the fights' and ruleset's own
    assert {"place_leader", "leader_action", "actions", "influence", "contribute"} <= set(asked)
    own = {"standard": {"war_commit", "spoils"}, "simulation": {"declare_role", "storehouse_veto"},
           "first-edition": {"fe_intervene", "fe_commit", "fe_tokens", "fe_plunder"}}[ruleset]
    assert own <= set(asked), sorted(asked)


def test_other_params_and_a_spec_seed():
    cfg = RulesConfig.named("standard")
    spec = "heuristic:action_cost=0.5:pw_close_risk=false:war_margin=-2:battle_scale=2"
    for seed in (0, 1):
        decisions, kinds, why = compare_game(seed, cfg, (spec, "heuristic:seed=3", spec, "heuristic"))
        assert not why, why


def test_one_generator_across_engines():
    """An agent switching engines mid-game draws from one stream: the same decisions
    and generator state as an agent that only ever sees the Python game."""
    python, ours = Game(5), native.NativeGame(5)
    reference = [HeuristicAgent(seed=s) for s in range(4)]
    switching = [HeuristicAgent(seed=s) for s in range(4)]
    ties = 0
    while not python.is_over:
        seat = python.acting_seat
        before = reference[seat].rng.bit_generator.state
        d = reference[seat].choose(python, seat)
        ties += reference[seat].rng.bit_generator.state != before
        on = ours if python.s.decisions % 2 else python
        assert switching[seat].choose(on, seat) == d
        assert switching[seat].rng.bit_generator.state == reference[seat].rng.bit_generator.state
        python.step(d), ours.step(d)
    assert ties > 0  # the stream was drawn from on both engines


def test_changed_params_are_read_again():
    """An agent's params changed between decisions reach its native twin."""
    python, ours = Game(3), native.NativeGame(3)
    pairs = [(HeuristicAgent(seed=s), HeuristicAgent(seed=s)) for s in range(4)]
    while not python.is_over:
        if python.s.decisions == 40:
            for a, b in pairs:
                a.params["action_cost"] = b.params["action_cost"] = 3.0
                a.params["battle_scale"] = b.params["battle_scale"] = 0.2
        a, b = pairs[python.acting_seat]
        d = a.choose(python, python.acting_seat)
        assert b.choose(ours, python.acting_seat) == d, python.s.decisions
        python.step(d), ours.step(d)


def test_bad_params_generators_and_seats_are_refused():
    game, params = native.NativeGame(2), native.heuristic_params(DEFAULT_PARAMS)
    with pytest.raises(ValueError, match="name every tunable number"):
        native.heuristic_params({"action_cost": 1.0})
    with pytest.raises(TypeError, match="native.Random"):
        native.heuristic_choose(game, 0, params, np.random.default_rng(1))
    with pytest.raises(ValueError, match="seat must be 0..3"):
        native.heuristic_choose(game, 4, params, native.Random(1))
    with pytest.raises(TypeError, match="not a native game"):
        native.heuristic_choose(Game(2), 0, params, native.Random(1))
    agent = HeuristicAgent()
    agent.rng = np.random.Generator(np.random.MT19937(1))
    with pytest.raises(ValueError, match="PCG64"):
        agent.choose(game, game.acting_seat)


def test_a_pickled_agent_keeps_its_stream():
    import pickle

    game, agent = native.NativeGame(4), HeuristicAgent(seed=9)
    for _ in range(30):
        game.step(agent.choose(game, game.acting_seat))
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.rng.bit_generator.state == agent.rng.bit_generator.state
    assert copy.choose(game, game.acting_seat) == agent.choose(game, game.acting_seat)


def test_a_native_table_of_heuristics_plays_the_python_game():
    agents = lambda: [HeuristicAgent() for _ in range(4)]  # noqa: E731
    python = play_game(11, agents())
    ours = play_game(11, agents(), engine="native")
    assert (ours.final_scores, ours.decisions) == (python.final_scores, python.decisions)
