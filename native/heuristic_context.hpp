// The heuristic player's view of the game from one seat (agents/heuristic/context.py):
// its exchange rates (a dollar, a Storehouse token, an Influence token in VP
// equivalents), Legacy steps, the Conflict Events still to come and the Battle cards it
// cannot see; the tunable numbers (HeuristicParams, from the Python DEFAULT_PARAMS
// merged with a spec's). Every double follows the Python float operations in their
// order, so that the scores are equal bit for bit.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "engine.hpp"

namespace sg {

// Entry ``i`` of one of the state's lists, checked.
template <class List>
auto item(const List& list, int i) -> decltype(list[0]) {
    if (i < 0 || i >= (int)list.size()) throw std::out_of_range("heuristic: index " + std::to_string(i) + " out of range");
    return list[i];
}

struct HeuristicParams {
    double action_cost = 1.0, opp_vp_weight = 0.5, vice_survival = 0.75, ship_value = 0.2;
    bool pw_close_risk = true;
    double money_scale = 0.8, token_scale = 0.5, battle_scale = 1.4, war_margin = 0.0, keep_card = 0.6;
};

// A Python dict keyed by small ints, in insertion order (its iteration order decides
// the order of float sums).
struct OrderedDist {
    std::vector<std::pair<int, double>> items;
    double& at(int key) {
        for (auto& kv : items)
            if (kv.first == key) return kv.second;
        items.push_back({key, 0.0});
        return items.back().second;
    }
};

// One decision's view of the game from ``seat`` (context.py Ctx), with its caches. It is
// the heuristic's one friend of Game: the rules' own functions are read through it.
struct HeuristicCtx {
    const Game& g;
    const State& s;
    const Content& c;
    const Config& cfg;
    const HeuristicParams& p;
    int seat, fac, store_fac, drop_extra, round, last_round, rounds_left, mult;
    bool scores_all;
    double mv = 0, tv = 0;
    std::optional<double> iv_cache;                     // influence token_value
    std::map<std::tuple<int, int, int>, std::pair<double, Decision>> plans;  // influence_plan

    HeuristicCtx(const Game& game, int seat_, const HeuristicParams& params)
        : g(game), s(game.s_), c(game.c()), cfg(game.cfg()), p(params), seat(seat_) {
        if (seat < 0 || seat > 3) throw std::invalid_argument("seat must be 0..3");
        fac = faction(seat);
        store_fac = g.storehouse_of(seat);
        scores_all = g.scores_everywhere(seat);
        drop_extra = g.lone_leader(seat) ? cfg.lone_leader_extra_tokens : 0;
        round = std::max(1, s.round);
        last_round = round + (int)s.event_deck.size();
        rounds_left = last_round + 1 - round;
        mult = g.multiplier();
        mv = money_value() * p.money_scale;
        tv = token_value_rate() * p.token_scale;
    }

    const Card& def(int card) const {
        if (card < 0 || card >= (int)c.defs.size()) throw std::out_of_range("heuristic: no card " + std::to_string(card));
        return c.defs[card];
    }

    // ------------------------------------------------------------ exchange rates
    double money_value() const {
        int to_go = last_round - round;
        double mv_ = to_go >= 3 ? 0.55 : to_go == 2 ? 0.5 : to_go == 1 ? 0.42 : 0.25;
        if (to_go <= 2) {
            double step = legacy_step(L_WEALTH, s.wealth[seat], 1);
            mv_ = std::max(mv_, std::min(1.0, step));
        }
        return mv_;
    }
    double token_value_rate() const {
        double tv_ = 0.45;
        if (legacy_of(L_OUTLAWED_VICES)) {
            int done = (int)std::count(s.outlawed.begin(), s.outlawed.end(), seat);
            int legal_vices = 0;
            for (int v : s.outlawed) legal_vices += v < 0;
            if (done < 3 && legal_vices) tv_ = 0.9;
        }
        if (round == last_round) tv_ *= 0.5;
        return tv_;
    }
    std::pair<std::array<int, 4>, int> tax() const { return g.tax_totals(); }

    // ------------------------------------------------------------ legacies
    const Legacy* legacy_of(int metric) const {
        for (const Legacy& leg : def(c.leader_ids.at(seat)).legacies)
            if (leg.metric == metric) return &leg;
        return nullptr;
    }
    // Smoothed VP of raising a Legacy metric from ``value`` by ``delta``.
    double legacy_step(int metric, int value, int delta) const {
        const Legacy* leg = legacy_of(metric);
        if (!leg || delta == 0) return 0.0;
        if (leg->per) return (double)((int64_t)leg->per * delta);
        int cur = 0, nw = 0;
        bool any_cur = false, any_new = false;
        for (auto [t, vp] : leg->bands) {
            if (value >= t) cur = any_cur ? std::max(cur, vp) : vp, any_cur = true;
            if (value + delta >= t) nw = any_new ? std::max(nw, vp) : vp, any_new = true;
        }
        if (nw > cur) return (double)(nw - cur);
        bool found = false;
        std::pair<int, int> best{0, 0};
        for (auto band : leg->bands)
            if (band.first > value + delta && (!found || band < best)) best = band, found = true;
        if (!found) return 0.0;
        return 0.7 * (double)(best.second - cur) * delta / (double)(best.first - value);
    }
    int legacy_metric(int metric) const { return g.legacy_metric(seat, metric); }

    // ------------------------------------------------------------ conflicts
    std::optional<double> conflicts_cache;
    // Expected Conflict Events still to be revealed, from the Event cards not seen yet.
    double conflicts_left() {
        if (conflicts_cache) return *conflicts_cache;
        std::vector<int> seen(s.event_discard.begin(), s.event_discard.end());
        seen.push_back(s.current_event);
        auto is_seen = [&](int e) { return contains(seen, e); };
        int seen_i = 0;
        for (int e : c.event_ids_i) seen_i += is_seen(e);
        int deck = (int)s.event_deck.size();
        int n_i = std::max(0, std::min(deck, cfg.event_i_cards - seen_i));
        int n_ii = deck - n_i;
        double total = 0.0;
        const Ids* decks[2] = {&c.event_ids_i, &c.event_ids_ii};
        int ns[2] = {n_i, n_ii};
        for (int k = 0; k < 2; ++k) {
            int unseen = 0, conf = 0;
            for (int e : *decks[k]) {
                if (is_seen(e)) continue;
                ++unseen;
                for (const Effect& x : def(e).instant)
                    if (x.type == E_CONFLICT) {
                        ++conf;
                        break;
                    }
            }
            if (unseen && ns[k]) total += (double)(ns[k] * conf) / (double)unseen;
        }
        conflicts_cache = total;
        return total;
    }
    int battle_cards_held() const { return (int)(s.hands[seat].size() + s.revealed[seat].size()); }

    // Battle cards of ``fac`` this seat cannot see: the deck, the other players' hands
    // and their face-down cards in pending frames (a multiset, in Python's order).
    std::vector<int> unseen_pool(int f) const {
        std::vector<int> pool(s.battle_deck[f].begin(), s.battle_deck[f].end());
        for (int q = 0; q < 4; ++q)
            if (q != seat && faction(q) == f) pool.insert(pool.end(), s.hands[q].begin(), s.hands[q].end());
        for (const Frame& fr : s.stack) {
            if (fr.kind == F_KEEP_BATTLE && fr.seat != seat && faction(fr.seat) == f) {
                for (int x : fr.ids)
                    if (x >= 0) pool.push_back(x);
            } else if (fr.kind == F_WAR && fr.phase < WAR_SPOILS) {
                for (int q = 0; q < 4; ++q)
                    if (fr.commits[q] >= 0 && q != seat && faction(q) == f) pool.push_back(fr.commits[q]);
            }
        }
        return pool;
    }

    // The last frame of ``kind`` on the stack (find_frame).
    const Frame& frame(int kind) const {
        for (auto it = s.stack.rbegin(); it != s.stack.rend(); ++it)
            if (it->kind == kind) return *it;
        throw std::logic_error("heuristic: no " + FRAME_NAMES.at(kind) + " frame on the stack");
    }
    const Row& row(int q) const { return s.tableau.at(q); }
    const Slot& slot(int q, int pos) const {
        const Row& r = row(q);
        if (pos < 0 || pos >= (int)r.size()) throw std::out_of_range("heuristic: no tableau slot " + std::to_string(pos));
        return r[pos];
    }
    // The card a COMMIT arg names (hand index, or max_hand + revealed index).
    int committed_card(int q, int arg) const {
        int h = cfg.max_hand;
        const Cards& list = arg < h ? s.hands.at(q) : s.revealed.at(q);
        int i = arg < h ? arg : arg - h;
        if (i < 0 || i >= (int)list.size()) throw std::out_of_range("heuristic: no committed card " + std::to_string(arg));
        return list[i];
    }

    // ------------------------------------------------------------ the rules' queries
    int market_price(int card, bool purchase = true) const { return g.price_function(seat, purchase)(card).first; }
    int boost_total(int q, int type) const { return g.boost_total(q, type); }
    int modifier_total(int type) const { return g.modifier_total(type); }
    static std::vector<std::pair<int, int>> activation_groups(const Row& r) { return Game::activation_groups(r); }
    static std::pair<int, int> run_bounds(const Row& r, int i) { return Game::run_bounds(r, i); }
    bool joins(int left, int right) const { return g.joins(left, right); }
    Ids search_candidates(const Slot& sl) const { return g.search_candidates(seat, sl); }
    bool can_populate() const { return g.can_populate(seat); }
    std::vector<Decision> buy_battle_options() const { return g.buy_battle_options(seat); }
    bool vice_outlawed(int card) const { return g.vice_outlawed(card); }
    std::vector<std::pair<int, const Effect*>> own_boosts(int type) const {
        auto out = g.active_boosts(seat, type);
        for (auto& x : g.revealed_boosts(seat, type)) out.push_back(x);
        return out;
    }
    Ids vacant_slots() const {
        Ids out;
        const Row& r = row(seat);
        for (int i = 0; i < (int)r.size(); ++i)
            if (r[i].up && (int)r[i].pops.size() < def(r[i].card).pop_slots) out.push_back(i);
        return out;
    }
    int decree_cost(int vice) const { return g.decree_costs(seat).at(vice); }
    int spoils_multiplier(int defender) const { return g.spoils_multiplier(seat, {defender}); }
    bool star_allowed_in_war() const { return g.star_allowed_in_war(); }
    int war_cost() const { return g.war_cost(); }
    bool district_open(int sp) const { return g.district_open(sp); }
    bool may_access(int f) const { return g.may_access(seat, f); }
    int storehouse_tokens() const { return g.storehouse_tokens(seat); }
    Row row_after_card_move(const Row& r, int src, int target) const {
        Row trial = r;
        Game::move_card(trial, src, target);
        return trial;
    }
    int64_t own_strength(const Frame& f) const { return g.own_strength(f, seat); }
    Ids spendable_boosts(const Frame& f) const { return g.spendable_boosts(f, seat); }
    std::vector<int> commit_args(bool star_ok) const { return g.commit_options_args(seat, star_ok); }
    int steal_price(int card) const { return g.steal_price(seat, card); }
};

}  // namespace sg
