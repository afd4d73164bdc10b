"""Influence placement on the one-way loop, and district scoring.

The player chooses where to start (any open district or either Storehouse), then one
token goes on each following space, closed districts skipped; on passing a Storehouse
the player chooses whether to drop a token there. When all tokens are placed, every
district with at least ``district_threshold`` tokens scores and is cleared.
"""

from __future__ import annotations

from ..decisions import DECISION, FastKind as Kind
from .base import (PASS, YES, add_ships, add_storehouse, decision, district_open, faction, log,
                   pop, score)
from .roles import may_access, place_in_storehouse, scores_everywhere

N_LOOP = 8


def _store_capacity(g, seat: int):
    """(slot, room) of the first face-up card that may store Influence, else (None, 0)."""
    for slot in g.s.tableau[seat]:
        if slot.up:
            b = g.c.defs[slot.card].boost("store_influence")
            if b and slot.stored < b["n"]:
                return slot, b["n"] - slot.stored
    return None, 0


def _place(g, seat: int, space: int) -> None:
    b = g.c.board
    if b.loop_kind[space] == "storehouse":
        place_in_storehouse(g, seat, 1, b.loop_faction[space])
    else:
        g.s.districts[space * 4 + seat] += 1


def _walk(g, f) -> None:
    """Place tokens along the loop until one is placed on each open space or a
    Storehouse asks for a choice."""
    b = g.c.board
    while f.d.n > 0:
        space = (f.d.pos + 1) % N_LOOP
        f.d.pos = space
        if b.loop_kind[space] == "storehouse":
            if may_access(g, f.seat, b.loop_faction[space]):
                f.d.asking = 1
                return
        elif district_open(g, space):
            _place(g, f.seat, space)
            f.d.n -= 1
    pop(g)
    score_districts(g)


def score_districts(g) -> None:
    """Score and clear every district holding at least the threshold of tokens."""
    s, b = g.s, g.c.board
    for space in range(N_LOOP):
        if b.loop_kind[space] != "district":
            continue
        base = space * 4
        tokens = s.districts[base:base + 4]
        if sum(tokens) < g.cfg.district_threshold:
            continue
        fac = b.loop_faction[space]
        mult = b.loop_multiplier[space]
        for seat in range(4):
            if tokens[seat] and (faction(seat) == fac or scores_everywhere(g, seat)):
                score(g, seat, mult * tokens[seat], "district")
            s.districts[base + seat] = 0
        if b.loop_ship[space]:
            add_ships(g, 1)
        log(g, f"district {b.loop_ids[space]} scores x{mult}: {tokens}")


@decision("influence")
class PlaceInfluence:
    """Store on a card (optional), choose the start, then drop-or-not at Storehouses."""

    @staticmethod
    def legal(g, f):
        if not f.d.store_asked and f.d.pos < 0:
            _, room = _store_capacity(g, f.seat)
            if room:
                return [DECISION[Kind.STORE, k] for k in range(min(room, f.d.n) + 1)]
        if f.d.asking:
            return [YES, PASS]
        b = g.c.board
        return [DECISION[Kind.INFLUENCE_START, sp] for sp in range(N_LOOP)
                if (b.loop_kind[sp] == "storehouse" and may_access(g, f.seat, b.loop_faction[sp]))
                or (b.loop_kind[sp] == "district" and district_open(g, sp))]

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.STORE:
            f.d.store_asked = 1
            if d.arg:
                slot, _ = _store_capacity(g, f.seat)
                slot.stored += d.arg
                f.d.n -= d.arg
                if f.d.n == 0:
                    pop(g)
            return
        if d.kind == Kind.INFLUENCE_START:
            _place(g, f.seat, d.arg)
            f.d.pos = d.arg
            f.d.n -= 1
        else:
            f.d.asking = 0
            if d.kind == Kind.YES:
                _place(g, f.seat, f.d.pos)
                f.d.n -= 1
        _walk(g, f)


def _tokens_to_remove(g, seat: int, space: int) -> int:
    """Tokens ``seat`` may remove from a loop space: its own on a district, any on a
    Storehouse."""
    b = g.c.board
    if b.loop_kind[space] == "storehouse":
        fac = b.loop_faction[space]
        return g.s.storehouse[fac] if may_access(g, seat, fac) else 0  # simulation: Ally
    return g.s.districts[space * 4 + seat]


@decision("remove_influence")
class RemoveInfluence:
    """Conflict result: remove tokens "from any District or Storehouse": own tokens
    from a district, or tokens from either faction's Storehouse."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.REMOVE_INFLUENCE, sp] for sp in range(N_LOOP)
                if _tokens_to_remove(g, f.seat, sp)]

    @staticmethod
    def apply(g, f, d):
        b = g.c.board
        if b.loop_kind[d.arg] == "storehouse":
            add_storehouse(g, b.loop_faction[d.arg], -1)
        else:
            g.s.districts[d.arg * 4 + f.seat] -= 1
        f.d.n -= 1
        if f.d.n <= 0 or not RemoveInfluence.legal(g, f):
            pop(g)
        log(g, f"seat {f.seat} removes a token from {g.c.board.loop_ids[d.arg]}")
