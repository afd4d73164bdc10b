// The heuristic player's rules for the first-edition Raid and War (ruleset
// first-edition; agents/heuristic/first_edition.py).
#pragma once

#include <algorithm>
#include <vector>

#include "heuristic_war.hpp"

namespace sg {
namespace heuristic {

constexpr Decision H_ONE_MORE{ADD_MONEY, 0};
constexpr int FE_MAX_TOKENS = 4;       // first_edition.py MAX_TOKENS
constexpr double FE_PLUNDER_RATE = 0.8;  // first_edition.py PLUNDER_RATE

// The distribution of the sum of ``n`` D4s (a dict in insertion order).
inline OrderedDist d4_sum_dist(int n, int sides) {
    Ids faces;
    for (int f = 1; f <= sides; ++f) faces.push_back(f);
    return dice_dist(n, faces);
}

struct CommitGroup {
    int strength, copies;
    Decision d;
};

// (strength of a card with all its committable identical copies, number of copies,
// COMMIT of the card) for every committable card of ctx.seat.
inline std::vector<CommitGroup> commit_groups(const HeuristicCtx& ctx, bool star_ok) {
    std::vector<int> args = ctx.commit_args(star_ok);
    std::vector<const std::string*> keys;
    for (int arg : args) keys.push_back(&ctx.def(ctx.committed_card(ctx.seat, arg)).key);
    std::vector<CommitGroup> out;
    for (size_t i = 0; i < args.size(); ++i) {
        int count = 0;
        for (const std::string* k : keys) count += *k == *keys[i];
        out.push_back({ctx.def(ctx.committed_card(ctx.seat, args[i])).strength * count, count, {COMMIT, args[i]}});
    }
    return out;
}

// The first group of the highest strength (max with a key).
inline const CommitGroup& strongest(const std::vector<CommitGroup>& groups) {
    if (groups.empty()) throw std::logic_error("heuristic: no committable card");
    size_t best = 0;
    for (size_t i = 1; i < groups.size(); ++i)
        if (groups[i].strength > groups[best].strength) best = i;
    return groups[best];
}

inline double fe_war_value(HeuristicCtx& ctx, int defender) {
    const State& s = ctx.s;
    bool star_ok = ctx.star_allowed_in_war();
    std::vector<CommitGroup> groups = commit_groups(ctx, star_ok);
    if (groups.empty()) return -99.0;
    const CommitGroup& top = strongest(groups);
    int card = ctx.committed_card(ctx.seat, top.d.arg);
    int tokens = std::min(FE_MAX_TOKENS, s.storehouse[ctx.fac]);
    int opp_tokens = std::min(FE_MAX_TOKENS, s.storehouse[1 - ctx.fac]);
    int rate = ctx.cfg.fe_storehouse_strength;
    double edge = (top.strength + ctx.boost_total(ctx.seat, B_WAR_BONUS) + tokens * rate) -
                  seat_visible_strength(ctx, defender, star_ok) - opp_tokens * rate;
    int m = mate(defender);
    if (!s.hands[m].empty()) edge -= 0.4 * seat_visible_strength(ctx, m, star_ok);
    OrderedDist dist = d4_sum_dist(ctx.cfg.fe_war_d4, ctx.cfg.d4_sides);
    double ev = 0.0;
    for (auto [a, pa] : dist.items)
        for (auto [b, pb] : dist.items) ev += pa * pb * (edge + a - b) * ctx.mult * FE_PLUNDER_RATE;
    double cost = battle_card_value(ctx, card) * 0.8 + (tokens + ctx.war_cost()) * ctx.tv +
                  ctx.cfg.fe_war_ships_lost * ctx.p.ship_value;
    return ev - cost - ctx.p.war_margin;
}

// VP-equivalent score of the first-edition RAID or WAR action.
inline double fe_score_action(HeuristicCtx& ctx, const Decision& d) {
    if (d.kind == RAID) {
        int bonus = ctx.boost_total(ctx.seat, B_RAID_BONUS) + ctx.modifier_total(M_RAID_BONUS);
        double mean = 2.5 * ctx.cfg.fe_raid_d4 + bonus;
        return std::max(0.0, mean) * ctx.mv - ctx.cfg.fe_raid_ships_lost * ctx.p.ship_value * 2 - ctx.p.action_cost;
    }
    return fe_war_value(ctx, d.arg) - 2 * ctx.p.action_cost;
}

inline Decision fe_intervene(HeuristicCtx& ctx) {
    const Frame& raid = ctx.frame(F_RAID_FE);
    std::vector<CommitGroup> groups = commit_groups(ctx, true);
    const CommitGroup& top = strongest(groups);
    int bonus = ctx.boost_total(raid.seat, B_RAID_BONUS) + ctx.modifier_total(M_RAID_BONUS);
    double p_win = 0.0;
    for (auto [x, p] : d4_sum_dist(ctx.cfg.fe_raid_d4, ctx.cfg.d4_sides).items)
        if (x + bonus <= top.strength) p_win += p;
    double gain = p_win * ctx.cfg.fe_intervene_influence * token_value(ctx);
    int card = ctx.committed_card(ctx.seat, top.d.arg);
    double cost = battle_card_value(ctx, card) * ctx.p.keep_card * top.copies;
    return gain > cost ? H_YES : H_PASS;
}

inline Decision fe_hinder(HeuristicCtx& ctx) {
    return faction(ctx.frame(F_RAID_FE).seat) != ctx.fac ? H_YES : H_PASS;
}

// The first decision of the lowest key (min with a key).
template <class Key>
Decision lowest(const std::vector<Decision>& options, Key key) {
    size_t best = 0;
    double best_v = key(options.at(0));
    for (size_t i = 1; i < options.size(); ++i) {
        double v = key(options[i]);
        if (v < best_v) best = i, best_v = v;
    }
    return options[best];
}
// The first decision of the highest key (max with a key).
template <class Key>
Decision highest(const std::vector<Decision>& options, Key key) {
    size_t best = 0;
    double best_v = key(options.at(0));
    for (size_t i = 1; i < options.size(); ++i) {
        double v = key(options[i]);
        if (v > best_v) best = i, best_v = v;
    }
    return options[best];
}

inline std::vector<Decision> of_kind(const std::vector<Decision>& legal, int kind) {
    std::vector<Decision> out;
    for (const Decision& d : legal)
        if (d.kind == kind) out.push_back(d);
    return out;
}

inline Decision fe_commit(HeuristicCtx& ctx, const Frame& f, const std::vector<Decision>& legal) {
    std::vector<Decision> commits = of_kind(legal, COMMIT);
    if (commits.empty()) return H_PASS;
    const Frame& parent = ctx.frame(f.parent);
    bool leading = f.must || parent.kind == F_RAID_FE;
    if (!parent.cards.at(ctx.seat).empty()) return leading ? commits[0] : H_PASS;
    if (leading) {
        std::vector<CommitGroup> groups;
        for (const CommitGroup& x : commit_groups(ctx, true))
            if (contains_decision(commits, x.d)) groups.push_back(x);
        return strongest(groups).d;
    }
    auto card = [&](const Decision& d) { return ctx.committed_card(ctx.seat, d.arg); };
    Decision d = lowest(commits, [&](const Decision& x) { return battle_card_value(ctx, card(x)); });
    return ctx.def(card(d)).strength >= 3 ? d : H_PASS;
}

inline Decision fe_tokens(HeuristicCtx& ctx, const Frame& f) {
    const Frame& war = ctx.frame(F_WAR_FE);
    double worth = ctx.mult * FE_PLUNDER_RATE * ctx.cfg.fe_storehouse_strength * 0.6;
    if (war.tokens.at(f.side) < FE_MAX_TOKENS && ctx.tv < worth) return H_ONE_MORE;
    return H_PASS;
}

inline Decision fe_plunder(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    int loser = ctx.frame(F_WAR_FE).loser;
    Decision best = H_PASS;
    double best_v = 0.0;
    for (const Decision& d : legal) {
        if (d.kind != DISCARD_CARD) continue;
        int card = ctx.slot(loser, d.arg).card;
        double v = market_card_value(ctx, card, true) * (1 + ctx.p.opp_vp_weight) - ctx.steal_price(card);
        if (v > best_v) best = d, best_v = v;
    }
    return best;
}

}  // namespace heuristic
}  // namespace sg
