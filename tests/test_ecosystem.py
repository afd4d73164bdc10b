"""Ecosystem conventions: human rendering and the Gymnasium registration."""

import gymnasium
import pytest
from pettingzoo.test import render_test

import singapore_env
from singapore_env.wrappers import GYM_ID, FactionEnv


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
