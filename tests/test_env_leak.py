"""Hidden information never reaches an observation.

For mid-game states (including pending Wars, Conflict contributions, draw-two-keep-one
and Search questions) we change, in a clone, everything the observer may not see: other
seats' hand cards (swapped with cards of their faction's Battle deck), the order of every
deck, other seats' undecided War commitments and Conflict contributions, another seat's
drawn or searched cards. The observer's vector must not change. Changing the observer's
own hand must change it (so the test can fail).
"""

from __future__ import annotations

import numpy as np
import pytest

from singapore_env.encoding import ObservationEncoder
from singapore_env.engine import Game
from singapore_env.engine.frames import WarPhase
from singapore_env.engine.rules.base import faction

ENC = ObservationEncoder()


def _find(pred, max_seeds: int = 60, per_seed: int = 2, want: int = 4, rng_seed: int = 0):
    """Clones of random-play states satisfying ``pred(game)``."""
    out = []
    rng = np.random.default_rng(rng_seed)
    for seed in range(max_seeds):
        g = Game(seed, keep_text_log=False)
        found = 0
        while not g.is_over and found < per_seed:
            if pred(g):
                out.append(g.clone())
                found += 1
            legal = g.legal_decisions()
            g.step(legal[int(rng.integers(len(legal)))])
        if len(out) >= want:
            break
    return out


def _frame(g, kind):
    for f in reversed(g.s.stack):
        if f.kind == kind:
            return f
    return None


def _hide(g: Game, observer: int, rng: np.random.Generator) -> Game:
    """A clone with everything ``observer`` may not see changed."""
    h = g.clone()
    s = h.s
    for q in range(4):
        if q == observer:
            continue
        deck = s.battle_deck[faction(q)]
        pool = deck if deck else s.battle_discard[faction(q)]
        hand = s.hands[q]
        for i in range(min(len(hand), len(pool))):
            j = int(rng.integers(len(pool)))
            hand[i], pool[j] = pool[j], hand[i]
    for pile in (s.market_deck, s.population_deck, s.event_deck, *s.battle_deck):
        pile.reverse()
        if len(pile) > 2:
            pile[0], pile[1] = pile[1], pile[0]
    for f in s.stack:
        d = f.d
        if f.kind == "war" and d.phase < WarPhase.SPOILS:
            for q, card in enumerate(d.commits):
                pool = s.battle_deck[faction(q)]
                if q != observer and card >= 0 and pool:
                    d.commits[q], pool[-1] = pool[-1], card
        elif f.kind == "conflict":
            for q in range(4):
                if q == observer:
                    continue
                pool = s.battle_deck[faction(q)]
                cards = d.cards[q]
                for i in range(len(cards)):
                    if pool:
                        cards[i], pool[-1] = pool[-1], cards[i]
                d.money[q] = d.money[q] + 1 if d.money[q] == 0 else 0
        elif f.kind == "keep_battle" and f.seat != observer:
            pool = s.battle_deck[faction(f.seat)]
            if len(pool) >= 2:
                d.cards[0], pool[0] = pool[0], d.cards[0]
                d.cards[1], pool[1] = pool[1], d.cards[1]
        elif f.kind == "search_pick" and f.seat != observer:
            d.options.reverse()
    return h


def _check(states, observers_of, label):
    assert states, f"no {label} state found"
    rng = np.random.default_rng(1)
    for g in states:
        for seat in observers_of(g):
            before = ENC.encode(g, seat)
            h = _hide(g, seat, rng)
            assert h.s.to_dict() != g.s.to_dict()
            assert np.array_equal(ENC.encode(h, seat), before), (label, seat, g.pending)


def test_no_leak_mid_game():
    states = _find(lambda g: g.s.round >= 3 and sum(map(len, g.s.hands)) >= 4, want=6)
    _check(states, lambda g: range(4), "mid-game")


def test_no_leak_pending_war_commitments():
    def pred(g):
        f = _frame(g, "war")
        return f is not None and f.d.phase < WarPhase.SPOILS and sum(c >= 0 for c in f.d.commits) >= 1
    states = _find(pred, max_seeds=200, want=4)
    _check(states, lambda g: range(4), "war before the roll")


def test_war_commitments_shown_after_the_roll():
    def pred(g):
        f = _frame(g, "war")
        return f is not None and f.d.phase >= WarPhase.SPOILS and sum(c >= 0 for c in f.d.commits) >= 1
    states = _find(pred, max_seeds=200, want=2)
    assert states
    g = states[0]
    f = _frame(g, "war")
    q = next(p for p, c in enumerate(f.d.commits) if c >= 0)
    observer = next(p for p in range(4) if p != q)
    parts = ENC.decode(ENC.encode(g, observer))
    r = ENC._rel[observer][q]
    key = g.c.defs[f.d.commits[q]].key
    assert ENC.battle_keys[int(parts["war_commits"][r].argmax())] == key


def test_no_leak_pending_conflict_contributions():
    def pred(g):
        f = _frame(g, "conflict")
        return f is not None and any(f.d.cards[q] or f.d.money[q] for q in range(4))
    states = _find(pred, max_seeds=200, want=4)
    _check(states, lambda g: range(4), "conflict contributions")


def test_no_leak_keep_battle_and_search():
    def pred(g):
        return g.pending is not None and g.pending.kind in ("keep_battle", "search_pick")
    states = _find(pred, max_seeds=200, want=3)
    _check(states, lambda g: [p for p in range(4) if p != g.pending.seat], "drawn cards")


def test_own_hidden_cards_are_observed():
    """Negative control: the observer's own hand is in its observation."""
    states = _find(lambda g: len(g.s.hands[g.acting_seat]) >= 1, want=3)
    assert states
    for g in states:
        seat = g.acting_seat
        h = g.clone()
        hand = h.s.hands[seat]
        pool = h.s.battle_deck[faction(seat)] or h.s.battle_discard[faction(seat)]
        different = [i for i, c in enumerate(pool)
                     if h.c.defs[c].key != h.c.defs[hand[0]].key]
        if not different:
            continue
        j = different[0]
        hand[0], pool[j] = pool[j], hand[0]
        assert not np.array_equal(ENC.encode(h, seat), ENC.encode(g, seat))
        # ...and it is hidden from everybody else
        for other in range(4):
            if other != seat:
                assert np.array_equal(ENC.encode(h, other), ENC.encode(g, other))
        return
    pytest.fail("no state where the own hand could be changed")


def test_committing_a_conflict_card_changes_nothing_for_the_others():
    """A contributed card stays in the hand until the reveal: the other seats' views
    (hand sizes, revealed rows) are the same before and after the choice."""
    from singapore_env.engine.decisions import Kind

    checked = 0
    for seed in range(300):
        g = Game(seed, keep_text_log=False)
        rng = np.random.default_rng(seed)
        while not g.is_over and checked < 6:
            legal = g.legal_decisions()
            commits = [d for d in legal if d.kind == Kind.COMMIT]
            if g.pending.kind == "contribute" and commits:
                seat = g.acting_seat
                before = {p: ENC.encode(g, p).copy() for p in range(4) if p != seat}
                g.step(commits[0])
                if g.acting_seat == seat:  # still deciding (else the question moved on,
                    for p, vec in before.items():  # exactly as after a PASS)
                        assert np.array_equal(ENC.encode(g, p), vec), f"seat {p} saw it"
                    checked += 1
                continue
            g.step(legal[int(rng.integers(len(legal)))])
        if checked >= 6:
            break
    assert checked >= 6


def test_spending_a_counter_boost_changes_nothing_for_the_others():
    """HMS Andromache's +2 chosen in a Conflict stays hidden until the reveal; the
    holder itself sees its choice."""
    from singapore_env.engine.decisions import Decision, Kind
    from test_rules_findings import andromache_in_conflict

    g = andromache_in_conflict()
    before = {p: ENC.encode(g, p).copy() for p in range(4)}
    g.step(Decision(Kind.YES))
    assert g.acting_seat == 1
    for p in (0, 2, 3):
        assert np.array_equal(ENC.encode(g, p), before[p]), f"seat {p} saw it"
    assert not np.array_equal(ENC.encode(g, 1), before[1])
