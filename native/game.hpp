// The native engine's game: the content and configuration it is built from (passed from
// Python's loaded Content and RulesConfig: no card or number is written here), the state
// as plain ints and vectors, and the setup (deal) of each ruleset.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rng.hpp"

namespace sg {

using Ids = std::vector<int>;

// What the rules read of a Content (singapore_env.engine.content.Content), by card id.
struct Content {
    Ids market_ids, leader_ids, population_ids, folk_ids;
    Ids battle_ids[2];                  // by faction
    Ids event_ids_i, event_ids_ii;      // the two Event decks
    Ids star;                         // card id -> a star Battle card
    std::vector<std::string> keys;      // card id -> its key
    int loop_spaces = 0, vices = 0, leader_spaces = 0;
};

// The numbers of a RulesConfig that the rules read (and the ruleset it names).
struct Config {
    std::string ruleset = "standard";
    int market_slots = 5, max_hand = 12, event_i_cards = 3, event_ii_cards = 4;
    std::vector<std::string> sim_put_away_british;
};

// One card in a tableau (state.Slot).
struct Slot {
    int card = -1;
    bool up = true, link = false, activated = false, searched = false;
    Ids pops;
    int stored = 0;
    std::string down;
};

// The state fields the deal sets (state.GameState; the rest of it comes with the rules).
struct State {
    int first_player = 0;
    Ids market, market_deck, population_deck, event_deck, districts, outlawed, leader_space;
    Ids folk_deck, put_away;
    Ids battle_deck[2], battle_discard[2];
    std::vector<Ids> hands = std::vector<Ids>(4);
    std::vector<std::vector<Slot>> tableau = std::vector<std::vector<Slot>>(4);
    std::vector<std::string> log_text;
};

constexpr int CLOCKWISE[4] = {0, 2, 1, 3};  // seats in clockwise order (rules/base.py)

inline int faction(int seat) { return seat / 2; }

class Game {
public:
    Game(std::shared_ptr<const Content> content, const Config& config, uint64_t seed,
         bool keep_text_log)
        : content_(std::move(content)), c_(*content_), cfg_(config), rng_(seed), keep_text_log_(keep_text_log) {
        deal();
    }
    const State& state() const { return s_; }
    const Pcg64& rng() const { return rng_; }

private:
    void shuffle(Ids& cards) {
        if (cards.size() > 1) {
            std::vector<int64_t> order = rng_.permutation((int64_t)cards.size());
            Ids out(cards.size());
            for (size_t i = 0; i < order.size(); ++i) out[i] = cards[order[i]];
            cards.swap(out);
        }
    }
    void log(std::string text) {
        if (keep_text_log_) s_.log_text.push_back(std::move(text));
    }
    int draw_battle(int fac) {
        Ids& deck = s_.battle_deck[fac];
        if (deck.empty()) {
            if (s_.battle_discard[fac].empty()) return -1;
            deck.swap(s_.battle_discard[fac]);
            shuffle(deck);
        }
        int card = deck.back();
        deck.pop_back();
        return card;
    }
    void draw_to_hand(int seat, int n) {
        const int fac = faction(seat);
        for (int k = 0; k < n; ++k) {
            int card = draw_battle(fac);
            if (card < 0) return;
            if ((int)s_.hands[seat].size() < cfg_.max_hand) {
                s_.hands[seat].push_back(card);
            } else {
                s_.battle_discard[fac].push_back(card);
                log("seat " + std::to_string(seat) + " hand full: Battle card discarded");
            }
        }
    }
    void fill_market() {
        Ids cards;
        for (int x : s_.market)
            if (x >= 0) cards.push_back(x);
        Ids fresh;
        for (int k = (int)cards.size(); k < cfg_.market_slots; ++k) {
            if (s_.market_deck.empty()) {
                fresh.push_back(-1);
            } else {
                fresh.push_back(s_.market_deck.back());
                s_.market_deck.pop_back();
            }
        }
        s_.market.assign(fresh.rbegin(), fresh.rend());
        s_.market.insert(s_.market.end(), cards.begin(), cards.end());
    }
    // Simulation Mode's setup step (rules/roles.py setup_simulation).
    void setup_simulation() {
        Ids kept;
        for (int card : s_.battle_deck[1]) (c_.star[card] ? s_.put_away : kept).push_back(card);
        s_.battle_deck[1].swap(kept);
        Ids& british = s_.battle_deck[0];
        for (const std::string& key : cfg_.sim_put_away_british) {
            for (auto it = british.begin(); it != british.end(); ++it) {
                if (c_.keys[*it] == key) {
                    s_.put_away.push_back(*it);
                    british.erase(it);
                    break;
                }
            }
        }
        s_.folk_deck = c_.folk_ids;
        shuffle(s_.folk_deck);
    }
    // Game._setup: first player, decks, market, one Battle card each.
    void deal() {
        s_.first_player = CLOCKWISE[rng_.integers(0, 4)];
        for (int seat = 0; seat < 4; ++seat) {
            Slot leader;
            leader.card = c_.leader_ids[seat];
            s_.tableau[seat].push_back(leader);
        }
        s_.market_deck = c_.market_ids;
        shuffle(s_.market_deck);
        s_.population_deck = c_.population_ids;
        shuffle(s_.population_deck);
        for (int fac = 0; fac < 2; ++fac) {
            s_.battle_deck[fac] = c_.battle_ids[fac];
            shuffle(s_.battle_deck[fac]);
        }
        if (cfg_.ruleset == "simulation") setup_simulation();
        Ids events_ii = c_.event_ids_ii, events_i = c_.event_ids_i;
        shuffle(events_ii);
        shuffle(events_i);
        if ((int)events_i.size() < cfg_.event_i_cards || (int)events_ii.size() < cfg_.event_ii_cards)
            throw std::invalid_argument("not enough Event cards in the content for this configuration");
        s_.event_deck.assign(events_ii.begin(), events_ii.begin() + cfg_.event_ii_cards);
        s_.event_deck.insert(s_.event_deck.end(), events_i.begin(), events_i.begin() + cfg_.event_i_cards);
        s_.districts.assign(c_.loop_spaces * 4, 0);
        s_.outlawed.assign(c_.vices, -1);
        s_.leader_space.assign(c_.leader_spaces, -1);
        s_.market.assign(cfg_.market_slots, -1);
        fill_market();
        int start = 0;
        while (CLOCKWISE[start] != s_.first_player) ++start;
        for (int k = 0; k < 4; ++k) draw_to_hand(CLOCKWISE[(start + k) % 4], 1);
    }

    std::shared_ptr<const Content> content_;
    const Content& c_;
    Config cfg_;
    Pcg64 rng_;
    bool keep_text_log_;
    State s_;
};

}  // namespace sg
