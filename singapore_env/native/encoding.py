"""The observation encoder of the native engine: the Python encoder's observation and
action mask, written in C++ (``native/encoder.hpp``) for a
:class:`~singapore_env.native.NativeGame`.

The layout stays the Python one: :func:`layout_record` hands the C++ writer every offset,
vocabulary index, scale and frame index of the shared
:class:`~singapore_env.encoding.ObservationEncoder`, so a slice added or moved there moves
here too. The values are the Python writer's, float for float (``tests/test_native_encoding.py``
compares them at every step of random games of every ruleset, for every seat).
"""

from __future__ import annotations

import numpy as np

from ..candidates import FEATURES, CandidateEncoder, projected_vp
from ..encoding import ObservationEncoder, encoder_for, observation_key
from ..engine.config import RulesConfig
from ..engine.content import Content
from ..engine.decisions import N_CHOOSE
from ..engine.game import Game
from ..engine.rulesets import ruleset_of
from .game import NativeGame
from .loading import require
from .records import _content

__all__ = ["NativeEncoder", "NativeCandidateEncoder", "native_encoder_for", "native_candidates_for",
           "layout_record"]


def layout_record(enc: ObservationEncoder) -> dict:
    """Everything the C++ writer reads of a Python encoder: offsets by slice name, the
    card-key indices per card id, the scales, the frame and modifier indices by name and
    the action table's offset and size per decision kind."""
    table = enc.table
    kinds = range(max(table.sizes) + 1)
    return {
        "D": enc.size, "H": enc.H, "T": enc.T, "W": enc.slot_width,
        "BK": len(enc.battle_keys), "MK": len(enc.market_keys), "TK": len(enc.tableau_keys),
        "FK": max(enc._fkey) + 1, "rounds": enc.rounds, "n_choose": N_CHOOSE,
        "n_actions": enc.n_actions, "has_roles": ruleset_of(enc.cfg).has_roles,
        "inv_event": 1.0 / enc._event_deck, "inv_market": 1.0 / enc._market_deck,
        "inv_popdeck": 1.0 / enc._pop_deck, "inv_battle": 1.0 / enc._battle_deck,
        "inv_maxpop": 1.0 / enc._max_pop, "inv_pw": 1.0 / enc._pw_total,
        "inv_pops": 1.0 / enc._pop_scale, "inv_actions": 1.0 / max(1, enc.cfg.actions_per_turn),
        "offsets": dict(enc.offsets), "key": enc._key, "tkey": enc._tkey, "mkey": enc._mkey,
        "bkey": enc._bkey, "ekey": enc._ekey, "fkey": enc._fkey,
        "loop_open": [list(x) for x in enc._loop_open],
        "pending_idx": dict(enc._pending_idx), "stack_idx": dict(enc._stack_idx),
        "mod_idx": dict(enc._mod_idx), "table_idx": dict(enc._table_idx),
        "action_offset": [table.offset.get(k, 0) for k in kinds],
        "action_size": [table.sizes.get(k, 0) for k in kinds],
    }


class NativeEncoder:
    """The observation encoder of native games: the spaces, action table and reading
    back of the Python :class:`~singapore_env.encoding.ObservationEncoder` of the same
    content and rules (``python``), with ``encode``/``legal_mask``/``legal_indices``
    computed in C++ from a :class:`~singapore_env.native.NativeGame`."""

    def __init__(self, content: Content, config: RulesConfig):
        self.python = enc = encoder_for(content, config)
        self.size, self.low, self.high = enc.size, enc.low, enc.high
        self.table, self.n_actions = enc.table, enc.n_actions
        self._writer = require().Encoder(_content(content), layout_record(enc))

    def encode(self, game: NativeGame, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` (filled into ``out`` if given)."""
        if out is None:
            out = np.empty(self.size, np.float32)
        self._writer.encode(game._game, seat, out)
        return out

    def legal_mask(self, game: NativeGame, seat: int,
                   out: np.ndarray | None = None) -> np.ndarray:
        """``int8`` mask over the action table (all zeros when ``seat`` does not act);
        a legal decision outside the table raises the Python encoder's ValueError."""
        if out is None:
            out = np.empty(self.n_actions, np.int8)
        try:
            self._writer.mask(game._game, seat, out)
        except ValueError:  # the rare path: the Python encoder words it, on a copy
            self.python.legal_mask(Game.from_json(game.to_json(), game.c), seat)
            raise
        return out

    def legal_indices(self, game: NativeGame) -> list[int]:
        """Action indices of the acting seat's legal decisions (engine order)."""
        index = self.table.index
        return [index(d) for d in game.legal_decisions()]

    def decode(self, vector) -> dict[str, np.ndarray]:
        """``{slice name: array}`` of a vector (the Python encoder's reading)."""
        return self.python.decode(vector)


class NativeCandidateEncoder(CandidateEncoder):
    """The candidate keys (:mod:`singapore_env.candidates`) of native games, written in
    C++ (``native/candidates.hpp``): the Python encoder's values, float for float
    (``tests/test_native_candidates.py``). A prior's columns are written from its scores
    of the native game (the heuristic's, :func:`agents.priors.resolve_prior`, are
    scored by its native twin), as the Python encoder writes them."""

    def __init__(self, encoder: NativeEncoder, prior=None):
        enc = encoder.python
        super().__init__(enc.table, len(enc.c.defs), enc.cfg.max_tableau, prior)
        record = layout_record(enc)
        self._writer = require().CandidateWriter(record["action_offset"], record["action_size"],
                                                 self.n_actions, len(FEATURES), self.T)

    def encode(self, game: NativeGame, seat: int) -> dict[str, np.ndarray]:
        """The candidate keys for ``seat`` (rows all zero when it is not asked now)."""
        card = np.empty(self.n_actions, np.float32)
        features = np.empty((self.n_actions, len(FEATURES)), np.float32)
        self._writer.write(game._game, seat, card, features)
        if self.prior is not None and seat == game.acting_seat:
            self._prior_columns(game, seat, features)
        return {"candidate_card": card, "candidate_features": features,
                "projected_vp": projected_vp(game, seat)}


_SHARED: dict[tuple, NativeEncoder] = {}
_CANDIDATES: dict[NativeEncoder, NativeCandidateEncoder] = {}


def native_candidates_for(encoder: NativeEncoder) -> NativeCandidateEncoder:
    """The candidate writer (no prior) of ``encoder``'s games, built once."""
    candidates = _CANDIDATES.get(encoder)
    if candidates is None:
        candidates = _CANDIDATES[encoder] = NativeCandidateEncoder(encoder)
    return candidates


def native_encoder_for(content: Content, config: RulesConfig) -> NativeEncoder:
    """The native encoder of games with this content and rules, built once per
    :func:`~singapore_env.encoding.observation_key`."""
    key = observation_key(content, config)
    encoder = _SHARED.get(key)
    if encoder is None:
        encoder = _SHARED[key] = NativeEncoder(content, config)
    return encoder
