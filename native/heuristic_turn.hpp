// The heuristic player's scores of the turn decisions in VP equivalents (Leader space,
// Leader Action, the Actions; agents/heuristic/agent.py _score and the turn questions)
// and its tie-breaking draw.
#pragma once

#include <vector>

#include "heuristic_first_edition.hpp"
#include "rng.hpp"

namespace sg {
namespace heuristic {

using Scored = std::vector<std::pair<double, Decision>>;

// Highest score; ties (within 1e-9) broken by the player's generator (agent.py _best).
inline Decision best_of(const Scored& scored, Pcg64& rng) {
    if (scored.empty()) throw std::logic_error("heuristic: nothing to choose from");
    double top = scored[0].first;
    for (const auto& x : scored)
        if (x.first > top) top = x.first;
    std::vector<Decision> best;
    for (const auto& x : scored)
        if (x.first >= top - 1e-9) best.push_back(x.second);
    if (best.size() == 1) return best[0];
    return best[(size_t)rng.integers(0, (int64_t)best.size())];
}

// The first (score, decision) of the highest score (max with a key).
inline std::pair<double, Decision> first_max(const Scored& scored) {
    std::pair<double, Decision> best = scored.at(0);
    for (const auto& x : scored)
        if (x.first > best.first) best = x;
    return best;
}

inline double activate_value(HeuristicCtx& ctx, int first) {
    const Row& row = ctx.row(ctx.seat);
    int last = first;
    for (auto [a, b] : HeuristicCtx::activation_groups(row))
        if (a == first) last = b;
    double v = 0.0;
    int infl = 0;
    for (int i = std::max(0, first); i <= last && i < (int)row.size(); ++i) {
        const Slot& slot = row[i];
        if (slot.activated || !slot.up) continue;
        const Card& cdef = ctx.def(slot.card);
        int pops = (int)slot.pops.size();
        for (const Effect& e : cdef.action)
            if (e.type == E_INFLUENCE) infl += e.n + e.per_pop * pops;
        v += effects_value_if(ctx, cdef.action, [](const Effect& e) { return e.type != E_INFLUENCE; }, pops);
        if (slot.stored && cdef.boost(B_STORE_INFLUENCE)) infl += slot.stored;
    }
    return v + influence_value(ctx, infl);
}

inline double inspire_value(HeuristicCtx& ctx) {
    const State& s = ctx.s;
    std::vector<int> pool(s.folk_deck.begin(), s.folk_deck.end());
    if (s.folk_deck.empty()) pool.insert(pool.end(), s.folk_discard.begin(), s.folk_discard.end());
    for (int q = 0; q < 4; ++q)
        if (q != ctx.seat) pool.insert(pool.end(), s.folk_hands[q].begin(), s.folk_hands[q].end());
    if (pool.empty()) return -1.0;
    double sum = 0.0;
    for (int cid : pool) sum += effects_value(ctx, ctx.def(cid).instant, 0, true);
    double card = sum / (double)pool.size();
    return card - ctx.cfg.folk_hero_cost * ctx.tv - ctx.p.action_cost;
}

// The score of one decision of the turn (agent.py _score).
inline double score(HeuristicCtx& ctx, const Decision& d, bool leader = false) {
    const State& s = ctx.s;
    const int me = ctx.seat;
    const double action = leader ? 0.0 : ctx.p.action_cost;
    if (d.kind == PASS) return 0.0;
    if (ctx.cfg.first_edition_raid_and_war && (d.kind == RAID || d.kind == WAR)) return fe_score_action(ctx, d);
    switch (d.kind) {
        case BUY_MARKET: {
            int cid = item(s.market, d.arg);
            int price = ctx.market_price(cid);
            return market_card_value(ctx, cid, false, s.wealth[me] - price) - price * ctx.mv - action;
        }
        case SEARCH: {
            Ids cands = ctx.search_candidates(ctx.slot(me, d.arg));
            if (cands.empty()) return -1.0;
            int w = s.wealth[me];
            double best = 0.0;
            for (size_t i = 0; i < cands.size(); ++i) {
                int price = ctx.market_price(cands[i]);
                double v = market_card_value(ctx, cands[i], false, w - price) - price * ctx.mv;
                if (i == 0 || v > best) best = v;
            }
            return best - ctx.p.action_cost;
        }
        case BUY_BATTLE: {
            double v = d.arg == 0 ? expected_battle_value(ctx)
                                  : expected_best_of_two(ctx) - ctx.cfg.battle_draw_two_tokens * ctx.tv;
            return v - ctx.cfg.battle_card_price * ctx.mv - action;
        }
        case POPULATE: return populate_value(ctx) - action;
        case ACTIVATE: return activate_value(ctx, d.arg) - ctx.p.action_cost;
        case RAID: {
            int bonus = ctx.boost_total(me, B_RAID_BONUS) + ctx.modifier_total(M_RAID_BONUS);
            int dollars_sum = 0, ships = 0;
            for (int f : ctx.cfg.faces) {
                dollars_sum += std::max(0, f + bonus);
                ships += f + bonus >= ctx.cfg.raid_ship_threshold;
            }
            double n = (double)ctx.cfg.faces.size();
            double dollars = dollars_sum / n, p_ship = ships / n;
            return dollars * ctx.mv - p_ship * ctx.p.ship_value * 2 - ctx.p.action_cost;
        }
        case DECREE: return decree_value(ctx, d.arg) - ctx.p.action_cost;
        case WAR: return war_option_value(ctx, d.arg) - ctx.p.action_cost;
        case LEADER_MONEY: return ctx.cfg.leader_money * ctx.mv;
        case LEADER_STOREHOUSE: return ctx.cfg.leader_storehouse_tokens * ctx.tv;
        case INSPIRE: return inspire_value(ctx);
        default: return -5.0;
    }
}

// Could the Market card in slot ``i`` be bought from a Market Leader space? (the
// Sultan's Royal Privilege discount only applies there)
inline bool can_buy_with_leader(HeuristicCtx& ctx, int i) {
    const State& s = ctx.s;
    int cid = item(s.market, i);
    if (cid < 0 || ctx.vice_outlawed(cid) || (int)s.tableau[ctx.seat].size() >= ctx.cfg.max_tableau) return false;
    int price = ctx.market_price(cid);
    bool privilege = false;
    for (auto& [card, b] : ctx.own_boosts(B_PRICE_DISCOUNT))
        if (b->when == 1) privilege = true;
    if (privilege && !s.discount_used) price = std::max(0, price - 1);
    return price <= s.wealth[ctx.seat];
}

inline Scored leader_space_scores(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Ids& spaces = ctx.c.board.leader_spaces;
    Scored scored;
    for (const Decision& d : legal) {
        int action = spaces.at(d.arg);
        double v;
        if (action == SPACE_MARKET) {
            v = 0.0;
            bool any = false;
            for (int i = 0; i < (int)ctx.s.market.size(); ++i)
                if (can_buy_with_leader(ctx, i)) {
                    double x = score(ctx, {BUY_MARKET, i}, true);
                    if (!any || x > v) v = x;
                    any = true;
                }
            double money = ctx.cfg.leader_money * ctx.mv;
            if (!any || money > v) v = money;
        } else if (action == SPACE_POPULATE) {
            v = ctx.can_populate() ? score(ctx, {POPULATE, 0}, true) : 0.0;
        } else {
            v = 0.0;
            bool any = false;
            for (const Decision& o : ctx.buy_battle_options()) {
                double x = score(ctx, o, true);
                if (!any || x > v) v = x;
                any = true;
            }
            double tokens = ctx.cfg.leader_storehouse_tokens * ctx.tv;
            if (!any || tokens > v) v = tokens;
        }
        scored.push_back({v, d});
    }
    return scored;
}

inline bool want_reveal(const HeuristicCtx& ctx, int idx) {
    const Cards& hand = ctx.s.hands[ctx.seat];
    if (idx < 0 || idx >= (int)hand.size()) throw std::out_of_range("heuristic: no hand card " + std::to_string(idx));
    for (const Effect& b : ctx.def(hand[idx]).boosts) {
        if (b.type == B_WAR_BONUS || b.type == B_REROLL) continue;  // keep War cards hidden
        return true;
    }
    return false;
}

inline Decision q_actions(HeuristicCtx& ctx, const std::vector<Decision>& legal, Pcg64& rng) {
    for (const Decision& d : legal)
        if (d.kind == FOLK_HERO) return d;  // a Folk Hero card's effects only help
    for (const Decision& d : legal)
        if (d.kind == REVEAL && want_reveal(ctx, d.arg)) return d;
    Scored rebuilds;
    for (const Decision& d : legal)
        if (d.kind == REBUILD) {
            int card = ctx.slot(ctx.seat, d.arg).card;
            int price = ctx.market_price(card, false);
            double v = market_card_value(ctx, card, true, ctx.s.wealth[ctx.seat] - price);
            rebuilds.push_back({v - price * ctx.mv, d});
        }
    if (!rebuilds.empty()) {
        auto [v, d] = first_max(rebuilds);
        if (v > 0.5) return d;
    }
    Scored scored;
    for (const Decision& d : legal)
        if (d.kind != REVEAL && d.kind != REBUILD) scored.push_back({score(ctx, d), d});
    Decision best = best_of(scored, rng);
    if (best.kind != PASS) return best;
    // PASS scores 0: an Action left unused is wasted, take the best one anyway if it is
    // not clearly harmful.
    Scored others;
    for (const auto& x : scored)
        if (x.second.kind != PASS) others.push_back(x);
    if (!others.empty()) {
        auto [v, d] = first_max(others);
        if (v + ctx.p.action_cost > 0.05) return d;
    }
    return H_PASS;
}

}  // namespace heuristic
}  // namespace sg
