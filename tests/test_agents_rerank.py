"""The rerank agent: the heuristic's close candidates, chosen by a network without
search; the heuristic where the network agrees; blind to hidden information."""

import re

import numpy as np
import pytest
from click.testing import CliRunner

from agents.heuristic import HeuristicAgent
from agents.learned import POLICY_DIR, NumpyPolicy
from agents.mcts import SEARCHED, heuristic_candidates
from agents.pointer_actor import PointerActor
from agents.registry import make_agent
from arena.simulate import play_game
from singapore_env.candidates import FEATURES
from singapore_env.engine import Game
from singapore_env.engine.content import SEAT_FACTION
from singapore_app.cli import main
from test_env_leak import _hide

PRIOR = FEATURES.index("prior_score")


def _tilted(tmp_path, weight: float):
    """The shipped British network's layout with logits ``weight`` x the heuristic's
    score of each answer (its prior column) and nothing else (0: no preference at all)."""
    actor = NumpyPolicy.load(POLICY_DIR / "zero" / "british.npz")
    arrays = {k: np.zeros_like(v) if k in ("query_w", "query_b", "action_bias",
                                           "feature_logit") else v
              for k, v in actor.arrays.items()}
    arrays["feature_logit"][PRIOR] = weight
    path = tmp_path / f"tilted{weight:+g}.npz"
    PointerActor(arrays, actor.activation, {**actor.meta, "candidate_prior": "heuristic"}).save(path)
    return path


def _game(agents, seed=3):
    return play_game(seed, agents, agent_seeds=[10, 11, 12, 13], keep_game=True).game.history


def test_a_network_without_preference_keeps_the_prior_the_heuristic_s_game(tmp_path):
    """Equal logits for every answer: the prior at every question, so the game is the
    one four heuristics play with the same seeds."""
    spec = f"rerank:net={_tilted(tmp_path, 0.0)}"
    rerank = [make_agent(spec), make_agent(spec)]
    assert _game(rerank + [HeuristicAgent(), HeuristicAgent()]) == _game(
        [HeuristicAgent() for _ in range(4)])
    assert rerank[0].overruled == rerank[1].overruled == 0


def test_the_choice_is_one_of_the_heuristic_s_candidates(tmp_path):
    """A network preferring the heuristic's lowest-scored answers overrules it, but only
    with another of its close candidates, and only on the questions the search asks."""
    agent = make_agent(f"rerank:net={_tilted(tmp_path, -1.0)}")
    heuristic = HeuristicAgent()
    game = Game(5)
    checked = 0
    while not game.is_over:
        seat = game.acting_seat
        if SEAT_FACTION[seat] == 0 and len(game.legal_decisions()) > 1:
            prior = heuristic.choose(game, seat)
            choice = agent.choose(game, seat)
            if game.pending.kind in SEARCHED:
                assert choice in heuristic_candidates(heuristic, game, seat, prior, 3, 1.0)
                checked += 1
            else:
                assert choice == prior
            game.step(choice)
        else:
            game.step(heuristic.choose(game, seat))
    assert checked > 10 and agent.overruled > 0


def test_a_large_margin_keeps_the_prior_everywhere(tmp_path):
    spec = f"rerank:net={_tilted(tmp_path, -1.0)}:margin=1000"
    rerank = [make_agent(spec), make_agent(spec)]
    assert _game(rerank + [HeuristicAgent(), HeuristicAgent()]) == _game(
        [HeuristicAgent() for _ in range(4)])
    assert rerank[0].overruled == 0


def test_never_reads_hidden_state():
    """Twin games differing only in what the acting seat cannot see (the leak tests'
    ``_hide``: other hands, deck orders, hidden commitments): the same choice at every
    searched question of a game."""
    agent = make_agent("rerank:net=zero")
    heuristic = HeuristicAgent()
    rng = np.random.default_rng(0)
    game = Game(2)
    compared = 0
    while not game.is_over and compared < 20:
        seat = game.acting_seat
        if game.pending.kind in SEARCHED:
            assert agent.choose(game, seat) == agent.choose(_hide(game, seat, rng), seat)
            compared += 1
        game.step(heuristic.choose(game, seat))
    assert compared == 20


@pytest.mark.parametrize("spec, message", [
    ("rerank:net=", "parameters are written key=value"),
    ("rerank:net=/nonexistent", "rerank: net=/nonexistent: no policy file"),
    ("rerank:net=zero:topk=0", "topk must be >= 1"),
    ("rerank:net=zero:margin=-1", "gap and margin >= 0"),
    ("rerank:net=default", "net=default was retired (every shipped network now comes "
                           "from the self-play loop, training/configs/zero.toml): use net=zero"),
])
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        make_agent(spec)
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--players",
                                       f"{spec},random,random,random"])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_without_a_net_it_reads_the_shipped_zero_networks():
    """rerank's network is agents/policies/zero unless named: their policy heads score
    the candidates."""
    agent = make_agent("rerank")
    assert agent.net == "zero"
    for faction, name in enumerate(("british", "malay")):
        shipped = NumpyPolicy.load(POLICY_DIR / "zero" / f"{name}.npz")
        played = agent._views[faction].policy
        for key, array in shipped.arrays.items():
            np.testing.assert_array_equal(played.arrays[key], array)


def test_zero_plays_the_shipped_policies_among_the_candidates():
    agent = make_agent("rerank:net=zero", seed=1)
    result = play_game(1, [agent, make_agent("heuristic"), agent, make_agent("heuristic")])
    assert result.winners and agent.overruled > 0
