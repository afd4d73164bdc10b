"""The demo (``singapore-1819 demo``, the README's main job): a tiny self-play run of the
batched trainer and the report built on its outputs; its config and errors."""

import json

from click.testing import CliRunner

from singapore_app import demo
from singapore_app.cli import main
from singapore_env.native import NativeUnavailable
from training.progress import read_progress

TINY = """algorithm = "selfplay"
num_games = 4
rollout_steps = 8
hidden = [16]
minibatch_size = 32
imitation_games = 1
imitation_epochs = 1
eval_games = 1
eval_every = 100
"""


def test_the_demo_trains_by_self_play_and_reports_the_curve_and_the_matchups(tmp_path):
    config = tmp_path / "tiny.toml"
    config.write_text(TINY)
    out = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--config", str(config), "--out", str(out),
                                       "--seconds", "1", "--games", "1", "--no-expert",
                                       "--no-progress"])
    assert result.exit_code == 0, result.output
    rows = read_progress(out / "train" / "progress.csv")
    assert len(rows) >= 2 and rows[0]["decisions"] == "0"
    report = (out / "report.md").read_text()
    learned = int(rows[-1]["decisions"])
    assert f"{learned:,} learned decisions" in report
    assert "imitates 1 games of `heuristic`" in report
    for row in rows:  # one line per evaluation of the run
        rate = f"{100 * float(row['malay_vs_heuristic']):.1f}% |"
        line = f"| {int(row['decisions']):,} | {float(row['wall_s']):.0f} | "
        assert any(x.startswith(line) and x.endswith(rate) for x in report.splitlines())
    assert "(train/learning_curve.png)" in report and (out / "train/learning_curve.png").exists()
    assert "learned:train/british.npz" in report and (out / "faction_win_rates.png").exists()
    evaluation = json.loads((out / "evaluation.json").read_text())
    assert len(evaluation["matchups"]) == 9
    assert {s["games"] for s in evaluation["matchups"].values()} == {2}  # one seed, swapped
    assert evaluation["training"]["decisions"] == learned
    assert {"learned British", "learned Malay"} <= set(evaluation["ratings"])
    assert "Expert iteration" not in report


def test_the_demo_config_is_a_self_play_run_on_the_native_engine_or_says_why_not(monkeypatch):
    said = []
    cfg = demo.demo_config(log=said.append)
    assert cfg.imitation_games > 0 and cfg.eval_every < 100_000
    assert cfg.engine == "native" or "Python engine instead" in said[0]

    def missing():
        raise NativeUnavailable("the native engine is not built here")

    monkeypatch.setattr(demo, "require", missing)
    said.clear()
    assert demo.demo_config(log=said.append).engine == "python"
    assert said == ["the native engine is not built here. The demo trains on the Python "
                    "engine instead (the same games, slower)."]


def test_the_demo_refuses_a_config_of_another_trainer_before_training(tmp_path):
    expert = demo.EXPERT_DEMO_CONFIG
    result = CliRunner().invoke(main, ["demo", "--config", str(expert),
                                       "--out", str(tmp_path / "demo"), "--games", "1"])
    assert result.exit_code == 2 and "not a self-play config" in result.output
    assert not (tmp_path / "demo").exists()
