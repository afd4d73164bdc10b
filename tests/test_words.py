"""The game in words (singapore_env/words.py): every card's text written from its
effect records, no engine notation; every question kind of every ruleset asked in words
that name its place (the district or Storehouse, the Leader space, the card, the War,
the Raid, the Conflict, the Decree)."""

from __future__ import annotations

import random
import re

from singapore_env.engine import Game
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.query import DECISION_FRAME_KINDS
from singapore_env.words import (EFFECT_WORDS, QUESTIONS, card_words, leader_space_name,
                                 question_words, seat_words, space_name, store_card)


def _frame(g, *kinds):
    return next((f for f in reversed(g.s.stack) if f.kind in kinds), None)


def _war(g):
    f = _frame(g, "war", "war_fe")
    return seat_words(f.d.defender)


def _raider(g):
    return seat_words(_frame(g, "raid", "raid_fe").seat)


def _card(g, cid):
    return g.c.defs[cid].name


#: Question kind -> the place its words must name (``g`` the game, ``f`` its frame).
PLACES = {
    "place_leader": lambda g, f: leader_space_name(g, g.s.leader_space.index(-1)),
    "leader_action": lambda g, f: leader_space_name(g, f.d.space),
    "actions": lambda g, f: f"{f.d.left} left",
    "attach_pop": lambda g, f: _card(g, f.d.card),
    "connect": lambda g, f: _card(g, f.d.card),
    "influence": lambda g, f: (space_name(g, f.d.pos) if f.d.asking
                               else store_card(g, f.seat) if "Store some" in question_words(g)
                               else "district or Storehouse"),
    "remove_influence": lambda g, f: "districts or a Storehouse",
    "keep_battle": lambda g, f: _card(g, f.d.cards[0]),
    "search_pick": lambda g, f: _card(g, f.d.options[0]),
    "reroll": lambda g, f: _card(g, f.d.card),
    "hinder": lambda g, f: _raider(g), "fe_intervene": lambda g, f: _raider(g),
    "fe_hinder": lambda g, f: _raider(g),
    "veto": lambda g, f: g.c.board.vices[f.d.vice],
    "war_join": lambda g, f: _war(g), "war_accept": lambda g, f: _war(g),
    "war_commit": lambda g, f: _war(g), "war_discard": lambda g, f: _war(g),
    "spoils": lambda g, f: _war(g), "share": lambda g, f: _war(g),
    "ally_pay": lambda g, f: _war(g), "fe_tokens": lambda g, f: _war(g),
    "fe_donate": lambda g, f: _war(g), "fe_plunder": lambda g, f: _war(g),
    "fe_commit": lambda g, f: _raider(g) if f.d.parent == "raid_fe" else _war(g),
    "contribute": lambda g, f: _card(g, g.s.current_event),
    "moves": lambda g, f: "tableau", "lose_pop": lambda g, f: "tableau",
    "boom_pick": lambda g, f: "Market", "ruler_buy": lambda g, f: "Market",
    "fund_close": lambda g, f: seat_words(g.s.pw_track[f.d.index]),
    "declare_role": lambda g, f: "Colonial Ruler",
    "storehouse_veto": lambda g, f: "British Storehouse",
}


def test_every_question_kind_is_asked_in_words_naming_its_place():
    assert set(PLACES) == set(DECISION_FRAME_KINDS) <= set(QUESTIONS)
    seen: dict[str, int] = {}
    asked_at_a_storehouse = False
    for ruleset, seeds in (("first-edition", 12), ("simulation", 12), ("standard", 150)):
        for seed in range(seeds):
            g, rng = Game(seed, RulesConfig.named(ruleset)), random.Random(seed)
            while not g.is_over:
                f = g.pending
                words = question_words(g)
                assert PLACES[f.kind](g, f) in words, (f.kind, words)
                assert "_" not in words, words
                seen[f.kind] = seen.get(f.kind, 0) + 1
                asked_at_a_storehouse |= f.kind == "influence" and "Storehouse?" in words
                g.step(rng.choice(g.legal_decisions()))
            if ruleset == "standard" and set(seen) >= DECISION_FRAME_KINDS:
                break
    assert set(seen) == DECISION_FRAME_KINDS and asked_at_a_storehouse


def test_every_card_has_text_in_words():
    g = Game(1)
    used = set()
    for cdef in g.c.defs:
        text = card_words(cdef)
        records = cdef.instant + cdef.action + cdef.boosts + cdef.end_game + cdef.modifiers
        assert bool(text) == bool(records or cdef.category == "battle" or cdef.legacies), cdef.name
        assert not re.search(r"\w_\w|\w=\w|\(s\)", text), (cdef.name, text)
        used |= {e.type for e in records}
    assert used - {"commerce_half", "market_price", "war_cost", "decree_cost",
                   "populate_influence"} <= set(EFFECT_WORDS)


def test_card_words_read_like_the_rulebook():
    g = Game(1)
    by_name = {d.name: d for d in g.c.defs}
    assert card_words(by_name["Police Force"]) == (
        "Instant: 2 Influence; a token on the Public Works track. Action: 1 Influence. "
        "Boost: +1 against Conflicts; discard it in a War for +1 strength.")
    assert "Market cards cost $1 less while your Leader is on a Market space" in \
        card_words(by_name["Sultan"])
    assert card_words(by_name["Minor Economic Recession"]).endswith(
        "This round: Commerce cards give half their dollars (rounded up).")


def test_answers_on_the_board_name_their_place():
    from singapore_env.engine.decisions import Kind
    from singapore_env.words import decision_words

    g, rng, named = Game(2), random.Random(2), set()
    places = {Kind.INFLUENCE_START: space_name, Kind.REMOVE_INFLUENCE: space_name,
              Kind.PLACE_LEADER: leader_space_name}
    while not g.is_over:
        for d in g.legal_decisions():
            if d.kind in places:
                assert places[d.kind](g, d.arg) in decision_words(g, d)
                named.add(d.kind)
        g.step(rng.choice(g.legal_decisions()))
    assert named >= {Kind.INFLUENCE_START, Kind.PLACE_LEADER}


def test_answers_name_cards_plainly_and_count_market_slots_from_one():
    """No engine notation in any legal answer of three rulesets' games: cards by name
    (not ``#3``), no "pop" or "standalone", Market slots from 1, no ids."""
    from singapore_env.engine.decisions import Kind
    from singapore_env.words import decision_words

    notation = re.compile(r"#\d|\bpop\b|standalone|\bmarket slot\b|_|\(\d+, \d+\)")
    kinds = set()
    for ruleset, seed in (("standard", 3), ("standard", 4), ("first-edition", 5),
                          ("simulation", 6)):
        g, rng = Game(seed, RulesConfig.named(ruleset)), random.Random(seed)
        while not g.is_over:
            for d in g.legal_decisions():
                words = decision_words(g, d)
                assert not notation.search(words), (g.pending.kind, d, words)
                if d.kind == Kind.BUY_MARKET:
                    assert f"(Market slot {d.arg + 1})" in words, words
                kinds.add(Kind(d.kind))
            g.step(rng.choice(g.legal_decisions()))
    assert {Kind.BUY_MARKET, Kind.ATTACH_POP, Kind.ACTIVATE, Kind.CONNECT} <= kinds
