"""Population: cubes in the faction boxes, Population cards in tableau slots.

Cubes fill boxes left to right and are lost from the right, so a faction's boxes are
fully described by its cube count; a district is open while that count reaches the
district's ``opens_at`` (board data). A district that closes loses its Influence
(:func:`~singapore_env.engine.rules.base.add_population`, beside the other counters).
"""

from __future__ import annotations

from ..decisions import DECISION, FastKind as Kind
from ..state import Frame
from .base import add_population, decision, faction, log, modifier_total, pop, push
from .effects import influence_frame, resolve_instant


def vacant_slots(g, seat: int) -> list[int]:
    """Tableau positions of face-up cards with a free Population slot."""
    defs = g.c.defs
    return [i for i, slot in enumerate(g.s.tableau[seat])
            if slot.up and len(slot.pops) < defs[slot.card].pop_slots]


def can_populate(g, seat: int) -> bool:
    return bool(g.s.population_deck) and bool(vacant_slots(g, seat))


def populate(g, seat: int) -> None:
    """Draw a Population card, resolve its instant effects, then attach it."""
    s = g.s
    card = s.population_deck.pop()
    log(g, f"seat {seat} populates: {g.c.defs[card].name}")
    watches = g.c.boosts_by_type.get("population_watch")  # card id -> its watch boosts
    if watches is not None:
        for row in s.tableau:
            for slot in row:
                if slot.up and watches[slot.card]:
                    slot.stored += 1
    bonus = modifier_total(g, "populate_influence")
    push(g, *resolve_instant(g, seat, card), *influence_frame(seat, bonus),
         Frame("attach_pop", seat, card=card))


def discard_population_cards(g, seat: int, slot) -> int:
    """Discard every Population card on ``slot``; return how many."""
    n = len(slot.pops)
    g.s.population_discard.extend(slot.pops)
    slot.pops.clear()
    return n


@decision("attach_pop")
class AttachPopulation:
    """Place the drawn Population card in a vacant slot of the own tableau."""

    @staticmethod
    def legal(g, f):
        slots = vacant_slots(g, f.seat)
        return [DECISION[Kind.ATTACH_POP, i] for i in slots] or [DECISION[Kind.PASS, 0]]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.PASS:  # no vacant slot left (a move emptied them): discard
            g.s.population_discard.append(f.d.card)
        else:
            g.s.tableau[f.seat][d.arg].pops.append(f.d.card)


@decision("lose_pop")
class LosePopulationCard:
    """Conflict result: discard one own Population card (with one cube) per step."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.DISCARD_POP, i] for i, slot in enumerate(g.s.tableau[f.seat])
                if slot.pops]

    @staticmethod
    def apply(g, f, d):
        slot = g.s.tableau[f.seat][d.arg]
        g.s.population_discard.append(slot.pops.pop())
        add_population(g, faction(f.seat), -1)
        f.d.n -= 1
        if f.d.n <= 0 or not LosePopulationCard.legal(g, f):
            pop(g)
