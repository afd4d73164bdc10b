"""One training config class under training/, one vocabulary for the one trainer and its
two bridges: every shipped config loads as the run it names, every shipped network has
its recipe, and a key that run does not read is refused by name."""

import ast
import dataclasses
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from singapore_app.cli import main
from training.config import (BACKENDS, CONFIG_DIR, KEYS, TrainConfig, TrainConfigError,
                             load_config)

TRAINING = Path(__file__).resolve().parents[1] / "training"
#: The kind of run of each shipped config.
SHIPPED = {"demo.toml": "selfplay", "selfplay.toml": "selfplay", "zero.toml": "selfplay",
           "zero_continue.toml": "selfplay", "zero_anneal.toml": "selfplay",
           "zero_league.toml": "selfplay", "sb3.toml": "sb3", "rllib.toml": "rllib"}


def test_there_is_one_config_class_under_training():
    found = []
    for path in TRAINING.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Config") and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list):
                found.append(f"{path.relative_to(TRAINING)}:{node.name}")
    assert found == ["config/__init__.py:TrainConfig"]


def test_one_trainer_and_two_bridges_in_at_most_fifty_keys():
    assert BACKENDS == ("selfplay", "sb3", "rllib") and set(KEYS) == set(BACKENDS)
    assert len(dataclasses.fields(TrainConfig)) <= 50
    every_key = {f.name for f in dataclasses.fields(TrainConfig)} - {"backend"}
    assert every_key == {k for keys in KEYS.values() for k in keys}
    for path in CONFIG_DIR.glob("*.toml"):
        assert not re.search(r"dagger|lookahead_value|expert", path.read_text()), path.name


def test_every_shipped_config_is_the_run_it_names():
    from singapore_env import native

    assert {p.name for p in CONFIG_DIR.glob("*.toml")} == set(SHIPPED)
    for name, kind in SHIPPED.items():
        path = CONFIG_DIR / name
        if 'engine = "native"' in path.read_text() and not native.available():
            continue
        cfg = load_config(path)
        assert cfg.kind == kind, name
        assert set(cfg.to_dict()) - {"backend"} == set(KEYS[kind])


def test_every_shipped_network_has_its_recipe():
    policies = TRAINING.parent / "agents" / "policies"
    assert not list(policies.glob("*.npz")), "a loose network file in agents/policies/"
    for folder in (p for p in policies.iterdir() if p.is_dir()):
        assert (CONFIG_DIR / f"{folder.name}.toml").exists(), folder.name
        assert load_config(CONFIG_DIR / f"{folder.name}.toml").kind == "selfplay"


def test_the_default_run_is_selfplay_and_defaults_follow_the_run():
    assert load_config(None).kind == "selfplay"
    selfplay, sb3 = TrainConfig(), TrainConfig(backend="sb3")
    assert (selfplay.minibatch_size, selfplay.workers, selfplay.league) == (1024, 0, [])
    assert (sb3.minibatch_size, sb3.rollout_steps, sb3.league) == (256, 512, ["heuristic"])


@pytest.mark.parametrize("text, words", [
    ('phases = 3\n', "unknown training config keys ['phases']"),
    ('backend = "sb3"\nsearch_worlds = 1\n',
     "a run of kind 'sb3' does not read the keys ['search_worlds']"),
    ('backend = "rllib"\nimitation_games = 3\n',
     "a run of kind 'rllib' does not read the keys ['imitation_games']"),
    ('algorithm = "expert"\n', "the 'expert' trainer was retired; its role: the search "
                                "in the loop"),
    ('algorithm = "dagger"\n', "the 'dagger' trainer was retired"),
    ('backend = "native"\n', "backend 'native' is gone"),
    ('backend = "torch"\n', "unknown backend 'torch'"),
    ('n_epochs = 3\n', "unknown training config keys ['n_epochs']"),
    ('backend = "sb3"\nreward_mode = "gold"\n', "unknown reward_mode 'gold'"),
])
def test_a_key_the_run_does_not_read_is_refused_by_name(tmp_path, text, words):
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(TrainConfigError) as refused:
        load_config(path)
    assert words in str(refused.value)
    result = CliRunner().invoke(main, ["train", "--config", str(path), "--out",
                                       str(tmp_path / "out")])
    assert result.exit_code == 2 and words in " ".join(result.output.split())


def test_the_backend_option_overrides_the_config_s(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('reward_mode = "win"\n')   # a bridge's key: refused by the loop
    with pytest.raises(TrainConfigError, match="kind 'selfplay' does not read"):
        load_config(path)
    assert load_config(path, backend="sb3").kind == "sb3"
    result = CliRunner().invoke(main, ["train", "--config", str(path), "--out",
                                       str(tmp_path / "o"), "--backend", "selfplay"])
    assert result.exit_code == 2 and "'reward_mode'" in result.output
    result = CliRunner().invoke(main, ["train", "--config", str(CONFIG_DIR / "sb3.toml"),
                                       "--out", str(tmp_path / "o"), "--ray", "local"])
    assert result.exit_code == 2 and "--ray: the sb3 backend" in result.output


def test_a_config_extends_another_and_replaces_only_its_own_keys(tmp_path):
    """``extends = "OTHER.toml"`` (relative to the file): the other file's keys, this
    file's replacing them; a circle of extends is an error, not a hang."""
    from training.config import load_config

    (tmp_path / "base.toml").write_text('num_games = 16\nseed = 3\n')
    (tmp_path / "child.toml").write_text('extends = "base.toml"\nseed = 4\n')
    cfg = load_config(tmp_path / "child.toml")
    assert (cfg.num_games, cfg.seed) == (16, 4)
    (tmp_path / "a.toml").write_text('extends = "b.toml"\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\n')
    with pytest.raises(TrainConfigError, match="goes round in a circle"):
        load_config(tmp_path / "a.toml")
    (tmp_path / "lost.toml").write_text('extends = "nowhere.toml"\n')
    with pytest.raises(TrainConfigError, match="no such config file"):
        load_config(tmp_path / "lost.toml")
