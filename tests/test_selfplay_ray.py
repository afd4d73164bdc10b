"""The self-play trainer's collection on Ray actors (``train --ray``): the blocks of
games send the rows the learner updates from; on a local cluster a run counts its
decisions as a run on one machine does."""

import csv

import numpy as np
import pytest
import torch
from click.testing import CliRunner

from agents.registry import make_agent
from arena.simulate import play_game
from singapore_app.cli import main
from singapore_env.vector import VectorEnv
from training.config import TrainConfig
from training.loop.ray_collect import BlockCollector, join, weights
from training.loop.rollout import Rollout
from training.loop.trainer import new_network, ppo_update

TINY = """seed = 1
num_games = 4
rollout_steps = 8
hidden = [16]
minibatch_size = 32
eval_games = 1
eval_every = 1000
past_self_share = 0.0
total_decisions = 64
"""


def test_blocks_play_with_the_learners_weights_and_send_every_learned_row():
    cfg = TrainConfig(num_games=4, rollout_steps=8, hidden=[16], past_self_share=0.0)
    probe = VectorEnv(1)
    size, n_actions = probe.obs_size, probe.num_actions
    torch.manual_seed(3)
    learners = [new_network(cfg, size, n_actions) for _ in range(2)]
    blocks = [BlockCollector(cfg, 2, seed, [new_network(cfg, size, n_actions) for _ in range(2)])
              for seed in (1, 2)]
    rollouts = [Rollout(cfg.num_games * cfg.rollout_steps, n_actions) for _ in range(2)]
    made = 0
    for block in blocks:
        rows, games, decisions = block.collect(cfg.rollout_steps,
                                               [weights(n) for n in learners], [[], []])
        assert games == 0  # no game ends in 8 steps
        made += decisions
        for net, mine in zip(learners, block.nets):
            for key, value in net.state_dict().items():
                assert torch.equal(value, mine.state_dict()[key])
        for rollout, part in zip(rollouts, rows):
            join(rollout, part)
    # no past self: every step of every game is a learner's decision, none is lost
    assert sum(r.n for r in rollouts) == made == cfg.num_games * cfg.rollout_steps
    first = blocks[0].collector.rollouts[0]
    np.testing.assert_array_equal(rollouts[0].index[:first.n], first.index[:first.n])
    np.testing.assert_array_equal(rollouts[0].advantage[:first.n], first.advantage[:first.n])
    opt = torch.optim.Adam(learners[0].parameters())
    stats = ppo_update(learners[0], opt, rollouts[0], cfg, np.random.default_rng(0))
    assert np.isfinite(stats["value_loss"])


def last_row(out):
    with open(out / "progress.csv", newline="") as fh:
        return list(csv.DictReader(fh))[-1]


@pytest.mark.slow
def test_a_run_on_a_local_ray_cluster_counts_decisions_as_one_on_this_machine(tmp_path):
    pytest.importorskip("ray")
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    runs = {}
    for name, extra in (("here", []), ("ray", ["--ray", "local"])):
        result = CliRunner().invoke(main, ["train", "--config", str(config), "--out",
                                           str(tmp_path / name), "--no-progress", *extra])
        assert result.exit_code == 0, result.output
        runs[name] = last_row(tmp_path / name)
    assert "collecting on 2 Ray actors (local): 2 + 2 games" in result.output
    for name in runs:  # 2 updates of 4 games x 8 steps, every decision a learner's
        assert (runs[name]["decisions"], runs[name]["updates"]) == ("64", "2")
    learned = make_agent(f"learned:{tmp_path}/ray/malay.npz")
    record = play_game(1, [make_agent("random"), make_agent("random"), learned, learned])
    assert record.final_scores


@pytest.mark.parametrize("address, words", [("127.0.0.1:1", "no Ray cluster answers"),
                                            ("host:port", "a Ray address is HOST:PORT")])
def test_a_ray_address_where_nothing_listens_is_a_usage_error_at_once(tmp_path, address,
                                                                      words):
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    result = CliRunner().invoke(main, ["train", "--config", str(config), "--out",
                                       str(tmp_path / "o"), "--ray", address, "--no-progress"])
    assert result.exit_code == 2 and words in result.output, result.output
