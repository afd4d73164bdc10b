"""One training config class under training/, one vocabulary: every shipped config
loads as the run it names, and a key that run does not read is refused by name."""

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner

from singapore_app.cli import main
from training.config import CONFIG_DIR, KEYS, TrainConfig, TrainConfigError, load_config

TRAINING = Path(__file__).resolve().parents[1] / "training"
#: The kind of run of each shipped config.
SHIPPED = {"demo.toml": "selfplay", "selfplay.toml": "selfplay", "zero.toml": "selfplay",
           "expert.toml": "expert",
           "expert_tiny.toml": "expert", "rerank.toml": "expert",
           "rerank_malay.toml": "expert", "pure_dagger.toml": "dagger", "pure_ei.toml": "dagger",
           "pure_ei_soft.toml": "dagger",
           "pure_value.toml": "lookahead_value", "pure.toml": "sb3",
           "reference.toml": "sb3", "sb3.toml": "sb3", "rllib.toml": "rllib"}


def test_there_is_one_config_class_under_training():
    found = []
    for path in TRAINING.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Config") and any(
                    "dataclass" in ast.unparse(d) for d in node.decorator_list):
                found.append(f"{path.relative_to(TRAINING)}:{node.name}")
    assert found == ["config.py:TrainConfig"]


def test_every_shipped_config_is_the_run_it_names():
    from singapore_env import native

    assert {p.name for p in CONFIG_DIR.glob("*.toml")} == set(SHIPPED)
    for name, kind in SHIPPED.items():
        path = CONFIG_DIR / name
        if 'init = "runs/' in path.read_text():   # starts from another config's run
            with pytest.raises(TrainConfigError, match="init: no pointer actor"):
                load_config(path)
            continue
        if 'engine = "native"' in path.read_text() and not native.available():
            continue
        cfg = load_config(path)
        assert cfg.kind == kind, name
        assert set(cfg.to_dict()) - {"backend", "algorithm"} == set(KEYS[kind])


def test_the_default_run_is_native_selfplay_and_defaults_follow_the_run():
    assert load_config(None).kind == "selfplay"
    selfplay, dagger = TrainConfig(), TrainConfig(algorithm="dagger", teacher="heuristic")
    assert (selfplay.learning_rate, selfplay.minibatch_size, selfplay.workers) == (3e-4, 1024, 0)
    assert (dagger.learning_rate, dagger.minibatch_size, dagger.workers) == (1e-4, 256, 2)


@pytest.mark.parametrize("text, words", [
    ('phases = 3\n', "a run of kind 'selfplay' does not read the keys ['phases']"),
    ('backend = "sb3"\nalgorithm = "selfplay"\n',
     "a run of kind 'sb3' does not read the keys ['algorithm']"),
    ('backend = "rllib"\nimitation_games = 3\n',
     "a run of kind 'rllib' does not read the keys ['imitation_games']"),
    ('algorithm = "expert"\nteacher = "heuristic"\n',
     "a run of kind 'expert' does not read the keys ['teacher']"),
    ('algorithm = "ppo"\n', "unknown algorithm 'ppo'"),
    ('backend = "torch"\n', "unknown backend 'torch'"),
    ('n_epochs = 3\n', "unknown training config keys ['n_epochs']"),
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
    path.write_text("phases = 1\n")   # an sb3 key: refused as native, read as sb3
    with pytest.raises(TrainConfigError, match="kind 'selfplay' does not read"):
        load_config(path)
    assert load_config(path, backend="sb3").kind == "sb3"
    result = CliRunner().invoke(main, ["train", "--config", str(path), "--out",
                                       str(tmp_path / "o"), "--backend", "native"])
    assert result.exit_code == 2 and "'phases'" in result.output
    result = CliRunner().invoke(main, ["train", "--config", str(CONFIG_DIR / "expert_tiny.toml"),
                                       "--out", str(tmp_path / "o"), "--phases", "2"])
    assert result.exit_code == 2
    assert "--phases: not an option of a run of kind 'expert'" in result.output


def test_train_backend_sb3_trains_briefly_and_its_policies_play_as_learned(tmp_path):
    out = tmp_path / "sb3"
    result = CliRunner().invoke(main, [
        "train", "--backend", "sb3", "--config", str(CONFIG_DIR / "sb3.toml"),
        "--out", str(out), "--phases", "2", "--timesteps", "256", "--no-progress"])
    assert result.exit_code == 0, result.output
    played = CliRunner().invoke(main, [
        "simulate", "--players", f"learned:{out / 'british.npz'},random,"
        f"learned:{out / 'malay.npz'},random", "--games", "1", "--no-progress"])
    assert played.exit_code == 0, played.output
    assert "games per second" in played.output


def test_a_config_extends_another_and_replaces_only_its_own_keys(tmp_path):
    """``extends = "OTHER.toml"`` (relative to the file): the other file's keys, this
    file's replacing them; a circle of extends is an error, not a hang."""
    from training.config import load_config

    (tmp_path / "base.toml").write_text('algorithm = "selfplay"\nnum_games = 16\nseed = 3\n')
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
