"""Balance studies: mixes x variants x card data, on any number of workers (and Ray)."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from singapore_app.cli import main
from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine.state import VP_SOURCES
from singapore_app.study import Study, StudyError, Variant, summarize_study

BOT = '''
from agents import Agent

class FirstBot(Agent):
    def __init__(self, seed=None, pick: int = 0):
        self.pick = pick

    def choose(self, game, seat):
        legal = game.legal_decisions()
        return legal[min(self.pick, len(legal) - 1)]
'''


@pytest.fixture
def outside(tmp_path, cheap_cards):
    """A bot and an edited card file (``cards``) written outside the repository, and a
    study file."""
    (tmp_path / "bot.py").write_text(BOT)
    (tmp_path / "study.toml").write_text(f'''
games = 2
seed = 4
[mixes]
bots = "{tmp_path / 'bot.py'}:FirstBot:pick=1,random,random,random"
[[variant]]
name = "standard"
[[variant]]
name = "cheap cards, capped conflict VP"
set = {{conflict_vp_full_strength = false}}
data = "cards"
''')
    return tmp_path


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_study_file_gives_the_same_records_on_one_and_two_workers(outside):
    frames = []
    for workers in (1, 2):
        out = outside / f"w{workers}"
        result = _run("balance", outside / "study.toml", "--workers", workers, "--out", out,
                      "--format", "csv", "--no-progress")
        assert result.exit_code == 0, result.output
        frames.append(pd.read_csv(out / "records.csv"))
        assert (out / "report.md").exists() and (out / "win_rates.png").exists()
        assert (out / "differences.png").exists() and (out / "vp_sources.png").exists()
    pd.testing.assert_frame_equal(frames[0], frames[1])
    records = frames[0]
    assert len(records) == 2 * 2 * 2  # variants x seeds x (seats swapped)
    assert set(records["variant"]) == {"standard", "cheap cards, capped conflict VP"}
    for seat in SEAT_NAMES:
        sources = records[[f"vp_{seat}_{s}" for s in VP_SOURCES]].sum(axis=1)
        assert (sources == records[f"vp_{seat}"]).all()
    capped = records[records["variant"] != "standard"]
    assert (capped[[f"vp_{s}_conflict_excess" for s in SEAT_NAMES]] == 0).all().all()
    summary = json.loads((outside / "w1" / "summary.json").read_text())
    assert summary["schema"] == "singapore-1819-study/1" and len(summary["cells"]) == 2
    diff = summary["differences"][0]["win_rate_by_faction"]["british"]
    assert diff["ci95"][0] <= diff["difference"] <= diff["ci95"][1] and diff["seeds"] == 2
    excess = summary["differences"][0]["mean_vp_by_source"]["malay"]["conflict_excess"]
    assert excess["difference"] <= 0 and excess["ci95"][0] <= excess["difference"]


def test_mixes_on_the_command_line_may_be_named(outside):
    bot = f"{outside / 'bot.py'}:FirstBot:pick=1"
    result = _run("balance", "--players", f"mine={bot},random,random,random",
                  "--players", "heuristic:seed=3,random,random,random", "--games", 1,
                  "--out", outside / "o", "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads((outside / "o" / "summary.json").read_text())
    assert [c["mix"] for c in summary["cells"]] == ["mine", "heuristic:seed=3,random,random,random"]
    assert summary["cells"][0]["summary"]["players"][0] == bot


def test_the_command_line_study_compares_a_setting_with_the_baseline(tmp_path):
    result = _run("balance", "--players", "r=random,random,random,random", "--games", 2,
                  "--set", "outlaw_vp=5", "--out", tmp_path, "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [c["variant"] for c in summary["cells"]] == ["standard", "outlaw_vp=5"]
    assert summary["ratings"] == {}  # one agent on both sides: nothing to rate
    decree = [c["summary"]["mean_vp_by_source"]["british"]["decree"] for c in summary["cells"]]
    assert decree[1] > decree[0]
    assert "minus baseline" in result.output


@pytest.mark.parametrize("args,message", [
    (["--set", "war_cots=3"], "unknown rules setting(s) 'war_cots'; settings: slavery"),
    (["--set", "war_cost=-3"], "war_cost expects an integer >= 0"),
    (["--set", "spoils_sharing=never"], "must be one of mandatory, optional"),
    (["--data", "/nonexistent/cards"], "does not exist"),
    (["--players", "random,random,random,nope.py:Bot"], "agent file 'nope.py' does not exist"),
    (["--players", "random,random,random"], "expected 4 comma-separated"),
])
def test_bad_study_arguments_are_usage_errors(tmp_path, args, message):
    for command in ("balance", "simulate"):
        result = _run(command, "--games", 1, *args, *(["--out", tmp_path] if command == "balance" else []))
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output


def test_a_bad_study_file_is_a_usage_error(tmp_path):
    path = tmp_path / "s.toml"
    for text, message in (("games = [", "not valid TOML"),
                          ("gamez = 3", "unknown key(s) ['gamez']"),
                          ('[[variant]]\nname = "x"\nset = {war_cots = 1}', "war_cots"),
                          ('[mixes]\nm = "random,random"', "needs four agent specs")):
        path.write_text(text)
        result = _run("balance", path, "--out", tmp_path / "o")
        assert result.exit_code == 2, result.output
        assert message in result.output


@pytest.mark.slow
def test_a_study_runs_on_a_local_ray_cluster():
    ray = pytest.importorskip("ray")
    study = Study({"random": ("random",) * 4},
                  [Variant("standard"), Variant("v", settings={"outlaw_vp": 4})], games=2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = study.run(ray_address="local")
    finally:
        ray.shutdown()
    assert on_ray == study.run()
    assert summarize_study(study, on_ray)["games"] == 8


def test_study_checks_its_parts():
    with pytest.raises(StudyError, match="variant names must differ"):
        Study({"r": ("random",) * 4}, [Variant("a"), Variant("a")]).check()
    with pytest.raises(StudyError, match="unknown agent 'chess'"):
        Study({"r": ("chess",) * 4}, [Variant("a")]).check()


def test_a_game_on_edited_cards_replays_with_its_data_folder(outside):
    saved = outside / "game.json"
    result = _run("simulate", "--games", 1, "--data", outside / "cards", "--save", saved)
    assert result.exit_code == 0, result.output
    result = _run("replay", saved, "--data", outside / "cards", "--snapshot")
    assert result.exit_code == 0 and "Winners:" in result.output, result.output
    result = _run("replay", saved)
    assert result.exit_code == 2 and "played with other cards" in result.output
