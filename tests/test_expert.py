"""Expert iteration: search targets, the loop through the CLI, resuming, bad input and
determinism of the generated games for any number of workers."""

import csv
import gc
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("torch")

from agents.learned import NumpyPolicy  # noqa: E402
from singapore_app.cli import main  # noqa: E402
from training import expert  # noqa: E402
from training.config import TrainConfigError, load_config  # noqa: E402
from training.expert_data import SearchSamples, generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "training" / "configs" / "expert_tiny.toml"


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("expert") / "run"
    result = CliRunner().invoke(main, ["train", "--config", str(TINY), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_one_tiny_iteration_runs_end_to_end_through_the_cli(tiny_run):
    rows = _rows(tiny_run / "progress.csv")
    assert len(rows) == 1 and rows[0]["iteration"] == "0"
    for name in ("british", "malay"):
        assert int(rows[0][f"{name}_samples"]) > 50 and int(rows[0][f"{name}_searched"]) > 0
        low, win, high = (float(rows[0][f"{name}_{k}"]) for k in ("win_low", "win", "win_high"))
        assert 0 <= low <= win <= high <= 1
        assert rows[0][f"{name}_mirror"] != "" and rows[0][f"{name}_value_in_search"] == "0"
        assert float(rows[0][f"{name}_value_mse_fresh"]) >= 0
        assert float(rows[0][f"{name}_value_mse_projected"]) >= 0
        net = NumpyPolicy.load(tiny_run / "checkpoints" / f"{name}_iter0.npz")
        assert net.has_value and net.meta["value_trained"]
        assert (tiny_run / f"{name}.npz").exists()
        assert (tiny_run / "data" / f"iter000_{name}.npz").exists()
    assert (tiny_run / "learning_curve.png").stat().st_size > 1000


def test_resume_after_an_interruption_keeps_the_finished_iteration(tiny_run, tmp_path,
                                                                  monkeypatch):
    out = tmp_path / "run"
    shutil.copytree(tiny_run, out)
    first = (out / "checkpoints" / "british_iter0.npz").read_bytes()
    row0 = _rows(out / "progress.csv")[0]
    cfg = load_config(TINY, iterations=2)

    def killed(*args, **kwargs):
        raise KeyboardInterrupt  # the run is killed after iteration 1's games

    monkeypatch.setattr(expert, "train_network", killed)
    with pytest.raises(KeyboardInterrupt):
        expert.train(cfg, out, log=lambda _: None)
    assert len(_rows(out / "progress.csv")) == 1
    assert (out / "data" / "iter001_malay.npz").exists()
    monkeypatch.undo()
    lines = []
    expert.train(cfg, out, log=lines.append)
    assert lines[0].startswith("resuming after iteration 0")
    assert any("games already generated" in line for line in lines)
    rows = _rows(out / "progress.csv")
    assert [r["iteration"] for r in rows] == ["0", "1"] and rows[0] == row0
    assert (out / "checkpoints" / "british_iter0.npz").read_bytes() == first
    assert int(rows[1]["british_buffer"]) > int(rows[1]["british_samples"])  # the buffer


def _train(args):
    return CliRunner().invoke(main, ["train", *args])


@pytest.mark.parametrize("text, message", [
    ('algorithm = "expert"\nsearch_iters = 3\n', "unknown training config keys ['search_iters']"),
    ('algorithm = "expert"\ninit = "/nowhere"\n', "init must be one of reference, scratch"),
    ('algorithm = "expert"\nsearch = "heuristic"\n', "must be an mcts spec"),
    ('algorithm = "expert"\nsearch = "mcts:iters=4"\n', "value_in_search needs a search with horizon"),
    ('algorithm = "expert"\nsearch = "mcts:iters=4:horizon=1:net=x"\n', "sets net"),
    ('algorithm = "expert"\nsearch = "mcts:iters=4:horizon=1:ptopk=1"\n',
     "unknown parameter(s) ptopk"),
    ('algorithm = "expert"\nopponent = "search"\n', "unknown training config keys ['opponent']"),
    ('algorithm = "alphazero"\n', "unknown algorithm 'alphazero'"),
    ('algorithm = "expert"\nfactions = ["malay", "malay"]\n', "a list of distinct"),
    ('algorithm = "expert"\nfactions = ["dutch"]\n', "factions must be a list of distinct"),
    ('algorithm = "expert"\nfactions = []\n', "factions must be a list of distinct"),
    ('algorithm = "expert"\nadvantage_scale = 10.0\n', 'advantage_scale > 0 needs distilled'),
    ('algorithm = "expert"\ndistilled = "rerank"\nadvantage_scale = -1.0\n',
     "advantage_scale and rerank_margin >= 0"),
    ('algorithm = "expert"\nplay = "rerank"\n', "play must be one of search, distilled"),
    ('algorithm = "expert"\ntrain_from = "last"\n', "train_from must be one of best, start"),
    ('algorithm = "expert"\nrerank_margin = 1.0\n', 'rerank_margin > 0 needs distilled'),
    ('algorithm = "expert"\nrerank_margin = -1.0\n', "rerank_margin >= 0"),
])
def test_bad_config_is_a_clear_error_with_exit_2(tmp_path, text, message):
    path = tmp_path / "c.toml"
    path.write_text(text)
    result = _train(["--config", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_run_of_one_faction_searches_trains_and_gates_that_faction_only(tiny_run, tmp_path,
                                                                        monkeypatch):
    def live_rows() -> int:
        return sum(isinstance(o, SearchSamples) for o in gc.get_objects())

    calls, before = [], live_rows()

    def spy(*args, **kwargs):
        # No iteration's rows stay in memory while the games fork their workers.
        calls.append((kwargs["progress"], live_rows() - before))
        return generate(*args, **kwargs)

    monkeypatch.setattr(expert, "generate", spy)
    cfg = load_config(TINY, factions=["malay"], iterations=2)
    out = expert.train(cfg, tmp_path / "malay", log=lambda _: None)
    assert calls == [(False, 0), (False, 0)]
    row = _rows(out / "progress.csv")[0]
    assert int(row["malay_searched"]) > 0 and row["malay_win"] != ""
    assert row["british_samples"] == row["british_win"] == ""
    assert not (out / "data" / "iter000_british.npz").exists()
    assert not (out / "checkpoints" / "british_iter0.npz").exists()
    start = out / "checkpoints" / "british_init.npz"
    assert (out / "british.npz").read_bytes() == start.read_bytes()
    malay_only = SearchSamples.load(out / "data" / "iter000_malay.npz")
    both = SearchSamples.load(tiny_run / "data" / "iter000_malay.npz")
    assert len(malay_only) > len(both)  # both games let Malay search, not one of two
    assert (out / "learning_curve.png").stat().st_size > 1000


def test_dagger_lets_the_distilled_player_play_and_the_search_label(tmp_path, monkeypatch):
    calls = []

    def spy(*args, **kwargs):
        calls.append(kwargs["behaviour"])
        return generate(*args, **kwargs)

    monkeypatch.setattr(expert, "generate", spy)
    cfg = load_config(TINY, factions=["malay"], iterations=1, play="distilled",
                      distilled="rerank", rerank_margin=1.0, advantage_scale=100.0)
    out = expert.train(cfg, tmp_path / "dagger", log=lambda _: None)
    start = out / "checkpoints" / "malay_init.npz"
    assert calls == [{1: f"rerank:net={start}:topk=2:gap=1.0:margin=1.0"}]
    assert str(cfg.player_spec(start)) == calls[0][1]
    rows = SearchSamples.load(out / "data" / "iter000_malay.npz")
    assert rows.searched.any() and set(rows.seats.tolist()) == {2, 3}


def test_train_from_start_trains_every_iteration_from_the_starting_network(tmp_path,
                                                                          monkeypatch):
    calls = []
    train_candidate = expert._train_candidate

    def spy(cfg, k, f, best, start, *args):
        calls.append((k, best.name, start.name))
        return train_candidate(cfg, k, f, best, start, *args)

    monkeypatch.setattr(expert, "_train_candidate", spy)
    cfg = load_config(TINY, factions=["malay"], iterations=2, train_from="start")
    out = expert.train(cfg, tmp_path / "start", log=lambda _: None)
    assert _rows(out / "progress.csv")[0]["malay_best_iteration"] == "0"  # kept: best moved
    assert calls == [(0, "malay_init.npz", "malay_init.npz"),
                     (1, "malay_iter0.npz", "malay_init.npz")]


def test_missing_or_foreign_checkpoints_are_refused(tmp_path):
    from agents.learned import NumpyPolicy as MLP

    folder = tmp_path / "init"
    folder.mkdir()
    path = tmp_path / "c.toml"
    path.write_text(f'algorithm = "expert"\ninit = "{folder}"\n')
    result = _train(["--config", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "no checkpoint" in result.output
    mlp = MLP([(np.zeros((3, 2)), np.zeros(2))], (np.zeros((2, 4)), np.zeros(4)))
    for name in ("british", "malay"):
        mlp.save(folder / f"{name}.npz")
    result = _train(["--config", str(path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2 and "is not a pointer policy" in result.output


def test_a_missing_checkpoint_of_a_run_is_a_clear_error(tiny_run, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(tiny_run, out)
    (out / "checkpoints" / "malay_iter0.npz").unlink()
    result = _train(["--config", str(TINY), "--out", str(out), "--iterations", "2"])
    assert result.exit_code == 2 and "missing checkpoint" in result.output, result.output
    (out / "checkpoints" / "british_init.npz").write_text("not a policy")
    result = _train(["--config", str(TINY), "--out", str(out), "--iterations", "2"])
    assert result.exit_code == 2 and "cannot be read" in result.output, result.output


def test_bad_options_and_a_foreign_out_folder_exit_2(tmp_path):
    result = _train(["--config", str(TINY), "--out", str(tmp_path), "--workers", "0"])
    assert result.exit_code == 2 and "--workers" in result.output
    result = _train(["--config", str(TINY), "--out", str(tmp_path), "--phases", "2"])
    assert result.exit_code == 2
    assert "--phases: not an option of a run of kind 'expert'" in result.output
    load_config(TINY, seed=9).save(tmp_path / "config.json")   # another run's folder
    result = _train(["--config", str(TINY), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "another configuration (differs in seed)" in result.output


def test_the_search_spec_adds_the_network_when_it_can_help():
    cfg = load_config(TINY)
    assert str(cfg.search_spec("b.npz", False)) == cfg.search
    assert str(cfg.search_spec("b.npz", True)) == cfg.search + ":net=b.npz"
    cfg = load_config(TINY, value_in_search=False)
    assert str(cfg.search_spec("b.npz", True)) == cfg.search


def test_the_shipped_expert_configs_are_the_recipes_of_the_shipped_networks():
    configs = ROOT / "training" / "configs"
    reference = load_config(configs / "expert.toml")
    assert reference.search == "mcts:iters=24" and not reference.value_in_search
    assert reference.buffer_iterations == reference.iterations
    rerank = load_config(configs / "rerank.toml")
    assert (ROOT / rerank.init / "british.npz").exists() and rerank.value_in_search
    assert rerank.distilled == "rerank" and rerank.buffer_iterations >= rerank.iterations
    assert rerank.train_from == "start" and rerank.advantage_scale == 100
    malay = load_config(configs / "rerank_malay.toml")
    assert malay.faction_ids == [1] and (ROOT / malay.init / "malay.npz").exists()
    assert malay.play == "distilled" and malay.train_from == "start"
    assert str(malay.player_spec("m.npz")).endswith(":margin=1.0")   # as the Malay ships
    with pytest.raises(TrainConfigError, match="workers must be >= 1"):
        load_config(TINY, workers=0)


def test_the_rerank_form_learns_the_search_s_candidates_only(tiny_run):
    """distilled = "rerank": the gate plays rerank:net=FILE with the search's candidates,
    and the policy loss sees searched rows only, over their candidates: on rows none of
    which was searched it is 0 and leaves the policy head as it was."""
    cfg = load_config(TINY, distilled="rerank")
    assert str(cfg.player_spec("b.npz")) == "rerank:net=b.npz:topk=2:gap=1.0"
    assert str(load_config(TINY).player_spec("b.npz")) == "learned:b.npz"
    with pytest.raises(TrainConfigError, match="distilled must be one of learned, rerank"):
        load_config(TINY, distilled="search")
    from training.policy_value import PolicyValueNet

    data = SearchSamples.load(tiny_run / "data" / "iter000_british.npz")
    start = NumpyPolicy.load(tiny_run / "checkpoints" / "british_init.npz")
    for subset, changes in ((data.subset(~data.searched), False),
                            (data.subset(data.searched), True)):
        net = PolicyValueNet.from_actor(start, 8)
        head = [p.detach().clone() for p in net.head.parameters()]
        policy_loss, _ = expert.train_network(net, subset, 1, 0.01, 64, seed=0,
                                              candidates_only=True)
        assert (policy_loss > 0) == changes
        same = all(np.allclose(a.numpy(), b.detach().numpy(), atol=1e-6)
                   for a, b in zip(head, net.head.parameters()))
        assert same != changes


def test_the_advantage_loss_fits_logit_differences_over_the_candidates_only():
    """advantage_loss is 0 when the candidates' logits differ as their advantages times
    the scale do (whatever their common offset and the other actions' logits), and
    grows with a wrong ranking; a row without candidates costs nothing."""
    import torch

    candidates = torch.tensor([[True, True, True, False], [False] * 4])
    advantages = np.array([[0.0, 0.1, -0.2, 0.0], [0.0] * 4])
    fitted = torch.tensor([[5.0, 6.0, 3.0, 99.0], [1.0, 2.0, 3.0, 4.0]])
    flat = torch.tensor([[5.0, 5.0, 5.0, 99.0], [1.0, 2.0, 3.0, 4.0]])
    wrong = torch.tensor([[5.0, 3.0, 6.0, 99.0], [1.0, 2.0, 3.0, 4.0]])
    loss = [expert.advantage_loss(x, candidates, advantages, 10.0) for x in (fitted, flat, wrong)]
    assert torch.allclose(loss[0], torch.zeros(2), atol=1e-6)
    assert 0 < loss[1][0] < loss[2][0] and loss[1][1] == loss[2][1] == 0


def test_advantage_training_ranks_the_search_s_better_candidates_higher(tiny_run):
    """distilled = "rerank" with advantage_scale: trained on searched rows, the network
    ranks the candidates of those rows more like the search measured them than before."""
    import torch

    from training.policy_value import PolicyValueNet, as_tensors

    data = SearchSamples.load(tiny_run / "data" / "iter000_british.npz")
    data = data.subset(data.searched)
    candidates = np.isfinite(data.advantages)
    start = NumpyPolicy.load(tiny_run / "checkpoints" / "british_init.npz")

    def loss(net):
        with torch.no_grad():
            logits = net(as_tensors(data.obs))[0]
        return float(expert.advantage_loss(logits, torch.as_tensor(candidates),
                                           np.nan_to_num(data.advantages), 10.0).mean())

    net = PolicyValueNet.from_actor(start, 8)
    before = loss(net)
    expert.train_network(net, data, 20, 0.003, 64, seed=0, candidates_only=True,
                         advantage_scale=10.0)
    assert loss(net) < 0.8 * before


def test_rows_of_an_older_version_are_a_clear_error(tiny_run, tmp_path):
    """A run folder whose saved games lack the candidate advantages (written before
    they were kept) is refused with a message, exit 2, not a traceback."""
    run = tmp_path / "old"
    shutil.copytree(tiny_run, run)
    (run / "progress.csv").unlink()
    path = run / "data" / "iter000_british.npz"
    with np.load(path) as data:
        np.savez_compressed(path, **{k: data[k] for k in data.files if k != "advantages"})
    result = CliRunner().invoke(main, ["train", "--config", str(TINY), "--out", str(run)])
    assert result.exit_code == 2, result.output
    assert "no advantages (rows written by an older version" in result.output
    assert "Traceback" not in result.output
