"""The heuristic player (:mod:`agents.heuristic`): the agent and its scoring of the
turn's main decisions in VP equivalents (Leader placement, Leader and turn Actions,
Influence); its answers to the other questions are in :mod:`agents.heuristic.answers`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.query import (activation_groups, boost_total, market_price,
                                        modifier_total)
from singapore_env.engine.rulesets import FIRST_EDITION

from . import answers, first_edition
from . import simulation as sim
from ..base import Agent
from .context import DEFAULT_PARAMS, PASS, Ctx
from .influence import influence_plan, influence_scores, influence_value
from .values import (DIE, decree_value, effects_value, expected_battle_value,
                     expected_best_of_two, market_card_value, own_boosts, populate_value,
                     war_option_value)

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
        handler = (getattr(self, "_q_" + f.kind, None) or answers.QUESTIONS.get(f.kind)
                   or sim.QUESTIONS.get(f.kind) or first_edition.QUESTIONS.get(f.kind))
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


__all__ = ["HeuristicAgent", "influence_plan", "Ctx", "DEFAULT_PARAMS"]
