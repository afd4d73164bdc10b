"""The heuristic's answers to the questions after a turn's main decision: connecting
Communities, Influence, Battle cards kept, Population moves, Boom and search picks,
rerolls, vetoes, War (joining, committing, discarding, spoils) and the Fund, each a
function of ``(ctx, frame, legal)`` in :data:`QUESTIONS` by the frame's kind, as
:mod:`agents.heuristic.simulation`'s. The turn's main decisions are scored in
:mod:`agents.heuristic.agent`."""

from __future__ import annotations

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import market_price, run_bounds

from .choices import boom_choice, reroll_choice, spend_counter_boost
from .context import PASS, YES, Ctx
from .influence import district_value, influence_plan, store_scores
from .values import (action_value, attach_slot_value, battle_card_value, decree_value_for_me,
                     group_has_work, groups_with_work, market_card_value)


def _connect(ctx: Ctx, f, legal):
    row = ctx.s.tableau[ctx.seat]
    best, best_v = PASS, 0.0
    for d in legal:
        if d.kind != Kind.CONNECT:
            continue
        p, side = divmod(d.arg, 2)
        a, b = run_bounds(row, p)
        v = 1.0 + 0.3 * (b - a + 1) + (0.5 if group_has_work(ctx, row, a, b) else 0.0)
        if v > best_v:
            best, best_v = d, v
    return best

def _influence(ctx: Ctx, f, legal):
    n = f.d.n
    kinds = {d.kind for d in legal}
    if Kind.STORE in kinds:
        return max(store_scores(ctx, n, legal), key=lambda x: x[0])[1]
    if Kind.INFLUENCE_START in kinds:
        _, d = influence_plan(ctx, n)
        return d
    _, d = influence_plan(ctx, n, pos=f.d.pos, asking=True)
    return d

def _keep_battle(ctx: Ctx, f, legal):
    cards = f.d.cards
    held = ctx.battle_cards_held()
    return max(legal, key=lambda d: battle_card_value(ctx, cards[d.arg], held))

def _attach_pop(ctx: Ctx, f, legal):
    opts = [d for d in legal if d.kind == Kind.ATTACH_POP]
    if not opts:
        return PASS
    return max(opts, key=lambda d: attach_slot_value(ctx, d.arg))

def _moves(ctx: Ctx, f, legal):
    """Card moves: only to reduce the number of Communities that need an Action."""
    seat = ctx.seat
    if any(d.kind == Kind.MOVE_SEAT for d in legal):
        return Decision(Kind.MOVE_SEAT, seat) if Decision(Kind.MOVE_SEAT, seat) in legal \
            else PASS
    target = seat if f.d.scope == "own" else f.d.target
    if target != seat:
        return PASS
    row = ctx.s.tableau[seat]
    base = groups_with_work(ctx, row)
    t = ctx.g.cfg.max_tableau
    width = 2 * t + 1
    best, best_gain = PASS, 0.0
    for d in legal:
        if d.kind == Kind.MOVE_CARD:
            src, enc = divmod(d.arg, width)
            if enc == 2 * t:
                continue
            from singapore_env.engine.query import row_after_card_move
            trial = row_after_card_move(row, src, enc)
            gain = base - groups_with_work(ctx, trial)
            if gain > best_gain:
                best, best_gain = d, gain
        elif d.kind == Kind.MOVE_POP:
            src, dst = divmod(d.arg, t)
            gain = attach_slot_value(ctx, dst) - _pop_keep_value(ctx, src)
            if gain > best_gain + 0.3:
                best, best_gain = d, gain - 0.3
    return best

def _pop_keep_value(ctx: Ctx, pos: int) -> float:
    slot = ctx.s.tableau[ctx.seat][pos]
    cdef = ctx.defs[slot.card]
    n = len(slot.pops)
    v = (action_value(ctx, slot.card, n) - action_value(ctx, slot.card, n - 1)) \
        * max(0.0, ctx.rounds_left - 0.5) * 0.8
    for e in cdef.end_game:
        if e.type == "vp_per_pop":
            v += e["n"]
    return v

def _boom_pick(ctx: Ctx, f, legal):
    w = ctx.s.wealth[ctx.seat]
    return boom_choice(legal, ctx.s.market,
                       lambda cid: market_card_value(ctx, cid, wealth_after=w),
                       f.d.n * ctx.mv)

def _search_pick(ctx: Ctx, f, legal):
    opts = f.d.options
    def net(d):
        price = market_price(ctx.g, ctx.seat, opts[d.arg])[0]
        return (market_card_value(ctx, opts[d.arg], wealth_after=ctx.s.wealth[ctx.seat] - price)
                - price * ctx.mv)
    return max(legal, key=net)

def _reroll(ctx: Ctx, f, legal):
    return reroll_choice(ctx.s, f)

def _hinder(ctx: Ctx, f, legal):
    raid = next(x for x in reversed(ctx.s.stack) if x.kind == "raid")
    return YES if SEAT_FACTION[raid.seat] != SEAT_FACTION[ctx.seat] else PASS

def _veto(ctx: Ctx, f, legal):
    vice = f.d.vice
    decree = next(x for x in reversed(ctx.s.stack) if x.kind == "decree")
    hurt = -decree_value_for_me(ctx, vice, decree.seat)
    cost = 6 * ctx.tv
    return YES if hurt > cost else PASS

def _war_join(ctx: Ctx, f, legal):
    # joining costs a card and the victor gives at most a third of the spoils: stay out
    return PASS

def _war_accept(ctx: Ctx, f, legal):
    return YES

def _war_commit(ctx: Ctx, f, legal):
    war = next(x for x in reversed(ctx.s.stack) if x.kind == "war")
    h = ctx.g.cfg.max_hand
    s, defs = ctx.s, ctx.defs

    def card(d):
        if d.arg < h:
            return s.hands[ctx.seat][d.arg]
        return s.revealed[ctx.seat][d.arg - h]

    commits = [d for d in legal if d.kind == Kind.COMMIT]
    if not commits:
        return PASS
    principal = ctx.seat in (war.seat, war.d.defender)
    if principal:
        return max(commits, key=lambda d: (defs[card(d)].strength,
                                           -battle_card_value(ctx, card(d))))
    # an ally: a card only if cheap to give
    d = min(commits, key=lambda d: battle_card_value(ctx, card(d)))
    return d if defs[card(d)].strength >= 3 else PASS

def _war_discard(ctx: Ctx, f, legal):
    return PASS

def _spoils(ctx: Ctx, f, legal):
    """Dollars from the loser, or VP: VP, unless dollars reach a Legacy band
    (the Sultan's Prosperous) and pay more than the VP they replace."""
    take = Decision(Kind.ADD_MONEY)
    if take not in legal:
        return PASS
    war = next(x for x in reversed(ctx.s.stack) if x.kind == "war")
    k = war.d.k
    limit = min(war.d.cap, ctx.s.wealth[war.d.loser])
    w = ctx.s.wealth[ctx.seat]
    best_j, best_v = 0, 0.0
    for j in range(1, limit - k + 1):
        v = j * (ctx.mv - 1.0 + 0.3) + ctx.legacy_step("wealth", w, j)
        if v > best_v + 1e-9:
            best_j, best_v = j, v
    return take if best_j > 0 else PASS

def _ally_pay(ctx: Ctx, f, legal):
    return PASS

def _share(ctx: Ctx, f, legal):
    return PASS if PASS in legal else Decision(Kind.CHOOSE, 0)  # the smallest share

def _contribute(ctx: Ctx, f, legal):
    conflict = next(x for x in reversed(ctx.s.stack) if x.kind == "conflict")
    s, defs = ctx.s, ctx.defs
    me = ctx.seat
    h = ctx.g.cfg.max_hand
    strength = conflict.d.strength
    my_cards = conflict.d.cards[me]
    money = conflict.d.money[me]
    own = sum(defs[c].strength for c in my_cards) + money
    gap = strength - own
    commits = [d for d in legal if d.kind == Kind.COMMIT]
    if YES in legal and spend_counter_boost(ctx.g, conflict, me):
        return YES

    def card(d):
        return s.hands[me][d.arg] if d.arg < h else s.revealed[me][d.arg - h]

    held = ctx.battle_cards_held()
    if not my_cards:
        if not commits:
            return PASS  # dollars alone earn no VP
        wealth = s.wealth[me] - money
        scored = []
        for d in commits:
            c = card(d)
            st = defs[c].strength  # VP count the whole strength (only adding stops)
            top_up = max(0, min(wealth, gap - st))
            vp = conflict.d.base + conflict.d.per * (st + top_up)
            cost = top_up * ctx.mv + battle_card_value(ctx, c, held - 1) * ctx.p["keep_card"]
            scored.append((vp - cost, d))
        v, d = max(scored, key=lambda x: x[0])
        return d if v > 0 else PASS
    # a card is in: top up with dollars (1 VP each) while they are worth less
    if Decision(Kind.ADD_MONEY) in legal and gap > 0 and ctx.mv < conflict.d.per:
        return Decision(Kind.ADD_MONEY)
    if commits and gap > 0:
        d = min(commits, key=lambda d: battle_card_value(ctx, card(d), held - 1))
        c = card(d)
        if conflict.d.per * defs[c].strength > battle_card_value(ctx, c, held - 1):
            return d
    return PASS

def _fund_close(ctx: Ctx, f, legal):
    fund = Decision(Kind.FUND)
    closes = [d for d in legal if d.kind == Kind.CLOSE]
    if not closes:
        return fund if fund in legal else PASS
    row = ctx.s.tableau[ctx.seat]

    def keep_value(d):
        slot = row[d.arg]
        v = market_card_value(ctx, slot.card, rebuild=True) + 0.5 * len(slot.pops) * 2
        return v
    cheapest = min(closes, key=keep_value)
    if fund in legal:
        cost = ctx.mult * ctx.g.cfg.fund_cost_per_multiplier * ctx.mv
        return fund if cost <= keep_value(cheapest) + 1.0 else cheapest
    return cheapest

def _lose_pop(ctx: Ctx, f, legal):
    return min(legal, key=lambda d: _pop_keep_value(ctx, d.arg))

def _remove_influence(ctx: Ctx, f, legal):
    b = ctx.c.board
    s = ctx.s

    def loss(d):
        sp = d.arg
        if b.loop_kind[sp] == "storehouse":  # either Storehouse: the rival's helps
            return ctx.tv if b.loop_faction[sp] == SEAT_FACTION[ctx.seat] else -ctx.tv
        tokens = list(s.districts[sp * 4: sp * 4 + 4])
        before = district_value(ctx, sp, tokens)
        tokens[ctx.seat] -= 1
        return before - district_value(ctx, sp, tokens)
    return min(legal, key=loss)


#: Question (frame kind) -> its answer ``(ctx, frame, legal) -> Decision``.
QUESTIONS = {
    "connect": _connect,
    "influence": _influence,
    "keep_battle": _keep_battle,
    "attach_pop": _attach_pop,
    "moves": _moves,
    "boom_pick": _boom_pick,
    "search_pick": _search_pick,
    "reroll": _reroll,
    "hinder": _hinder,
    "veto": _veto,
    "war_join": _war_join,
    "war_accept": _war_accept,
    "war_commit": _war_commit,
    "war_discard": _war_discard,
    "spoils": _spoils,
    "ally_pay": _ally_pay,
    "share": _share,
    "contribute": _contribute,
    "fund_close": _fund_close,
    "lose_pop": _lose_pop,
    "remove_influence": _remove_influence,
}
