"""Conflict Events: a rolled strength, simultaneous hidden contributions, a table row.

Every player, clockwise from the first player, decides a contribution (Battle cards
and/or dollars at ``conflict_money_strength`` each, and once-per-round counter boosts
such as HMS Andromache's +2, which the holder may spend with or without cards) one
piece at a time; nobody sees another's contribution until all have decided: chosen
cards stay in the hand (or the revealed row) and dollars in the purse, only marked in
the frame, until the simultaneous reveal. The modified result (strength minus all
contributions) picks the conflict table row.
"""

from __future__ import annotations

from ..content_defs import Effect
from ..decisions import DECISION, FastKind as Kind
from ..frames import ConflictPhase
from ..state import Frame
from .base import (PASS, YES, active_boosts, auto, clockwise_from, decision, faction, find_frame,
                   fit, gain, log, pop, push, record_fact, revealed_boosts, roll, score,
                   star_allowed_in_conflict)
from .effects import resolve
from .raid import mark_used
from .war import commit_options, committed_card


def _pieces(g, f, seat: int) -> int:
    """The strength of the cards and dollars a seat has put in."""
    return (sum(g.c.defs[c].strength for c in f.d.cards[seat])
            + f.d.money[seat] * g.cfg.conflict_money_strength)


def own_strength(g, f, seat: int) -> int:
    """Cards, dollars and chosen boosts a seat has put in (its capped contribution)."""
    return _pieces(g, f, seat) + sum(g.c.defs[c].boost("counter_bonus")["n"]
                                     for c in f.d.boosts[seat])


def counter_boosts(g, seat: int, contributed=()) -> list[tuple[int, Effect]]:
    """``(card, effect)`` of the counter boosts ``seat`` may use now: face-up tableau
    cards and revealed Battle cards, not a contributed card (it is discarded) nor a ★
    card while ★ cards may not be used against Conflict Events."""
    star_ok = star_allowed_in_conflict(g)
    out = [(slot.card, b) for slot, b in active_boosts(g, seat, "counter_bonus")]
    out += [(cid, b) for cid, b in revealed_boosts(g, seat, "counter_bonus")
            if cid not in contributed and (star_ok or not g.c.defs[cid].star)]
    return out


def spendable_boosts(g, f, seat: int) -> list[int]:
    """Cards of the unused once-per-round counter boosts ``seat`` may still choose."""
    d = f.d
    return [cid for cid, b in counter_boosts(g, seat, d.cards[seat])
            if b["once_per_round"] and cid not in g.s.used_cards
            and cid not in d.boosts[seat]]


def _counter_bonus(g, f, seat: int, own: int) -> int:
    """The boosts that count for a seat at the reveal: its always-on counter boosts when
    it contributed something, and the once-per-round ones it chose (now used up)."""
    cards = f.d.cards[seat]
    total = 0
    for cid, b in counter_boosts(g, seat, cards):
        if not b["once_per_round"]:
            total += b["n"] if own else 0
        elif cid in f.d.boosts[seat]:
            mark_used(g, cid, b)
            total += b["n"]
    return total


@auto("conflict")
def conflict_step(g, f) -> None:
    d = f.d
    if d.phase == ConflictPhase.ROLL:
        d.phase = ConflictPhase.REVEAL
        d.strength = roll(g, d.dice) + d.plus
        log(g, f"conflict {d.table} strength {d.strength}")
        push(g, *[Frame("contribute", p) for p in clockwise_from(g.s.first_player)])
        return
    pop(g)
    total = 0
    for seat in range(4):
        own = _pieces(g, f, seat)
        own = fit(own + _counter_bonus(g, f, seat, own), "Conflict strength", seat)
        gain(g, seat, -d.money[seat])
        if own:  # contributions are revealed together, after everyone has decided
            names = ", ".join(g.c.defs[card].name for card in d.cards[seat]) or "no card"
            log(g, f"seat {seat} contributes strength {own} ({names}, "
                   f"${d.money[seat]})")
        for card in d.cards[seat]:
            held = g.s.hands[seat] if card in g.s.hands[seat] else g.s.revealed[seat]
            held.remove(card)
            g.s.battle_discard[faction(seat)].append(card)
        if d.cards[seat]:
            needed = min(own, d.strength)
            beyond = own - needed if g.cfg.conflict_vp_full_strength else 0
            score(g, seat, d.base + d.per * needed, "conflict")
            score(g, seat, d.per * beyond, "conflict_excess")
        total += own
    total = fit(total, "Conflict strength")
    result = d.strength - total
    record_fact(g, "conflict", d.strength, total)
    log(g, f"conflict contributions {total}: modified result {result}")
    if result <= 0:
        return
    for low, high, effects in g.c.conflict_tables[d.table]:
        if low <= result <= high:
            _, later = resolve(g, -1, effects)
            push(g, *later)
            return


@decision("contribute")
class Contribute:
    """Add a Battle card (COMMIT), $1 (ADD_MONEY) or a once-per-round counter boost
    (YES) to the hidden contribution; PASS when done. A player adds pieces only while
    its own contribution is below the event's strength."""

    @staticmethod
    def legal(g, f):
        c = find_frame(g, "conflict")
        if own_strength(g, c, f.seat) >= c.d.strength:
            return []
        marked = c.d.cards[f.seat]
        opts = [d for d in commit_options(g, f.seat, star_allowed_in_conflict(g))
                if committed_card(g, f.seat, d.arg) not in marked]
        if g.s.wealth[f.seat] > c.d.money[f.seat]:
            opts.append(DECISION[Kind.ADD_MONEY, 0])
        if spendable_boosts(g, c, f.seat):
            opts.append(YES)
        return opts + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        c = find_frame(g, "conflict")
        if d.kind == Kind.PASS:
            pop(g)
        elif d.kind == Kind.ADD_MONEY:
            c.d.money[f.seat] += 1
        elif d.kind == Kind.YES:
            c.d.boosts[f.seat].append(spendable_boosts(g, c, f.seat)[0])
        else:
            c.d.cards[f.seat].append(committed_card(g, f.seat, d.arg))
