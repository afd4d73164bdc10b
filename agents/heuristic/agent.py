"""The heuristic player (:mod:`agents.heuristic`): the agent, its scoring of the turn
decisions in VP equivalents and its answer to every other question."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import (activation_groups, boost_total, market_price,
                                        modifier_total, run_bounds)
from singapore_env.engine.rulesets import FIRST_EDITION

from . import first_edition
from . import simulation as sim
from ..base import Agent
from .choices import boom_choice, reroll_choice, spend_counter_boost
from .context import DEFAULT_PARAMS, PASS, YES, Ctx
from .influence import (district_value, influence_plan, influence_scores, influence_value,
                        store_scores)
from .values import (DIE, action_value, attach_slot_value, battle_card_value, decree_value,
                     decree_value_for_me, effects_value, expected_battle_value,
                     expected_best_of_two, group_has_work, groups_with_work, market_card_value,
                     own_boosts, populate_value, war_option_value)

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine import Game

#: The questions :meth:`HeuristicAgent.option_scores` scores.
SCORED_QUESTIONS = ("place_leader", "leader_action", "actions", "influence")
#: Ruleset -> ``score(ctx, decision)`` of the Actions it plays with its own procedure
#: (the kinds in its ``own_actions``), which the standard scores do not describe.
OWN_ACTION_SCORES = {FIRST_EDITION: first_edition.score_action}


# ======================================================================== the agent
class HeuristicAgent(Agent):
    """Rule-based player (engine level)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, params: dict | None = None):
        self.rng = np.random.default_rng(seed)  # (a property: see rng)
        unknown = set(params or {}) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"unknown heuristic params {sorted(unknown)}")
        self.params = {**DEFAULT_PARAMS, **(params or {})}
        self._native_params = None  # (params, their native copy), made at a native game

    @property
    def rng(self) -> np.random.Generator:
        """The generator breaking the ties. At a native game the twin draws from a native
        copy of it (``singapore_env.native.Random``, kept while the agent plays there),
        whose state is written back here when the generator is read: one stream, on
        either engine."""
        if self._twin_rng is not None:
            self._rng.bit_generator.state = self._twin_rng.state
            self._twin_rng = None
        return self._rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng, self._twin_rng = value, None

    def __getstate__(self) -> dict:
        self.rng  # noqa: B018 (the twin's draws written back)
        return {**self.__dict__, "_native_params": None}

    @property
    def plays_native(self) -> bool:
        """The heuristic has a native twin (``native/heuristic.hpp``): at a
        :class:`~singapore_env.native.NativeGame` it thinks in C++, with the same
        decisions and the same draws from :attr:`rng`."""
        from singapore_env import native
        return native.available()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    # ------------------------------------------------------------ entry point
    def choose(self, game: "Game", seat: int) -> Decision:
        native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
        if native is not None and isinstance(game, native.NativeGame):
            return native.heuristic_choose(game, seat, self.native_params(native),
                                           self.native_stream(native))
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

    def native_stream(self, native):
        """The native copy of :attr:`rng` the twin draws from (made at its first native
        decision; written back when :attr:`rng` is read); ``native`` is the
        :mod:`singapore_env.native` module."""
        if self._twin_rng is None:
            self._twin_rng = native.Random.from_state(self._rng.bit_generator.state)
        return self._twin_rng

    def native_params(self, native):
        """The native copy of :attr:`params` (remade if they were changed), as the native
        players built on the heuristic (rerank, the search) take it."""
        if self._native_params is None or self._native_params[0] != self.params:
            self._native_params = (dict(self.params), native.heuristic_params(self.params))
        return self._native_params[1]

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
        ruleset = g.ruleset
        if k in ruleset.own_actions:
            return OWN_ACTION_SCORES[ruleset](ctx, d)
        if k == Kind.BUY_MARKET:
            cid = s.market[d.arg]
            price = market_price(g, ctx.seat, cid)[0]
            return (market_card_value(ctx, cid, wealth_after=s.wealth[ctx.seat] - price)
                    - price * ctx.mv - (0 if leader else ctx.p["action_cost"]))
        if k == Kind.SEARCH:
            from singapore_env.engine.query import search_candidates
            slot = s.tableau[ctx.seat][d.arg]
            cands = search_candidates(g, ctx.seat, slot)
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
            dollars = sum(max(0, f + bonus) for f in DIE) / 6
            p_ship = sum(1 for f in DIE if f + bonus >= g.cfg.raid_ship_threshold) / 6
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
            return sim.inspire_value(ctx, effects_value)
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
            v += effects_value(ctx, [e for e in cdef.action if e.type != "influence"],
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
        differ on ties and free Actions). At a native game the twin scores them in C++."""
        native = sys.modules.get("singapore_env.native")
        if native is not None and isinstance(game, native.NativeGame):
            return native.heuristic_option_scores(game, seat, self.native_params(native))
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
                from singapore_env.engine.query import can_populate
                v = self._score(ctx, Decision(Kind.POPULATE), leader=True) \
                    if can_populate(ctx.g, ctx.seat) else 0.0
            else:
                from singapore_env.engine.query import buy_battle_options
                opts = [self._score(ctx, o, leader=True)
                        for o in buy_battle_options(ctx.g, ctx.seat)]
                v = max(opts + [ctx.g.cfg.leader_storehouse_tokens * ctx.tv])
            scored.append((v, d))
        return scored

    def _can_buy_with_leader(self, ctx: Ctx, i: int) -> bool:
        """Could the Market card in slot ``i`` be bought from a Market Leader space?
        (the Sultan's Royal Privilege discount only applies there)"""
        from singapore_env.engine.query import vice_outlawed
        g, s = ctx.g, ctx.s
        cid = s.market[i]
        if cid < 0 or vice_outlawed(g, cid) or len(s.tableau[ctx.seat]) >= g.cfg.max_tableau:
            return False
        price = market_price(g, ctx.seat, cid)[0]
        if any(b["when"] == "leader_on_market_space"
               for _, b in own_boosts(ctx, "price_discount")) and not s.discount_used:
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
            v = 1.0 + 0.3 * (b - a + 1) + (0.5 if group_has_work(ctx, row, a, b) else 0.0)
            if v > best_v:
                best, best_v = d, v
        return best

    def _q_influence(self, ctx: Ctx, f, legal):
        n = f.d.n
        kinds = {d.kind for d in legal}
        if Kind.STORE in kinds:
            return max(store_scores(ctx, n, legal), key=lambda x: x[0])[1]
        if Kind.INFLUENCE_START in kinds:
            _, d = influence_plan(ctx, n)
            return d
        _, d = influence_plan(ctx, n, pos=f.d.pos, asking=True)
        return d

    def _q_keep_battle(self, ctx: Ctx, f, legal):
        cards = f.d.cards
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
                           f.d.n * ctx.mv)

    def _q_search_pick(self, ctx: Ctx, f, legal):
        opts = f.d.options
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
        vice = f.d.vice
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
        principal = ctx.seat in (war.seat, war.d.defender)
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
        k = war.d.k
        limit = min(war.d.cap, ctx.s.wealth[war.d.loser])
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
            before = district_value(ctx, sp, tokens)
            tokens[ctx.seat] -= 1
            return before - district_value(ctx, sp, tokens)
        return min(legal, key=loss)


__all__ = ["HeuristicAgent", "influence_plan", "Ctx", "DEFAULT_PARAMS"]
