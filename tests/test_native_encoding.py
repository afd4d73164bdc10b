"""The native observation encoder against the Python one: at every step of random games
of every ruleset, every seat's observation (float for float) and action mask equal the
Python encoder's of the same game on the Python engine. The Python encoder is the
reference of what each seat may see, so the hidden information stays hidden alike."""

import random

import numpy as np
import pytest

from singapore_env import native
from singapore_env.encoding import encoder_for
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content
from singapore_env.engine.game import Game

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

if native.available():
    from singapore_env.native.encoding import layout_record, native_encoder_for


def differing_steps(seed: int, cfg: RulesConfig) -> tuple[int, list[str]]:
    """Play one random game on both engines; (decisions, where an observation or mask of
    some seat differed)."""
    content = default_content(cfg.slavery)
    python_enc, native_enc = encoder_for(content, cfg), native_encoder_for(content, cfg)
    python, ours = Game(seed, cfg, content), native.NativeGame(seed, cfg, content)
    pick = random.Random(seed)
    bad = []
    while True:
        for seat in range(4):
            want, got = python_enc.encode(python, seat), native_enc.encode(ours, seat)
            if want.tobytes() != got.tobytes():
                parts_want, parts_got = python_enc.decode(want), python_enc.decode(got)
                names = [n for n in parts_want if not np.array_equal(parts_want[n], parts_got[n])]
                bad.append(f"seed {seed} decision {python.s.decisions} seat {seat}: {names}")
            if not np.array_equal(python_enc.legal_mask(python, seat),
                                  native_enc.legal_mask(ours, seat)):
                bad.append(f"seed {seed} decision {python.s.decisions} seat {seat}: mask")
        if python.is_over or bad:
            return python.s.decisions, bad
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_observations_and_masks_equal_the_python_encoder(ruleset):
    cfg = RulesConfig.named(ruleset)
    decisions = 0
    for seed in range(8):
        n, bad = differing_steps(seed, cfg)
        assert bad == []
        decisions += n
    assert decisions > 1000


def test_changed_numbers_change_both_encoders_alike():
    for cfg in (RulesConfig.standard(market_slots=4, event_i_cards=1, event_ii_cards=2,
                                     max_tableau=6),
                RulesConfig.named("first-edition", fe_war_d4=20, max_hand=3, war_dice=20)):
        assert differing_steps(1, cfg)[1] == []


def refusal(game, encoder, seed: int) -> tuple[int, str]:
    """Play random decisions until the acting seat's mask is refused: (decisions, why)."""
    pick = random.Random(seed)
    for step in range(10**5):
        try:
            encoder.legal_mask(game, game.acting_seat)
        except ValueError as exc:
            return step, str(exc)
        game.step(pick.choice(game.legal_decisions()))
    raise AssertionError("no refusal")


def test_a_decision_outside_the_table_is_refused_alike():
    cfg = RulesConfig.standard(market_slots=7)  # Market slots 5 and 6 have no index
    content = default_content(cfg.slavery)
    step, why = refusal(Game(1, cfg, content), encoder_for(content, cfg), 1)
    assert "engine decision Decision(BUY_MARKET, 5) is outside the action table" in why
    assert refusal(native.NativeGame(1, cfg, content), native_encoder_for(content, cfg),
                   1) == (step, why)


def test_the_layout_comes_from_the_python_encoder():
    cfg = RulesConfig.standard(market_slots=7)
    enc = encoder_for(default_content(cfg.slavery), cfg)
    record = layout_record(enc)
    assert record["offsets"] == enc.offsets and record["D"] == enc.size
    assert record["MK"] == len(enc.market_keys)


def test_wrong_buffers_are_refused():
    cfg = RulesConfig.standard()
    enc = native_encoder_for(default_content(cfg.slavery), cfg)
    game = native.NativeGame(0)
    with pytest.raises(ValueError, match="contiguous vector"):
        enc.encode(game, 0, np.zeros(enc.size - 1, np.float32))
    with pytest.raises(TypeError):
        enc.legal_mask(game, 0, np.zeros(enc.n_actions, np.float32))
    assert enc.legal_mask(game, (game.acting_seat + 1) % 4).sum() == 0


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_the_nonzero_entries_are_those_of_the_whole_observation(ruleset):
    """The rollouts' sparse encoding (encode_nonzero: only the entries written, its
    scratch zeroed again) finds what a scan of the whole vector finds, bit for bit."""
    cfg = RulesConfig.named(ruleset)
    content = default_content(cfg.slavery)
    enc = native_encoder_for(content, cfg)
    game, pick = native.NativeGame(3, cfg, content), random.Random(3)
    while not game.is_over:
        for seat in range(4):
            whole = enc.encode(game, seat)
            index, value = enc._writer.nonzero(game._game, seat)
            assert np.array_equal(index, np.flatnonzero(whole))
            assert value.tobytes() == whole[index].tobytes()
        game.step(pick.choice(game.legal_decisions()))
