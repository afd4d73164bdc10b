"""Ecosystem conventions: human rendering, the Gymnasium registration, and one set of
agent forms accepted by play_game and FactionEnv."""

import gymnasium
import pytest
from pettingzoo.test import render_test

import singapore_env
from agents import make_agent
from arena.simulate import play_game
from arena.faction_env import GYM_ID, FactionEnv


def test_pettingzoo_render_test_passes_with_human_and_ansi():
    render_test(lambda render_mode=None: singapore_env.env(render_mode=render_mode))


def test_human_render_prints_the_ansi_board(capsys):
    human, ansi = singapore_env.env(render_mode="human"), singapore_env.env(render_mode="ansi")
    human.reset(seed=2)
    ansi.reset(seed=2)
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"


def test_faction_env_is_registered_with_gymnasium():
    env = gymnasium.make(GYM_ID, faction="malay")
    assert isinstance(env.unwrapped, FactionEnv)
    assert env.unwrapped.faction == "malay"
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    env.close()


def test_make_vec_builds_faction_envs():
    vec = gymnasium.make_vec(GYM_ID, num_envs=2, vectorization_mode="sync", faction="british")
    obs, info = vec.reset(seed=4)
    assert obs.shape[0] == 2
    vec.close()


@pytest.mark.parametrize("mode", ["human", "ansi"])
def test_faction_env_renders(mode, capsys):
    env = FactionEnv(faction="british", render_mode=mode)
    env.reset(seed=5)
    out = env.render()
    printed = capsys.readouterr().out
    assert (out is None and printed.strip()) if mode == "human" else (isinstance(out, str)
                                                                        and out.strip())


# ------------------------------------------------------------ one way to name an agent
def _first_legal(observation, mask):
    return int(mask.nonzero()[0][0])


class _EngineOnly:
    """Not an Agent: an object with choose() only."""

    def choose(self, game, seat):
        return game.legal_decisions()[-1]


AGENT_FORMS = ["heuristic", "heuristic:seed=3", "random", _first_legal, _EngineOnly(),
               make_agent("random", seed=1)]


def _form(agent) -> str:
    return agent if isinstance(agent, str) else type(agent).__name__


@pytest.mark.parametrize("agent", AGENT_FORMS, ids=_form)
def test_play_game_and_faction_env_take_the_same_agent_forms(agent):
    result = play_game(7, [agent, "random", agent, "heuristic:seed=2"], keep_game=False)
    assert len(result.final_scores) == 4
    env = FactionEnv(faction="british", opponents=agent, partner=agent)
    obs, info = env.reset(seed=8)
    done = False
    while not done:
        action = int(env.action_masks().nonzero()[0][0])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    assert terminated


@pytest.mark.parametrize("bad", [42, {1, 2}, 3.5, "no_such_agent", "mcts:bogus=1"],
                         ids=["int", "set", "float", "unknown-name", "unknown-param"])
def test_a_bad_agent_is_one_clear_value_error_in_both(bad):
    with pytest.raises(ValueError, match="agent"):
        FactionEnv(faction="malay", opponents=[bad, "random"])
    with pytest.raises(ValueError, match="agent"):
        FactionEnv(faction="malay", opponents=bad, partner="random")
    with pytest.raises(ValueError, match="agent"):
        play_game(1, [bad, "random", "random", "random"])


def test_play_game_needs_a_list_of_four():
    with pytest.raises(ValueError, match="list of 4 agents"):
        play_game(1, "heuristic")
