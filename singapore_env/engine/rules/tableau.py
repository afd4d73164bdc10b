"""Tableau topology: cards in a row, ``slot.link`` joins a card to its right neighbour.

A Community is a maximal run of linked cards; face-down cards keep their links (so a
Rebuild restores the Community) but break it for activation. Connections need
opposite connector shapes and equal colours (two-tone matches either colour).

Moves (instant effects and Actions "Move n cards"): a standalone card or a card at
the edge of a Community may be detached, or joined to the free end of another
Community (or standalone card); a Population card may move to any vacant slot of the
same tableau.
"""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from .base import decision, pop

DETACH = -1


def run_bounds(row, i: int) -> tuple[int, int]:
    """First and last position of the linked run containing position ``i``."""
    a = i
    while a > 0 and row[a - 1].link:
        a -= 1
    b = i
    while row[b].link and b + 1 < len(row):
        b += 1
    return a, b


def activation_groups(row) -> list[tuple[int, int]]:
    """(first, last) of every run of linked face-up cards."""
    groups = []
    i, n = 0, len(row)
    while i < n:
        if not row[i].up:
            i += 1
            continue
        j = i
        while row[j].link and j + 1 < n and row[j + 1].up:
            j += 1
        groups.append((i, j))
        i = j + 1
    return groups


def joins(defs, left_card: int, right_card: int) -> bool:
    """Can ``left_card``'s right connector join ``right_card``'s left connector?"""
    r = defs[left_card].right
    return r is not None and r.joins(defs[right_card].left)


def connect_options(defs, row, card_pos: int) -> list[int]:
    """Encoded targets (pos * 2 + side) where the card at ``card_pos`` may connect.

    side 1: to the right of the card at pos (pos is the right end of its run);
    side 0: to the left of the card at pos (pos is the left end of its run).
    ``card_pos`` must be standalone.
    """
    return [t for t in card_move_targets(defs, row, card_pos) if t != DETACH]


def attach(row, card_pos: int, target: int) -> None:
    """Join the standalone card at ``card_pos`` at an encoded target (see above)."""
    slot = row.pop(card_pos)
    p, side = divmod(target, 2)
    if p > card_pos:
        p -= 1
    if side == 1:
        row[p].link = True
        slot.link = False
        row.insert(p + 1, slot)
    else:
        slot.link = True
        row.insert(p, slot)


def detach(row, pos: int) -> int:
    """Make the card at ``pos`` standalone (at the end of the row); return its new position."""
    if pos > 0 and row[pos - 1].link:
        row[pos - 1].link = False
    slot = row.pop(pos)
    slot.link = False
    row.append(slot)
    return len(row) - 1


def card_move_targets(defs, row, src: int) -> list[int]:
    """Targets for moving the card at ``src``: DETACH, or pos * 2 + side of a free end
    of another run (positions before the move). Its own run is not a target."""
    a, b = run_bounds(row, src)
    if src not in (a, b):
        return []
    out = [DETACH] if a != b else []
    card = row[src].card
    for p, slot in enumerate(row):
        if a <= p <= b:
            continue
        # p ends its run when it links to nothing on the right (run_bounds' last
        # position), and starts it when nothing on its left links to it.
        if (not slot.link or p + 1 == len(row)) and joins(defs, slot.card, card):
            out.append(p * 2 + 1)
        if (p == 0 or not row[p - 1].link) and joins(defs, card, slot.card):
            out.append(p * 2)
    return out


def move_card(row, src: int, target: int) -> None:
    """Apply a card move (``target`` as returned by :func:`card_move_targets`)."""
    if target == DETACH:
        detach(row, src)
        return
    new = detach(row, src)
    p, side = divmod(target, 2)
    if p > src:
        p -= 1
    attach(row, new, p * 2 + side)


def pop_moves(defs, row) -> list[tuple[int, int]]:
    """(source, destination) positions for moving one Population card."""
    vacant = [i for i, s in enumerate(row) if s.up and len(s.pops) < defs[s.card].pop_slots]
    return [(i, j) for i, s in enumerate(row) if s.pops for j in vacant if j != i]


@decision("moves")
class Moves:
    """Up to ``n`` moves in the own tableau (scope own) or any tableau (scope any)."""

    @staticmethod
    def _target(f) -> int:
        return f.seat if f.d.scope == "own" else f.d.target

    @staticmethod
    def legal(g, f):
        if f.d.scope == "any" and f.d.target < 0:
            seats = [p for p in range(4) if Moves._moves_in(g, p)]
            return [DECISION[Kind.MOVE_SEAT, p] for p in seats] + [DECISION[Kind.PASS, 0]] \
                if seats else []
        moves = Moves._moves_in(g, Moves._target(f))
        return moves + [DECISION[Kind.PASS, 0]] if moves else []

    @staticmethod
    def _moves_in(g, seat: int) -> list[Decision]:
        defs, row, t = g.c.defs, g.s.tableau[seat], g.cfg.max_tableau
        width = 2 * t + 1
        out = []
        for src in range(min(len(row), t)):
            for target in card_move_targets(defs, row, src):
                if target == DETACH:
                    out.append(DECISION[Kind.MOVE_CARD, src * width + 2 * t])
                elif target < 2 * t:
                    out.append(DECISION[Kind.MOVE_CARD, src * width + target])
        for src, dst in pop_moves(defs, row):
            if src < t and dst < t:
                out.append(DECISION[Kind.MOVE_POP, src * t + dst])
        return out

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            return
        if d.kind == Kind.MOVE_SEAT:
            f.d.target = d.arg
            return
        t = g.cfg.max_tableau
        row = g.s.tableau[Moves._target(f)]
        if d.kind == Kind.MOVE_CARD:
            src, enc = divmod(d.arg, 2 * t + 1)
            move_card(row, src, DETACH if enc == 2 * t else enc)
        else:
            src, dst = divmod(d.arg, t)
            row[dst].pops.append(row[src].pops.pop())
        f.d.n -= 1
        f.d.target = -1
        if f.d.n <= 0:
            pop(g)
