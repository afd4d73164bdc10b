"""The ladder (every agent against the heuristic and each other), agent specs on the
command line, and one inference thread per process."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from agents import make_agent
from singapore_app.cli import main
from arena.ladder import ladder_matchups

FAST = "mcts:iters=2:topk=2:horizon=1"


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_matchups_cover_the_mirror_the_heuristic_and_every_pair_both_ways():
    pairs = ladder_matchups(["random", "heuristic", "mcts", "random"])
    assert pairs == [("heuristic", "heuristic"),
                     ("random", "heuristic"), ("heuristic", "random"),
                     ("mcts", "heuristic"), ("heuristic", "mcts"),
                     ("random", "mcts"), ("mcts", "random")]


def test_ladder_json_holds_rates_intervals_baselines_and_ratings(tmp_path):
    out, png = tmp_path / "ladder.json", tmp_path / "ladder.png"
    result = _run("ladder", "--agents", f"random,heuristic,{FAST}", "--games", 1,
                  "--seed", 3, "--json", out, "--plot", png, "--no-progress")
    assert result.exit_code == 0, result.output
    assert "mirror baseline" in result.output and "OpenSkill" in result.output
    data = json.loads(out.read_text())
    assert data["agents"] == ["random", "heuristic", FAST]
    assert data["games_per_matchup"] == 2 and len(data["matchups"]) == 7
    for faction in ("british", "malay"):
        base = data["mirror_baseline"][faction]
        assert 0 <= base["ci95"][0] <= base["rate"] <= base["ci95"][1] <= 1
        assert data["vs_heuristic"]["heuristic"][faction]["rate"] == base["rate"]
        for spec in data["agents"]:
            row = data["vs_heuristic"][spec][faction]
            assert row["games"] == 2 and 0 <= row["ci95"][0] <= row["rate"] <= row["ci95"][1]
            assert row["minus_mirror"] == row["rate"] - base["rate"]
            low, high = row["minus_mirror_ci95"]
            assert low <= row["minus_mirror"] + 1e-12 and row["minus_mirror"] <= high + 1e-12
    mirror = data["matchups"][0]["win_rate_by_faction"]
    assert mirror["british"]["rate"] + mirror["malay"]["rate"] == 1.0
    assert set(data["ratings"]) == {"random", "heuristic", FAST}
    assert all({"mu", "sigma", "ordinal"} <= set(r) for r in data["ratings"].values())
    assert png.exists() and png.stat().st_size > 1000


def test_agent_parameters_on_the_command_line():
    ok = _run("simulate", "--players", f"{FAST},heuristic:seed=2,random,heuristic",
              "--games", 1, "--no-progress")
    assert ok.exit_code == 0, ok.output
    assert FAST in ok.output
    for command, option in (("ladder", "--agents"), ("simulate", "--players")):
        specs = "random,mcts:budget=3" + (",random,random" if command == "simulate" else "")
        bad = _run(command, option, specs, "--games", 1)
        assert bad.exit_code == 2, bad.output
        assert f"Invalid value for '{option}'" in bad.output
        assert "unknown parameter(s) budget; allowed: gap, horizon" in bad.output
    bad = _run("evaluate", "--british", "mcts:iters=x", "--games", 1)
    assert bad.exit_code == 2 and "parameter iters expects an integer" in bad.output


@pytest.mark.parametrize("build", ["learned", "mcts:iters=2:horizon=1:net=zero",
                                   "rerank:net=zero"])
def test_a_player_reading_a_network_limits_blas_and_torch_to_one_thread(build):
    import torch
    from threadpoolctl import threadpool_info, threadpool_limits

    from agents.learned import LearnedAgent, NumpyPolicy

    torch.set_num_threads(2)
    threadpool_limits(2)
    if build == "learned":
        LearnedAgent(NumpyPolicy([(np.ones((3, 4)), np.zeros(4))],
                                 (np.ones((4, 2)), np.zeros(2))))
    else:
        make_agent(build)
    assert torch.get_num_threads() == 1
    assert all(pool["num_threads"] == 1 for pool in threadpool_info())


def test_ladder_is_the_same_on_two_workers(tmp_path):
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"l{workers}.json"
        result = _run("ladder", "--agents", "random,heuristic", "--games", 2, "--seed", 5,
                      "--json", out, "--workers", workers, "--no-progress")
        assert result.exit_code == 0, result.output
        outs.append(json.loads(out.read_text()))
    assert outs[0] == outs[1]
