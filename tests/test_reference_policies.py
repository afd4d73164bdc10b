"""The shipped learned players (``learned:zero``, ``learned:zero-policy``) and the
retired ones' names."""

import re

import pytest
from click.testing import CliRunner

from agents import make_agent
from agents.learned import load_shared
from agents.pointer_actor import PointerActor
from agents.reference import FactionPolicies
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from arena.simulate import play_game
from singapore_app.cli import main


@pytest.mark.parametrize("name, instead", [("default", "zero"), ("pure", "zero"),
                                           ("pure-policy", "zero-policy")])
def test_a_retired_player_is_a_clear_error_naming_its_replacement(name, instead):
    message = (f"learned:{name} was retired (every shipped network now comes from the "
               f"self-play loop, training/configs/zero.toml): use learned:{instead}")
    with pytest.raises(ValueError, match=re.escape(message)):
        make_agent(f"learned:{name}")
    result = CliRunner().invoke(main, ["evaluate", "--british", f"learned:{name}",
                                       "--games", "1"])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_learned_zero_policy_is_deterministic_and_beats_random():
    wins = 0
    for seed in range(4):
        agents = [make_agent("learned:zero-policy") if SEAT_FACTION[p] == seed % 2
                  else make_agent("random") for p in range(4)]
        a = play_game(seed, agents)
        b = play_game(seed, agents)
        assert a.final_scores == b.final_scores
        wins += any(SEAT_FACTION[w] == seed % 2 for w in a.winners)
    assert wins >= 3


def test_learned_zero_policy_plays_each_faction_s_network_reading_no_heuristic_score():
    """learned:zero-policy plays each seat with its faction's network of
    agents/policies/zero/, without the heuristic prior: their candidate features' prior
    columns are zero, and they play every ruleset legally."""
    from agents.learned import POLICY_DIR, PolicyView
    from singapore_env.candidates import FEATURES
    from singapore_env.engine import Game

    agent = make_agent("learned:zero-policy", seed=1)
    assert isinstance(agent, FactionPolicies) and agent.name == "learned:zero-policy"
    prior = [FEATURES.index("prior_score"), FEATURES.index("prior_gap")]
    for faction, learned in agent.by_faction.items():
        assert isinstance(learned.policy, PointerActor)
        assert learned.policy is load_shared(POLICY_DIR / "zero" / f"{FACTIONS[faction]}.npz")
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
    from agents.lookahead import ROLLOUT_QUESTIONS, WORLDS, LookaheadPolicies

    agent = make_agent("learned:zero", seed=1)
    assert isinstance(agent, LookaheadPolicies) and agent.name == "learned:zero"
    for faction, value in agent.values.items():
        student = agent.student.by_faction[faction].policy
        assert value.has_value and student.meta == value.meta
        assert all((value.arrays[k] == a).all() for k, a in student.arrays.items())
        assert value.meta["trainer"] == "selfplay" and value.meta["vp_weight"] == 0.5
    assert (agent.worlds, agent.questions) == (WORLDS, ROLLOUT_QUESTIONS)
    agent.worlds, agent.questions = 1, 2  # the shipped rollouts take minutes on this engine
    assert play_game(6, [agent, "random", agent, "random"]).round == 8


def test_the_shipped_networks_are_stored_in_full_precision():
    """The shipped networks (agents/policies/zero/) decide every question by an argmax
    over all actions, so they stay float32 on disk (float16 changed some games of the
    policies before them); they are the only network files shipped."""
    import numpy as np

    from agents.learned import POLICY_DIR, NumpyPolicy

    files = sorted(POLICY_DIR.rglob("*.npz"))
    assert [f.relative_to(POLICY_DIR).as_posix() for f in files] == ["zero/british.npz",
                                                                     "zero/malay.npz"]
    for path in files:
        with np.load(path) as data:
            assert data["w0"].dtype == np.float32, path
        actor = NumpyPolicy.load(path)
        assert all(a.dtype == np.float32 for a in actor.arrays.values())


def test_a_network_saved_in_full_or_half_precision_loads_alike(tmp_path):
    """The loader reads full-precision files (what training writes) and float16 ones;
    float16 rounds the weights to about three significant digits."""
    import numpy as np

    from agents.learned import POLICY_DIR, NumpyPolicy

    actor = NumpyPolicy.load(POLICY_DIR / "zero" / "british.npz")
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
