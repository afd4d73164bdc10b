"""The effect vocabulary: one interpreter for instant effects, Actions and Events.

``resolve`` applies the effects that need no decision at once and returns the frames
for those that do (card moves, conflicts, per-player losses) plus the Influence to
place, which callers sum before placing (rulebook: "sum up all Influence gained").
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from ..frames import ConflictPhase
from ..state import Frame
from .base import (add_population, add_ships, add_storehouse, add_public_works_token, auto,
                   clockwise_from, draw_battle, faction, gain, has_modifier, log, pop, push,
                   roll)
from .roles import place_in_storehouse


class Use(NamedTuple):
    """How effects are being resolved: for whom, with how many Population cards on the
    card, whether it is a Commerce card's Action, and the frames they need (appended)."""

    seat: int
    pops: int
    commerce: bool
    later: list[Frame]


def resolve(g, seat: int, effects, pops: int = 0,
            commerce: bool = False) -> tuple[int, list[Frame]]:
    """Apply ``effects`` for ``seat``; return (influence to place, frames to push).

    The Influence of all the effects is summed (Activate: "sum up all Influence gained
    before placing"); use :func:`resolve_instant` where effects resolve strictly top to
    bottom."""
    use = Use(seat, pops, commerce, [])
    influence = 0
    for e in effects:
        influence += APPLY[e.type](g, e, use)
    return influence, use.later


def resolve_instant(g, seat: int, card: int, start: int = 0, pops: int = 0) -> list[Frame]:
    """Resolve the instant effects of ``card`` top to bottom from ``start``: when an
    effect needs a decision (placing Influence, moves, a conflict...), the effects below
    it wait in an ``effects`` frame until it is done. Returns the frames to push."""
    effects = g.c.defs[card].instant
    later: list[Frame] = []
    for i in range(start, len(effects)):
        use = Use(seat, pops, False, later)
        influence = APPLY[effects[i].type](g, effects[i], use)
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


# ------------------------------------------------------------ the effect types
# Each returns the Influence to place (summed by the caller); 0 for the others.
def _influence(g, e, use: Use) -> int:
    return e["n"] + e["per_pop"] * use.pops


def _wealth(g, e, use: Use) -> int:
    amount = e["n"] + e["per_pop"] * use.pops + roll(g, e["dice"])
    if use.commerce and amount > 0 and has_modifier(g, "commerce_half"):
        amount = (amount + 1) // 2
    gain(g, use.seat, amount)
    return 0


def _storehouse(g, e, use: Use) -> int:
    place_in_storehouse(g, use.seat, e["n"])
    return 0


def _public_works(g, e, use: Use) -> int:
    add_public_works_token(g, use.seat)
    return 0


def _passive(g, e, use: Use) -> int:
    """A value read elsewhere (Tax tokens come from the face-up Tax cards)."""
    return 0


def _population(g, e, use: Use) -> int:
    add_population(g, faction(use.seat), e["n"])
    return 0


def _ships(g, e, use: Use) -> int:
    add_ships(g, e["n"])
    return 0


def _move(g, e, use: Use) -> int:
    use.later.append(Frame("moves", use.seat, n=e["n"], scope=e["scope"], target=-1))
    return 0


def _battle_draw(g, e, use: Use) -> int:
    draw_to_hand(g, use.seat, e["n"])
    return 0


def _storehouse_all(g, e, use: Use) -> int:
    for fac in (0, 1):
        add_storehouse(g, fac, e["n"])
    return 0


def _wealth_all(g, e, use: Use) -> int:
    for p in range(4):
        gain(g, p, e["n"])
    return 0


def _battle_draw_all(g, e, use: Use) -> int:
    for p in clockwise_from(g.s.first_player):
        draw_to_hand(g, p, e["n"])
    return 0


def _population_all(g, e, use: Use) -> int:
    for fac in (0, 1):
        add_population(g, fac, e["n"])
    return 0


def _market_pick_all(g, e, use: Use) -> int:
    use.later.extend(Frame("boom_pick", p, n=e["n"]) for p in clockwise_from(g.s.first_player))
    use.later.append(Frame("refill_market"))  # "Do not replenish Market until resolved"
    return 0


def _conflict(g, e, use: Use) -> int:
    use.later.append(Frame("conflict", -1, table=e["table"], dice=e["dice"], plus=e["plus"],
                           base=e["volunteer_base"], per=e["volunteer_per_strength"],
                           phase=ConflictPhase.ROLL, strength=0, cards=[[], [], [], []],
                           money=[0, 0, 0, 0], boosts=[[], [], [], []]))
    return 0


def _each_player(kind: str) -> Callable:
    """A question of ``kind`` to each player, clockwise from the first."""
    def apply(g, e, use: Use) -> int:
        use.later.extend(Frame(kind, p, n=e["n"]) for p in clockwise_from(g.s.first_player))
        return 0
    return apply


#: Effect type -> ``fn(game, effect, use) -> Influence``: the interpreter of the effect
#: vocabulary (every type of ``content_defs.EFFECT_FIELDS``; the native engine's
#: ``apply_effect`` switches over the same types in the same order).
APPLY: dict[str, Callable[..., int]] = {
    "influence": _influence, "wealth": _wealth, "storehouse": _storehouse,
    "public_works": _public_works, "tax": _passive, "population": _population,
    "ships": _ships, "move": _move, "battle_draw": _battle_draw,
    "storehouse_all": _storehouse_all, "wealth_all": _wealth_all,
    "battle_draw_all": _battle_draw_all, "population_all": _population_all,
    "market_pick_all": _market_pick_all, "conflict": _conflict,
    "lose_population_card": _each_player("lose_pop"),
    "remove_influence": _each_player("remove_influence"),
}


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
