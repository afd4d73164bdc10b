"""The heuristic player's values, in VP equivalents: Market cards (instant effects,
Action, Tax, boosts, End Game VP, Legacy steps, less price and Public Works burden),
Battle cards, Population, Wars and Decrees."""

from __future__ import annotations

from math import comb

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import N_LOOP
from singapore_env.engine.query import (activation_groups, boost_total, decree_cost, joins,
                                        modifier_total, run_bounds, spoils_multiplier,
                                        star_allowed_in_war, war_cost)

from .context import Ctx
from .influence import token_value


def _pw_burden(ctx: Ctx, extra_tokens: int = 1) -> float:
    """Expected cost of adding Public Works tokens (funding the newest excess)."""
    player, neutral = ctx.tax
    tax = sum(player) + neutral
    pw = len(ctx.s.pw_track)
    excess = max(0, pw + extra_tokens - tax) - max(0, pw - tax)
    if excess <= 0:
        return 0.0
    per_round = ctx.mult * ctx.g.cfg.fund_cost_per_multiplier * ctx.mv
    return excess * per_round * ctx.rounds_left * 0.7


def tax_token_value(ctx: Ctx, tokens: int, vice: bool) -> float:
    """VP of ``tokens`` own Tax tokens from now to the end (Upkeeps and the bonus)."""
    if tokens <= 0:
        return 0.0
    player, neutral = ctx.tax
    me = ctx.seat
    mine = player[me] + tokens
    top = all(mine >= player[p] for p in range(4) if p != me)
    met = len(ctx.s.pw_track) <= sum(player) + neutral + tokens
    per = 1.0 + (0.8 if top and met else 0.3 if top else 0.1)
    v = tokens * per * ctx.rounds_left
    if top and met:  # the bonus pays all own tokens, not only the new ones
        v += 0.3 * player[me] * ctx.rounds_left
    v += ctx.legacy_step("tax_tokens", player[me], tokens)
    return v * (ctx.p["vice_survival"] if vice else 1.0)


def effects_value(ctx: Ctx, effects, pops: int = 0, instant: bool = False) -> float:
    v, infl = 0.0, 0
    for e in effects:
        t = e.type
        if t == "influence":
            infl += e["n"] + e["per_pop"] * pops
        elif t == "wealth":
            v += (e["n"] + e["per_pop"] * pops + e["dice"]) * ctx.mv
        elif t == "storehouse":
            v += e["n"] * ctx.tv
        elif t == "population":
            v += cube_value(ctx, e["n"])
        elif t == "ships":
            v += e["n"] * ctx.p["ship_value"]
        elif t == "move":
            v += 0.25 * e["n"]
        elif t == "battle_draw":
            v += e["n"] * expected_battle_value(ctx)
        elif t == "public_works" and instant:
            v -= _pw_burden(ctx)
            if (len(ctx.s.pw_track) + 1) in ctx.c.board.pw_ship_spaces:
                v += ctx.p["ship_value"]
    return v + infl * token_value(ctx)


def cube_value(ctx: Ctx, n: int) -> float:
    """Value of ``n`` more cubes for the own faction (districts that open)."""
    b = ctx.c.board
    pop = ctx.s.population[ctx.fac]
    v = 0.1 * n
    for sp in range(N_LOOP):
        if b.loop_kind[sp] == "district" and b.loop_faction[sp] == ctx.fac:
            at = b.loop_opens_at[sp]
            if at > 0 and pop < at:
                gain = 0.7 * ctx.rounds_left * (b.loop_multiplier[sp] - 0.5)
                if pop + n >= at:
                    v += gain
                else:
                    v += gain * 0.5 * n / (at - pop)
    return v


def _card_joins(ctx: Ctx, row, card: int):
    """Runs (first, last) of ``row`` the card could join on arrival."""
    defs = ctx.defs
    out = []
    seen = set()
    for p in range(len(row)):
        a, b = run_bounds(row, p)
        if (a, b) in seen:
            continue
        seen.add((a, b))
        if joins(defs, row[b].card, card) or joins(defs, card, row[a].card):
            out.append((a, b))
    return out


def group_has_work(ctx: Ctx, row, a: int, b: int) -> bool:
    return any(row[i].up and ctx.defs[row[i].card].action for i in range(a, b + 1))


def action_value(ctx: Ctx, cid: int, pops: int) -> float:
    cdef = ctx.defs[cid]
    return effects_value(ctx, cdef.action, pops=pops)


def _closes_at_upkeep(ctx: Ctx, cdef, wealth_after: int) -> bool:
    """A new Public Works card whose token is in the excess and cannot be funded."""
    if "public_works" not in cdef.kinds:
        return False
    player, neutral = ctx.tax
    tax = sum(player) + neutral
    pw = len(ctx.s.pw_track)
    if pw + 1 <= tax:
        return False
    fund = ctx.mult * ctx.g.cfg.fund_cost_per_multiplier
    return wealth_after < fund


def market_card_value(ctx: Ctx, cid: int, rebuild: bool = False,
                      wealth_after: int | None = None) -> float:
    """VP equivalent of getting this Market card now (price not included).

    ``wealth_after``: the seat's dollars once the card is paid (a Public Works card
    that cannot be funded at this round's Upkeep is closed: only its instant effects
    count)."""
    cdef = ctx.defs[cid]
    seat = ctx.seat
    s = ctx.s
    row = s.tableau[seat]
    rl = ctx.rounds_left
    v = 0.0
    if (wealth_after is not None and ctx.p["pw_close_risk"]
            and _closes_at_upkeep(ctx, cdef, wealth_after)):
        if rebuild:
            return -1.0
        return effects_value(ctx, [e for e in cdef.instant if e.type != "public_works"])
    if not rebuild:
        v += effects_value(ctx, cdef.instant, instant=True)
    elif "public_works" in cdef.kinds:
        v -= _pw_burden(ctx)
    # Action over the rounds left: free inside a Community, else worth an Action.
    if cdef.action:
        per = action_value(ctx, cid, 0)
        free = any(group_has_work(ctx, row, a, b) for a, b in _card_joins(ctx, row, cid))
        turns = rl - 0.5
        if free:
            v += per * turns * 0.9
        else:
            v += max(0.0, per - ctx.p["action_cost"]) * turns * 0.8 + 0.15 * per * turns
    # Room for Population cards (per-pop Actions get better, Patron Legacy).
    if cdef.pop_slots and rl > 1:
        per_pop = sum(e["per_pop"] for e in cdef.action if e.type in ("influence", "wealth"))
        v += min(cdef.pop_slots, 2) * (0.25 + 0.15 * max(0, per_pop) * (rl - 1) * 0.5)
    # Tax tokens.
    if cdef.tax_player:
        v += tax_token_value(ctx, cdef.tax_player, bool(cdef.vice))
    if cdef.tax_neutral:
        player, neutral = ctx.tax
        short = len(s.pw_track) > sum(player) + neutral
        v += cdef.tax_neutral * rl * (0.35 if short else 0.12)
    # Boosts.
    for bst in cdef.boosts:
        v += _boost_value(ctx, bst, cid)
    # End Game VP (face up at the end).
    for e in cdef.end_game:
        if e.type == "vp":
            v += e["n"]
        elif e.type == "vp_dice":
            v += e["dice"] + e["plus"]
        elif e.type == "vp_per_stored_tokens":
            v += 0.5 * rl / e["per"] * 1.5
    # Legacies.
    kinds = cdef.kinds
    metric_of = {"public_works": "public_works_cards", "personality": "personality_cards",
                 "commerce": "commerce_cards"}
    from singapore_env.engine.query import legacy_metric
    for kind, metric in metric_of.items():
        if kind in kinds and ctx.legacy_of(metric):
            v += 0.9 * ctx.legacy_step(metric, legacy_metric(ctx.g, seat, metric), 1)
    if "slavery" in kinds and ctx.legacy_of("dependent_cards"):
        v += ctx.legacy_step("dependent_cards", legacy_metric(ctx.g, seat, "dependent_cards"), 1)
    if cdef.vice and not rebuild:
        v -= 0.3  # a target for the others' Decrees
    return v


def _boost_value(ctx: Ctx, b, cid: int) -> float:
    rl = ctx.rounds_left
    t = b.type
    if t == "price_discount":
        scope = {"all": 1.0, "dual_price": 0.5, "public_works": 0.4}[b["applies"]]
        if b["when"] != "always":
            scope *= 0.5
        return b["n"] * scope * ctx.mv * rl * 0.8
    if t == "raid_bonus":
        return 0.3 * b["n"] * rl * ctx.mv
    if t == "decree_discount":
        return 0.6 * b["n"] * ctx.tv * min(3, rl)
    if t == "counter_bonus":
        return b["n"] * min(1.0, ctx.conflicts_left) * 0.8
    if t == "war_bonus":
        return 0.4 * b["n"]
    if t == "discard_for_war":
        return 0.1
    if t == "upkeep_ignore":
        return 0.3 * b["n"] * rl * ctx.mult * ctx.mv
    if t == "population_watch":
        return 0.0  # valued as End Game VP
    if t == "store_influence":
        return 0.2
    if t == "search":
        return 0.8 if rl > 2 else 0.0
    if t == "veto_decree":
        return 0.3
    if t == "tax_if_public_works_connected":
        return 0.1 * rl
    if t == "reroll":
        return 0.3
    if t == "ships_on_reveal":
        return ctx.p["ship_value"] * b["n"]
    if t == "raid_hinder":
        return 0.2
    return 0.0


# ======================================================================== battle cards
def battle_card_value(ctx: Ctx, cid: int, held: int | None = None) -> float:
    """Value of holding one more Battle card (Conflicts, Wars, Legacy, reveal boost)."""
    cdef = ctx.defs[cid]
    held = ctx.battle_cards_held() if held is None else held
    s = cdef.strength
    star_ok = 0.65 if cdef.star else 1.0
    use = max(0.0, min(1.0, ctx.conflicts_left - held))
    v = use * star_ok * (2.0 + 0.6 * s) + (1 - use) * 0.25 * s * star_ok
    v += 0.1 * s  # War deterrence / use
    from singapore_env.engine.query import legacy_metric
    if ctx.legacy_of("battle_cards"):
        v += 0.8 * ctx.legacy_step("battle_cards", legacy_metric(ctx.g, ctx.seat, "battle_cards"), 1)
    for bst in cdef.boosts:
        v += 0.5 * _boost_value(ctx, bst, cid)
    return v * ctx.p["battle_scale"]


def expected_battle_value(ctx: Ctx) -> float:
    pool = _draw_pool(ctx)
    if not pool:
        return 0.0
    return sum(battle_card_value(ctx, c) for c in pool) / len(pool)


def _draw_pool(ctx: Ctx) -> list[int]:
    """What the next Battle card drawn may be, as this seat sees it: the unseen cards of
    its faction (deck and the mate's hand), or the discards once the deck is empty."""
    if ctx.s.battle_deck[ctx.fac]:
        return ctx.unseen_pool(ctx.fac)
    return list(ctx.s.battle_discard[ctx.fac])


def expected_best_of_two(ctx: Ctx) -> float:
    pool = _draw_pool(ctx)
    if len(pool) < 2:
        return expected_battle_value(ctx)
    vals = sorted(battle_card_value(ctx, c) for c in pool)
    n = len(vals)
    # E[max of 2 drawn without replacement]: the i-th smallest is the max with prob i/C(n,2)
    return sum(v * i for i, v in enumerate(vals)) / comb(n, 2)


# ======================================================================== population
def _pop_cards_left(ctx: Ctx) -> list[int]:
    return ctx.s.population_deck  # contents are public; the order is never read


def populate_value(ctx: Ctx) -> float:
    defs = ctx.defs
    deck = _pop_cards_left(ctx)
    if not deck:
        return -1.0
    cubes = [sum(e["n"] for e in defs[c].instant if e.type == "population") for c in deck]
    infl = [sum(e["n"] for e in defs[c].instant if e.type == "influence") for c in deck]
    mean_infl = sum(infl) / len(infl) + modifier_total(ctx.g, "populate_influence")
    v = sum(cube_value(ctx, k) for k in cubes) / len(cubes)
    v += mean_infl * token_value(ctx)
    v += best_attach_value(ctx)[0]
    return v


def attach_slot_value(ctx: Ctx, pos: int) -> float:
    slot = ctx.s.tableau[ctx.seat][pos]
    cdef = ctx.defs[slot.card]
    v = 0.0
    n = len(slot.pops)
    gain = action_value(ctx, slot.card, n + 1) - action_value(ctx, slot.card, n)
    v += gain * max(0.0, ctx.rounds_left - 0.5) * 0.8
    for e in cdef.end_game:
        if e.type == "vp_per_pop":
            v += e["n"]
    if "slavery" in cdef.kinds:
        v += ctx.legacy_step("pop_on_dependents", n, 1)
    return v


def best_attach_value(ctx: Ctx):
    from singapore_env.engine.query import legacy_metric, vacant_slots
    slots = vacant_slots(ctx.g, ctx.seat)
    if not slots:
        return 0.0, -1
    best = max(slots, key=lambda i: attach_slot_value(ctx, i))
    v = attach_slot_value(ctx, best)
    v += ctx.legacy_step("population_cards",
                         legacy_metric(ctx.g, ctx.seat, "population_cards"), 1)
    return v, best


# ======================================================================== war
DIE = (0, 0, 1, 1, 2, 2)


def _dice_dist(n: int) -> dict[int, float]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for f in DIE:
                nxt[v + f] = nxt.get(v + f, 0.0) + p / 6
        dist = nxt
    return dist


_DIFF_CACHE: dict[int, dict[int, float]] = {}


def _roll_diff(n: int) -> dict[int, float]:
    if n not in _DIFF_CACHE:
        a = _dice_dist(n)
        out: dict[int, float] = {}
        for x, p in a.items():
            for y, q in a.items():
                out[x - y] = out.get(x - y, 0.0) + p * q
        _DIFF_CACHE[n] = out
    return _DIFF_CACHE[n]


def expected_max_strength(strengths: list[int], k: int) -> float:
    """E[max strength of k cards drawn without replacement from ``strengths``]."""
    n = len(strengths)
    if k <= 0 or n == 0:
        return 0.0
    k = min(k, n)
    vals = sorted(strengths)
    total = comb(n, k)
    # the i-th smallest (0-based) is the max of the draw with prob C(i, k-1)/C(n, k)
    return sum(v * comb(i, k - 1) for i, v in enumerate(vals)) / total


def seat_visible_strength(ctx: Ctx, p: int, star_ok: bool) -> float:
    """Expected War strength of seat ``p`` from what ``ctx.seat`` sees."""
    s, defs = ctx.s, ctx.defs
    revealed = [defs[c].strength for c in s.revealed[p] if star_ok or not defs[c].star]
    pool = [defs[c].strength if (star_ok or not defs[c].star) else 0
            for c in ctx.unseen_pool(SEAT_FACTION[p])]
    hand = expected_max_strength(pool, len(s.hands[p])) if s.hands[p] else 0.0
    best = max([hand] + revealed)
    bonus = boost_total(ctx.g, p, "war_bonus")
    bonus += sum(1 for slot in s.tableau[p]
                 if slot.up and defs[slot.card].boost("discard_for_war")) * 0.3
    return best + bonus


def war_option_value(ctx: Ctx, defender: int) -> float:
    g, s, defs = ctx.g, ctx.s, ctx.defs
    me = ctx.seat
    star_ok = star_allowed_in_war(g)
    mine = [(defs[c].strength, c) for c in s.hands[me] + s.revealed[me]
            if star_ok or not defs[c].star]
    if not mine:
        return -99.0
    strength, card = max(mine)
    own = strength + boost_total(g, me, "war_bonus")
    opp = seat_visible_strength(ctx, defender, star_ok)
    mate = defender ^ 1
    opp += 0.4 * seat_visible_strength(ctx, mate, star_ok) \
        if mate != me and s.hands[mate] else 0.0
    edge = own - opp
    mult = spoils_multiplier(g, me, [defender])  # simulation: the Roles' modifiers
    ev = 0.0
    for d, p in _roll_diff(g.cfg.war_dice).items():
        diff = d + edge
        if diff > 0:
            ev += p * diff * mult
        elif diff < 0:
            ev -= p * (-diff) * mult * ctx.p["opp_vp_weight"]
    cost = war_cost(g, me) * ctx.tv + battle_card_value(ctx, card) * 0.8 + ctx.p["action_cost"]
    return ev - cost - ctx.p["ship_value"] - ctx.p["war_margin"]


# ======================================================================== decrees
def decree_value(ctx: Ctx, vice: int) -> float:
    g, s, defs = ctx.g, ctx.s, ctx.defs
    me = ctx.seat
    name = ctx.c.board.vices[vice]
    outlaw = s.outlawed[vice] < 0
    cost = decree_cost(g, me, vice)
    rl = ctx.rounds_left
    tax_hit = [0] * 4
    for p, row in enumerate(s.tableau):
        for slot in row:
            cdef = defs[slot.card]
            if cdef.vice == name and (slot.up if outlaw else slot.down == "outlawed"):
                tax_hit[p] += cdef.tax_player
    sign = 1 if outlaw else -1
    v = 0.0
    for p in range(4):
        if p == me:
            v -= sign * tax_hit[p] * 1.5 * rl
        else:
            w = 0.45 if SEAT_FACTION[p] != ctx.fac else 0.3
            v += sign * tax_hit[p] * 1.5 * rl * w
    if outlaw:
        v += g.cfg.outlaw_vp
        v += ctx.legacy_step("outlawed_vices", s.outlawed.count(me), 1)
        # denies the card to buyers in the Market (a vice card is a strong buy)
        if any(c >= 0 and defs[c].vice == name for c in s.market):
            v += 0.5
    else:
        v -= 1.0  # legalizing: only worth it for our own tax
    return v - cost * ctx.tv


def decree_value_for_me(ctx: Ctx, vice: int, decreer: int) -> float:
    """How a Decree by another seat changes this seat's prospects (negative = hurts)."""
    s, defs = ctx.s, ctx.defs
    name = ctx.c.board.vices[vice]
    outlaw = s.outlawed[vice] < 0
    mine = sum(defs[slot.card].tax_player for slot in s.tableau[ctx.seat]
               if defs[slot.card].vice == name and (slot.up if outlaw else
                                                    slot.down == "outlawed"))
    v = (-1 if outlaw else 1) * mine * 1.5 * ctx.rounds_left
    if outlaw:
        v -= ctx.p["opp_vp_weight"] * 2 if SEAT_FACTION[decreer] != ctx.fac else 0.6
    return v


def groups_with_work(ctx: Ctx, row) -> int:
    return sum(1 for a, b in activation_groups(row) if group_has_work(ctx, row, a, b))


def own_boosts(ctx: Ctx, kind: str):
    from singapore_env.engine.query import active_boosts, revealed_boosts
    yield from active_boosts(ctx.g, ctx.seat, kind)
    yield from revealed_boosts(ctx.g, ctx.seat, kind)
