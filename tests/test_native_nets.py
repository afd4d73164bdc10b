"""The native forward passes (native/nets.hpp, agents/native_nets.py) against the numpy
actors: on positions of random native games of every ruleset, every shipped network's
logits and value head within TOLERANCE of numpy's (over max(1, |value|)), the same
decisions except at counted near-ties; one position or a batch, one thread or several,
bit for bit alike; the refusals. ``scripts/native_nets_soak.py`` runs the same on
10,000 positions and more."""

from functools import lru_cache

import numpy as np
import pytest

from agents.learned import POLICY_DIR, SHIPPED_NETS, NumpyPolicy
from singapore_env import native

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

if native.available():
    from agents.native_nets import TOLERANCE, Comparison, compare, native_actor, random_positions

#: Every shipped network (agents.learned.SHIPPED_NETS), by file under POLICY_DIR.
SHIPPED = [f"{net}/{faction}.npz" for net in SHIPPED_NETS for faction in ("british", "malay")]


@lru_cache(maxsize=None)
def corpus(prior: bool) -> tuple:
    """Positions of random games of every ruleset (with the heuristic prior's columns
    for the networks that read them: fewer, the prior is slow)."""
    seeds, every = (range(3), 10) if prior else (range(8), 5)
    return tuple(p for ruleset in native.NATIVE_RULESETS
                 for p in random_positions(ruleset, seeds, every, "heuristic" if prior else None))


@lru_cache(maxsize=None)
def flat_policy(activation: str) -> NumpyPolicy:
    """A flat actor of the shape training exports (two hidden layers), its weights
    rounded to float16 as a shipped file's are (and read back as float32)."""
    rng = np.random.default_rng(len(activation))
    d = len(corpus(False)[0]["observation"])

    def half_floats(*shape, scale):
        return rng.normal(0, scale, shape).astype(np.float16)

    layers = [(half_floats(d, 256, scale=0.05), half_floats(256, scale=0.1)),
              (half_floats(256, 256, scale=0.1), half_floats(256, scale=0.1))]
    return NumpyPolicy(layers, (half_floats(256, 1040, scale=0.3), half_floats(1040, scale=0.1)),
                       activation)


def half(positions: tuple, second: bool) -> tuple:
    """Every other position (the two networks of a pair share the corpus between them)."""
    return positions[int(second)::2]


def load(name: str):
    return NumpyPolicy.load(POLICY_DIR / name)


def check(result: Comparison, positions: int) -> None:
    print(f"\n{result}")
    assert result.positions == positions
    assert result.max_scaled_diff < TOLERANCE
    assert result.mismatches == 0
    assert result.tie_flips <= result.near_ties


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_networks_equal_numpy(name):
    policy = load(name)
    positions = half(corpus(bool(policy.meta.get("candidate_prior"))), "malay" in name)
    result = compare(policy, positions)
    check(result, len(positions))
    assert result.max_abs_diff > 0  # the outputs were compared (float32 sums apart)


def test_a_network_reading_the_prior_equals_numpy(zero_copy):
    """No shipped network reads the heuristic prior's columns; one that does (``zero``'s
    weights, told to) reads them natively as numpy does."""
    policy = NumpyPolicy.load(zero_copy(candidate_prior="heuristic") / "british.npz")
    positions = corpus(True)
    result = compare(policy, positions)
    check(result, len(positions))
    assert result.max_abs_diff > 0


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_flat_networks_equal_numpy(activation):
    policy = flat_policy(activation)
    positions = half(corpus(False), activation == "relu")
    check(compare(policy, positions), len(positions))


def test_the_corpus_covers_every_ruleset_and_many_positions():
    assert len(corpus(False)) > 1000 and len(corpus(True)) > 200
    decisions = sum(int(p["action_mask"].sum() > 1) for p in corpus(False))
    assert decisions > 800
    asked = [p for p in corpus(True) if p["action_mask"].sum() > 1]
    scored = [p for p in asked if p["candidate_features"][:, 9:].any()]
    assert len(scored) > len(asked) / 2  # the prior's columns are written


def test_a_difference_is_caught():
    """A test that cannot fail is a defect: a changed weight or a swapped decision shows."""
    policy = load("zero/british.npz")
    changed = NumpyPolicy.load(POLICY_DIR / "zero/british.npz")
    changed.arrays["action_bias"] = changed.arrays["action_bias"] + 1e-3
    positions = corpus(False)[:50]
    assert compare(changed, positions).max_scaled_diff < TOLERANCE  # the same net, both sides
    ours = native_actor(changed)
    result = Comparison()
    for p in positions:
        result.see(policy.logits(p), ours.logits(p))
    assert result.max_scaled_diff > TOLERANCE
    counted = Comparison()
    counted.decide(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]), np.array([1, 1, 1]))
    counted.decide(np.array([0.0, 1.0, 1.00005]), np.array([0.0, 1.0, 0.99]), np.array([1, 1, 1]))
    assert (counted.mismatches, counted.near_ties, counted.tie_flips) == (1, 1, 1)


def test_one_position_a_batch_and_threads_give_the_same_floats():
    policy = load("zero/malay.npz")
    positions = corpus(False)[:40]
    keys = ("observation", "candidate_card", "candidate_features", "projected_vp")
    rows = {k: np.stack([p[k] for p in positions]) for k in keys}
    one, three = native_actor(policy), native_actor(policy, threads=3)
    assert three.threads == 3
    batched = one.logits(rows)
    assert batched.shape == (40, 1040) and batched.dtype == np.float32
    assert np.array_equal(batched, three.logits(rows))
    assert np.array_equal(batched, np.stack([one.logits(p) for p in positions]))
    outcomes = three.outcome(rows)
    assert outcomes.shape == (40, 2)
    assert np.array_equal(outcomes, np.stack([one.outcome(p) for p in positions]))
    assert one.value(positions[0], 0.5) == pytest.approx(policy.value(positions[0], 0.5), abs=1e-5)
    assert np.allclose(one.value(rows, 0.5), outcomes[:, 0] + 0.5 * outcomes[:, 1])
    mask = positions[0]["action_mask"]
    assert one.choose(positions[0], mask, None) == policy.choose(positions[0], mask, None)


def test_refusals_name_the_problem():
    from agents.net_files import POINTER_KEYS
    from agents.pointer_actor import VALUE_KEYS, PointerActor

    pointer = native_actor(load("zero/british.npz"))
    zero = load("zero/malay.npz")
    value_only = native_actor(PointerActor(
        {k: v for k, v in zero.arrays.items() if k not in POINTER_KEYS}, zero.activation))
    no_value = PointerActor({k: v for k, v in zero.arrays.items() if k not in VALUE_KEYS})
    flat = native_actor(flat_policy("tanh"))
    p = dict(corpus(False)[3])
    with pytest.raises(ValueError, match="this network reads 5150 inputs but"):
        pointer.logits({**p, "observation": p["observation"][:-1]})
    with pytest.raises(ValueError, match="reads .* inputs but"):
        flat.logits(np.zeros(7, np.float32))
    with pytest.raises(ValueError, match="no value head"):
        native_actor(no_value).outcome(p)
    with pytest.raises(ValueError, match="no policy head"):
        value_only.logits(p)
    card = p["candidate_card"].copy()
    card[np.flatnonzero(p["action_mask"])[0]] = 500
    with pytest.raises(ValueError, match="candidate card 500.* outside the card embedding"):
        pointer.logits({**p, "candidate_card": card})
    with pytest.raises(ValueError, match="candidate_features: expected an array of shape"):
        pointer.logits({**p, "candidate_features": p["candidate_features"][:, :5]})
    with pytest.raises(ValueError, match="value_w1: expected shape"):
        native.require().Net({**load("zero/british.npz").arrays,
                              "value_w1": np.zeros((3, 2), np.float32)}, "tanh", 2.5)
    with pytest.raises(ValueError, match="unknown activation"):
        native.require().Net(load("zero/british.npz").arrays, "gelu", 2.5)


def test_without_the_module_it_says_so(monkeypatch):
    monkeypatch.setattr(native.loading, "_native", None)
    with pytest.raises(native.NativeUnavailable, match="not built here"):
        native_actor(load("zero/british.npz"))


def test_a_policys_native_twin_does_not_keep_it_alive():
    # Trainers export a new policy after every update: its cached twin (and the C++
    # network) must go with it, or each update leaks a network's weights.
    import gc
    import weakref

    from agents.native_nets import native_twin

    policy = load("zero/british.npz")
    twin = native_twin(policy)
    assert native_twin(policy) is twin
    gone = weakref.ref(policy)
    del policy, twin
    gc.collect()
    assert gone() is None
