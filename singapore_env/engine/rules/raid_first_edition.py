"""First-edition Raid (ruleset ``first-edition``): 2D4 dollars, one ship lost, and one
other player may Intervene.

Before the roll, the other players are asked in turn, clockwise from the raider, whether
they Intervene; the first one to say yes is the Interventionist (priority clockwise) and
the rest are not asked. The Interventionist commits one Battle card face down, plus any
identical copies of it (identical cards combine: their strengths add). The raider rolls
``fe_raid_d4`` D4s (a re-roll boost lets him re-roll some of them: the standard
``reroll`` question, the frame's ``die`` being ``"d4"``), adds
raid boosts and modifiers, subtracts the hinder boosts of other players, and takes that
many dollars; if the committed strength matches or exceeds that result, the
Interventionist places ``fe_intervene_influence`` Influence. The committed cards are
discarded and one ship leaves the Port either way. (``shown`` stays 0: the frame ends
at the resolution, and the cards go to the public discard pile.)

The commit question (``fe_commit``) is shared with the first-edition War.
"""

from __future__ import annotations

from ..decisions import FastKind as Kind
from ..frames import RaidFePhase
from ..state import Frame
from .base import (PASS, add_ships, auto, boost_total, clockwise_from, decision, faction,
                   find_frame, gain, log, modifier_total, pop, push, record_fact,
                   star_allowed_in_war, yes_no)
from .effects import influence_frame
from .raid import mark_used, once_per_round_boost, reroll_frame, roll_into
from .war import commit_options, committed_card, take_committed

#: Frame kinds of the first edition whose ``commits`` hold face-down Battle cards.
COMMIT_FRAMES = ("raid_fe", "war_fe")


def raid_fe(g, seat: int) -> None:
    """Start a first-edition Raid (the RAID action of that ruleset)."""
    push(g, Frame("raid_fe", seat, phase=RaidFePhase.INTERVENE, intervener=-1,
                  commits=[[], [], [], []], die="d4", roll=0, hinder=0, shown=0))


def committed_strength(g, cards: list[int]) -> int:
    """Strength of committed Battle cards (identical copies combine: strengths add)."""
    return sum(g.c.defs[c].strength for c in cards)


def discard_commits(g, f) -> None:
    """Put every committed card of a first-edition frame on its faction's discard."""
    for p, cards in enumerate(f.d.commits):
        g.s.battle_discard[faction(p)].extend(cards)
        cards.clear()


@auto("raid_fe")
def raid_fe_step(g, f) -> None:
    """Ask for an Interventionist, roll (re-roll, hinder), then resolve."""
    d, seat = f.d, f.seat
    if d.phase == RaidFePhase.INTERVENE:
        d.phase = RaidFePhase.ROLL
        push(g, *[Frame("fe_intervene", p) for p in clockwise_from(seat)[1:]
                  if commit_options(g, p, True)])
    elif d.phase == RaidFePhase.ROLL:
        d.phase = RaidFePhase.RESOLVE
        roll_into(g, f, "roll", g.cfg.fe_raid_d4)
        push(g, *reroll_frame(g, seat, "raid_fe", "roll"),
             *[Frame("fe_hinder", p) for p in clockwise_from(seat)[1:]
               if once_per_round_boost(g, p, "raid_hinder")[0] is not None])
    else:
        pop(g)
        result = max(0, d.roll + boost_total(g, seat, "raid_bonus")
                     + modifier_total(g, "raid_bonus") - d.hinder)
        gain(g, seat, result)
        record_fact(g, "raid", seat, result)
        add_ships(g, -g.cfg.fe_raid_ships_lost)
        log(g, f"seat {seat} raids: dice {d.roll_dice} result {result}")
        p = d.intervener
        if p >= 0:
            strength = committed_strength(g, d.commits[p])
            discard_commits(g, f)
            log(g, f"seat {p} intervenes with strength {strength}")
            if strength >= result:
                push(g, *influence_frame(p, g.cfg.fe_intervene_influence))


def _intervene(g, f) -> None:
    find_frame(g, "raid_fe").d.intervener = f.seat
    push(g, Frame("fe_commit", f.seat, parent="raid_fe", must=1))


def _hinder(g, f) -> None:
    card, b = once_per_round_boost(g, f.seat, "raid_hinder")
    mark_used(g, card, b)
    find_frame(g, "raid_fe").d.hinder += b["n"]


# Intervene (YES) in the Raid: asked clockwise from the raider until one says yes.
yes_no("fe_intervene", _intervene,
       lambda g, f: find_frame(g, "raid_fe").d.intervener < 0)
# Another player may lower the Raid result with a raid-hinder boost.
yes_no("fe_hinder", _hinder)


@decision("fe_commit")
class FirstEditionCommit:
    """Commit one Battle card face down (COMMIT), then any identical copies of it; PASS
    ends. With ``must`` the first card is compulsory when one is available. In a War
    star cards obey the star rule; an Intervention is not a War."""

    @staticmethod
    def legal(g, f):
        parent = find_frame(g, f.d.parent)
        mine = parent.d.commits[f.seat]
        opts = commit_options(g, f.seat, f.d.parent != "war_fe" or star_allowed_in_war(g))
        if mine:
            key = g.c.defs[mine[0]].key
            opts = [d for d in opts if g.c.defs[committed_card(g, f.seat, d.arg)].key == key]
            return opts + [PASS]
        if not opts:
            return []
        return opts if f.d.must else opts + [PASS]

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            return
        card = take_committed(g, f.seat, d.arg)
        find_frame(g, f.d.parent).d.commits[f.seat].append(card)


