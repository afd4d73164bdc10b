"""A rule-based player for every seat of 1819 Singapore.

``HeuristicAgent`` plays at engine level (``choose(game, seat)``). Every question is
answered by a small rule; the main turn decisions (Leader space, Leader Action, the two
Actions) are chosen by scoring each legal decision in *VP equivalents* and taking the
best one. The exchange rates (a dollar, a Storehouse token, an Influence token, an
Action) depend on the round and on the seat's Legacies.

What it knows of the game:

* **buying**: a Market card is worth its instant effects, its Action over the rounds
  left (for free when it joins a Community, otherwise at the price of an Action), its
  Tax tokens over the Upkeeps left (discounted for the risk of an outlawing Decree),
  its boosts and End Game VP, and the Legacy steps it brings -- minus the price and
  the Public Works upkeep burden it adds;
* **Influence**: a one-ply lookahead of the placement: an exact model of the walk
  (start space, one token per open space, optional Storehouse drops; checked against
  the engine in ``tests/test_agents_heuristic.py``) evaluates every start and every
  number of drops by the VP scored at once plus the value of the tokens left on the
  loop. The placement involves no hidden information and no dice, so the model reads
  the public board only (no clone, hence no :func:`agents.determinize.determinize`
  needed; an agent that simulates on a clone must determinize it first);
* **Population** opens the faction's x2/x3 districts; Communities are built with the
  connections and activated every round;
* **Decrees** outlaw the vices the others own (+2 VP, Reformer Legacy); **War** only
  when the expected spoils beat its cost, against the defender's visible strength
  (revealed cards, War boosts, hand size and the unseen pool of its faction);
* **Conflicts**: a Battle card (and then dollars, 1 VP each) is contributed when that
  pays, Battle cards are bought while Conflict Events may still come;
* **Upkeep**: fund when affordable, else close the least useful Public Works.

It only reads what its seat may see: the public board, its own hand, the sizes of the
other hands and the *contents* (never the order) of the decks and of the unseen Battle
cards, which follow from what is public (``tests/test_agents_heuristic.py`` checks that
every decision is the same in determinized worlds). Ties are broken with the agent's
own RNG, so a fixed seed gives a fixed game. The exchange rates are in
:data:`DEFAULT_PARAMS` (tuned by self-play A/B matches).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.content import SEAT_FACTION
from singapore_env.decisions import Decision, Kind
from singapore_env.rules.base import (boost_total, district_open, modifier_total, multiplier,
                                      star_allowed_in_war)
from singapore_env.rules.decree import decree_cost
from singapore_env.rules.market import market_price
from singapore_env.rules.roles import (lone_leader, may_access, scores_everywhere,
                                       spoils_multiplier, storehouse_of)
from singapore_env.rules.tableau import activation_groups, joins, run_bounds
from singapore_env.rules.upkeep import tax_totals
from singapore_env.rules.war import war_cost

from . import heuristic_simulation as sim
from .base import Agent
from .heuristic_choices import boom_choice, reroll_choice, spend_counter_boost

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine import Game

PASS = Decision(Kind.PASS, 0)
YES = Decision(Kind.YES, 0)
N_LOOP = 8
LAST_ROUND = 8

#: The questions :meth:`HeuristicAgent.option_scores` scores.
SCORED_QUESTIONS = ("place_leader", "leader_action", "actions", "influence")

#: The tunable numbers (VP equivalents); ``HeuristicAgent(params={...})`` overrides them.
DEFAULT_PARAMS = {
    "action_cost": 1.0,      # value of an Action spent on something else
    "opp_vp_weight": 0.5,    # how much a VP of an opposing-faction seat hurts
    "vice_survival": 0.75,   # chance a vice card is not outlawed before the end
    "ship_value": 0.2,       # one more ship in the Port (income for everyone)
    "pw_close_risk": True,   # a Public Works card that cannot be funded is worth its instant
    "money_scale": 0.8,      # scales the value of a dollar
    "token_scale": 0.5,      # scales the value of a Storehouse token
    "battle_scale": 1.4,     # scales the value of a Battle card
    "war_margin": 0.0,       # extra expected VP a War must promise
    "keep_card": 0.6,        # share of a Battle card's value lost by spending it now
}


# ======================================================================== context
class Ctx:
    """Per-decision view of the game from one seat, with cached values."""

    def __init__(self, g: "Game", seat: int, params: dict | None = None):
        self.p = params if params is not None else DEFAULT_PARAMS
        self.g, self.seat = g, seat
        self.s, self.c, self.defs = g.s, g.c, g.c.defs
        self.fac = SEAT_FACTION[seat]
        self.store_fac = storehouse_of(g, seat)  # the Storehouse it uses (-1: none)
        self.scores_all = scores_everywhere(g, seat)  # simulation: a Colonial Ally
        # simulation: the only Resistance Leader places extra tokens in its Storehouse
        self.drop_extra = g.cfg.lone_leader_extra_tokens if lone_leader(g, seat) else 0
        self.round = max(1, g.s.round)
        self.rounds_left = LAST_ROUND + 1 - self.round  # upkeeps / activations left
        self.mult = multiplier(g)
        self._iv = None
        self._tax = None
        self._conflicts = None
        self.mv = self._money_value() * self.p["money_scale"]
        self.tv = self._token_value() * self.p["token_scale"]

    # ------------------------------------------------------------ exchange rates
    def _money_value(self) -> float:
        r = self.round
        mv = 0.55 if r <= 5 else 0.5 if r == 6 else 0.42 if r == 7 else 0.25
        # The Sultan's "Prosperous" Legacy pays for money kept at the end.
        if self.round >= 6:
            step = self.legacy_step("wealth", self.s.wealth[self.seat], 1)
            mv = max(mv, min(1.0, step))
        return mv

    def _token_value(self) -> float:
        s = self.s
        tv = 0.45
        if self.legacy_of("outlawed_vices") and self.round <= LAST_ROUND:
            done = s.outlawed.count(self.seat)
            legal_vices = sum(1 for v in s.outlawed if v < 0)
            if done < 3 and legal_vices:
                tv = 0.9
        if self.round == LAST_ROUND:
            tv *= 0.5
        return tv

    @property
    def iv(self) -> float:
        """Value of one Influence token placed now (from the placement model)."""
        if self._iv is None:
            base = influence_plan(self, 0)[0]
            best = influence_plan(self, 3)[0]
            self._iv = max(0.15, (best - base) / 3)
        return self._iv

    @property
    def tax(self):
        if self._tax is None:
            self._tax = tax_totals(self.g)
        return self._tax

    # ------------------------------------------------------------ legacies
    def legacy_of(self, metric: str):
        for leg in self.defs[self.c.leader_ids[self.seat]].legacies:
            if leg.metric == metric:
                return leg
        return None

    def legacy_step(self, metric: str, value: int, delta: int) -> float:
        """Smoothed VP of raising a Legacy metric from ``value`` by ``delta``."""
        leg = self.legacy_of(metric)
        if leg is None or delta == 0:
            return 0.0
        if leg.per:
            return float(leg.per * delta)
        cur = max([vp for t, vp in leg.bands if value >= t], default=0)
        new = max([vp for t, vp in leg.bands if value + delta >= t], default=0)
        if new > cur:
            return float(new - cur)
        nxt = [(t, vp) for t, vp in leg.bands if t > value + delta]
        if not nxt:
            return 0.0
        t, vp = min(nxt)
        # part of the next step, discounted: it may never be reached
        return 0.7 * (vp - cur) * delta / (t - value)

    # ------------------------------------------------------------ conflicts
    @property
    def conflicts_left(self) -> float:
        """Expected Conflict Events still to be revealed, from the Event cards not seen
        yet (which cards are in the deck is hidden; how many of each deck is not)."""
        if self._conflicts is None:
            s, c, cfg = self.s, self.c, self.g.cfg
            seen = set(s.event_discard) | {s.current_event}
            seen_i = sum(1 for e in seen if e in c.event_ids["I"])
            n_i = max(0, min(len(s.event_deck), cfg.event_i_cards - seen_i))
            n_ii = len(s.event_deck) - n_i
            total = 0.0
            for deck, n in (("I", n_i), ("II", n_ii)):
                unseen = [e for e in c.event_ids[deck] if e not in seen]
                if unseen and n:
                    conf = sum(1 for e in unseen
                               if any(x.type == "conflict" for x in self.defs[e].instant))
                    total += n * conf / len(unseen)
            self._conflicts = total
        return self._conflicts

    def battle_cards_held(self) -> int:
        return len(self.s.hands[self.seat]) + len(self.s.revealed[self.seat])

    # ------------------------------------------------------------ misc
    def unseen_pool(self, fac: int) -> list[int]:
        """Battle cards of ``fac`` this seat cannot see: the deck, the other players'
        hands and their face-down cards in pending frames (used as a multiset only)."""
        s = self.s
        pool = list(s.battle_deck[fac])
        for p in range(4):
            if p != self.seat and SEAT_FACTION[p] == fac:
                pool += s.hands[p]
        for f in s.stack:
            if f.kind == "keep_battle" and f.seat != self.seat and SEAT_FACTION[f.seat] == fac:
                pool += [c for c in f.d["cards"] if c >= 0]
            elif f.kind == "war" and f.d["phase"] < 6:
                pool += [c for p, c in enumerate(f.d["commits"])
                         if c >= 0 and p != self.seat and SEAT_FACTION[p] == fac]
        return pool


# ======================================================================== influence model
def _district_value(ctx: Ctx, space: int, tokens: list[int]) -> float:
    """Value for ``ctx.seat`` of one district holding ``tokens`` (per seat) once the
    placement ends: scored now if it reaches the threshold, else potential."""
    b = ctx.c.board
    fac = b.loop_faction[space]
    mult = b.loop_multiplier[space]
    me = ctx.seat
    if sum(tokens) >= ctx.g.cfg.district_threshold:
        v = ctx.p["ship_value"] if b.loop_ship[space] else 0.0
        if fac == ctx.fac or ctx.scores_all:
            return v + mult * tokens[me]
        return v - ctx.p["opp_vp_weight"] * mult * sum(tokens[p] for p in range(4)
                                              if SEAT_FACTION[p] == fac)
    if fac == ctx.fac or ctx.scores_all:
        rl = ctx.rounds_left
        pf = 0.8 if rl >= 3 else 0.6 if rl == 2 else 0.3
        return tokens[me] * mult * pf
    return -0.15 * tokens[me] * mult


def influence_plan(ctx: Ctx, n: int, pos: int = -1, asking: bool = False,
                   detail: bool = False, options: bool = False):
    """Best placement of ``n`` tokens: ``(value, decision)``.

    ``pos = -1``: choose the start (decision INFLUENCE_START). ``asking``: the walk is
    at Storehouse ``pos`` and asks whether to drop (decision YES / PASS). The value is
    the board value after the placement and the scoring (see :func:`_district_value`)
    plus the Storehouse drops.

    The walk is modelled exactly: from the start, every open district passed takes a
    token and every Storehouse passed may take one. Whatever the order of the drops, the
    outcome only depends on the number ``d`` of district tokens (they go to the first
    ``d`` districts of the walk) and on the number of drops on each Storehouse, which
    must be passed before the walk's ``d+1``-th district. So every start is evaluated
    for every ``d`` in one pass, with drops on the own Storehouse first.

    With ``detail``, a third item gives the predicted outcome of the chosen plan:
    ``{"districts": [...], "storehouse": [...]}`` (the board after the scoring).
    With ``options``, the value of every answer instead: ``[(value, decision), ...]``
    (every start; asking: dropping here, and walking on with every token).
    """
    g, s, b = ctx.g, ctx.s, ctx.c.board
    me = ctx.seat
    open_ = [b.loop_kind[sp] == "district" and district_open(g, sp) for sp in range(N_LOOP)]
    cur = {sp: list(s.districts[sp * 4: sp * 4 + 4]) for sp in range(N_LOOP) if open_[sp]}
    base_vals = {sp: _district_value(ctx, sp, t) for sp, t in cur.items()}
    base_total = sum(base_vals.values())
    own_drop = ctx.tv
    opp_drop = -0.25

    def evaluate(pre_token: int, after: int, n_left: int, pass_at: int):
        """Best (value, (d, own drops, opp drops), walk districts): a token already on
        district ``pre_token`` (or -1), then ``n_left`` tokens along the spaces after
        ``after``; ``pass_at``: the walk stands on that Storehouse and may drop there."""
        dists = []
        avail = []  # (own, opp) Storehouse passes before the (d+1)-th district visit
        own = opp = 0
        if pass_at >= 0:
            if b.loop_faction[pass_at] == ctx.store_fac:
                own += 1
            else:
                opp += 1
        p = after
        while len(avail) <= n_left:
            p = (p + 1) % N_LOOP
            if b.loop_kind[p] == "storehouse":
                if not may_access(g, me, b.loop_faction[p]):
                    continue
                if b.loop_faction[p] == ctx.store_fac:
                    own += 1
                else:
                    opp += 1
            elif open_[p]:
                avail.append((own, opp))
                dists.append(p)
        counts = {sp: list(t) for sp, t in cur.items()}
        vals = dict(base_vals)
        total = base_total
        if pre_token >= 0:
            counts[pre_token][me] += 1
            nv = _district_value(ctx, pre_token, counts[pre_token])
            total += nv - vals[pre_token]
            vals[pre_token] = nv
        best, plan = -1e9, (0, 0, 0)
        for d in range(n_left + 1):
            if d > 0:
                sp = dists[d - 1]
                counts[sp][me] += 1
                nv = _district_value(ctx, sp, counts[sp])
                total += nv - vals[sp]
                vals[sp] = nv
            drops = n_left - d
            ao, ap = avail[d]
            ko = min(drops, ao)
            kp = drops - ko
            if kp > ap:
                continue
            v = total + ko * own_drop + kp * opp_drop
            if v > best + 1e-9:
                best, plan = v, (d, ko, kp)
        return best, plan, dists

    def outcome(pre_token, plan, dists, drop_on):
        d, ko, kp = plan
        dist = list(s.districts)
        store = list(s.storehouse)
        for sp in ([pre_token] if pre_token >= 0 else []) + dists[:d]:
            dist[sp * 4 + me] += 1
        store[ctx.store_fac if ko else 0] += ko * (1 + ctx.drop_extra)
        store[1 - ctx.store_fac if kp else 0] += kp
        if drop_on >= 0:
            own = b.loop_faction[drop_on] == ctx.store_fac
            store[b.loop_faction[drop_on]] += 1 + (ctx.drop_extra if own else 0)
        for sp in range(N_LOOP):
            if open_[sp] and sum(dist[sp * 4: sp * 4 + 4]) >= g.cfg.district_threshold:
                dist[sp * 4: sp * 4 + 4] = [0, 0, 0, 0]
        return {"districts": dist, "storehouse": store}

    if n <= 0:
        return (base_total, PASS, outcome(-1, (0, 0, 0), [], -1)) if detail \
            else (base_total, PASS)
    if asking and options:
        mine = b.loop_faction[pos] == ctx.store_fac
        drop = (own_drop if mine else opp_drop) + evaluate(-1, pos, n - 1, -1)[0]
        return [(evaluate(-1, pos, n, -1)[0], PASS), (drop, YES)]
    if asking:
        value, plan, dists = evaluate(-1, pos, n, pos)
        mine = b.loop_faction[pos] == ctx.store_fac
        d = YES if (plan[1] if mine else plan[2]) > 0 else PASS
        return (value, d, outcome(-1, plan, dists, -1)) if detail else (value, d)
    best, best_d, best_args = -1e9, None, None
    scored = []
    for sp in range(N_LOOP):
        if b.loop_kind[sp] == "storehouse":
            if not may_access(g, me, b.loop_faction[sp]):
                continue
            forced = own_drop if b.loop_faction[sp] == ctx.store_fac else opp_drop
            v, plan, dists = evaluate(-1, sp, n - 1, -1)
            v += forced
            args = (-1, plan, dists, sp)
        elif open_[sp]:
            v, plan, dists = evaluate(sp, sp, n - 1, -1)
            args = (sp, plan, dists, -1)
        else:
            continue
        scored.append((v, Decision(Kind.INFLUENCE_START, sp)))
        if v > best + 1e-9:
            best, best_d, best_args = v, Decision(Kind.INFLUENCE_START, sp), args
    if options:
        return scored
    if detail:
        return best, best_d, outcome(*best_args)
    return best, best_d


def _store_scores(ctx: Ctx, n: int, legal) -> list[tuple[float, Decision]]:
    """Storing ``k`` of ``n`` Influence tokens: the placement of the rest plus the
    stored tokens' value (a little less than placed ones)."""
    return [(influence_plan(ctx, n - d.arg)[0] + d.arg * ctx.iv * 0.9 - 0.01 * d.arg, d)
            for d in legal]


def influence_scores(ctx: Ctx, f, legal) -> list[tuple[float, Decision]]:
    """The value of every answer to an Influence placement question."""
    n = f.d["n"]
    kinds = {d.kind for d in legal}
    if Kind.STORE in kinds:
        return _store_scores(ctx, n, legal)
    if Kind.INFLUENCE_START in kinds:
        return influence_plan(ctx, n, options=True)
    return influence_plan(ctx, n, pos=f.d["pos"], asking=True, options=True)


def influence_value(ctx: Ctx, n: int) -> float:
    """Gain of placing ``n`` tokens now (relative to placing none)."""
    if n <= 0:
        return 0.0
    return influence_plan(ctx, n)[0] - influence_plan(ctx, 0)[0]


# ======================================================================== card values
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


def _effects_value(ctx: Ctx, effects, pops: int = 0, instant: bool = False) -> float:
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
    return v + infl * ctx.iv


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


def _group_has_work(ctx: Ctx, row, a: int, b: int) -> bool:
    return any(row[i].up and ctx.defs[row[i].card].action for i in range(a, b + 1))


def action_value(ctx: Ctx, cid: int, pops: int) -> float:
    cdef = ctx.defs[cid]
    return _effects_value(ctx, cdef.action, pops=pops)


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
        return _effects_value(ctx, [e for e in cdef.instant if e.type != "public_works"])
    if not rebuild:
        v += _effects_value(ctx, cdef.instant, instant=True)
    elif "public_works" in cdef.kinds:
        v -= _pw_burden(ctx)
    # Action over the rounds left: free inside a Community, else worth an Action.
    if cdef.action:
        per = action_value(ctx, cid, 0)
        free = any(_group_has_work(ctx, row, a, b) for a, b in _card_joins(ctx, row, cid))
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
    from singapore_env.rules.scoring import legacy_metric
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
    from singapore_env.rules.scoring import legacy_metric
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
    v += mean_infl * ctx.iv
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
    from singapore_env.rules.population import vacant_slots
    from singapore_env.rules.scoring import legacy_metric
    slots = vacant_slots(ctx.g, ctx.seat)
    if not slots:
        return 0.0, -1
    best = max(slots, key=lambda i: attach_slot_value(ctx, i))
    v = attach_slot_value(ctx, best)
    v += ctx.legacy_step("population_cards",
                         legacy_metric(ctx.g, ctx.seat, "population_cards"), 1)
    return v, best


# ======================================================================== war
_DIE = (0, 0, 1, 1, 2, 2)


def _dice_dist(n: int) -> dict[int, float]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for v, p in dist.items():
            for f in _DIE:
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


def _seat_visible_strength(ctx: Ctx, p: int, star_ok: bool) -> float:
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
    opp = _seat_visible_strength(ctx, defender, star_ok)
    mate = defender ^ 1
    opp += 0.4 * _seat_visible_strength(ctx, mate, star_ok) \
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


# ======================================================================== the agent
class HeuristicAgent(Agent):
    """Rule-based player (engine level)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, params: dict | None = None):
        self.rng = np.random.default_rng(seed)
        unknown = set(params or {}) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"unknown heuristic params {sorted(unknown)}")
        self.params = {**DEFAULT_PARAMS, **(params or {})}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    # ------------------------------------------------------------ entry point
    def choose(self, game: "Game", seat: int) -> Decision:
        legal = game.legal_decisions()
        if not legal:
            raise ValueError("no legal decision (is the game over?)")
        if len(legal) == 1:
            return legal[0]
        f = game.pending
        handler = (getattr(self, "_q_" + f.kind, None) or sim.QUESTIONS.get(f.kind)
                   or first_edition.QUESTIONS.get(f.kind))
        choice = None
        if handler is not None:
            ctx = Ctx(game, seat, self.params)
            choice = handler(ctx, f, legal)
        if choice is None or choice not in legal:
            choice = PASS if PASS in legal else legal[0]
        return choice

    def _best(self, scored: list[tuple[float, Decision]]) -> Decision:
        """Highest score; ties broken by the agent's RNG."""
        top = max(v for v, _ in scored)
        best = [d for v, d in scored if v >= top - 1e-9]
        if len(best) == 1:
            return best[0]
        return best[int(self.rng.integers(len(best)))]

    # ------------------------------------------------------------ option scores
    def _score(self, ctx: Ctx, d: Decision, leader: bool = False) -> float:
        g, s = ctx.g, ctx.s
        k = d.kind
        if k == Kind.PASS:
            return 0.0
        if g.cfg.ruleset == "first-edition" and k in (Kind.RAID, Kind.WAR):
            return first_edition.score_action(ctx, d)
        if k == Kind.BUY_MARKET:
            cid = s.market[d.arg]
            price = market_price(g, ctx.seat, cid)[0]
            return (market_card_value(ctx, cid, wealth_after=s.wealth[ctx.seat] - price)
                    - price * ctx.mv - (0 if leader else ctx.p["action_cost"]))
        if k == Kind.SEARCH:
            from singapore_env.rules.market import _search_candidates
            slot = s.tableau[ctx.seat][d.arg]
            cands = _search_candidates(g, ctx.seat, slot)
            if not cands:
                return -1.0
            w = s.wealth[ctx.seat]
            return max(market_card_value(ctx, c, wealth_after=w - market_price(g, ctx.seat, c)[0])
                       - market_price(g, ctx.seat, c)[0] * ctx.mv for c in cands) - ctx.p["action_cost"]
        if k == Kind.BUY_BATTLE:
            if d.arg == 0:
                v = expected_battle_value(ctx)
            else:
                v = expected_best_of_two(ctx) - g.cfg.battle_draw_two_tokens * ctx.tv
            return v - g.cfg.battle_card_price * ctx.mv - (0 if leader else ctx.p["action_cost"])
        if k == Kind.POPULATE:
            return populate_value(ctx) - (0 if leader else ctx.p["action_cost"])
        if k == Kind.ACTIVATE:
            return self._activate_value(ctx, d.arg) - ctx.p["action_cost"]
        if k == Kind.RAID:
            bonus = boost_total(g, ctx.seat, "raid_bonus") + modifier_total(g, "raid_bonus")
            dollars = sum(max(0, f + bonus) for f in _DIE) / 6
            p_ship = sum(1 for f in _DIE if f + bonus >= g.cfg.raid_ship_threshold) / 6
            return dollars * ctx.mv - p_ship * ctx.p["ship_value"] * 2 - ctx.p["action_cost"]
        if k == Kind.DECREE:
            return decree_value(ctx, d.arg) - ctx.p["action_cost"]
        if k == Kind.WAR:
            return war_option_value(ctx, d.arg) - ctx.p["action_cost"]
        if k == Kind.LEADER_MONEY:
            return g.cfg.leader_money * ctx.mv
        if k == Kind.LEADER_STOREHOUSE:
            return g.cfg.leader_storehouse_tokens * ctx.tv
        if k == Kind.INSPIRE:
            return sim.inspire_value(ctx, _effects_value)
        return -5.0

    def _activate_value(self, ctx: Ctx, first: int) -> float:
        row = ctx.s.tableau[ctx.seat]
        groups = {a: b for a, b in activation_groups(row)}
        b = groups.get(first, first)
        v, infl = 0.0, 0
        for slot in row[first:b + 1]:
            if slot.activated or not slot.up:
                continue
            cdef = ctx.defs[slot.card]
            pops = len(slot.pops)
            for e in cdef.action:
                if e.type == "influence":
                    infl += e["n"] + e["per_pop"] * pops
            v += _effects_value(ctx, [e for e in cdef.action if e.type != "influence"],
                                pops=pops)
            if slot.stored and cdef.boost("store_influence"):
                infl += slot.stored
        return v + influence_value(ctx, infl)

    # ------------------------------------------------------------ turn questions
    def option_scores(self, game: "Game", seat: int) -> list[tuple[float, Decision]]:
        """``(score, decision)`` for every legal decision of the scored questions (Leader
        space, Leader Action, Actions, Influence placement) in VP equivalents; ``[]``
        for the other questions. Reads only what ``seat`` may see and uses no RNG (a
        search agent's prior, a learned policy's features; the agent's own choice may
        differ on ties and free Actions)."""
        f, legal = game.pending, game.legal_decisions()
        if f is None or f.kind not in SCORED_QUESTIONS:
            return []
        ctx = Ctx(game, seat, self.params)
        if f.kind == "influence":
            return influence_scores(ctx, f, legal)
        if f.kind == "place_leader":
            return self._leader_space_scores(ctx, legal)
        return [(self._score(ctx, d, leader=f.kind == "leader_action"), d) for d in legal]

    def _q_place_leader(self, ctx: Ctx, f, legal):
        return self._best(self._leader_space_scores(ctx, legal))

    def _leader_space_scores(self, ctx: Ctx, legal) -> list[tuple[float, Decision]]:
        spaces = ctx.c.board.leader_spaces
        scored = []
        for d in legal:
            action = spaces[d.arg]
            if action == "market":
                opts = [self._score(ctx, Decision(Kind.BUY_MARKET, i), leader=True)
                        for i in range(len(ctx.s.market))
                        if self._can_buy_with_leader(ctx, i)]
                v = max(opts + [ctx.g.cfg.leader_money * ctx.mv])
            elif action == "populate":
                from singapore_env.rules.population import can_populate
                v = self._score(ctx, Decision(Kind.POPULATE), leader=True) \
                    if can_populate(ctx.g, ctx.seat) else 0.0
            else:
                from singapore_env.rules.market import buy_battle_options
                opts = [self._score(ctx, o, leader=True)
                        for o in buy_battle_options(ctx.g, ctx.seat)]
                v = max(opts + [ctx.g.cfg.leader_storehouse_tokens * ctx.tv])
            scored.append((v, d))
        return scored

    def _can_buy_with_leader(self, ctx: Ctx, i: int) -> bool:
        """Could the Market card in slot ``i`` be bought from a Market Leader space?
        (the Sultan's Royal Privilege discount only applies there)"""
        from singapore_env.rules.market import vice_outlawed
        g, s = ctx.g, ctx.s
        cid = s.market[i]
        if cid < 0 or vice_outlawed(g, cid) or len(s.tableau[ctx.seat]) >= g.cfg.max_tableau:
            return False
        price = market_price(g, ctx.seat, cid)[0]
        if any(b["when"] == "leader_on_market_space"
               for _, b in _boosts(ctx, "price_discount")) and not s.discount_used:
            price = max(0, price - 1)
        return price <= s.wealth[ctx.seat]

    def _q_leader_action(self, ctx: Ctx, f, legal):
        return self._best([(self._score(ctx, d, leader=True), d) for d in legal])

    def _q_actions(self, ctx: Ctx, f, legal):
        # Free actions first: play Folk Heroes, reveal Battle cards whose boost helps,
        # rebuild.
        folk = sim.play_folk_hero(legal)
        if folk is not None:
            return folk
        for d in legal:
            if d.kind == Kind.REVEAL and self._want_reveal(ctx, d.arg):
                return d
        rebuilds = []
        for d in legal:
            if d.kind == Kind.REBUILD:
                card = ctx.s.tableau[ctx.seat][d.arg].card
                price = market_price(ctx.g, ctx.seat, card, purchase=False)[0]
                v = market_card_value(ctx, card, rebuild=True,
                                      wealth_after=ctx.s.wealth[ctx.seat] - price)
                rebuilds.append((v - price * ctx.mv, d))
        if rebuilds:
            v, d = max(rebuilds, key=lambda x: x[0])
            if v > 0.5:
                return d
        scored = [(self._score(ctx, d), d) for d in legal
                  if d.kind not in (Kind.REVEAL, Kind.REBUILD)]
        best = self._best(scored)
        if best.kind != Kind.PASS:
            return best
        # PASS scores 0: an Action left unused is wasted, take the best one anyway
        # if it is not clearly harmful.
        others = [(v, d) for v, d in scored if d.kind != Kind.PASS]
        if others:
            v, d = max(others, key=lambda x: x[0])
            if v + ctx.p["action_cost"] > 0.05:
                return d
        return PASS

    def _want_reveal(self, ctx: Ctx, idx: int) -> bool:
        cid = ctx.s.hands[ctx.seat][idx]
        cdef = ctx.defs[cid]
        if not cdef.boosts:
            return False
        for b in cdef.boosts:
            if b.type in ("war_bonus", "reroll"):
                continue  # keep War cards hidden
            return True
        return False

    # ------------------------------------------------------------ small questions
    def _q_connect(self, ctx: Ctx, f, legal):
        row = ctx.s.tableau[ctx.seat]
        best, best_v = PASS, 0.0
        for d in legal:
            if d.kind != Kind.CONNECT:
                continue
            p, side = divmod(d.arg, 2)
            a, b = run_bounds(row, p)
            v = 1.0 + 0.3 * (b - a + 1) + (0.5 if _group_has_work(ctx, row, a, b) else 0.0)
            if v > best_v:
                best, best_v = d, v
        return best

    def _q_influence(self, ctx: Ctx, f, legal):
        n = f.d["n"]
        kinds = {d.kind for d in legal}
        if Kind.STORE in kinds:
            return max(_store_scores(ctx, n, legal), key=lambda x: x[0])[1]
        if Kind.INFLUENCE_START in kinds:
            _, d = influence_plan(ctx, n)
            return d
        _, d = influence_plan(ctx, n, pos=f.d["pos"], asking=True)
        return d

    def _q_keep_battle(self, ctx: Ctx, f, legal):
        cards = f.d["cards"]
        held = ctx.battle_cards_held()
        return max(legal, key=lambda d: battle_card_value(ctx, cards[d.arg], held))

    def _q_attach_pop(self, ctx: Ctx, f, legal):
        opts = [d for d in legal if d.kind == Kind.ATTACH_POP]
        if not opts:
            return PASS
        return max(opts, key=lambda d: attach_slot_value(ctx, d.arg))

    def _q_moves(self, ctx: Ctx, f, legal):
        """Card moves: only to reduce the number of Communities that need an Action."""
        seat = ctx.seat
        if any(d.kind == Kind.MOVE_SEAT for d in legal):
            return Decision(Kind.MOVE_SEAT, seat) if Decision(Kind.MOVE_SEAT, seat) in legal \
                else PASS
        target = seat if f.d["scope"] == "own" else f.d["target"]
        if target != seat:
            return PASS
        row = ctx.s.tableau[seat]
        base = _groups_with_work(ctx, row)
        t = ctx.g.cfg.max_tableau
        width = 2 * t + 1
        best, best_gain = PASS, 0.0
        for d in legal:
            if d.kind == Kind.MOVE_CARD:
                src, enc = divmod(d.arg, width)
                if enc == 2 * t:
                    continue
                trial = [x.copy() for x in row]
                from singapore_env.rules.tableau import move_card
                move_card(trial, src, enc)
                gain = base - _groups_with_work(ctx, trial)
                if gain > best_gain:
                    best, best_gain = d, gain
            elif d.kind == Kind.MOVE_POP:
                src, dst = divmod(d.arg, t)
                gain = attach_slot_value(ctx, dst) - self._pop_keep_value(ctx, src)
                if gain > best_gain + 0.3:
                    best, best_gain = d, gain - 0.3
        return best

    def _pop_keep_value(self, ctx: Ctx, pos: int) -> float:
        slot = ctx.s.tableau[ctx.seat][pos]
        cdef = ctx.defs[slot.card]
        n = len(slot.pops)
        v = (action_value(ctx, slot.card, n) - action_value(ctx, slot.card, n - 1)) \
            * max(0.0, ctx.rounds_left - 0.5) * 0.8
        for e in cdef.end_game:
            if e.type == "vp_per_pop":
                v += e["n"]
        return v

    def _q_boom_pick(self, ctx: Ctx, f, legal):
        w = ctx.s.wealth[ctx.seat]
        return boom_choice(legal, ctx.s.market,
                           lambda cid: market_card_value(ctx, cid, wealth_after=w),
                           f.d["n"] * ctx.mv)

    def _q_search_pick(self, ctx: Ctx, f, legal):
        opts = f.d["options"]
        def net(d):
            price = market_price(ctx.g, ctx.seat, opts[d.arg])[0]
            return (market_card_value(ctx, opts[d.arg], wealth_after=ctx.s.wealth[ctx.seat] - price)
                    - price * ctx.mv)
        return max(legal, key=net)

    def _q_reroll(self, ctx: Ctx, f, legal):
        return reroll_choice(ctx.s, f)

    def _q_hinder(self, ctx: Ctx, f, legal):
        raid = next(x for x in reversed(ctx.s.stack) if x.kind == "raid")
        return YES if SEAT_FACTION[raid.seat] != SEAT_FACTION[ctx.seat] else PASS

    def _q_veto(self, ctx: Ctx, f, legal):
        vice = f.d["vice"]
        decree = next(x for x in reversed(ctx.s.stack) if x.kind == "decree")
        hurt = -decree_value_for_me(ctx, vice, decree.seat)
        cost = 6 * ctx.tv
        return YES if hurt > cost else PASS

    def _q_war_join(self, ctx: Ctx, f, legal):
        # joining costs a card and the victor gives at most a third of the spoils: stay out
        return PASS

    def _q_war_accept(self, ctx: Ctx, f, legal):
        return YES

    def _q_war_commit(self, ctx: Ctx, f, legal):
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
        principal = ctx.seat in (war.seat, war.d["defender"])
        if principal:
            return max(commits, key=lambda d: (defs[card(d)].strength,
                                               -battle_card_value(ctx, card(d))))
        # an ally: a card only if cheap to give
        d = min(commits, key=lambda d: battle_card_value(ctx, card(d)))
        return d if defs[card(d)].strength >= 3 else PASS

    def _q_war_discard(self, ctx: Ctx, f, legal):
        return PASS

    def _q_spoils(self, ctx: Ctx, f, legal):
        """Dollars from the loser, or VP: VP, unless dollars reach a Legacy band
        (the Sultan's Prosperous) and pay more than the VP they replace."""
        take = Decision(Kind.ADD_MONEY)
        if take not in legal:
            return PASS
        war = next(x for x in reversed(ctx.s.stack) if x.kind == "war")
        k = war.d["k"]
        limit = min(war.d["cap"], ctx.s.wealth[war.d["loser"]])
        w = ctx.s.wealth[ctx.seat]
        best_j, best_v = 0, 0.0
        for j in range(1, limit - k + 1):
            v = j * (ctx.mv - 1.0 + 0.3) + ctx.legacy_step("wealth", w, j)
            if v > best_v + 1e-9:
                best_j, best_v = j, v
        return take if best_j > 0 else PASS

    def _q_ally_pay(self, ctx: Ctx, f, legal):
        return PASS

    def _q_share(self, ctx: Ctx, f, legal):
        return PASS if PASS in legal else Decision(Kind.CHOOSE, 0)  # the smallest share

    def _q_contribute(self, ctx: Ctx, f, legal):
        conflict = next(x for x in reversed(ctx.s.stack) if x.kind == "conflict")
        s, defs = ctx.s, ctx.defs
        me = ctx.seat
        h = ctx.g.cfg.max_hand
        strength = conflict.d["strength"]
        my_cards = conflict.d["cards"][me]
        money = conflict.d["money"][me]
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
                vp = conflict.d["base"] + conflict.d["per"] * (st + top_up)
                cost = top_up * ctx.mv + battle_card_value(ctx, c, held - 1) * ctx.p["keep_card"]
                scored.append((vp - cost, d))
            v, d = max(scored, key=lambda x: x[0])
            return d if v > 0 else PASS
        # a card is in: top up with dollars (1 VP each) while they are worth less
        if Decision(Kind.ADD_MONEY) in legal and gap > 0 and ctx.mv < conflict.d["per"]:
            return Decision(Kind.ADD_MONEY)
        if commits and gap > 0:
            d = min(commits, key=lambda d: battle_card_value(ctx, card(d), held - 1))
            c = card(d)
            if conflict.d["per"] * defs[c].strength > battle_card_value(ctx, c, held - 1):
                return d
        return PASS

    def _q_fund_close(self, ctx: Ctx, f, legal):
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

    def _q_lose_pop(self, ctx: Ctx, f, legal):
        return min(legal, key=lambda d: self._pop_keep_value(ctx, d.arg))

    def _q_remove_influence(self, ctx: Ctx, f, legal):
        b = ctx.c.board
        s = ctx.s

        def loss(d):
            sp = d.arg
            if b.loop_kind[sp] == "storehouse":  # either Storehouse: the rival's helps
                return ctx.tv if b.loop_faction[sp] == SEAT_FACTION[ctx.seat] else -ctx.tv
            tokens = list(s.districts[sp * 4: sp * 4 + 4])
            before = _district_value(ctx, sp, tokens)
            tokens[ctx.seat] -= 1
            return before - _district_value(ctx, sp, tokens)
        return min(legal, key=loss)


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


def _groups_with_work(ctx: Ctx, row) -> int:
    return sum(1 for a, b in activation_groups(row) if _group_has_work(ctx, row, a, b))


def _boosts(ctx: Ctx, kind: str):
    from singapore_env.rules.base import active_boosts, revealed_boosts
    yield from active_boosts(ctx.g, ctx.seat, kind)
    yield from revealed_boosts(ctx.g, ctx.seat, kind)


__all__ = ["HeuristicAgent", "influence_plan"]


# The first-edition Raid and War questions (imported last: that module builds on this one).
from . import heuristic_first_edition as first_edition  # noqa: E402
