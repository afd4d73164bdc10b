"""Search in the batched self-play loop (training/loop/search.py): the learners' moves on
the main Action question are the lookahead's, their rows carry its improved policy as
the target, the update fits it, and the same seed gives the same games."""

import numpy as np
import pytest
import torch

from agents.lookahead import LOOKAHEAD_KINDS, TOP_K
from singapore_env import native
from singapore_env.vector import VectorEnv
from training.config import load_config
from training.config.base import TrainConfigError
from training.loop.rollout import Collector
from training.loop.search import SelfPlaySearch
from training.loop.trainer import ppo_update

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


def collector(seed: int = 5, share: float = 0.0) -> Collector:
    from training.network.actor_critic import PointerActorCritic
    from singapore_env.candidates import RULES_FEATURES
    from singapore_env.engine.content import resolve_content

    torch.manual_seed(seed)
    venv = VectorEnv(3, seed=seed, engine="native")
    n_cards = len(resolve_content(None, True).defs)
    nets = [PointerActorCritic(venv.obs_size, venv.num_actions, [16], "tanh",
                               len(RULES_FEATURES), n_cards, 8) for _ in range(2)]
    rng = np.random.default_rng(seed)
    search = SelfPlaySearch(venv, 2, 0.05, rng)
    search.refresh(nets)
    return Collector(venv, nets, rng, share, 12, search=search)


def searched_rows(c: Collector):
    """(faction, rows with a target) of the collector's rollouts."""
    return [(f, np.flatnonzero(r.target[:r.n].sum(axis=1) > 0))
            for f, r in enumerate(c.rollouts)]


def test_the_main_action_questions_are_searched_and_carry_the_improved_policy():
    c = collector()
    c.collect(12)
    decisions = c.venv.action_table.decisions
    pad = c.venv.num_actions
    searched_any = 0
    for r in c.rollouts:
        for t in range(r.n):
            legal = r.legal[t][r.legal[t] != pad]
            wanted = len(legal) >= 2 and any(decisions[a].kind in LOOKAHEAD_KINDS for a in legal)
            target = r.target[t]
            assert (target.sum() > 0) == wanted
            if wanted:
                searched_any += 1
                assert np.isclose(target.sum(), 1.0, atol=1e-5)
                assert (target[len(legal):] == 0).all()       # only legal answers
                assert 1 <= (target > 0).sum() <= TOP_K        # the proposals
                assert target[r.choice[t]] > 0                 # the move is a proposal
    assert searched_any > 0 and c.search.searched == searched_any
    c.close()


def test_the_same_seed_gives_the_same_searched_games():
    runs = []
    for _ in range(2):
        c = collector(seed=8)
        c.collect(12)
        runs.append([(r.choice[:r.n].copy(), r.target[:r.n].copy()) for r in c.rollouts])
        c.close()
    for (choice_a, target_a), (choice_b, target_b) in zip(*runs):
        assert np.array_equal(choice_a, choice_b) and np.array_equal(target_a, target_b)


def test_the_batched_rollouts_choose_and_label_as_one_rollout_at_a_time(monkeypatch):
    """The step's rollouts run together in one lockstep C++ call, each layer over the
    batch; the same seed gives the same choices and targets as the one-at-a-time path
    (each (world, proposal) cloned, stepped and rolled out alone): a position's forward
    pass does not depend on its batch."""
    import training.loop.search as ppo_search
    from agents.native_nets import Leaves, roll_out

    def one_at_a_time(worlds, seats, starts, *args):
        alone = [roll_out([worlds[w]], [seats[w]], [(0, d)], *args) for w, d in starts]
        width = max(leaves.nonzero_index.shape[1] for leaves in alone)

        def padded(a):  # a compact row, padded with zeros to the widest
            return np.pad(a, ((0, 0), (0, width - a.shape[1])))

        alone = [leaves._replace(nonzero_index=padded(leaves.nonzero_index),
                                 nonzero_value=padded(leaves.nonzero_value)) for leaves in alone]
        return Leaves(*(np.concatenate(parts) for parts in zip(*alone)))

    runs, calls = [], []
    for path in (None, one_at_a_time):
        if path is not None:
            monkeypatch.setattr(ppo_search, "roll_out", path)
        c = collector(seed=9)
        c.collect(12)
        runs.append([(r.choice[:r.n].copy(), r.target[:r.n].copy()) for r in c.rollouts])
        calls.append(c.search.searched)
        c.close()
    assert calls[0] == calls[1] > 0
    for (choice_a, target_a), (choice_b, target_b) in zip(*runs):
        assert np.array_equal(choice_a, choice_b) and np.array_equal(target_a, target_b)


def test_the_update_fits_the_search_target():
    c = collector(seed=6)
    c.collect(12)
    f, rows = max(searched_rows(c), key=lambda fr: len(fr[1]))
    r, net = c.rollouts[f], c.learners[f]
    r.ready[:r.n] = False
    r.ready[rows] = True                    # learn from the searched rows alone

    def cross_entropy() -> float:
        from training.network.rows import to_csr

        legal = r.legal[rows]
        width = int((legal != net.n_actions).sum(axis=1).max())
        with torch.no_grad():
            logits, _ = net(to_csr(r.index[rows], r.value_in[rows], net.obs_size),
                            legal[:, :width], (r.cand_card[rows][:, :width],
                                               r.cand_feat[rows][:, :width]))
            logp = torch.log_softmax(logits, -1).clamp_min(-1e4).numpy()
        return float(-(r.target[rows][:, :width] * logp).sum(axis=1).mean())

    before = cross_entropy()
    cfg = load_config(None, learning_rate=3e-3, epochs=20, minibatch_size=64, ent_coef=0.0)
    ppo_update(net, torch.optim.Adam(net.parameters(), lr=3e-3), r, cfg,
               np.random.default_rng(0))
    assert cross_entropy() < before - 0.1
    c.close()


def test_the_search_waits_for_search_after_decisions(tmp_path):
    """Before ``search_after`` learned decisions the learners play and learn without the
    search (no row carries a target); from then on the main Action questions are
    searched."""
    from training.loop.trainer import Trainer, learn

    cfg = load_config(None, engine="native", network="pointer", num_games=3,
                      rollout_steps=12, hidden=[16], embed_dim=8, minibatch_size=16,
                      search_worlds=1, target_temperature=0.05, search_after=40)
    trainer = Trainer(cfg, tmp_path)
    collector = trainer.collector()
    learned = learn(trainer, collector, {})
    assert learned > 0 and collector.search.searched == 0
    assert not any(len(rows) for _, rows in searched_rows(collector))
    trainer.counters["decisions"] = 40
    learn(trainer, collector, {})
    assert collector.search.searched > 0
    assert sum(len(rows) for _, rows in searched_rows(collector)) == collector.search.searched
    collector.close()


@pytest.mark.parametrize("overrides, words", [
    ({"search_worlds": 2}, "target_temperature > 0"),
    ({"target_temperature": 0.05}, "need the search"),
    ({"search_after": 1000}, "need the search"),
    ({"search_worlds": 1, "target_temperature": 0.05, "search_after": -1}, "search_after"),
    ({"search_worlds": 2, "target_temperature": 0.05, "engine": "python"}, "in C\\+\\+"),
    ({"search_worlds": -1, "target_temperature": 0.05}, "search_worlds"),
    ({"vp_weight": -0.5}, "vp_weight must be >= 0"),
])
def test_bad_search_keys_are_config_errors(overrides, words):
    with pytest.raises(TrainConfigError, match=words):
        load_config(None, **{"engine": "native", **overrides})


def test_a_vector_envs_game_before_its_reset_is_an_error_not_a_crash():
    venv = VectorEnv(2, seed=1, engine="native")
    with pytest.raises(RuntimeError, match="reset"):
        venv.game(0)
    with pytest.raises(ValueError, match="reset"):
        venv.step(np.zeros(2, np.int64))
    venv.close()
