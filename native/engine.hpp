// The rules, as the Python engine plays them (engine/game.py and engine/rules/*.py): the
// frame stack, each frame kind's automatic step or question (legal decisions in the same
// order) and its answer. Function names follow the Python ones, so that a rule is found
// in both engines by the same name. Every ruleset: the standard rules, Simulation
// Mode's Roles and the first edition's Raid and War.
#pragma once

#include <array>
#include <climits>
#include <memory>
#include <tuple>
#include <stdexcept>
#include <string>
#include <vector>

#include "content.hpp"
#include "rng.hpp"
#include "state.hpp"

namespace sg {

constexpr int CLOCKWISE[4] = {0, 2, 1, 3};  // seats in clockwise order (rules/base.py)
constexpr int DETACH = -1;
enum { SPACE_MARKET = 0, SPACE_POPULATE = 1, SPACE_BATTLE = 2 };
enum { ALLY = 0, LEADER = 1, RULER = 2 };

inline int faction(int seat) { return seat / 2; }
inline int mate(int seat) { return seat ^ 1; }
template <class List>
inline bool contains(const List& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

inline std::array<int, 4> clockwise_from(int seat) {
    int i = 0;
    while (CLOCKWISE[i] != seat) ++i;
    return {CLOCKWISE[i], CLOCKWISE[(i + 1) % 4], CLOCKWISE[(i + 2) % 4], CLOCKWISE[(i + 3) % 4]};
}

class Game;
std::string broken_invariants(const Game& g);  // invariants.hpp

// Freed blocks of one size kept per thread for the next allocation (at most 16): search
// makes and drops copies of games by the thousand, and malloc serves a block of tens of
// kilobytes more slowly than a game is copied.
template <size_t SIZE>
class BlockCache {
public:
    static void* take() {
        Blocks& b = blocks();
        return b.n ? b.items[--b.n] : ::operator new(SIZE);
    }
    static void give(void* p) {
        Blocks& b = blocks();
        if (b.n < 16) b.items[b.n++] = p;
        else ::operator delete(p);
    }

private:
    struct Blocks {
        void* items[16];
        int n = 0;
        ~Blocks() {
            while (n) ::operator delete(items[--n]);
        }
    };
    static Blocks& blocks() {
        thread_local Blocks b;
        return b;
    }
};

class Game {
public:
    static void* operator new(size_t size) {
        return size == sizeof(Game) ? BlockCache<sizeof(Game)>::take() : ::operator new(size);
    }
    static void operator delete(void* p, size_t size) {
        if (size == sizeof(Game)) BlockCache<sizeof(Game)>::give(p);
        else ::operator delete(p);
    }

    Game(std::shared_ptr<const Content> content, std::shared_ptr<const Config> config,
         uint64_t seed)
        : Game(std::move(content), std::move(config), Pcg64(seed)) {}
    // A new game drawing from ``rng`` (Pcg64(seed) for a game of that seed).
    Game(std::shared_ptr<const Content> content, std::shared_ptr<const Config> config,
         const Pcg64& rng)
        : content_(std::move(content)), config_(std::move(config)), rng_(rng) {
        find_sources();
        setup();
        run();
        check_invariants(-1);
    }
    // A game continued from a saved state, generator state and decision log (loaded and
    // validated by the Python engine's loader).
    Game(std::shared_ptr<const Content> content, std::shared_ptr<const Config> config,
         const Pcg64& rng, State state, const std::vector<Decision>& history)
        : content_(std::move(content)), config_(std::move(config)), rng_(rng), s_(std::move(state)) {
        for (Decision d : history) history_.push_back(d);
        find_sources();
        check_loaded();
        run();
        check_invariants(-1);
    }

    const State& state() const { return s_; }
    const Content& content() const { return *content_; }
    const Config& config() const { return *config_; }
    std::vector<Decision> history() const { return history_.items(); }
    const Pcg64& rng() const { return rng_; }
    const std::vector<Decision>& legal() const { return legal_; }
    bool is_over() const { return s_.game_over != 0; }
    int acting_seat() const { return !s_.stack.empty() && !s_.game_over ? s_.stack.back().seat : -1; }

    bool is_legal(Decision d) const { return std::find(legal_.begin(), legal_.end(), d) != legal_.end(); }

    // Apply a legal decision of the acting seat (the caller checked it is legal).
    void step(Decision d) {
        apply(d);
        history_.push_back(d);
        s_.decisions += 1;
        run();
        check_invariants(s_.decisions);
    }

private:
    // The debug build (SINGAPORE_NATIVE_DEBUG) checks the invariants after the setup, a
    // loading and every decision (-1: none yet).
    void check_invariants([[maybe_unused]] int decisions) const {
#ifdef SINGAPORE_NATIVE_DEBUG
        std::string why = broken_invariants(*this);
        if (!why.empty())
            throw std::logic_error("native game invariant broken after " +
                                   (decisions < 0 ? std::string("the start") : "decision " + std::to_string(decisions)) +
                                   ": " + why);
#endif
    }

    const Content& c() const { return *content_; }
    const Config& cfg() const { return *config_; }
    const Card& def(int card) const { return content_->defs[card]; }
    int vp_source(const std::string& name) const { return index_of(cfg().vp_sources, name); }
    void find_sources() {
        src_ = {vp_source("district"), vp_source("upkeep_tax"), vp_source("most_tax"),
                vp_source("conflict"), vp_source("conflict_excess"), vp_source("war_spoils"),
                vp_source("decree"), vp_source("legacy"), vp_source("end_game"),
                vp_source("war_plunder")};
    }
    Frame& top() { return s_.stack.back(); }

    // ------------------------------------------------------------ running
    void run() {
        auto& stack = s_.stack;
        while (!stack.empty()) {
            if (auto_step(stack.back())) continue;
            std::vector<Decision> options = question(stack.back());
            if (options.empty()) {
                stack.pop_back();
            } else if (options.size() == 1) {
                apply(options[0]);
            } else {
                legal_ = std::move(options);
                return;
            }
        }
        legal_.clear();
    }

    // The automatic step of the top frame, if its kind has one (true: it ran).
    bool auto_step(Frame& f) {
        switch (f.kind) {
            case F_ROUND: start_round(); return true;
            case F_EVENTS: events(); return true;
            case F_INCOME: income(); return true;
            case F_TURN: turn(); return true;
            case F_CLEANUP: cleanup(); return true;
            case F_END_GAME: end_game(); return true;
            case F_PLACE_CARD: place_card(); return true;
            case F_REFILL_MARKET: s_.stack.pop_back(); fill_market(); return true;
            case F_EFFECTS: continue_effects(); return true;
            case F_DECREE: decree_step(); return true;
            case F_RAID: raid_step(); return true;
            case F_CONFLICT: conflict_step(); return true;
            case F_UPKEEP: upkeep(); return true;
            case F_WAR: war_step(); return true;
            case F_REVEAL_ROLES: reveal_roles(); return true;
            case F_RAID_FE: raid_fe_step(); return true;
            case F_WAR_FE: war_fe_step(); return true;
            default: return false;
        }
    }

    std::vector<Decision> question(Frame& f) {
        switch (f.kind) {
            case F_PLACE_LEADER: return place_leader_legal(f);
            case F_LEADER_ACTION: return leader_action_legal(f);
            case F_ACTIONS: return actions_legal(f);
            case F_CONNECT: return connect_legal(f);
            case F_BOOM_PICK: return boom_pick_legal(f);
            case F_KEEP_BATTLE: return {{KEEP_BATTLE, 0}, {KEEP_BATTLE, 1}};
            case F_SEARCH_PICK: {
                std::vector<Decision> out;
                for (int i = 0; i < (int)f.ids.size(); ++i) out.push_back({CHOOSE, i});
                return out;
            }
            case F_INFLUENCE: return influence_legal(f);
            case F_REMOVE_INFLUENCE: return remove_influence_legal(f);
            case F_MOVES: return moves_legal(f);
            case F_ATTACH_POP: return attach_pop_legal(f);
            case F_LOSE_POP: return lose_pop_legal(f);
            case F_VETO: return veto_available(f) ? yes_pass() : std::vector<Decision>{};
            case F_REROLL: return reroll_legal(f);
            case F_HINDER: return yes_pass();
            case F_CONTRIBUTE: return contribute_legal(f);
            case F_FUND_CLOSE: return fund_close_legal(f);
            case F_WAR_JOIN: return may_join(f) ? yes_pass() : std::vector<Decision>{};
            case F_WAR_ACCEPT: return yes_pass();
            case F_WAR_COMMIT: return war_commit_legal(f);
            case F_WAR_DISCARD: return war_discard_legal(f);
            case F_SPOILS: {
                Frame& w = find_frame(F_WAR);
                bool room = w.k < std::min(w.cap, s_.wealth[w.loser]);
                return room ? std::vector<Decision>{{ADD_MONEY, 0}, {PASS, 0}}
                            : std::vector<Decision>{{PASS, 0}};
            }
            case F_ALLY_PAY: {
                Frame& w = find_frame(F_WAR);
                bool room = w.paid < std::min(w.k, s_.wealth[f.seat]);
                return room ? std::vector<Decision>{{ADD_MONEY, 0}, {PASS, 0}}
                            : std::vector<Decision>{{PASS, 0}};
            }
            case F_DECLARE_ROLE: return {{CHOOSE, ALLY}, {CHOOSE, LEADER}};
            case F_STOREHOUSE_VETO: return yes_pass();
            case F_RULER_BUY: return buy_battle_options(f.seat);
            case F_FE_INTERVENE:
                return find_frame(F_RAID_FE).intervener < 0 ? yes_pass() : std::vector<Decision>{};
            case F_FE_HINDER: return yes_pass();
            case F_FE_COMMIT: return fe_commit_legal(f);
            case F_FE_TOKENS:
                return s_.storehouse[faction(f.seat)] > 0 ? one_more() : std::vector<Decision>{};
            case F_FE_DONATE: {
                const Frame& war = find_frame(F_WAR_FE);
                return war.due > 0 && s_.wealth[f.seat] > 0 ? one_more() : std::vector<Decision>{};
            }
            case F_FE_PLUNDER: return fe_plunder_legal(f);
            case F_SHARE: {
                std::vector<Decision> out;
                for (int i = 0; i < (int)cfg().spoils_shares.size(); ++i) out.push_back({CHOOSE, i});
                if (cfg().spoils_optional) out.push_back({PASS, 0});
                return out;
            }
        }
        throw std::logic_error("no question for frame " + FRAME_NAMES[f.kind]);
    }

    void apply(Decision d) {
        Frame& f = top();
        switch (f.kind) {
            case F_PLACE_LEADER: place_leader_apply(d); return;
            case F_LEADER_ACTION: leader_action_apply(d); return;
            case F_ACTIONS: actions_apply(d); return;
            case F_CONNECT: connect_apply(d); return;
            case F_BOOM_PICK: boom_pick_apply(d); return;
            case F_KEEP_BATTLE: {
                Frame fr = pop();
                s_.hands[fr.seat].push_back(fr.ids[d.arg]);
                s_.battle_discard[faction(fr.seat)].push_back(fr.ids[1 - d.arg]);
                return;
            }
            case F_SEARCH_PICK: search_pick_apply(d); return;
            case F_INFLUENCE: influence_apply(d); return;
            case F_REMOVE_INFLUENCE: remove_influence_apply(d); return;
            case F_MOVES: moves_apply(d); return;
            case F_ATTACH_POP: {
                Frame fr = pop();
                if (d.kind == PASS) s_.population_discard.push_back(fr.card);
                else s_.tableau[fr.seat][d.arg].pops.push_back(fr.card);
                return;
            }
            case F_LOSE_POP: lose_pop_apply(d); return;
            case F_VETO: {
                Frame fr = pop();
                if (d.kind == YES) apply_veto(fr);
                return;
            }
            case F_REROLL: reroll_apply(d); return;
            case F_HINDER: {
                Frame fr = pop();
                if (d.kind == YES) {
                    auto [card, b] = held_boost(fr.seat, B_RAID_HINDER);
                    mark_used(card, *b);
                    find_frame(F_RAID).hinder += b->n;
                }
                return;
            }
            case F_CONTRIBUTE: contribute_apply(d); return;
            case F_FUND_CLOSE: fund_close_apply(d); return;
            case F_WAR_JOIN: {
                Frame fr = pop();
                if (d.kind == YES) find_frame(F_WAR).joined[fr.side] = 1;
                return;
            }
            case F_WAR_ACCEPT: {
                Frame fr = pop();
                if (d.kind == YES) find_frame(F_WAR).allies[fr.side] = mate(fr.seat);
                return;
            }
            case F_WAR_COMMIT: {
                Frame fr = pop();
                if (d.kind == COMMIT) find_frame(F_WAR).commits[fr.seat] = take_committed(fr.seat, d.arg);
                return;
            }
            case F_WAR_DISCARD: war_discard_apply(d); return;
            case F_SPOILS:
                if (d.kind == ADD_MONEY) find_frame(F_WAR).k += 1;
                else pop();
                return;
            case F_ALLY_PAY:
                if (d.kind == ADD_MONEY) find_frame(F_WAR).paid += 1;
                else pop();
                return;
            case F_DECLARE_ROLE: {
                Frame fr = pop();
                s_.roles[fr.seat] = d.arg;
                return;
            }
            case F_STOREHOUSE_VETO: storehouse_veto_apply(d); return;
            case F_FE_INTERVENE: {
                Frame fr = pop();
                if (d.kind == YES) {
                    find_frame(F_RAID_FE).intervener = fr.seat;
                    Frame commit(F_FE_COMMIT, fr.seat);
                    commit.parent = F_RAID_FE;
                    commit.must = 1;
                    push(commit);
                }
                return;
            }
            case F_FE_HINDER: {
                Frame fr = pop();
                if (d.kind == YES) {
                    auto [card, b] = held_boost(fr.seat, B_RAID_HINDER);
                    mark_used(card, *b);
                    find_frame(F_RAID_FE).hinder += b->n;
                }
                return;
            }
            case F_FE_COMMIT: fe_commit_apply(d); return;
            case F_FE_TOKENS: {
                if (d.kind == PASS) {
                    pop();
                    return;
                }
                add_storehouse(faction(f.seat), -1);
                find_frame(F_WAR_FE).tokens[f.side] += 1;
                return;
            }
            case F_FE_DONATE: {
                if (d.kind == PASS) {
                    pop();
                    return;
                }
                Frame& war = find_frame(F_WAR_FE);
                gain(f.seat, -1);
                gain(war.victor, 1);
                war.due -= 1;
                return;
            }
            case F_FE_PLUNDER: fe_plunder_apply(d); return;
            case F_RULER_BUY: {
                Frame fr = pop();
                buy_battle(fr.seat, d.arg != 0);
                return;
            }
            case F_SHARE: {
                pop();
                if (d.kind == CHOOSE) find_frame(F_WAR).share = d.arg;
                return;
            }
        }
        throw std::logic_error("no answer for frame " + FRAME_NAMES[f.kind]);
    }

    static std::vector<Decision> yes_pass() { return {{YES, 0}, {PASS, 0}}; }
    static std::vector<Decision> one_more() { return {{ADD_MONEY, 0}, {PASS, 0}}; }

    // ------------------------------------------------------------ stack and chance
    // Push frames so that the first one given runs first.
    void push(std::vector<Frame> frames) {
        for (auto it = frames.rbegin(); it != frames.rend(); ++it) s_.stack.push_back(std::move(*it));
    }
    void push(Frame f) { s_.stack.push_back(std::move(f)); }
    Frame pop() {
        Frame f = std::move(s_.stack.back());
        s_.stack.pop_back();
        return f;
    }
    Frame& find_frame(int kind) {
        for (auto it = s_.stack.rbegin(); it != s_.stack.rend(); ++it)
            if (it->kind == kind) return *it;
        throw std::logic_error("no " + FRAME_NAMES[kind] + " frame on the stack");
    }
    Ids roll_d4(int dice) {
        Ids out;
        for (int i = 0; i < dice; ++i) out.push_back((int)rng_.integers(1, cfg().d4_sides + 1));
        return out;
    }
    Ids roll_dice(int dice) {
        Ids out;
        for (int i = 0; i < dice; ++i) out.push_back(cfg().faces[rng_.integers(0, (int64_t)cfg().faces.size())]);
        return out;
    }
    int roll(int dice) {
        int total = 0;
        for (int x : roll_dice(dice)) total += x;
        return total;
    }
    template <class List>
    void shuffle(List& cards) {
        if (cards.size() > 1) {
            std::vector<int64_t> order = rng_.permutation((int64_t)cards.size());
            List out = cards;
            for (size_t i = 0; i < order.size(); ++i) out[i] = cards[order[i]];
            cards = out;
        }
    }

#include "rules_base.inc"
#include "rules_turn.inc"
#include "rules_market.inc"
#include "rules_tableau.inc"
#include "rules_fights.inc"
#include "rules_roles.inc"
#include "rules_first_edition.inc"
#include "rules_loaded.inc"

public:
    // The seat's final VP if the game ended now (scoring.py projected_final_vp: dice
    // bonuses at their mean, one a die): public information, no die rolled.
    int64_t projected_final_vp(int seat) const {
        return s_.vp[seat] + legacy_vp(seat) + end_game_total(seat, [](const Effect& e) { return e.dice; });
    }

private:
    friend struct CandidateWriter;  // players read the rules by their own functions
    friend struct Determinizer;     // resamples what a seat cannot see (determinize.hpp)
    friend struct HeuristicCtx;     // the heuristic player's view (heuristic_context.hpp)

    std::shared_ptr<const Content> content_;
    std::shared_ptr<const Config> config_;
    Pcg64 rng_;
    State s_;
    std::vector<Decision> legal_;
    Log<Decision> history_;
    struct Sources { int district, upkeep_tax, most_tax, conflict, conflict_excess, war_spoils,
                     decree, legacy, end_game, war_plunder; } src_{};
};

}  // namespace sg
