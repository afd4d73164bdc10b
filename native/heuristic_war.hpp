// The heuristic player's values of Wars and Decrees (agents/heuristic/values.py): the
// dice distributions, a seat's visible War strength, a War's expected spoils, a
// Decree's value for the decreer and for the others.
#pragma once

#include <algorithm>
#include <vector>

#include "heuristic_values.hpp"

namespace sg {
namespace heuristic {

// The distribution of the sum of ``n`` dice of ``faces`` (a dict in insertion order).
inline OrderedDist dice_dist(int n, const Ids& faces) {
    OrderedDist dist;
    dist.at(0) = 1.0;
    for (int i = 0; i < n; ++i) {
        OrderedDist nxt;
        for (auto [v, p] : dist.items)
            for (int f : faces) {
                double& x = nxt.at(v + f);
                x = x + p / (double)faces.size();
            }
        dist = nxt;
    }
    return dist;
}

// values.py _roll_diff: the distribution of the difference of two rolls of ``n`` dice.
inline OrderedDist roll_diff(int n, const Ids& faces) {
    OrderedDist a = dice_dist(n, faces), out;
    for (auto [x, p] : a.items)
        for (auto [y, q] : a.items) {
            double& v = out.at(x - y);
            v = v + p * q;
        }
    return out;
}

inline int64_t comb(int64_t n, int64_t k) {
    if (k < 0 || k > n) return 0;
    k = std::min(k, n - k);
    int64_t r = 1;
    for (int64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

// E[max strength of k cards drawn without replacement from ``strengths``].
inline double expected_max_strength(std::vector<int> strengths, int k) {
    int n = (int)strengths.size();
    if (k <= 0 || n == 0) return 0.0;
    k = std::min(k, n);
    std::sort(strengths.begin(), strengths.end());
    int64_t total = comb(n, k), sum = 0;
    for (int i = 0; i < n; ++i) sum += strengths[i] * comb(i, k - 1);
    return (double)sum / (double)total;
}

// Expected War strength of seat ``q`` from what ctx.seat sees.
inline double seat_visible_strength(HeuristicCtx& ctx, int q, bool star_ok) {
    const State& s = ctx.s;
    std::vector<int> pool;
    for (int cid : ctx.unseen_pool(faction(q))) {
        const Card& d = ctx.def(cid);
        pool.push_back(star_ok || !d.star ? d.strength : 0);
    }
    double best = s.hands[q].empty() ? 0.0 : expected_max_strength(pool, (int)s.hands[q].size());
    for (int cid : s.revealed[q]) {
        const Card& d = ctx.def(cid);
        if ((star_ok || !d.star) && d.strength > best) best = d.strength;
    }
    int cards = 0;
    for (const Slot& slot : s.tableau[q])
        if (slot.up && ctx.def(slot.card).boost(B_DISCARD_FOR_WAR)) ++cards;
    double bonus = ctx.boost_total(q, B_WAR_BONUS) + cards * 0.3;
    return best + bonus;
}

inline double war_option_value(HeuristicCtx& ctx, int defender) {
    const State& s = ctx.s;
    int me = ctx.seat;
    bool star_ok = ctx.star_allowed_in_war();
    bool any = false;
    int strength = 0, card = -1;
    auto consider = [&](int cid) {
        const Card& d = ctx.def(cid);
        if (!(star_ok || !d.star)) return;
        if (!any || std::make_pair(d.strength, cid) > std::make_pair(strength, card)) strength = d.strength, card = cid;
        any = true;
    };
    for (int cid : s.hands[me]) consider(cid);
    for (int cid : s.revealed[me]) consider(cid);
    if (!any) return -99.0;
    int own = strength + ctx.boost_total(me, B_WAR_BONUS);
    double opp = seat_visible_strength(ctx, defender, star_ok);
    int m = mate(defender);
    opp += m != me && !s.hands[m].empty() ? 0.4 * seat_visible_strength(ctx, m, star_ok) : 0.0;
    double edge = own - opp;
    int mult = ctx.spoils_multiplier(defender);
    double ev = 0.0;
    for (auto [d, p] : roll_diff(ctx.cfg.war_dice, ctx.cfg.faces).items) {
        double diff = d + edge;
        if (diff > 0) ev += p * diff * mult;
        else if (diff < 0) ev -= p * (-diff) * mult * ctx.p.opp_vp_weight;
    }
    double cost = ctx.war_cost() * ctx.tv + battle_card_value(ctx, card) * 0.8 + ctx.p.action_cost;
    return ev - cost - ctx.p.ship_value - ctx.p.war_margin;
}

// Own Tax tokens on cards of vice ``vice`` that a Decree on it changes, per seat.
inline int decree_tax(const HeuristicCtx& ctx, int q, int vice, bool outlaw) {
    int n = 0;
    for (const Slot& slot : ctx.s.tableau[q]) {
        const Card& d = ctx.def(slot.card);
        if (d.vice == vice && (outlaw ? slot.up : slot.down == OUTLAWED)) n += d.tax_player;
    }
    return n;
}

inline double decree_value(HeuristicCtx& ctx, int vice) {
    const State& s = ctx.s;
    int me = ctx.seat;
    bool outlaw = item(s.outlawed, vice) < 0;
    int cost = ctx.decree_cost(vice);
    int rl = ctx.rounds_left;
    int sign = outlaw ? 1 : -1;
    double v = 0.0;
    for (int q = 0; q < 4; ++q) {
        int hit = decree_tax(ctx, q, vice, outlaw);
        if (q == me) {
            v -= sign * hit * 1.5 * rl;
        } else {
            double w = faction(q) != ctx.fac ? 0.45 : 0.3;
            v += sign * hit * 1.5 * rl * w;
        }
    }
    if (outlaw) {
        v += ctx.cfg.outlaw_vp;
        v += ctx.legacy_step(L_OUTLAWED_VICES, (int)std::count(s.outlawed.begin(), s.outlawed.end(), me), 1);
        for (int cid : s.market)
            if (cid >= 0 && ctx.def(cid).vice == vice) {
                v += 0.5;
                break;
            }
    } else {
        v -= 1.0;
    }
    return v - cost * ctx.tv;
}

// How a Decree by another seat changes this seat's prospects (negative = hurts).
inline double decree_value_for_me(HeuristicCtx& ctx, int vice, int decreer) {
    bool outlaw = item(ctx.s.outlawed, vice) < 0;
    int mine = decree_tax(ctx, ctx.seat, vice, outlaw);
    double v = (outlaw ? -1 : 1) * mine * 1.5 * ctx.rounds_left;
    if (outlaw) v -= faction(decreer) != ctx.fac ? ctx.p.opp_vp_weight * 2 : 0.6;
    return v;
}

}  // namespace heuristic
}  // namespace sg
