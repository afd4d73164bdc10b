"""The native engine against the Python engine (its oracle), decision for decision as
far as the native engine goes: so far the setup of a game (decks, first player, market,
hands and the generator's state after them) in every ruleset, with edited content and
changed numbers too."""

import shutil

import numpy as np
import pytest

from singapore_env import native
from singapore_env.engine.config import ConfigError, RulesConfig
from singapore_env.engine.content import DATA_DIR, load_content
from singapore_env.engine.game import Game
from singapore_env.engine.rulesets import BY_NAME
from singapore_env.engine.state import GameState

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")


def python_deal(seed, cfg, content=None) -> dict:
    """The Python engine's state right after its setup (before the first round runs)."""
    g = Game(seed, cfg, content, _empty=True)
    g.rng = np.random.Generator(np.random.PCG64(seed))
    g.s = GameState()
    g._setup()
    d = g.s.to_dict()
    d["rng"] = g.rng.bit_generator.state
    return d


def assert_same_deal(seed, cfg, content=None):
    ours, theirs = native.deal(seed, cfg, content), python_deal(seed, cfg, content)
    assert {k: theirs[k] for k in ours} == ours


@pytest.mark.parametrize("ruleset", list(BY_NAME))
def test_deal_equals_python_setup(ruleset):
    cfg = RulesConfig.named(ruleset)
    for seed in list(range(40)) + [2**40 + 3, 2**64 - 1]:
        assert_same_deal(seed, cfg)


def test_deal_follows_the_configuration():
    for cfg in (RulesConfig.standard(market_slots=7, event_i_cards=1, event_ii_cards=2),
                RulesConfig.standard(slavery=False),
                RulesConfig.named("simulation", sim_put_away_british=("artillery_4",))):
        for seed in range(10):
            assert_same_deal(seed, cfg)


def test_deal_follows_edited_content(tmp_path):
    shutil.copytree(DATA_DIR, tmp_path / "data")
    cards = tmp_path / "data" / "cards.toml"
    cards.write_text(cards.read_text().replace("count = 2", "count = 3"))
    content = load_content(tmp_path / "data")
    for ruleset in BY_NAME:
        for seed in range(10):
            assert_same_deal(seed, RulesConfig.named(ruleset), content)


def test_a_deal_the_content_cannot_make_is_the_same_error():
    cfg = RulesConfig.standard(event_i_cards=7)
    with pytest.raises(ConfigError, match="not enough Event cards") as python_error:
        Game(1, cfg)
    with pytest.raises(ConfigError) as native_error:
        native.deal(1, cfg)
    assert str(native_error.value) == str(python_error.value)


def test_bad_seed_is_refused():
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        native.deal(-1)
