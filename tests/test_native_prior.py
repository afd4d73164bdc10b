"""The players that read the heuristic's prior on the native engine: the candidate
columns ``prior_score`` / ``prior_gap`` written for a native game from the heuristic
twin's option scores equal the Python encoder's, and ``rerank`` and ``learned:PATH`` with
pointer policies reading those columns (no shipped network does: the shipped ``zero``'s
weights told to read them, ``zero_copy``) make the same decisions on both engines, step
by step and in the arena's records."""

import random

import numpy as np
import pytest

from agents.prior_twin import compare_players
from agents.priors import resolve_prior
from agents.registry import make_agent
from arena.runner import Table, play_tables
from singapore_env import native
from singapore_env.candidates import FEATURES, CandidateEncoder
from singapore_env.encoding import encoder_for
from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import default_content

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

PRIOR = FEATURES.index("prior_score")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_prior_columns_equal_the_python_encoders(ruleset):
    """Random games on both engines; at every scored question (and every fifth other) the
    acting seat's and another seat's candidate keys, prior columns included, are the
    same floats."""
    from singapore_env.native.encoding import native_encoder_for

    cfg = RulesConfig.named(ruleset)
    content = default_content(cfg.slavery)
    python_enc = CandidateEncoder.for_observations(encoder_for(content, cfg),
                                                   resolve_prior("heuristic"))
    native_enc = CandidateEncoder.for_observations(native_encoder_for(content, cfg),
                                                   resolve_prior("heuristic"))
    assert type(native_enc).__name__ == "NativeCandidateEncoder"
    scored = others = 0
    for seed in range(3):
        python, ours, pick = Game(seed, cfg, keep_text_log=False), \
            native.NativeGame(seed, cfg), random.Random(seed)
        while not python.is_over:
            assert ours.pending.kind == python.pending.kind
            legal = python.legal_decisions()
            seat = python.acting_seat
            if python.pending.kind in ("place_leader", "leader_action", "actions",
                                       "influence") or python.s.decisions % 5 == 0:
                for who in ((seat + 1) % 4, seat):  # (another seat's rows are zero)
                    want, got = python_enc.encode(python, who), native_enc.encode(ours, who)
                    for key in want:
                        assert np.array_equal(want[key], got[key]), (seed, python.s.decisions, key)
                prior = want["candidate_features"][:, PRIOR]  # the acting seat's
                scored += bool(np.any(prior != 0))
                others += not np.any(prior != 0)
            d = legal[pick.randrange(len(legal))]
            python.step(d), ours.step(d)
        assert ours.is_over and ours.pending is None  # as the Python engine's
    assert scored >= 150 and others >= 15, (scored, others)  # both kinds of positions


def test_rerank_and_a_learned_policy_reading_the_prior_decide_alike(zero_copy):
    folder = zero_copy(candidate_prior="heuristic")
    rerank, learned = f"rerank:net={folder}", f"learned:{folder}/malay.npz"
    players = (rerank, learned, f"{rerank}:margin=1", "heuristic")
    decisions, overruled = compare_players(3, players)
    assert decisions > 200
    assert overruled[rerank] + overruled[f"{rerank}:margin=1"] > 0  # the network chose
    decisions, _ = compare_players(8, (learned, "heuristic", "rerank", "random"),
                                   RulesConfig.named("simulation"))
    assert decisions > 200
    decisions, _ = compare_players(2, ("heuristic", rerank, learned, "rerank"),
                                   RulesConfig.named("first-edition"))
    assert decisions > 200


def test_rerank_seats_write_the_same_records(zero_copy):
    """What ``simulate --engine native|python --records`` compares."""
    folder = zero_copy(candidate_prior="heuristic")
    table = Table((f"rerank:net={folder}", "heuristic", "rerank:net=zero",
                   f"learned:{folder}/british.npz"))
    python, ours = (play_tables([table], 1, 21, swap=True, engine=e) for e in ("python", "native"))
    assert len(ours) == 2 and ours == python
    seats = ("vp_lieutenant_governor", "vp_resident", "vp_temenggong", "vp_sultan")
    assert len({tuple(r[k] for k in seats) for r in ours}) > 1  # two games, not one repeated


def test_rerank_with_other_prior_params_thinks_in_steps(zero_copy):
    """A prior with other params than the prior columns' scorer: the steps of
    ``RerankAgent.choose`` on the native twins, not the C++ player, the same decisions."""
    python, ours = Game(4, keep_text_log=False), native.NativeGame(4)
    spec = f"rerank:net={zero_copy(candidate_prior='heuristic')}"
    pairs = [(make_agent(spec), make_agent(spec)) for _ in range(4)]
    for i, (a, b) in enumerate(pairs):
        a.reset(i), b.reset(i)
        a.prior.params["action_cost"] = b.prior.params["action_cost"] = 0.5
    assert not pairs[0][1]._compiled()
    while not python.is_over:
        a, b = pairs[python.acting_seat]
        d = a.choose(python, python.acting_seat)
        assert b.choose(ours, python.acting_seat) == d, python.s.decisions
        python.step(d), ours.step(d)
    assert sum(a.overruled for a, _ in pairs) == sum(b.overruled for _, b in pairs) > 0
