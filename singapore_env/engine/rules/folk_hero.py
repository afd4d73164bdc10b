"""Simulation Mode: the Folk Hero deck, the Resistance Leader's new Action, and the
War losses of Resistance Leaders and Colonial Rulers.

A Folk Hero card is held hidden in its owner's hand (like a Battle card) and played as
a Free Action on the owner's turn (``FOLK_HERO``, arg = hand index): its instant
effects resolve top to bottom, then it is discarded. The deck reshuffles its discards
when empty. A Resistance Leader draws one with the ``INSPIRE`` Action (Storehouse
tokens) and when it loses a War against at least one Agent (two if outnumbered); a
Colonial Ruler who loses a War against a Resistance Leader immediately buys a Battle
card if it can afford one.
"""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from ..state import Frame
from .base import decision, log, pop, push, shuffle
from .effects import resolve_instant
from .market import buy_battle, buy_battle_options
from .roles import LEADER, RULER, role_of, spend_storehouse, storehouse_tokens


def folk_available(g) -> int:
    """Folk Hero cards that can still be drawn (deck and discards)."""
    return len(g.s.folk_deck) + len(g.s.folk_discard)


def draw_folk(g, seat: int, n: int) -> None:
    """Draw ``n`` Folk Hero cards into the hand (reshuffling the discards when the deck
    is empty); a card past the hand limit is discarded."""
    s = g.s
    for _ in range(n):
        if not s.folk_deck:
            s.folk_deck, s.folk_discard = s.folk_discard, []
            shuffle(g, s.folk_deck)
        if not s.folk_deck:
            return
        card = s.folk_deck.pop()
        if len(s.folk_hands[seat]) < g.cfg.max_hand:
            s.folk_hands[seat].append(card)
        else:
            s.folk_discard.append(card)
        log(g, f"seat {seat} draws a Folk Hero card")


def inspire_options(g, seat: int) -> list[Decision]:
    """The Resistance Leader's Action: spend ``folk_hero_cost`` Storehouse tokens to
    draw a Folk Hero card."""
    if (role_of(g, seat) != LEADER or storehouse_tokens(g, seat) < g.cfg.folk_hero_cost
            or not folk_available(g) or len(g.s.folk_hands[seat]) >= g.cfg.max_hand):
        return []
    return [DECISION[Kind.INSPIRE, 0]]


def inspire(g, seat: int, arg: int = 0) -> None:
    """Pay the tokens and draw the card."""
    spend_storehouse(g, seat, g.cfg.folk_hero_cost)
    draw_folk(g, seat, 1)


def play_options(g, seat: int) -> list[Decision]:
    """Free Action: play any Folk Hero card of the hand."""
    held = len(g.s.folk_hands[seat])
    return [DECISION[Kind.FOLK_HERO, i] for i in range(min(held, g.cfg.max_hand))] if held else []


def play_folk(g, seat: int, index: int) -> None:
    """Play a Folk Hero card: discard it and resolve its instant effects."""
    card = g.s.folk_hands[seat].pop(index)
    g.s.folk_discard.append(card)
    log(g, f"seat {seat} plays {g.c.defs[card].name}")
    push(g, *resolve_instant(g, seat, card))


def war_loss_frames(g, losers: list[int], winners: list[int]) -> list[Frame]:
    """After a War: every losing Resistance Leader facing at least one Agent draws Folk
    Hero cards now; every losing Colonial Ruler facing a Resistance Leader gets the
    question of which Battle card purchase to make (if it can afford one)."""
    frames = []
    for p in losers:
        role = role_of(g, p)
        if role == LEADER and any(role_of(g, q) == RULER for q in winners):
            n = (g.cfg.folk_draw_outnumbered if len(winners) > len(losers)
                 else g.cfg.folk_draw_on_loss)
            draw_folk(g, p, n)
        elif (role == RULER and any(role_of(g, q) == LEADER for q in winners)
              and buy_battle_options(g, p)):
            frames.append(Frame("ruler_buy", p))
    return frames


@decision("ruler_buy")
class RulerBuy:
    """A Colonial Ruler who lost to a Resistance Leader buys a Battle card at once
    (mandatory when affordable): the top card, or draw two and keep one."""

    @staticmethod
    def legal(g, f):
        return buy_battle_options(g, f.seat)

    @staticmethod
    def apply(g, f, d):
        pop(g)
        buy_battle(g, f.seat, bool(d.arg))
