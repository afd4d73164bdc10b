"""learned:zero's training (training/configs/zero.toml): the pointer network in the
batched self-play trainer on the native engine (its numpy actor scores as it does, it
reads no prior's scores), the league (prioritized past selves, agent specs), and a tiny
run of the shipped config end to end: progress.csv, resume, playable actors."""

import csv
import re
from pathlib import Path

import numpy as np
import pytest
import torch
from click.testing import CliRunner

from agents.learned import NumpyPolicy
from agents.pointer_actor import PointerActor
from agents.registry import make_agent
from arena.simulate import play_game
from singapore_app.cli import main
from singapore_env import native
from singapore_env.candidates import CandidateEncoder, RULES_FEATURES
from singapore_env.native.encoding import native_encoder_for
from singapore_env.vector import VectorEnv
from training.config import load_config
from training.loop.league import pfsp_weights
from training.network.actor_critic import ActorCritic
from training.network.rows import to_csr
from training.loop.rollout import Collector
from training.loop.trainer import load_actor, new_network

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

ZERO = Path(__file__).resolve().parents[1] / "training" / "configs" / "zero.toml"
TINY = {"num_games": "4", "rollout_steps": "8", "hidden": "[16]", "embed_dim": "8",
        "minibatch_size": "64", "eval_games": "1", "pool_every": "2",
        "past_self_share": "0.4", "league_share": "0.3"}


def tiny_zero(path: Path) -> Path:
    """zero.toml with the tiny values of TINY (every key of TINY is in zero.toml)."""
    text = ZERO.read_text()
    for key, value in TINY.items():
        text, n = re.subn(rf"^{key} = .*$", f"{key} = {value}", text, flags=re.M)
        assert n == 1, key
    path.write_text(text)
    return path


def zero_config(**overrides):
    return load_config(ZERO, **{"hidden": [16], "embed_dim": 8, **overrides})


def random_steps(venv, steps: int, rng) -> None:
    _, mask, _ = venv.reset()
    for _ in range(steps):
        _, mask, _, _, _ = venv.step(np.array([rng.choice(np.flatnonzero(m)) for m in mask]))


def test_zero_reads_rules_facts_only_and_meets_no_heuristic():
    cfg = load_config(ZERO)
    assert cfg.network == "pointer" and cfg.engine == "native" and not cfg.init
    assert not cfg.imitation_games
    assert not any("heuristic" in spec for spec in cfg.league)
    assert "prior_score" not in RULES_FEATURES and "prior_gap" not in RULES_FEATURES
    net = new_network(cfg, VectorEnv(1).obs_size, VectorEnv(1).num_actions)
    assert net.n_features == len(RULES_FEATURES)


def test_the_pointer_networks_numpy_actor_scores_legal_actions_as_it_does():
    torch.manual_seed(0)
    with VectorEnv(3, seed=5, engine="native") as venv:
        random_steps(venv, 40, np.random.default_rng(1))
        net = new_network(zero_config(), venv.obs_size, venv.num_actions)
        c = Collector(venv, [net, net], np.random.default_rng(0), 0.0, 4)
        c.obs, c.mask, c.seat = venv.obs, venv.mask, venv.seat
        acted = c._act(net, np.arange(3))
        index, value, legal, candidates = acted.index, acted.value_in, acted.legal, acted.candidates
        with torch.no_grad():
            logits, _ = net(to_csr(index, value, net.obs_size), legal, candidates)
        actor = net.to_numpy()
        assert isinstance(actor, PointerActor)
        for slot in range(3):
            game, seat = venv.game(slot), int(venv.seat[slot])
            enc = native_encoder_for(game.c, game.cfg)
            obs = {"observation": enc.encode(game, seat),
                   **CandidateEncoder.for_observations(enc).encode(game, seat)}
            dense = actor.logits(obs)
            acts = legal[slot][legal[slot] != net.n_actions]
            np.testing.assert_allclose(logits[slot, :len(acts)].numpy(), dense[acts],
                                       rtol=1e-4, atol=1e-4)


def test_a_learners_moves_and_values_from_its_native_twin_are_the_networks():
    shipped = Path(__file__).resolve().parents[1] / "agents" / "policies" / "zero" / "malay.npz"
    with VectorEnv(8, seed=7, engine="native") as venv:
        net = new_network(zero_config(hidden=[256, 256], embed_dim=32), venv.obs_size,
                          venv.num_actions)
        load_actor(net, shipped)
        c = Collector(venv, [net, net], np.random.default_rng(0), 0.0, 4)
        random_steps(venv, 53, np.random.default_rng(3))
        c.obs, c.mask, c.seat = venv.obs, venv.mask, venv.seat
        twin = c._twins(False)[0]
        assert twin is not None
        rows = np.arange(8)
        c.rng = np.random.default_rng(1)
        native_pass = c._act(net, rows, twin)
        c.rng = np.random.default_rng(1)
        torch_pass = c._act(net, rows)
    legal = native_pass.legal[:, :native_pass.logits.shape[1]] != net.n_actions
    assert legal.sum(axis=1).min() >= 1 and (~legal).any()
    np.testing.assert_allclose(native_pass.logits[legal], torch_pass.logits[legal],
                               rtol=1e-4, atol=1e-4)
    assert (native_pass.logits[~legal] == torch_pass.logits[~legal]).all()
    np.testing.assert_allclose(native_pass.values, torch_pass.values, rtol=1e-5, atol=1e-5)
    assert len(set(native_pass.values.round(3))) > 1     # a trained value head, not a constant
    assert (native_pass.choice == torch_pass.choice).all()
    for name in ("index", "value_in", "legal"):
        assert (getattr(native_pass, name) == getattr(torch_pass, name)).all()


def test_the_native_policy_pass_refuses_what_it_cannot_read():
    from agents.native_nets import native_actor

    twin = native_actor(NumpyPolicy.load(
        Path(__file__).resolve().parents[1] / "agents" / "policies" / "zero" / "british.npz"))
    d, a = twin._net.obs_size, twin.n_actions
    obs, projected = np.zeros((2, d), np.float32), np.zeros((2, 4), np.float32)
    cards, features = np.zeros((2, 3), np.float32), np.zeros((2, 3, 4), np.float32)
    good = np.array([[5, 9, a], [7, a, a]])
    logits, outcome = twin.policy(obs, projected, good, cards, features, -1e9)
    assert logits.shape == (2, 3) and outcome.shape == (2, 2)
    assert logits[0, 2] == logits[1, 1] == logits[1, 2] == -1e9 and logits[0, 0] != -1e9
    with pytest.raises(ValueError, match="row 1 has an action after its padding"):
        twin.policy(obs, projected, np.array([[5, 9, a], [a, 7, a]]), cards, features, -1e9)
    with pytest.raises(ValueError, match="positions 0 to 1: .*action outside the table"):
        twin.policy(obs, projected, np.array([[5, a + 3, a], [7, a, a]]), cards, features, -1e9)
    with pytest.raises(ValueError, match="candidate card 900"):
        twin.policy(obs, projected, good, np.full((2, 3), 900, np.float32), features, -1e9)
    with pytest.raises(ValueError, match=r"legal: expected an array of shape \(2, 1"):
        twin.policy(obs, projected, good[:1], cards, features, -1e9)
    flat = native_actor(NumpyPolicy([(np.zeros((d, 4), np.float32), np.zeros(4, np.float32))],
                                    (np.zeros((4, a), np.float32), np.zeros(a, np.float32)),
                                    "tanh"))
    with pytest.raises(ValueError, match="a pointer policy with a value head only"):
        flat._net.policy(obs, projected, good.astype(np.int32), cards, features, -1e9)


def test_the_pointer_network_starts_from_a_shipped_pointer_actor():
    shipped = Path(__file__).resolve().parents[1] / "agents" / "policies" / "zero" / "malay.npz"
    actor = NumpyPolicy.load(shipped)
    with VectorEnv(1, seed=9, engine="native") as venv:
        random_steps(venv, 30, np.random.default_rng(2))
        net = new_network(zero_config(hidden=[256, 256], embed_dim=32), venv.obs_size,
                          venv.num_actions)
        load_actor(net, shipped)
        game, seat = venv.game(0), int(venv.seat[0])
    enc = native_encoder_for(game.c, game.cfg)
    obs = {"observation": enc.encode(game, seat),
           **CandidateEncoder.for_observations(enc).encode(game, seat)}
    legal = np.flatnonzero(obs["candidate_features"][:, 0])
    np.testing.assert_allclose(net.to_numpy().logits(obs)[legal], actor.logits(obs)[legal],
                               rtol=1e-5, atol=1e-4)
    from training.config.base import TrainConfigError

    with pytest.raises(TrainConfigError, match="shape"):
        load_actor(new_network(zero_config(), venv.obs_size, venv.num_actions), shipped)


def test_pfsp_weighs_past_selves_by_their_wins_against_the_learner():
    assert pfsp_weights([[0, 0.0], [4, 4.0], [4, 0.0]], 0) == []
    w = pfsp_weights([[0, 0.0], [4, 4.0], [4, 0.0]], 2.0)
    assert w == pytest.approx([0.25, (5 / 6) ** 2, (1 / 6) ** 2])


def test_the_collector_draws_past_selves_by_weight_counts_their_results_and_plays_league():
    torch.manual_seed(0)
    venv = VectorEnv(4, seed=3, engine="native")
    nets = [ActorCritic(venv.obs_size, venv.num_actions, [8]) for _ in range(2)]
    c = Collector(venv, nets, np.random.default_rng(2), 0.6, 8, league=["random"],
                  league_share=0.3)
    pool = [ActorCritic(venv.obs_size, venv.num_actions, [8]) for _ in range(2)]
    c.pool = [pool, pool]
    c.pool_ids = [[7, 8], [7, 8]]
    c.pool_weights = [[1.0, 0.0], [1.0, 0.0]]  # never the second
    kinds, games = set(), 0
    while games < 12:
        c.collect(8)
        games += c.games_played
        c.games_played = 0
        for key in c.controller[c.controller >= 0].tolist():
            player = c.players[key]
            kinds.add(type(player).__name__)
            if isinstance(player, ActorCritic):
                assert player is pool[0]
    c.close()
    assert kinds == {"ActorCritic", "RandomAgent"}
    assert set(c.results) == {7}
    played, wins = c.results[7]
    assert played >= 1 and 0 <= wins <= played


def test_zero_toml_trains_writes_progress_resumes_and_exports_playable_actors(tmp_path):
    config, out = tiny_zero(tmp_path / "zero.toml"), tmp_path / "run"

    def train():
        return CliRunner().invoke(main, ["train", "--config", str(config), "--out", str(out),
                                         "--seconds", "1", "--no-progress"])

    first = train()
    assert first.exit_code == 0, first.output
    with open(out / "progress.csv", newline="") as fh:
        done = list(csv.DictReader(fh))
    assert {"decisions", "wall_s", "british_vs_random", "british_vs_heuristic",
            "malay_vs_random", "malay_vs_heuristic", "mirror_british",
            "mirror_malay"} <= set(done[0])
    assert done[0]["decisions"] == "0" and int(done[-1]["decisions"]) > 0
    assert (out / "learning_curve.png").exists()
    second = train()
    assert second.exit_code == 0 and "resuming" in second.output, second.output
    with open(out / "progress.csv", newline="") as fh:
        more = list(csv.DictReader(fh))
    assert more[:len(done)] == done
    assert int(more[-1]["decisions"]) > int(done[-1]["decisions"])
    assert float(more[-1]["wall_s"]) > float(done[-1]["wall_s"])
    player = make_agent(f"learned:{out}/malay.npz")
    assert isinstance(player.policy, PointerActor)
    record = play_game(4, [make_agent("random"), make_agent("random"), player, player])
    assert record.decisions > 0 and record.final_scores


@pytest.mark.parametrize("overrides, words", [
    ({"network": "wide"}, "network must be"),
    ({"league": ["nobody"]}, "league:"),
    ({"league": [], "league_share": 0.1}, "needs agent specs"),
    ({"league_share": 0.9, "past_self_share": 0.2}, "at most 1"),
    ({"pfsp_power": -1.0}, "pfsp_power"),
    ({"imitation_games": 2}, "flat network only"),
])
def test_bad_league_and_network_keys_are_config_errors(overrides, words):
    from training.config.base import TrainConfigError

    with pytest.raises(TrainConfigError, match=words):
        load_config(ZERO, **overrides)


def test_the_vector_envs_candidate_keys_are_the_same_on_both_engines():
    rng = np.random.default_rng(4)
    envs = [VectorEnv(3, seed=9, engine=e) for e in ("python", "native")]
    for venv in envs:
        venv.reset()
    for _ in range(25):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in envs[0].mask])
        for venv in envs:
            venv.step(actions)
    python, native_ = (venv.candidates([0, 2]) for venv in envs)
    assert python[1].shape == (2, envs[0].num_actions, len(RULES_FEATURES))
    assert python[1][:, :, 0].sum() > 0  # the legal actions are there
    for a, b in zip(python, native_):
        np.testing.assert_array_equal(a, b)
    game = envs[1].game(2)
    assert game.acting_seat == envs[1].seat[2]
    for venv in envs:
        venv.close()
