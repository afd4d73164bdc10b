"""Action table and observation encoding for the RL environment (numpy only).

Nothing here knows about PettingZoo or Gymnasium: :mod:`singapore_env.env` and
:mod:`arena.faction_env` only translate these arrays into their APIs.

Actions: one ``Discrete(N)`` space is shared by every seat. Index ``i`` is the engine
decision ``ActionTable.decision(i)``; a decision maps back with ``ActionTable.index(d)``
(both O(1), see :class:`singapore_env.engine.decisions.ActionTable`). The table is built
from the rules configuration's engine limits (``max_tableau`` = T, ``max_hand`` = H);
every engine decision, including sub-decisions (which card to keep, where to connect, how
many dollars...) and out-of-turn ones (join a War, veto, contribute to a Conflict...),
has exactly one index. A multi-part choice is several consecutive steps of the same seat.

Observation: a flat ``float32`` vector of D values made of the named slices of
:class:`~singapore_env.encoding.layout.ObservationLayout`, always from the observer's
point of view. Seat-indexed blocks are **relative**: the observer first, then the other
seats clockwise from it (``rel 0`` = me, ``rel 1`` = my left neighbour, ...); ``me``
gives the observer's absolute seat. Card identities are one-hot over card *keys* (a
stable order taken from the content file), never over physical card ids.
``ObservationEncoder.decode(vector)`` turns a vector back into ``{name: array}``.

Hidden information never appears: other seats' hands (only their sizes), the two cards of
a pending draw-two-keep-one (only for the drawer), the cards offered by a Search (only for
the searcher), other seats' War commitments before the roll is over (only *whether* they
committed; identities once the War's totals are computed), other seats' Conflict
contributions (nothing at all) and the order of any deck (sizes only).
Note: committing a card removes it from the hand at once, so another seat's hand size
shows *how many* cards it committed, as at the table.

Both tables (every action kind's indices, every slice's offset, shape, range and
meaning) are in ``docs/observation.md``, generated from the code by
``python -m singapore_env.encoding.docs``.

An encoder depends only on :func:`observation_key` of a game; :func:`encoder_for` shares
one per key.
"""

from __future__ import annotations

import numpy as np

from .writer import make_encode
from ..engine.config import RulesConfig
from ..engine.content import Content
from ..engine.decisions import ActionTable
from .layout import ObservationLayout

__all__ = ["ActionTable", "ObservationEncoder", "encoder_for", "observation_key",
           "action_table"]


def action_table(config: RulesConfig | None = None) -> ActionTable:
    """The action table for a rules configuration (its ``max_tableau``/``max_hand``)."""
    cfg = config if config is not None else RulesConfig.standard()
    return ActionTable(cfg.max_tableau, cfg.max_hand)

class ObservationEncoder(ObservationLayout):
    """Encode a game for one seat as a flat float32 vector of named slices (the
    layout's), and the action table with its masks. The values are written by the
    function :func:`singapore_env.encoding.writer.make_encode` builds from the layout."""

    def __init__(self, content: Content | None = None, config: RulesConfig | None = None):
        super().__init__(content, config)
        self.table = action_table(self.cfg)
        self.n_actions = len(self.table)
        self._index = {d: i for i, d in enumerate(self.table.decisions)}
        self._encode = make_encode(self)

    # ------------------------------------------------------------ actions
    def legal_mask(self, game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``int8`` mask over the action table: the engine's legal decisions for ``seat``
        (all zeros when ``seat`` is not the one to act)."""
        mask = bytearray(self.n_actions)   # zeroed; a new array views it (no copy)
        if seat == game.acting_seat:
            try:
                for i in map(self._index.__getitem__, game.legal_decisions()):
                    mask[i] = 1
            except KeyError as exc:
                raise ValueError(
                    f"engine decision {exc.args[0]!r} is outside the action table (engine "
                    f"limits max_tableau={self.T}, max_hand={self.H})") from None
        if out is None:
            return np.frombuffer(mask, np.int8)
        out[...] = np.frombuffer(mask, np.int8)
        return out

    def legal_indices(self, game) -> list[int]:
        """Action indices of the acting seat's legal decisions (engine order)."""
        index = self._index
        return [index[d] for d in game.legal_decisions()]

    # ------------------------------------------------------------ observation
    def encode(self, game, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of ``seat`` as a float32 vector (filled into ``out`` if given)."""
        return self._encode(game, seat, out)

    # ------------------------------------------------------------ reading back
    def decode(self, vector) -> dict[str, np.ndarray]:
        """``{slice name: array of its shape}`` for an encoded vector (for debugging)."""
        v = np.asarray(vector, dtype=np.float32)
        if v.shape != (self.size,):
            raise ValueError(f"expected a vector of shape ({self.size},), got {v.shape}")
        out = {}
        for name, shape, _, _, _ in self.slices:
            start = self.offsets[name]
            out[name] = v[start:start + int(np.prod(shape))].reshape(shape).copy()
        return out

    def describe(self, vector) -> dict[str, object]:
        """A readable summary of the nonzero slices (card keys, seats) for bug reports."""
        parts = self.decode(vector)
        out: dict[str, object] = {}
        keyed = {"event": self.event_keys, "events_past": self.event_keys,
                 "used_cards": self.all_keys, "ctx_card": self.all_keys}
        for name, arr in parts.items():
            if not arr.any():
                continue
            if name in keyed:
                out[name] = [keyed[name][i] for i in np.flatnonzero(arr)]
            elif name == "market":
                out[name] = [self.market_keys[int(r.argmax())] if r.any() else None
                             for r in arr]
            elif name in ("own_hand", "own_revealed", "ctx_keep", "war_commits"):
                out[name] = [self.battle_keys[int(r.argmax())] if r.any() else None
                             for r in arr]
            elif name == "own_folk":
                out[name] = [self.folk_keys[int(r.argmax())] if r.any() else None
                             for r in arr]
            elif name == "tableau":
                tk = len(self.tableau_keys)
                out[name] = [[self.tableau_keys[int(sl[:tk].argmax())]
                              for sl in row if sl[:tk].any()] for row in arr]
            else:
                out[name] = arr.tolist()
        return out


def observation_key(content: Content, config: RulesConfig) -> tuple:
    """Everything that shapes an observation of a game with this content and rules: the
    content (its digest), the ruleset (which slices are written), the engine limits
    (``max_tableau``, ``max_hand``), the Market and spoils sizes, the rounds (Event card
    counts) and the Actions per turn. Two games with the same key are encoded alike
    (a test changes every other rules setting and checks that)."""
    return (content.digest, config.ruleset, config.max_tableau, config.max_hand,
            config.market_slots, len(config.spoils_shares), config.event_i_cards,
            config.event_ii_cards, config.actions_per_turn)


_SHARED: dict[tuple, ObservationEncoder] = {}


def encoder_for(content: Content, config: RulesConfig) -> ObservationEncoder:
    """The observation encoder of games with this content and rules, built once per
    :func:`observation_key` and shared by everyone in the process (an encoder holds no
    per-game state)."""
    key = observation_key(content, config)
    encoder = _SHARED.get(key)
    if encoder is None:
        encoder = _SHARED[key] = ObservationEncoder(content, config)
    return encoder
