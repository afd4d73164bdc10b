"""Which engine the arena plays on when none is named: native where the module is built
and every player sits at a native game, else python, said once on stderr when
Python-only players decided it; the engine named in the summaries and a Parquet file's
metadata, never in the per-game records, which are the same on both engines."""

import json

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from arena.runner import Table, play_tables, run_engine, run_tournament
from arena.simulate import default_engine
from singapore_app.cli import main
from singapore_env import native
from singapore_env.engine.config import RulesConfig

needs_native = pytest.mark.skipif(not native.available(),
                                  reason="the native engine is not built here")
BOT = "examples/my_bot.py:MyBot"
FALLBACK = "playing on the python engine: "


@pytest.fixture
def no_native(monkeypatch):
    """The compiled module made unavailable, as on a machine without a compiler."""
    monkeypatch.setattr(native.loading, "_native", None)
    monkeypatch.setattr(native.loading, "_MISSING", "ImportError: no module named _native")


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@needs_native
def test_the_default_is_native_when_every_player_sits_there():
    assert default_engine(["random", "learned:zero-policy", "random", "learned:zero"],
                          [RulesConfig.named("simulation")]) == ("native", [])
    assert default_engine(["random", BOT, "random", BOT]) == ("python", [BOT])
    tables = [Table(("random",) * 4), Table(("random", "random", BOT, "random"))]
    assert run_engine(tables[:1]) == "native"
    assert run_engine(tables) == "python"  # one engine for the whole run
    assert run_engine(tables, "python") == "python"
    assert run_tournament(1, ["random"] * 4, seed=3)["engine"] == "native"


def test_without_the_module_the_default_is_python(no_native):
    assert default_engine(["random"] * 4) == ("python", [])  # nothing to name
    assert run_tournament(1, ["random"] * 4, seed=3)["engine"] == "python"


@needs_native
def test_a_python_only_player_is_said_once_and_the_games_play_on(tmp_path):
    result = _run("simulate", "--players", f"random,{BOT},random,{BOT}", "--games", 2,
                  "--no-progress", "--json", tmp_path / "s.json")
    assert result.exit_code == 0, result.output
    assert result.stderr == f"{FALLBACK}{BOT} has no native twin\n"
    assert "seed 1, python engine" in result.stdout
    assert json.loads((tmp_path / "s.json").read_text())["engine"] == "python"
    # evaluate: one engine and one line for its games and its mirror's
    result = _run("evaluate", "--british", BOT, "--malay", "random", "--mirror",
                  "--games", 1, "--no-progress")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(FALLBACK) and BOT in result.stderr
    assert result.stderr.count("\n") == 1
    assert "python engine" in result.stdout


@needs_native
def test_an_explicit_native_engine_with_a_python_only_bot_is_a_usage_error():
    result = _run("simulate", "--players", f"random,{BOT},random,random", "--games", 1,
                  "--engine", "native", "--no-progress")
    assert result.exit_code == 2, result.output
    assert f"cannot sit: {BOT} (play them on the python engine)" in result.output


@needs_native
def test_records_are_the_same_on_both_engines_and_the_files_name_the_engine(tmp_path):
    players = "random,learned:zero-policy,learned:zero-policy,random"
    frames = {}
    for engine in (None, "python"):  # the default is native here
        name = engine or "default"
        args = ["simulate", "--players", players, "--games", 2, "--seed", 8, "--no-progress",
                "--records", tmp_path / f"{name}.parquet", "--json", tmp_path / f"{name}.json"]
        result = _run(*args, *(["--engine", engine] if engine else []))
        assert result.exit_code == 0, result.output
        assert result.stderr == ""  # nothing to say: every player sits at a native game
        played = engine or "native"
        assert json.loads((tmp_path / f"{name}.json").read_text())["engine"] == played
        assert pq.read_schema(tmp_path / f"{name}.parquet").metadata[b"engine"] == \
            played.encode()
        frames[played] = pd.read_parquet(tmp_path / f"{name}.parquet")
    assert not any("engine" in c or "second" in c or "time" in c for c in frames["native"])
    assert len(frames["native"]) == 2
    pd.testing.assert_frame_equal(frames["native"], frames["python"])


@needs_native
def test_ladder_and_balance_take_an_engine_and_name_it(tmp_path):
    result = _run("ladder", "--agents", "random", "--games", 1, "--no-progress",
                  "--engine", "python", "--json", tmp_path / "ladder.json")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "ladder.json").read_text())["engine"] == "python"
    assert "python engine" in result.stdout and result.stderr == ""
    result = _run("balance", "--players", "random,random,random,random", "--games", 1,
                  "--no-progress", "--out", tmp_path / "study")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "study" / "summary.json").read_text())["engine"] == "native"
    assert pq.read_schema(tmp_path / "study" / "records.parquet").metadata[b"engine"] == \
        b"native"
    assert "on the native engine" in (tmp_path / "study" / "report.md").read_text()


def test_without_the_module_the_commands_play_on_python(no_native, tmp_path):
    result = _run("simulate", "--games", 2, "--no-progress", "--json", tmp_path / "s.json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""  # the module decided it, not a player
    assert json.loads((tmp_path / "s.json").read_text())["engine"] == "python"
    result = _run("balance", "--players", "random,random,random,random", "--games", 1,
                  "--no-progress", "--out", tmp_path / "study")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "study" / "summary.json").read_text())["engine"] == "python"
    result = _run("simulate", "--games", 1, "--engine", "native", "--no-progress")
    assert result.exit_code == 2 and "is not built here" in result.output


@needs_native
def test_on_the_default_python_engine_the_lookahead_thinks_on_native_copies(monkeypatch):
    """A Python-only bot keeps the games on the Python engine; ``learned:zero`` then
    thinks on native copies of the positions (the same records as the reference run,
    ``engine="python"``, where it thinks on the Python game)."""
    from_game, copied = native.NativeGame.from_game, []

    def counted(game):
        copied.append(len(game.history))
        return from_game(game)

    monkeypatch.setattr(native.NativeGame, "from_game", counted)
    tables = [Table(("learned:zero", BOT, "random", BOT))]
    default = play_tables(tables, 1, 12)
    assert copied  # its decisions were asked on copies
    n_copies = len(copied)
    assert play_tables(tables, 1, 12, engine="python") == default
    assert len(copied) == n_copies  # none in the reference run


@needs_native
def test_one_agent_plays_on_either_engine_in_turn():
    """Runs of one process may play on different engines (each its default): an agent
    object that read candidate features of native games reads them of Python games
    next, and back (the same games both ways)."""
    from agents.registry import make_agent
    from arena.simulate import play_game

    agents = [make_agent("learned:zero-policy"), "random", "random", "random"]
    results = [play_game(3, agents, engine=engine)
               for engine in ("native", "python", "native")]
    assert results[0] == results[1] == results[2]
