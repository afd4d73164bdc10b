"""The observation writer: the function that fills an observation vector from a game.

:class:`singapore_env.encoding.layout.ObservationLayout` lays out the vector (its named
slices, offsets, vocabularies and bounds); :func:`make_encode` turns that layout into the
function the encoder calls for every observation, finding every slice by its offset
there. The two are kept apart because the writer is
built for speed (see :func:`make_encode`) while the layout is built for reading.
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter

import numpy as np

from . import first_edition
from ..engine.decisions import N_CHOOSE
from ..engine.frames import ConflictPhase, WarPhase
from .roles import make_role_encoder
from ..engine.rulesets import ruleset_of


def make_encode(enc):
    """Build the encoder as a closure over constants (offsets, key tables).

    The encoder runs at every env step, so it avoids per-call lookups: offsets are
    closure constants, values are written through a memoryview (only the nonzero
    ones), the districts are walked with ``itertools.compress`` and a few
    slow-changing derived parts (the Market discard counts, the stack's frame kinds,
    the open districts) are memoized on exact keys.
    """
    o = enc.offsets
    cfg = enc.cfg
    D, H, T, W = enc.size, enc.H, enc.T, enc.slot_width
    BK, MK, TK = len(enc.battle_keys), len(enc.market_keys), len(enc.tableau_keys)
    bkey, key, mkey, ekey, tkey = enc._bkey, enc._key, enc._mkey, enc._ekey, enc._tkey
    REL, ORDER = tuple(enc._rel), tuple(enc._order)
    ROUNDS = enc.rounds
    PENDING = enc._pending_idx
    MOD = enc._mod_idx
    TABLES = enc._table_idx
    REROLL = enc._reroll_field
    CAP = enc.cap
    INV_EVENT, INV_MARKET = 1.0 / enc._event_deck, 1.0 / enc._market_deck
    INV_POPDECK, INV_BATTLE = 1.0 / enc._pop_deck, 1.0 / enc._battle_deck
    INV_MAXPOP, INV_PW = 1.0 / enc._max_pop, 1.0 / enc._pw_total
    INV_POPS, INV_ACTIONS = 1.0 / enc._pop_scale, 1.0 / max(1, cfg.actions_per_turn)
    LOOP_OPEN = enc._loop_open
    N_DIST = 4 * enc.n_loop
    RANGE_DIST = range(N_DIST)
    CONTEXT = ("actions", "influence", "moves", "raid", "decree", "war", "conflict",
               *first_edition.CONTEXT)
    fe_encode = first_edition.make_encoder(o, bkey, BK)
    STACK_IDX = enc._stack_idx
    kind_of = attrgetter("kind")
    compress_ = compress
    zeros, f32 = np.zeros, np.float32

    O_ME, O_ROUND, O_FIRST, O_TURN = o["me"], o["round"], o["first_player"], o["turn_seat"]
    O_PKIND, O_PSEAT, O_STACK = o["pending_kind"], o["pending_seat"], o["stack_kinds"]
    O_SHIPS, O_AD, O_EVENT = o["ships"], o["anglo_dutch"], o["event"]
    O_EVPAST, O_EVDECK, O_MODS = o["events_past"], o["event_deck"], o["modifiers"]
    O_MARKET, O_MDECK, O_MDISC = o["market"], o["market_deck"], o["market_discard"]
    O_PDECK, O_BDECKS, O_LEADER = o["population_deck"], o["battle_decks"], o["leader_spaces"]
    O_OUTLAW, O_DIST, O_OPEN = o["outlawed"], o["districts"], o["district_open"]
    O_STORE, O_POP, O_PW = o["storehouse"], o["population"], o["public_works"]
    O_USED, O_DISC = o["used_cards"], o["discount_used"]
    O_VP, O_WEALTH, O_HAND, O_WARS = o["vp"], o["wealth"], o["hand_size"], o["wars_won"]
    O_REV, O_OWNHAND, O_OWNREV, O_TAB = (o["revealed"], o["own_hand"], o["own_revealed"],
                                         o["tableau"])
    O_LEFT, O_LSPACE, O_CARD = o["ctx_actions_left"], o["ctx_leader_space"], o["ctx_card"]
    O_KEEP, O_SEARCH, O_INFL = o["ctx_keep"], o["ctx_search"], o["ctx_influence"]
    O_SIDE, O_MOVES, O_COUNT = o["ctx_side"], o["ctx_moves"], o["ctx_count"]
    O_REROLL, O_RAID, O_DECREE = o["ctx_reroll"], o["ctx_raid"], o["ctx_decree"]
    O_WAR, O_ROLES, O_COMMITTED = o["war"], o["war_roles"], o["war_committed"]
    O_COMMITS, O_WARNUM = o["war_commits"], o["war_numbers"]
    O_CONFLICT, O_CONF_OWN = o["conflict"], o["conflict_own"]
    encode_roles = make_role_encoder(o, enc._fkey, H, ORDER) \
        if ruleset_of(cfg).has_roles else None
    TW = T * W
    J_CLOSED, J_OUTLAWED, J_LINK, J_ACT, J_SEARCHED, J_POPS, J_STORED = range(TK, W)

    # memo tables (exact keys; cleared when they grow large)
    pile_memo: dict = {}
    stack_memo: dict = {}
    open_memo: dict = {}
    MEMO_SIZE = 4096

    def count_pile(cards: tuple, offset: int, index) -> tuple:
        """((position, count) ...) of a pile of card ids counted per key."""
        counts: dict[int, float] = {}
        for cid in cards:
            i = offset + index[cid]
            counts[i] = counts.get(i, 0.0) + 1.0
        return tuple((i, n if n < CAP else CAP) for i, n in counts.items())

    def pile(cards: list, offset: int, index):
        k = (offset, *cards)
        r = pile_memo.get(k)
        if r is None:
            if len(pile_memo) >= MEMO_SIZE:
                pile_memo.clear()
            r = pile_memo[k] = count_pile(k[1:], offset, index)
        return r

    def stack_info(stack) -> tuple:
        kinds = tuple(map(kind_of, stack))
        r = stack_memo.get(kinds)
        if r is None:
            if len(stack_memo) >= MEMO_SIZE:
                stack_memo.clear()
            top: dict[str, int] = {}
            for i in range(len(kinds) - 1, -1, -1):
                top.setdefault(kinds[i], i)
            hot = tuple(O_STACK + STACK_IDX[k] for k in top if k in STACK_IDX)
            ctx = tuple((k, top[k]) for k in CONTEXT if k in top)
            r = stack_memo[kinds] = (hot, ctx)
        return r

    def open_spaces(pop: list) -> tuple:
        k = (pop[0], pop[1])
        r = open_memo.get(k)
        if r is None:
            r = open_memo[k] = tuple(O_OPEN + i for i, (f, opens) in enumerate(LOOP_OPEN)
                                     if k[f] >= opens)
        return r

    def encode(game, seat: int, out=None):
        if out is None:
            out = zeros(D, f32)
        else:
            out.fill(0.0)
        m = memoryview(out)
        s = game.s
        rel = REL[seat]
        order = ORDER[seat]
        fac = seat >> 1

        # who and when
        m[O_ME + seat] = 1.0
        x = s.round
        m[O_ROUND + (x if x <= ROUNDS else ROUNDS)] = 1.0
        m[O_FIRST + rel[s.first_player]] = 1.0
        if s.turn_seat >= 0:
            m[O_TURN + rel[s.turn_seat]] = 1.0
        stack = s.stack
        pending = stack[-1] if stack and not s.game_over else None

        # board
        m[O_SHIPS + s.ships] = 1.0
        if s.anglo_dutch:
            m[O_AD] = 1.0
        if s.current_event >= 0:
            m[O_EVENT + ekey[s.current_event]] = 1.0
        for cid in s.event_discard:
            m[O_EVPAST + ekey[cid]] = 1.0
        m[O_EVDECK] = len(s.event_deck) * INV_EVENT
        i = O_MARKET
        for cid in s.market:
            if cid >= 0:
                m[i + mkey[cid]] = 1.0
            i += MK
        m[O_MDECK] = len(s.market_deck) * INV_MARKET
        if s.market_discard:
            for i, n in pile(s.market_discard, O_MDISC, mkey):
                m[i] = n
        m[O_PDECK] = len(s.population_deck) * INV_POPDECK
        bd, bdis = s.battle_deck, s.battle_discard
        m[O_BDECKS] = len(bd[fac]) * INV_BATTLE
        m[O_BDECKS + 1] = len(bdis[fac]) * INV_BATTLE
        m[O_BDECKS + 2] = len(bd[1 - fac]) * INV_BATTLE
        m[O_BDECKS + 3] = len(bdis[1 - fac]) * INV_BATTLE
        i = O_LEADER
        for p in s.leader_space:
            if p >= 0:
                m[i + rel[p]] = 1.0
            i += 4
        if s.outlawed.count(-1) != len(s.outlawed):
            i = O_OUTLAW
            for p in s.outlawed:
                if p >= 0:
                    m[i + rel[p]] = 1.0
                i += 4
        pop = s.population
        for i in open_spaces(pop):
            m[i] = 1.0
        x = s.storehouse[fac]
        m[O_STORE] = x * 0.1 if x < 100 else CAP
        x = s.storehouse[1 - fac]
        m[O_STORE + 1] = x * 0.1 if x < 100 else CAP
        m[O_POP] = pop[fac] * INV_MAXPOP
        m[O_POP + 1] = pop[1 - fac] * INV_MAXPOP
        pw = s.pw_track
        if pw:
            for r in range(4):
                x = pw.count(order[r])
                if x:
                    m[O_PW + r] = x * 0.2 if x < 50 else CAP
            x = len(pw)
            m[O_PW + 4] = x * INV_PW if x < 200 else CAP
        if s.modifiers:
            for t, n in s.modifiers:
                i = O_MODS + 2 * MOD[t]
                m[i] = 1.0
                x = m[i + 1] + n
                m[i + 1] = x if -CAP < x < CAP else (CAP if x > 0 else -CAP)
        dist = s.districts
        for i in compress_(RANGE_DIST, dist):
            n = dist[i]
            m[O_DIST + (i & ~3) + rel[i & 3]] = n * 0.2 if n < 50 else CAP
        if s.used_cards:
            for cid in s.used_cards:
                m[O_USED + key[cid]] = 1.0
        if s.discount_used:
            m[O_DISC] = 1.0

        # seats, in relative order
        vp, wealth, wars = s.vp, s.wealth, s.wars_won
        hands, revealed, tableau = s.hands, s.revealed, s.tableau
        for r in range(4):
            p = order[r]
            x = vp[p]
            if x:
                m[O_VP + r] = x * 0.02 if -500 < x < 500 else (CAP if x > 0 else -CAP)
            x = wealth[p]
            if x:
                m[O_WEALTH + r] = x * 0.05 if x < 200 else CAP
            x = len(hands[p])
            if x:
                m[O_HAND + r] = x / H
            x = wars[p]
            if x:
                m[O_WARS + r] = x / 3.0 if x < 30 else CAP
            rv = revealed[p]
            if rv:
                b0 = O_REV + r * BK
                for cid in rv:
                    i = b0 + bkey[cid]
                    if m[i] < CAP:
                        m[i] = m[i] + 1.0
            b0 = O_TAB + r * TW
            row = tableau[p]
            if len(row) > T:
                row = row[:T]
            for slot in row:
                m[b0 + tkey[slot.card]] = 1.0
                if not slot.up:
                    m[b0 + (J_CLOSED if slot.down == "closed" else J_OUTLAWED)] = 1.0
                if slot.link:
                    m[b0 + J_LINK] = 1.0
                if slot.activated:
                    m[b0 + J_ACT] = 1.0
                if slot.searched:
                    m[b0 + J_SEARCHED] = 1.0
                if slot.pops:
                    m[b0 + J_POPS] = len(slot.pops) * INV_POPS
                x = slot.stored
                if x:
                    m[b0 + J_STORED] = x * 0.25 if x < 40 else CAP
                b0 += W
        i = O_OWNHAND
        for cid in hands[seat][:H]:
            m[i + bkey[cid]] = 1.0
            i += BK
        i = O_OWNREV
        for cid in revealed[seat][:H]:
            m[i + bkey[cid]] = 1.0
            i += BK

        if encode_roles is not None:
            encode_roles(m, s, seat)

        # the pending question and its context
        if pending is None:
            return out
        m[O_PKIND + PENDING[pending.kind]] = 1.0
        if pending.seat >= 0:
            m[O_PSEAT + rel[pending.seat]] = 1.0
        hot, ctx = stack_info(stack)
        for i in hot:
            m[i] = 1.0
        kind, d = pending.kind, pending.d
        if kind == "leader_action":
            m[O_LSPACE + d.space] = 1.0
        elif kind == "connect" or kind == "attach_pop":
            m[O_CARD + key[d.card]] = 1.0
        elif kind == "keep_battle":
            if pending.seat == seat:
                for i, cid in enumerate(d.cards):
                    if cid >= 0:
                        m[O_KEEP + i * BK + bkey[cid]] = 1.0
        elif kind == "search_pick":
            if pending.seat == seat:
                for i, cid in enumerate(d.options[:N_CHOOSE]):
                    m[O_SEARCH + i * MK + mkey[cid]] = 1.0
        elif kind == "war_join" or kind == "war_accept":
            m[O_SIDE + d.side] = 1.0
        elif kind == "lose_pop":
            x = d.n
            m[O_COUNT] = x / 3.0 if x < 30 else CAP
        elif kind == "remove_influence":
            x = d.n
            m[O_COUNT + 1] = x / 3.0 if x < 30 else CAP
        elif kind == "fund_close":
            x = d.index
            m[O_COUNT + 2] = x * 0.05 if x < 200 else CAP
        elif kind == "reroll":
            x = d.dice
            m[O_REROLL] = x * 0.5 if x < 2 else 1.0
            if d.parent != "raid" and d.parent != "raid_fe":
                m[O_REROLL + 1] = 1.0
            m[O_REROLL + REROLL.get(d.field, 2)] = 1.0
            parent = next(x for x in reversed(stack) if x.kind == d.parent).d
            top = 0.25 if parent.die == "d4" else 0.5  # 1 / the top face
            for j, face in enumerate(parent.faces(d.field)[:2]):
                m[O_REROLL + 5 + j] = face * top
        for kind, i in ctx:
            f = stack[i]
            d = f.d
            if kind == "actions":
                m[O_LEFT] = d.left * INV_ACTIONS
            elif kind == "influence":
                x = d.n
                m[O_INFL] = x * 0.2 if x < 50 else CAP
                if d.asking:
                    m[O_INFL + 1] = 1.0
                if d.store_asked:
                    m[O_INFL + 2] = 1.0
                if d.pos >= 0:
                    m[O_INFL + 3] = 1.0
                    m[O_INFL + 4 + d.pos] = 1.0
            elif kind == "moves":
                x = d.n
                m[O_MOVES] = x / 3.0 if x < 30 else CAP
                if d.scope == "own":
                    m[O_MOVES + 2 + rel[f.seat]] = 1.0
                else:
                    m[O_MOVES + 1] = 1.0
                    if d.target >= 0:
                        m[O_MOVES + 2 + rel[d.target]] = 1.0
            elif kind == "raid":
                m[O_RAID] = 1.0
                x = d.roll
                m[O_RAID + 1] = x * 0.5 if x < 20 else CAP
                x = d.hinder
                m[O_RAID + 2] = x * 0.5 if x < 20 else CAP
                m[O_RAID + 3 + rel[f.seat]] = 1.0
            elif kind == "decree":
                m[O_DECREE] = 1.0
                if d.vetoed:
                    m[O_DECREE + 1] = 1.0
                m[O_DECREE + 2 + rel[f.seat]] = 1.0
                m[O_DECREE + 6 + d.vice] = 1.0
            elif kind == "war":
                war(m, f, seat, rel)
            elif kind in first_edition.CONTEXT:
                fe_encode(m, f, seat, rel)
            else:  # conflict
                m[O_CONFLICT] = 1.0
                x = d.strength
                m[O_CONFLICT + 1] = x * 0.1 if x < 100 else CAP
                x = d.dice
                m[O_CONFLICT + 2] = x * 0.25 if x < 40 else CAP
                x = d.plus
                m[O_CONFLICT + 3] = x * 0.1 if 0 <= x < 100 else (CAP if x > 0 else 0.0)
                x = d.base
                m[O_CONFLICT + 4] = x * 0.2 if x < 50 else CAP
                x = d.per
                m[O_CONFLICT + 5] = x if x < CAP else CAP
                if d.phase == ConflictPhase.REVEAL:
                    m[O_CONFLICT + 6] = 1.0
                i = TABLES.get(d.table)
                if i is not None:
                    m[O_CONFLICT + 7 + i] = 1.0
                for cid in d.cards[seat]:
                    i = O_CONF_OWN + bkey[cid]
                    if m[i] < CAP:
                        m[i] = m[i] + 1.0
                x = d.money[seat]
                if x:
                    m[O_CONF_OWN + BK] = x * 0.1 if x < 100 else CAP
                x = len(d.boosts[seat])
                if x:
                    m[O_CONF_OWN + BK + 1] = x if x < CAP else CAP
        return out

    def war(m, f, seat: int, rel) -> None:
        d = f.d
        m[O_WAR] = 1.0
        joined = d.joined
        if joined[0]:
            m[O_WAR + 1] = 1.0
        if joined[1]:
            m[O_WAR + 2] = 1.0
        phase = d.phase
        m[O_WAR + 3 + min(phase, WarPhase.END)] = 1.0
        m[O_ROLES + rel[f.seat]] = 1.0
        m[O_ROLES + 4 + rel[d.defender]] = 1.0
        allies = d.allies
        if allies[0] >= 0:
            m[O_ROLES + 8 + rel[allies[0]]] = 1.0
        if allies[1] >= 0:
            m[O_ROLES + 12 + rel[allies[1]]] = 1.0
        if d.victor >= 0:
            m[O_ROLES + 16 + rel[d.victor]] = 1.0
        if d.loser >= 0:
            m[O_ROLES + 20 + rel[d.loser]] = 1.0
        shown = phase >= WarPhase.SPOILS  # the totals are computed: commits are face up
        for p, cid in enumerate(d.commits):
            if cid >= 0:
                r = rel[p]
                m[O_COMMITTED + r] = 1.0
                if shown or p == seat:
                    m[O_COMMITS + r * BK + bkey[cid]] = 1.0
        for p, x in enumerate(d.bonus):
            if x:
                m[O_WARNUM + rel[p]] = x / 3.0 if x < 30 else CAP
        x = d.roll0
        m[O_WARNUM + 4] = x * 0.25 if x < 40 else CAP
        x = d.roll1
        m[O_WARNUM + 5] = x * 0.25 if x < 40 else CAP
        x = d.cap
        m[O_WARNUM + 6] = x * 0.1 if x < 100 else CAP
        x = d.k
        m[O_WARNUM + 7] = x * 0.1 if x < 100 else CAP
        totals = d.totals
        if totals:
            x = totals[0]
            m[O_WARNUM + 8] = x * 0.1 if 0 <= x < 100 else (CAP if x > 0 else 0.0)
            x = totals[1]
            m[O_WARNUM + 9] = x * 0.1 if 0 <= x < 100 else (CAP if x > 0 else 0.0)
        x = d.paid
        m[O_WARNUM + 10] = x * 0.1 if x < 100 else CAP
        if d.share >= 0:
            m[O_WARNUM + 11 + d.share] = 1.0

    return encode
