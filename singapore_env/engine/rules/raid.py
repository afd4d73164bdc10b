"""Raid: roll 1D + modifiers for dollars; a result of 2 or more removes a ship.

Out-of-turn decisions: the raider may re-roll with a re-roll boost (Giant Kusu, which
also serves War rolls); other players holding a raid-hinder boost (HMS Andromache) may
lower the result.
"""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind, N_CHOOSE
from ..frames import RaidPhase
from ..state import Frame
from .base import (PASS, active_boosts, add_ships, auto, boost_total, clockwise_from, decision,
                   find_frame, gain, log, modifier_total, pop, push, record_fact, revealed_boosts,
                   roll_d4, roll_dice, yes_no)


def raid_options(g, seat: int) -> list[Decision]:
    return [DECISION[Kind.RAID, 0]] if g.s.ships > 0 else []


def once_per_round_boost(g, seat: int, kind: str, star_ok: bool = True):
    """(card id, effect) of an unused boost of ``kind`` for ``seat``, else (None, None).
    With ``star_ok`` false, revealed ★ cards do not count (★ cards may not be used)."""
    used = g.s.used_cards
    for slot, b in active_boosts(g, seat, kind):
        if not b.args.get("once_per_round") or slot.card not in used:
            return slot.card, b
    for cid, b in revealed_boosts(g, seat, kind):
        if (star_ok or not g.c.defs[cid].star) and (
                not b.args.get("once_per_round") or cid not in used):
            return cid, b
    return None, None


def mark_used(g, card: int, effect) -> None:
    if effect.args.get("once_per_round") and card not in g.s.used_cards:
        g.s.used_cards.append(card)


def dice_roller(f):
    """The dice a frame rolls: D4s when ``f.d.die == "d4"`` (first edition), else the
    1819 dice."""
    return roll_d4 if f.d.die == "d4" else roll_dice


def roll_into(g, f, field: str, dice: int) -> None:
    """Roll ``dice`` dice for roll ``field`` of the frame, keeping the faces so that a
    re-roll can replace some of them."""
    f.d.set_roll(field, dice_roller(f)(g, dice))


def reroll_frame(g, seat: int, parent: str, field: str, star_ok: bool = True) -> list[Frame]:
    """The re-roll question for ``seat``'s roll in ``parent``'s ``field``, if it holds an
    unused re-roll boost (``star_ok`` false: not from a ★ card)."""
    card, b = once_per_round_boost(g, seat, "reroll", star_ok)
    if card is None:
        return []
    return [Frame("reroll", seat, parent=parent, field=field, card=card, dice=b["dice"])]


def raid(g, seat: int) -> None:
    push(g, Frame("raid", seat, phase=RaidPhase.ROLL, roll=0, hinder=0))


@auto("raid")
def raid_step(g, f) -> None:
    seat = f.seat
    if f.d.phase == RaidPhase.ROLL:
        f.d.phase = RaidPhase.HINDER
        roll_into(g, f, "roll", 1)
        push(g, *reroll_frame(g, seat, "raid", "roll"))
    elif f.d.phase == RaidPhase.HINDER:
        f.d.phase = RaidPhase.RESOLVE
        push(g, *[Frame("hinder", p) for p in clockwise_from(seat)[1:]
                  if once_per_round_boost(g, p, "raid_hinder")[0] is not None])
    else:
        pop(g)
        result = (f.d.roll + boost_total(g, seat, "raid_bonus")
                  + modifier_total(g, "raid_bonus") - f.d.hinder)
        gain(g, seat, max(0, result))
        record_fact(g, "raid", seat, max(0, result))
        if result >= g.cfg.raid_ship_threshold:
            add_ships(g, -1)
        log(g, f"seat {seat} raids: roll {f.d.roll} result {result}")


@decision("reroll")
class Reroll:
    """Giant Kusu: "re-roll up to 2 dice in a roll. Use the better result." CHOOSE a
    bit mask of the dice to roll again (1 = first, 2 = second, 3 = both; at most the
    boost's ``dice`` of them); PASS keeps the roll."""

    @staticmethod
    def legal(g, f):
        faces = find_frame(g, f.d.parent).d.faces(f.d.field)
        masks = range(1, min(1 << len(faces), N_CHOOSE))
        return [PASS] + [DECISION[Kind.CHOOSE, m] for m in masks
                         if bin(m).count("1") <= f.d.dice]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind != Kind.CHOOSE:
            return
        mark_used(g, f.d.card, g.c.defs[f.d.card].boost("reroll"))
        parent, field = find_frame(g, f.d.parent), f.d.field
        faces = list(parent.d.faces(field))
        chosen = [i for i in range(len(faces)) if d.arg >> i & 1]
        for i, face in zip(chosen, dice_roller(parent)(g, len(chosen))):
            faces[i] = face
        if sum(faces) > parent.d.total(field):  # "use the better result"
            parent.d.set_roll(field, faces)


def _hinder(g, f) -> None:
    card, b = once_per_round_boost(g, f.seat, "raid_hinder")
    mark_used(g, card, b)
    find_frame(g, "raid").d.hinder += b["n"]


# Another player may lower the Raid result with a raid-hinder boost.
yes_no("hinder", _hinder)
