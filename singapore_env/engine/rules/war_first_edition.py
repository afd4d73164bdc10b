"""First-edition War (ruleset ``first-edition``): two Actions and no tokens to declare;
Battle cards, Storehouse tokens and a D4 per side; plunder in Wealth, Market cards or VP.

The ``war_fe`` frame stays on the stack and asks, in order:

1. the attacker and the defender each commit one Battle card face down (compulsory when
   they have one), then their faction mates may each add one (``fe_commit``); identical
   copies may be added to a card and combine (strengths add);
2. every fighter (attacker, defender, a mate who committed) may discard a card with a
   discard-for-War boost (the standard ``war_discard`` question);
3. the attacker, then the defender, withdraw any number of their faction's Storehouse
   tokens, one at a time (``fe_tokens``), each worth ``fe_storehouse_strength``;
4. each side rolls ``fe_war_d4`` D4s (a re-roll boost may re-roll some: ``reroll``);
   total = cards + discards + tokens + D4 + War boosts; the
   higher total wins, the attacker on a tie. The winner is owed (difference x
   multiplier) dollars: the loser's Wealth is taken first, then the loser's faction mate
   may donate dollars one at a time (``fe_donate``), then the winner takes Market cards
   from the loser's tableau, each worth its printed price for the winner's faction and
   at most what is still owed (``fe_plunder``), and turns the rest into VP
   (``fe_vp_per_dollar`` each). Population cards on a taken card stay with the loser,
   who attaches each to a vacant slot (else it is discarded);
5. the committed cards are discarded and ``fe_war_ships_lost`` ships leave the Port.
"""

from __future__ import annotations

from ..decisions import DECISION, FastKind as Kind
from ..frames import WarFePhase
from ..state import Frame
from .base import (PASS, add_ships, add_storehouse, auto, decision, faction, find_frame, fit,
                   gain, log, mate, multiplier, pop, push, record_fact, score, star_allowed_in_war)
from .raid import reroll_frame, roll_into
from .raid_first_edition import committed_strength, discard_commits
from .war import war_bonus, war_cost

ONE_MORE = DECISION[Kind.ADD_MONEY, 0]


def declare_war_fe(g, seat: int, defender: int) -> None:
    """Start a first-edition War on ``defender`` (the WAR action of that ruleset). Its
    token cost is the configured 0 plus any round modifier (an event's "Wars cost 1
    token more")."""
    add_storehouse(g, faction(seat), -war_cost(g, seat))
    log(g, f"seat {seat} declares war on seat {defender}")
    push(g, Frame("war_fe", seat, defender=defender, phase=WarFePhase.COMMIT,
                  commits=[[], [], [], []], bonus=[0, 0, 0, 0], tokens=[0, 0], die="d4",
                  roll0=0, roll1=0, totals=[0, 0], victor=-1, loser=-1, due=0, shown=0))


def principals(f) -> tuple[int, int]:
    """(attacker, defender) of a ``war_fe`` frame."""
    return f.seat, f.d.defender


@auto("war_fe")
def war_fe_step(g, f) -> None:
    """One phase of the War per call: commits, discards, tokens, dice, result, end."""
    d = f.d
    att, dfn = principals(f)
    phase = d.phase
    if phase != WarFePhase.END:
        d.phase = WarFePhase(phase + 1)
    if phase == WarFePhase.COMMIT:
        push(g, Frame("fe_commit", att, parent="war_fe", must=1),
             Frame("fe_commit", dfn, parent="war_fe", must=1),
             Frame("fe_commit", mate(att), parent="war_fe", must=0),
             Frame("fe_commit", mate(dfn), parent="war_fe", must=0))
    elif phase == WarFePhase.DISCARD:
        push(g, *[Frame("war_discard", p, parent="war_fe") for p in fighters(f)])
    elif phase == WarFePhase.TOKENS:
        push(g, Frame("fe_tokens", att, side=0), Frame("fe_tokens", dfn, side=1))
    elif phase == WarFePhase.ROLL:
        roll_into(g, f, "roll0", g.cfg.fe_war_d4)
        roll_into(g, f, "roll1", g.cfg.fe_war_d4)
        star_ok = star_allowed_in_war(g)  # a star card's re-roll is a use of the card
        push(g, *reroll_frame(g, att, "war_fe", "roll0", star_ok),
             *reroll_frame(g, dfn, "war_fe", "roll1", star_ok))
    elif phase == WarFePhase.BATTLE:
        resolve_battle(g, f)
    else:
        pop(g)
        discard_commits(g, f)
        add_ships(g, -g.cfg.fe_war_ships_lost)


def fighters(f) -> list[int]:
    """The attacker, the defender and each faction mate who committed a card."""
    att, dfn = principals(f)
    return [att, dfn] + [p for p in (mate(att), mate(dfn)) if f.d.commits[p]]


def side_total(g, f, side: int) -> int:
    """Cards, discards and War boosts of the side's fighters + tokens + D4."""
    d = f.d
    p = principals(f)[side]
    total = (d.roll0, d.roll1)[side] + d.tokens[side] * g.cfg.fe_storehouse_strength
    for seat in fighters(f):
        if seat in (p, mate(p)):
            total += (committed_strength(g, d.commits[seat]) + d.bonus[seat]
                      + war_bonus(g, seat))
    return total


def resolve_battle(g, f) -> None:
    """Compare the totals (the attacker wins ties), take the loser's Wealth, then ask for the
    ally's donation and the winner's plunder of what is still owed."""
    d = f.d
    d.totals = [fit(side_total(g, f, 0), "War total"), fit(side_total(g, f, 1), "War total")]
    d.shown = 1
    win = 0 if d.totals[0] >= d.totals[1] else 1
    victor, loser = principals(f)[win], principals(f)[1 - win]
    d.victor, d.loser = victor, loser
    g.s.wars_won[victor] += 1
    record_fact(g, "war", *principals(f), victor)
    owed = fit((d.totals[win] - d.totals[1 - win]) * multiplier(g), "War's plunder")
    taken = min(owed, g.s.wealth[loser])
    gain(g, loser, -taken)
    gain(g, victor, taken)
    d.due = owed - taken
    log(g, f"war totals {d.totals}: seat {victor} wins, owed ${owed}, took ${taken}")
    if d.due > 0:
        push(g, Frame("fe_donate", mate(loser)), Frame("fe_plunder", victor))


@decision("fe_tokens")
class WithdrawTokens:
    """Withdraw one more Storehouse token for War strength (ADD_MONEY); PASS ends."""

    @staticmethod
    def legal(g, f):
        return [ONE_MORE, PASS] if g.s.storehouse[faction(f.seat)] > 0 else []

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            return
        add_storehouse(g, faction(f.seat), -1)
        find_frame(g, "war_fe").d.tokens[f.d.side] += 1


@decision("fe_donate")
class Donate:
    """The loser's faction mate donates $1 more to the winner (ADD_MONEY); PASS ends."""

    @staticmethod
    def legal(g, f):
        war = find_frame(g, "war_fe").d
        return [ONE_MORE, PASS] if war.due > 0 and g.s.wealth[f.seat] > 0 else []

    @staticmethod
    def apply(g, f, d):
        if d.kind == Kind.PASS:
            pop(g)
            return
        war = find_frame(g, "war_fe").d
        gain(g, f.seat, -1)
        gain(g, war.victor, 1)
        war.due -= 1


def steal_price(g, victor: int, card: int) -> int:
    """What a taken Market card is worth: its printed price for the winner's faction."""
    return g.c.defs[card].price[faction(victor)]


@decision("fe_plunder")
class Plunder:
    """The winner takes a Market card of the loser worth at most what is owed
    (DISCARD_CARD = the card's position in the loser's tableau), or PASS: the rest of
    the debt becomes VP."""

    @staticmethod
    def legal(g, f):
        war = find_frame(g, "war_fe").d
        if len(g.s.tableau[f.seat]) >= g.cfg.max_tableau:
            return [PASS]
        row = g.s.tableau[war.loser][:g.cfg.max_tableau]
        return [DECISION[Kind.DISCARD_CARD, i] for i, slot in enumerate(row)
                if g.c.defs[slot.card].category == "market"
                and 0 < steal_price(g, f.seat, slot.card) <= war.due] + [PASS]

    @staticmethod
    def apply(g, f, d):
        war = find_frame(g, "war_fe").d
        if d.kind == Kind.PASS:
            pop(g)
            score(g, f.seat, war.due * g.cfg.fe_vp_per_dollar, "war_plunder")
            war.due = 0
            return
        war.due -= steal_price(g, f.seat, g.s.tableau[war.loser][d.arg].card)
        if war.due <= 0:
            pop(g)
        take_card(g, war.loser, d.arg, f.seat)


def take_card(g, loser: int, pos: int, victor: int) -> None:
    """Move a Market card from the loser's tableau to the right end of the winner's,
    unconnected; a face-up Public Works card's token changes owner with it. Its
    Population cards stay with the loser, who attaches each to a vacant slot."""
    row = g.s.tableau[loser]
    slot = row.pop(pos)
    if pos > 0 and row[pos - 1].link:
        row[pos - 1].link = False
    slot.link = False
    pops, slot.pops = slot.pops, []
    track = g.s.pw_track
    if "public_works" in g.c.defs[slot.card].kinds and slot.up and loser in track:
        track[len(track) - 1 - track[::-1].index(loser)] = victor
    g.s.tableau[victor].append(slot)
    push(g, *[Frame("attach_pop", loser, card=c) for c in pops])
    log(g, f"seat {victor} takes {g.c.defs[slot.card].name} from seat {loser}")
