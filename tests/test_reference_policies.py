"""The shipped reference policies (``learned:default``)."""

import pytest

from agents import make_agent
from agents.pointer_actor import PointerActor
from agents.reference import FactionPolicies
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from arena.simulate import play_game


def test_learned_default_plays_each_seat_with_its_factions_policy():
    agent = make_agent("learned:default", seed=1)
    assert isinstance(agent, FactionPolicies)
    assert all(isinstance(a.policy, PointerActor) for a in agent.by_faction.values())
    assert agent.by_faction[0].policy.meta["faction"] == "british"
    assert agent.by_faction[1].policy.meta["faction"] == "malay"
    assert all(a.policy.meta["candidate_prior"] == "heuristic"
               for a in agent.by_faction.values())
    for ruleset in ("standard", "first-edition", "simulation"):
        result = play_game(3, [agent] * 4, RulesConfig.named(ruleset))
        assert result.round == 8          # the engine raises on any illegal decision


def test_learned_default_is_deterministic_and_beats_random():
    wins = 0
    for seed in range(4):
        agents = [make_agent("learned:default") if SEAT_FACTION[p] == seed % 2
                  else make_agent("random") for p in range(4)]
        a = play_game(seed, agents)
        b = play_game(seed, agents)
        assert a.final_scores == b.final_scores
        wins += any(SEAT_FACTION[w] == seed % 2 for w in a.winners)
    assert wins >= 3


@pytest.mark.parametrize("pair", ["pure-policy", "zero-policy"])
def test_the_pure_and_zero_policies_read_no_heuristic_score(pair):
    """learned:pure-policy (learned:pure's student) and learned:zero-policy are shipped
    pairs without the heuristic prior: their candidate features' prior columns are
    zero, and they play every ruleset legally."""
    from agents.learned import PolicyView
    from singapore_env.candidates import FEATURES
    from singapore_env.engine import Game

    agent = make_agent(f"learned:{pair}", seed=1)
    assert isinstance(agent, FactionPolicies) and agent.name == f"learned:{pair}"
    prior = [FEATURES.index("prior_score"), FEATURES.index("prior_gap")]
    for faction, learned in agent.by_faction.items():
        assert isinstance(learned.policy, PointerActor)
        assert learned.policy.meta.get("faction", FACTIONS[faction]) == FACTIONS[faction]
        assert not learned.policy.meta.get("candidate_prior")
        game = Game(5)
        seat = game.acting_seat
        features = PolicyView(learned.policy).observation(game, seat)["candidate_features"]
        assert features[:, 0].sum() > 1 and not features[:, prior].any()
    for ruleset in ("standard", "first-edition", "simulation"):
        result = play_game(4, [agent] * 4, RulesConfig.named(ruleset))
        assert result.round == 8


def test_learned_zero_looks_ahead_with_its_own_value_heads():
    """learned:zero is the self-play trainer's pair (from random weights, the VP margin
    in its reward) looking ahead with the value heads its networks carry."""
    from agents.lookahead import LookaheadPolicies

    agent = make_agent("learned:zero", seed=1)
    assert isinstance(agent, LookaheadPolicies) and agent.name == "learned:zero"
    for faction, value in agent.values.items():
        student = agent.student.by_faction[faction].policy
        assert value.has_value and student.meta == value.meta
        assert all((value.arrays[k] == a).all() for k, a in student.arrays.items())
        assert value.meta["trainer"] == "selfplay" and value.meta["vp_weight"] == 0.5
    assert play_game(6, [agent, "random", agent, "random"]).round == 8


def test_the_shipped_networks_are_stored_as_compactly_as_their_play_allows():
    """The rerank and expert networks are half precision on disk (float16 left the play
    of a set of games unchanged), and so are learned:pure's value networks (value/);
    the learned:default, learned:pure and learned:zero policies, which decide every question by an
    argmax over all actions, stay float32 (float16 changed some of their games). All are read back as
    float32."""
    import numpy as np

    from agents.learned import POLICY_DIR, NumpyPolicy

    files = sorted(POLICY_DIR.rglob("*.npz"))
    assert len(files) == 12
    for path in files:
        half = path.parent.name in ("rerank", "expert", "value")
        with np.load(path) as data:
            assert data["w0"].dtype == (np.float16 if half else np.float32), path
        actor = NumpyPolicy.load(path)
        assert all(a.dtype == np.float32 for a in actor.arrays.values())


def test_a_network_saved_in_full_or_half_precision_loads_alike(tmp_path):
    """The loader reads full-precision files (what training writes) and float16 ones;
    float16 rounds the weights to about three significant digits."""
    import numpy as np

    from agents.learned import POLICY_DIR, NumpyPolicy

    actor = NumpyPolicy.load(POLICY_DIR / "british.npz")
    actor.save(tmp_path / "full.npz")
    actor.save(tmp_path / "half.npz", dtype=np.float16)
    full, half = NumpyPolicy.load(tmp_path / "full.npz"), NumpyPolicy.load(tmp_path / "half.npz")
    assert (tmp_path / "half.npz").stat().st_size < 0.6 * (tmp_path / "full.npz").stat().st_size
    for key, array in full.arrays.items():
        np.testing.assert_array_equal(array, actor.arrays[key])
        np.testing.assert_allclose(half.arrays[key], array, rtol=1e-3, atol=1e-4)
    assert full.meta == half.meta == actor.meta
    mlp = NumpyPolicy([(np.full((3, 4), 0.1), np.zeros(4))], (np.ones((4, 2)), np.zeros(2)))
    mlp.save(tmp_path / "mlp.npz", dtype=np.float16)
    loaded = NumpyPolicy.load(tmp_path / "mlp.npz")
    assert loaded.layers[0][0].dtype == np.float32 and loaded.n_actions == 2


def test_a_save_that_fails_midway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    """A network file is replaced whole or not at all: a write that fails halfway (a
    full disk, a run stopped mid-save) leaves the previous file readable and no
    temporary file behind; a path without ``.npz`` gets it, as numpy's own save does."""
    import numpy as np

    from agents.learned import POLICY_DIR, NumpyPolicy

    actor = NumpyPolicy.load(POLICY_DIR / "zero" / "british.npz")
    path = tmp_path / "british.npz"
    actor.save(path)
    before = path.read_bytes()

    def half_written(file, **arrays):
        file.write(before[: len(before) // 2])
        raise OSError("No space left on device")

    monkeypatch.setattr(np, "savez_compressed", half_written)
    with pytest.raises(OSError, match="No space"):
        actor.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before and sorted(tmp_path.iterdir()) == [path]
    assert NumpyPolicy.load(path).meta == actor.meta
    actor.save(tmp_path / "malay")
    assert NumpyPolicy.load(tmp_path / "malay.npz").meta == actor.meta
