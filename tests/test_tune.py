"""``balance tune``: the search is reproducible and resumable, its files have their
shape, learned players that cannot read the varied rules are refused up front, and bad
arguments are usage errors (tiny seeds and trials: seconds)."""

import csv
import json

import pytest
from click.testing import CliRunner

from singapore_app.cli import main
from singapore_app.study import StudyError
from singapore_app.tune import Search, pareto_front
from singapore_app.tune_spec import TuneSpec, parse_knob

TINY = ["--rungs", "4,8", "--confirm-seeds", "6", "--confirm-best", "2",
        "--sensitivity-seeds", "4", "--no-progress"]
KNOBS = ["--knob", "outlaw_vp=2:12", "--knob", "conflict_vp_full_strength"]


def _run(*args):
    return CliRunner().invoke(main, ["balance", "tune", *map(str, args)])


def _trials(folder):
    with open(folder / "trials.csv") as fh:
        return list(csv.DictReader(fh))


def _search_columns(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A four-trial study run at once."""
    out = tmp_path_factory.mktemp("tune") / "whole"
    result = _run(*KNOBS, "--trials", 4, "--seed", 3, *TINY, "--out", out)
    assert result.exit_code == 0, result.output
    return out


def test_files_have_their_shape(whole):
    best = json.loads((whole / "best.json").read_text())
    assert list(best) == ["settings", "british", "ci95", "games", "confirmed"]
    assert set(best["settings"]) == {"outlaw_vp", "conflict_vp_full_strength"}
    assert best["ci95"][0] <= best["british"] <= best["ci95"][1]
    assert best["games"] == 12 and best["confirmed"] is False  # 6 seeds cannot show it
    rows = _trials(whole)
    assert len(rows) == 4 and rows[0]["outlaw_vp"] == "2"  # the standard rules first
    for row in rows:
        assert 2 <= int(row["outlaw_vp"]) <= 12
        assert float(row["british_low"]) <= float(row["british"]) <= float(row["british_high"])
        assert row["pruned"] in ("True", "False")
        assert int(row["games"]) == 2 * int(row["seeds"])
        assert (row["pruned"] == "True") == (int(row["seeds"]) == 4)
    report = (whole / "report.md").read_text()
    for heading in ("The found settings next to the standard ones", "Win rates on fresh seeds",
                    "VP by source and game length", "Pareto front", "The search",
                    "Parameter importance", "One knob at a time"):
        assert heading in report
    for figure in ("pareto.png", "history.png", "importance.png", "tornado.png",
                   "win_rates.png"):
        assert (whole / figure).stat().st_size > 0 and f"({figure})" in report
    assert "closest found" in report  # never "balanced" on 6 seeds


def test_the_same_seed_gives_the_same_trials_and_a_second_run_finishes_the_study(
        whole, tmp_path):
    out = tmp_path / "parts"
    first = _run(*KNOBS, "--trials", 2, "--seed", 3, *TINY, "--out", out)
    assert first.exit_code == 0, first.output
    assert len(_trials(out)) == 2
    second = _run(*KNOBS, "--trials", 4, "--seed", 3, *TINY, "--out", out)
    assert second.exit_code == 0, second.output
    assert "resuming: 2 of 4 trials already finished" in second.output
    assert _search_columns(_trials(out)) == _search_columns(_trials(whole))
    assert json.loads((out / "best.json").read_text()) == \
        json.loads((whole / "best.json").read_text())
    again = _run("--out", out, "--no-progress", "--confirm-seeds", 6, "--sensitivity-seeds", 4)
    assert again.exit_code == 0 and "resuming: 4 of 4" in again.output


def _spec(seed: int) -> TuneSpec:
    return TuneSpec([parse_knob("outlaw_vp=2:12"), parse_knob("conflict_vp_full_strength")],
                    seed=seed, trials=4, rungs=(4, 8))


def test_a_trial_left_unfinished_is_asked_again(whole, tmp_path):
    spec = _spec(3)
    search = Search(spec, tmp_path / "killed")
    search.study.ask()  # a run stopped in the middle of its first trial
    Search(spec, tmp_path / "killed").run()
    assert _search_columns(_trials(tmp_path / "killed")) == _search_columns(_trials(whole))


def test_a_different_seed_gives_other_trials(whole, tmp_path):
    Search(_spec(4), tmp_path / "s4").run()
    assert _search_columns(_trials(tmp_path / "s4")) != _search_columns(_trials(whole))


def test_another_study_in_the_same_folder_is_refused(whole):
    result = _run("--knob", "outlaw_vp=2:10", "--trials", 4, "--seed", 3, *TINY,
                  "--out", whole)
    assert result.exit_code == 2
    assert "holds another study (knobs differ)" in result.output


@pytest.mark.parametrize("args, message", [
    (["--players", "learned:zero,learned:zero,learned:zero,learned:zero",
      "--knob", "event_i_cards=2:5"], "learned:zero cannot read these games: with "
                                      "event_i_cards=2 the observation is 5145 values wide"),
    (["--confirm-with", "learned:zero", "--knob", "market_slots=4:6"],
     "with market_slots=4 the observation"),
])
def test_knobs_that_change_what_a_learned_player_reads_are_refused(tmp_path, args, message):
    result = _run(*args, "--out", tmp_path / "x")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "x").exists()  # refused before anything was written


def test_a_board_knob_that_changes_what_a_learned_player_reads_is_refused(tmp_path):
    result = _run("--players", "learned:zero,learned:zero,learned:zero,learned:zero",
                  "--knob", "board.max_ships=8:14", "--out", tmp_path / "x")
    assert result.exit_code == 2, result.output
    assert "with board.max_ships=8 the observation" in " ".join(result.output.split())
    assert not (tmp_path / "x").exists()


def test_knobs_a_learned_player_reads_alike_pass_the_check():
    TuneSpec([parse_knob("outlaw_vp=2:12"), parse_knob("actions_per_turn=2:3")],
             players=("learned:zero",) * 4).check()


@pytest.mark.parametrize("args, message", [
    (["--knob", "outlaw_points=2:9"], "unknown rules setting(s) 'outlaw_points'"),
    (["--knob", "outlaw_vp=9:2"], "LOW must be below HIGH, got '9:2'"),
    (["--knob", "outlaw_vp=a:b"], "a range is two integers LOW:HIGH, got 'a:b'"),
    (["--knob", "outlaw_vp"], "give its values, NAME=LOW:HIGH or NAME=a,b,c"),
    (["--knob", "outlaw_vp=2:9", "--knob", "outlaw_vp=3:4"], "a knob is named twice"),
    (["--knob", "spoils_sharing=mandatory,sometimes"], "spoils_sharing must be one of mandatory, optional, got 'sometimes'"),
    (["--knob", "outlaw_vp=2:9", "--target", "british=1.5"], "within 0..1, got 1.5"),
    (["--knob", "outlaw_vp=2:9", "--target", "malay=0.5"], "british=SHARE (e.g. british=0.5)"),
    (["--knob", "outlaw_vp=2:9", "--rungs", "8,4"], "rungs are increasing seed counts"),
    (["--knob", "outlaw_vp=2:9", "--constraint", "length=1:2"], "unknown constraint 'length'"),
    (["--knob", "outlaw_vp=2:9", "--players", "heuristic,heuristic"], "expected 4"),
    ([], "name the knobs"),
    (["--knob", "card.Cathedral.price=3:9"],
     "no card with id 'Cathedral' in cards.toml, folk_heroes.toml (the card named so has "
     "id 'cathedral')"),
    (["--knob", "card.cathedral.cost=3:9"], "card 'cathedral' has no field 'cost'; fields:"),
    (["--knob", "card.cathedral.name=3:9"], "a data knob names an integer; this is str"),
    (["--knob", "card.syed_omar_aljunied.price=3:9"],
     "a data knob names an integer; this is a table (keys: british, malay)"),
    (["--knob", "board.loop.B9.opens_at=0:3"], "no record with id or type 'B9' in the list"),
    (["--knob", "card.cathedral.price=a,b"], "a card-data number takes integers, got 'a,b'"),
    (["--knob", "card.cathedral.price=-2:9"],
     "with card.cathedral.price=-2 the card data is not valid: cards.toml: [[market]] "
     "'cathedral': field 'price': must be >= 0"),
])
def test_bad_arguments_exit_2_with_a_precise_message(tmp_path, args, message):
    result = _run(*args, "--out", tmp_path / "x")
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())


def test_a_study_file(tmp_path):
    (tmp_path / "study.toml").write_text('''
seed = 5
trials = 7
players = "heuristic,heuristic,random,random"
[objective]
margin = 0
[knobs]
outlaw_vp = "2:9"
leader_money = [1, 2, 4]
[constraints]
decisions = [100, 900]
vp_share.decree = [0.0, 0.2]
[confirm]
seeds = 50
with = "heuristic"
''')
    spec = TuneSpec.from_toml(tmp_path / "study.toml")
    spec.check()
    assert [k.text() for k in spec.knobs] == ["outlaw_vp=2:9", "leader_money=1,2,4"]
    assert (spec.objective, spec.target, spec.trials, spec.confirm_seeds) == ("margin", 0, 7, 50)
    assert spec.constraints == {"decisions": (100, 900), "vp_share.decree": (0.0, 0.2)}
    assert spec.change({"outlaw_vp": 9, "leader_money": 4}) == pytest.approx(1 + 1)
    (tmp_path / "bad.toml").write_text('[knobs]\noutlaw_vp = "2:9"\n[confirm]\nsead = 3\n')
    with pytest.raises(StudyError, match=r"unknown \[confirm\] key\(s\) \['sead'\]"):
        TuneSpec.from_toml(tmp_path / "bad.toml")


def test_the_pareto_front_keeps_the_smallest_change_for_each_level_of_balance():
    rows = [{"number": i, "settings": {"k": i}, "imbalance": imb, "change": ch}
            for i, (imb, ch) in enumerate([(0.15, 0.0), (0.05, 0.5), (0.08, 0.6),
                                           (0.01, 1.0), (0.01, 1.2)])]
    assert [r["number"] for r in pareto_front(rows)] == [0, 1, 3]


def test_more_seeds_for_a_rung_are_the_whole_runs_games():
    from arena.runner import Table, play_tables

    tables = [Table(("random",) * 4)]
    whole = play_tables(tables, 5, 9, swap=True)
    assert play_tables(tables, 5, 9, swap=True, first=3) == whole[6:]
    with pytest.raises(ValueError, match="need 0 <= first < n_games"):
        play_tables(tables, 5, 9, first=5)


CARD = ["--knob", "card.cathedral.price=3:9", "--knob", "board.port_bands.3.2=2:5"]


def test_a_card_data_knob_plays_its_edited_data(tmp_path):
    from arena.runner import Table, play_tables
    from singapore_env.engine.content import default_content, resolve_content

    spec = TuneSpec([parse_knob(CARD[1]), parse_knob(CARD[3])], workdir=str(tmp_path))
    spec.check()
    assert spec.standard() == {"card.cathedral.price": 7, "board.port_bands.3.2": 3}
    settings = {"card.cathedral.price": 9, "board.port_bands.3.2": 5}
    config, folder = spec.game(settings)
    assert folder.startswith(str(tmp_path / "data")) and spec.game(settings)[1] == folder
    content, shipped = resolve_content(folder), default_content()
    cathedral = content.by_key["cathedral"][0]
    assert shipped.defs[cathedral].price == (7, 7) and content.defs[cathedral].price == (9, 9)
    assert shipped.board.port_bands[3] == (4, 5, 3, 1) and content.board.port_bands[3] == (4, 5, 5, 1)
    assert spec.change(settings) == pytest.approx(2 / 6 + 2 / 3)
    (record,) = play_tables([Table(("heuristic",) * 4, config, folder)], 1, 7)
    assert record["decisions"] > 0


def test_a_study_file_names_card_data_knobs_quoted_or_dotted():
    import tomllib

    raw = tomllib.loads('[knobs]\n"card.cathedral.price" = "3:9"\n'
                        'board.max_ships = { low = 10, high = 12 }\n')
    spec = TuneSpec.from_dict(raw)
    assert [k.text() for k in spec.knobs] == ["card.cathedral.price=3:9",
                                              "board.max_ships=10:12"]


def test_a_card_data_study_is_reproducible(tmp_path):
    runs = []
    for name in ("a", "b"):
        result = _run(*CARD, "--trials", 3, "--seed", 4, *TINY, "--out", tmp_path / name)
        assert result.exit_code == 0, result.output
        runs.append(_search_columns(_trials(tmp_path / name)))
        assert len(list((tmp_path / name / "data").iterdir())) >= 2  # one folder a setting
    assert runs[0] == runs[1]
    assert runs[0][0]["card.cathedral.price"] == "7" and runs[0][0]["board.port_bands.3.2"] == "3"
