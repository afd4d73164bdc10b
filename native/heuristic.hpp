// The heuristic player (agents/heuristic/agent.py HeuristicAgent), an exact twin: the
// same decision as ``HeuristicAgent.choose(game, seat)`` for the same params and the
// same generator state, which it advances as the Python agent does (a draw only to
// break a tie). Every ruleset's questions; it reads only what its seat may see.
#pragma once

#include <memory>
#include <vector>

#include "heuristic_turn.hpp"
#include "player.hpp"

namespace sg {
namespace heuristic {

inline Decision q_connect(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Row& row = ctx.row(ctx.seat);
    Decision best = H_PASS;
    double best_v = 0.0;
    for (const Decision& d : legal) {
        if (d.kind != CONNECT) continue;
        int p = d.arg / 2;
        if (p < 0 || p >= (int)row.size()) throw std::out_of_range("heuristic: no tableau slot to connect");
        auto [a, b] = HeuristicCtx::run_bounds(row, p);
        double v = 1.0 + 0.3 * (b - a + 1) + (group_has_work(ctx, row, a, b) ? 0.5 : 0.0);
        if (v > best_v) best = d, best_v = v;
    }
    return best;
}

inline Decision q_influence(HeuristicCtx& ctx, const Frame& f, const std::vector<Decision>& legal) {
    bool store = false, start = false;
    for (const Decision& d : legal) store |= d.kind == STORE, start |= d.kind == INFLUENCE_START;
    if (store) return first_max(store_scores(ctx, f.n, legal)).second;
    if (start) return influence_plan(ctx, f.n).second;
    return influence_plan(ctx, f.n, f.pos, true).second;
}

inline double pop_keep_value(HeuristicCtx& ctx, int pos) {
    const Slot& slot = ctx.slot(ctx.seat, pos);
    int n = (int)slot.pops.size();
    double v = (action_value(ctx, slot.card, n) - action_value(ctx, slot.card, n - 1)) *
               std::max(0.0, ctx.rounds_left - 0.5) * 0.8;
    for (const Effect& e : ctx.def(slot.card).end_game)
        if (e.type == G_VP_PER_POP) v += e.n;
    return v;
}

// Card moves: only to reduce the number of Communities that need an Action.
inline Decision q_moves(HeuristicCtx& ctx, const Frame& f, const std::vector<Decision>& legal) {
    const int seat = ctx.seat;
    for (const Decision& d : legal)
        if (d.kind == MOVE_SEAT) return contains_decision(legal, {MOVE_SEAT, seat}) ? Decision{MOVE_SEAT, seat} : H_PASS;
    int target = f.scope_any ? f.target : seat;
    if (target != seat) return H_PASS;
    const Row& row = ctx.row(seat);
    int base = groups_with_work(ctx, row);
    int t = ctx.cfg.max_tableau, width = 2 * t + 1;
    Decision best = H_PASS;
    double best_gain = 0.0;
    for (const Decision& d : legal) {
        if (d.kind == MOVE_CARD) {
            int src = d.arg / width, enc = d.arg % width;
            if (enc == 2 * t) continue;
            if (src >= (int)row.size()) throw std::out_of_range("heuristic: no tableau slot to move");
            Row trial = ctx.row_after_card_move(row, src, enc);
            int gain = base - groups_with_work(ctx, trial);
            if (gain > best_gain) best = d, best_gain = gain;
        } else if (d.kind == MOVE_POP) {
            int src = d.arg / t, dst = d.arg % t;
            double gain = attach_slot_value(ctx, dst) - pop_keep_value(ctx, src);
            if (gain > best_gain + 0.3) best = d, best_gain = gain - 0.3;
        }
    }
    return best;
}

// choices.py reroll_choice: re-roll every die below the top face, at most the boost's
// number of dice; PASS when all show the top face.
inline Decision q_reroll(HeuristicCtx& ctx, const Frame& f) {
    const Frame& parent = ctx.frame(f.parent);
    int top = parent.d4 ? ctx.cfg.d4_sides : *std::max_element(ctx.cfg.faces.begin(), ctx.cfg.faces.end());
    const auto& faces = parent.faces[f.field == 1 ? 1 : 0];
    int mask = 0, taken = 0;
    for (int i = 0; i < std::min(2, (int)faces.size()); ++i)
        if (faces[i] < top && taken < f.dice) mask |= 1 << i, ++taken;
    return mask ? Decision{CHOOSE, mask} : H_PASS;
}

// choices.py spend_counter_boost: spend a once-per-round counter boost when it changes
// the Conflict table row, counting only the seat's own contribution.
inline bool spend_counter_boost(HeuristicCtx& ctx, const Frame& conflict) {
    const auto& rows = ctx.c.conflict_tables.at(conflict.table);
    int64_t left = conflict.strength - ctx.own_strength(conflict);
    Ids spendable = ctx.spendable_boosts(conflict);
    const Effect* b = ctx.def(spendable.at(0)).boost(B_COUNTER_BONUS);
    auto row_of = [&](int64_t result) {
        for (size_t i = 0; i < rows.size(); ++i)
            if (rows[i].low <= result && result <= rows[i].high) return (int)i;
        return -1;
    };
    return row_of(left) != row_of(left - b->n);
}

inline Decision q_contribute(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Frame& conflict = ctx.frame(F_CONFLICT);
    const State& s = ctx.s;
    const int me = ctx.seat;
    const Cards& my_cards = conflict.cards.at(me);
    int money = conflict.money.at(me);
    int own = 0;
    for (int cid : my_cards) own += ctx.def(cid).strength;
    own += money;
    int gap = conflict.strength - own;
    std::vector<Decision> commits = of_kind(legal, COMMIT);
    if (contains_decision(legal, H_YES) && spend_counter_boost(ctx, conflict)) return H_YES;
    auto card = [&](const Decision& d) { return ctx.committed_card(me, d.arg); };
    int held = ctx.battle_cards_held();
    if (my_cards.empty()) {
        if (commits.empty()) return H_PASS;  // dollars alone earn no VP
        int wealth = s.wealth[me] - money;
        Scored scored;
        for (const Decision& d : commits) {
            int c = card(d);
            int st = ctx.def(c).strength;
            int top_up = std::max(0, std::min(wealth, gap - st));
            int vp = conflict.base + conflict.per * (st + top_up);
            double cost = top_up * ctx.mv + battle_card_value(ctx, c, held - 1) * ctx.p.keep_card;
            scored.push_back({vp - cost, d});
        }
        auto [v, d] = first_max(scored);
        return v > 0 ? d : H_PASS;
    }
    // a card is in: top up with dollars (1 VP each) while they are worth less
    if (contains_decision(legal, H_ONE_MORE) && gap > 0 && ctx.mv < conflict.per) return H_ONE_MORE;
    if (!commits.empty() && gap > 0) {
        Decision d = lowest(commits, [&](const Decision& x) { return battle_card_value(ctx, card(x), held - 1); });
        int c = card(d);
        if (conflict.per * ctx.def(c).strength > battle_card_value(ctx, c, held - 1)) return d;
    }
    return H_PASS;
}

inline Decision q_war_commit(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Frame& war = ctx.frame(F_WAR);
    std::vector<Decision> commits = of_kind(legal, COMMIT);
    if (commits.empty()) return H_PASS;
    auto card = [&](const Decision& d) { return ctx.committed_card(ctx.seat, d.arg); };
    if (ctx.seat == war.seat || ctx.seat == war.defender) {
        size_t best = 0;
        std::pair<int, double> best_key{ctx.def(card(commits[0])).strength, -battle_card_value(ctx, card(commits[0]))};
        for (size_t i = 1; i < commits.size(); ++i) {
            std::pair<int, double> key{ctx.def(card(commits[i])).strength, -battle_card_value(ctx, card(commits[i]))};
            if (key > best_key) best = i, best_key = key;
        }
        return commits[best];
    }
    // an ally: a card only if cheap to give
    Decision d = lowest(commits, [&](const Decision& x) { return battle_card_value(ctx, card(x)); });
    return ctx.def(card(d)).strength >= 3 ? d : H_PASS;
}

// Dollars from the loser, or VP: VP, unless dollars reach a Legacy band and pay more
// than the VP they replace.
inline Decision q_spoils(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    if (!contains_decision(legal, H_ONE_MORE)) return H_PASS;
    const Frame& war = ctx.frame(F_WAR);
    int limit = std::min(war.cap, ctx.s.wealth.at(war.loser));
    int w = ctx.s.wealth[ctx.seat];
    int best_j = 0;
    double best_v = 0.0;
    for (int j = 1; j < limit - war.k + 1; ++j) {
        double v = j * (ctx.mv - 1.0 + 0.3) + ctx.legacy_step(L_WEALTH, w, j);
        if (v > best_v + 1e-9) best_j = j, best_v = v;
    }
    return best_j > 0 ? H_ONE_MORE : H_PASS;
}

inline Decision q_fund_close(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Decision fund{FUND, 0};
    std::vector<Decision> closes = of_kind(legal, CLOSE);
    if (closes.empty()) return contains_decision(legal, fund) ? fund : H_PASS;
    auto keep_value = [&](const Decision& d) {
        const Slot& slot = ctx.slot(ctx.seat, d.arg);
        return market_card_value(ctx, slot.card, true) + 0.5 * (int)slot.pops.size() * 2;
    };
    Decision cheapest = lowest(closes, keep_value);
    if (contains_decision(legal, fund)) {
        double cost = (ctx.mult * ctx.cfg.fund_cost_per_multiplier) * ctx.mv;
        return cost <= keep_value(cheapest) + 1.0 ? fund : cheapest;
    }
    return cheapest;
}

inline Decision q_remove_influence(HeuristicCtx& ctx, const std::vector<Decision>& legal) {
    const Board& b = ctx.c.board;
    return lowest(legal, [&](const Decision& d) {
        int sp = d.arg;
        if (b.loop_storehouse.at(sp)) return b.loop_faction[sp] == ctx.fac ? ctx.tv : -ctx.tv;
        std::array<int, 4> tokens = district_tokens(ctx, sp);
        double before = district_value(ctx, sp, tokens);
        tokens[ctx.seat] -= 1;
        return before - district_value(ctx, sp, tokens);
    });
}

// The answer to the question of the top frame; H_NONE for a question it has no rule for.
inline Decision answer(HeuristicCtx& ctx, const Frame& f, const std::vector<Decision>& legal, Pcg64& rng) {
    const State& s = ctx.s;
    const int me = ctx.seat;
    switch (f.kind) {
        case F_PLACE_LEADER: return best_of(leader_space_scores(ctx, legal), rng);
        case F_LEADER_ACTION: {
            Scored scored;
            for (const Decision& d : legal) scored.push_back({score(ctx, d, true), d});
            return best_of(scored, rng);
        }
        case F_ACTIONS: return q_actions(ctx, legal, rng);
        case F_CONNECT: return q_connect(ctx, legal);
        case F_INFLUENCE: return q_influence(ctx, f, legal);
        case F_KEEP_BATTLE: {
            int held = ctx.battle_cards_held();
            return highest(legal, [&](const Decision& d) { return battle_card_value(ctx, item(f.ids, d.arg), held); });
        }
        case F_ATTACH_POP: {
            std::vector<Decision> opts = of_kind(legal, ATTACH_POP);
            if (opts.empty()) return H_PASS;
            return highest(opts, [&](const Decision& d) { return attach_slot_value(ctx, d.arg); });
        }
        case F_MOVES: return q_moves(ctx, f, legal);
        case F_BOOM_PICK: {
            std::vector<Decision> picks = of_kind(legal, BUY_MARKET);
            if (picks.empty()) return H_PASS;
            int w = s.wealth[me];
            auto value = [&](const Decision& d) { return market_card_value(ctx, item(s.market, d.arg), false, w); };
            Decision best = highest(picks, value);
            return value(best) > f.n * ctx.mv ? best : H_PASS;
        }
        case F_SEARCH_PICK:
            return highest(legal, [&](const Decision& d) {
                int cid = item(f.ids, d.arg);
                int price = ctx.market_price(cid);
                return market_card_value(ctx, cid, false, s.wealth[me] - price) - price * ctx.mv;
            });
        case F_REROLL: return q_reroll(ctx, f);
        case F_HINDER: return faction(ctx.frame(F_RAID).seat) != faction(me) ? H_YES : H_PASS;
        case F_VETO: {
            double hurt = -decree_value_for_me(ctx, f.vice, ctx.frame(F_DECREE).seat);
            return hurt > 6 * ctx.tv ? H_YES : H_PASS;
        }
        case F_WAR_JOIN: return H_PASS;  // a card for a third of the spoils at most: stay out
        case F_WAR_ACCEPT: return H_YES;
        case F_WAR_COMMIT: return q_war_commit(ctx, legal);
        case F_WAR_DISCARD: return H_PASS;
        case F_SPOILS: return q_spoils(ctx, legal);
        case F_ALLY_PAY: return H_PASS;
        case F_SHARE: return contains_decision(legal, H_PASS) ? H_PASS : Decision{CHOOSE, 0};
        case F_CONTRIBUTE: return q_contribute(ctx, legal);
        case F_FUND_CLOSE: return q_fund_close(ctx, legal);
        case F_LOSE_POP: return lowest(legal, [&](const Decision& d) { return pop_keep_value(ctx, d.arg); });
        case F_REMOVE_INFLUENCE: return q_remove_influence(ctx, legal);
        // Simulation Mode (simulation.py)
        case F_DECLARE_ROLE: {
            bool fighter = ctx.storehouse_tokens() >= ctx.cfg.folk_hero_cost && ctx.battle_cards_held() >= 2;
            return {CHOOSE, fighter ? LEADER : ALLY};
        }
        case F_STOREHOUSE_VETO: return H_YES;
        case F_RULER_BUY: return contains_decision(legal, {BUY_BATTLE, 0}) ? Decision{BUY_BATTLE, 0} : legal[0];
        // the first edition (first_edition.py)
        case F_FE_INTERVENE: return fe_intervene(ctx);
        case F_FE_HINDER: return fe_hinder(ctx);
        case F_FE_COMMIT: return fe_commit(ctx, f, legal);
        case F_FE_TOKENS: return fe_tokens(ctx, f);
        case F_FE_DONATE: return H_PASS;
        case F_FE_PLUNDER: return fe_plunder(ctx, legal);
        default: return H_NONE;
    }
}

// The value of every legal decision of a scored question (Leader space, Leader Action,
// Actions, Influence placement) in VP equivalents, in legal order; empty for the other
// questions (HeuristicAgent.option_scores). Draws nothing.
inline Scored option_scores(HeuristicCtx& ctx, const Frame& f, const std::vector<Decision>& legal) {
    Scored scored;
    switch (f.kind) {
        case F_PLACE_LEADER: return leader_space_scores(ctx, legal);
        case F_LEADER_ACTION:
        case F_ACTIONS:
            for (const Decision& d : legal) scored.push_back({score(ctx, d, f.kind == F_LEADER_ACTION), d});
            return scored;
        case F_INFLUENCE: {
            bool store = false, start = false;
            for (const Decision& d : legal) store |= d.kind == STORE, start |= d.kind == INFLUENCE_START;
            if (store) return store_scores(ctx, f.n, legal);
            if (start) plan(ctx, f.n, -1, false, &scored);
            else plan(ctx, f.n, f.pos, true, &scored);
            return scored;
        }
        default: return scored;
    }
}

}  // namespace heuristic

// The heuristic player on the native engine, with its own generator (the Python agent's
// ``rng``) for its ties.
struct HeuristicPlayer : Player {
    HeuristicParams params;

    HeuristicPlayer(const HeuristicParams& params_, const Pcg64& rng_) : Player(rng_), params(params_) {}

    Decision choose(const Game& g, int seat) override {
        const std::vector<Decision>& legal = g.legal();
        if (legal.empty()) throw std::invalid_argument("no legal decision (is the game over?)");
        if (legal.size() == 1) return legal[0];
        HeuristicCtx ctx(g, seat, params);
        Decision choice = heuristic::answer(ctx, g.state().stack.back(), legal, rng);
        if (!g.is_legal(choice)) choice = g.is_legal(heuristic::H_PASS) ? heuristic::H_PASS : legal[0];
        return choice;
    }
    std::unique_ptr<Player> clone() const override { return std::make_unique<HeuristicPlayer>(*this); }

    // heuristic::option_scores of ``seat`` at ``g`` (empty when the game is over).
    heuristic::Scored option_scores(const Game& g, int seat) const {
        const std::vector<Decision>& legal = g.legal();
        if (legal.empty()) return {};
        HeuristicCtx ctx(g, seat, params);
        return heuristic::option_scores(ctx, g.state().stack.back(), legal);
    }
};

}  // namespace sg
