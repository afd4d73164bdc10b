"""DAgger of pointer policies (training/dagger.py) and its compact rows
(training/pointer_rows.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from agents.learned import NumpyPolicy
from agents.pointer_actor import PointerActor
from agents.registry import make_agent
from singapore_app.cli import main as cli
from singapore_env import native
from singapore_env.encoding import encoder_for
from singapore_env.engine import Game
from training.config import TrainConfigError, load_config
from training.config import TrainConfig
from training.dagger import fit, label, make_teacher, train
from training.pointer_rows import DecisionRows, RowWriter
from training.ppo_network import PointerActorCritic

PURE = "agents/policies/pure/british.npz"
#: What DecisionRows.batch reads of a network: its input width, action count and features.
NET = PointerActorCritic(5146, 1040, [8], "tanh", 9, 112, 4)


def _rows_of_a_game(seed: int, stop: int = 60):
    """Rows of the first ``stop`` decisions of a random game, labelled with the
    position of the move played, and the observations they were made from."""
    game = Game(seed)
    writer = RowWriter(encoder_for(game.c, game.cfg))
    rng = np.random.default_rng(seed)
    seen = []
    while not game.is_over and len(seen) < stop:
        obs, legal = writer.observe(game, game.acting_seat)
        pick = int(rng.integers(len(legal)))
        writer.add(obs, legal, pick)
        seen.append((obs, legal))
        game.step(writer.encoder.table.decision(int(legal[pick])))
    return writer.rows(), seen


def test_the_torch_network_gives_the_numpy_actors_logits_on_compact_rows():
    actor = NumpyPolicy.load(PURE)
    net = PointerActorCritic.from_actor(actor)
    rows, seen = _rows_of_a_game(3)
    csr, legal, candidates, label = rows.batch(np.arange(len(rows)), net)
    logits = net(csr, legal, candidates)[0].detach().numpy()
    for i, (obs, legal_i) in enumerate(seen):
        want = actor.logits(obs)[legal_i]
        np.testing.assert_allclose(logits[i, :len(legal_i)], want, rtol=1e-4, atol=1e-3)
        assert (logits[i, len(legal_i):] < -1e8).all()
        assert (legal[i, :len(legal_i)] == legal_i).all()
    np.testing.assert_array_equal(label, rows.label)
    back = net.to_numpy()
    obs, legal_0 = seen[0]
    np.testing.assert_allclose(back.logits(obs)[legal_0], actor.logits(obs)[legal_0],
                               rtol=1e-5, atol=1e-4)


def test_rows_survive_saving_and_joining(tmp_path):
    a, _ = _rows_of_a_game(4, stop=30)
    b, _ = _rows_of_a_game(5, stop=20)
    a.save(tmp_path / "a.npz")
    joined = DecisionRows.join([DecisionRows.load(tmp_path / "a.npz"), b])
    assert len(joined) == 50
    for part, ids in ((a, np.arange(30)), (b, np.arange(20))):
        offset = 0 if part is a else 30
        got = joined.batch(ids + offset, NET)
        want = part.batch(ids, NET)
        assert (got[0] != want[0]).nnz == 0
        for g, w in zip((got[1], *got[2], got[3]), (want[1], *want[2], want[3])):
            np.testing.assert_array_equal(g, w)


def test_target_shares_survive_saving_and_joining_and_are_one_hot_where_not_given(tmp_path):
    a, _ = _rows_of_a_game(4, stop=30)
    game = Game(6)
    writer = RowWriter(encoder_for(game.c, game.cfg))
    obs, legal = writer.observe(game, game.acting_seat)
    share = np.zeros(len(legal), np.float16)
    share[:2] = (0.75, 0.25)
    writer.add(obs, legal, 0, share)
    writer.add(obs, legal, 1)
    b = writer.rows()
    b.save(tmp_path / "b.npz")
    joined = DecisionRows.join([a, DecisionRows.load(tmp_path / "b.npz")])
    assert a.target is None and len(joined) == 32
    shares = joined.target_batch(np.arange(32))
    np.testing.assert_array_equal(shares[:30], a.target_batch(np.arange(30)))
    np.testing.assert_array_equal(shares[np.arange(30), a.label], np.ones(30))
    assert (shares[:30].sum(1) == 1).all()
    np.testing.assert_array_equal(shares[30, :len(legal)], share.astype(np.float32))
    np.testing.assert_array_equal(shares[31, :len(legal)], np.eye(len(legal))[1])
    assert (shares[30:, len(legal):] == 0).all()


def _config(**keys):
    return TrainConfig(**{"algorithm": "dagger", "seed": 3, "teacher": "heuristic",
                          "iterations": 1, "games": 1,
                           "epochs": 1, "workers": 1, **keys})


def test_a_run_writes_students_that_play_and_does_not_depend_on_workers(tmp_path):
    train(_config(), tmp_path / "one", log=lambda _: None)
    train(_config(workers=2), tmp_path / "two", log=lambda _: None)
    for name in ("british", "malay"):
        one = np.load(tmp_path / "one" / f"{name}.npz")
        two = np.load(tmp_path / "two" / f"{name}.npz")
        assert isinstance(NumpyPolicy.load(tmp_path / "one" / f"{name}.npz"), PointerActor)
        for key in ("w0", "query_w", "action_bias"):
            np.testing.assert_array_equal(one[key], two[key])
        rows = DecisionRows.load(tmp_path / "one" / "round1" / f"{name}.rows.npz")
        counts = np.diff(rows.act_offsets)
        assert len(rows) > 50 and ((rows.label >= 0) & (rows.label < counts)).all()
    agent = make_agent(f"learned:{tmp_path / 'one' / 'malay.npz'}")
    game = Game(8)
    while not game.is_over:
        game.step(agent.choose(game, game.acting_seat))


def test_labels_are_the_same_rows_on_both_engines():
    if not native.available():
        pytest.skip("the native module is not built")
    cfg = _config(teacher="learned:pure", beta=0.5)
    native_rows = label(cfg, Path(PURE), 0, 5, engine="native")
    python = label(cfg, Path(PURE), 0, 5, engine="python")
    assert len(native_rows) == len(python) > 50
    for name in ("act_offsets", "legal", "cards", "feats", "label"):
        np.testing.assert_array_equal(getattr(native_rows, name), getattr(python, name))
    ids = np.arange(len(native_rows))
    assert (native_rows.batch(ids, NET)[0] != python.batch(ids, NET)[0]).nnz == 0


def test_the_lookahead_teacher_searches_over_the_current_student(tmp_path):
    """Over the shipped student it labels as learned:pure does; over another student,
    otherwise."""
    if not native.available():
        pytest.skip("the native module is not built")
    shipped = label(_config(teacher="learned:pure"), Path(PURE), 1, 5, engine="native")
    ours = label(_config(teacher="lookahead"), Path(PURE), 1, 5, engine="native")
    np.testing.assert_array_equal(ours.label, shipped.label)
    train(_config(), tmp_path / "other", log=lambda _: None)
    other = label(_config(teacher="lookahead"), tmp_path / "other" / "malay.npz", 1, 5,
                  engine="native")
    assert not np.array_equal(other.legal, shipped.legal)
    teacher = make_teacher("lookahead:worlds=4", Path(PURE).parent, 5)
    assert teacher.worlds == 4 and make_teacher("lookahead", Path(PURE).parent, 5).worlds == 1


def test_with_a_temperature_the_lookahead_s_scores_are_the_targets(tmp_path):
    """target_temperature: a looked-ahead question's targets are the softmax of the
    compared answers' scores over it (the label, the teacher's choice, the likeliest);
    every other row all on its label; the same decisions as without; a fit learns them."""
    if not native.available():
        pytest.skip("the native module is not built")
    hard = label(_config(teacher="lookahead"), Path(PURE), 0, 5, engine="native")
    soft = label(_config(teacher="lookahead", target_temperature=0.05), Path(PURE), 0, 5,
                 engine="native")
    np.testing.assert_array_equal(soft.label, hard.label)
    assert hard.target is None
    ids = np.arange(len(soft))
    shares = soft.target_batch(ids)
    np.testing.assert_allclose(shares.sum(1), 1, atol=2e-3)
    assert (shares.argmax(1) == soft.label).all()
    spread = (shares > 0).sum(1)
    assert 10 < (spread > 1).sum() < len(soft) / 2
    assert (shares.max(1) < 0.9).any()
    student, _, agreement = fit(_config(teacher="lookahead", target_temperature=0.05, epochs=2),
                                Path(PURE), soft, 1)
    assert 0 <= agreement <= 1 and isinstance(student, PointerActor)


@pytest.mark.parametrize("keys, message", [
    ({"target_temperature": 0.1}, "needs a lookahead teacher"),
    ({"teacher": "lookahead", "target_temperature": -1.0}, "target_temperature must be >= 0"),
])
def test_a_temperature_needs_a_lookahead_teacher(keys, message):
    with pytest.raises(TrainConfigError, match=message):
        _config(**keys)


def test_a_run_goes_on_from_its_files_and_refuses_another_config(tmp_path):
    out = tmp_path / "run"
    train(_config(), out, log=lambda _: None)
    first = (out / "british.npz").stat().st_mtime_ns
    with pytest.raises(TrainConfigError, match="another configuration"):
        train(_config(epochs=2), out, log=lambda _: None)
    lines = (out / "progress.csv").read_text().splitlines()
    train(_config(), out, log=lambda _: None)        # everything is there: nothing to do
    assert (out / "progress.csv").read_text().splitlines() == lines
    assert len(lines) == 3 and (out / "british.npz").stat().st_mtime_ns == first


@pytest.mark.parametrize("keys, message", [
    ({"init": "nowhere"}, "init: no pointer actor"),
    ({"init": "agents/policies"}, "reads the heuristic prior's scores"),
    ({"init": "tests"}, "init: no pointer actor"),
    ({"teacher": "nobody"}, "teacher"),
    ({"teacher": "lookahead:depth=2"}, "takes one parameter, worlds=N"),
    ({"teacher": "lookahead:worlds=0"}, "takes one parameter, worlds=N"),
    ({"beta": 1.5}, "beta"),
    ({"games": 0}, "games must be >= 1"),
])
def test_a_bad_config_is_refused_by_name(keys, message):
    with pytest.raises(TrainConfigError, match=message):
        _config(**keys)


def test_the_cli_trains_a_dagger_config_and_rejects_other_options(tmp_path):
    config = tmp_path / "d.toml"
    config.write_text('algorithm = "dagger"\nteacher = "heuristic"\niterations = 1\ngames = 1\n'
                      'epochs = 1\nworkers = 1\n')
    assert load_config(config).kind == "dagger"
    runner = CliRunner()
    bad = runner.invoke(cli, ["train", "--config", str(config), "--phases", "2"])
    assert bad.exit_code == 2
    assert "--phases: not an option of a run of kind 'dagger'" in bad.output
    result = runner.invoke(cli, ["train", "--config", str(config), "--out",
                                 str(tmp_path / "out"), "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "agreement with the teacher" in result.output
    assert (tmp_path / "out" / "british.npz").exists()
