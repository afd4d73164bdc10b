"""RLlib: the multi-agent adapter, the action-masking PPO module, two tiny training
iterations on a local Ray cluster, and the export to the numpy actor."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("ray.rllib", reason="the rllib extra is not installed "
                                        "(pip install -e '.[rllib]')")

from agents.learned import NumpyPolicy  # noqa: E402
from singapore_app.cli import main  # noqa: E402
from training.bridges.rllib_env import POLICIES, RllibSingaporeEnv, policy_of  # noqa: E402

pytestmark = pytest.mark.slow

TINY = """
iterations = 2
workers = 1
train_batch_size = 200
minibatch_size = 100
epochs = 1
hidden = [16]
checkpoint_every = 1
eval_games = 1
"""


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


def test_two_tiny_iterations_export_policies_that_play_as_learned(tmp_path, monkeypatch):
    """``train --backend rllib`` on a local Ray cluster, then the exported actors play
    through ``evaluate`` as ``learned:PATH``. ``--out`` is relative, as in the README
    (RLlib's checkpoint writer takes only absolute paths)."""
    monkeypatch.chdir(tmp_path)
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "run"
    result = CliRunner().invoke(main, ["train", "--backend", "rllib", "--config", str(config),
                                       "--out", "run", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "iteration 2:" in result.output
    assert (out / "checkpoint").is_dir() and json.loads((out / "config.json").read_text())["seed"] == 2
    for policy in POLICIES:
        assert NumpyPolicy.load(out / f"{policy}.npz").meta["backend"] == "rllib"
    result = CliRunner().invoke(main, ["evaluate", "--british", f"learned:{out}/british.npz",
                                       "--malay", f"learned:{out}/malay.npz", "--games", "1",
                                       "--no-swap"])
    assert result.exit_code == 0, result.output


def test_sb3_options_are_refused_with_the_rllib_backend():
    for option in (["--phases", "2"], ["--timesteps", "2"], ["--seconds", "2"]):
        result = CliRunner().invoke(main, ["train", "--backend", "rllib", *option])
        assert result.exit_code == 2, option
        assert f"{option[0]}: not an option of a run of kind 'rllib'" in result.output, option
    result = CliRunner().invoke(main, ["train", "--backend", "sb3", "--ray", "auto"])
    assert result.exit_code == 2 and "--ray: not an option of a run of kind 'sb3'" in result.output
