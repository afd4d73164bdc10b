"""The trainer of learned:pure's value networks (training/lookahead_value.py)."""

import numpy as np
import pytest
from click.testing import CliRunner

from agents import make_agent
from agents.learned import load_value_nets
from agents.net_layout import layout_meta
from agents.lookahead import LookaheadPolicies
from agents.pointer_actor import VALUE_KEYS
from singapore_app.cli import main as cli
from singapore_env.engine import Game
from training.config import load_config
from training.config_base import TrainConfigError
from training.config import TrainConfig
from training.lookahead_value import Positions, job_seed, play, train


def _config(**keys) -> TrainConfig:
    base = dict(algorithm="lookahead_value", seed=90, iterations=2, games=2, job_games=1,
                explore=0.5, lookahead_rollout=False, epochs=1, minibatch_size=64, workers=1)
    return TrainConfig(**{**base, **keys})


def test_positions_are_the_seat_s_view_after_its_answer_with_the_outcome():
    positions = play("agents/policies/pure", "agents/policies/rerank", 1, 31, 2, 0.5, False)
    assert len(positions) > 20 and set(positions.games) == {31, 32}
    dense = np.asarray(positions.observations)
    assert dense.shape == (len(positions), 5146) and (dense != 0).sum(1).min() > 20
    win, margin = positions.outcomes.T
    assert set(win) <= {0.0, 0.5, 1.0} and (np.abs(margin) <= 1).all()
    for seed in (31, 32):             # one outcome per game and faction
        assert len(set(map(tuple, positions.outcomes[positions.games == seed]))) == 1
    again = play("agents/policies/pure", "agents/policies/rerank", 1, 31, 2, 0.5, False)
    np.testing.assert_array_equal(np.asarray(again.observations), dense)


def test_a_run_writes_value_networks_that_the_lookahead_plays_and_does_not_depend_on_workers(
        tmp_path):
    train(_config(iterations=1), tmp_path / "one", log=lambda _: None)
    train(_config(iterations=1, workers=2), tmp_path / "two", log=lambda _: None)
    for name in ("british", "malay"):
        one, two = (np.load(tmp_path / run / f"{name}.npz") for run in ("one", "two"))
        for key in ("w0", *VALUE_KEYS):
            np.testing.assert_array_equal(one[key], two[key])
        assert "query_w" not in one.files          # the trunk and the value head only
        rows = Positions.load(tmp_path / "one" / "round1" / f"{name}.rows.npz")
        assert set(rows.games) == {job_seed(_config(), 1, ("british", "malay").index(name), j)
                                   for j in (0, 1)}
    values = load_value_nets(tmp_path / "one")
    assert values[0].meta == {"value_only": True, "faction": "british",
                              "trainer": "lookahead_value", "round": 1,
                              **layout_meta()}  # (the layout it was trained on)
    agent = LookaheadPolicies(make_agent("learned:pure-policy"), values)
    game = Game(8)
    while not game.is_over:
        game.step(agent.choose(game, game.acting_seat))


def test_a_run_goes_on_from_its_files_and_refuses_another_config(tmp_path):
    """The second round plays with the first round's networks; an interrupted run redoes
    only what is missing."""
    out, logged = tmp_path / "run", []
    train(_config(games=1), out, log=logged.append)
    assert logged[0].endswith("from agents/policies/rerank")
    assert logged[3].endswith(f"from {out / 'round1'}")
    first = (out / "malay.npz").stat().st_mtime_ns
    with pytest.raises(TrainConfigError, match="another configuration"):
        train(_config(games=1, epochs=2), out, log=lambda _: None)
    lines = (out / "progress.csv").read_text().splitlines()
    (out / "round2" / "british.npz").unlink()     # an interrupted fit: only it is redone
    logged.clear()
    train(_config(games=1), out, log=logged.append)
    assert len(logged) == 1 and logged[0].startswith("round 2 british")
    assert (out / "progress.csv").read_text().splitlines()[:5] == lines
    assert (out / "malay.npz").stat().st_mtime_ns != first   # the copies are refreshed


@pytest.mark.parametrize("keys, message", [
    ({"student": "nowhere"}, "no policy file"),
    ({"student": "agents/policies"}, "reads a heuristic prior"),
    ({"init": "agents/policies/pure"}, "has no value head"),
    ({"explore": 1.5}, "explore"),
    ({"games": 0}, "games must be >= 1"),
    ({"games": 100_001}, "games must be <= 100,000"),
])
def test_a_bad_config_is_refused_by_name(keys, message):
    with pytest.raises(TrainConfigError, match=message):
        _config(**keys)


def test_the_cli_trains_a_lookahead_value_config_and_rejects_other_options(tmp_path):
    config = tmp_path / "v.toml"
    config.write_text('algorithm = "lookahead_value"\niterations = 1\ngames = 1\nepochs = 1\n'
                      'workers = 1\n')
    assert load_config(config).kind == "lookahead_value"
    runner = CliRunner()
    bad = runner.invoke(cli, ["train", "--config", str(config), "--timesteps", "2"])
    assert bad.exit_code == 2
    assert "--timesteps: not an option of a run of kind 'lookahead_value'" in bad.output
    result = runner.invoke(cli, ["train", "--config", str(config), "--out",
                                 str(tmp_path / "out"), "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "held-out cross-entropy" in result.output
    assert (tmp_path / "out" / "british.npz").exists()
