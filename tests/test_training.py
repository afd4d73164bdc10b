"""Training end to end on a tiny budget, checkpoints, evaluation output, agents' legality."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent, NumpyPolicy
from agents.random_agent import RandomAgent
from singapore_env.cli import main
from singapore_env.simulate import play_game
from training.config import TrainConfig, TrainConfigError
from training.evaluate import openskill_ratings, plot_learning_curves, run_matchup
from training.selfplay import PoolAgent, train

TINY = dict(phases=2, timesteps_per_phase=512, n_envs=2, n_steps=256, batch_size=128,
            n_epochs=1, eval_games=2, bc_games=2, bc_epochs=1, net_arch=[32, 32])


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("train")
    train(TrainConfig(**TINY), out, progress=False, log=lambda _: None)
    return out


def test_training_writes_checkpoints_and_curve(run_dir):
    for name in ("british.npz", "malay.npz", "config.json", "progress.csv",
                 "checkpoints/british_phase0.zip", "checkpoints/malay_phase1.npz"):
        assert (run_dir / name).exists(), name
    rows = (run_dir / "progress.csv").read_text().strip().splitlines()
    assert len(rows) == 3 and rows[0].startswith("phase,faction")


def test_checkpoint_reproduces_the_same_actions(run_dir):
    from sb3_contrib import MaskablePPO
    from singapore_env.wrappers import FactionEnv

    model = MaskablePPO.load(run_dir / "checkpoints" / "british_phase0.zip", device="cpu")
    numpy_agent = LearnedAgent.load(run_dir / "checkpoints" / "british_phase0.npz")
    zip_agent = LearnedAgent.load(run_dir / "checkpoints" / "british_phase0.zip")
    env = FactionEnv("british", seed=3)
    obs, info = env.reset(seed=3)
    for _ in range(40):
        mask = env.action_masks()
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        observation = {"observation": obs, "action_mask": mask.astype(np.int8)}
        assert numpy_agent.act(observation, mask) == int(expected)
        assert zip_agent.act(observation, mask) == int(expected)
        obs, _, done, truncated, _ = env.step(int(expected))
        if done or truncated:
            obs, _ = env.reset(seed=4)


def test_training_resumes_after_the_last_phase(run_dir):
    train(TrainConfig(**{**TINY, "phases": 3}), run_dir, progress=False, log=lambda _: None)
    rows = (run_dir / "progress.csv").read_text().strip().splitlines()
    assert [r.split(",")[:2] for r in rows[1:]] == [["0", "british"], ["1", "malay"],
                                                   ["2", "british"]]


def test_learning_curve_plot(run_dir, tmp_path):
    png = plot_learning_curves(run_dir / "progress.csv", tmp_path / "curve.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_all_agents_play_only_legal_decisions(run_dir):
    learned = LearnedAgent(NumpyPolicy.load(run_dir / "malay.npz"), deterministic=False, seed=1)
    for seed in range(3):
        result = play_game(seed, [HeuristicAgent(), RandomAgent(), learned, HeuristicAgent()])
        assert result.round == 8  # the engine raises IllegalDecision on any illegal choice


def test_evaluate_json_has_rates_intervals_and_ratings(run_dir, tmp_path):
    out = tmp_path / "eval.json"
    result = CliRunner().invoke(main, ["evaluate", "--british", f"learned:{run_dir}/british.npz",
                                       "--malay", "heuristic", "--games", "3", "--json",
                                       str(out), "--plot", str(tmp_path / "bars.png")])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["games"] == 6
    for faction in ("british", "malay"):
        row = data["win_rate_by_faction"][faction]
        assert 0 <= row["ci95"][0] <= row["rate"] <= row["ci95"][1] <= 1
    assert set(data["ratings"]) == {f"learned:{run_dir}/british.npz", "heuristic"}
    assert (tmp_path / "bars.png").exists()


def test_ratings_rank_the_stronger_agent_higher():
    result = run_matchup([HeuristicAgent(), HeuristicAgent(), RandomAgent(), RandomAgent()],
                         6, seed=2)
    ratings = openskill_ratings([result])
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"]


def test_pool_agent_draws_a_new_player_each_episode():
    pool = PoolAgent([(0.5, RandomAgent), (0.5, HeuristicAgent)], seed=0)
    kinds = set()
    for s in range(20):
        pool.reset(s)
        kinds.add(type(pool.current).__name__)
    assert kinds == {"RandomAgent", "HeuristicAgent"}


def test_bad_training_config_is_a_clear_error(tmp_path):
    with pytest.raises(TrainConfigError, match="unknown training config keys"):
        TrainConfig.load(None, learning_rat=0.1)
    bad = tmp_path / "bad.toml"
    bad.write_text("phases = [")
    with pytest.raises(TrainConfigError, match="not valid TOML"):
        TrainConfig.load(bad)
