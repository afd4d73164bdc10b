"""The heuristic player's view of the game from one seat (:class:`Ctx`): its exchange
rates (a dollar, a Storehouse token, an Influence token in VP equivalents), Legacy
steps, the Conflict Events still to come and the Battle cards it cannot see; and the
tunable numbers (:data:`DEFAULT_PARAMS`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from singapore_env.engine.content import SEAT_FACTION
from singapore_env.engine.decisions import Decision, Kind
from singapore_env.engine.frames import WarPhase
from singapore_env.engine.query import (lone_leader, multiplier, scores_everywhere, storehouse_of,
                                        tax_totals)

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine import Game

PASS = Decision(Kind.PASS, 0)
YES = Decision(Kind.YES, 0)

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
        # The game ends after the round that reveals the last Event (the deck's size is
        # public): round 1 reveals none, each later round one.
        self.last_round = self.round + len(g.s.event_deck)
        self.rounds_left = self.last_round + 1 - self.round  # upkeeps / activations left
        self.mult = multiplier(g)
        self.iv_cache: float | None = None  # influence.token_value's answer
        self._tax = None
        self._conflicts = None
        self.plans: dict = {}  # influence_plan's plain answers in this decision
        self.mv = self._money_value() * self.p["money_scale"]
        self.tv = self._token_value() * self.p["token_scale"]

    # ------------------------------------------------------------ exchange rates
    def _money_value(self) -> float:
        to_go = self.last_round - self.round
        mv = 0.55 if to_go >= 3 else 0.5 if to_go == 2 else 0.42 if to_go == 1 else 0.25
        # The Sultan's "Prosperous" Legacy pays for money kept at the end.
        if to_go <= 2:
            step = self.legacy_step("wealth", self.s.wealth[self.seat], 1)
            mv = max(mv, min(1.0, step))
        return mv

    def _token_value(self) -> float:
        s = self.s
        tv = 0.45
        if self.legacy_of("outlawed_vices"):
            done = s.outlawed.count(self.seat)
            legal_vices = sum(1 for v in s.outlawed if v < 0)
            if done < 3 and legal_vices:
                tv = 0.9
        if self.round == self.last_round:
            tv *= 0.5
        return tv

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
                pool += [c for c in f.d.cards if c >= 0]
            elif f.kind == "war" and f.d.phase < WarPhase.SPOILS:
                pool += [c for p, c in enumerate(f.d.commits)
                         if c >= 0 and p != self.seat and SEAT_FACTION[p] == fac]
        return pool
