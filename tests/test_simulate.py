"""Engine-level game playing and tournaments."""

import math

import pytest

from agents import RandomAgent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import SEAT_NAMES
from arena.runner import run_tournament
from arena.simulate import game_seeds, play_game
from arena.summary import _wilson_closed_form, wilson_interval


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
    assert s["schema"] == "singapore-1819-summary/1" and s["players"] == ["random"] * 4
    assert math.isclose(sum(r["wins"] for r in s["win_rate_by_seat"].values()), 12)
    assert math.isclose(sum(r["wins"] for r in s["win_rate_by_faction"].values()), 12)
    for rate in list(s["win_rate_by_seat"].values()) + list(s["win_rate_by_faction"].values()):
        low, high = rate["ci95"]
        assert 0 <= low <= rate["rate"] <= high <= 1
    assert s["mean_decisions_per_game"] > 0 and s["games_per_second"] > 0
    total_vp = sum(s["mean_vp_by_seat"].values())
    by_source = sum(2 * sum(row.values()) for row in s["mean_vp_by_source"].values())
    assert math.isclose(total_vp, by_source)
    again = run_tournament(12, ["random"] * 4, seed=2, config=RulesConfig.standard(slavery=False))
    assert again["win_rate_by_seat"] == s["win_rate_by_seat"]
    assert again["mean_vp_by_seat"] == s["mean_vp_by_seat"]


def test_game_seeds_do_not_depend_on_the_number_of_games():
    assert game_seeds(1, 3) == game_seeds(1, 10)[:3]
    assert game_seeds(1, 3) != game_seeds(2, 3)


def test_wilson_interval():
    low, high = wilson_interval(11, 50)
    assert math.isclose(low, 0.12754, abs_tol=1e-4) and math.isclose(high, 0.35242, abs_tol=1e-4)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == 1
    for wins, n in ((11, 50), (2.5, 7), (0.5, 3)):  # the fallback is the same interval
        assert wilson_interval(wins, n) == pytest.approx(list(_wilson_closed_form(wins / n, n)))


def test_tournament_of_random_players_is_the_same_on_two_workers():
    one = run_tournament(10, ["random"] * 4, seed=5, swap=True)
    two = run_tournament(10, ["random"] * 4, seed=5, swap=True, workers=2)
    for key in ("win_rate_by_seat", "mean_vp_by_seat", "mean_vp_by_source", "facts"):
        assert one[key] == two[key]
    assert one["games"] == 20 and set(one["win_rate_by_seat"]) == set(SEAT_NAMES)
