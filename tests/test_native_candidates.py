"""The native candidate features against the Python ones: at every step of random games
of every ruleset, every seat's candidate cards, features and projected VP equal the
Python encoder's of the same game on the Python engine, float for float."""

import random

import numpy as np
import pytest

from singapore_env import native
from singapore_env.candidates import CandidateEncoder
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content
from singapore_env.engine.game import Game
from singapore_env.env import raw_env

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

if native.available():
    from singapore_env.native.encoding import NativeCandidateEncoder, native_encoder_for


def differing_steps(seed: int, cfg: RulesConfig) -> tuple[int, int, list[str]]:
    """Play one random game on both engines: (decisions, candidate rows compared, where
    a seat's candidate keys differed)."""
    content = default_content(cfg.slavery)
    python_enc = CandidateEncoder.for_observations(encoder_for(content, cfg))
    native_enc = NativeCandidateEncoder(native_encoder_for(content, cfg))
    python, ours = Game(seed, cfg, content), native.NativeGame(seed, cfg, content)
    pick = random.Random(seed)
    bad, rows = [], 0
    while True:
        for seat in range(4):
            want, got = python_enc.encode(python, seat), native_enc.encode(ours, seat)
            names = [k for k in want if want[k].tobytes() != got[k].tobytes()]
            if names:
                bad.append(f"seed {seed} decision {python.s.decisions} seat {seat}: {names}")
            rows += int(want["candidate_features"][:, 0].sum())
        if python.is_over or bad:
            return python.s.decisions, rows, bad
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_candidate_features_and_projected_vp_equal_the_python_encoders(ruleset):
    cfg = RulesConfig.named(ruleset)
    decisions = rows = 0
    for seed in range(6):
        n, r, bad = differing_steps(seed, cfg)
        assert bad == []
        decisions, rows = decisions + n, rows + r
    assert decisions > 1000 and rows > decisions


def test_changed_numbers_change_both_alike():
    cfg = RulesConfig.standard(market_slots=4, max_tableau=6, battle_card_price=1)
    assert differing_steps(2, cfg)[2] == []


def test_the_writer_checks_its_arrays():
    cfg = RulesConfig.standard()
    enc = NativeCandidateEncoder(native_encoder_for(default_content(), cfg))
    game = native.NativeGame(1, cfg)
    with pytest.raises(ValueError, match="features"):
        enc._writer.write(game._game, 0, np.zeros(enc.n_actions, np.float32),
                          np.zeros((enc.n_actions, 3), np.float32))
    with pytest.raises(ValueError, match="seat"):
        enc.encode(game, 4)


def test_the_native_env_serves_the_candidate_keys_of_the_python_env():
    envs = [raw_env(engine=engine, candidates=True) for engine in ("python", "native")]
    for e in envs:
        e.reset(seed=7)
    pick = random.Random(7)
    for _ in range(150):
        obs = [e.observe(e.agent_selection) for e in envs]
        for key in ("candidate_card", "candidate_features", "projected_vp", "observation"):
            assert obs[0][key].tobytes() == obs[1][key].tobytes(), key
        if envs[0].terminations[envs[0].agent_selection]:
            break
        action = pick.choice(list(np.flatnonzero(obs[0]["action_mask"])))
        for e in envs:
            e.step(int(action))
    with pytest.raises(ValueError, match="candidate prior"):
        raw_env(engine="native", candidates=True, candidate_prior=lambda game, seat: [])


def test_projected_vp_reads_either_engine():
    from singapore_env.candidates import projected_vp

    python, ours = Game(3), native.NativeGame(3)
    pick = random.Random(3)
    for _ in range(200):
        for seat in range(4):
            assert projected_vp(python, seat).tobytes() == projected_vp(ours, seat).tobytes()
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)
