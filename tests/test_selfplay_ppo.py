"""The batched self-play trainer: a tiny run end to end (progress, resume, actors that
play as learned:PATH), the compact network's equality with its numpy actor, errors."""

import csv

import numpy as np
import pytest
import torch
from click.testing import CliRunner

from agents.learned import NumpyPolicy
from agents.registry import make_agent
from arena.simulate import play_game
from singapore_app.cli import main
from singapore_env.native import available as native_built
from singapore_env.vector import VectorEnv
from training.network.actor_critic import ActorCritic
from training.network.rows import legal_rows, sparse_rows, to_csr

TINY = """seed = 1
num_games = 4
rollout_steps = 8
hidden = [16, 16]
minibatch_size = 32
eval_games = 1
eval_every = 1
pool_every = 1
past_self_share = 0.5
"""


def run(args):
    return CliRunner().invoke(main, ["train", *map(str, args), "--no-progress"])


def rows(out):
    with open(out / "progress.csv", newline="") as fh:
        return list(csv.DictReader(fh))


def test_a_tiny_run_writes_progress_resumes_and_exports_playable_actors(tmp_path):
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "run"
    first = run(["--config", config, "--out", out, "--seconds", 1])
    assert first.exit_code == 0, first.output
    done = rows(out)
    assert done[0]["decisions"] == "0" and int(done[-1]["decisions"]) > 0
    assert {"wall_s", "british_vs_heuristic", "mirror_malay"} <= set(done[0])
    assert (out / "learning_curve.png").exists()
    second = run(["--config", config, "--out", out, "--seconds", 1])
    assert second.exit_code == 0 and "resuming" in second.output, second.output
    more = rows(out)
    assert int(more[-1]["decisions"]) > int(done[-1]["decisions"])
    assert float(more[-1]["wall_s"]) > float(done[-1]["wall_s"])
    record = play_game(3, [make_agent(f"learned:{out}/british.npz"),
                           make_agent(f"learned:{out}/british.npz"), make_agent("random"),
                           make_agent("random")])
    assert record.decisions > 0 and record.final_scores
    config.write_text(TINY.replace("hidden = [16, 16]", "hidden = [8]"))
    other = run(["--config", config, "--out", out, "--seconds", 1])
    assert other.exit_code == 2 and "another configuration" in other.output


def test_the_numpy_actor_scores_legal_actions_as_the_network_does():
    torch.manual_seed(0)
    net = ActorCritic(VectorEnv(1).obs_size, VectorEnv(1).num_actions, [16, 8])
    with VectorEnv(3, seed=2) as venv:
        obs, mask, _ = venv.reset()
        index, value = sparse_rows(obs, 256)
        legal = legal_rows(mask, 64, net.n_actions)
        with torch.no_grad():
            logits, _ = net(to_csr(index, value, net.obs_size), legal)
        actor = net.to_numpy()
        dense = actor.logits(obs)
        for row in range(3):
            acts = legal[row][legal[row] != net.n_actions]
            np.testing.assert_allclose(logits[row, :len(acts)].numpy(), dense[row, acts],
                                       rtol=1e-4, atol=1e-5)
    assert isinstance(actor, NumpyPolicy)


def test_bad_configs_and_options_are_usage_errors(tmp_path):
    config = tmp_path / "bad.toml"
    config.write_text(TINY + "surprise = 1\n")
    result = run(["--config", config, "--out", tmp_path / "o", "--seconds", 1])
    assert result.exit_code == 2 and "surprise" in result.output
    config.write_text(TINY)
    result = run(["--config", config, "--out", tmp_path / "o", "--phases", 2])
    assert result.exit_code == 2 and "No such option '--phases'" in result.output
    result = run(["--config", config, "--out", tmp_path / "o"])
    assert result.exit_code == 2 and "would not end" in result.output


def test_the_native_engine_missing_is_a_usage_error_saying_why(tmp_path, monkeypatch):
    from singapore_env import native

    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")
    config = tmp_path / "native.toml"
    config.write_text(TINY + 'engine = "native"\n')
    result = run(["--config", config, "--out", tmp_path / "o", "--seconds", 1])
    assert result.exit_code == 2, result.output
    assert "not built here" in result.output and 'engine = "python"' in result.output
    assert not (tmp_path / "o").exists()


def test_a_position_wider_than_the_starting_rows_widens_them():
    """A rare position with more legal actions (or non-zero entries) than the rollout's
    starting width widens its rows; narrower rows keep their padding."""
    from training.loop.rollout import LEGAL_WIDTH, Rollout

    mask = np.zeros((2, 1040), np.int8)
    mask[0, :LEGAL_WIDTH + 15] = 1
    mask[1, 5] = 1
    legal = legal_rows(mask, LEGAL_WIDTH, 1040)
    assert legal.shape == (2, LEGAL_WIDTH + 15) and (legal[1, 1:] == 1040).all()
    obs = np.zeros((2, 5146), np.float32)
    obs[0, :300] = 1.0
    index, value = sparse_rows(obs, 256)
    assert index.shape == (2, 300) and value[1].sum() == 0
    rollout = Rollout(4, 1040)
    narrow = sparse_rows(obs[1:], 256)
    rollout.add(*narrow, legal_rows(mask[1:], LEGAL_WIDTH, 1040), [0], [0.0], [0.0], [1])
    rollout.add(index[:1], value[:1], legal[:1], [3], [0.0], [0.0], [0])
    assert rollout.legal.shape[1] == LEGAL_WIDTH + 15 and rollout.index.shape[1] == 300
    assert (rollout.legal[0, 1:] == 1040).all() and rollout.legal[1, -1] == LEGAL_WIDTH + 14
    net = ActorCritic(5146, 1040, [8])
    logits, _ = net(to_csr(rollout.index[:2], rollout.value_in[:2], 5146), rollout.legal[:2])
    assert (logits[0, 1:] < -1e8).all() and (logits[1] > -1e8).all()


def test_the_native_compact_rows_are_numpys(monkeypatch):
    """Where the module is built, the compact rows come from C++: the same indices and
    values as numpy's scan (-0 a zero, NaN not), padded to the same width."""
    from singapore_env import native

    if not native.available():
        pytest.skip("the native engine is not built here")
    rng = np.random.default_rng(3)
    obs = np.where(rng.random((7, 5146)) < 0.03, rng.standard_normal((7, 5146)), 0.0
                   ).astype(np.float32)
    obs[0, :4] = [-0.0, np.nan, 2.0, 0.0]
    obs[1:3] = 0.0
    obs[1, :300] = 1.0                                  # wider than the width asked
    ours = sparse_rows(obs, 256)
    monkeypatch.setattr(native, "available", lambda: False)
    scanned = sparse_rows(obs, 256)
    assert ours[0].shape == scanned[0].shape == (7, 300)
    assert np.array_equal(ours[0], scanned[0])
    assert np.array_equal(ours[1], scanned[1], equal_nan=True)
    assert ours[0].dtype == np.int32 and ours[1].dtype == np.float32


def test_the_batched_trainer_needs_no_stable_baselines3():
    """The one trainer's networks are plain torch: with Stable-Baselines3 absent, a
    pointer network is built and a tiny selfplay config is loaded."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['stable_baselines3'] = sys.modules['sb3_contrib'] = None\n"
            "from singapore_env.candidates import RULES_FEATURES\n"
            "from training.network.actor_critic import PointerActorCritic\n"
            "import training.loop.trainer, training.loop.rollout, training.loop.search\n"
            "PointerActorCritic(10, 6, [8], 'tanh', len(RULES_FEATURES), 5, 4)\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]


def _pointer_net(venv, seed: int = 0):
    from singapore_env.candidates import RULES_FEATURES
    from training.network.actor_critic import PointerActorCritic

    torch.manual_seed(seed)
    return PointerActorCritic(venv.obs_size, venv.num_actions, [16, 8], "tanh",
                              len(RULES_FEATURES), 112, 4)


@pytest.mark.skipif(not native_built(), reason="the native engine is not built here")
def test_the_pointer_networks_value_is_its_saved_value_heads_win_share():
    """PPO's value of the pointer network is the win share of the value head that its
    saved actor carries (what the lookahead reads); a new head is the smoothed
    projected-VP evaluation sigmoid(4 m)."""
    from agents.outcome import projected_margin
    from training.network.actor_critic import PointerActorCritic

    with VectorEnv(4, seed=5, engine="native") as venv:
        net = _pointer_net(venv)
        obs, mask, seat = venv.reset()
        for _ in range(29):    # into the game, where the projected VP differ
            obs, mask, seat = venv.step(np.array([np.flatnonzero(m)[0] for m in mask]))[:3]
        card, features, projected = venv.candidates(np.arange(4), net.n_features)
        full = np.concatenate([obs, projected], axis=1)
        index, value_in = sparse_rows(full, 256)
        with torch.no_grad():
            fresh = net.critic(to_csr(index, value_in, net.obs_size)).numpy()
        margin = projected_margin(projected)
        assert np.ptp(margin) > 0
        np.testing.assert_allclose(fresh, 1 / (1 + np.exp(-4 * margin)), rtol=1e-5)
        torch.nn.init.normal_(net.value_head.net[2].weight)    # a head that reads the state
        with torch.no_grad():
            value = net.critic(to_csr(index, value_in, net.obs_size)).numpy()
        actor = net.to_numpy()
        assert actor.has_value
        for row in range(4):
            win, _ = actor.outcome({"observation": obs[row], "projected_vp": projected[row]})
            assert win == pytest.approx(float(value[row]), abs=1e-5)
        again = PointerActorCritic.from_actor(actor)
        with torch.no_grad():
            np.testing.assert_allclose(again.critic(to_csr(index, value_in, net.obs_size)),
                                       value, atol=1e-6)
        # with vp_weight the value is the win share plus vp_weight times the margin, and
        # the saved actor says so (the lookahead scores with it)
        net.vp_weight = 0.5
        with torch.no_grad():
            summed = net.critic(to_csr(index, value_in, net.obs_size)).numpy()
        actor = net.to_numpy()
        assert actor.meta["vp_weight"] == 0.5
        for row in range(4):
            obs_row = {"observation": obs[row], "projected_vp": projected[row]}
            assert actor.value(obs_row, 0.5) == pytest.approx(float(summed[row]), abs=1e-5)
        assert PointerActorCritic.from_actor(actor).vp_weight == 0.5


@pytest.mark.skipif(not native_built(), reason="the native engine is not built here")
def test_lookahead_dir_plays_a_trained_pair_with_its_own_value_heads(tmp_path):
    from agents.lookahead import LookaheadPolicies

    with VectorEnv(1, engine="native") as venv:
        for seed, name in enumerate(("british", "malay")):
            _pointer_net(venv, seed).to_numpy().save(tmp_path / f"{name}.npz")
    agent = make_agent(f"lookahead:{tmp_path}", seed=3)
    assert isinstance(agent, LookaheadPolicies) and agent.name == f"lookahead:{tmp_path}"
    assert agent.values[0] is not agent.values[1]     # each faction's own head
    record = play_game(3, [agent, make_agent("heuristic"), agent, make_agent("heuristic")])
    assert record.final_scores
    with pytest.raises(ValueError, match="cannot load agent.*no policy file"):
        make_agent(f"lookahead:{tmp_path / 'missing'}")
