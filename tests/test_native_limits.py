"""Numbers at the limits (docs/native.md, "Numbers"): with every score-giving setting
and content number at its maximum (10**6), both engines play the same games, scores
far past 32,767 (the old 16-bit room) come out right and every save loads; a game whose
numbers would pass the limit of a game's numbers (10**9) stops with the same
OverflowError on both engines, never a wrapped number."""

import json
import random
import re
import shutil

import pytest

from singapore_env import env, native
from singapore_env.engine.config import MAX_VALUE, NUMBER_LIMIT, RulesConfig
from singapore_env.engine.content import DATA_DIR, ContentError, load_content
from singapore_env.engine.game import Game

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

#: The settings that give VP, dollars or tokens, at their maximum.
GIVING = dict(first_round_income=MAX_VALUE, leader_money=MAX_VALUE,
              leader_storehouse_tokens=MAX_VALUE, outlaw_vp=MAX_VALUE,
              conflict_money_strength=MAX_VALUE, ally_income=MAX_VALUE,
              leader_spoils_bonus_vs_agents=MAX_VALUE)


def play_both(seed: int, cfg: RulesConfig, content=None) -> Game:
    """One random game on both engines, compared (``compare_random_game``), then the
    Python game's save checked to load on both; returns the Python game."""
    decisions, difference = native.compare_random_game(seed, cfg, content, save_every=10)
    assert not difference
    python = Game(seed, cfg, content, keep_text_log=False)
    pick = random.Random(seed)
    while not python.is_over:
        python.step(pick.choice(python.legal_decisions()))
    text = python.to_json()
    assert Game.from_json(text, content).to_json() == text
    assert native.NativeGame.from_json(text, content).to_json() == text
    return python


@pytest.mark.parametrize("ruleset", ["standard", "simulation"])
def test_settings_at_their_maximum_play_alike_past_16_bits(ruleset):
    cfg = RulesConfig.named(ruleset, **GIVING)
    scores = [play_both(seed, cfg).final_scores for seed in range(3)]
    assert max(max(s) for s in scores) > 1_000_000  # far past 32,767


def test_content_numbers_at_their_maximum_play_alike(tmp_path):
    shutil.copytree(DATA_DIR, tmp_path / "data")
    cards, board = tmp_path / "data" / "cards.toml", tmp_path / "data" / "board.toml"
    text = re.sub(r'type = "vp", n = \d+\b', f'type = "vp", n = {MAX_VALUE}', cards.read_text())
    assert text != cards.read_text()
    cards.write_text(text)
    board.write_text(board.read_text().replace("multiplier = 3", f"multiplier = {MAX_VALUE}"))
    content = load_content(tmp_path / "data")
    cfg = RulesConfig.standard(outlaw_vp=MAX_VALUE)
    scores = [play_both(seed, cfg, content).final_scores for seed in range(3)]
    assert max(max(s) for s in scores) > 32_767


def test_native_env_rewards_follow_scores_past_16_bits():
    """The env's win rewards on the native engine are the Python env's."""
    cfg = RulesConfig.standard(**GIVING)
    totals = {}
    for engine in ("python", "native"):
        e = env(config=cfg, engine=engine)
        e.reset(seed=1)
        rewards, pick = {a: 0.0 for a in e.possible_agents}, random.Random(1)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            rewards[agent] += reward
            legal = [i for i, m in enumerate(obs["action_mask"]) if m]
            e.step(None if term or trunc else pick.choice(legal))
        totals[engine] = rewards
    assert totals["python"] == totals["native"] and sum(totals["python"].values()) > 0


def test_a_loaded_district_past_16_bits_stays_whole():
    game = Game(2, keep_text_log=False)
    for _ in range(20):
        game.step(game.legal_decisions()[0])
    save = game.to_dict()
    save["state"]["districts"][0] = 40_000
    text = json.dumps(save)
    assert native.NativeGame.from_json(text).to_dict()["state"]["districts"][0] == 40_000


def test_numbers_past_the_limit_stop_both_engines_alike():
    """First-edition plunder multiplies three settings: at their maximum a War's plunder
    passes 10**9; both engines raise the same OverflowError at the same decision."""
    cfg = RulesConfig.named("first-edition", **GIVING, spoils_multiplier_floor=MAX_VALUE,
                            fe_vp_per_dollar=MAX_VALUE, fe_storehouse_strength=MAX_VALUE)
    stopped = 0
    for seed in range(6):
        python, ours = Game(seed, cfg, keep_text_log=False), native.NativeGame(seed, cfg)
        pick = random.Random(seed)
        while not python.is_over:
            decision = pick.choice(python.legal_decisions())
            try:
                python.step(decision)
            except OverflowError as exc:
                with pytest.raises(OverflowError) as theirs:
                    ours.step(decision)
                assert str(theirs.value) == str(exc)
                assert f"past {NUMBER_LIMIT}, the limit of a game's numbers" in str(exc)
                stopped += 1
                break
            ours.step(decision)
        else:
            assert ours.final_scores == python.final_scores
    assert stopped >= 1


@pytest.mark.parametrize("old, new, why", [
    ('type = "conflict", table = "tiger_attack", dice = 2', 'type = "conflict", table = "tiger_attack", dice = 21',
     r"instant\[0\].dice': must be in 0..20, got 21"),
    ('type = "vp_per_stored_tokens", per = 3', 'type = "vp_per_stored_tokens", per = 0',
     r"end_game\[0\].per': must be in 1..1000000, got 0"),
    ('type = "raid_hinder", n = 2', 'type = "raid_hinder", n = 51', r"must be in 0..50, got 51"),
])
def test_content_numbers_that_size_a_roll_or_a_question_have_their_range(tmp_path, old, new, why):
    """A roll holds at most 20 dice, a question's count at most 50, a divisor is not 0:
    refused when the content is loaded, naming the card and the field."""
    shutil.copytree(DATA_DIR, tmp_path / "data")
    cards = tmp_path / "data" / "cards.toml"
    assert old in cards.read_text()
    cards.write_text(cards.read_text().replace(old, new, 1))
    with pytest.raises(ContentError, match=why):
        load_content(tmp_path / "data")
