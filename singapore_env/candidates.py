"""Features of each legal decision, for action-aware (pointer-style) policies.

A flat observation makes a network learn every "slot -> card" binding separately: the
action "activate tableau position 3" says nothing about *which* card lies there, and
the card's identity sits in another block of the vector. :class:`CandidateEncoder`
describes every action of the fixed action table from the acting seat's point of view:

* ``card[a]`` — the card the action refers to, as ``card id + 1`` (0 = none): the
  Market card a BUY_MARKET slot holds, the tableau card an ACTIVATE / ATTACH_POP /
  REBUILD / CLOSE / CONNECT / SEARCH / DISCARD_* / MOVE_CARD position holds, the Battle
  card a REVEAL / COMMIT / KEEP_BATTLE index names, the Folk Hero card a FOLK_HERO index
  names (simulation);
* ``features[a]`` — :data:`FEATURES`: legal, refers to a card, price / 10 and whether
  it is affordable (buying and rebuilding; a Major Economic Boom pick is free), the
  tableau card's face-up flag, Population cards on it / 4 and whether it was activated
  this round, and whether the seat the action names (WAR, MOVE_SEAT) is the faction
  mate or an opponent.

Rows of illegal actions are zero. Only what the seat can see is read: its own hand,
the public Market and tableaux, the cards of its own pending draw.
"""

from __future__ import annotations

import sys

import numpy as np

from .engine.content import SEAT_FACTION
from .engine.decisions import Kind
from .engine.query import CLOCKWISE, committed_card, find_frame, price_function, projected_final_vp

FEATURES = ("legal", "has_card", "price", "affordable", "card_up", "pops", "activated",
            "names_mate", "names_opponent", "prior_score", "prior_gap")
#: The columns that are facts of the rules and the seat's view (all but a prior's scores):
#: what a network that learns from zero reads.
RULES_FEATURES = FEATURES[:9]
#: The prior's columns: prior_score = score / PRIOR_SCALE, prior_gap = (score - the best
#: score) / PRIOR_SCALE, at least PRIOR_GAP_FLOOR (native/candidates.hpp reads them too).
PRIOR_SCALE = 5.0
PRIOR_GAP_FLOOR = -10.0
#: projected_vp holds VP / VP_SCALE.
VP_SCALE = 50.0

_TABLEAU_KINDS = {Kind.ACTIVATE, Kind.ATTACH_POP, Kind.REBUILD, Kind.CLOSE, Kind.SEARCH,
                  Kind.DISCARD_POP, Kind.DISCARD_CARD}
_SEAT_KINDS = {Kind.WAR, Kind.MOVE_SEAT}
CANDIDATE_KEYS = ("candidate_card", "candidate_features", "projected_vp")


def candidate_spaces(encoder: "CandidateEncoder") -> dict:
    """The Gymnasium spaces of the candidate keys of an observation dict."""
    from gymnasium import spaces

    n, k = encoder.n_actions, len(FEATURES)
    return {"candidate_card": spaces.Box(0, encoder.n_cards, (n,), np.float32),
            "candidate_features": spaces.Box(-np.inf, np.inf, (n, k), np.float32),
            "projected_vp": spaces.Box(-np.inf, np.inf, (4,), np.float32)}


def check_prior(prior):
    """``prior`` if it is a scorer ``(game, seat) -> [(score, decision), ...]`` or
    ``None``; a ValueError otherwise (a named prior such as ``"heuristic"`` is turned
    into its scorer by :func:`agents.priors.resolve_prior`)."""
    if prior is None or callable(prior):
        return prior
    raise ValueError(f"a candidate prior is a callable (game, seat) -> [(score, decision), "
                     f"...] or None, got {prior!r}; a named prior such as 'heuristic' is "
                     f"agents.priors.resolve_prior(name)")


class CandidateEncoder:
    """Per-action card ids and features (shape ``(N,)`` and ``(N, len(FEATURES))``)
    and the seats' projected final VP, optionally with a prior's scores."""

    def __init__(self, table, n_cards: int, max_tableau: int, prior=None):
        self.table = table
        self.n_actions = len(table)
        self.n_cards = n_cards
        self.T = max_tableau
        self.index = {d: i for i, d in enumerate(table.decisions)}
        self.prior = check_prior(prior)

    @classmethod
    def for_observations(cls, encoder, prior=None) -> "CandidateEncoder":
        """The candidate encoder matching an :class:`~singapore_env.encoding.ObservationEncoder`
        (same action table, content and engine limits); for a native encoder, the native
        writer (:class:`~singapore_env.native.encoding.NativeCandidateEncoder`), whose
        ``prior`` must score native games (as the heuristic's scores do)."""
        native = sys.modules.get("singapore_env.native.encoding")  # not imported: no native game
        if native is not None and isinstance(encoder, native.NativeEncoder):
            return native.NativeCandidateEncoder(encoder, prior)
        return cls(encoder.table, len(encoder.c.defs), encoder.cfg.max_tableau, prior)

    def encode(self, game, seat: int) -> dict[str, np.ndarray]:
        """The candidate keys (:data:`CANDIDATE_KEYS`) for ``seat``; the per-action
        rows are all zero when it is not asked now."""
        card, feats = self._actions(game, seat)
        return {"candidate_card": card, "candidate_features": feats,
                "projected_vp": projected_vp(game, seat)}

    def _actions(self, game, seat: int) -> tuple[np.ndarray, np.ndarray]:
        card = np.zeros(self.n_actions, np.float32)
        feats = np.zeros((self.n_actions, len(FEATURES)), np.float32)
        if seat != game.acting_seat:
            return card, feats
        s = game.s
        owner = seat
        if game.pending.kind == "fe_plunder":  # first edition: the loser's cards are named
            owner = find_frame(game, "war_fe").d.loser
        row = s.tableau[owner]
        price = None
        for d in game.legal_decisions():
            a = self.index[d]
            f = feats[a]
            f[0] = 1.0
            kind, arg = d
            cid, cost, slot = -1, None, None
            if kind == Kind.BUY_MARKET:
                cid = s.market[arg]
                price = price or price_function(game, seat)
                cost = 0 if game.pending.kind == "boom_pick" else price(cid)[0]
            elif kind == Kind.REBUILD:
                slot = row[arg]
                cid = slot.card
                cost = price_function(game, seat, purchase=False)(cid)[0]
            elif kind in _TABLEAU_KINDS or kind == Kind.CONNECT or kind == Kind.MOVE_CARD:
                pos = (arg // 2 if kind == Kind.CONNECT
                       else arg // (2 * self.T + 1) if kind == Kind.MOVE_CARD else arg)
                if pos < len(row):
                    slot = row[pos]
                    cid = slot.card
            elif kind == Kind.BUY_BATTLE:
                cost = game.cfg.battle_card_price
            elif kind == Kind.REVEAL:
                cid = s.hands[seat][arg]
            elif kind == Kind.FOLK_HERO:
                cid = s.folk_hands[seat][arg]
            elif kind == Kind.COMMIT:
                cid = committed_card(game, seat, arg)
            elif kind == Kind.KEEP_BATTLE:
                cid = game.pending.d.cards[arg]
            elif kind in _SEAT_KINDS and arg != seat:
                mate = SEAT_FACTION[arg] == SEAT_FACTION[seat]
                f[7], f[8] = float(mate), float(not mate)
            if cid >= 0:
                card[a] = cid + 1
                f[1] = 1.0
            if cost is not None:
                f[2], f[3] = cost / 10.0, float(cost <= s.wealth[seat])
            if slot is not None:
                f[4], f[5], f[6] = float(slot.up), len(slot.pops) / 4.0, float(slot.activated)
        if self.prior is not None:
            self._prior_columns(game, seat, feats)
        return card, feats

    def _prior_columns(self, game, seat: int, feats: np.ndarray) -> None:
        scored = self.prior(game, seat)
        if not scored:
            return
        best = max(v for v, _ in scored)
        for v, d in scored:
            f = feats[self.index[d]]
            f[9] = v / PRIOR_SCALE
            f[10] = max(PRIOR_GAP_FLOOR, (v - best) / PRIOR_SCALE)


def projected_vp(game, seat: int) -> np.ndarray:
    """Every seat's projected final VP / 50, the observer first, then clockwise (of a
    native game, written in C++)."""
    native = sys.modules.get("singapore_env.native")  # not imported: no native game exists
    if native is not None and isinstance(game, native.NativeGame):
        out = np.empty(4, np.float32)
        native.require().CandidateWriter.projected_vp(game._game, seat, out)
        return out
    i = CLOCKWISE.index(seat)
    return np.array([projected_final_vp(game, CLOCKWISE[(i + r) % 4]) / VP_SCALE
                     for r in range(4)], np.float32)
