"""The observation's layout: the registry of its named slices.

:class:`ObservationLayout` declares every slice of the observation vector once -- its
name, shape, bounds and meaning -- for a content and rules configuration, and derives
from that one list the offsets, the size D and the bounds of the observation space.
The writer (:mod:`singapore_env.encoding.writer`) finds each slice by its offset here,
the encoder (:mod:`singapore_env.encoding`) reads vectors back with it, and the slice
table of ``docs/observation.md`` is generated from it (:mod:`singapore_env.encoding.docs`).
The slices of the Simulation Mode and of the first edition are declared by their own
modules (:mod:`singapore_env.encoding.roles`, :mod:`singapore_env.encoding.first_edition`)
through the same ``add``.
"""

from __future__ import annotations

import numpy as np

from . import first_edition
from .roles import add_role_slices
from ..engine.config import RulesConfig
from ..engine.content import MODIFIER_FIELDS, Content, default_content
from ..engine.decisions import N_CHOOSE, N_LOOP, N_VICES
from ..engine.query import AUTOMATIC_FRAME_KINDS, CLOCKWISE, DECISION_FRAME_KINDS

__all__ = ["ObservationLayout", "DECISION_FRAMES", "ALL_FRAMES"]

# Frame kinds, in a stable (sorted) order.
DECISION_FRAMES: tuple[str, ...] = tuple(sorted(DECISION_FRAME_KINDS))
# Internal continuations (the rest of a card's instant effects) are not game phases.
INTERNAL_FRAMES = frozenset({"effects"})
ALL_FRAMES: tuple[str, ...] = tuple(sorted((DECISION_FRAME_KINDS | AUTOMATIC_FRAME_KINDS)
                                           - INTERNAL_FRAMES))


def _unique_keys(content: Content, ids) -> list[str]:
    """Card keys of ``ids`` in content order, each once."""
    out: list[str] = []
    for cid in ids:
        key = content.defs[cid].key
        if key not in out:
            out.append(key)
    return out


# Scales and caps of the unbounded counts: value = min(count, cap) / scale.
_WEALTH = 20.0      # dollars
_VP = 50.0          # victory points
_TOKENS = 10.0      # Storehouse tokens
_CAP = 10.0         # every scaled count is capped at 10 (x its scale)

# Tableau slot features after the card-key one-hot (see "tableau" in the table).
_SLOT_FLAGS = ("closed", "outlawed", "link", "activated", "searched", "pops", "stored")


class ObservationLayout:
    """The named slices of the observation vector for a content and rules configuration.

    ``slices`` lists ``(name, shape, low, high, meaning)`` in vector order;
    ``offsets[name]`` is where a slice starts; ``size`` is D; ``low``/``high`` are the
    per-value bounds (arrays of size D) of the observation space. The vocabularies (card
    keys in content order) and the index tables the writer reads are derived here too.
    """

    #: every scaled count is capped at this (x its scale)
    cap = _CAP

    def __init__(self, content: Content | None = None, config: RulesConfig | None = None):
        self.cfg = cfg = config if config is not None else RulesConfig.standard()
        self.c = c = content if content is not None else default_content(cfg.slavery)
        b = c.board
        self.T, self.H = T, H = cfg.max_tableau, cfg.max_hand

        # ------------------------------------------------ vocabularies (content order)
        self.all_keys = _unique_keys(c, range(len(c.defs)))
        self.tableau_keys = _unique_keys(c, list(c.leader_ids) + [
            i for i, d in enumerate(c.defs) if d.category == "market"])
        self.market_keys = _unique_keys(c, [i for i, d in enumerate(c.defs)
                                            if d.category == "market"])
        self.battle_keys = _unique_keys(c, [i for i, d in enumerate(c.defs)
                                            if d.category == "battle"])
        self.event_keys = _unique_keys(c, [i for i, d in enumerate(c.defs)
                                           if d.category == "event"])
        self.folk_keys = _unique_keys(c, c.folk_ids)
        self.modifier_types = tuple(sorted(MODIFIER_FIELDS))
        self.conflict_tables = tuple(sorted(c.conflict_tables))
        self.rounds = cfg.event_i_cards + cfg.event_ii_cards + 1

        def index_by(keys):
            pos = {k: i for i, k in enumerate(keys)}
            return [pos.get(d.key, -1) for d in c.defs]

        self._key = index_by(self.all_keys)
        self._tkey = index_by(self.tableau_keys)
        self._mkey = index_by(self.market_keys)
        self._bkey = index_by(self.battle_keys)
        self._ekey = index_by(self.event_keys)
        self._fkey = index_by(self.folk_keys)
        TK, MK, BK, EK, K = (len(self.tableau_keys), len(self.market_keys),
                             len(self.battle_keys), len(self.event_keys), len(self.all_keys))
        self.slot_width = W = TK + len(_SLOT_FLAGS)
        n_loop, n_vices, n_spaces = len(b.loop_ids), len(b.vices), len(b.leader_spaces)
        self.n_loop = n_loop
        if n_loop != N_LOOP or n_vices > N_VICES:
            raise ValueError("the board does not fit the action table (loop or vices)")
        n_market = cfg.market_slots
        n_shares = len(cfg.spoils_shares)
        max_pop = max([d.pop_slots for d in c.defs] + [1])
        self._pop_scale = float(max_pop)
        self._market_deck = float(max(1, len(c.market_ids)))
        self._pop_deck = float(max(1, len(c.population_ids)))
        self._battle_deck = float(max(1, max(len(x) for x in c.battle_ids)))
        self._event_deck = float(max(1, cfg.event_i_cards + cfg.event_ii_cards))
        self._pw_total = 20.0
        self._max_pop = float(max(1, b.max_population))

        # ------------------------------------------------ the slices, in vector order
        self.slices: list[tuple[str, tuple[int, ...], float, float, str]] = []
        self.offsets: dict[str, int] = {}
        self.size = 0

        def add(name: str, shape, high: float, meaning: str, low: float = 0.0) -> int:
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            self.offsets[name] = self.size
            self.slices.append((name, shape, float(low), float(high), meaning))
            self.size += int(np.prod(shape))
            return self.offsets[name]

        # who and when
        add("me", 4, 1,
            "observer's absolute seat, one-hot (0 LG, 1 Resident, 2 Temenggong, 3 Sultan)")
        add("round", self.rounds + 1, 1, "round number one-hot (0 = setup)")
        add("first_player", 4, 1, "first player, relative seat one-hot")
        add("turn_seat", 4, 1, "seat whose turn it is, relative one-hot (zeros between turns)")
        add("pending_kind", len(DECISION_FRAMES), 1,
            "the pending question (decision frame kind, sorted names) one-hot")
        add("pending_seat", 4, 1, "seat that must answer it, relative one-hot")
        add("stack_kinds", len(ALL_FRAMES), 1,
            "phase: every frame kind on the engine's stack (sorted names), multi-hot")
        # board
        add("ships", b.max_ships + 1, 1, "ships in port one-hot")
        add("anglo_dutch", 1, 1, "1 once the Anglo-Dutch Treaty is in force")
        add("event", EK, 1, "current Event card key one-hot")
        add("events_past", EK, 1, "Event card keys already resolved (multi-hot)")
        add("event_deck", 1, 1, f"Event cards left / {int(self._event_deck)}")
        add("market", (n_market, MK), 1, "Market card key per slot, one-hot (empty = zeros)")
        add("market_deck", 1, 1, f"Market deck size / {int(self._market_deck)}")
        add("market_discard", MK, _CAP, "Market discard pile: count per card key")
        add("population_deck", 1, 1, f"Population deck size / {int(self._pop_deck)}")
        add("battle_decks", (2, 2), 1,
            f"[deck, discard] sizes / {int(self._battle_deck)} per faction, own faction first")
        add("leader_spaces", (n_spaces, 4), 1,
            f"occupant of each leader space {list(b.leader_spaces)}, relative one-hot")
        add("outlawed", (n_vices, 4), 1,
            f"who outlawed each vice {list(b.vices)}, relative one-hot (zeros = legal)")
        self._closable = [sp for sp in range(n_loop)
                          if b.loop_kind[sp] == "district" and b.loop_opens_at[sp] > 0]
        add("district_open", len(self._closable), 1,
            f"districts that open with population {[b.loop_ids[sp] for sp in self._closable]}: "
            f"open (the others are always open)")
        add("storehouse", 2, _CAP, f"Storehouse tokens / {_TOKENS:g}, own faction first")
        add("population", 2, 1, f"population cubes / {int(self._max_pop)}, own faction first")
        add("public_works", 5, _CAP,
            "Public Works tokens per relative seat / 5, then total / 20")
        add("modifiers", (len(self.modifier_types), 2), _CAP,
            f"round modifiers {list(self.modifier_types)}: [active, n (may be < 0)]",
            low=-_CAP)
        add("districts", (n_loop, 4), _CAP,
            f"Influence tokens per loop space {list(b.loop_ids)} per relative seat / 5")
        add("used_cards", K, 1, "card keys whose once-per-round boost is used this round")
        add("discount_used", 1, 1, "a once-per-turn price discount was used this turn")
        # seats (relative order)
        add("vp", 4, _CAP, f"VP track / {_VP:g} per relative seat (signed)", low=-_CAP)
        add("wealth", 4, _CAP, f"dollars / {_WEALTH:g} per relative seat")
        add("hand_size", 4, 1, f"Battle cards in hand / {H} per relative seat")
        add("wars_won", 4, _CAP, "Wars won / 3 per relative seat")
        add("revealed", (4, BK), _CAP, "revealed Battle cards: count per key, relative seats")
        add("own_hand", (H, BK), 1, "own hand: Battle card key per hand index (COMMIT/REVEAL arg)")
        add("own_revealed", (H, BK), 1,
            "own revealed Battle card key per revealed index (COMMIT arg H + index)")
        add("tableau", (4, T, W), _CAP,
            f"tableaux of the relative seats, position by position: card key one-hot "
            f"({TK} leader + Market keys; all zeros = no card), then {list(_SLOT_FLAGS)} "
            f"(face down: closed / outlawed) "
            f"(pops / {max_pop}, stored / 4)")
        # the pending question and its context
        add("ctx_actions_left", 1, 1, f"Actions left this turn / {cfg.actions_per_turn}")
        add("ctx_leader_space", n_spaces, 1, "leader space whose action is offered, one-hot")
        add("ctx_card", K, 1, "the public card in question (being connected / attached)")
        add("ctx_keep", (2, BK), 1, "the two drawn Battle cards (only for the drawer)")
        add("ctx_search", (N_CHOOSE, MK), 1, "cards offered by a Search (only for the searcher)")
        add("ctx_influence", 4 + n_loop, _CAP,
            "Influence placement: [tokens left / 5, storehouse question, store asked, "
            "started], then current loop space one-hot")
        add("ctx_side", 2, 1, "War side of a join/accept question (attacker, defender)")
        add("ctx_moves", 6, _CAP,
            "card moves: [moves left / 3, scope any], target tableau relative one-hot")
        add("ctx_count", 3, _CAP,
            "[Population cards to lose / 3, tokens to remove / 3, Public Works token "
            "index / 20]")
        add("ctx_reroll", 7, 1, "re-roll: [dice / 2, for a War], rolled field "
            "(raid, attacker, defender) one-hot, [first die, second die] / top face (2; a "
            "first-edition D4: 4)")
        add("ctx_raid", 7, _CAP, "Raid: [in progress, roll / 2, hinder / 2], raider relative")
        add("ctx_decree", 6 + n_vices, 1,
            "Decree: [in progress, vetoed], decreer relative one-hot, vice one-hot")
        add("war", 1 + 2 + 8, _CAP,
            "War: [in progress, joined attacker side, joined defender side], phase one-hot "
            "(0..7)")
        add("war_roles", (6, 4), 1,
            "War roles, relative one-hot: attacker, defender, attacker's ally, defender's "
            "ally, victor, loser")
        add("war_committed", 4, 1, "a card is committed, per relative seat")
        add("war_commits", (4, BK), 1,
            "committed Battle card keys per relative seat (own always; others once the "
            "totals are computed)")
        add("war_numbers", 8 + n_shares, _CAP,
            "War: [discard bonus per relative seat / 3 (4), attacker roll / 4, defender "
            "roll / 4, spoils cap / 10, dollars taken / 10], then [attacker total / 10, "
            "defender total / 10, ally paid / 10], share one-hot")
        add("conflict", 7 + len(self.conflict_tables), _CAP,
            f"Conflict Event: [in progress, strength / 10, dice / 4, plus / 10, volunteer "
            f"VP base / 5, per strength, contributions open], table one-hot "
            f"{list(self.conflict_tables)}")
        add("conflict_own", BK + 2, _CAP,
            "own hidden Conflict contribution: card count per key, dollars / 10, "
            "once-per-round counter boosts spent")
        add_role_slices(add, self.folk_keys, H)
        first_edition.add_slices(add, BK)

        self.low = np.zeros(self.size, np.float32)
        self.high = np.zeros(self.size, np.float32)
        for name, shape, low, high, _ in self.slices:
            o = self.offsets[name]
            self.low[o:o + int(np.prod(shape))] = low
            self.high[o:o + int(np.prod(shape))] = high

        # relative seats: REL[observer][seat] -> 0..3, ORDER[observer] -> seats in rel order
        self._order = []
        self._rel = []
        for obs in range(4):
            i = CLOCKWISE.index(obs)
            order = tuple(CLOCKWISE[(i + k) % 4] for k in range(4))
            self._order.append(order)
            rel = [0] * 4
            for r, p in enumerate(order):
                rel[p] = r
            self._rel.append(tuple(rel))
        self._pending_idx = {k: i for i, k in enumerate(DECISION_FRAMES)}
        self._stack_idx = {k: i for i, k in enumerate(ALL_FRAMES)}
        self._mod_idx = {k: i for i, k in enumerate(self.modifier_types)}
        self._table_idx = {k: i for i, k in enumerate(self.conflict_tables)}
        self._reroll_field = {"roll": 2, "roll0": 3, "roll1": 4}
        self._loop_open = [(b.loop_faction[sp], b.loop_opens_at[sp]) for sp in self._closable]
