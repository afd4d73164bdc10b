// The determinization of agents/determinize.py: a copy of a game in which everything a
// seat cannot see is resampled. Every draw is the Python function's, in its order, from
// the same numpy generator (rng.hpp), so the same generator state gives the same world,
// save for save, and leaves the generator in the same state (tests/test_native_determinize.py).
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine.hpp"

namespace sg {

struct Determinizer {
    // A copy of ``game`` with everything hidden from ``seat`` resampled from ``rng``
    // (agents/determinize.py determinize).
    static std::unique_ptr<Game> determinize(const Game& game, int seat, Pcg64& rng) {
        if (seat < 0 || seat > 3) throw std::invalid_argument("seat must be 0..3, got " + std::to_string(seat));
        auto g = std::make_unique<Game>(game);
        State& s = g->s_;
        g->rng_ = Pcg64((uint64_t)rng.integers(0, INT64_MAX));
        shuffle(rng, s.market_deck);
        shuffle(rng, s.population_deck);
        resample_events(*g, rng);
        resample_battle_cards(*g, seat, rng);
        resample_roles(*g, seat, rng);
        g->run();  // the acting seat's question in this world (a forced one is answered)
#ifdef SINGAPORE_NATIVE_DEBUG
        std::string why = broken_invariants(*g);
        if (!why.empty()) throw std::logic_error("native determinization broke an invariant: " + why);
#endif
        return g;
    }

private:
    // A place a hidden Battle card is dealt back to (a hand, a pending frame's cards or a
    // War commit), the faction whose pool deals it and whether a star card may go there.
    struct Hole {
        int fac;
        bool star_ok;
        int16_t* card16;  // one of these two
        int* card32;
        void put(int card) const {
            if (card16) *card16 = (int16_t)card;
            else *card32 = card;
        }
    };

    // _shuffle: sorted first, so the result depends on the cards and the draws only.
    template <class List>
    static void shuffle(Pcg64& rng, List& cards) {
        std::sort(cards.begin(), cards.end());
        if (cards.size() > 1) {
            std::vector<int64_t> order = rng.permutation((int64_t)cards.size());
            List sorted = cards;
            for (size_t i = 0; i < order.size(); ++i) cards[i] = sorted[order[i]];
        }
    }

    static void resample_events(Game& g, Pcg64& rng) {
        State& s = g.s_;
        const Content& c = g.c();
        auto unseen = [&s](const Ids& ids) {
            std::vector<int> out;
            for (int e : ids)
                if (e != s.current_event && !contains(s.event_discard, e)) out.push_back(e);
            return out;
        };
        size_t n_i = 0;
        for (int e : s.event_deck) n_i += contains(c.event_ids_i, e);
        size_t n_ii = s.event_deck.size() - n_i;
        std::vector<int> unseen_i = unseen(c.event_ids_i), unseen_ii = unseen(c.event_ids_ii);
        shuffle(rng, unseen_i);
        shuffle(rng, unseen_ii);
        // bottom: Event II cards, top (end of the list): Event I cards
        s.event_deck.clear();
        s.event_deck.insert(s.event_deck.end(), unseen_ii.begin(), unseen_ii.begin() + std::min(n_ii, unseen_ii.size()));
        s.event_deck.insert(s.event_deck.end(), unseen_i.begin(), unseen_i.begin() + std::min(n_i, unseen_i.size()));
    }

    // _conflict_contributors: the seats that decided (or are deciding) their Conflict
    // contribution, every seat but those whose question still waits below the top frame.
    static std::array<bool, 4> contributors(const State& s, size_t conflict_at) {
        std::array<bool, 4> waiting{};
        for (size_t i = conflict_at + 1; i < s.stack.size(); ++i)
            if (s.stack[i].kind == F_CONTRIBUTE) waiting[seat_of(s.stack[i])] = true;
        if (conflict_at + 1 < s.stack.size() && s.stack.back().kind == F_CONTRIBUTE)
            waiting[seat_of(s.stack.back())] = false;  // the seat deciding now may have put some in
        return {!waiting[0], !waiting[1], !waiting[2], !waiting[3]};
    }

    static int seat_of(const Frame& f) {
        if (f.seat < 0 || f.seat > 3) throw std::logic_error("a " + FRAME_NAMES[f.kind] + " frame without a seat");
        return f.seat;
    }

    static const Card& card_def(const Game& g, int card) {
        if (card < 0 || card >= (int)g.c().defs.size())
            throw std::logic_error("determinize: card " + std::to_string(card) + " is not in the content");
        return g.def(card);
    }

    // Each faction's unseen pool (its Battle deck, the other hands, the hidden cards of
    // pending frames) shuffled and dealt back to the same places; then the hidden
    // Conflict contributions (marked hand cards, dollars, counter boosts) resampled.
    static void resample_battle_cards(Game& g, int seat, Pcg64& rng) {
        State& s = g.s_;
        std::array<std::vector<int>, 2> pools;
        for (int fac = 0; fac < 2; ++fac) pools[fac].assign(s.battle_deck[fac].begin(), s.battle_deck[fac].end());
        std::vector<Hole> holes;
        auto hidden = [&](int fac, bool star_ok, int16_t* c16, int* c32) {
            pools[fac].push_back(c16 ? *c16 : *c32);
            holes.push_back({fac, star_ok, c16, c32});
        };

        Frame* conflict = nullptr;
        size_t conflict_at = 0;
        for (size_t i = 0; i < s.stack.size() && !conflict; ++i)
            if (s.stack[i].kind == F_CONFLICT && s.stack[i].phase == CONFLICT_REVEAL) {
                conflict = &s.stack[i];
                conflict_at = i;
            }
        const bool conflict_star = g.star_allowed_in_conflict();
        std::array<std::vector<int>, 4> marked;  // hand indices of hidden contributions
        std::vector<int> money_holes;               // seats whose dollars are hidden
        if (conflict) {
            std::array<bool, 4> decided = contributors(s, conflict_at);
            for (int p = 0; p < 4; ++p) {
                if (p == seat) continue;
                const Cards& hand = s.hands[p];
                for (int x : conflict->cards[p]) {
                    auto at = std::find(hand.begin(), hand.end(), x);
                    if (at != hand.end()) marked[p].push_back((int)(at - hand.begin()));
                }
                if (decided[p]) money_holes.push_back(p);
            }
        }

        for (int p = 0; p < 4; ++p) {
            if (p == seat) continue;
            Cards& hand = s.hands[p];
            for (int i = 0; i < (int)hand.size(); ++i)
                hidden(faction(p), contains(marked[p], i) ? conflict_star : true, &hand[i], nullptr);
        }
        const bool war_star = g.star_allowed_in_war();
        for (Frame& f : s.stack) {
            if (f.kind == F_KEEP_BATTLE && f.seat != seat) {
                int fac = faction(seat_of(f));
                for (auto& card : f.ids)
                    if (card >= 0) hidden(fac, true, &card, nullptr);
            } else if (f.kind == F_WAR && f.phase < WAR_SPOILS) {
                for (int p = 0; p < 4; ++p)
                    if (p != seat && f.commits[p] >= 0) hidden(faction(p), war_star, nullptr, &f.commits[p]);
            } else if ((f.kind == F_RAID_FE || f.kind == F_WAR_FE) && !f.shown) {
                bool star_ok = war_star || f.kind != F_WAR_FE;
                for (int p = 0; p < 4; ++p)
                    if (p != seat)
                        for (auto& card : f.cards[p]) hidden(faction(p), star_ok, &card, nullptr);
            }
        }

        for (auto& pool : pools) shuffle(rng, pool);
        // The star-restricted holes first, so that they can get non-star cards.
        std::stable_sort(holes.begin(), holes.end(), [](const Hole& a, const Hole& b) { return a.star_ok < b.star_ok; });
        for (const Hole& h : holes) {
            std::vector<int>& pool = pools[h.fac];
            if (pool.empty()) throw std::logic_error("determinize: a Battle card pool ran out");
            size_t pick = pool.size() - 1;
            if (!h.star_ok)
                for (size_t j = pool.size(); j-- > 0;)
                    if (!card_def(g, pool[j]).star) {
                        pick = j;
                        break;
                    }
            h.put(pool[pick]);
            pool.erase(pool.begin() + pick);
        }
        for (int fac = 0; fac < 2; ++fac) s.battle_deck[fac] = pools[fac];
        if (!conflict) return;

        // Hidden contributions stay in the hand: they follow the cards dealt to their
        // slots (a contributed revealed card is public, so it keeps its mark).
        for (int p = 0; p < 4; ++p) {
            if (p == seat) continue;
            Cards& cards = conflict->cards[p];
            std::vector<int> now;
            for (int i : marked[p]) now.push_back(s.hands[p][i]);
            for (int x : cards)
                if (contains(s.revealed[p], x)) now.push_back(x);
            cards = now;
        }
        // The dollars a seat put in: any amount it could afford within the cap; and its
        // choice to spend a once-per-round counter boost.
        for (int p : money_holes) {
            int room = conflict->strength;
            for (int x : conflict->cards[p]) room -= card_def(g, x).strength;
            int top = std::max(0, std::min(s.wealth[p], room));
            conflict->money[p] = top > 0 ? (int)rng.integers(0, (int64_t)top + 1) : 0;
            conflict->boosts[p].clear();
            for (int x : g.spendable_boosts(*conflict, p))
                if (rng.integers(0, 2)) conflict->boosts[p].push_back((int16_t)x);
        }
    }

    // _resample_roles (Simulation Mode): the unseen Folk Hero cards dealt back, another
    // Raja's still hidden Role drawn.
    static void resample_roles(Game& g, int seat, Pcg64& rng) {
        State& s = g.s_;
        std::vector<int> pool(s.folk_deck.begin(), s.folk_deck.end());
        for (int p = 0; p < 4; ++p)
            if (p != seat) pool.insert(pool.end(), s.folk_hands[p].begin(), s.folk_hands[p].end());
        shuffle(rng, pool);
        for (int p = 0; p < 4; ++p) {
            if (p == seat) continue;
            size_t n = s.folk_hands[p].size();
            s.folk_hands[p].clear();
            for (size_t k = 0; k < n; ++k) {
                s.folk_hands[p].push_back((int16_t)pool.back());
                pool.pop_back();
            }
        }
        s.folk_deck = pool;
        if (!s.roles_public)
            for (int p = 0; p < 4; ++p)
                if (p != seat && s.roles[p] >= 0) s.roles[p] = (int)rng.integers(0, 2);
    }
};

}  // namespace sg
