"""War: join, accept, commit, roll 2D, spoils, sharing, ships lost.

The ``war`` frame stays on the stack for the whole War and pushes, phase by phase, the
out-of-turn questions it needs: faction mates joining, attacker/defender accepting,
every fighter committing a card (hidden until the roll), Police-Force-style discards,
re-rolls, the victor's spoils, the loser's ally's payment and the victor's share.
"""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from ..frames import WarPhase
from ..state import Frame
from .base import (PASS, active_boosts, fit, add_population, add_ships, add_storehouse, auto,
                   decision, faction, find_frame, gain, log, mate, modifier_total,
                   one_more_dollar, pop, push, record_fact, revealed_boosts, roll, score,
                   star_allowed_in_war, yes_no)
from .population import discard_population_cards
from .folk_hero import war_loss_frames
from .raid import reroll_frame, roll_into
from .roles import may_join, spoils_multiplier, war_targets


def war_cost(g, seat: int) -> int:
    base = g.cfg.war_cost_under_anglo_dutch if g.s.anglo_dutch else g.cfg.war_cost
    return max(0, base + modifier_total(g, "war_cost"))


def war_options(g, seat: int) -> list[Decision]:
    if g.s.storehouse[faction(seat)] < war_cost(g, seat):
        return []
    return [DECISION[Kind.WAR, p] for p in war_targets(g, seat)]


def declare_war(g, seat: int, defender: int) -> None:
    add_storehouse(g, faction(seat), -war_cost(g, seat))
    log(g, f"seat {seat} declares war on seat {defender}")
    push(g, Frame("war", seat, defender=defender, phase=WarPhase.JOIN, joined=[0, 0],
                  allies=[-1, -1], commits=[-1, -1, -1, -1], bonus=[0, 0, 0, 0], roll0=0,
                  roll1=0, k=0, paid=0, share=-1, cap=0, victor=-1, loser=-1))


def sides(f) -> tuple[list[int], list[int]]:
    """Fighters of the attacking and the defending side."""
    att = [f.seat] + ([f.d.allies[0]] if f.d.allies[0] >= 0 else [])
    dfn = [f.d.defender] + ([f.d.allies[1]] if f.d.allies[1] >= 0 else [])
    return att, dfn


@auto("war")
def war_step(g, f) -> None:
    d = f.d
    att, dfn = f.seat, d.defender
    phase = d.phase
    if phase != WarPhase.END:
        d.phase = WarPhase(phase + 1)  # (a step may set another)
    if phase == WarPhase.JOIN:
        push(g, Frame("war_join", mate(att), side=0), Frame("war_join", mate(dfn), side=1))
    elif phase == WarPhase.ACCEPT:
        push(g, *[Frame("war_accept", (att, dfn)[side], side=side)
                  for side in (0, 1) if d.joined[side]])
    elif phase == WarPhase.COMMIT:
        a, b = sides(f)
        push(g, *[Frame("war_commit", p) for p in a + b])
    elif phase == WarPhase.DISCARD:
        a, b = sides(f)
        push(g, *[Frame("war_discard", p) for p in a + b])
    elif phase == WarPhase.ROLL:
        roll_into(g, f, "roll0", g.cfg.war_dice)
        roll_into(g, f, "roll1", g.cfg.war_dice)
        star_ok = star_allowed_in_war(g)  # a ★ card's re-roll is a use of the card
        push(g, *reroll_frame(g, att, "war", "roll0", star_ok),
             *reroll_frame(g, dfn, "war", "roll1", star_ok))
    elif phase == WarPhase.TOTALS:
        totals = [fit(roll + side_strength(g, f, side), "War total")
                  for roll, side in zip((d.roll0, d.roll1), sides(f))]
        d.totals = totals
        log(g, f"war totals attacker {totals[0]} defender {totals[1]}")
        if totals[0] == totals[1]:
            record_fact(g, "war", att, dfn, -1)
            d.phase = WarPhase.END
            return
        win = 0 if totals[0] > totals[1] else 1
        victor = (att, dfn)[win]
        d.victor = victor
        d.loser = (att, dfn)[1 - win]
        winners, losers = sides(f)[win], sides(f)[1 - win]
        d.cap = fit(abs(totals[0] - totals[1]) * spoils_multiplier(g, victor, losers),
                    "War's spoils")
        g.s.wars_won[victor] += 1
        record_fact(g, "war", att, dfn, victor)
        loser_ally = d.allies[1 - win]
        victor_ally = d.allies[win]
        push(g, Frame("spoils", victor),
             *([Frame("ally_pay", loser_ally)] if loser_ally >= 0 else []),
             *([Frame("share", victor)] if victor_ally >= 0 else []),
             *war_loss_frames(g, losers, winners))
    elif phase == WarPhase.SPOILS:
        settle_spoils(g, f)
    else:
        pop(g)
        for p, card in enumerate(d.commits):
            if card >= 0:
                g.s.battle_discard[faction(p)].append(card)
        add_ships(g, -roll(g, g.cfg.war_ship_loss_dice))


def side_strength(g, f, fighters: list[int]) -> int:
    d = f.d
    total = 0
    for p in fighters:
        card = d.commits[p]
        if card >= 0:
            total += g.c.defs[card].strength
        total += d.bonus[p] + war_bonus(g, p)
    return total


def war_bonus(g, seat: int) -> int:
    """War-strength boosts: face-up tableau cards, and revealed Battle cards (a star
    card's boost only counts when star cards may be used in War)."""
    star_ok = star_allowed_in_war(g)
    total = sum(b["n"] for _, b in active_boosts(g, seat, "war_bonus"))
    total += sum(b["n"] for cid, b in revealed_boosts(g, seat, "war_bonus")
                 if star_ok or not g.c.defs[cid].star)
    return total


def settle_spoils(g, f) -> None:
    d = f.d
    victor, loser = d.victor, d.loser
    win = 0 if victor == f.seat else 1
    loser_ally = d.allies[1 - win]
    k, paid, cap = d.k, d.paid, d.cap
    if loser_ally >= 0:
        gain(g, loser_ally, -paid)
    gain(g, loser, -(k - paid))
    vp = cap - k
    share = d.share
    if share >= 0:
        num, den = g.cfg.spoils_shares[share]
        ally = d.allies[win]
        money_part, vp_part = k * num // den, vp * num // den
        gain(g, ally, money_part)
        score(g, ally, vp_part, "war_spoils")
        k, vp = k - money_part, vp - vp_part
    gain(g, victor, k)
    score(g, victor, vp, "war_spoils")
    log(g, f"seat {victor} wins the war: ${d.k} and {cap - d.k} VP")


def _join(g, f) -> None:
    find_frame(g, "war").d.joined[f.d.side] = 1


def _accept(g, f) -> None:
    find_frame(g, "war").d.allies[f.d.side] = mate(f.seat)


# A faction mate of the attacker or defender may volunteer to join.
yes_no("war_join", _join, may_join)
# The attacker / defender accepts (YES) or refuses the volunteer's help.
yes_no("war_accept", _accept)


def commit_options(g, seat: int, star_ok: bool) -> list[Decision]:
    """COMMIT args for hand cards (index) and revealed cards (max_hand + index)."""
    defs, h = g.c.defs, g.cfg.max_hand
    out = [DECISION[Kind.COMMIT, i] for i, c in enumerate(g.s.hands[seat][:h])
           if star_ok or not defs[c].star]
    out += [DECISION[Kind.COMMIT, h + i] for i, c in enumerate(g.s.revealed[seat][:h])
            if star_ok or not defs[c].star]
    return out


def committed_card(g, seat: int, arg: int) -> int:
    """The card a COMMIT arg names (hand index, or max_hand + revealed index)."""
    h = g.cfg.max_hand
    return g.s.hands[seat][arg] if arg < h else g.s.revealed[seat][arg - h]


def take_committed(g, seat: int, arg: int) -> int:
    """Remove the card named by a COMMIT arg from hand or revealed; return it."""
    h = g.cfg.max_hand
    return g.s.hands[seat].pop(arg) if arg < h else g.s.revealed[seat].pop(arg - h)


@decision("war_commit")
class WarCommit:
    """Commit up to one Battle card face down (star cards only when allowed)."""

    @staticmethod
    def legal(g, f):
        opts = commit_options(g, f.seat, star_allowed_in_war(g))
        return opts + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.COMMIT:
            find_frame(g, "war").d.commits[f.seat] = take_committed(g, f.seat, d.arg)


@decision("war_discard")
class WarDiscard:
    """Discard a tableau card with a discard-for-war boost for extra strength."""

    @staticmethod
    def legal(g, f):
        row = g.s.tableau[f.seat]
        opts = [DECISION[Kind.DISCARD_CARD, i]
                for i, slot in enumerate(row[:g.cfg.max_tableau])
                if slot.up and g.c.defs[slot.card].boost("discard_for_war")]
        return opts + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            return
        row = g.s.tableau[f.seat]
        slot = row[d.arg]
        bonus = find_frame(g, f.d.parent).d.bonus
        bonus[f.seat] = fit(bonus[f.seat] + g.c.defs[slot.card].boost("discard_for_war")["n"],
                            "War bonus", f.seat)
        remove_from_tableau(g, f.seat, d.arg)


def remove_from_tableau(g, seat: int, pos: int) -> None:
    """Discard a tableau card: its Population cards (one cube each) and, for a Public
    Works card, its owner's latest Public Works token go with it."""
    row = g.s.tableau[seat]
    slot = row[pos]
    if pos > 0 and row[pos - 1].link:
        row[pos - 1].link = False
    del row[pos]
    lost = discard_population_cards(g, seat, slot)
    add_population(g, faction(seat), -lost)
    if "public_works" in g.c.defs[slot.card].kinds and slot.up and seat in g.s.pw_track:
        track = g.s.pw_track
        del track[len(track) - 1 - track[::-1].index(seat)]
    g.s.market_discard.append(slot.card)


def _take_dollar(war) -> None:
    war.k += 1


def _pay_dollar(war) -> None:
    war.paid += 1


# The victor takes dollars one at a time (up to the cap and the loser's Wealth); the
# rest of the cap becomes VP.
one_more_dollar("spoils", lambda g, f, w: w.k < min(w.cap, g.s.wealth[w.loser]),
                _take_dollar)
# The loser's ally may pay part of those dollars, one at a time.
one_more_dollar("ally_pay", lambda g, f, w: w.paid < min(w.k, g.s.wealth[f.seat]),
                _pay_dollar)


@decision("share")
class Share:
    """The victor gives the ally 1/3 or 2/3 of the spoils (CHOOSE); with
    ``spoils_sharing = "optional"`` the victor may also keep everything (PASS)."""

    @staticmethod
    def legal(g, f):
        shares = [DECISION[Kind.CHOOSE, i] for i in range(len(g.cfg.spoils_shares))]
        return shares + [PASS] if g.cfg.spoils_sharing == "optional" else shares

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.CHOOSE:
            find_frame(g, "war").d.share = d.arg
