"""Action table and observation encoding for the RL environment (numpy only).

Nothing here knows about PettingZoo or Gymnasium: :mod:`singapore_env.env` and
:mod:`arena.faction_env` only translate these arrays into their APIs.

Actions
=======
One ``Discrete(N)`` space is shared by every seat. Index ``i`` is the engine decision
``ActionTable.decision(i)``; a decision maps back with ``ActionTable.index(d)`` (both
O(1), see :class:`singapore_env.engine.decisions.ActionTable`). The table is built once from the
rules configuration's engine limits (``max_tableau`` = T, ``max_hand`` = H); every
engine decision, including sub-decisions (which card to keep, where to connect, how many
dollars...) and out-of-turn ones (join a War, veto, contribute to a Conflict...), has
exactly one index. A multi-part choice is several consecutive steps of the same seat.
With the standard limits (T = 16, H = 12) there are N = 1027 actions:

| kind | indices | args | arg meaning |
|---|---|---|---|
| `PASS` (0) | 0 | 1 | - (decline / end turn / done / no) |
| `YES` (1) | 1 | 1 | - (accept the yes/no question asked) |
| `PLACE_LEADER` (2) | 2–5 | 4 | leader space |
| `LEADER_MONEY` (3) | 6 | 1 | - (Market leader space: take $1 instead) |
| `LEADER_STOREHOUSE` (4) | 7 | 1 | - (Battle leader space: 1 token to the Storehouse instead) |
| `BUY_MARKET` (5) | 8–12 | 5 | market slot (0 = leftmost; also the Economic Boom's free pick) |
| `BUY_BATTLE` (6) | 13–14 | 2 | 0 = top card; 1 = pay tokens, draw 2 keep 1 |
| `KEEP_BATTLE` (7) | 15–16 | 2 | which of the two drawn cards to keep |
| `POPULATE` (8) | 17 | 1 | - |
| `ATTACH_POP` (9) | 18–33 | 16 | tableau position receiving the Population card |
| `ACTIVATE` (10) | 34–49 | 16 | tableau position of the first card of the group |
| `RAID` (11) | 50 | 1 | - |
| `DECREE` (12) | 51–55 | 5 | vice index |
| `WAR` (13) | 56–59 | 4 | defender seat (absolute) |
| `REVEAL` (14) | 60–71 | 12 | hand index |
| `REBUILD` (15) | 72–87 | 16 | tableau position of a closed Public Works |
| `SEARCH` (16) | 88–103 | 16 | tableau position of the card granting the search |
| `CHOOSE` (17) | 104–107 | 4 | option of a small menu (searched card, spoils share, dice to re-roll as a bit mask) |
| `CONNECT` (18) | 108–139 | 32 | position * 2 + side (0 = left of it, 1 = right of it) |
| `INFLUENCE_START` (19) | 140–147 | 8 | loop space |
| `COMMIT` (20) | 148–171 | 24 | hand index, or H + revealed index |
| `ADD_MONEY` (21) | 172 | 1 | - (one more dollar; first edition: one more Storehouse token in a War) |
| `FUND` (22) | 173 | 1 | - (fund the excess Public Works token) |
| `CLOSE` (23) | 174–189 | 16 | tableau position of the Public Works card to close |
| `MOVE_SEAT` (24) | 190–193 | 4 | seat (absolute) whose tableau the next move is in |
| `MOVE_CARD` (25) | 194–721 | 528 | source * (2T + 1) + target (position * 2 + side, or 2T = detach) |
| `MOVE_POP` (26) | 722–977 | 256 | source position * T + destination position |
| `REMOVE_INFLUENCE` (27) | 978–985 | 8 | loop space |
| `DISCARD_POP` (28) | 986–1001 | 16 | tableau position whose Population card is lost |
| `STORE` (29) | 1002–1010 | 9 | number of Influence tokens stored on the card |
| `DISCARD_CARD` (30) | 1011–1026 | 16 | tableau position of the card discarded for War strength (first edition: of the loser's card the War winner takes) |
| `INSPIRE` (31) | 1027 | 1 | - (simulation: spend Storehouse tokens to draw a Folk Hero card) |
| `FOLK_HERO` (32) | 1028–1039 | 12 | simulation: index of the Folk Hero card played from the hand |
| **total** | 0–1039 | **N = 1040** | T = 16, H = 12 |

Observation
===========
A flat ``float32`` vector of D values (D = 5146 for the standard configuration), built
from the named slices below, always from the observer's point of view. Seat-indexed
blocks are **relative**: the observer first, then the other seats clockwise from it
(``rel 0`` = me, ``rel 1`` = my left neighbour, ...); ``me`` gives the observer's
absolute seat. Card identities are one-hot over card *keys* (a stable order taken from the
content file), never over physical card ids. ``ObservationEncoder.decode(vector)`` turns a
vector back into ``{name: array}`` with the shapes shown.

Hidden information never appears: other seats' hands (only their sizes), the two cards of
a pending draw-two-keep-one (only for the drawer), the cards offered by a Search (only for
the searcher), other seats' War commitments before the roll is over (only *whether* they
committed; identities once the War's totals are computed), other seats' Conflict
contributions (nothing at all) and the order of any deck (sizes only).
Note: committing a card removes it from the hand at once, so another seat's hand size
shows *how many* cards it committed, as at the table.

| slice | offset | shape | size | range | meaning |
|---|---|---|---|---|---|
| `me` | 0 | 4 | 4 | 0..1 | observer's absolute seat, one-hot (0 LG, 1 Resident, 2 Temenggong, 3 Sultan) |
| `round` | 4 | 9 | 9 | 0..1 | round number one-hot (0 = setup) |
| `first_player` | 13 | 4 | 4 | 0..1 | first player, relative seat one-hot |
| `turn_seat` | 17 | 4 | 4 | 0..1 | seat whose turn it is, relative one-hot (zeros between turns) |
| `pending_kind` | 21 | 33 | 33 | 0..1 | the pending question (decision frame kind, sorted names) one-hot |
| `pending_seat` | 54 | 4 | 4 | 0..1 | seat that must answer it, relative one-hot |
| `stack_kinds` | 58 | 49 | 49 | 0..1 | phase: every frame kind on the engine's stack (sorted names), multi-hot |
| `ships` | 107 | 13 | 13 | 0..1 | ships in port one-hot |
| `anglo_dutch` | 120 | 1 | 1 | 0..1 | 1 once the Anglo-Dutch Treaty is in force |
| `event` | 121 | 13 | 13 | 0..1 | current Event card key one-hot |
| `events_past` | 134 | 13 | 13 | 0..1 | Event card keys already resolved (multi-hot) |
| `event_deck` | 147 | 1 | 1 | 0..1 | Event cards left / 7 |
| `market` | 148 | 5×38 | 190 | 0..1 | Market card key per slot, one-hot (empty = zeros) |
| `market_deck` | 338 | 1 | 1 | 0..1 | Market deck size / 39 |
| `market_discard` | 339 | 38 | 38 | 0..10 | Market discard pile: count per card key |
| `population_deck` | 377 | 1 | 1 | 0..1 | Population deck size / 18 |
| `battle_decks` | 378 | 2×2 | 4 | 0..1 | [deck, discard] sizes / 14 per faction, own faction first |
| `leader_spaces` | 382 | 4×4 | 16 | 0..1 | occupant of each leader space ['market', 'market', 'populate', 'battle'], relative one-hot |
| `outlawed` | 398 | 5×4 | 20 | 0..1 | who outlawed each vice ['slavery', 'gambling', 'liquor', 'opium', 'prostitution'], relative one-hot (zeros = legal) |
| `district_open` | 418 | 4 | 4 | 0..1 | districts that open with population ['B2', 'B3', 'G2', 'G3']: open (the others are always open) |
| `storehouse` | 422 | 2 | 2 | 0..10 | Storehouse tokens / 10, own faction first |
| `population` | 424 | 2 | 2 | 0..1 | population cubes / 22, own faction first |
| `public_works` | 426 | 5 | 5 | 0..10 | Public Works tokens per relative seat / 5, then total / 20 |
| `modifiers` | 431 | 6×2 | 12 | -10..10 | round modifiers ['commerce_half', 'decree_cost', 'market_price', 'populate_influence', 'raid_bonus', 'war_cost']: [active, n (may be < 0)] |
| `districts` | 443 | 8×4 | 32 | 0..10 | Influence tokens per loop space ['B1', 'B2', 'B3', 'BS', 'G1', 'G2', 'G3', 'GS'] per relative seat / 5 |
| `used_cards` | 475 | 100 | 100 | 0..1 | card keys whose once-per-round boost is used this round |
| `discount_used` | 575 | 1 | 1 | 0..1 | a once-per-turn price discount was used this turn |
| `vp` | 576 | 4 | 4 | -10..10 | VP track / 50 per relative seat (signed) |
| `wealth` | 580 | 4 | 4 | 0..10 | dollars / 20 per relative seat |
| `hand_size` | 584 | 4 | 4 | 0..1 | Battle cards in hand / 12 per relative seat |
| `wars_won` | 588 | 4 | 4 | 0..10 | Wars won / 3 per relative seat |
| `revealed` | 592 | 4×22 | 88 | 0..10 | revealed Battle cards: count per key, relative seats |
| `own_hand` | 680 | 12×22 | 264 | 0..1 | own hand: Battle card key per hand index (COMMIT/REVEAL arg) |
| `own_revealed` | 944 | 12×22 | 264 | 0..1 | own revealed Battle card key per revealed index (COMMIT arg H + index) |
| `tableau` | 1208 | 4×16×49 | 3136 | 0..10 | tableaux of the relative seats, position by position: card key one-hot (42 leader + Market keys; all zeros = no card), then ['closed', 'outlawed', 'link', 'activated', 'searched', 'pops', 'stored'] (face down: closed / outlawed) (pops / 3, stored / 4) |
| `ctx_actions_left` | 4344 | 1 | 1 | 0..1 | Actions left this turn / 2 |
| `ctx_leader_space` | 4345 | 4 | 4 | 0..1 | leader space whose action is offered, one-hot |
| `ctx_card` | 4349 | 100 | 100 | 0..1 | the public card in question (being connected / attached) |
| `ctx_keep` | 4449 | 2×22 | 44 | 0..1 | the two drawn Battle cards (only for the drawer) |
| `ctx_search` | 4493 | 4×38 | 152 | 0..1 | cards offered by a Search (only for the searcher) |
| `ctx_influence` | 4645 | 12 | 12 | 0..10 | Influence placement: [tokens left / 5, storehouse question, store asked, started], then current loop space one-hot |
| `ctx_side` | 4657 | 2 | 2 | 0..1 | War side of a join/accept question (attacker, defender) |
| `ctx_moves` | 4659 | 6 | 6 | 0..10 | card moves: [moves left / 3, scope any], target tableau relative one-hot |
| `ctx_count` | 4665 | 3 | 3 | 0..10 | [Population cards to lose / 3, tokens to remove / 3, Public Works token index / 20] |
| `ctx_reroll` | 4668 | 7 | 7 | 0..1 | re-roll: [dice / 2, for a War], rolled field (raid, attacker, defender) one-hot, [first die, second die] / top face (2; a first-edition D4: 4) |
| `ctx_raid` | 4675 | 7 | 7 | 0..10 | Raid: [in progress, roll / 2, hinder / 2], raider relative |
| `ctx_decree` | 4682 | 11 | 11 | 0..1 | Decree: [in progress, vetoed], decreer relative one-hot, vice one-hot |
| `war` | 4693 | 11 | 11 | 0..10 | War: [in progress, joined attacker side, joined defender side], phase one-hot (0..7) |
| `war_roles` | 4704 | 6×4 | 24 | 0..1 | War roles, relative one-hot: attacker, defender, attacker's ally, defender's ally, victor, loser |
| `war_committed` | 4728 | 4 | 4 | 0..1 | a card is committed, per relative seat |
| `war_commits` | 4732 | 4×22 | 88 | 0..1 | committed Battle card keys per relative seat (own always; others once the totals are computed) |
| `war_numbers` | 4820 | 10 | 10 | 0..10 | War: [discard bonus per relative seat / 3 (4), attacker roll / 4, defender roll / 4, spoils cap / 10, dollars taken / 10], then [attacker total / 10, defender total / 10, ally paid / 10], share one-hot |
| `conflict` | 4830 | 11 | 11 | 0..10 | Conflict Event: [in progress, strength / 10, dice / 4, plus / 10, volunteer VP base / 5, per strength, contributions open], table one-hot ['major_pirate_attack', 'pirate_attack', 'secret_society_riot', 'tiger_attack'] |
| `conflict_own` | 4841 | 24 | 24 | 0..10 | own hidden Conflict contribution: card count per key, dollars / 10, once-per-round counter boosts spent |
| `roles` | 4865 | 4×4 | 16 | 0..1 | Simulation Roles per relative seat: [declared, Colonial Ally, Resistance Leader, Colonial Ruler] (another Raja's Role shows only 'declared' until both are revealed) |
| `storehouse_veto` | 4881 | 4 | 4 | 0..1 | Simulation: the Agents vetoed this relative seat's use of the British Storehouse |
| `folk` | 4885 | 6 | 6 | 0..10 | Simulation Folk Heroes: [deck / 10, discard / 10], then hand size / 12 per relative seat |
| `own_folk` | 4891 | 12×10 | 120 | 0..1 | own Folk Hero hand: card key per hand index (FOLK_HERO arg) |
| `ctx_veto` | 5011 | 4 | 4 | 0..1 | Simulation Storehouse veto question: the Colonial Ally in question, relative one-hot |
| `fe_raid` | 5015 | 8 | 8 | 0..10 | first-edition Raid: [in progress, rolled, roll / 8, hinder / 2], Interventionist relative one-hot |
| `fe_war` | 5023 | 15 | 15 | 0..10 | first-edition War: [in progress, tokens withdrawn attacker / 10, defender / 10, D4 attacker / 4, defender / 4, total attacker / 10, defender / 10, still owed / 10, cards shown], phase one-hot (0..5) |
| `fe_war_roles` | 5038 | 4×4 | 16 | 0..1 | first-edition War roles, relative one-hot: attacker, defender, victor, loser |
| `fe_committed` | 5054 | 4 | 4 | 0..10 | first edition: cards committed per relative seat / 3 |
| `fe_commits` | 5058 | 4×22 | 88 | 0..10 | first edition: committed Battle card keys per relative seat, counts (own always; others once the War's totals are computed) |
| **total** | | | **D = 5146** | | |

Both tables are generated from the code: ``python -m singapore_env.encoding`` prints them
and ``python -m singapore_env.encoding --update-docs`` rewrites them here and in
``docs/observation.md`` (a test checks that both copies are current).
"""

from __future__ import annotations

import numpy as np

from .engine.config import RulesConfig
from .engine.content import MODIFIER_FIELDS, Content, default_content
from . import encoding_first_edition as first_edition
from .engine.decisions import N_CHOOSE, N_LOOP, N_VICES, ActionTable, Kind
from .encoding_roles import add_role_slices
from .encoding_writer import make_encode
from .engine.query import AUTOMATIC_FRAME_KINDS, CLOCKWISE, DECISION_FRAME_KINDS

__all__ = ["ActionTable", "ObservationEncoder", "encoder_for", "observation_key",
           "action_table", "ARG_MEANING", "action_table_markdown", "observation_markdown",
           "DECISION_FRAMES", "ALL_FRAMES"]

# Frame kinds, in a stable (sorted) order.
DECISION_FRAMES: tuple[str, ...] = tuple(sorted(DECISION_FRAME_KINDS))
# Internal continuations (the rest of a card's instant effects) are not game phases.
INTERNAL_FRAMES = frozenset({"effects"})
ALL_FRAMES: tuple[str, ...] = tuple(sorted((DECISION_FRAME_KINDS | AUTOMATIC_FRAME_KINDS)
                                           - INTERNAL_FRAMES))

# What the ``arg`` of each decision kind means (documentation only).
ARG_MEANING: dict[str, str] = {
    "PASS": "- (decline / end turn / done / no)",
    "YES": "- (accept the yes/no question asked)",
    "PLACE_LEADER": "leader space",
    "LEADER_MONEY": "- (Market leader space: take $1 instead)",
    "LEADER_STOREHOUSE": "- (Battle leader space: 1 token to the Storehouse instead)",
    "BUY_MARKET": "market slot (0 = leftmost; also the Economic Boom's free pick)",
    "BUY_BATTLE": "0 = top card; 1 = pay tokens, draw 2 keep 1",
    "KEEP_BATTLE": "which of the two drawn cards to keep",
    "POPULATE": "-",
    "ATTACH_POP": "tableau position receiving the Population card",
    "ACTIVATE": "tableau position of the first card of the group",
    "RAID": "-",
    "DECREE": "vice index",
    "WAR": "defender seat (absolute)",
    "REVEAL": "hand index",
    "REBUILD": "tableau position of a closed Public Works",
    "SEARCH": "tableau position of the card granting the search",
    "CHOOSE": "option of a small menu (searched card, spoils share, dice to re-roll as a "
              "bit mask)",
    "CONNECT": "position * 2 + side (0 = left of it, 1 = right of it)",
    "INFLUENCE_START": "loop space",
    "COMMIT": "hand index, or H + revealed index",
    "ADD_MONEY": "- (one more dollar; first edition: one more Storehouse token in a War)",
    "FUND": "- (fund the excess Public Works token)",
    "CLOSE": "tableau position of the Public Works card to close",
    "MOVE_SEAT": "seat (absolute) whose tableau the next move is in",
    "MOVE_CARD": "source * (2T + 1) + target (position * 2 + side, or 2T = detach)",
    "MOVE_POP": "source position * T + destination position",
    "REMOVE_INFLUENCE": "loop space",
    "DISCARD_POP": "tableau position whose Population card is lost",
    "STORE": "number of Influence tokens stored on the card",
    "DISCARD_CARD": "tableau position of the card discarded for War strength (first "
                    "edition: of the loser's card the War winner takes)",
    "INSPIRE": "- (simulation: spend Storehouse tokens to draw a Folk Hero card)",
    "FOLK_HERO": "simulation: index of the Folk Hero card played from the hand",
}


def action_table(config: RulesConfig | None = None) -> ActionTable:
    """The action table for a rules configuration (its ``max_tableau``/``max_hand``)."""
    cfg = config if config is not None else RulesConfig.standard()
    return ActionTable(cfg.max_tableau, cfg.max_hand)


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


class ObservationEncoder:
    """Encode a game for one seat as a flat float32 vector of named slices.

    ``slices`` lists ``(name, shape, low, high, meaning)`` in vector order;
    ``offsets[name]`` is where a slice starts; ``low``/``high`` are the per-value bounds
    (arrays of size D) of the observation space. The values are written by the function
    :func:`singapore_env.encoding_writer.make_encode` builds from this layout.
    """

    #: every scaled count is capped at this (x its scale)
    cap = _CAP

    def __init__(self, content: Content | None = None, config: RulesConfig | None = None):
        self.cfg = cfg = config if config is not None else RulesConfig.standard()
        self.c = c = content if content is not None else default_content(cfg.slavery)
        b = c.board
        self.T, self.H = T, H = cfg.max_tableau, cfg.max_hand
        self.table = action_table(cfg)
        self.n_actions = len(self.table)

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


# ---------------------------------------------------------------- documentation tables
def action_table_markdown(table: ActionTable | None = None) -> str:
    """The action table as Markdown: kind, index range, number of args, arg meaning."""
    table = table if table is not None else action_table()
    lines = ["| kind | indices | args | arg meaning |", "|---|---|---|---|"]
    for kind in Kind:
        start, n = table.offset[int(kind)], table.sizes[kind]
        rng = f"{start}" if n == 1 else f"{start}–{start + n - 1}"
        lines.append(f"| `{kind.name}` ({int(kind)}) | {rng} | {n} | "
                     f"{ARG_MEANING.get(kind.name, '')} |")
    lines.append(f"| **total** | 0–{len(table) - 1} | **N = {len(table)}** | "
                 f"T = {table.max_tableau}, H = {table.max_hand} |")
    return "\n".join(lines)


def observation_markdown(encoder: ObservationEncoder | None = None) -> str:
    """The observation slices as Markdown: name, offset, shape, size, high, meaning."""
    enc = encoder if encoder is not None else ObservationEncoder()
    lines = ["| slice | offset | shape | size | range | meaning |",
             "|---|---|---|---|---|---|"]
    for name, shape, low, high, meaning in enc.slices:
        size = int(np.prod(shape))
        shp = "×".join(str(x) for x in shape)
        lines.append(f"| `{name}` | {enc.offsets[name]} | {shp} | {size} | "
                     f"{low:g}..{high:g} | {meaning} |")
    lines.append(f"| **total** | | | **D = {enc.size}** | | |")
    return "\n".join(lines)


def _replace_table(text: str, table: str) -> str:
    """Replace the Markdown table in ``text`` that has ``table``'s header line."""
    header = table.split("\n", 1)[0]
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == header)
    indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
    end = start
    while end < len(lines) and lines[end].strip().startswith("|"):
        end += 1
    lines[start:end] = [indent + line for line in table.split("\n")]
    return "\n".join(lines)


def update_docs() -> None:
    """Rewrite the two tables in this module's docstring and in ``docs/observation.md``."""
    from pathlib import Path
    enc = ObservationEncoder()
    tables = (action_table_markdown(enc.table), observation_markdown(enc))
    root = Path(__file__).resolve().parent
    for path in (root / "encoding.py", root.parent / "docs" / "observation.md"):
        text = path.read_text()
        for table in tables:
            text = _replace_table(text, table)
        path.write_text(text)
        print(f"updated {path}")


if __name__ == "__main__":  # pragma: no cover
    import sys
    if "--update-docs" in sys.argv:
        update_docs()
    else:
        enc = ObservationEncoder()
        print("## Action table\n")
        print(action_table_markdown(enc.table))
        print("\n## Observation slices\n")
        print(observation_markdown(enc))
