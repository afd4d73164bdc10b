"""The singapore-1819 command line (click's CliRunner, no subprocess)."""

import json

import pytest

from click.testing import CliRunner

from singapore_app.cli import main
from singapore_env.engine import Game


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_version():
    result = _run("--version")
    assert result.exit_code == 0 and "singapore-1819" in result.output


def test_simulate_writes_json_summary(tmp_path):
    out = tmp_path / "summary.json"
    result = _run("simulate", "--games", 20, "--seed", 3, "--json", out, "--no-progress")
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text())
    for key in ("schema", "games", "mean_vp_by_seat", "mean_vp_by_source", "facts",
                "games_per_second", "win_rate_by_seat", "win_rate_by_faction",
                "win_rate_by_agent", "mean_decisions_per_game", "seed", "players", "ruleset"):
        assert key in summary
    assert summary["games"] == 20 and summary["players"] == ["random"] * 4
    assert abs(sum(r["wins"] for r in summary["win_rate_by_faction"].values()) - 20) < 1e-9
    assert set(summary["win_rate_by_faction"]) == {"british", "malay"}
    for word in ("lieutenant_governor", "sultan", "british", "malay", "95% CI",
                 "mean decisions per game", "games per second"):
        assert word in result.output


def test_simulate_no_slavery(tmp_path):
    out = tmp_path / "s.json"
    result = _run("simulate", "--games", 3, "--no-slavery", "--json", out)
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["slavery"] is False


def test_save_then_replay(tmp_path):
    path = tmp_path / "game.json"
    result = _run("simulate", "--games", 2, "--seed", 5, "--save", path)
    assert result.exit_code == 0, result.output
    game = Game.from_json(path.read_text())
    assert game.is_over
    for flag in ("--from-log", "--snapshot"):
        result = _run("replay", path, flag)
        assert result.exit_code == 0, result.output
        assert "Final" in result.output and "Winners:" in result.output
        assert f"#{len(game.history)} " in result.output


def test_replay_of_an_unfinished_game(tmp_path):
    g = Game(1)
    for _ in range(10):
        g.step(g.legal_decisions()[-1])
    path = tmp_path / "mid.json"
    path.write_text(g.to_json())
    result = _run("replay", path, "--snapshot")
    assert result.exit_code == 0, result.output
    assert "Not finished" in result.output


def test_replay_of_a_garbage_file(tmp_path):
    path = tmp_path / "garbage.json"
    path.write_text("this is not a saved game")
    result = _run("replay", path)
    assert result.exit_code == 2
    assert "cannot replay" in result.output and "not JSON" in result.output
    assert "Traceback" not in result.output


def test_replay_errors_are_one_line(tmp_path):
    g = Game(2)
    g.step(g.legal_decisions()[0])
    good = json.loads(g.to_json())
    cases = {
        "version": dict(good, version=9),
        "history": dict(good, history=[[0, 0, 0]]),
        "illegal": dict(good, history=[[22, 0]]),
        "config": dict(good, config=["ruleset"]),           # engine leaks ValueError
        "config_type": dict(good, config={"first_round_income": "3"}),  # leaks TypeError
        "snapshot": dict(good, state=dict(good["state"], vp=[9, 9, 9, 9])),
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        result = _run("replay", path, "--snapshot")
        assert result.exit_code == 2, (name, result.output)
        assert result.output.startswith("error: cannot replay"), (name, result.output)
        assert len(result.output.strip().splitlines()) == 1, (name, result.output)
    missing = _run("replay", tmp_path / "nope.json")
    assert missing.exit_code == 2 and "No such file" in missing.output


def test_bad_players_is_a_usage_error():
    for players, message in (("random,random", "expected 4 comma-separated"),
                             ("random,random,random,random,random", "expected 4"),
                             ("random,random,chess,random", "unknown agent 'chess'")):
        result = _run("simulate", "--games", 1, "--players", players)
        assert result.exit_code == 2, result.output
        assert "Invalid value for '--players'" in result.output
        assert message in result.output
        assert "known agents:" in result.output or "expected" in message


def test_python_dash_m_runs_every_command():
    import subprocess
    import sys

    for module in ("singapore_app", "singapore_app.cli"):
        out = subprocess.run([sys.executable, "-m", module, "ladder", "--help"],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and "ladder" in out.stdout, out.stderr


def test_an_unwritable_output_is_refused_before_any_game(tmp_path):
    for command in (["simulate", "--games", "1"], ["evaluate", "--games", "1"],
                    ["ladder", "--agents", "random", "--games", "1"]):
        for option in ("--json", "--save", "--plot"):
            if option == "--save" and command[0] != "simulate":
                continue
            if option == "--plot" and command[0] == "simulate":
                continue
            result = CliRunner().invoke(main, command + [option, "/nonexistent/dir/out.x"])
            assert result.exit_code == 2, (command, option, result.output)
            assert "is not a writable folder" in result.output
            assert "games per second" not in result.output  # nothing was played


def test_a_missing_optional_package_is_a_clear_usage_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "openskill", None)  # its import raises ModuleNotFoundError
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # even if imported before
    result = CliRunner().invoke(main, ["evaluate", "--games", "1", "--no-swap"])
    assert result.exit_code == 2
    assert "needs the optional package 'openskill'" in result.output
    assert "[train]" in result.output
    assert "Traceback" not in result.output


def test_a_missing_rllib_extra_is_a_clear_usage_error(monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "ray.rllib", None)  # its import raises ModuleNotFoundError
    loaded = [n for n in sys.modules if n.startswith(("ray.rllib.", "training.bridges.rllib"))]
    for name in loaded:  # imported by an earlier test of this process
        monkeypatch.delitem(sys.modules, name)
    result = CliRunner().invoke(main, ["train", "--backend", "rllib", "--out", tmp_path,
                                       "--seconds", "1"])
    assert result.exit_code == 2
    assert "pip install 'singapore-1819[rllib]'" in result.output
    assert "Traceback" not in result.output


BAD_INPUTS = [
    ("replay", "{missing}"),
    ("replay", "{deep}"),
    ("replay", "{binary}", "--snapshot"),
    ("replay", "{folder}"),
    ("simulate", "--games", "-1"),
    ("simulate", "--seed", "-4"),
    ("simulate", "--games", "1", "--players", "learned:/nonexistent.npz,random,random,random"),
    ("simulate", "--games", "1", "--players", "mcts:iters=99999999999999,random,random,random"),
    ("simulate", "--games", "1", "--players", "mcts:seconds=inf,random,random,random"),
    ("simulate", "--games", "1", "--players", "heuristic:war_margin=nan,random,random,random"),
    ("simulate", "--games", "1", "--players", "random,random"),
    ("simulate", "--games", "1", "--save", "{missing}/x.json"),
    ("evaluate", "--games", "1", "--british", "bogus"),
    ("ladder", "--games", "1", "--agents", ",,"),
    ("play", "--opponents", "learned:/nonexistent.npz"),
    ("train", "--out", "{file}/sub", "--phases", "1"),
    ("balance", "--games", "1", "--out", "{file}/sub"),
    ("train", "--config", "{broken_toml}"),
    ("demo", "--config", "{broken_toml}", "--out", "{folder}/demo", "--games", "1"),
]


@pytest.mark.parametrize("args", BAD_INPUTS, ids=lambda a: " ".join(a)[:60])
def test_bad_input_is_a_usage_error_without_traceback(tmp_path, args):
    files = {"missing": tmp_path / "missing", "deep": tmp_path / "deep.json",
             "binary": tmp_path / "binary.json", "folder": tmp_path / "folder",
             "file": tmp_path / "file.txt", "broken_toml": tmp_path / "broken.toml"}
    files["deep"].write_text("[" * 100000 + "]" * 100000)
    files["binary"].write_bytes(b"\xff\xfe\x00")
    files["folder"].mkdir()
    files["file"].write_text("x")
    files["broken_toml"].write_text("x = [")
    result = _run(*[a.format(**files) for a in args])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output and isinstance(result.exception, SystemExit)
    assert "Error" in result.output or "cannot" in result.output


def test_cards_export_copies_the_data_for_editing_and_refuses_to_overwrite(tmp_path):
    """``cards export DIR`` writes the shipped data files; an edited copy plays with
    ``--data DIR`` (its content digest differs); a second export into DIR changes
    nothing and exits 2."""
    from singapore_env.engine.content import DATA_DIR, load_content

    folder = tmp_path / "my_cards"
    result = CliRunner().invoke(main, ["cards", "export", str(folder)])
    assert result.exit_code == 0, result.output
    shipped = sorted(p.name for p in DATA_DIR.glob("*.toml"))
    assert sorted(p.name for p in folder.iterdir()) == shipped
    assert all((folder / n).read_bytes() == (DATA_DIR / n).read_bytes() for n in shipped)
    cards = folder / "cards.toml"
    cards.write_text(cards.read_text() + "\n# edited\n")
    assert load_content(folder).digest != load_content(DATA_DIR).digest
    played = CliRunner().invoke(main, ["simulate", "--games", "1", "--no-progress",
                                       "--data", str(folder)])
    assert played.exit_code == 0, played.output
    again = CliRunner().invoke(main, ["cards", "export", str(folder)])
    assert again.exit_code == 2 and "already holds" in again.output
    assert cards.read_text().endswith("# edited\n")


def test_the_mirror_may_be_any_agent_for_a_head_to_head(tmp_path):
    """``--mirror-agent B``: the mirror is four B on the same seeds, so the difference
    is how much more A's faction wins against B than B's own faction does."""
    out = tmp_path / "h2h.json"
    result = _run("evaluate", "--british", "heuristic", "--malay", "random", "--mirror",
                  "--mirror-agent", "random", "--games", 3, "--seed", 4, "--json", out,
                  "--no-progress")
    assert result.exit_code == 0, result.output
    assert "mirror (random x4)" in result.output
    summary = json.loads(out.read_text())
    alone = _run("evaluate", "--british", "random", "--malay", "random", "--games", 3,
                 "--seed", 4, "--json", tmp_path / "four.json", "--no-progress")
    assert alone.exit_code == 0, alone.output
    four = json.loads((tmp_path / "four.json").read_text())["win_rate_by_faction"]
    assert summary["mirror_agent"] == "random"
    assert summary["mirror"]["british"]["rate"] == four["british"]["rate"]
    assert summary["minus_mirror"]["british"]["difference"] > 0   # heuristic beats random
    bad = _run("evaluate", "--mirror", "--mirror-agent", "bogus", "--games", 1)
    assert bad.exit_code == 2 and "bogus" in bad.output
