"""Decree: outlaw or legalize a vice with Storehouse tokens; a Courthouse may veto."""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from ..frames import DecreePhase
from ..state import Frame
from .base import (active_boosts, add_storehouse, auto, boost_total, clockwise_from, faction,
                   find_frame, log, modifier_total, pop, push, record_fact, score, yes_no)
from .roles import spend_storehouse, storehouse_tokens


def decree_costs(g, seat: int) -> list[int]:
    """Tokens a Decree on each vice costs ``seat`` now, or -1 for a vice that cannot be
    decreed (slavery legal; slavery in a game played without it)."""
    b, s, cfg = g.c.board, g.s, g.cfg
    adjust = modifier_total(g, "decree_cost") - boost_total(g, seat, "decree_discount")
    malay_floor = faction(seat) == 1 and s.anglo_dutch
    costs = []
    for vice, name in enumerate(b.vices):
        outlaw = s.outlawed[vice] < 0
        if (not outlaw and not b.vice_can_legalize[vice]) or (
                not cfg.slavery and name == "slavery"):  # nothing to outlaw
            costs.append(-1)
            continue
        cost = b.vice_cost[vice] if outlaw else cfg.legalize_cost
        if malay_floor:
            cost = max(cost, cfg.malay_decree_cost_under_anglo_dutch)
        costs.append(max(0, cost + adjust))
    return costs


def decree_cost(g, seat: int, vice: int) -> int:
    """Tokens this Decree costs, or -1 when the vice cannot be decreed."""
    return decree_costs(g, seat)[vice]


def decree_options(g, seat: int) -> list[Decision]:
    tokens = storehouse_tokens(g, seat)
    if tokens == 0:
        return []
    return [DECISION[Kind.DECREE, vice] for vice, cost in enumerate(decree_costs(g, seat))
            if 0 <= cost <= tokens]


def decree(g, seat: int, vice: int) -> None:
    spend_storehouse(g, seat, decree_cost(g, seat, vice))
    push(g, Frame("decree", seat, vice=vice, phase=DecreePhase.VETO, vetoed=0))


def _veto(g, seat: int, vice: int):
    """(card, effect, cost) of a usable veto boost for ``seat``, else None."""
    slavery = g.c.board.vices[vice] == "slavery"
    for slot, b in active_boosts(g, seat, "veto_decree"):
        cost = b["slavery_cost"] if slavery else b["cost"]
        if slot.card not in g.s.used_cards and g.s.storehouse[faction(seat)] >= cost:
            return slot.card, b, cost
    return None


@auto("decree")
def decree_step(g, f) -> None:
    vice = f.d.vice
    if f.d.phase == DecreePhase.VETO:
        f.d.phase = DecreePhase.RESOLVE
        push(g, *[Frame("veto", p, vice=vice) for p in clockwise_from(f.seat)[1:]
                  if _veto(g, p, vice)])
        return
    pop(g)
    if f.d.vetoed:
        record_fact(g, "decree", f.seat, vice, -1)
        log(g, f"decree on {g.c.board.vices[vice]} vetoed")
        return
    s = g.s
    name = g.c.board.vices[vice]
    outlaw = s.outlawed[vice] < 0
    s.outlawed[vice] = f.seat if outlaw else -1
    record_fact(g, "decree", f.seat, vice, int(outlaw))
    if outlaw:
        score(g, f.seat, g.cfg.outlaw_vp, "decree")
    for row in s.tableau:
        for slot in row:
            if g.c.defs[slot.card].vice == name:
                if outlaw and slot.up:
                    slot.up, slot.down = False, "outlawed"
                elif not outlaw and slot.down == "outlawed":
                    slot.up, slot.down = True, ""
    log(g, f"seat {f.seat} {'outlaws' if outlaw else 'legalizes'} {name}")


def _apply_veto(g, f) -> None:
    card, _, cost = _veto(g, f.seat, f.d.vice)
    g.s.used_cards.append(card)
    add_storehouse(g, faction(f.seat), -cost)
    find_frame(g, "decree").d.vetoed = 1


# Once per round, spend own Storehouse tokens to veto another player's Decree.
yes_no("veto", _apply_veto,
       lambda g, f: not find_frame(g, "decree").d.vetoed and _veto(g, f.seat, f.d.vice))
