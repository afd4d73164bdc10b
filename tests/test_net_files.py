"""Network files from strangers: every array checked at load, on both engines, with one
clear message (agents/net_files.py); a player never answers an illegal decision."""

from __future__ import annotations

import importlib.util
import resource
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from agents import net_files
from agents.learned import POLICY_DIR, NumpyPolicy
from agents.net_files import NetFileError, read_network
from agents.numpy_nets import masked_choice
from agents.registry import make_agent
from singapore_app.cli import main
from singapore_env import native

ZERO = POLICY_DIR / "zero"
_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "net_file_check.py"


def _script():
    spec = importlib.util.spec_from_file_location("net_file_check", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK = _script()
#: corruption -> (how to make it, the words of its message)
CORRUPTIONS = CHECK.CORRUPTIONS


def _copy(tmp_path: Path, corruption: str) -> tuple[Path, Path]:
    """A corrupted copy of ``learned:zero``'s folder and its corrupted file."""
    folder = tmp_path / "bad"
    return folder, CHECK.corrupted_copy(ZERO, folder, corruption)


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
def test_a_corrupted_network_is_refused_with_one_message(tmp_path, corruption):
    words = CORRUPTIONS[corruption][1]
    folder, file = _copy(tmp_path, corruption)
    for spec in (f"learned:{file}", f"lookahead:{folder}", f"rerank:net={folder}",
                 f"mcts:net={folder}:iters=2"):
        with pytest.raises(ValueError) as info:
            make_agent(spec)
        message = str(info.value)
        assert message.startswith(f"cannot load agent '{spec}': {file}: "), message
        assert words in message, message
        assert "Traceback" not in message


def test_a_huge_declared_shape_is_refused_from_its_header(tmp_path):
    _, file = _copy(tmp_path, "huge shape")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(NetFileError, match="declares over"):
        read_network(file)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 100, grown_mb  # (its data, 3.3 GB as float32, was never allocated)


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("corruption", ["NaN", "0 bytes", "huge shape"])
def test_the_command_line_exits_2_on_both_engines(tmp_path, engine, corruption):
    if engine == "native" and not native.available():
        pytest.skip("the native module is not built")
    _, file = _copy(tmp_path, corruption)
    result = CliRunner().invoke(main, ["simulate", "--games", "1", "--engine", engine,
                                       "--players", f"learned:{file},heuristic,random,random"])
    assert result.exit_code == 2, result.output
    assert f"cannot load agent 'learned:{file}': {file}: " in result.output
    assert "Traceback" not in result.output


def test_the_shipped_networks_load_as_saved():
    for file in sorted(POLICY_DIR.rglob("*.npz")):
        arrays = read_network(file)
        with np.load(file) as data:
            assert sorted(arrays) == sorted(data.files), file
            for name in data.files:
                want = data[name]
                if name in ("kind", "activation") or name.startswith("meta_"):
                    assert arrays[name] == want.item(), (file, name)
                else:
                    assert arrays[name].dtype == np.float32
                    assert np.array_equal(arrays[name], want.astype(np.float32)), (file, name)


def test_a_lookahead_reads_each_file_once(monkeypatch):
    reads = []
    original = net_files._read
    monkeypatch.setattr(net_files, "_read", lambda path: reads.append(path) or original(path))
    monkeypatch.setattr(net_files, "_BUILT", type(net_files._BUILT)())
    from agents import reference

    reference._shipped_policy.cache_clear()
    reference._shipped_values.cache_clear()
    try:
        make_agent("lookahead:zero")
        make_agent("learned:zero")
    finally:
        reference._shipped_policy.cache_clear()
        reference._shipped_values.cache_clear()
    assert sorted(p.name for p in reads) == ["british.npz", "malay.npz"], reads


# ---------------------------------------------------------------- never an illegal answer
def test_a_mask_allowing_nothing_is_a_clear_error():
    with pytest.raises(ValueError, match="allows no action"):
        masked_choice(np.zeros(5, np.float32), np.zeros(5, np.int8), None)


@pytest.mark.parametrize("logits", [
    [np.inf, -np.inf, -np.inf, np.nan, 1.0],      # +inf on an illegal action (the PASS bug)
    [np.nan] * 5,
    [-np.inf] * 5,
    [0.0, np.nan, -np.inf, np.inf, np.inf],
])
@pytest.mark.parametrize("deterministic", [True, False])
def test_non_finite_logits_still_choose_a_legal_action(logits, deterministic):
    mask = np.array([0, 1, 1, 0, 1], np.int8)
    rng = np.random.default_rng(3)
    for _ in range(20):
        choice = masked_choice(np.array(logits, np.float32), mask, rng, deterministic)
        assert mask[choice], (logits, choice)


def test_the_best_legal_logit_wins_nan_counting_as_minus_inf():
    mask = np.array([1, 1, 1, 1], np.int8)
    assert masked_choice(np.array([np.nan, 2, 5, 5], np.float32), mask, None) == 2
    assert masked_choice(np.array([np.nan, -np.inf, np.nan, -np.inf]), mask, None) == 0


@pytest.mark.skipif(not native.available(), reason="the native module is not built")
def test_both_engines_answer_the_same_legal_decision_to_nan_logits():
    from agents.learned import LearnedAgent
    from agents.pointer_actor import PointerActor
    from singapore_env.encoding import encoder_for
    from singapore_env.engine import Game

    zero = NumpyPolicy.load(ZERO / "british.npz")
    arrays = {**zero.arrays, "action_bias": np.full_like(zero.arrays["action_bias"], np.nan)}
    agent = LearnedAgent(PointerActor(arrays, zero.activation, zero.meta))  # (past the loader)
    game = native.NativeGame(5)
    index = encoder_for(game.c, game.cfg).table.index
    for _ in range(15):
        python = Game.from_json(game.to_json())
        seat = game.acting_seat
        ours, theirs = agent.choose(game, seat), agent.choose(python, seat)
        # (every logit NaN, so -inf: the legal decision of the lowest action index)
        assert ours == theirs == min(game.legal_decisions(), key=index)
        game.step(ours)


def test_the_web_app_answers_400(tmp_path):
    pytest.importorskip("starlette")
    import warnings

    from singapore_app.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    _, file = _copy(tmp_path, "inf")
    with TestClient(create_app(None, workers=1, allow_code=True)) as c:
        r = c.post("/api/games", json={"seats": ["person", f"learned:{file}", "random",
                                                 "random"]})
    assert r.status_code == 400, r.text
    assert f"cannot load agent 'learned:{file}': {file}: array 'b1'" in r.json()["error"]
