"""The README's examples run as written from a clone: its commands, its Python block and
the example bots in ``examples/``.

Game counts and search budgets shrink (``--games 1``, ``iters=1``, ``seconds=0.001``, a
search cut after one round) so that every command runs in seconds; everything else
(paths, agents, options) is the README's text. Long runs and interactive commands
(``train``, ``demo``, ``serve``, ``play``) have their own tests; a command that reads what
one of them writes is left out with it. The README stays short (at most 8,500 bytes).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from singapore_app.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
#: What the README's relative paths name, seen from the folder a command runs in.
CLONE_PATHS = ("examples", "docs", "training")
NOT_RUN = {"train", "demo", "serve", "play"}
PLAYING = {"simulate", "evaluate", "ladder", "balance"}


def blocks(language: str) -> list[str]:
    """The README's fenced code blocks of ``language``."""
    return re.findall(rf"```{language}\n(.*?)```", README, flags=re.S)


def readme_commands() -> list[list[str]]:
    """Every ``singapore-1819`` command of the README's shell blocks, as arguments."""
    return [shlex.split(line, comments=True)[1:]
            for block in blocks("bash") for line in block.splitlines()
            if line.startswith("singapore-1819 ")]


def small_budget(spec: str) -> str:
    """An agent spec with the smallest search budget: one iteration or a millisecond,
    and a search cut after one round."""
    spec = re.sub(r"seconds=[0-9.]+", "seconds=0.001", re.sub(r"iters=\d+", "iters=1", spec))
    if spec.startswith("mcts") and "horizon=" not in spec:
        spec += ":horizon=1"
    return spec


def shrink(args: list[str]) -> list[str]:
    """``args`` with one game per cell and the smallest search budgets."""
    out = [",".join(small_budget(s) for s in a.split(",")) for a in args]
    if "--games" in out:
        out[out.index("--games") + 1] = "1"
    elif out[0] in PLAYING:
        out += ["--games", "1"]
    return out + (["--no-progress"] if out[0] in PLAYING else [])


@pytest.fixture
def clone(tmp_path, monkeypatch):
    """An empty folder in which the README's relative paths name the clone's files."""
    for name in CLONE_PATHS:
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_names_the_shipped_example_bots():
    for bot in ("examples/my_bot.py:MyBot", "examples/first_legal.py:FirstLegal"):
        assert bot in README
        assert (ROOT / bot.split(":")[0]).is_file()
    for path in re.findall(r"(?:training/configs|docs/studies)/[\w.]+\.toml", README):
        assert (ROOT / path).is_file(), path


@pytest.mark.slow
def test_every_readme_command_runs(clone):
    not_run, ran = [], []
    for args in readme_commands():
        writes = args[args.index("--out") + 1] if "--out" in args else None
        reads_skipped = any(out in a for out in not_run for a in args)
        if args[0] in NOT_RUN or reads_skipped:
            if writes:
                not_run.append(writes)
            continue
        result = CliRunner().invoke(main, shrink(args))
        assert result.exit_code == 0, f"singapore-1819 {shlex.join(args)}\n{result.output}"
        ran.append(args[0])
    assert {"simulate", "evaluate", "ladder", "balance", "replay", "cards"} <= set(ran)
    assert (clone / "game.json").is_file() and (clone / "eval.png").is_file()
    assert (clone / "games.parquet").is_file()    # the example bot on the exported cards


@pytest.mark.slow
def test_the_readme_python_blocks_run(clone):
    """Each Python block, in order, as written (fewer games, a shorter learn)."""
    code_blocks = blocks("python")
    assert len(code_blocks) >= 3
    for code in code_blocks:
        code = re.sub(r"\.learn\([\d_]+\)", ".learn(64)", re.sub(r"games=\d+", "games=1", code))
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})


def test_the_readme_stays_short_and_names_the_trainer_the_main_job_runs():
    assert len(README.encode()) <= 8500
    assert "batched self-play" in README and "native engine" in README
    assert "alternating phases" not in README
