// What must hold of a game whenever it waits for a decision: every card in exactly one
// place, the counts and scores within their bounds, a valid acting seat with a real
// question. The debug build (SINGAPORE_NATIVE_DEBUG, docs/native.md) checks it after
// every step; singapore_env.native.NativeGame.broken_invariants() asks for it.
#pragma once

#include <string>
#include <vector>

#include "engine.hpp"

namespace sg {

namespace detail {

// Every place a card can be (frames included), with the place's name.
template <class Visit>
void visit_cards(const State& s, Visit&& visit) {
    auto all = [&](const char* where, const auto& list) {
        for (int card : list) visit(where, card);
    };
    for (int card : s.market)
        if (card >= 0) visit("market", card);
    all("market_deck", s.market_deck), all("market_discard", s.market_discard);
    all("population_deck", s.population_deck), all("population_discard", s.population_discard);
    all("event_deck", s.event_deck), all("event_discard", s.event_discard);
    if (s.current_event >= 0) visit("current_event", s.current_event);
    all("folk_deck", s.folk_deck), all("folk_discard", s.folk_discard), all("put_away", s.put_away);
    for (int p = 0; p < 4; ++p) {
        all("hands", s.hands[p]), all("revealed", s.revealed[p]), all("folk_hands", s.folk_hands[p]);
        for (const Slot& slot : s.tableau[p]) {
            visit("tableau", slot.card);
            all("pops", slot.pops);
        }
    }
    for (int fac = 0; fac < 2; ++fac) all("battle_deck", s.battle_deck[fac]), all("battle_discard", s.battle_discard[fac]);
    for (const Frame& f : s.stack) {
        if (f.kind == F_PLACE_CARD || f.kind == F_ATTACH_POP) visit("frame card", f.card);
        if (f.kind == F_KEEP_BATTLE) all("keep_battle", f.ids);
        if (f.kind == F_WAR)
            for (int card : f.commits)
                if (card >= 0) visit("war commits", card);
        if (f.kind == F_RAID_FE || f.kind == F_WAR_FE)
            for (const Cards& cards : f.cards) all("first-edition commits", cards);
    }
}

}  // namespace detail

// "" if the game holds every invariant, else the first one broken.
inline std::string broken_invariants(const Game& g) {
    const State& s = g.state();
    const Content& c = g.content();
    const Config& cfg = g.config();
    auto say = [](const std::string& what, int x) { return what + " (" + std::to_string(x) + ")"; };

    // every card in exactly one place (Events and Folk Heroes: those in play; Folk
    // Heroes only in Simulation Mode)
    std::vector<int> seen(c.defs.size(), 0);
    std::string where;
    detail::visit_cards(s, [&](const char* place, int card) {
        if (card < 0 || card >= (int)seen.size()) where = say(std::string("no such card in ") + place, card);
        else if (++seen[card] > 1 && where.empty()) where = say(std::string("a card twice, again in ") + place, card);
    });
    if (!where.empty()) return where;
    auto once = [&](const Ids& ids, int times, const char* what) -> std::string {
        for (int card : ids)
            if (seen[card] != times) return say(std::string(what) + " card in " + std::to_string(seen[card]) + " places", card);
        return "";
    };
    for (auto [ids, what] : {std::pair<const Ids*, const char*>{&c.market_ids, "market"},
                             {&c.population_ids, "Population"}, {&c.leader_ids, "leader"},
                             {&c.battle_ids[0], "Battle"}, {&c.battle_ids[1], "Battle"}})
        if (std::string why = once(*ids, 1, what); !why.empty()) return why;
    if (std::string why = once(c.folk_ids, cfg.simulation_setup ? 1 : 0, "Folk Hero"); !why.empty()) return why;

    // counts and scores
    for (int p = 0; p < 4; ++p) {
        if (s.wealth[p] < 0) return say("negative wealth of seat", p);
        if ((int)s.tableau[p].size() > cfg.max_tableau) return say("a tableau past max_tableau, seat", p);
        for (const Slot& slot : s.tableau[p])
            if ((int)slot.pops.size() > c.defs[slot.card].pop_slots) return say("more Population cards than slots on card", slot.card);
        int64_t track = 0, total = 0;  // (16 sources of up to 10**9)
        for (int k = 0; k < (int)cfg.vp_sources.size(); ++k) {
            const std::string& source = cfg.vp_sources[k];
            total += s.vp_sources[p][k];
            if (source != "legacy" && source != "end_game") track += s.vp_sources[p][k];
        }
        if (track != s.vp[p]) return say("VP track and its sources differ, seat", p);
        if (s.game_over && total != s.final_vp[p]) return say("final VP and their sources differ, seat", p);
        if (s.roles[p] < -1 || s.roles[p] > 2) return say("no such role", s.roles[p]);
    }
    for (int fac = 0; fac < 2; ++fac) {
        if (s.storehouse[fac] < 0) return say("negative Storehouse of faction", fac);
        if (s.population[fac] < 0 || s.population[fac] > c.board.max_population)
            return say("Population cubes out of bounds, faction", fac);
    }
    if (s.ships < 0 || s.ships > c.board.max_ships) return say("ships out of bounds", s.ships);
    if ((int)s.market.size() != cfg.market_slots) return say("market slots", (int)s.market.size());
    for (int x : s.districts)
        if (x < 0) return say("negative district tokens", x);
    std::string seats;
    auto seats_in = [&](const char* what, const auto& list) {
        for (int seat : list)
            if ((seat < -1 || seat > 3) && seats.empty()) seats = say(std::string("no such seat in ") + what, seat);
    };
    seats_in("leader spaces", s.leader_space), seats_in("outlawed", s.outlawed), seats_in("pw_track", s.pw_track);
    if (!seats.empty()) return seats;

    // the acting seat and its question
    if (s.game_over) {
        if (!g.legal().empty() || !s.stack.empty()) return "a question after the end";
        if (s.final_vp.size() != 4) return say("final scores", (int)s.final_vp.size());
    } else {
        if (s.stack.empty()) return "no frame and no end";
        int seat = g.acting_seat();
        if (seat < 0 || seat > 3) return say("no such acting seat", seat);
        const auto& legal = g.legal();
        if (legal.size() < 2) return say("a question of fewer than two options", (int)legal.size());
        for (size_t i = 0; i < legal.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                if (legal[i] == legal[j]) return say("a legal decision twice, of kind", legal[i].kind);
    }
    // frames: real seats, and the lists of a fight only in a fight (copy_used relies on it)
    for (const Frame& f : s.stack) {
        if (f.seat < -1 || f.seat > 3) return say("a frame of no such seat", f.seat);
        bool lists = !f.faces[0].empty() || !f.faces[1].empty();
        for (int p = 0; p < 4; ++p) lists = lists || !f.cards[p].empty() || !f.boosts[p].empty();
        if (lists && !f.fights()) return "fight lists in a " + FRAME_NAMES[f.kind] + " frame";
    }
    return "";
}

}  // namespace sg
