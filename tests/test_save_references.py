"""What a saved game's pending frames refer to (``engine/save_references.py``): a save
whose frame names a card, a boost or a track position that is not there is refused by
both loaders with a SaveFormatError naming the frame's field, and the native engine's
own check (``native/rules_loaded.inc``) refuses the same states with a ValueError when
the Python validator is bypassed. Real saves at every decision point load in both."""

import json
import random

import pytest

from singapore_env import native
from singapore_env.engine import Game, SaveFormatError
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.rules.raid import once_per_round_boost

needs_native = pytest.mark.skipif(not native.available(),
                                  reason="the native engine is not built here")


def _save_where(ruleset: str, found) -> dict:
    """The save of the first decision point of a random game where ``found(g)``."""
    for seed in range(50):
        g, pick = Game(seed, RulesConfig.named(ruleset), keep_text_log=False), random.Random(seed)
        while not g.is_over:
            if found(g):
                return json.loads(g.to_json())
            g.step(pick.choice(g.legal_decisions()))
    raise AssertionError("no such decision point")


def _connecting(g) -> bool:
    top = g.s.stack[-1]
    return top.kind == "connect" and any(s.card == top.d.card for s in g.s.tableau[top.seat])


def _acting(g) -> bool:
    return g.s.stack[-1].kind == "actions" and g.s.round >= 2


def _card_without(boost: str, category: str = "battle") -> int:
    c = Game(0).c
    return next(i for i, d in enumerate(c.defs)
                if d.category == category and d.boost(boost) is None)


def connect_elsewhere() -> dict:
    """A connect frame naming a Market card that is not in its seat's tableau."""
    save = _save_where("standard", _connecting)
    state = save["state"]
    state["stack"][-1]["d"]["card"] = state["market_deck"][0]
    return save


def connect_moved() -> dict:
    """A connect frame (its card just placed) moved to another seat."""
    save = _save_where("standard", _connecting)
    top = save["state"]["stack"][-1]
    top["seat"] = (top["seat"] + 1) % 4
    return save


def reroll_without_boost() -> dict:
    """A re-roll question about a Raid's roll, naming a Battle card with no re-roll boost."""
    save = _save_where("standard", _acting)
    seat = save["state"]["stack"][-1]["seat"]
    card = _card_without("reroll")
    save["state"]["stack"] += [
        {"kind": "raid", "seat": seat, "d": {"phase": 1, "roll": 2, "hinder": 0, "roll_dice": [2]}},
        {"kind": "reroll", "seat": seat,
         "d": {"parent": "raid", "field": "roll", "card": card, "dice": 1}}]
    return save


def hinder_without_boost() -> dict:
    """A hinder question to a seat that holds no raid-hinder boost."""
    save = _save_where("standard", _acting)
    g = Game.from_json(json.dumps(save))
    seat = save["state"]["stack"][-1]["seat"]
    other = next(p for p in range(4)
                 if p != seat and once_per_round_boost(g, p, "raid_hinder")[0] is None)
    save["state"]["stack"] += [
        {"kind": "raid", "seat": seat, "d": {"phase": 2, "roll": 2, "hinder": 0, "roll_dice": [2]}},
        {"kind": "hinder", "seat": other, "d": {}}]
    return save


def fund_close_past_the_track() -> dict:
    """A fund_close frame whose token index is past the Public Works track."""
    save = _save_where("standard", _acting)
    state = save["state"]
    seat = state["stack"][-1]["seat"]
    state["stack"].append({"kind": "fund_close", "seat": seat,
                           "d": {"index": len(state["pw_track"])}})
    return save


REPROS = {
    "connect elsewhere": (connect_elsewhere, r"stack\[\d+\] connect\.d\.card: .* is not in "
                                             r"seat \d's tableau"),
    "connect moved": (connect_moved, r"stack\[\d+\] connect\.d\.card: .* is not in seat \d's"),
    "reroll without boost": (reroll_without_boost,
                             r"stack\[\d+\] reroll\.d\.card: .* has no re-roll boost"),
    "hinder without boost": (hinder_without_boost,
                             r"stack\[\d+\] hinder\.seat \d: the seat holds no unused "
                             r"raid-hinder boost"),
    "fund_close past the track": (fund_close_past_the_track,
                                  r"stack\[\d+\] fund_close\.d\.index \d+: past the Public "
                                  r"Works track"),
}


@pytest.mark.parametrize("name", REPROS)
def test_the_python_loader_refuses_a_frame_referring_to_nothing(name):
    make, words = REPROS[name]
    with pytest.raises(SaveFormatError, match=r"^inconsistent state: " + words):
        Game.from_json(json.dumps(make()))


@needs_native
@pytest.mark.parametrize("name", REPROS)
def test_the_native_loader_refuses_it_in_the_same_words(name):
    text = json.dumps(REPROS[name][0]())
    with pytest.raises(SaveFormatError) as theirs:
        Game.from_json(text)
    with pytest.raises(SaveFormatError) as ours:
        native.NativeGame.from_json(text)
    assert str(ours.value) == str(theirs.value)


#: The repros the native engine's own check names, past the Python validator.
NATIVE_WORDS = {
    "connect elsewhere": r"stack\[\d+\] connect\.d\.card: card \d+ is not in seat \d's tableau",
    "connect moved": r"stack\[\d+\] connect\.d\.card: card \d+ is not in seat \d's tableau",
    "reroll without boost": r"stack\[\d+\] reroll\.d\.card has no re-roll boost",
    "hinder without boost": r"stack\[\d+\] hinder\.seat \d holds no unused raid-hinder boost",
    "fund_close past the track": r"stack\[\d+\] fund_close\.d\.index \d+ is not in 0\.\.",
}


@needs_native
@pytest.mark.parametrize("name", REPROS)
def test_the_native_engine_checks_what_it_follows_itself(name):
    """The state handed straight to the native module (no Python validation) is refused
    with a ValueError, not followed."""
    good = _save_where("standard", _connecting if "connect" in name else _acting)
    g = Game.from_json(json.dumps(good))
    bad = REPROS[name][0]()["state"]
    module = native.require()
    args = (native._content(g.c), native._config(g.cfg))
    rng = native._halves_of(g.rng.bit_generator.state)
    history = [tuple(d) for d in g.history]
    module.load(*args, g.s.to_dict(), rng, history)  # the good state loads
    with pytest.raises(ValueError, match=r"^loaded state: " + NATIVE_WORDS[name]):
        module.load(*args, bad, rng, history)


@needs_native
@pytest.mark.parametrize("ruleset", native.NATIVE_RULESETS if native.available() else [])
def test_real_saves_at_every_decision_point_load_in_both_engines(ruleset):
    g, pick = Game(11, RulesConfig.named(ruleset), keep_text_log=False), random.Random(11)
    while not g.is_over:
        text = g.to_json()
        assert Game.from_json(text).legal_decisions() == g.legal_decisions()
        assert native.NativeGame.from_json(text).legal_decisions() == g.legal_decisions()
        g.step(pick.choice(g.legal_decisions()))
