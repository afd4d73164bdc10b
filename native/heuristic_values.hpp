// The heuristic player's values in VP equivalents (agents/heuristic/values.py): Market
// cards, Battle cards, Population, Wars and Decrees.
#pragma once

#include <algorithm>
#include <vector>

#include "heuristic_influence.hpp"

namespace sg {
namespace heuristic {

inline double pw_burden(HeuristicCtx& ctx, int extra_tokens = 1) {
    auto [player, neutral] = ctx.tax();
    int tax = player[0] + player[1] + player[2] + player[3] + neutral;
    int pw = (int)ctx.s.pw_track.size();
    int excess = std::max(0, pw + extra_tokens - tax) - std::max(0, pw - tax);
    if (excess <= 0) return 0.0;
    double per_round = (ctx.mult * ctx.cfg.fund_cost_per_multiplier) * ctx.mv;
    return excess * per_round * ctx.rounds_left * 0.7;
}

// VP of ``tokens`` own Tax tokens from now to the end (Upkeeps and the bonus).
inline double tax_token_value(HeuristicCtx& ctx, int tokens, bool vice) {
    if (tokens <= 0) return 0.0;
    auto [player, neutral] = ctx.tax();
    int me = ctx.seat, mine = player[me] + tokens;
    bool top = true;
    for (int q = 0; q < 4; ++q)
        if (q != me && !(mine >= player[q])) top = false;
    bool met = (int)ctx.s.pw_track.size() <= player[0] + player[1] + player[2] + player[3] + neutral + tokens;
    double per = 1.0 + (top && met ? 0.8 : top ? 0.3 : 0.1);
    double v = tokens * per * ctx.rounds_left;
    if (top && met) v += 0.3 * player[me] * ctx.rounds_left;
    v += ctx.legacy_step(L_TAX_TOKENS, player[me], tokens);
    return v * (vice ? ctx.p.vice_survival : 1.0);
}

double expected_battle_value(HeuristicCtx& ctx);

// Value of ``n`` more cubes for the own faction (districts that open).
inline double cube_value(HeuristicCtx& ctx, int n) {
    const Board& b = ctx.c.board;
    int pop = ctx.s.population[ctx.fac];
    double v = 0.1 * n;
    for (int sp = 0; sp < ctx.cfg.n_loop; ++sp)
        if (!b.loop_storehouse.at(sp) && b.loop_faction[sp] == ctx.fac) {
            int at = b.loop_opens_at[sp];
            if (at > 0 && pop < at) {
                double gain = 0.7 * ctx.rounds_left * (b.loop_multiplier[sp] - 0.5);
                if (pop + n >= at) v += gain;
                else v += gain * 0.5 * n / (double)(at - pop);
            }
        }
    return v;
}

// effects_value over the effects of ``list`` that ``keep`` accepts.
template <class Keep>
double effects_value_if(HeuristicCtx& ctx, const std::vector<Effect>& list, Keep keep, int pops = 0, bool instant = false) {
    double v = 0.0;
    int infl = 0;
    for (const Effect& e : list) {
        if (!keep(e)) continue;
        switch (e.type) {
            case E_INFLUENCE: infl += e.n + e.per_pop * pops; break;
            case E_WEALTH: v += (e.n + e.per_pop * pops + e.dice) * ctx.mv; break;
            case E_STOREHOUSE: v += e.n * ctx.tv; break;
            case E_POPULATION: v += cube_value(ctx, e.n); break;
            case E_SHIPS: v += e.n * ctx.p.ship_value; break;
            case E_MOVE: v += 0.25 * e.n; break;
            case E_BATTLE_DRAW: v += e.n * expected_battle_value(ctx); break;
            case E_PUBLIC_WORKS:
                if (instant) {
                    v -= pw_burden(ctx);
                    if (contains(ctx.c.board.pw_ship_spaces, (int)ctx.s.pw_track.size() + 1)) v += ctx.p.ship_value;
                }
                break;
            default: break;
        }
    }
    return v + infl * token_value(ctx);
}
inline double effects_value(HeuristicCtx& ctx, const std::vector<Effect>& list, int pops = 0, bool instant = false) {
    return effects_value_if(ctx, list, [](const Effect&) { return true; }, pops, instant);
}

inline bool group_has_work(const HeuristicCtx& ctx, const Row& row, int a, int b) {
    for (int i = a; i <= b; ++i)
        if (row[i].up && !ctx.def(row[i].card).action.empty()) return true;
    return false;
}

inline int groups_with_work(const HeuristicCtx& ctx, const Row& row) {
    int n = 0;
    for (auto [a, b] : HeuristicCtx::activation_groups(row)) n += group_has_work(ctx, row, a, b);
    return n;
}

inline double action_value(HeuristicCtx& ctx, int cid, int pops) { return effects_value(ctx, ctx.def(cid).action, pops); }

// A new Public Works card whose token is in the excess and cannot be funded.
inline bool closes_at_upkeep(HeuristicCtx& ctx, const Card& cdef, int wealth_after) {
    if (!cdef.has(K_PUBLIC_WORKS)) return false;
    auto [player, neutral] = ctx.tax();
    int tax = player[0] + player[1] + player[2] + player[3] + neutral;
    if ((int)ctx.s.pw_track.size() + 1 <= tax) return false;
    return wealth_after < ctx.mult * ctx.cfg.fund_cost_per_multiplier;
}

inline double boost_value(HeuristicCtx& ctx, const Effect& b) {
    int rl = ctx.rounds_left;
    switch (b.type) {
        case B_PRICE_DISCOUNT: {
            double scope = b.applies == 0 ? 1.0 : b.applies == 1 ? 0.5 : 0.4;
            if (b.when != 0) scope *= 0.5;
            return b.n * scope * ctx.mv * rl * 0.8;
        }
        case B_RAID_BONUS: return 0.3 * b.n * rl * ctx.mv;
        case B_DECREE_DISCOUNT: return 0.6 * b.n * ctx.tv * std::min(3, rl);
        case B_COUNTER_BONUS: return b.n * std::min(1.0, ctx.conflicts_left()) * 0.8;
        case B_WAR_BONUS: return 0.4 * b.n;
        case B_DISCARD_FOR_WAR: return 0.1;
        case B_UPKEEP_IGNORE: return 0.3 * b.n * rl * ctx.mult * ctx.mv;
        case B_POPULATION_WATCH: return 0.0;
        case B_STORE_INFLUENCE: return 0.2;
        case B_SEARCH: return rl > 2 ? 0.8 : 0.0;
        case B_VETO_DECREE: return 0.3;
        case B_TAX_IF_PW_CONNECTED: return 0.1 * rl;
        case B_REROLL: return 0.3;
        case B_SHIPS_ON_REVEAL: return ctx.p.ship_value * b.n;
        case B_RAID_HINDER: return 0.2;
        default: return 0.0;
    }
}

constexpr int NO_WEALTH = INT_MIN;  // market_card_value without a wealth_after

// VP equivalent of getting this Market card now (price not included).
inline double market_card_value(HeuristicCtx& ctx, int cid, bool rebuild = false, int wealth_after = NO_WEALTH) {
    const Card& cdef = ctx.def(cid);
    const Row& row = ctx.row(ctx.seat);
    int rl = ctx.rounds_left;
    double v = 0.0;
    if (wealth_after != NO_WEALTH && ctx.p.pw_close_risk && closes_at_upkeep(ctx, cdef, wealth_after)) {
        if (rebuild) return -1.0;
        return effects_value_if(ctx, cdef.instant, [](const Effect& e) { return e.type != E_PUBLIC_WORKS; });
    }
    if (!rebuild) v += effects_value(ctx, cdef.instant, 0, true);
    else if (cdef.has(K_PUBLIC_WORKS)) v -= pw_burden(ctx);
    if (!cdef.action.empty()) {
        double per = action_value(ctx, cid, 0);
        bool free = false;
        std::vector<std::pair<int, int>> seen;  // _card_joins
        for (int q = 0; q < (int)row.size() && !free; ++q) {
            auto ab = HeuristicCtx::run_bounds(row, q);
            if (std::find(seen.begin(), seen.end(), ab) != seen.end()) continue;
            seen.push_back(ab);
            if ((ctx.joins(row[ab.second].card, cid) || ctx.joins(cid, row[ab.first].card)) &&
                group_has_work(ctx, row, ab.first, ab.second))
                free = true;
        }
        double turns = rl - 0.5;
        if (free) v += per * turns * 0.9;
        else v += std::max(0.0, per - ctx.p.action_cost) * turns * 0.8 + 0.15 * per * turns;
    }
    if (cdef.pop_slots && rl > 1) {
        int per_pop = 0;
        for (const Effect& e : cdef.action)
            if (e.type == E_INFLUENCE || e.type == E_WEALTH) per_pop += e.per_pop;
        v += std::min(cdef.pop_slots, 2) * (0.25 + 0.15 * std::max(0, per_pop) * (rl - 1) * 0.5);
    }
    if (cdef.tax_player) v += tax_token_value(ctx, cdef.tax_player, cdef.vice >= 0);
    if (cdef.tax_neutral) {
        auto [player, neutral] = ctx.tax();
        bool short_ = (int)ctx.s.pw_track.size() > player[0] + player[1] + player[2] + player[3] + neutral;
        v += (cdef.tax_neutral * rl) * (short_ ? 0.35 : 0.12);
    }
    for (const Effect& bst : cdef.boosts) v += boost_value(ctx, bst);
    for (const Effect& e : cdef.end_game) {
        if (e.type == G_VP) v += e.n;
        else if (e.type == G_VP_DICE) v += e.dice + e.plus;
        else if (e.type == G_VP_PER_STORED_TOKENS) v += 0.5 * rl / e.per * 1.5;
    }
    const std::pair<int, int> metric_of[3] = {
        {K_PUBLIC_WORKS, L_PUBLIC_WORKS_CARDS}, {K_PERSONALITY, L_PERSONALITY_CARDS}, {K_COMMERCE, L_COMMERCE_CARDS}};
    for (auto [kind, metric] : metric_of)
        if (cdef.has(kind) && ctx.legacy_of(metric))
            v += 0.9 * ctx.legacy_step(metric, ctx.legacy_metric(metric), 1);
    if (cdef.has(K_SLAVERY) && ctx.legacy_of(L_DEPENDENT_CARDS))
        v += ctx.legacy_step(L_DEPENDENT_CARDS, ctx.legacy_metric(L_DEPENDENT_CARDS), 1);
    if (cdef.vice >= 0 && !rebuild) v -= 0.3;
    return v;
}

// ------------------------------------------------------------ Battle cards
// Value of holding one more Battle card (Conflicts, Wars, Legacy, reveal boost).
inline double battle_card_value(HeuristicCtx& ctx, int cid, int held) {
    const Card& cdef = ctx.def(cid);
    int st = cdef.strength;
    double star_ok = cdef.star ? 0.65 : 1.0;
    double use = std::max(0.0, std::min(1.0, ctx.conflicts_left() - held));
    double v = use * star_ok * (2.0 + 0.6 * st) + (1 - use) * 0.25 * st * star_ok;
    v += 0.1 * st;
    if (ctx.legacy_of(L_BATTLE_CARDS))
        v += 0.8 * ctx.legacy_step(L_BATTLE_CARDS, ctx.legacy_metric(L_BATTLE_CARDS), 1);
    for (const Effect& bst : cdef.boosts) v += 0.5 * boost_value(ctx, bst);
    return v * ctx.p.battle_scale;
}
inline double battle_card_value(HeuristicCtx& ctx, int cid) { return battle_card_value(ctx, cid, ctx.battle_cards_held()); }

// What the next Battle card drawn may be, as this seat sees it.
inline std::vector<int> draw_pool(const HeuristicCtx& ctx) {
    const Cards& deck = ctx.s.battle_deck[ctx.fac];
    if (!deck.empty()) return ctx.unseen_pool(ctx.fac);
    const Cards& discard = ctx.s.battle_discard[ctx.fac];
    return std::vector<int>(discard.begin(), discard.end());
}

inline double expected_battle_value(HeuristicCtx& ctx) {
    std::vector<int> pool = draw_pool(ctx);
    if (pool.empty()) return 0.0;
    double sum = 0.0;
    for (int cid : pool) sum += battle_card_value(ctx, cid);
    return sum / (double)pool.size();
}

inline double expected_best_of_two(HeuristicCtx& ctx) {
    std::vector<int> pool = draw_pool(ctx);
    if (pool.size() < 2) return expected_battle_value(ctx);
    std::vector<double> vals;
    for (int cid : pool) vals.push_back(battle_card_value(ctx, cid));
    std::sort(vals.begin(), vals.end());
    int64_t n = (int64_t)vals.size();
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += vals[i] * (double)i;
    return sum / (double)(n * (n - 1) / 2);
}

// ------------------------------------------------------------ Population
inline double attach_slot_value(HeuristicCtx& ctx, int pos) {
    const Slot& slot = ctx.slot(ctx.seat, pos);
    const Card& cdef = ctx.def(slot.card);
    double v = 0.0;
    int n = (int)slot.pops.size();
    double gain = action_value(ctx, slot.card, n + 1) - action_value(ctx, slot.card, n);
    v += gain * std::max(0.0, ctx.rounds_left - 0.5) * 0.8;
    for (const Effect& e : cdef.end_game)
        if (e.type == G_VP_PER_POP) v += e.n;
    if (cdef.has(K_SLAVERY)) v += ctx.legacy_step(L_POP_ON_DEPENDENTS, n, 1);
    return v;
}

inline double best_attach_value(HeuristicCtx& ctx) {
    Ids slots = ctx.vacant_slots();
    if (slots.empty()) return 0.0;
    int best = slots[0];
    double best_v = attach_slot_value(ctx, best);
    for (size_t i = 1; i < slots.size(); ++i) {
        double v = attach_slot_value(ctx, slots[i]);
        if (v > best_v) best = slots[i], best_v = v;
    }
    double v = attach_slot_value(ctx, best);
    v += ctx.legacy_step(L_POPULATION_CARDS, ctx.legacy_metric(L_POPULATION_CARDS), 1);
    return v;
}

inline double populate_value(HeuristicCtx& ctx) {
    const auto& deck = ctx.s.population_deck;
    if (deck.empty()) return -1.0;
    std::vector<int> cubes, infl;
    for (int cid : deck) {
        int k = 0, i = 0;
        for (const Effect& e : ctx.def(cid).instant) {
            if (e.type == E_POPULATION) k += e.n;
            if (e.type == E_INFLUENCE) i += e.n;
        }
        cubes.push_back(k), infl.push_back(i);
    }
    int64_t infl_sum = 0;
    for (int i : infl) infl_sum += i;
    double mean_infl = (double)infl_sum / (double)infl.size() + ctx.modifier_total(M_POPULATE_INFLUENCE);
    double cube_sum = 0.0;
    for (int k : cubes) cube_sum += cube_value(ctx, k);
    double v = cube_sum / (double)cubes.size();
    v += mean_infl * token_value(ctx);
    v += best_attach_value(ctx);
    return v;
}

}  // namespace heuristic
}  // namespace sg
