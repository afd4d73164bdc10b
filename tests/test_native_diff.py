"""The native engine against the Python engine (its oracle), decision for decision on
random games of every ruleset: at every step the same legal decisions in the same order
and the same save, byte for byte (the whole state with its pending frames, the
generator state, the decision log), and at the end the same final scores. With changed
numbers and edited card data too; saves cross between the engines.
``scripts/native_soak.py`` plays the same comparison on many more games."""

import random
import shutil

import pytest

from singapore_env import native
from singapore_env.engine.config import ConfigError, RulesConfig
from singapore_env.engine.content import DATA_DIR, load_content
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.game import Game, IllegalDecision
from singapore_env.engine.save_validation import SaveFormatError
from singapore_env.engine.scenario import give_tableau, put_on_top

pytestmark = pytest.mark.skipif(not native.available(),
                                reason="the native engine is not built here")

def assert_same_game(seed: int, cfg=None, content=None) -> int:
    """Play one random game on both engines (``native.compare_random_game``); return
    the number of decisions."""
    decisions, difference = native.compare_random_game(seed, cfg, content)
    assert not difference
    return decisions


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_random_games_equal_the_python_engine(ruleset):
    cfg = RulesConfig.named(ruleset)
    assert sum(assert_same_game(seed, cfg) for seed in range(40)) > 5000


def test_games_follow_the_configuration():
    for cfg in (RulesConfig.standard(market_slots=7, event_i_cards=1, event_ii_cards=2,
                                     war_cost=2, district_threshold=3),
                RulesConfig.standard(slavery=False, spoils_sharing="optional",
                                     conflict_vp_full_strength=False, max_tableau=6),
                RulesConfig.named("simulation", anglo_dutch_ship_threshold=0, folk_hero_cost=0,
                                  max_hand=2),
                RulesConfig.named("first-edition", fe_raid_d4=20, fe_war_d4=20, max_hand=1,
                                  max_tableau=4, war_dice=20)):
        for seed in range(4):
            assert_same_game(seed, cfg)


@pytest.mark.parametrize("shortlist", [1, 2])
def test_the_search_shortlist_is_a_setting_both_engines_follow(shortlist):
    """Alexander Guthrie's Search finds both Goods Trading cards; the seat is offered
    the first ``search_shortlist`` of them (one: bought without a question), alike on
    both engines."""
    cfg = RulesConfig.standard(search_shortlist=shortlist)
    python, pick = Game(7, cfg, keep_text_log=False), random.Random(7)
    while not (python.pending.kind == "actions" and python.pending.d.left > 0):
        python.step(pick.choice(python.legal_decisions()))
    seat = python.pending.seat
    give_tableau(python, seat, "alexander_guthrie")
    found = [put_on_top(python, python.s.market_deck, key)
             for key in ("gambier_pepper_trading", "tin_textile_trading")]
    python.s.wealth[seat] = 30
    python = Game.from_json(python.to_json())  # (asks its question again)
    ours = native.NativeGame.from_json(python.to_json())
    search = Decision(Kind.SEARCH, len(python.s.tableau[seat]) - 1)
    assert search in python.legal_decisions() and search in ours.legal_decisions()
    python.step(search)
    ours.step(search)
    if shortlist == 1:
        bought = min(found)
        assert bought in [slot.card for slot in python.s.tableau[seat]] \
            or python.pending.kind == "connect"
        assert bought not in python.s.market_deck and max(found) in python.s.market_deck
    else:
        assert python.pending.kind == "search_pick"
        assert sorted(python.pending.d.options) == sorted(found)
    assert not native.differences(python, ours)
    while not python.is_over:
        decision = pick.choice(python.legal_decisions())
        python.step(decision)
        ours.step(decision)
    assert not native.differences(python, ours)


@pytest.mark.parametrize("shortlist", [0, 5])
def test_the_search_shortlist_fits_the_menu(shortlist):
    with pytest.raises(ConfigError, match="search_shortlist must be in 1..4"):
        RulesConfig.standard(search_shortlist=shortlist)


def test_games_follow_edited_content(tmp_path):
    shutil.copytree(DATA_DIR, tmp_path / "data")
    cards = tmp_path / "data" / "cards.toml"
    cards.write_text(cards.read_text().replace("count = 2", "count = 3"))
    content = load_content(tmp_path / "data")
    for seed in range(4):
        assert_same_game(seed, content=content)


def test_clone_is_independent():
    game = native.NativeGame(3)
    copy = game.clone()
    game.step(game.legal_decisions()[0])
    assert copy.to_dict()["state"]["decisions"] == 0
    assert game.to_dict()["state"]["decisions"] == 1
    python = Game(3, keep_text_log=False)
    assert not native.differences(python, copy)


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_a_clone_at_every_step_plays_on_as_its_original(ruleset):
    """A clone taken at every step (each of the one before: shared logs, fights' frames
    copied with their lists, the others without) steps as the Python game does."""
    for seed in range(3):
        python = Game(seed, RulesConfig.named(ruleset), keep_text_log=False)
        ours, pick = native.NativeGame(seed, RulesConfig.named(ruleset)), random.Random(seed)
        left_behind = []
        while not python.is_over:
            ours = ours.clone()
            left_behind.append(ours.clone())
            decision = pick.choice(python.legal_decisions())
            python.step(decision)
            ours.step(decision)
            assert ours.legal_decisions() == python.legal_decisions()
            if python.s.decisions % 20 == 0:
                assert not native.differences(python, ours)
        assert not native.differences(python, ours)
        assert [g.decisions for g in left_behind] == list(range(len(left_behind)))


def test_illegal_decisions_are_refused_in_the_python_engines_words():
    python, ours = Game(1, keep_text_log=False), native.NativeGame(1)
    before = ours.to_json()
    for bad in [(99, 0), (0, 99), (5, 0), (2, 2**40), "pass", (1.5, 0), None, (True, 0)]:
        with pytest.raises(IllegalDecision) as theirs:
            python.step(bad)
        with pytest.raises(IllegalDecision) as mine:
            ours.step(bad)
        assert str(mine.value) == str(theirs.value)
    assert ours.to_json() == before


@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS)
def test_saves_cross_between_the_engines(ruleset):
    """A native save mid-game continues on the Python engine, and a Python save on the
    native engine, each equal to the other engine step by step to the end."""
    cfg = RulesConfig.named(ruleset)
    for seed in range(3):
        python, ours = Game(seed, cfg, keep_text_log=False), native.NativeGame(seed, cfg)
        pick = random.Random(seed)
        for _ in range(60 + 40 * seed):  # into the middle of a round (or a War)
            decision = pick.choice(python.legal_decisions())
            python.step(decision)
            ours.step(decision)
        from_native = Game.from_json(ours.to_json())
        from_python = native.NativeGame.from_json(python.to_json())
        while not python.is_over:
            assert not native.differences(from_native, from_python)
            decision = pick.choice(python.legal_decisions())
            for game in (python, from_native, from_python):
                game.step(decision)
        assert from_native.final_scores == from_python.final_scores == python.final_scores


def test_a_bad_save_is_the_python_loaders_error():
    with pytest.raises(SaveFormatError, match="not JSON"):
        native.NativeGame.from_json("{")


def test_a_game_the_content_cannot_make_is_the_same_error():
    cfg = RulesConfig.standard(event_i_cards=7)
    with pytest.raises(ConfigError, match="not enough Event cards") as python_error:
        Game(1, cfg)
    with pytest.raises(ConfigError) as native_error:
        native.NativeGame(1, cfg)
    assert str(native_error.value) == str(python_error.value)


def test_play_random_plays_whole_games():
    summary = native.play_random(range(5))
    assert summary["games"] == 5 and summary["decisions"] == sum(summary["decisions_per_game"])
    assert all(len(scores) == 4 for scores in summary["final_scores"])
    # the same games again: the same numbers (the picks are seeded)
    assert native.play_random(range(5)) == summary


def test_bad_seed_is_refused():
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        native.NativeGame(-1)
