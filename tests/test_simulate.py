"""Engine-level game playing and tournaments."""

import math

import pytest

from agents import RandomAgent
from singapore_env.config import RulesConfig
from singapore_env.simulate import game_seeds, play_game, run_tournament, wilson_interval


def test_play_game_is_deterministic():
    a = play_game(5, [RandomAgent() for _ in range(4)])
    b = play_game(5, [RandomAgent() for _ in range(4)])
    assert a == b
    assert a.round == 8 and len(a.final_scores) == 4 and a.winners and a.decisions > 0
    assert max(a.final_scores) == a.final_scores[a.winners[0]]


def test_play_game_needs_four_agents():
    with pytest.raises(ValueError):
        play_game(0, [RandomAgent()] * 3)


def test_tournament_summary():
    s = run_tournament(12, ["random"] * 4, seed=2, config=RulesConfig.standard(slavery=False))
    assert s["games"] == 12 and s["ruleset"] == "standard" and s["slavery"] is False
    assert math.isclose(sum(s["wins_by_seat"]), 12)
    assert math.isclose(sum(s["wins_by_faction"].values()), 12)
    for rate in s["win_rate_by_seat"] + list(s["win_rate_by_faction"].values()):
        low, high = rate["ci95"]
        assert 0 <= low <= rate["rate"] <= high <= 1
    assert s["mean_decisions_per_game"] > 0 and s["games_per_second"] > 0
    again = run_tournament(12, ["random"] * 4, seed=2, config=RulesConfig.standard(slavery=False))
    assert again["wins_by_seat"] == s["wins_by_seat"]
    assert again["mean_vp_by_seat"] == s["mean_vp_by_seat"]


def test_game_seeds_do_not_depend_on_the_number_of_games():
    assert game_seeds(1, 3) == game_seeds(1, 10)[:3]
    assert game_seeds(1, 3) != game_seeds(2, 3)


def test_wilson_interval():
    low, high = wilson_interval(11, 50)
    assert math.isclose(low, 0.12754, abs_tol=1e-4) and math.isclose(high, 0.35242, abs_tol=1e-4)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == 1
