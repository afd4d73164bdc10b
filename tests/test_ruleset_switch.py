"""One ruleset switch everywhere: engine, env, faction env, training config, CLI, saves."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from singapore_env import env as make_env
from singapore_app.cli import main
from singapore_env.engine.config import RULESETS, ConfigError, RulesConfig
from singapore_env.engine import Game
from arena.faction_env import FactionEnv
from training.config import TrainConfig, TrainConfigError


@pytest.mark.parametrize("ruleset", RULESETS)
def test_env_plays_and_saves_the_ruleset(ruleset):
    e = make_env(ruleset=ruleset)
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = e.unwrapped.game
    assert game.cfg.ruleset == ruleset
    saved = json.loads(e.unwrapped.save())
    assert saved["config"]["ruleset"] == ruleset
    assert Game.from_json(e.unwrapped.save()).cfg.ruleset == ruleset


@pytest.mark.parametrize("ruleset", RULESETS)
def test_faction_env_and_training_config_take_the_ruleset(ruleset):
    fe = FactionEnv(faction="malay", ruleset=ruleset)
    fe.reset(seed=1)
    assert fe.raw.game.cfg.ruleset == ruleset
    cfg = TrainConfig(backend="sb3", ruleset=ruleset)
    assert cfg.rules() == RulesConfig.named(ruleset)


def test_bad_ruleset_is_refused_everywhere():
    with pytest.raises(ConfigError, match="unknown ruleset 'bogus'"):
        make_env(ruleset="bogus")
    with pytest.raises(ValueError, match="contradicts"):
        make_env(config=RulesConfig.standard(), ruleset="bogus")
    with pytest.raises(TrainConfigError, match="unknown ruleset 'bogus'"):
        TrainConfig(ruleset="bogus")
    runner = CliRunner()
    for command in (["simulate"], ["play"], ["evaluate"], ["train"], ["demo"]):
        result = runner.invoke(main, command + ["--ruleset", "bogus"])
        assert result.exit_code == 2, command
        assert "bogus" in result.output and "standard" in result.output


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cli_evaluate_and_simulate_play_the_ruleset(ruleset, tmp_path):
    runner = CliRunner()
    result = runner.invoke(main, ["evaluate", "--british", "random", "--malay", "random",
                                  "--games", "1", "--no-swap", "--ruleset", ruleset])
    assert result.exit_code == 0, result.output
    assert f"ruleset {ruleset}" in result.output
    out = tmp_path / "s.json"
    result = runner.invoke(main, ["simulate", "--games", "2", "--ruleset", ruleset,
                                  "--no-progress", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["ruleset"] == ruleset
