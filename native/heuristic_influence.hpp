// The heuristic player's Influence model (agents/heuristic/influence.py): the exact model
// of the placement walk (start space, one token per open space, optional Storehouse
// drops) valuing every start and every number of drops.
#pragma once

#include <array>
#include <vector>

#include "heuristic_context.hpp"

namespace sg {
namespace heuristic {

constexpr Decision H_PASS{PASS, 0}, H_YES{YES, 0}, H_NONE{-1, -1};

inline bool contains_decision(const std::vector<Decision>& list, const Decision& d) {
    return std::find(list.begin(), list.end(), d) != list.end();
}

// Value for ctx.seat of one district holding ``tokens`` once the placement ends.
inline double district_value(const HeuristicCtx& ctx, int space, const std::array<int, 4>& tokens) {
    const Board& b = ctx.c.board;
    int fac = b.loop_faction.at(space), mult = b.loop_multiplier.at(space), me = ctx.seat;
    int sum = tokens[0] + tokens[1] + tokens[2] + tokens[3];
    if (sum >= ctx.cfg.district_threshold) {
        double v = b.loop_ship.at(space) ? ctx.p.ship_value : 0.0;
        if (fac == ctx.fac || ctx.scores_all) return v + (double)(mult * tokens[me]);
        int theirs = 0;
        for (int q = 0; q < 4; ++q)
            if (faction(q) == fac) theirs += tokens[q];
        return v - ctx.p.opp_vp_weight * mult * theirs;
    }
    if (fac == ctx.fac || ctx.scores_all) {
        int rl = ctx.rounds_left;
        double pf = rl >= 3 ? 0.8 : rl == 2 ? 0.6 : 0.3;
        return (double)(tokens[me] * mult) * pf;
    }
    return -0.15 * tokens[me] * mult;
}

inline std::array<int, 4> district_tokens(const HeuristicCtx& ctx, int sp) {
    return {item(ctx.s.districts, sp * 4), item(ctx.s.districts, sp * 4 + 1), item(ctx.s.districts, sp * 4 + 2),
            item(ctx.s.districts, sp * 4 + 3)};
}

struct Evaluation {
    double best;
    int d, ko, kp;
};

constexpr int MAX_LOOP = ROOM_DISTRICTS / 4;  // loop spaces the state holds

// influence.py _plan (without its detail and options): the best placement of ``n``
// tokens as (value, decision); H_NONE when no start is open.
// ``options``: the value of every answer is written there too (every start; asking:
// walking on with every token, then dropping here), as influence_scores gives them.
inline std::pair<double, Decision> plan(HeuristicCtx& ctx, int n, int pos, bool asking,
                                        std::vector<std::pair<double, Decision>>* options = nullptr) {
    const Board& b = ctx.c.board;
    const int me = ctx.seat, N = ctx.cfg.n_loop;
    if (N < 1 || N > MAX_LOOP || (int)b.loop_storehouse.size() < N) throw std::logic_error("heuristic: bad loop size");
    std::array<char, MAX_LOOP> open{};
    for (int sp = 0; sp < N; ++sp) open[sp] = !b.loop_storehouse[sp] && ctx.district_open(sp);
    std::array<std::array<int, 4>, MAX_LOOP> cur{};
    std::array<double, MAX_LOOP> base_vals{};
    double base_total = 0.0;
    for (int sp = 0; sp < N; ++sp)
        if (open[sp]) {
            cur[sp] = district_tokens(ctx, sp);
            base_vals[sp] = district_value(ctx, sp, cur[sp]);
            base_total += base_vals[sp];
        }
    const double own_drop = ctx.tv, opp_drop = -0.25;
    std::vector<int> dists;
    std::vector<std::pair<int, int>> avail;  // (own, opp) Storehouse passes before the (d+1)-th district

    auto evaluate = [&](int pre_token, int after, int n_left, int pass_at) {
        dists.clear(), avail.clear();
        int own = 0, opp = 0;
        if (pass_at >= 0) (b.loop_faction[pass_at] == ctx.store_fac ? own : opp) += 1;
        int q = after, since = 0;
        while ((int)avail.size() <= n_left) {
            q = (q + 1) % N;
            if (++since > N) throw std::logic_error("heuristic: no open district on the loop");
            if (b.loop_storehouse[q]) {
                if (!ctx.may_access(b.loop_faction[q])) continue;
                (b.loop_faction[q] == ctx.store_fac ? own : opp) += 1;
            } else if (open[q]) {
                avail.push_back({own, opp});
                dists.push_back(q);
                since = 0;
            }
        }
        std::array<std::array<int, 4>, MAX_LOOP> counts = cur;
        std::array<double, MAX_LOOP> vals = base_vals;
        double total = base_total;
        auto add = [&](int sp) {
            counts[sp][me] += 1;
            double nv = district_value(ctx, sp, counts[sp]);
            total += nv - vals[sp];
            vals[sp] = nv;
        };
        if (pre_token >= 0) add(pre_token);
        Evaluation e{-1e9, 0, 0, 0};
        for (int d = 0; d <= n_left; ++d) {
            if (d > 0) add(dists[d - 1]);
            int drops = n_left - d;
            auto [ao, ap] = avail[d];
            int ko = std::min(drops, ao), kp = drops - ko;
            if (kp > ap) continue;
            double v = total + ko * own_drop + kp * opp_drop;
            if (v > e.best + 1e-9) e = {v, d, ko, kp};
        }
        return e;
    };

    if (n <= 0) return {base_total, H_PASS};
    if (asking) {
        if (pos < 0 || pos >= N) throw std::out_of_range("heuristic: no loop space " + std::to_string(pos));
        if (options) {
            double forced = b.loop_faction[pos] == ctx.store_fac ? own_drop : opp_drop;
            options->push_back({evaluate(-1, pos, n, -1).best, H_PASS});
            options->push_back({forced + evaluate(-1, pos, n - 1, -1).best, H_YES});
            return {0.0, H_NONE};
        }
        Evaluation e = evaluate(-1, pos, n, pos);
        bool mine = b.loop_faction[pos] == ctx.store_fac;
        return {e.best, (mine ? e.ko : e.kp) > 0 ? H_YES : H_PASS};
    }
    double best = -1e9;
    Decision best_d = H_NONE;
    for (int sp = 0; sp < N; ++sp) {
        double v;
        if (b.loop_storehouse[sp]) {
            if (!ctx.may_access(b.loop_faction[sp])) continue;
            double forced = b.loop_faction[sp] == ctx.store_fac ? own_drop : opp_drop;
            v = evaluate(-1, sp, n - 1, -1).best;
            v += forced;
        } else if (open[sp]) {
            v = evaluate(sp, sp, n - 1, -1).best;
        } else {
            continue;
        }
        if (options) options->push_back({v, {INFLUENCE_START, sp}});
        if (v > best + 1e-9) best = v, best_d = {INFLUENCE_START, sp};
    }
    return {best, best_d};
}

// influence_plan: the plain placements asked in one decision are kept in ctx.plans.
inline std::pair<double, Decision> influence_plan(HeuristicCtx& ctx, int n, int pos = -1, bool asking = false) {
    auto key = std::make_tuple(n, pos, (int)asking);
    auto it = ctx.plans.find(key);
    if (it != ctx.plans.end()) return it->second;
    auto found = plan(ctx, n, pos, asking);
    ctx.plans.emplace(key, found);
    return found;
}

// Value of one Influence token placed now, once per ctx.
inline double token_value(HeuristicCtx& ctx) {
    if (!ctx.iv_cache) {
        double base = influence_plan(ctx, 0).first;
        double best = influence_plan(ctx, 3).first;
        ctx.iv_cache = std::max(0.15, (best - base) / 3);
    }
    return *ctx.iv_cache;
}

// Storing ``k`` of ``n`` Influence tokens: the placement of the rest plus the stored
// tokens' value (a little less than placed ones).
inline std::vector<std::pair<double, Decision>> store_scores(HeuristicCtx& ctx, int n, const std::vector<Decision>& legal) {
    std::vector<std::pair<double, Decision>> out;
    for (const Decision& d : legal)
        out.push_back({influence_plan(ctx, n - d.arg).first + d.arg * token_value(ctx) * 0.9 - 0.01 * d.arg, d});
    return out;
}

// Gain of placing ``n`` tokens now (relative to placing none).
inline double influence_value(HeuristicCtx& ctx, int n) {
    if (n <= 0) return 0.0;
    return influence_plan(ctx, n).first - influence_plan(ctx, 0).first;
}

}  // namespace heuristic
}  // namespace sg
