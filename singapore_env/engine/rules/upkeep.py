"""Upkeep: VP per Tax token, the bonus for the most Tax tokens, Fund or Close the
excess Public Works."""

from __future__ import annotations

from ..decisions import DECISION, Kind
from ..state import Frame
from .base import (PASS, add_population, auto, boost_total, decision, faction, gain, log,
                   multiplier, pop, push, score)
from .population import discard_population_cards


def tax_totals(g) -> tuple[list[int], int]:
    """(Tax tokens per seat, neutral Tax tokens) from the face-up Tax cards."""
    defs = g.c.defs
    player, neutral = [0] * 4, 0
    for seat, row in enumerate(g.s.tableau):
        for i, slot in enumerate(row):
            if not slot.up:
                continue
            cdef = defs[slot.card]
            player[seat] += cdef.tax_player
            neutral += cdef.tax_neutral
            b = cdef.boost("tax_if_public_works_connected")
            if b and _connected_to_public_works(defs, row, i):
                neutral += b["neutral"]
    return player, neutral


def _connected_to_public_works(defs, row, i: int) -> bool:
    neighbours = []
    if i > 0 and row[i - 1].link:
        neighbours.append(row[i - 1])
    if row[i].link and i + 1 < len(row):
        neighbours.append(row[i + 1])
    return any(n.up and "public_works" in defs[n.card].kinds for n in neighbours)


def fund_cost(g) -> int:
    return g.cfg.fund_cost_per_multiplier * multiplier(g)


@auto("upkeep")
def upkeep(g, f) -> None:
    pop(g)
    s = g.s
    player, neutral = tax_totals(g)
    for seat in range(4):
        score(g, seat, player[seat], "upkeep_tax")
    tax = sum(player) + neutral
    pw = len(s.pw_track)
    if pw <= tax:
        best = max(player)
        if best > 0:
            for seat in range(4):
                if player[seat] == best:
                    score(g, seat, best, "most_tax")
        log(g, f"upkeep met: tax {tax}, public works {pw}")
        return
    excess = pw - tax
    log(g, f"upkeep failed: tax {tax}, public works {pw}, excess {excess}")
    ignore = [boost_total(g, seat, "upkeep_ignore") for seat in range(4)]
    frames = []
    for index in range(pw - 1, pw - 1 - excess, -1):  # newest first
        owner = s.pw_track[index]
        if ignore[owner] > 0:
            ignore[owner] -= 1
            continue
        frames.append(Frame("fund_close", owner, index=index))
    push(g, *frames)


def _closable(g, seat: int) -> list[int]:
    return [i for i, slot in enumerate(g.s.tableau[seat][:g.cfg.max_tableau])
            if slot.up and "public_works" in g.c.defs[slot.card].kinds]


@decision("fund_close")
class FundOrClose:
    """The owner of an excess Public Works token Funds it ($1 x multiplier) or Closes
    one own face-up Public Works card (its Population cards and stored tokens are
    discarded). With neither possible the token is removed. Tokens are settled one at
    a time, each at the multiplier of that moment (a Close may close a District)."""

    @staticmethod
    def legal(g, f):
        out = [DECISION[Kind.FUND, 0]] if g.s.wealth[f.seat] >= fund_cost(g) else []
        out += [DECISION[Kind.CLOSE, i] for i in _closable(g, f.seat)]
        return out or [PASS]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        s = g.s
        if d.kind == Kind.FUND:
            gain(g, f.seat, -fund_cost(g))
            return
        del s.pw_track[f.d.index]
        if d.kind == Kind.CLOSE:
            slot = s.tableau[f.seat][d.arg]
            slot.up, slot.down = False, "closed"
            slot.stored = 0  # "discard the Population card and player tokens"
            lost = discard_population_cards(g, f.seat, slot)
            add_population(g, faction(f.seat), -lost)
            log(g, f"seat {f.seat} closes {g.c.defs[slot.card].name}")
