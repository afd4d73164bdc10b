"""Search targets of expert iteration: the recorded rows, their policy targets, and
the same games for one or two worker processes."""

import numpy as np
import pytest

from training.expert_data import SearchSamples, generate
from training.sparse_rows import SparseRows

FAST = "mcts:iters=4:topk=2:horizon=1"


def test_generated_games_are_the_same_for_one_or_two_workers():
    players = {0: FAST, 1: FAST}
    one = generate(players, 2, seed=5, workers=1)
    two = generate(players, 2, seed=5, workers=2)
    assert len(one) > 100 and one.searched.any() and set(one.games) == {0, 1}
    for key, value in one.obs.items():
        np.testing.assert_array_equal(value, two.obs[key])
    for key, value in one._arrays().items():
        np.testing.assert_array_equal(value, getattr(two, key))
    np.testing.assert_allclose(one.targets.sum(1), 1.0, rtol=1e-6)
    assert not (one.targets * ~one.masks).any()     # targets only on legal actions
    assert set(np.unique(one.outcomes[:, 0])) <= {0.0, 0.5, 1.0}
    british = one.of_faction(0)
    assert len(british) and set(british.seats.tolist()) <= {0, 1}


@pytest.mark.slow
def test_games_on_a_local_ray_cluster_are_the_same_games():
    ray = pytest.importorskip("ray")
    players = {0: FAST, 1: FAST}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = generate(players, 2, seed=5, ray_address="local")
    finally:
        ray.shutdown()
    here = generate(players, 2, seed=5)
    for key, value in here.obs.items():
        np.testing.assert_array_equal(value, on_ray.obs[key])
    for key, value in here._arrays().items():
        np.testing.assert_array_equal(value, getattr(on_ray, key))


def test_samples_survive_their_file(tmp_path):
    data = generate({0: FAST, 1: FAST}, 1, seed=2)
    data.save(tmp_path / "d.npz")
    back = SearchSamples.load(tmp_path / "d.npz")
    assert back.obs["candidate_features"].dtype == np.float16 and len(back) == len(data)
    for key, value in data._arrays().items():
        np.testing.assert_array_equal(value, getattr(back, key))
    # Loaded rows are kept sparse and give the network exactly the dense rows' values,
    # also after a subset and a concatenation (a replay buffer), and save back the same.
    assert isinstance(back.obs["observation"], SparseRows)
    rows = np.flatnonzero(data.searched)[::2]
    for part, whole in ((back.subset(rows), data.subset(rows)),
                        (SearchSamples.concat([back, data]), SearchSamples.concat([data, data]))):
        for key, value in whole.obs.items():
            np.testing.assert_array_equal(np.asarray(part.obs[key], np.float32),
                                          np.asarray(value, np.float32))
    back.save(tmp_path / "again.npz")
    with np.load(tmp_path / "d.npz") as a, np.load(tmp_path / "again.npz") as b:
        assert all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a.files)


def test_sparse_rows_index_like_the_dense_array():
    rng = np.random.default_rng(0)
    dense = (rng.random((7, 3, 4)) * (rng.random((7, 3, 4)) < 0.2)).astype(np.float16)
    dense[4] = 0                                  # a row without an entry
    rows = SparseRows.from_dense(dense)
    assert rows.shape == dense.shape and rows.dtype == np.float16 and len(rows) == 7
    np.testing.assert_array_equal(np.asarray(rows), dense)
    for index in (slice(2, 6), np.array([5, 0, 4, 4]), dense.sum((1, 2)) > 0.3, slice(0, 0)):
        np.testing.assert_array_equal(np.asarray(rows[index], np.float32),
                                      dense[index].astype(np.float32))
    both = SparseRows.concatenate([rows[1:3], rows[4:], rows[:0]])
    np.testing.assert_array_equal(np.asarray(both), np.concatenate([dense[1:3], dense[4:]]))


def test_rows_keep_the_search_advantages_of_the_chosen_candidates():
    data = generate({0: FAST, 1: FAST}, 1, seed=2)
    searched = data.advantages[data.searched]
    assert len(searched) and not np.isfinite(data.advantages[~data.searched]).any()
    assert (np.isfinite(searched).sum(1) >= 2).all()          # the prior and another
    chosen = data.targets.argmax(1)
    assert np.isfinite(searched[np.arange(len(searched)), chosen[data.searched]]).all()
    np.testing.assert_array_equal(data.targets.sum(1), 1.0)


def test_layouts_alternate_the_searching_faction():
    from training.expert_data import layouts

    both = {0: "mcts:iters=2", 1: "mcts:iters=3"}
    alt = layouts(both, 2)
    assert alt[0] == (("mcts:iters=2", "mcts:iters=2", "heuristic", "heuristic"), (0, 1))
    assert alt[1] == (("heuristic", "heuristic", "mcts:iters=3", "mcts:iters=3"), (2, 3))
    malay = layouts({1: "mcts:iters=3"}, 2)
    assert malay == [(("heuristic", "heuristic", "mcts:iters=3", "mcts:iters=3"), (2, 3))] * 2


def test_dagger_games_are_played_by_the_behaviour_and_labelled_by_the_search():
    # The random player plays the Malay seats in both batches; in the second the search
    # labels its positions. The games must be the same (the search never answers in the
    # game) and only the second's rows carry the search's labels.
    alone = generate({1: "random"}, 2, seed=7)
    labelled = generate({1: FAST}, 2, seed=7, behaviour={1: "random"})
    assert len(alone) == len(labelled)
    for key, value in alone.obs.items():
        np.testing.assert_array_equal(value, labelled.obs[key])
    np.testing.assert_array_equal(alone.outcomes, labelled.outcomes)
    assert not alone.searched.any() and labelled.searched.sum() > 20
    played = alone.targets.argmax(1)          # random labels its own (played) answers
    label = labelled.targets.argmax(1)
    assert (label != played).any()
    rows = np.flatnonzero(labelled.searched)
    assert np.isfinite(labelled.advantages[rows, label[rows]]).all()
