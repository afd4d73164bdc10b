"""The effect vocabulary: one interpreter for instant effects, Actions and Events.

``resolve`` applies the effects that need no decision at once and returns the frames
for those that do (card moves, conflicts, per-player losses) plus the Influence to
place, which callers sum before placing (rulebook: "sum up all Influence gained").
"""

from __future__ import annotations

from ..frames import ConflictPhase
from ..state import Frame
from .base import (add_population, add_ships, add_storehouse, add_public_works_token, auto,
                   clockwise_from, draw_battle, faction, gain, log, pop, push, roll)
from .roles import place_in_storehouse

# Effect types whose value is read elsewhere rather than applied on resolution:
# tax tokens are derived from the face-up Tax cards in the tableaux.
PASSIVE = {"tax"}


def resolve(g, seat: int, effects, pops: int = 0, commerce: bool = False,
            first: int | None = None) -> tuple[int, list[Frame]]:
    """Apply ``effects`` for ``seat``; return (influence to place, frames to push).

    The Influence of all the effects is summed (Activate: "sum up all Influence gained
    before placing"); use :func:`resolve_instant` where effects resolve strictly top to
    bottom."""
    influence = 0
    later: list[Frame] = []
    for e in effects:
        influence += _apply(g, seat, e, pops, commerce, first, later)
    return influence, later


def resolve_instant(g, seat: int, card: int, start: int = 0, pops: int = 0) -> list[Frame]:
    """Resolve the instant effects of ``card`` top to bottom from ``start``: when an
    effect needs a decision (placing Influence, moves, a conflict...), the effects below
    it wait in an ``effects`` frame until it is done. Returns the frames to push."""
    effects = g.c.defs[card].instant
    later: list[Frame] = []
    for i in range(start, len(effects)):
        influence = _apply(g, seat, effects[i], pops, False, None, later)
        later = influence_frame(seat, influence) + later
        if later and i + 1 < len(effects):
            later.append(Frame("effects", seat, card=card, start=i + 1, pops=pops))
            break
    return later


@auto("effects")
def continue_effects(g, f) -> None:
    """The instant effects left below one that needed a decision."""
    pop(g)
    push(g, *resolve_instant(g, f.seat, f.d.card, f.d.start, f.d.pops))


def _apply(g, seat: int, e, pops: int, commerce: bool, first, later: list) -> int:
    """Apply one effect; append the frames it needs to ``later``; return its Influence."""
    s = g.s
    t = e.type
    if t == "influence":
        return e["n"] + e["per_pop"] * pops
    if t == "wealth":
        amount = e["n"] + e["per_pop"] * pops + roll(g, e["dice"])
        if commerce and amount > 0 and any(m == "commerce_half" for m, _ in s.modifiers):
            amount = (amount + 1) // 2
        gain(g, seat, amount)
    elif t == "storehouse":
        place_in_storehouse(g, seat, e["n"])
    elif t == "public_works":
        add_public_works_token(g, seat)
    elif t == "population":
        add_population(g, faction(seat), e["n"])
    elif t == "ships":
        add_ships(g, e["n"])
    elif t == "move":
        later.append(Frame("moves", seat, n=e["n"], scope=e["scope"], target=-1))
    elif t == "battle_draw":
        draw_to_hand(g, seat, e["n"])
    elif t == "storehouse_all":
        for fac in (0, 1):
            add_storehouse(g, fac, e["n"])
    elif t == "wealth_all":
        for p in range(4):
            gain(g, p, e["n"])
    elif t == "battle_draw_all":
        for p in clockwise_from(s.first_player if first is None else first):
            draw_to_hand(g, p, e["n"])
    elif t == "population_all":
        for fac in (0, 1):
            add_population(g, fac, e["n"])
    elif t == "market_pick_all":
        later.extend(Frame("boom_pick", p, n=e["n"]) for p in clockwise_from(s.first_player))
        later.append(Frame("refill_market"))  # "Do not replenish Market until resolved"
    elif t == "conflict":
        later.append(Frame("conflict", -1, table=e["table"], dice=e["dice"],
                           plus=e["plus"], base=e["volunteer_base"],
                           per=e["volunteer_per_strength"], phase=ConflictPhase.ROLL, strength=0,
                           cards=[[], [], [], []], money=[0, 0, 0, 0],
                           boosts=[[], [], [], []]))
    elif t == "lose_population_card":
        for p in clockwise_from(s.first_player):
            later.append(Frame("lose_pop", p, n=e["n"]))
    elif t == "remove_influence":
        for p in clockwise_from(s.first_player):
            later.append(Frame("remove_influence", p, n=e["n"]))
    elif t not in PASSIVE:  # pragma: no cover - content validation forbids this
        raise ValueError(f"effect type {t!r} has no interpreter")
    return 0


def draw_to_hand(g, seat: int, n: int) -> None:
    """Draw ``n`` Battle cards into the hand; cards past the hand limit are discarded."""
    fac = faction(seat)
    for _ in range(n):
        card = draw_battle(g, fac)
        if card < 0:
            return
        if len(g.s.hands[seat]) < g.cfg.max_hand:
            g.s.hands[seat].append(card)
        else:
            g.s.battle_discard[fac].append(card)
            log(g, f"seat {seat} hand full: Battle card discarded")


def influence_frame(seat: int, n: int) -> list[Frame]:
    """The frame that places ``n`` Influence for ``seat`` (none when n <= 0)."""
    return [Frame("influence", seat, n=n, pos=-1, asking=0, store_asked=0)] if n > 0 else []
