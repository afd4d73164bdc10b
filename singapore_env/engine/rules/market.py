"""Buying: Market cards (price, instant effects, one connection, refill), Battle cards
(top card, or draw two keep one), Search, the Major Economic Boom's free pick, and the
Free Actions Reveal and Rebuild."""

from __future__ import annotations

from ..decisions import DECISION, Decision, FastKind as Kind
from ..state import Frame, Slot
from .base import (PASS, add_ships, add_public_works_token, auto, battle_available,
                   decision, draw_battle, faction, gain, log, modifier_total, pop, push,
                   seat_boosts, shuffle, slot_position)
from .effects import resolve_instant
from .roles import ally_dual_price, spend_storehouse, storehouse_tokens
from .tableau import attach, connect_options


# ---------------------------------------------------------------- prices
def leader_on_market_space(g, seat: int) -> bool:
    spaces = g.c.board.leader_spaces
    return any(occupant == seat and spaces[i] == "market"
               for i, occupant in enumerate(g.s.leader_space))


def price_function(g, seat: int, purchase: bool = True):
    """``card -> (price, once_used)`` for this seat now: the faction price plus round
    modifiers minus discount boosts, never below 0. Built once per question, since the
    boosts and modifiers do not change while the seat looks at several cards."""
    prices = g.c.prices[faction(seat)]
    modifier = modifier_total(g, "market_price")
    discounts = applicable_discounts(g, seat, purchase)
    ally_extra = ally_dual_price(g, seat)
    if not discounts and ally_extra is None:
        return lambda card: (max(0, prices[card] + modifier), False)
    defs = g.c.defs

    def price(card: int) -> tuple[int, bool]:
        d = defs[card]
        base = prices[card]
        if ally_extra is not None and d.dual_price:
            base = min(base, d.price[0] + ally_extra)
        discount, once_used = 0, False
        for applies, n, once_per_turn in discounts:
            if applies == "dual_price" and not d.dual_price:
                continue
            if applies == "public_works" and "public_works" not in d.kinds:
                continue
            if once_per_turn:
                if once_used:
                    continue
                once_used = True
            discount += n
        return max(0, base + modifier - discount), once_used

    return price


def applicable_discounts(g, seat: int, purchase: bool) -> list[tuple[str, int, bool]]:
    """``(applies, n, once_per_turn)`` of every price discount boost of ``seat`` that
    may apply in this question (a once-per-turn one only to a purchase, and only while
    the seat has not used one this turn)."""
    boosts = seat_boosts(g, seat, "price_discount")
    if not boosts:
        return []
    on_market = leader_on_market_space(g, seat)
    once_available = purchase and not g.s.discount_used
    return [(b["applies"], b["n"], b["once_per_turn"]) for b in boosts
            if (on_market or b["when"] != "leader_on_market_space")
            and (once_available or not b["once_per_turn"])]


def market_price(g, seat: int, card: int, purchase: bool = True) -> tuple[int, bool]:
    """(price for this seat after boosts and modifiers, whether a once-per-turn
    discount was used)."""
    return price_function(g, seat, purchase)(card)


def vice_outlawed(g, card: int) -> bool:
    vice = g.c.vice_index[card]
    return vice >= 0 and g.s.outlawed[vice] >= 0


def buy_market_options(g, seat: int) -> list[Decision]:
    """Market slots ``seat`` may buy now: a card there, its vice not outlawed, a free
    tableau place and the price in hand."""
    s = g.s
    if len(s.tableau[seat]) >= g.cfg.max_tableau:
        return []
    price, wealth = price_function(g, seat), s.wealth[seat]
    return [DECISION[Kind.BUY_MARKET, i] for i, card in enumerate(s.market)
            if card >= 0 and not vice_outlawed(g, card) and price(card)[0] <= wealth]


def can_buy_market(g, seat: int, slot: int) -> bool:
    """May ``seat`` buy the Market card in ``slot`` now?"""
    return DECISION[Kind.BUY_MARKET, slot] in buy_market_options(g, seat)


def pay_for(g, seat: int, card: int) -> None:
    price, once = market_price(g, seat, card)
    g.s.wealth[seat] -= price
    if once:
        g.s.discount_used = 1


def buy_market(g, seat: int, slot: int) -> None:
    card = g.s.market[slot]
    pay_for(g, seat, card)
    g.s.market[slot] = -1
    log(g, f"seat {seat} buys {g.c.defs[card].name}")
    gain_card(g, seat, card, Frame("refill_market"))


def gain_card(g, seat: int, card: int, *after: Frame) -> None:
    """Buy: "1. Resolve any instant effects; 2. Add the card to your tableau, making at
    most one connection." While its effects resolve the card waits in a ``place_card``
    frame, so its own Moves cannot involve it."""
    push(g, *resolve_instant(g, seat, card), Frame("place_card", seat, card=card),
         Frame("connect", seat, card=card), *after)


@auto("place_card")
def place_card(g, f) -> None:
    """The gained card enters the tableau standalone, once its effects are resolved."""
    pop(g)
    g.s.tableau[f.seat].append(Slot(f.d.card))


@auto("refill_market")
def refill_market(g, f) -> None:
    """Close the gaps by shifting cards right, then fill the left from the deck."""
    pop(g)
    fill_market(g)


def flush_market(g) -> None:
    """Cleanup: discard the rightmost Market card, shift right, refill the left."""
    s = g.s
    if s.market and s.market[-1] >= 0:
        s.market_discard.append(s.market[-1])
        s.market[-1] = -1
    fill_market(g)


def fill_market(g) -> None:
    """Close the gaps (cards shift right) and fill the left slots from the deck."""
    s = g.s
    cards = [c for c in s.market if c >= 0]
    fresh = [s.market_deck.pop() if s.market_deck else -1
             for _ in range(g.cfg.market_slots - len(cards))]
    s.market = fresh[::-1] + cards


@decision("connect")
class Connect:
    """Make at most one connection for the card just added to the tableau."""

    @staticmethod
    def legal(g, f):
        row = g.s.tableau[f.seat]
        pos = slot_position(g, f.seat, f.d.card)
        opts = [x for x in connect_options(g.c.defs, row, pos) if x < 2 * g.cfg.max_tableau]
        return [DECISION[Kind.CONNECT, x] for x in opts] + [PASS] if opts else []

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.CONNECT:
            row = g.s.tableau[f.seat]
            attach(row, slot_position(g, f.seat, f.d.card), d.arg)


def boom_options(g, seat: int) -> list[Decision]:
    """Market slots ``seat`` may take in a Major Economic Boom: any open card "except
    the most expensive one" (by the seat's faction price; every card tied for it), not
    an outlawed vice, while the tableau has room."""
    fac = faction(seat)
    cards = [(i, c) for i, c in enumerate(g.s.market) if c >= 0]
    if not cards or len(g.s.tableau[seat]) >= g.cfg.max_tableau:
        return []
    top = max(g.c.defs[c].price[fac] for _, c in cards)
    return [DECISION[Kind.BUY_MARKET, i] for i, c in cards
            if g.c.defs[c].price[fac] < top and not vice_outlawed(g, c)]


@decision("boom_pick")
class BoomPick:
    """Major Economic Boom: take an open Market card for free (BUY_MARKET slot; its
    instant effects, then the tableau with one connection), or PASS to gain $n."""

    @staticmethod
    def legal(g, f):
        return boom_options(g, f.seat) + [PASS]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        if d.kind == Kind.PASS:
            gain(g, f.seat, f.d.n)
            return
        card = g.s.market[d.arg]
        g.s.market[d.arg] = -1
        log(g, f"seat {f.seat} takes {g.c.defs[card].name} (Economic Boom)")
        gain_card(g, f.seat, card)


# ---------------------------------------------------------------- battle cards
def buy_battle_options(g, seat: int) -> list[Decision]:
    s, fac = g.s, faction(seat)
    if len(s.hands[seat]) >= g.cfg.max_hand or s.wealth[seat] < g.cfg.battle_card_price:
        return []
    out = []
    available = battle_available(g, fac)
    if available >= 1:
        out.append(DECISION[Kind.BUY_BATTLE, 0])
    if available >= 2 and storehouse_tokens(g, seat) >= g.cfg.battle_draw_two_tokens:
        out.append(DECISION[Kind.BUY_BATTLE, 1])
    return out


def buy_battle(g, seat: int, two: bool) -> None:
    s, fac = g.s, faction(seat)
    s.wealth[seat] -= g.cfg.battle_card_price
    if not two:
        s.hands[seat].append(draw_battle(g, fac))
        return
    spend_storehouse(g, seat, g.cfg.battle_draw_two_tokens)
    cards = [draw_battle(g, fac), draw_battle(g, fac)]
    push(g, Frame("keep_battle", seat, cards=cards))


@decision("keep_battle")
class KeepBattle:
    """Keep one of the two Battle cards drawn; discard the other."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.KEEP_BATTLE, 0], DECISION[Kind.KEEP_BATTLE, 1]]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        cards = f.d.cards
        g.s.hands[f.seat].append(cards[d.arg])
        g.s.battle_discard[faction(f.seat)].append(cards[1 - d.arg])


# ---------------------------------------------------------------- search
def search_candidates(g, seat: int, slot) -> list[int]:
    b = g.c.defs[slot.card].boost("search")
    keys = set(b["cards"])
    seen, out = set(), []
    price = price_function(g, seat)
    for cid in g.s.market_deck:
        key = g.c.defs[cid].key
        if key in keys and key not in seen and not vice_outlawed(g, cid) \
                and price(cid)[0] <= g.s.wealth[seat]:
            seen.add(key)
            out.append(cid)
    return sorted(out)


def search_options(g, seat: int) -> list[Decision]:
    row = g.s.tableau[seat]
    searches = g.c.boosts_by_type.get("search")  # card id -> its search boosts
    if len(row) >= g.cfg.max_tableau or searches is None:
        return []
    return [DECISION[Kind.SEARCH, i] for i, slot in enumerate(row)
            if slot.up and not slot.searched and searches[slot.card]
            and search_candidates(g, seat, slot)]


def search(g, seat: int, pos: int) -> None:
    slot = g.s.tableau[seat][pos]
    if g.c.defs[slot.card].boost("search")["once_per_game"]:
        slot.searched = True
    options = search_candidates(g, seat, slot)
    push(g, Frame("search_pick", seat, options=options[:g.cfg.search_shortlist]))


@decision("search_pick")
class SearchPick:
    """Choose which searched card to buy from the Market deck."""

    @staticmethod
    def legal(g, f):
        return [DECISION[Kind.CHOOSE, i] for i in range(len(f.d.options))]

    @staticmethod
    def apply(g, f, d):
        pop(g)
        card = f.d.options[d.arg]
        g.s.market_deck.remove(card)
        shuffle(g, g.s.market_deck)
        pay_for(g, f.seat, card)
        log(g, f"seat {f.seat} searches the Market deck for {g.c.defs[card].name}")
        gain_card(g, f.seat, card)


# ---------------------------------------------------------------- free actions
def reveal_options(g, seat: int) -> list[Decision]:
    held = len(g.s.hands[seat])
    return [DECISION[Kind.REVEAL, i] for i in range(min(held, g.cfg.max_hand))] if held else []


def reveal(g, seat: int, hand_index: int) -> None:
    card = g.s.hands[seat].pop(hand_index)
    g.s.revealed[seat].append(card)
    for b in g.c.defs[card].boosts:
        if b.type == "ships_on_reveal":
            add_ships(g, b["n"])
    log(g, f"seat {seat} reveals {g.c.defs[card].name}")


def rebuild_options(g, seat: int) -> list[Decision]:
    closed = [(i, slot) for i, slot in enumerate(g.s.tableau[seat][:g.cfg.max_tableau])
              if slot.down == "closed"]
    if not closed:
        return []
    price = price_function(g, seat, purchase=False)
    return [DECISION[Kind.REBUILD, i] for i, slot in closed
            if price(slot.card)[0] <= g.s.wealth[seat]]


def rebuild(g, seat: int, pos: int) -> None:
    slot = g.s.tableau[seat][pos]
    g.s.wealth[seat] -= market_price(g, seat, slot.card, purchase=False)[0]
    slot.up, slot.down = True, ""
    add_public_works_token(g, seat)
    log(g, f"seat {seat} rebuilds {g.c.defs[slot.card].name}")
