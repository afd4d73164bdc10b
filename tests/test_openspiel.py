"""The OpenSpiel game (arena.openspiel_game) and OpenSpiel's bots (arena.openspiel_bots)."""

import sys

import numpy as np
import pytest
from click.testing import CliRunner

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is not installed (pip install -e '.[openspiel]')")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from arena.openspiel_bots import OpenSpielIsmctsAgent, ismcts_bot  # noqa: E402
from arena.openspiel_game import GAME_NAME  # noqa: E402
from singapore_app.cli import main  # noqa: E402
from singapore_env.engine.config import RULESETS  # noqa: E402
from test_env_leak import _find, _hide  # noqa: E402


@pytest.mark.parametrize("ruleset", RULESETS)
def test_openspiel_conformance_checks_pass(ruleset):
    """OpenSpiel's own API checks for games (the ones its Python games' tests run)."""
    game = pyspiel.load_game(GAME_NAME, {"ruleset": ruleset})
    assert game.get_parameters()["ruleset"] == ruleset
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_player_cannot_tell_twins_apart():
    """Two states that differ only in what ``seat`` cannot see give ``seat`` the same
    information-state tensor and string; resampling keeps them too."""
    game = pyspiel.load_game(GAME_NAME)
    rng = np.random.default_rng(3)
    states = _find(lambda g: g.s.round >= 2, want=3)
    for g in states:
        for seat in range(4):
            one, twin = game.state_of(g), game.state_of(_hide(g, seat, rng))
            assert twin.game.s.to_dict() != one.game.s.to_dict()
            assert twin.information_state_tensor(seat) == one.information_state_tensor(seat)
            assert twin.information_state_string(seat) == one.information_state_string(seat)
            world = one.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
            assert world.information_state_tensor(seat) == one.information_state_tensor(seat)
        others = [one.information_state_tensor(p) != twin.information_state_tensor(p)
                  for p in range(4) if p != seat]
        assert any(others), "the twin should differ for someone who sees it"


def test_mcts_and_ismcts_play_full_games_through_evaluate_bots():
    game = pyspiel.load_game(GAME_NAME, {"ruleset": "first-edition"})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [mcts.MCTSBot(game, 2.0, 2, evaluator, random_state=rng),
            ismcts_bot(game, simulations=2, seed=1),
            mcts.MCTSBot(game, 2.0, 2, evaluator, random_state=rng),
            ismcts_bot(game, seconds=0.001, seed=2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert len(returns) == 4 and sum(returns) == pytest.approx(1.0)


def test_the_ismcts_agent_plays_from_the_command_line(tmp_path):
    agent = OpenSpielIsmctsAgent(simulations=2)
    assert agent.seconds == 0.5
    spec = "openspiel-ismcts:simulations=2:seconds=0.001"
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--players",
                                       f"{spec},random,random,random", "--no-swap"])
    assert result.exit_code == 0, result.output


def _cheap(content) -> int:
    """How many market cards cost the British 1."""
    return sum(content.prices[0][i] == 1 for i in content.market_ids)


def test_the_data_parameter_loads_edited_cards(cheap_cards):
    shipped = pyspiel.load_game(GAME_NAME)
    edited = pyspiel.load_game(GAME_NAME, {"data": str(cheap_cards)})
    assert _cheap(edited.content) > _cheap(shipped.content)
    state = edited.new_initial_state()
    state.apply_action(3)
    assert state.game.c is edited.content
    with pytest.raises(Exception, match="does not exist"):
        pyspiel.load_game(GAME_NAME, {"data": str(cheap_cards / "missing")})


def test_the_ismcts_agent_searches_the_game_s_own_cards(cheap_cards):
    """A game on an edited data folder (``--data``): the bot's OpenSpiel game holds that
    content, not the shipped cards."""
    from singapore_env.engine import Game
    from singapore_env.engine.config import RulesConfig
    from singapore_env.engine.content import resolve_content

    cfg = RulesConfig.standard()
    game = Game(1, cfg, resolve_content(str(cheap_cards), cfg.slavery))
    agent = OpenSpielIsmctsAgent(seed=1, simulations=2, seconds=0)
    assert agent.choose(game, game.acting_seat) in game.legal_decisions()
    (spiel_game,) = agent._games.values()
    assert spiel_game.content is game.c
    assert _cheap(spiel_game.content) > _cheap(resolve_content(None, cfg.slavery))
    result = CliRunner().invoke(main, [
        "simulate", "--games", "1", "--no-swap", "--data", str(cheap_cards), "--players",
        "openspiel-ismcts:simulations=2:seconds=0.001,random,random,random"])
    assert result.exit_code == 0, result.output


def test_without_the_extra_the_agent_is_a_clear_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    for name in ("arena.openspiel_bots", "arena.openspiel_game"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--players",
                                       "openspiel-ismcts,random,random,random"])
    assert result.exit_code == 2, result.output
    assert "pip install 'singapore-1819[openspiel]'" in result.output
    assert "Traceback" not in result.output
