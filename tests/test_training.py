"""The SB3 bridge (``backend = "sb3"``) on a tiny budget: its networks, curve,
checkpoints, bounds and resumption; the opponents' draw; evaluation output; agents'
legality; the thread limit; the shipped configs."""

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("sb3_contrib", reason="Stable-Baselines3 is not installed")

from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.learned import LearnedAgent, NumpyPolicy  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from arena.evaluate import run_matchup  # noqa: E402
from arena.simulate import play_game  # noqa: E402
from arena.summary import openskill_ratings  # noqa: E402
from singapore_app.cli import main  # noqa: E402
from training.bridges.sb3 import PoolAgent, make_env, train  # noqa: E402
from training.config import TrainConfig, TrainConfigError, load_config  # noqa: E402

# two phases of one update of 2 games x 64 steps each
TINY = dict(backend="sb3", num_games=2, rollout_steps=64, minibatch_size=64, epochs=1,
            pool_every=1, pool_size=1, eval_games=2, hidden=[16], total_decisions=256)


def quiet(_):
    pass


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("train")
    train(TrainConfig(**TINY), out, progress=False, log=quiet)
    return out


def progress_rows(out: Path) -> list[list[str]]:
    return [r.split(",") for r in (out / "progress.csv").read_text().strip().splitlines()]


def test_a_run_writes_both_networks_its_curve_and_checkpoints(run_dir):
    header, *rows = progress_rows(run_dir)
    assert header[:5] == ["phase", "faction", "updates", "faction_decisions",
                          "total_decisions"]
    assert [r[:5] for r in rows] == [["0", "british", "1", "128", "128"],
                                     ["1", "malay", "1", "128", "256"]]
    low, rate, high = (float(rows[0][header.index(k)]) for k in
                       ("win_vs_heuristic_low", "win_vs_heuristic", "win_vs_heuristic_high"))
    assert 0 <= low <= rate <= high <= 1
    for faction in ("british", "malay"):
        policy = NumpyPolicy.load(run_dir / f"{faction}.npz")  # the checked reader
        assert policy.meta["backend"] == "sb3" and policy.meta["faction"] == faction
        assert (run_dir / "checkpoints" / f"{faction}.zip").exists()
    assert json.loads((run_dir / "config.json").read_text())["pool_every"] == 1
    ppo_log = (run_dir / "ppo" / "phase1_malay" / "progress.csv").read_text().splitlines()
    assert "time/total_timesteps" in ppo_log[0]  # SB3's own logger


def test_the_networks_play_as_learned_specs(run_dir):
    british = make_agent(f"learned:{run_dir}/british.npz")
    malay = make_agent(f"learned-sample:{run_dir}/malay.npz", seed=1)
    result = play_game(1, [british, british, malay, malay])
    assert result.round == 8  # the engine raises IllegalDecision on any illegal choice


def test_the_numpy_actor_plays_as_the_sb3_checkpoint(run_dir):
    from sb3_contrib import MaskablePPO

    from arena.faction_env import FactionEnv

    model = MaskablePPO.load(run_dir / "checkpoints" / "british.zip", device="cpu")
    agent = LearnedAgent.load(run_dir / "british.npz")
    env = FactionEnv("british", seed=3)
    obs, _ = env.reset(seed=3)
    for _ in range(30):
        mask = env.action_masks()
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert agent.act({"observation": obs, "action_mask": mask.astype(np.int8)},
                         mask) == int(expected)
        obs, _, done, truncated, _ = env.step(int(expected))
        if done or truncated:
            obs, _ = env.reset(seed=4)


def test_a_run_resumes_on_its_folder_and_keeps_pool_size_past_selves(run_dir, tmp_path):
    out = tmp_path / "again"
    shutil.copytree(run_dir, out)
    log: list[str] = []
    train(TrainConfig(**{**TINY, "total_decisions": 384}), out, progress=False,
          log=log.append)
    assert log[0].startswith(f"resuming {out} after phase 1 (256 decisions)")
    assert [r[:5] for r in progress_rows(out)[1:]][-1] == ["2", "british", "1", "256", "384"]
    assert sorted(p.name for p in (out / "checkpoints").glob("*.npz")) == [
        "british_phase2.npz", "malay_phase1.npz"]  # pool_size = 1: phase 0 left
    train(TrainConfig(**{**TINY, "total_decisions": 384}), out, progress=False, log=quiet)
    assert len(progress_rows(out)) == 4  # the bound is reached: nothing more to do
    with pytest.raises(TrainConfigError, match=r"another configuration \(differs in "
                                               r"\['hidden'\]\)"):
        train(TrainConfig(**{**TINY, "hidden": [8]}), out, progress=False, log=quiet)


def test_the_seconds_end_a_phase_early_and_both_networks_are_written(tmp_path):
    log: list[str] = []
    train(TrainConfig(**{**TINY, "total_decisions": 0, "pool_every": 1000}), tmp_path,
          seconds=3, progress=False, log=log.append)
    (row,) = progress_rows(tmp_path)[1:]
    assert row[:2] == ["0", "british"] and 1 <= int(row[2]) < 1000  # what it trained
    assert log[-1] == (f"malay has not trained yet (the time ran out in phase 0): "
                       f"{tmp_path}/malay.npz is its untrained policy")
    assert NumpyPolicy.load(tmp_path / "malay.npz").meta["phase"] == "untrained"
    assert NumpyPolicy.load(tmp_path / "british.npz").meta["phase"] == 0


def test_a_run_without_a_bound_is_refused(tmp_path):
    with pytest.raises(TrainConfigError, match="give total_decisions in the config or "
                                               "--seconds"):
        train(TrainConfig(backend="sb3"), tmp_path, progress=False, log=quiet)


def test_keys_the_sb3_bridge_does_not_read_are_refused(tmp_path):
    with pytest.raises(TrainConfigError, match=r"unknown training config keys \['phases'\]"):
        load_config(None, backend="sb3", phases=3)
    with pytest.raises(TrainConfigError, match=r"of kind 'sb3' does not read the keys "
                                               r"\['workers'\]"):
        load_config(None, backend="sb3", workers=2)
    with pytest.raises(TrainConfigError, match="league: unknown agent 'nobody'"):
        TrainConfig(backend="sb3", league=["nobody"])
    with pytest.raises(TrainConfigError, match="unknown reward_mode 'score'"):
        TrainConfig(backend="sb3", reward_mode="score")
    with pytest.raises(TrainConfigError, match="past_self_share must be in"):
        TrainConfig(backend="sb3", past_self_share=1.5)
    bad = tmp_path / "bad.toml"
    bad.write_text("num_games = [")
    with pytest.raises(TrainConfigError, match="not valid TOML"):
        load_config(bad)


def test_the_opponents_are_a_past_self_in_its_share_else_the_league(run_dir):
    past = LearnedAgent(NumpyPolicy.load(run_dir / "malay.npz"))
    pool = PoolAgent([past], [HeuristicAgent(), RandomAgent()], 0.3, seed=0)
    drawn = []
    for s in range(400):
        pool.reset(s)
        drawn.append(type(pool.current).__name__)
    assert 0.22 < drawn.count("LearnedAgent") / 400 < 0.38
    assert {"HeuristicAgent", "RandomAgent"} <= set(drawn)
    pool = PoolAgent([], [HeuristicAgent()], 1.0, seed=0)  # no past self yet
    pool.reset(1)
    assert isinstance(pool.current, HeuristicAgent)


def test_the_learner_plays_both_seats_against_greedy_past_selves(run_dir):
    cfg = TrainConfig(**TINY)
    env = make_env(cfg, "british", [NumpyPolicy.load(run_dir / "malay.npz")], seed=1)
    env.reset(seed=1)
    assert env.learning_seats == (0, 1)
    pool = env._controllers[2]
    assert env._controllers[3] is pool  # one draw for both opponent seats
    assert [agent.deterministic for agent in pool.past] == [True]
    assert [agent.name for agent in pool.league] == ["heuristic"]


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
    ratings = openskill_ratings(result.records)
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"]


def test_training_runs_on_one_thread():
    from threadpoolctl import threadpool_info
    import torch

    from agents.threads import limit_threads

    limit_threads(1)
    assert torch.get_num_threads() == 1
    assert all(lib["num_threads"] == 1 for lib in threadpool_info())


def test_torch_imported_after_the_limit_starts_on_one_thread():
    """Training builds its model (and imports torch) after limiting the threads."""
    import os
    import subprocess
    import sys

    code = ("from agents.threads import limit_threads; limit_threads(1); "
            "import torch; print(torch.get_num_threads())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={k: v for k, v in os.environ.items()
                                          if not k.endswith("_NUM_THREADS")})
    assert out.stdout.strip() == "1"


SHIPPED_CONFIGS = sorted((Path(__file__).parents[1] / "training" / "configs").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_shipped_training_config_loads(path):
    """Each file of training/configs loads as the kind of run its ``backend`` picks
    (rllib.toml needs no Ray to be read), with a bound: a decision budget, or the
    ``--seconds`` its header's command gives."""
    from singapore_env import native

    if 'engine = "native"' in path.read_text() and not native.available():
        with pytest.raises(TrainConfigError, match="not built here"):
            load_config(path)   # a config on the native engine says why it can't run
        return
    cfg = load_config(path)
    if cfg.kind in ("sb3", "rllib"):
        assert cfg.total_decisions > 0
        assert (f"singapore-1819 train --config training/configs/{path.name} --out "
                in path.read_text()) and "--seconds 60" in path.read_text()
    if path.name == "rllib.toml":
        assert cfg.total_decisions == 1_200_000  # the measured run


def test_shaping_rewards_sum_to_minus_the_start_potential():
    """Potential-based shaping with gamma = 1 telescopes: over an episode the shaping
    rewards add up to phi(end) - phi(start) = -phi(start), so the return differs from the
    unshaped one by a constant of the start state."""
    from arena.faction_env import FactionEnv

    plain = FactionEnv("malay", seats="both", opponents=HeuristicAgent(), seed=0)
    shaped = FactionEnv("malay", seats="both", opponents=HeuristicAgent(), seed=0, shaping=0.05)
    for env in (plain, shaped):
        env.reset(seed=11)
    start = shaped._potential
    totals = [0.0, 0.0]
    rewards_seen = set()
    done = False
    agent = HeuristicAgent()
    agent.reset(1)
    while not done:
        decision = agent.choose(plain.game, plain.game.acting_seat)
        action = plain.raw.table.index(decision)
        for i, env in enumerate((plain, shaped)):
            _, r, term, trunc, _ = env.step(action)
            totals[i] += r
            if i:
                rewards_seen.add(round(r, 6))
        done = term or trunc
    assert plain.game.final_scores == shaped.game.final_scores  # the same game
    assert len(rewards_seen) > 2                      # shaping pays along the way
    assert totals[1] - totals[0] == pytest.approx(-start)


def test_projected_final_vp_is_the_final_score_without_rolling():
    from singapore_env.engine.rules.scoring import projected_final_vp

    checked = 0
    for seed in range(4):
        result = play_game(seed, [HeuristicAgent() for _ in range(4)], keep_game=True)
        game = result.game
        state = game.rng.bit_generator.state
        for seat in range(4):
            dice = any(e.type == "vp_dice" for slot in game.s.tableau[seat]
                       for e in game.c.defs[slot.card].end_game)
            if not dice:
                assert projected_final_vp(game, seat) == game.final_scores[seat]
                checked += 1
        assert game.rng.bit_generator.state == state
    assert checked >= 8
