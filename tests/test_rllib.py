"""The RLlib bridge (``backend = "rllib"``): the multi-agent adapter, the action-masking
PPO module and its export to the numpy actor, the config's mapping onto RLlib's, and a
tiny run on a local Ray cluster that resumes."""

import json

import numpy as np
import pytest

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed "
                                        "(pip install -e '.[rllib]')")

from agents.learned import NumpyPolicy  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from arena.simulate import play_game  # noqa: E402
from training.bridges.rllib import build_config, train_rllib  # noqa: E402
from training.bridges.rllib_env import POLICIES, RllibSingaporeEnv, policy_of  # noqa: E402
from training.config import TrainConfig, TrainConfigError, load_config  # noqa: E402

pytestmark = pytest.mark.slow

# the driver samples (no env runner to start): 1 game x 100 steps an iteration
TINY = dict(backend="rllib", workers=0, num_games=1, rollout_steps=100, minibatch_size=50,
            epochs=1, hidden=[16], eval_games=1, total_decisions=200, seed=2)


def quiet(_):
    pass


@pytest.fixture(scope="module")
def ray_cluster():
    """One local Ray cluster for the module's runs (a run leaves a cluster it did not
    start running)."""
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_the_adapter_plays_a_game_to_the_end_with_every_seat_rewarded():
    env = RllibSingaporeEnv({"reward_mode": "faction"})
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    assert [policy_of(a) for a in env.possible_agents] == ["british", "british", "malay", "malay"]
    done, steps = False, 0
    while not done:
        (agent, ob), = obs.items()
        assert env.observation_spaces[agent].contains(ob)
        action = int(rng.choice(np.flatnonzero(ob["action_mask"])))
        obs, rewards, terminateds, truncateds, _ = env.step({agent: action})
        done, steps = terminateds["__all__"], steps + 1
    assert set(obs) == set(rewards) == set(env.possible_agents) and steps > 50
    assert sorted(rewards.values()) in ([0.0, 0.0, 1.0, 1.0], [0.5] * 4)


def test_the_exported_actor_computes_the_module_logits():
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule)

    from training.bridges.rllib import actor_of

    env = RllibSingaporeEnv()
    space, actions = env.observation_spaces["sultan"], env.action_spaces["sultan"]
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule, observation_space=space,
                          action_space=actions,
                          model_config={"fcnet_hiddens": [8, 8], "head_fcnet_hiddens": [],
                                        "vf_share_layers": False}).build()
    obs, _ = env.reset(seed=1)
    (ob,) = obs.values()
    batch = {Columns.OBS: {k: torch.from_numpy(v[None]) for k, v in ob.items()}}
    logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].detach().numpy()
    actor = actor_of(module)
    legal = ob["action_mask"] == 1
    assert len(actor.layers) == 2
    np.testing.assert_allclose(actor.logits(ob["observations"])[legal], logits[legal],
                               rtol=1e-4, atol=1e-5)
    assert logits[~legal].max() < -1e30  # the mask


def test_the_config_maps_onto_rllibs():
    cfg = TrainConfig(backend="rllib", workers=2, num_games=6, rollout_steps=300,
                      max_grad_norm=0.7)
    algo = build_config(cfg)
    assert (algo.num_env_runners, algo.num_envs_per_env_runner) == (2, 3)
    assert algo.train_batch_size_per_learner == 6 * 300 and algo.grad_clip == 0.7
    assert build_config(TrainConfig(backend="rllib", workers=0, num_games=4)
                        ).num_envs_per_env_runner == 4  # the driver plays them all


def test_a_tiny_run_exports_policies_that_play_and_resumes(ray_cluster, tmp_path,
                                                          monkeypatch):
    """Two iterations, then the exported actors play a game as ``learned:PATH``; started
    again on the folder with ``seconds`` (and no decision budget) it resumes for one
    more. ``out`` is relative, as in the README (RLlib's checkpoint writer takes only
    absolute paths)."""
    monkeypatch.chdir(tmp_path)
    log: list[str] = []
    summary = train_rllib(TrainConfig(**TINY), "run", log=log.append)
    out = tmp_path / "run"
    assert [r["env_steps"] for r in summary["progress"]] == [100, 200]
    assert log[1].startswith("iteration 2: 200 env steps")
    assert (out / "checkpoint").is_dir() and json.loads((out / "config.json").read_text())["seed"] == 2
    assert set(summary["vs_random"]) == {"british", "malay"}
    for policy in POLICIES:
        assert NumpyPolicy.load(out / f"{policy}.npz").meta["backend"] == "rllib"
    british, malay = (make_agent(f"learned:{out}/{p}.npz") for p in POLICIES)
    assert play_game(1, [british, british, malay, malay]).round == 8

    log.clear()
    summary = train_rllib(TrainConfig(**{**TINY, "total_decisions": 0}), "run", seconds=0.1,
                          log=log.append)
    assert log[0].startswith("resumed from") and "(iteration 2)" in log[0]
    assert summary["iterations"] == 3  # the seconds allow one iteration
    rows = (out / "progress.csv").read_text().strip().splitlines()
    assert [r.split(",")[:2] for r in rows[1:]] == [["1", "100"], ["2", "200"], ["3", "300"]]


def test_a_run_without_a_bound_or_with_unread_keys_is_refused(tmp_path):
    with pytest.raises(TrainConfigError, match="give total_decisions in the config or "
                                               "--seconds"):
        train_rllib(TrainConfig(backend="rllib"), tmp_path, log=quiet)
    with pytest.raises(TrainConfigError, match=r"unknown training config keys "
                                               r"\['iterations'\]"):
        load_config(None, backend="rllib", iterations=3)
    with pytest.raises(TrainConfigError, match=r"of kind 'rllib' does not read the keys "
                                               r"\['pool_every'\]"):
        load_config(None, backend="rllib", pool_every=3)
    with pytest.raises(TrainConfigError, match="checkpoint_every_s must be > 0"):
        TrainConfig(backend="rllib", checkpoint_every_s=0)
