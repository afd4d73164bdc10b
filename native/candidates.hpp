// The candidate features of every legal decision and the seats' projected final VP, for
// action-aware (pointer) policies: singapore_env/candidates.py, value for value.
#pragma once

#include <vector>

#include "engine.hpp"

namespace sg {

// Columns of a candidate row (candidates.py FEATURES); the prior's two columns follow
// these, written from a prior's scores (write_prior).
enum { CF_LEGAL, CF_HAS_CARD, CF_PRICE, CF_AFFORDABLE, CF_CARD_UP, CF_POPS, CF_ACTIVATED,
       CF_NAMES_MATE, CF_NAMES_OPPONENT, CF_WRITTEN, CF_PRIOR_SCORE = CF_WRITTEN, CF_PRIOR_GAP };

struct CandidateWriter {
    std::vector<int> offset, size;  // the action table's offset and size per decision kind
    int n_actions = 0, n_features = 0, max_tableau = 0;

    // card[a]: card id + 1 of the card action a names (0: none); feats[a * n_features + k]:
    // column k. Rows of actions that are not legal now, and every row when ``seat`` does
    // not act, are zero (with ``clear`` false they are left as they are: the caller's
    // rows are zero already, and it clears the legal rows after use).
    void write(const Game& g, int seat, float* card, float* feats, bool clear = true) const {
        if (clear) {
            std::fill(card, card + n_actions, 0.0f);
            std::fill(feats, feats + (size_t)n_actions * n_features, 0.0f);
        }
        if (seat != g.acting_seat()) return;
        const State& s = g.s_;
        const Frame& pending = s.stack.back();
        int owner = seat;
        if (pending.kind == F_FE_PLUNDER) owner = war_fe_loser(s);  // the loser's cards are named
        const Row& row = s.tableau[owner];
        const int T = max_tableau, H = g.cfg().max_hand;
        for (const Decision& d : g.legal()) {
            int a = index(d);
            float* f = feats + (size_t)a * n_features;
            f[CF_LEGAL] = 1.0f;
            int cid = -1, cost = -1;
            const Slot* slot = nullptr;
            switch (d.kind) {
                case BUY_MARKET:
                    cid = item(s.market, d.arg);
                    cost = pending.kind == F_BOOM_PICK ? 0 : g.price_function(seat)(cid).first;
                    break;
                case REBUILD:
                    slot = &row[item_index(row, d.arg)];
                    cid = slot->card;
                    cost = g.price_function(seat, false)(cid).first;
                    break;
                case ACTIVATE: case ATTACH_POP: case CLOSE: case SEARCH: case DISCARD_POP:
                case DISCARD_CARD: case CONNECT: case MOVE_CARD: {
                    int pos = d.kind == CONNECT ? d.arg / 2 : d.kind == MOVE_CARD ? d.arg / (2 * T + 1) : d.arg;
                    if (pos < (int)row.size()) {
                        slot = &row[pos];
                        cid = slot->card;
                    }
                    break;
                }
                case BUY_BATTLE: cost = g.cfg().battle_card_price; break;
                case REVEAL: cid = item(s.hands[seat], d.arg); break;
                case FOLK_HERO: cid = item(s.folk_hands[seat], d.arg); break;
                case COMMIT: cid = d.arg < H ? item(s.hands[seat], d.arg) : item(s.revealed[seat], d.arg - H); break;
                case KEEP_BATTLE: cid = item(pending.ids, d.arg); break;
                case WAR: case MOVE_SEAT:
                    if (d.arg != seat) {
                        bool is_mate = faction(d.arg) == faction(seat);
                        f[CF_NAMES_MATE] = is_mate ? 1.0f : 0.0f;
                        f[CF_NAMES_OPPONENT] = is_mate ? 0.0f : 1.0f;
                    }
                    break;
                default: break;
            }
            if (cid >= 0) {
                card[a] = (float)(cid + 1);
                f[CF_HAS_CARD] = 1.0f;
            }
            if (cost >= 0) {
                f[CF_PRICE] = (float)(cost / 10.0);
                f[CF_AFFORDABLE] = cost <= s.wealth[seat] ? 1.0f : 0.0f;
            }
            if (slot) {
                f[CF_CARD_UP] = slot->up ? 1.0f : 0.0f;
                f[CF_POPS] = (float)(slot->pops.size() / 4.0);
                f[CF_ACTIVATED] = slot->activated ? 1.0f : 0.0f;
            }
        }
    }

    // The prior's columns of the rows of its scored decisions (candidates.py
    // _prior_columns): prior_score = score / scale, prior_gap = max(floor, (score - best)
    // / scale), in double as Python computes them, then rounded to float32.
    void write_prior(const std::vector<std::pair<double, Decision>>& scored, double scale, double floor,
                     float* feats) const {
        if (scored.empty()) return;
        if (n_features <= CF_PRIOR_GAP) throw std::invalid_argument("the candidate rows have no prior columns");
        double best = scored[0].first;
        for (const auto& [v, d] : scored) best = std::max(best, v);
        for (const auto& [v, d] : scored) {
            float* f = feats + (size_t)index(d) * n_features;
            f[CF_PRIOR_SCORE] = (float)(v / scale);
            f[CF_PRIOR_GAP] = (float)std::max(floor, (v - best) / scale);
        }
    }

    // Every seat's projected final VP / 50, ``seat`` first, then clockwise.
    static void projected_vp(const Game& g, int seat, float* out) {
        std::array<int, 4> order = clockwise_from(seat);
        for (int r = 0; r < 4; ++r) out[r] = (float)(g.projected_final_vp(order[r]) / 50.0);
    }

private:
    // A list's index, checked (a decision's argument names a place in the state).
    template <class List>
    static size_t item_index(const List& list, int i) {
        if (i < 0 || i >= (int)list.size())
            throw std::out_of_range("a decision names place " + std::to_string(i) + " of a list of " +
                                    std::to_string(list.size()));
        return (size_t)i;
    }
    template <class List>
    static int item(const List& list, int i) { return list[item_index(list, i)]; }
    int index(const Decision& d) const {
        if (d.kind < 0 || d.kind >= (int)offset.size() || d.arg < 0 || d.arg >= size[d.kind])
            throw std::out_of_range("engine decision (" + std::to_string(d.kind) + ", " + std::to_string(d.arg) +
                                    ") is outside the action table");
        return offset[d.kind] + d.arg;
    }
    static int war_fe_loser(const State& s) {
        for (int i = (int)s.stack.size() - 1; i >= 0; --i)
            if (s.stack[i].kind == F_WAR_FE) {
                int loser = s.stack[i].loser;
                if (loser < 0 || loser > 3) throw std::out_of_range("the War's loser is no seat");
                return loser;
            }
        throw std::logic_error("no 'war_fe' frame on the stack");
    }
};

}  // namespace sg
