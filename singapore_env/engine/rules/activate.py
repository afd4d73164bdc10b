"""Activate: a card or Community, once per round; Influence summed, then placed."""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from .base import push
from .effects import influence_frame, resolve
from .tableau import activation_groups


def activate_options(g, seat: int) -> list[Decision]:
    """Groups ``seat`` may activate: some card not yet activated has work to do (an
    Action, or stored Influence to release), and the fixed costs of those cards are in
    hand."""
    row, defs, wealth = g.s.tableau[seat], g.c.defs, g.s.wealth[seat]
    out = []
    for a, b in activation_groups(row):
        if a >= g.cfg.max_tableau:
            break  # groups come left to right
        work, cost = False, 0
        for i in range(a, b + 1):
            slot = row[i]
            if not slot.activated:
                cdef = defs[slot.card]
                if cdef.action:
                    work = True
                    if cdef.cost_terms:
                        cost += cdef.action_cost(len(slot.pops))
                elif slot.stored > 0 and "store_influence" in cdef.boosts_of:
                    work = True
        if work and cost <= wealth:
            out.append(DECISION[Kind.ACTIVATE, a])
    return out


def activate(g, seat: int, first: int) -> None:
    """Activate the group starting at ``first``: every card not yet activated."""
    row, defs = g.s.tableau[seat], g.c.defs
    group = next((a, b) for a, b in activation_groups(row) if a == first)
    influence, later = 0, []
    for slot in row[group[0]:group[1] + 1]:
        if slot.activated:
            continue
        slot.activated = True
        cdef = defs[slot.card]
        n, frames = resolve(g, seat, cdef.action, pops=len(slot.pops),
                            commerce="commerce" in cdef.kinds)
        if slot.stored and cdef.boost("store_influence"):
            n += slot.stored
            slot.stored = 0
        influence += n
        later += frames
    push(g, *influence_frame(seat, influence), *later)
