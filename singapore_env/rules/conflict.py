"""Conflict Events: a rolled strength, simultaneous hidden contributions, a table row.

Every player, clockwise from the first player, decides a contribution (Battle cards
and/or dollars at ``conflict_money_strength`` each) one piece at a time; nobody sees
another's contribution until all have decided: chosen cards stay in the hand (or the
revealed row) and dollars in the purse, only marked in the frame, until the
simultaneous reveal. The modified result (strength minus all contributions) picks the
conflict table row.
"""

from __future__ import annotations

from ..decisions import Decision, Kind
from ..state import Frame
from .base import (PASS, auto, clockwise_from, decision, faction, find_frame, gain, log, pop,
                   push, roll, star_allowed_in_conflict)
from .effects import resolve
from .raid import mark_used
from .war import commit_options, committed_card


def _own_strength(g, f, seat: int) -> int:
    cards = f.d["cards"][seat]
    return (sum(g.c.defs[c].strength for c in cards)
            + f.d["money"][seat] * g.cfg.conflict_money_strength)


def _counter_bonus(g, seat: int) -> int:
    """Counter boosts of a contributing player (once-per-round ones are used up)."""
    from .base import active_boosts, revealed_boosts
    total = 0
    for holder, b in list(active_boosts(g, seat, "counter_bonus")):
        total += _use(g, holder.card, b)
    for cid, b in list(revealed_boosts(g, seat, "counter_bonus")):
        total += _use(g, cid, b)
    return total


def _use(g, card: int, b) -> int:
    if b["once_per_round"]:
        if card in g.s.used_cards:
            return 0
        mark_used(g, card, b)
    return b["n"]


@auto("conflict")
def conflict_step(g, f) -> None:
    d = f.d
    if d["phase"] == 0:
        d["phase"] = 1
        d["strength"] = roll(g, d["dice"]) + d["plus"]
        log(g, f"conflict {d['table']} strength {d['strength']}")
        push(g, *[Frame("contribute", p) for p in clockwise_from(g.s.first_player)])
        return
    pop(g)
    total = 0
    for seat in range(4):
        own = _own_strength(g, f, seat)
        if own:
            own += _counter_bonus(g, seat)
        gain(g, seat, -d["money"][seat])
        for card in d["cards"][seat]:
            held = g.s.hands[seat] if card in g.s.hands[seat] else g.s.revealed[seat]
            held.remove(card)
            g.s.battle_discard[faction(seat)].append(card)
        if d["cards"][seat]:
            counted = own if g.cfg.conflict_vp_full_strength else min(own, d["strength"])
            g.s.vp[seat] += d["base"] + d["per"] * counted
        total += own
    result = d["strength"] - total
    log(g, f"conflict contributions {total}: modified result {result}")
    if result <= 0:
        return
    for low, high, effects in g.c.conflict_tables[d["table"]]:
        if low <= result <= high:
            _, later = resolve(g, -1, effects)
            push(g, *later)
            return


@decision("contribute")
class Contribute:
    """Add a Battle card (COMMIT) or $1 (ADD_MONEY) to the hidden contribution; PASS
    when done. A player's own contribution is capped at the event's strength."""

    @staticmethod
    def legal(g, f):
        c = find_frame(g, "conflict")
        if _own_strength(g, c, f.seat) >= c.d["strength"]:
            return []
        marked = c.d["cards"][f.seat]
        opts = [d for d in commit_options(g, f.seat, star_allowed_in_conflict(g))
                if committed_card(g, f.seat, d.arg) not in marked]
        if g.s.wealth[f.seat] > c.d["money"][f.seat]:
            opts.append(Decision(Kind.ADD_MONEY))
        return opts + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        c = find_frame(g, "conflict")
        if d.kind == Kind.PASS:
            pop(g)
        elif d.kind == Kind.ADD_MONEY:
            c.d["money"][f.seat] += 1
        else:
            c.d["cards"][f.seat].append(committed_card(g, f.seat, d.arg))
