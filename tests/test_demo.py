"""The demo (``singapore-1819 demo``, the README's main job): a tiny self-play run of the
batched trainer and the report built on its outputs; its config and errors."""

import json

import pytest
from click.testing import CliRunner

from singapore_app import demo
from singapore_app.cli import main
from singapore_env import native
from singapore_env.native import NativeUnavailable
from training.config import CONFIG_DIR, load_config
from training.progress import read_progress

TINY = """seed = 1
num_games = 4
rollout_steps = 8
hidden = [16]
minibatch_size = 32
imitation_games = 1
imitation_epochs = 1
eval_games = 1
eval_every = 100
"""
#: The demo's own kind of run, tiny: the pointer network with search in the loop.
TINY_SEARCH = """seed = 1
engine = "native"
network = "pointer"
num_games = 4
rollout_steps = 8
hidden = [16]
embed_dim = 8
minibatch_size = 32
search_worlds = 1
target_temperature = 0.05
eval_games = 1
eval_every = 100
"""


def run_tiny_demo(tmp_path, config_text: str):
    """The demo of ``config_text`` for a second, one evaluation seed: its folder."""
    config = tmp_path / "tiny.toml"
    config.write_text(config_text)
    out = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--config", str(config), "--out", str(out),
                                       "--seconds", "1", "--games", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    return out


def test_the_demo_trains_by_self_play_and_reports_the_curve_and_the_matchups(tmp_path):
    out = run_tiny_demo(tmp_path, TINY)
    rows = read_progress(out / "train" / "progress.csv")
    assert len(rows) >= 2 and rows[0]["decisions"] == "0"
    report = (out / "report.md").read_text()
    learned = int(rows[-1]["decisions"])
    assert f"{learned:,} learned decisions" in report
    assert "imitates 1 games of `heuristic`" in report
    for row in rows:  # one line per evaluation of the run, each rate with its interval
        rate = f"| {100 * float(row['malay_vs_heuristic']):.1f}% ["
        line = f"| {int(row['decisions']):,} | {float(row['wall_s']):.0f} | "
        assert any(x.startswith(line) and rate in x and x.endswith("%] |")
                   for x in report.splitlines())
    assert "Against random players the curve " in report
    assert "## The shipped `learned:zero`'s curve over its hours" in report
    assert "| 10,405,272 | 2.56 | 100.0% | 90.0% | 100.0% | 55.0% |" in report
    assert "(curves.png)" in report and (out / "curves.png").exists()
    assert "(train/learning_curve.png)" in report and (out / "train/learning_curve.png").exists()
    assert "learned:train/british.npz" in report and (out / "faction_win_rates.png").exists()
    evaluation = json.loads((out / "evaluation.json").read_text())
    matchups = evaluation["matchups"]
    assert len(matchups) == 13
    assert {s["games"] for s in matchups.values()} == {2}  # one seed, swapped
    assert evaluation["training"]["decisions"] == learned
    assert {"learned British", "learned Malay", "learned:zero",
            "learned:zero-policy"} <= set(evaluation["ratings"])
    _check_the_learned_players_next_to_the_mirror(report, evaluation)


def _check_the_learned_players_next_to_the_mirror(report: str, evaluation: dict) -> None:
    """The run's networks and the shipped players, each faction against two heuristics,
    on the mirror's seed, in evaluation.json and in the report's table."""
    matchups, comparison = evaluation["matchups"], evaluation["against_the_mirror"]
    mirror = matchups[demo.MIRROR_MATCHUP]
    lines = report.splitlines()
    table = lines.index("## Learned players against the heuristic, next to the mirror")
    assert table < lines.index("## Faction win rates")
    assert "trained for hours" in lines[table + 2] and "docs/training.md" in lines[table + 2]
    for faction, shown in (("british", "British"), ("malay", "Malay")):
        mirror_rate = mirror["win_rate_by_faction"][faction]["rate"]
        assert comparison[faction]["mirror"]["rate"] == mirror_rate
        assert any(x.startswith(f"| {shown} | mirror (the heuristic) | {100 * mirror_rate:.1f}% [")
                   for x in lines[table:])
        for player in ("learned", "learned:zero", "learned:zero-policy"):
            name = (f"{player} British vs heuristic" if faction == "british"
                    else f"heuristic vs {player} Malay")
            seats = matchups[name]["players"]
            assert seats.count("heuristic") == 2 and seats[0 if faction == "british" else 2] \
                == (f"learned {shown}" if player == "learned" else player)
            if player != "learned" and native.available():  # the arena's default engine
                assert matchups[name]["engine"] == "native"
            row = comparison[faction][player]
            assert row["rate"] == matchups[name]["win_rate_by_faction"][faction]["rate"]
            paired = row["minus_mirror"]
            assert paired["seeds"] == 1  # paired on the mirror's one seed
            assert abs(paired["difference"] - (row["rate"] - mirror_rate)) < 1e-12
            label = ("this run's network (`learned:train/" if player == "learned"
                     else f"`{player}` (shipped)")
            line = next(x for x in lines[table:] if x.startswith(f"| {shown} | {label}"))
            assert f"| {100 * row['rate']:.1f}% [" in line
            assert line.endswith(f"| {100 * paired['difference']:+.1f} "
                                 f"[{100 * paired['ci95'][0]:+.1f}, "
                                 f"{100 * paired['ci95'][1]:+.1f}] |")


def test_the_demo_config_is_the_zero_recipe_on_the_native_engine_or_says_why_not(monkeypatch):
    """The demo trains learned:zero's recipe itself (zero.toml, which demo.toml extends):
    from random weights, only the evaluation cadence and the checkpoints differing."""
    said = []
    cfg = demo.demo_config(log=said.append)
    zero = load_config(CONFIG_DIR / "zero.toml").to_dict()
    changed = {k for k, v in cfg.to_dict().items() if zero[k] != v}
    assert changed <= {"eval_every", "checkpoint_every_s", "engine", "search_worlds",
                       "target_temperature", "search_after"}
    assert not cfg.init and cfg.network == "pointer" and cfg.eval_every < 100_000
    assert (cfg.engine == "native" and not changed - {"eval_every", "checkpoint_every_s"}) \
        or "Python engine instead" in said[0]

    def missing():
        raise NativeUnavailable("the native engine is not built here")

    monkeypatch.setattr(demo, "require", missing)
    said.clear()
    fallback = demo.demo_config(log=said.append)
    assert fallback.engine == "python" and fallback.search_worlds == 0  # (rollouts in C++)
    assert fallback.search_after == 0 and fallback.target_temperature == 0
    assert said == ["the native engine is not built here. The demo trains on the Python "
                    "engine instead (the same games, slower)."]


@pytest.mark.skipif(not native.available(), reason="the native engine is not built here")
def test_the_demos_report_says_the_search_chose_the_moves(tmp_path):
    out = run_tiny_demo(tmp_path, TINY_SEARCH)
    report = (out / "report.md").read_text()
    assert "From random weights, the British and the Malay policy learn at once, the main " \
           "Action question's moves chosen by the lookahead over their own networks (1 " \
           "sampled world an answer" in report
    assert int(read_progress(out / "train" / "progress.csv")[-1]["decisions"]) > 0


def test_the_demo_refuses_a_config_of_another_trainer_before_training(tmp_path):
    bridge = CONFIG_DIR / "sb3.toml"
    result = CliRunner().invoke(main, ["demo", "--config", str(bridge),
                                       "--out", str(tmp_path / "demo"), "--games", "1"])
    assert result.exit_code == 2 and "not a self-play config" in result.output
    assert not (tmp_path / "demo").exists()


@pytest.mark.skipif(not native.available(), reason="the native engine is not built here")
def test_a_short_seeded_run_of_the_demo_recipe_ends_above_its_start(tmp_path):
    """The main job's curve rises: the demo's recipe (zero.toml's) from random weights,
    a short seeded run (8 games, 4,000 learned decisions, evaluated at its start and its
    end on 8 seeds, seat-swapped) ends above its start against random players, the two
    factions' mean, and neither faction ends below its start."""
    from training.loop.trainer import train

    cfg = load_config(demo.DEMO_CONFIG, num_games=8, rollout_steps=32, total_decisions=4000,
                      eval_games=8, eval_every=10**9, seed=1)
    train(cfg, tmp_path, progress=False, log=lambda line: None)
    rows = read_progress(tmp_path / "progress.csv")
    first, last = rows[0], rows[-1]
    assert int(first["decisions"]) == 0 and int(last["decisions"]) >= 4000
    assert demo.random_mean(last) > demo.random_mean(first)
    for faction in ("british", "malay"):
        assert float(last[f"{faction}_vs_random"]) >= float(first[f"{faction}_vs_random"])
