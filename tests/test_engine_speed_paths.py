"""The engine's fast paths give exactly what the plain code gave (issue 8): dice drawn
one scalar at a time, per-card facts derived once, a seat's boosts read from a per-type
table, market prices with the discounts resolved once per question, card move targets,
and a state copy that writes out every field."""

from __future__ import annotations

import random

import numpy as np
import pytest

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import default_content
from singapore_env.engine import Game
from singapore_env.engine.rules.base import (FACES, faction, modifier_total, roll_d4, roll_dice,
                                      seat_boosts)
from singapore_env.engine.rules.market import leader_on_market_space, price_function
from singapore_env.engine.rules.roles import ally_dual_price
from singapore_env.engine.rules.tableau import DETACH, card_move_targets, joins, run_bounds
from singapore_env.engine.state import GameState


class _G:
    """Just what the dice helpers read: a generator."""

    def __init__(self, seed: int):
        self.rng = np.random.Generator(np.random.PCG64(seed))


@pytest.mark.parametrize("seed", range(20))
def test_dice_drawn_one_by_one_match_one_array_draw(seed):
    ours, ref = _G(seed), np.random.Generator(np.random.PCG64(seed))
    for dice in [1, 2, 3, 0, 5, 1, 12, 2]:
        assert roll_dice(ours, dice) == [FACES[x] for x in ref.integers(0, 6, size=dice)]
        assert roll_d4(ours, dice) == [int(x) for x in ref.integers(1, 5, size=dice)]
        assert ours.rng.bit_generator.state == ref.bit_generator.state


def test_per_card_facts_match_the_card_effects():
    content = default_content(True)
    for category, ids in content.category_ids.items():
        assert ids == {i for i, d in enumerate(content.defs) if d.category == category}
    assert set().union(*content.category_ids.values()) == set(range(len(content.defs)))
    assert content.pop_slots == tuple(d.pop_slots for d in content.defs)
    for cdef in content.defs:
        taxes = [e for e in cdef.instant if e.type == "tax"]
        assert cdef.tax_player == sum(e["player"] for e in taxes)
        assert cdef.tax_neutral == sum(e["neutral"] for e in taxes)
        for pops in range(4):
            cost = sum(-(e["n"] + e["per_pop"] * pops) for e in cdef.action
                       if e.type == "wealth" and e["n"] + e["per_pop"] * pops < 0)
            assert cdef.action_cost(pops) == cost


def _plain_seat_boosts(g, seat, kind):
    """The definition: the boosts of each face-up tableau card, then each revealed card."""
    cards = [slot.card for slot in g.s.tableau[seat] if slot.up] + g.s.revealed[seat]
    return [b for card in cards for b in g.c.defs[card].boosts if b.type == kind]


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_seat_boosts_match_the_definition(ruleset):
    rng, found = random.Random(11), 0
    kinds = sorted({b.type for d in default_content(True).defs for b in d.boosts})
    for seed in range(6):
        g = Game(seed, RulesConfig.named(ruleset), keep_text_log=False)
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
            for seat in range(4):
                for kind in kinds + ["no_such_boost"]:
                    boosts = seat_boosts(g, seat, kind)
                    assert boosts == _plain_seat_boosts(g, seat, kind)
                    found += len(boosts)
    assert found > 1000


def _mutate_every_list(x) -> None:
    """Append to every list reachable from ``x`` (lists, dicts, Slots, Frames)."""
    if isinstance(x, list):
        for item in x:
            _mutate_every_list(item)
        x.append(-99)
    elif isinstance(x, dict):
        for item in x.values():
            _mutate_every_list(item)
    elif hasattr(x, "__slots__"):
        for name in x.__slots__:
            _mutate_every_list(getattr(x, name))


@pytest.mark.parametrize("ruleset", ["standard", "simulation", "first-edition"])
def test_state_copy_sets_every_field_and_shares_nothing_mutable(ruleset):
    rng = random.Random(2)
    for seed in range(4):
        g = Game(seed, RulesConfig.named(ruleset))
        for _ in range(60 + 40 * seed):
            if g.is_over:
                break
            g.step(rng.choice(g.legal_decisions()))
        before = g.s.to_dict()
        copy = g.s.copy()
        assert all(hasattr(copy, name) for name in GameState.__slots__)
        assert copy.to_dict() == before
        # A recorded fact never changes, so its rows are shared by design: only the list
        # of facts is the copy's own.
        copy.facts.append(["raid", 0, 0, 0, 0])
        _mutate_every_list([getattr(copy, name) for name in GameState.__slots__
                            if name != "facts"])
        assert g.s.to_dict() == before


def _plain_move_targets(defs, row, src):
    """The definition: DETACH, or a free end of another run (run_bounds per position)."""
    a, b = run_bounds(row, src)
    if src not in (a, b):
        return []
    out = [DETACH] if a != b else []
    for p, slot in enumerate(row):
        if a <= p <= b:
            continue
        pa, pb = run_bounds(row, p)
        if p == pb and joins(defs, slot.card, row[src].card):
            out.append(p * 2 + 1)
        if p == pa and joins(defs, row[src].card, slot.card):
            out.append(p * 2)
    return out


def test_card_move_targets_match_the_definition_on_played_tableaux():
    rng, checked = random.Random(5), 0
    for seed in range(12):
        g = Game(seed, keep_text_log=False)
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
            for row in g.s.tableau:
                for src in range(len(row)):
                    assert (card_move_targets(g.c.defs, row, src)
                            == _plain_move_targets(g.c.defs, row, src))
                    checked += 1
    assert checked > 10_000


def _plain_price(g, seat, card, purchase):
    """The price rule as written before issue 8: every boost checked for every card."""
    d = g.c.defs[card]
    base = d.price[faction(seat)]
    ally_extra = ally_dual_price(g, seat)
    if ally_extra is not None and d.dual_price:
        base = min(base, d.price[0] + ally_extra)
    discount, once_used = 0, False
    for b in seat_boosts(g, seat, "price_discount"):
        if b["applies"] == "dual_price" and not d.dual_price:
            continue
        if b["applies"] == "public_works" and "public_works" not in d.kinds:
            continue
        if b["when"] == "leader_on_market_space" and not leader_on_market_space(g, seat):
            continue
        if b["once_per_turn"]:
            if not purchase or g.s.discount_used or once_used:
                continue
            once_used = True
        discount += b["n"]
    return max(0, base + modifier_total(g, "market_price") - discount), once_used


@pytest.mark.parametrize("ruleset", ["standard", "simulation"])
def test_market_prices_match_the_plain_rule(ruleset):
    rng, discounted = random.Random(9), 0
    for seed in range(15):
        g = Game(seed, RulesConfig.named(ruleset), keep_text_log=False)
        while not g.is_over:
            g.step(rng.choice(g.legal_decisions()))
            cards = [c for c in g.s.market if c >= 0] + g.s.market_deck[:6]
            for seat in range(4):
                for purchase in (True, False):
                    price = price_function(g, seat, purchase)
                    for card in cards:
                        assert price(card) == _plain_price(g, seat, card, purchase)
                discounted += bool(seat_boosts(g, seat, "price_discount"))
    assert discounted > 1000  # the discount path was exercised
