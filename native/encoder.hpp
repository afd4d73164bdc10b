// The observation and the action mask of one seat (singapore_env/encoding_writer.py,
// encoding_roles.py, encoding_first_edition.py): the same float32 values and int8 mask
// as the Python encoder. Every offset, index table and scale comes from the Python
// ObservationLayout (singapore_env/native_encoding.py builds the Layout record); the
// writer here holds only the formulas, each as the Python writer computes it.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "engine.hpp"

namespace sg {

// The slices the writer finds by name, in the order Layout::offsets holds them.
inline const std::vector<std::string> SLICE_NAMES = {
    "me", "round", "first_player", "turn_seat", "pending_kind", "pending_seat", "stack_kinds",
    "ships", "anglo_dutch", "event", "events_past", "event_deck", "market", "market_deck",
    "market_discard", "population_deck", "battle_decks", "leader_spaces", "outlawed",
    "district_open", "storehouse", "population", "public_works", "modifiers", "districts",
    "used_cards", "discount_used", "vp", "wealth", "hand_size", "wars_won", "revealed",
    "own_hand", "own_revealed", "tableau", "ctx_actions_left", "ctx_leader_space", "ctx_card",
    "ctx_keep", "ctx_search", "ctx_influence", "ctx_side", "ctx_moves", "ctx_count",
    "ctx_reroll", "ctx_raid", "ctx_decree", "war", "war_roles", "war_committed", "war_commits",
    "war_numbers", "conflict", "conflict_own", "roles", "storehouse_veto", "folk", "own_folk",
    "ctx_veto", "fe_raid", "fe_war", "fe_war_roles", "fe_committed", "fe_commits"};
enum Slice {
    O_ME, O_ROUND, O_FIRST, O_TURN, O_PKIND, O_PSEAT, O_STACK, O_SHIPS, O_AD, O_EVENT,
    O_EVPAST, O_EVDECK, O_MARKET, O_MDECK, O_MDISC, O_PDECK, O_BDECKS, O_LEADER, O_OUTLAW,
    O_OPEN, O_STORE, O_POP, O_PW, O_MODS, O_DIST, O_USED, O_DISC, O_VP, O_WEALTH, O_HAND,
    O_WARS, O_REV, O_OWNHAND, O_OWNREV, O_TAB, O_LEFT, O_LSPACE, O_CARD, O_KEEP, O_SEARCH,
    O_INFL, O_SIDE, O_MOVES, O_COUNT, O_REROLL, O_RAID, O_DECREE, O_WAR, O_ROLES,
    O_COMMITTED, O_COMMITS, O_WARNUM, O_CONFLICT, O_CONF_OWN, O_SIM_ROLES, O_SIM_VETO,
    O_FOLK, O_OWN_FOLK, O_VETO_ALLY, O_FE_RAID, O_FE_WAR, O_FE_ROLES, O_FE_COUNT, O_FE_KEYS,
    N_SLICES
};

// The Python layout's numbers (ObservationLayout and ActionTable), read once.
struct Layout {
    int D = 0, H = 0, T = 0, W = 0, BK = 0, MK = 0, TK = 0, FK = 0, rounds = 0, n_choose = 0;
    int n_actions = 0;
    bool has_roles = false;
    double inv_event = 0, inv_market = 0, inv_popdeck = 0, inv_battle = 0, inv_maxpop = 0,
           inv_pw = 0, inv_pops = 0, inv_actions = 0;
    std::array<int, N_SLICES> o{};
    Ids key, tkey, mkey, bkey, ekey, fkey;       // per card id (-1: not in the vocabulary)
    std::vector<std::pair<int, int>> loop_open;  // (faction, opens at) per closable district
    Ids pending_idx, stack_idx;                  // per frame kind (-1: none)
    Ids mod_idx, table_idx;                      // per modifier type, per conflict table
    Ids action_offset, action_size;              // per decision kind
};

// CONTEXT of encoding_writer.py: the frames whose topmost instance writes its context.
inline constexpr int CONTEXT_FRAMES[] = {F_ACTIONS, F_INFLUENCE, F_MOVES,  F_RAID,  F_DECREE,
                                         F_WAR,     F_CONFLICT,  F_RAID_FE, F_WAR_FE};

// The work space of Encoder::encode_nonzero: an observation's values and a bit for each
// entry written, all zero between calls.
struct NonzeroScratch {
    std::vector<float> values;
    std::vector<uint64_t> written;
};

// The index of the lowest set bit of b (b != 0).
inline int lowest_bit(uint64_t b) {
#if defined(__GNUC__)
    return __builtin_ctzll(b);
#else
    int i = 0;
    for (; !(b & 1); b >>= 1) ++i;
    return i;
#endif
}

class Encoder {
public:
    explicit Encoder(Layout layout) : L(std::move(layout)) {}
    const Layout& layout() const { return L; }

    // The observation of ``seat`` into ``out`` (L.D floats).
    void encode(const Game& g, int seat, float* out) const {
        std::fill(out, out + L.D, 0.0f);
        W_ w{out, L, g.state(), seat};
        w.all();
    }

    // The same observation as its nonzero entries: their indices, ascending, into
    // ``index`` and their values into ``value`` (what a scan of encode()'s vector finds),
    // without writing or scanning the whole vector: only the entries written, marked in
    // ``s`` (all zero between calls, as it is again on return).
    void encode_nonzero(const Game& g, int seat, NonzeroScratch& s, std::vector<int32_t>& index,
                        std::vector<float>& value) const {
        index.clear();
        value.clear();
        s.values.resize(L.D, 0.0f);
        s.written.resize((L.D + 63) / 64, 0);
        W_ w{s.values.data(), L, g.state(), seat, s.written.data()};
        struct Rezero {  // (on every way out, an exception's too)
            NonzeroScratch& s;
            ~Rezero() {
                for (size_t i = 0; i < s.written.size(); ++i) {
                    for (uint64_t b = s.written[i]; b; b &= b - 1) s.values[i * 64 + lowest_bit(b)] = 0.0f;
                    s.written[i] = 0;
                }
            }
        } rezero{s};
        w.all();
        for (size_t i = 0; i < s.written.size(); ++i)
            for (uint64_t b = s.written[i]; b; b &= b - 1) {
                const int k = (int)(i * 64) + lowest_bit(b);
                if (s.values[k] == 0.0f) continue;
                index.push_back(k);
                value.push_back(s.values[k]);
            }
    }

    // The legal decisions of ``seat`` over the action table into ``out`` (L.n_actions);
    // false if one lies outside the table (``bad`` is then that decision).
    bool mask(const Game& g, int seat, int8_t* out, Decision* bad) const {
        std::fill(out, out + L.n_actions, (int8_t)0);
        if (seat != g.acting_seat()) return true;
        for (const Decision& d : g.legal()) {
            if (d.kind < 0 || d.kind >= (int)L.action_size.size() || d.arg < 0 ||
                d.arg >= L.action_size[d.kind]) {
                *bad = d;
                return false;
            }
            out[L.action_offset[d.kind] + d.arg] = 1;
        }
        return true;
    }

private:
    Layout L;

    // One observation being written (the Python closure ``encode``).
    struct W_ {
        float* m;
        const Layout& L;
        const State& s;
        int seat;
        uint64_t* written = nullptr;  // where given, a bit for each index written (or read)
        std::array<int, 4> order{}, rel{};
        static constexpr double CAP = 10.0;

        float& at(int slice, int i) {
            const int k = L.o[slice] + i;
            if (k < 0 || k >= L.D) outside();
            if (written) written[k >> 6] |= uint64_t(1) << (k & 63);
            return m[k];
        }
        [[noreturn]] static void outside() {
            throw std::out_of_range("observation index outside the layout");
        }
        static double capped(double x, bool under) { return under ? x : CAP; }

        void all() {
            order = clockwise_from(seat);
            for (int r = 0; r < 4; ++r) rel[order[r]] = r;
            int fac = seat >> 1;
            at(O_ME, seat) = 1.0f;
            at(O_ROUND, std::min(s.round, L.rounds)) = 1.0f;
            at(O_FIRST, rel[s.first_player]) = 1.0f;
            if (s.turn_seat >= 0) at(O_TURN, rel[s.turn_seat]) = 1.0f;
            board(fac);
            seats();
            if (L.has_roles) roles();
            if (!s.stack.empty() && !s.game_over) pending();
        }

        void board(int fac) {
            at(O_SHIPS, s.ships) = 1.0f;
            if (s.anglo_dutch) at(O_AD, 0) = 1.0f;
            if (s.current_event >= 0) at(O_EVENT, L.ekey[s.current_event]) = 1.0f;
            for (int cid : s.event_discard) at(O_EVPAST, L.ekey[cid]) = 1.0f;
            at(O_EVDECK, 0) = (float)(s.event_deck.size() * L.inv_event);
            for (size_t j = 0; j < s.market.size(); ++j)
                if (s.market[j] >= 0) at(O_MARKET, (int)j * L.MK + L.mkey[s.market[j]]) = 1.0f;
            at(O_MDECK, 0) = (float)(s.market_deck.size() * L.inv_market);
            for (int cid : s.market_discard) {
                float& x = at(O_MDISC, L.mkey[cid]);
                if (x < CAP) x += 1.0f;
            }
            at(O_PDECK, 0) = (float)(s.population_deck.size() * L.inv_popdeck);
            at(O_BDECKS, 0) = (float)(s.battle_deck[fac].size() * L.inv_battle);
            at(O_BDECKS, 1) = (float)(s.battle_discard[fac].size() * L.inv_battle);
            at(O_BDECKS, 2) = (float)(s.battle_deck[1 - fac].size() * L.inv_battle);
            at(O_BDECKS, 3) = (float)(s.battle_discard[1 - fac].size() * L.inv_battle);
            for (size_t j = 0; j < s.leader_space.size(); ++j)
                if (s.leader_space[j] >= 0) at(O_LEADER, 4 * (int)j + rel[s.leader_space[j]]) = 1.0f;
            for (size_t j = 0; j < s.outlawed.size(); ++j)
                if (s.outlawed[j] >= 0) at(O_OUTLAW, 4 * (int)j + rel[s.outlawed[j]]) = 1.0f;
            for (size_t j = 0; j < L.loop_open.size(); ++j)
                if (s.population[L.loop_open[j].first] >= L.loop_open[j].second) at(O_OPEN, (int)j) = 1.0f;
            int x = s.storehouse[fac];
            at(O_STORE, 0) = (float)capped(x * 0.1, x < 100);
            x = s.storehouse[1 - fac];
            at(O_STORE, 1) = (float)capped(x * 0.1, x < 100);
            at(O_POP, 0) = (float)(s.population[fac] * L.inv_maxpop);
            at(O_POP, 1) = (float)(s.population[1 - fac] * L.inv_maxpop);
            if (!s.pw_track.empty()) {
                for (int r = 0; r < 4; ++r) {
                    x = (int)std::count(s.pw_track.begin(), s.pw_track.end(), order[r]);
                    if (x) at(O_PW, r) = (float)capped(x * 0.2, x < 50);
                }
                x = (int)s.pw_track.size();
                at(O_PW, 4) = (float)capped(x * L.inv_pw, x < 200);
            }
            for (const auto& [type, n] : s.modifiers) {
                int i = 2 * L.mod_idx[type];
                at(O_MODS, i) = 1.0f;
                double v = (double)at(O_MODS, i + 1) + n;
                at(O_MODS, i + 1) = (float)(-CAP < v && v < CAP ? v : (v > 0 ? CAP : -CAP));
            }
            for (size_t i = 0; i < s.districts.size(); ++i) {
                int n = s.districts[i];
                if (n) at(O_DIST, (int)(i & ~size_t(3)) + rel[i & 3]) = (float)capped(n * 0.2, n < 50);
            }
            for (int cid : s.used_cards) at(O_USED, L.key[cid]) = 1.0f;
            if (s.discount_used) at(O_DISC, 0) = 1.0f;
        }

        void seats() {
            const int TW = L.T * L.W, TK = L.TK;
            for (int r = 0; r < 4; ++r) {
                int p = order[r];
                int x = s.vp[p];
                if (x) at(O_VP, r) = (float)(-500 < x && x < 500 ? x * 0.02 : (x > 0 ? CAP : -CAP));
                x = s.wealth[p];
                if (x) at(O_WEALTH, r) = (float)capped(x * 0.05, x < 200);
                x = (int)s.hands[p].size();
                if (x) at(O_HAND, r) = (float)((double)x / L.H);
                x = s.wars_won[p];
                if (x) at(O_WARS, r) = (float)capped(x / 3.0, x < 30);
                for (int cid : s.revealed[p]) {
                    float& v = at(O_REV, r * L.BK + L.bkey[cid]);
                    if (v < CAP) v += 1.0f;
                }
                int b0 = r * TW;
                const auto& row = s.tableau[p];
                for (size_t j = 0; j < row.size() && (int)j < L.T; ++j, b0 += L.W) {
                    const Slot& slot = row[j];
                    at(O_TAB, b0 + L.tkey[slot.card]) = 1.0f;
                    if (!slot.up) at(O_TAB, b0 + TK + (slot.down == CLOSED ? 0 : 1)) = 1.0f;
                    if (slot.link) at(O_TAB, b0 + TK + 2) = 1.0f;
                    if (slot.activated) at(O_TAB, b0 + TK + 3) = 1.0f;
                    if (slot.searched) at(O_TAB, b0 + TK + 4) = 1.0f;
                    if (!slot.pops.empty()) at(O_TAB, b0 + TK + 5) = (float)(slot.pops.size() * L.inv_pops);
                    x = slot.stored;
                    if (x) at(O_TAB, b0 + TK + 6) = (float)capped(x * 0.25, x < 40);
                }
            }
            const auto& hand = s.hands[seat];
            for (size_t j = 0; j < hand.size() && (int)j < L.H; ++j) at(O_OWNHAND, (int)j * L.BK + L.bkey[hand[j]]) = 1.0f;
            const auto& rv = s.revealed[seat];
            for (size_t j = 0; j < rv.size() && (int)j < L.H; ++j) at(O_OWNREV, (int)j * L.BK + L.bkey[rv[j]]) = 1.0f;
        }

        void roles() {  // encoding_roles.py
            if (!s.stack.empty() && s.stack.back().kind == F_STOREHOUSE_VETO && !s.game_over)
                at(O_VETO_ALLY, rel[s.stack.back().ally]) = 1.0f;
            for (int r = 0; r < 4; ++r) {
                int p = order[r], role = s.roles[p];
                if (role >= 0) {
                    at(O_SIM_ROLES, 4 * r) = 1.0f;
                    if (s.roles_public || p == seat) at(O_SIM_ROLES, 4 * r + 1 + role) = 1.0f;
                }
                if (s.vetoed[p]) at(O_SIM_VETO, r) = 1.0f;
                int x = (int)s.folk_hands[p].size();
                if (x) at(O_FOLK, 2 + r) = (float)(x * (1.0 / L.H));
            }
            at(O_FOLK, 0) = (float)(s.folk_deck.size() / 10.0);
            at(O_FOLK, 1) = (float)(s.folk_discard.size() / 10.0);
            const auto& hand = s.folk_hands[seat];
            for (size_t j = 0; j < hand.size() && (int)j < L.H; ++j) at(O_OWN_FOLK, (int)j * L.FK + L.fkey[hand[j]]) = 1.0f;
        }

        void pending() {
            const auto& stack = s.stack;
            const Frame& f = stack.back();
            at(O_PKIND, L.pending_idx[f.kind]) = 1.0f;
            if (f.seat >= 0) at(O_PSEAT, rel[f.seat]) = 1.0f;
            for (const Frame& x : stack)
                if (L.stack_idx[x.kind] >= 0) at(O_STACK, L.stack_idx[x.kind]) = 1.0f;
            question(f);
            for (int kind : CONTEXT_FRAMES)
                for (size_t i = stack.size(); i-- > 0;)
                    if (stack[i].kind == kind) {
                        context(stack[i]);
                        break;
                    }
        }

        void question(const Frame& f) {
            switch (f.kind) {
                case F_LEADER_ACTION: at(O_LSPACE, f.space) = 1.0f; break;
                case F_CONNECT: case F_ATTACH_POP: at(O_CARD, L.key[f.card]) = 1.0f; break;
                case F_KEEP_BATTLE:
                    if (f.seat == seat)
                        for (size_t i = 0; i < f.ids.size(); ++i)
                            if (f.ids[i] >= 0) at(O_KEEP, (int)i * L.BK + L.bkey[f.ids[i]]) = 1.0f;
                    break;
                case F_SEARCH_PICK:
                    if (f.seat == seat)
                        for (size_t i = 0; i < f.ids.size() && (int)i < L.n_choose; ++i)
                            at(O_SEARCH, (int)i * L.MK + L.mkey[f.ids[i]]) = 1.0f;
                    break;
                case F_WAR_JOIN: case F_WAR_ACCEPT: at(O_SIDE, f.side) = 1.0f; break;
                case F_LOSE_POP: at(O_COUNT, 0) = (float)capped(f.n / 3.0, f.n < 30); break;
                case F_REMOVE_INFLUENCE: at(O_COUNT, 1) = (float)capped(f.n / 3.0, f.n < 30); break;
                case F_FUND_CLOSE: at(O_COUNT, 2) = (float)capped(f.index * 0.05, f.index < 200); break;
                case F_REROLL: {
                    bool one = f.parent == F_RAID || f.parent == F_RAID_FE;
                    at(O_REROLL, 0) = (float)(f.dice < 2 ? f.dice * 0.5 : 1.0);
                    if (!one) at(O_REROLL, 1) = 1.0f;
                    at(O_REROLL, one ? 2 : 3 + f.field) = 1.0f;
                    const Frame* parent = nullptr;
                    for (size_t i = s.stack.size(); i-- > 0;)
                        if (s.stack[i].kind == f.parent) {
                            parent = &s.stack[i];
                            break;
                        }
                    double top = parent->d4 ? 0.25 : 0.5;
                    const auto& faces = parent->faces[one ? 0 : f.field];
                    for (size_t j = 0; j < faces.size() && j < 2; ++j) at(O_REROLL, 5 + (int)j) = (float)(faces[j] * top);
                    break;
                }
                default: break;
            }
        }

        void context(const Frame& f) {
            switch (f.kind) {
                case F_ACTIONS: at(O_LEFT, 0) = (float)(f.left * L.inv_actions); break;
                case F_INFLUENCE:
                    at(O_INFL, 0) = (float)capped(f.n * 0.2, f.n < 50);
                    if (f.asking) at(O_INFL, 1) = 1.0f;
                    if (f.store_asked) at(O_INFL, 2) = 1.0f;
                    if (f.pos >= 0) {
                        at(O_INFL, 3) = 1.0f;
                        at(O_INFL, 4 + f.pos) = 1.0f;
                    }
                    break;
                case F_MOVES:
                    at(O_MOVES, 0) = (float)capped(f.n / 3.0, f.n < 30);
                    if (!f.scope_any) {
                        at(O_MOVES, 2 + rel[f.seat]) = 1.0f;
                    } else {
                        at(O_MOVES, 1) = 1.0f;
                        if (f.target >= 0) at(O_MOVES, 2 + rel[f.target]) = 1.0f;
                    }
                    break;
                case F_RAID:
                    at(O_RAID, 0) = 1.0f;
                    at(O_RAID, 1) = (float)capped(f.rolls[0] * 0.5, f.rolls[0] < 20);
                    at(O_RAID, 2) = (float)capped(f.hinder * 0.5, f.hinder < 20);
                    at(O_RAID, 3 + rel[f.seat]) = 1.0f;
                    break;
                case F_DECREE:
                    at(O_DECREE, 0) = 1.0f;
                    if (f.vetoed) at(O_DECREE, 1) = 1.0f;
                    at(O_DECREE, 2 + rel[f.seat]) = 1.0f;
                    at(O_DECREE, 6 + f.vice) = 1.0f;
                    break;
                case F_WAR: war(f); break;
                case F_RAID_FE: case F_WAR_FE: first_edition(f); break;
                case F_CONFLICT: conflict(f); break;
                default: break;
            }
        }

        static double signed_capped(int x) {  // x / 10, below 0 as 0, capped
            return 0 <= x && x < 100 ? x * 0.1 : (x > 0 ? CAP : 0.0);
        }

        void conflict(const Frame& f) {
            at(O_CONFLICT, 0) = 1.0f;
            at(O_CONFLICT, 1) = (float)capped(f.strength * 0.1, f.strength < 100);
            at(O_CONFLICT, 2) = (float)capped(f.dice * 0.25, f.dice < 40);
            at(O_CONFLICT, 3) = (float)signed_capped(f.plus);
            at(O_CONFLICT, 4) = (float)capped(f.base * 0.2, f.base < 50);
            at(O_CONFLICT, 5) = (float)(f.per < CAP ? (double)f.per : CAP);
            if (f.phase == CONFLICT_REVEAL) at(O_CONFLICT, 6) = 1.0f;
            if (L.table_idx[f.table] >= 0) at(O_CONFLICT, 7 + L.table_idx[f.table]) = 1.0f;
            for (int cid : f.cards[seat]) {
                float& v = at(O_CONF_OWN, L.bkey[cid]);
                if (v < CAP) v += 1.0f;
            }
            int x = f.money[seat];
            if (x) at(O_CONF_OWN, L.BK) = (float)capped(x * 0.1, x < 100);
            x = (int)f.boosts[seat].size();
            if (x) at(O_CONF_OWN, L.BK + 1) = (float)(x < CAP ? (double)x : CAP);
        }

        void war(const Frame& f) {
            at(O_WAR, 0) = 1.0f;
            if (f.joined[0]) at(O_WAR, 1) = 1.0f;
            if (f.joined[1]) at(O_WAR, 2) = 1.0f;
            at(O_WAR, 3 + std::min(f.phase, (int)WAR_END)) = 1.0f;
            at(O_ROLES, rel[f.seat]) = 1.0f;
            at(O_ROLES, 4 + rel[f.defender]) = 1.0f;
            if (f.allies[0] >= 0) at(O_ROLES, 8 + rel[f.allies[0]]) = 1.0f;
            if (f.allies[1] >= 0) at(O_ROLES, 12 + rel[f.allies[1]]) = 1.0f;
            if (f.victor >= 0) at(O_ROLES, 16 + rel[f.victor]) = 1.0f;
            if (f.loser >= 0) at(O_ROLES, 20 + rel[f.loser]) = 1.0f;
            bool shown = f.phase >= WAR_SPOILS;
            for (int p = 0; p < 4; ++p) {
                int cid = f.commits[p];
                if (cid < 0) continue;
                at(O_COMMITTED, rel[p]) = 1.0f;
                if (shown || p == seat) at(O_COMMITS, rel[p] * L.BK + L.bkey[cid]) = 1.0f;
            }
            for (int p = 0; p < 4; ++p)
                if (f.bonus[p]) at(O_WARNUM, rel[p]) = (float)capped(f.bonus[p] / 3.0, f.bonus[p] < 30);
            at(O_WARNUM, 4) = (float)capped(f.rolls[0] * 0.25, f.rolls[0] < 40);
            at(O_WARNUM, 5) = (float)capped(f.rolls[1] * 0.25, f.rolls[1] < 40);
            at(O_WARNUM, 6) = (float)capped(f.cap * 0.1, f.cap < 100);
            at(O_WARNUM, 7) = (float)capped(f.k * 0.1, f.k < 100);
            if (f.has_totals) {
                at(O_WARNUM, 8) = (float)signed_capped(f.totals[0]);
                at(O_WARNUM, 9) = (float)signed_capped(f.totals[1]);
            }
            at(O_WARNUM, 10) = (float)capped(f.paid * 0.1, f.paid < 100);
            if (f.share >= 0) at(O_WARNUM, 11 + f.share) = 1.0f;
        }

        static float scaled(int x, double scale) { return (float)std::min(x / scale, CAP); }

        void first_edition(const Frame& f) {  // encoding_first_edition.py
            for (int p = 0; p < 4; ++p) {
                const auto& cards = f.cards[p];
                if (cards.empty()) continue;
                int r = rel[p];
                at(O_FE_COUNT, r) = scaled((int)cards.size(), 3.0);
                if (f.shown || p == seat)
                    for (int cid : cards) at(O_FE_KEYS, r * L.BK + L.bkey[cid]) += 1.0f;
            }
            if (f.kind == F_RAID_FE) {
                at(O_FE_RAID, 0) = 1.0f;
                if (f.phase == RAID_FE_RESOLVE) at(O_FE_RAID, 1) = 1.0f;
                at(O_FE_RAID, 2) = scaled(f.rolls[0], 8.0);
                at(O_FE_RAID, 3) = scaled(f.hinder, 2.0);
                if (f.intervener >= 0) at(O_FE_RAID, 4 + rel[f.intervener]) = 1.0f;
                return;
            }
            at(O_FE_WAR, 0) = 1.0f;
            const int values[] = {f.tokens[0], f.tokens[1], f.rolls[0], f.rolls[1],
                                  f.totals[0], f.totals[1], f.due};
            const double scales[] = {10, 10, 4, 4, 10, 10, 10};
            for (int i = 0; i < 7; ++i) at(O_FE_WAR, 1 + i) = scaled(values[i], scales[i]);
            at(O_FE_WAR, 8) = (float)f.shown;
            at(O_FE_WAR, 9 + std::min(f.phase, (int)WAR_FE_END)) = 1.0f;
            at(O_FE_ROLES, rel[f.seat]) = 1.0f;
            at(O_FE_ROLES, 4 + rel[f.defender]) = 1.0f;
            if (f.victor >= 0) {
                at(O_FE_ROLES, 8 + rel[f.victor]) = 1.0f;
                at(O_FE_ROLES, 12 + rel[f.loser]) = 1.0f;
            }
        }
    };
};

}  // namespace sg
