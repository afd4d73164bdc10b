"""Training end to end on a tiny budget, checkpoints, evaluation output, agents' legality."""

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent, NumpyPolicy
from agents.random_agent import RandomAgent
from singapore_app.cli import main
from arena.simulate import play_game
from training.config import TrainConfig, TrainConfigError, load_config
from arena.evaluate import run_matchup
from arena.summary import openskill_ratings
from training.imitation import ImitationSettings, collect, pretrain, split_by_game
from training.bridges.sb3 import PoolAgent, make_env_fn, Pools, opponent_pool, train

TINY = dict(backend="sb3", phases=2, timesteps_per_phase=512, num_games=2, rollout_steps=256,
            minibatch_size=128, epochs=1, eval_games=2, imitation_games=2, imitation_epochs=1,
            hidden=[32, 32])


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
    ppo_log = (run_dir / "ppo" / "phase1_malay" / "progress.csv").read_text().splitlines()
    assert "time/total_timesteps" in ppo_log[0] and len(ppo_log) >= 2   # SB3's own logger


def test_checkpoint_reproduces_the_same_actions(run_dir):
    from sb3_contrib import MaskablePPO
    from arena.faction_env import FactionEnv

    model = MaskablePPO.load(run_dir / "checkpoints" / "british_phase0.zip", device="cpu")
    numpy_agent = LearnedAgent.load(run_dir / "checkpoints" / "british_phase0.npz")
    from training.bridges.export import load_sb3_actor

    zip_agent = LearnedAgent(load_sb3_actor(run_dir / "checkpoints" / "british_phase0.zip"))
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
    ratings = openskill_ratings(result.records)
    assert ratings["heuristic"]["mu"] > ratings["random"]["mu"]


def test_pool_agent_draws_a_new_player_each_episode():
    pool = PoolAgent([(0.5, RandomAgent), (0.5, HeuristicAgent)], seed=0)
    kinds = set()
    for s in range(20):
        pool.reset(s)
        kinds.add(type(pool.current).__name__)
    assert kinds == {"RandomAgent", "HeuristicAgent"}


def _env_of(cfg, faction="british", frozen=()):
    pools = Pools(list(frozen), list(frozen))
    return make_env_fn(cfg, faction, pools, rank=0, phase=0)()


def test_faction_mate_is_what_the_config_says(run_dir):
    policy = NumpyPolicy.load(run_dir / "british.npz")
    env = _env_of(TrainConfig(**TINY))                       # default: the learner itself
    env.reset(seed=1)
    assert env.learning_seats == (0, 1)
    env = _env_of(TrainConfig(**{**TINY, "partner": "frozen_self"}))
    env.reset(seed=1)                                          # no frozen policy yet
    assert env.learning_seats in ((0,), (1,)) and isinstance(env._partner, HeuristicAgent)
    env = _env_of(TrainConfig(**{**TINY, "partner": "frozen_self"}), frozen=[policy])
    assert isinstance(env._partner, LearnedAgent) and env._partner.policy is policy


def test_opponents_are_drawn_as_a_pair_in_the_configured_mix(run_dir):
    policy = NumpyPolicy.load(run_dir / "malay.npz")
    env = _env_of(TrainConfig(**{**TINY, "past_self_share": 0.3, "heuristic_share": 0.7}),
                  frozen=[policy])
    pool = env._controllers[2]
    assert env._controllers[3] is pool                         # one draw for both seats
    kinds = []
    for s in range(400):
        pool.reset(s)
        kinds.append(type(pool.current).__name__)
    assert "RandomAgent" not in kinds
    assert 0.62 < kinds.count("HeuristicAgent") / 400 < 0.78
    assert pool.current.deterministic if isinstance(pool.current, LearnedAgent) else True
    # Without frozen policies yet, the frozen share goes to the heuristic pair.
    empty = opponent_pool(TrainConfig(**TINY), [], seed=0)
    assert [type(f()).__name__ for _, f in empty.choices] == ["HeuristicAgent"]


def test_imitation_holds_out_whole_games_and_reports_agreement():
    data = collect("malay", 6, seed=3)
    train_part, held_out = split_by_game(data, 0.34, np.random.default_rng(0))
    assert len(train_part) + len(held_out) == len(data)
    assert not set(train_part.games) & set(held_out.games) and len(set(held_out.games)) == 2
    assert set(data.questions) >= {"place_leader", "actions"}


def test_pretrain_learns_and_dagger_adds_the_learners_states():
    from sb3_contrib import MaskablePPO
    from arena.faction_env import FactionEnv

    model = MaskablePPO("MlpPolicy", FactionEnv("british"), n_steps=64, batch_size=64,
                        policy_kwargs={"net_arch": [32, 32]}, device="cpu", seed=0)
    settings = ImitationSettings(games=4, epochs=8, holdout=0.25, dagger_rounds=1,
                                 dagger_games=2)
    history = pretrain(model, "british", settings, seed=1, log=lambda _: None)
    assert [h["round"] for h in history] == [0, 1]
    assert history[1]["train_samples"] > history[0]["train_samples"]
    held = history[-1]["held_out"]
    assert held["samples"] > 0 and 0.3 < held["overall"] <= 1   # well above chance
    assert set(held["by_question"]) >= {"actions"}


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


def test_bad_training_config_is_a_clear_error(tmp_path):
    with pytest.raises(TrainConfigError, match="unknown training config keys"):
        load_config(None, learning_rat=0.1)
    with pytest.raises(TrainConfigError, match="unknown partner 'me'; known: self"):
        TrainConfig(backend="sb3", partner="me")
    with pytest.raises(TrainConfigError, match="imitation_holdout"):
        TrainConfig(backend="sb3", imitation_holdout=1.0)
    with pytest.raises(TrainConfigError, match="candidate_prior must be"):
        TrainConfig(backend="sb3", network="pointer", candidate_prior="oracle")
    with pytest.raises(TrainConfigError, match="pointer network only"):
        TrainConfig(backend="sb3", network="flat", candidate_prior="heuristic")
    bad = tmp_path / "bad.toml"
    bad.write_text("phases = [")
    with pytest.raises(TrainConfigError, match="not valid TOML"):
        load_config(bad)


SHIPPED_CONFIGS = sorted((Path(__file__).parents[1] / "training" / "configs").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED_CONFIGS, ids=lambda p: p.name)
def test_every_shipped_training_config_loads(path):
    """Each file of training/configs loads as the kind of run its ``backend`` and
    ``algorithm`` keys pick: rllib.toml as an RLlib run (no Ray needed to read it)."""
    from singapore_env import native

    if path.name == "rllib.toml":
        cfg = load_config(path)
        assert cfg.kind == "rllib" and cfg.iterations * cfg.train_batch_size == 1_200_000  # the measured run
    elif 'init = "runs/' in path.read_text():  # starts from another config's run
        with pytest.raises(TrainConfigError, match="init: no pointer actor"):
            load_config(path)
    elif 'engine = "native"' in path.read_text() and not native.available():
        with pytest.raises(TrainConfigError, match="not built here"):
            load_config(path)   # a config on the native engine says why it can't run
    else:
        load_config(path)  # raises TrainConfigError on an unknown key or a bad value


@pytest.mark.parametrize("prior", ["", "heuristic"])
def test_pointer_policy_trains_and_its_numpy_actor_plays_the_same(tmp_path, prior):
    from sb3_contrib import MaskablePPO
    from agents.pointer_actor import PointerActor
    from arena.faction_env import FactionEnv

    out = tmp_path / "ptr"
    train(TrainConfig(**{**TINY, "phases": 1, "network": "pointer", "embed_dim": 8,
                         "candidate_prior": prior}), out, progress=False, log=lambda _: None)
    model = MaskablePPO.load(out / "checkpoints" / "british_phase0.zip", device="cpu")
    assert model.policy.candidate_prior == (prior or None)
    actor = NumpyPolicy.load(out / "british.npz")
    assert isinstance(actor, PointerActor)
    assert actor.meta.get("candidate_prior") == (prior or None)
    assert NumpyPolicy.load(out / "checkpoints" / "british_imitation.npz").meta["phase"] == \
        "imitation"
    agent = LearnedAgent(actor)
    env = FactionEnv("british", candidates=True, candidate_prior=prior or None)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        mask = env.action_masks()
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert agent.act(obs, mask) == int(expected)
        obs, _, done, truncated, _ = env.step(int(expected))
        if done or truncated:
            obs, _ = env.reset(seed=4)
    result = play_game(1, [agent, agent, HeuristicAgent(), HeuristicAgent()])  # engine level
    assert result.round == 8
    with pytest.raises(ValueError, match="candidate features"):
        agent.act({"observation": obs["observation"]}, env.action_masks())


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
