"""The heuristic player's rules for the first-edition Raid and War (ruleset
``first-edition``), called from :class:`agents.heuristic.HeuristicAgent`.

* **Raid**: 2D4 dollars (+ Raid boosts) against one ship lost;
* **Intervene** when the best committable card (with its identical copies) is likely to
  match the Raid roll and the 2 Influence are worth more than the cards spent;
* **War** when the expected plunder (strength edge + D4 difference, attacker winning
  ties, times the multiplier) beats the cards, tokens and Actions it costs; the
  defender's strength is estimated from what this seat sees (revealed cards, War
  boosts, hand size and its faction's unseen pool);
* **commit** the strongest group of identical cards as attacker, defender or
  Interventionist; as a faction mate only a cheap card of strength 3 or more;
* **tokens**: withdraw up to :data:`MAX_TOKENS` while a token is worth less than the
  strength it adds (multiplier x a dollar of plunder);
* **plunder**: take a Market card when it is worth more to this seat than the VP it
  replaces; never donate.

Re-rolls (Giant Kusu) are the standard ``reroll`` question, answered by
:func:`agents.heuristic.choices.reroll_choice` (it knows the D4's top face).

Like the rest of the agent it reads only what its seat may see.
"""

from __future__ import annotations

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import (boost_total, commit_options, committed_card,
                                        modifier_total, star_allowed_in_war, steal_price, war_cost)

from .context import PASS, YES, Ctx
from .influence import token_value
from .values import seat_visible_strength, battle_card_value, market_card_value

ONE_MORE = Decision(Kind.ADD_MONEY)
MAX_TOKENS = 4
PLUNDER_RATE = 0.8  # VP equivalent of one dollar of plunder (dollars or VP)


def _d4_sum_dist(n: int) -> dict[int, float]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for face in range(1, 5):
                nxt[v + face] = nxt.get(v + face, 0.0) + p / 4
        dist = nxt
    return dist


def _frame(ctx: Ctx, kind: str):
    return next(x for x in reversed(ctx.s.stack) if x.kind == kind)


def _groups(ctx: Ctx, seat: int, star_ok: bool) -> list[tuple[int, int, Decision]]:
    """(strength of a card with all its committable identical copies, number of those
    copies, COMMIT of the card) for every committable card."""
    g, defs = ctx.g, ctx.defs
    opts = commit_options(g, seat, star_ok)
    keys = [defs[committed_card(g, seat, d.arg)].key for d in opts]
    return [(defs[committed_card(g, seat, d.arg)].strength * keys.count(k), keys.count(k), d)
            for d, k in zip(opts, keys)]


# ------------------------------------------------------------------ action scores
def score_action(ctx: Ctx, d: Decision) -> float:
    """VP-equivalent score of the first-edition RAID or WAR action."""
    g = ctx.g
    if d.kind == Kind.RAID:
        bonus = boost_total(g, ctx.seat, "raid_bonus") + modifier_total(g, "raid_bonus")
        mean = 2.5 * g.cfg.fe_raid_d4 + bonus
        return (max(0.0, mean) * ctx.mv - g.cfg.fe_raid_ships_lost * ctx.p["ship_value"] * 2
                - ctx.p["action_cost"])
    return war_value(ctx, d.arg) - 2 * ctx.p["action_cost"]


def war_value(ctx: Ctx, defender: int) -> float:
    g, s = ctx.g, ctx.s
    star_ok = star_allowed_in_war(g)
    groups = _groups(ctx, ctx.seat, star_ok)
    if not groups:
        return -99.0
    strength, _, d = max(groups, key=lambda x: x[0])
    card = committed_card(g, ctx.seat, d.arg)
    tokens = min(MAX_TOKENS, s.storehouse[ctx.fac])
    opp_tokens = min(MAX_TOKENS, s.storehouse[1 - ctx.fac])
    rate = g.cfg.fe_storehouse_strength
    edge = (strength + boost_total(g, ctx.seat, "war_bonus") + tokens * rate
            - seat_visible_strength(ctx, defender, star_ok) - opp_tokens * rate)
    mate = defender ^ 1
    if s.hands[mate]:
        edge -= 0.4 * seat_visible_strength(ctx, mate, star_ok)
    dist = _d4_sum_dist(g.cfg.fe_war_d4)
    ev = 0.0
    for a, pa in dist.items():
        for b, pb in dist.items():
            ev += pa * pb * (edge + a - b) * ctx.mult * PLUNDER_RATE
    cost = (battle_card_value(ctx, card) * 0.8 + (tokens + war_cost(g, ctx.seat)) * ctx.tv
            + g.cfg.fe_war_ships_lost * ctx.p["ship_value"])
    return ev - cost - ctx.p["war_margin"]


# ------------------------------------------------------------------ questions
def q_intervene(ctx: Ctx, f, legal):
    raid = _frame(ctx, "raid_fe")
    strength, copies, d = max(_groups(ctx, ctx.seat, True), key=lambda x: x[0])
    bonus = boost_total(ctx.g, raid.seat, "raid_bonus") + modifier_total(ctx.g, "raid_bonus")
    p_win = sum(p for x, p in _d4_sum_dist(ctx.g.cfg.fe_raid_d4).items()
                if x + bonus <= strength)
    gain = p_win * ctx.g.cfg.fe_intervene_influence * token_value(ctx)
    card = committed_card(ctx.g, ctx.seat, d.arg)
    cost = battle_card_value(ctx, card) * ctx.p["keep_card"] * copies
    return YES if gain > cost else PASS


def q_hinder(ctx: Ctx, f, legal):
    raid = _frame(ctx, "raid_fe")
    return YES if SEAT_FACTION[raid.seat] != ctx.fac else PASS


def q_commit(ctx: Ctx, f, legal):
    commits = [d for d in legal if d.kind == Kind.COMMIT]
    if not commits:
        return PASS
    parent = _frame(ctx, f.d.parent)
    leading = f.d.must or parent.kind == "raid_fe"  # not a faction mate's help
    if parent.d.commits[ctx.seat]:  # identical copies of the first card
        return commits[0] if leading else PASS
    if leading:
        groups = [x for x in _groups(ctx, ctx.seat, True) if x[2] in commits]
        return max(groups, key=lambda x: x[0])[2]
    card = lambda d: committed_card(ctx.g, ctx.seat, d.arg)  # noqa: E731
    d = min(commits, key=lambda d: battle_card_value(ctx, card(d)))
    return d if ctx.defs[card(d)].strength >= 3 else PASS


def q_tokens(ctx: Ctx, f, legal):
    war = _frame(ctx, "war_fe")
    worth = ctx.mult * PLUNDER_RATE * ctx.g.cfg.fe_storehouse_strength * 0.6
    if war.d.tokens[f.d.side] < MAX_TOKENS and ctx.tv < worth:
        return ONE_MORE
    return PASS


def q_plunder(ctx: Ctx, f, legal):
    loser = _frame(ctx, "war_fe").d.loser
    row = ctx.s.tableau[loser]
    best, best_v = PASS, 0.0
    for d in legal:
        if d.kind != Kind.DISCARD_CARD:
            continue
        card = row[d.arg].card
        v = (market_card_value(ctx, card, rebuild=True) * (1 + ctx.p["opp_vp_weight"])
             - steal_price(ctx.g, ctx.seat, card))
        if v > best_v:
            best, best_v = d, v
    return best


#: Question handlers by frame kind: ``fn(ctx, frame, legal) -> Decision``.
QUESTIONS = {
    "fe_intervene": q_intervene,
    "fe_hinder": q_hinder,
    "fe_commit": q_commit,
    "fe_tokens": q_tokens,
    "fe_donate": lambda ctx, f, legal: PASS,
    "fe_plunder": q_plunder,
}
