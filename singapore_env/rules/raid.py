"""Raid: roll 1D + modifiers for dollars; a result of 2 or more removes a ship.

Out-of-turn decisions: the raider may re-roll with a re-roll boost (Giant Kusu); other
players holding a raid-hinder boost (HMS Andromache) may lower the result.
"""

from __future__ import annotations

from ..decisions import Decision, Kind
from ..state import Frame
from .base import (active_boosts, add_ships, auto, boost_total, clockwise_from, find_frame,
                   gain, log, modifier_total, pop, push, revealed_boosts, roll, yes_no)


def raid_options(g, seat: int) -> list[Decision]:
    return [Decision(Kind.RAID)] if g.s.ships > 0 else []


def once_per_round_boost(g, seat: int, kind: str):
    """(card id, effect) of an unused boost of ``kind`` for ``seat``, else (None, None)."""
    used = g.s.used_cards
    for slot, b in active_boosts(g, seat, kind):
        if not b.args.get("once_per_round") or slot.card not in used:
            return slot.card, b
    for cid, b in revealed_boosts(g, seat, kind):
        if not b.args.get("once_per_round") or cid not in used:
            return cid, b
    return None, None


def mark_used(g, card: int, effect) -> None:
    if effect.args.get("once_per_round") and card not in g.s.used_cards:
        g.s.used_cards.append(card)


def reroll_frame(g, seat: int, parent: str, field: str, dice: int) -> list[Frame]:
    card, b = once_per_round_boost(g, seat, "reroll")
    if card is None:
        return []
    return [Frame("reroll", seat, parent=parent, field=field, dice=min(dice, b["dice"]))]


def raid(g, seat: int) -> None:
    push(g, Frame("raid", seat, phase=0, roll=0, hinder=0))


@auto("raid")
def raid_step(g, f) -> None:
    seat = f.seat
    if f.d["phase"] == 0:
        f.d["phase"] = 1
        f.d["roll"] = roll(g, 1)
        push(g, *reroll_frame(g, seat, "raid", "roll", 1))
    elif f.d["phase"] == 1:
        f.d["phase"] = 2
        push(g, *[Frame("hinder", p) for p in clockwise_from(seat)[1:]
                  if once_per_round_boost(g, p, "raid_hinder")[0] is not None])
    else:
        pop(g)
        result = (f.d["roll"] + boost_total(g, seat, "raid_bonus")
                  + modifier_total(g, "raid_bonus") - f.d["hinder"])
        gain(g, seat, max(0, result))
        if result >= g.cfg.raid_ship_threshold:
            add_ships(g, -1)
        log(g, f"seat {seat} raids: roll {f.d['roll']} result {result}")


def _reroll(g, f) -> None:
    card, b = once_per_round_boost(g, f.seat, "reroll")
    mark_used(g, card, b)
    parent = find_frame(g, f.d["parent"])
    parent.d[f.d["field"]] = max(parent.d[f.d["field"]], roll(g, f.d["dice"]))


def _hinder(g, f) -> None:
    card, b = once_per_round_boost(g, f.seat, "raid_hinder")
    mark_used(g, card, b)
    find_frame(g, "raid").d["hinder"] += b["n"]


# Re-roll: roll again, keep the better result (once per round).
yes_no("reroll", _reroll)
# Another player may lower the Raid result with a raid-hinder boost.
yes_no("hinder", _hinder)
