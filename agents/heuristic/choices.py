"""The heuristic player's answers to the smaller out-of-turn choices: which dice to
re-roll, what to take in a Major Economic Boom, when to spend a once-per-round counter
boost. Kept apart from ``heuristic.py``, which calls them."""

from __future__ import annotations

from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import D4_SIDES, FACES, own_strength, spendable_boosts

PASS = Decision(Kind.PASS)
TOP_FACE = max(FACES)


def reroll_choice(s, f) -> Decision:
    """Re-roll every die below the top face (the better result is kept, so a re-roll
    never hurts), at most the boost's number of dice; PASS when all show the top face.
    (A first-edition frame rolls D4s: its top face is 4.)"""
    parent = next(x for x in reversed(s.stack) if x.kind == f.d.parent)
    top = D4_SIDES if parent.d.die == "d4" else TOP_FACE
    faces = parent.d.faces(f.d.field)[:2]
    low = [i for i, face in enumerate(faces) if face < top][:f.d.dice]
    mask = sum(1 << i for i in low)
    return Decision(Kind.CHOOSE, mask) if mask else PASS


def spend_counter_boost(g, conflict, seat: int) -> bool:
    """Spend a once-per-round counter boost (HMS Andromache's +2) when it changes the
    Conflict table row, counting only the seat's own contribution (the others' are
    hidden)."""
    rows = g.c.conflict_tables[conflict.d.table]
    left = conflict.d.strength - own_strength(g, conflict, seat)
    card = spendable_boosts(g, conflict, seat)[0]
    return _row(rows, left) != _row(rows, left - g.c.defs[card].boost("counter_bonus")["n"])


def _row(rows, result: int) -> int:
    """Index of the table row a modified result falls in (-1: no effect)."""
    return next((i for i, (low, high, _) in enumerate(rows) if low <= result <= high), -1)


def boom_choice(legal, market, value, dollars_value: float) -> Decision:
    """Major Economic Boom: the open card worth most (``value(card)``) if it is worth
    more than the dollars offered instead, else PASS (take the dollars)."""
    picks = [d for d in legal if d.kind == Kind.BUY_MARKET]
    if not picks:
        return PASS
    best = max(picks, key=lambda d: value(market[d.arg]))
    return best if value(market[best.arg]) > dollars_value else PASS
