"""The policy-value network of expert iteration: the value head survives the .npz file,
numpy inference matches torch, and files without a value head load and play as before."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from agents.base import _encoder_for  # noqa: E402
from agents.heuristic import HeuristicAgent  # noqa: E402
from agents.learned import NumpyPolicy  # noqa: E402
from agents.pointer_actor import VALUE_KEYS  # noqa: E402
from agents.priors import resolve_prior  # noqa: E402
from agents.reference import POLICY_DIR  # noqa: E402
from singapore_env.candidates import CandidateEncoder  # noqa: E402
from singapore_env.engine import Game  # noqa: E402
from training.policy_value import PolicyValueNet, as_tensors, network_dims  # noqa: E402


def _observations(n: int = 3) -> list[dict]:
    """Observation dicts (with the heuristic prior's candidate columns) of a few seats
    of a heuristic game."""
    g, h = Game(3), HeuristicAgent(seed=0)
    cand = CandidateEncoder.for_observations(_encoder_for(g), resolve_prior("heuristic"))
    out = []
    while len(out) < n:
        for _ in range(37):
            g.step(h.choose(g, g.acting_seat))
        seat = g.acting_seat
        out.append({"observation": _encoder_for(g).encode(g, seat), **cand.encode(g, seat)})
    return out


def test_value_head_round_trips_through_npz_and_numpy_matches_torch(tmp_path):
    torch.manual_seed(1)
    net = PolicyValueNet(**network_dims(), net_arch=(32, 16), embed_dim=8, value_hidden=8)
    path = tmp_path / "net.npz"
    net.to_actor({"faction": "malay"}).save(path)
    actor = NumpyPolicy.load(path)
    assert actor.has_value and all(k in actor.arrays for k in VALUE_KEYS)
    assert actor.meta == {"faction": "malay", "candidate_prior": "heuristic"}
    obs = _observations()
    with torch.no_grad():
        logits, value = net(as_tensors({k: np.stack([o[k] for o in obs]) for k in obs[0]}))
    for i, o in enumerate(obs):
        np.testing.assert_allclose(actor.logits(o), logits[i].numpy(), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(actor.outcome(o), value[i].numpy(), rtol=1e-5, atol=1e-5)
        assert actor.value(o, 0.5) == pytest.approx(float(value[i, 0] + 0.5 * value[i, 1]),
                                                     abs=1e-5)
    again = PolicyValueNet.from_actor(actor).to_actor()
    for key, array in actor.arrays.items():
        np.testing.assert_array_equal(again.arrays[key], array)


@pytest.mark.parametrize("faction", ["british", "malay"])
def test_shipped_policies_load_without_value_and_keep_their_logits(faction):
    actor = NumpyPolicy.load(POLICY_DIR / f"{faction}.npz")
    assert not actor.has_value
    with pytest.raises(ValueError, match="no value head"):
        actor.value(_observations(1)[0])
    torch.manual_seed(0)
    net = PolicyValueNet.from_actor(actor)          # the policy copied, a new value head
    copy = net.to_actor(actor.meta)
    for o in _observations(2):
        np.testing.assert_allclose(copy.logits(o), actor.logits(o), rtol=1e-5, atol=1e-4)
        assert int(np.argmax(copy.logits(o))) == int(np.argmax(actor.logits(o)))


def test_a_new_value_head_starts_as_the_smoothed_projected_evaluation():
    from agents.outcome import projected_margin

    torch.manual_seed(2)
    actor = PolicyValueNet(**network_dims(), net_arch=(16,), embed_dim=4).to_actor()
    for o in _observations(3):
        m = float(projected_margin(o["projected_vp"]))
        np.testing.assert_allclose(actor.outcome(o), [1 / (1 + np.exp(-4 * m)), np.tanh(m)],
                                   rtol=1e-5, atol=1e-6)


def test_projected_outcomes_match_the_outcome_of_the_projected_scores():
    from agents.outcome import outcome
    from singapore_env.candidates import projected_vp
    from singapore_env.engine.rules.scoring import projected_final_vp
    from training.expert import projected_outcomes

    g, h = Game(5), HeuristicAgent(seed=1)
    rows, expected = [], []
    for _ in range(6):
        for _ in range(41):
            g.step(h.choose(g, g.acting_seat))
        scores = [projected_final_vp(g, p) for p in range(4)]
        for seat in range(4):
            rows.append(projected_vp(g, seat))
            expected.append(outcome(scores, seat))
    np.testing.assert_allclose(projected_outcomes(np.stack(rows)), expected, atol=1e-6)
