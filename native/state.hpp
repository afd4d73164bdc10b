// The game state as plain ints and vectors (engine/state.py) and the pending frames
// (engine/frames.py): one struct holds the data of every frame kind.
#pragma once

#include <array>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "content.hpp"
#include "flat.hpp"

namespace sg {

// Frame kinds; FRAME_NAMES gives the Python engine's name of each.
enum FK {
    F_ROUND, F_EVENTS, F_INCOME, F_TURN, F_PLACE_LEADER, F_LEADER_ACTION, F_ACTIONS, F_CLEANUP,
    F_END_GAME, F_PLACE_CARD, F_REFILL_MARKET, F_CONNECT, F_BOOM_PICK, F_KEEP_BATTLE,
    F_SEARCH_PICK, F_EFFECTS, F_INFLUENCE, F_REMOVE_INFLUENCE, F_MOVES, F_ATTACH_POP, F_LOSE_POP,
    F_DECREE, F_VETO, F_RAID, F_REROLL, F_HINDER, F_CONFLICT, F_CONTRIBUTE, F_UPKEEP,
    F_FUND_CLOSE, F_WAR, F_WAR_JOIN, F_WAR_ACCEPT, F_WAR_COMMIT, F_WAR_DISCARD, F_SPOILS,
    F_ALLY_PAY, F_SHARE, F_DECLARE_ROLE, F_REVEAL_ROLES, F_STOREHOUSE_VETO, F_RULER_BUY,
    F_RAID_FE, F_WAR_FE, F_FE_INTERVENE, F_FE_HINDER, F_FE_COMMIT, F_FE_TOKENS, F_FE_DONATE,
    F_FE_PLUNDER, N_FRAME
};
inline const std::vector<std::string> FRAME_NAMES = {
    "round", "events", "income", "turn", "place_leader", "leader_action", "actions", "cleanup",
    "end_game", "place_card", "refill_market", "connect", "boom_pick", "keep_battle",
    "search_pick", "effects", "influence", "remove_influence", "moves", "attach_pop", "lose_pop",
    "decree", "veto", "raid", "reroll", "hinder", "conflict", "contribute", "upkeep",
    "fund_close", "war", "war_join", "war_accept", "war_commit", "war_discard", "spoils",
    "ally_pay", "share", "declare_role", "reveal_roles", "storehouse_veto", "ruler_buy",
    "raid_fe", "war_fe", "fe_intervene", "fe_hinder", "fe_commit", "fe_tokens", "fe_donate",
    "fe_plunder"};

enum Down { UP, CLOSED, OUTLAWED };
constexpr int MAX_VP_SOURCES = 16;
// Kinds of game facts the rules record (rules/base.py record_fact).
enum FactKind { FACT_ANGLO_DUTCH, FACT_DECREE, FACT_RAID, FACT_CONFLICT, FACT_WAR };
inline const std::vector<std::string> FACT_NAMES = {"anglo_dutch", "decree", "raid", "conflict", "war"};
enum { PHASE_VETO = 0, PHASE_DECREE_RESOLVE = 1 };
enum { RAID_ROLL = 0, RAID_HINDER = 1, RAID_RESOLVE = 2 };
enum { CONFLICT_ROLL = 0, CONFLICT_REVEAL = 1 };
enum { WAR_JOIN, WAR_ACCEPT, WAR_COMMIT, WAR_DISCARD, WAR_ROLL, WAR_TOTALS, WAR_SPOILS, WAR_END };
enum { RAID_FE_INTERVENE, RAID_FE_ROLL, RAID_FE_RESOLVE };
enum { WAR_FE_COMMIT, WAR_FE_DISCARD, WAR_FE_TOKENS, WAR_FE_ROLL, WAR_FE_BATTLE, WAR_FE_END };

// The room of the state's lists (their Vec capacities): what the content and the rules
// allow, checked when a content or configuration is loaded (check_room below); the
// Public Works track, the used cards and the pending frames, which no rule bounds, get
// room far beyond any game played (a push past it throws).
constexpr int ROOM_BATTLE = 64;      // Battle cards of the content: hands, revealed, piles
constexpr int ROOM_MARKET = 64;      // market cards
constexpr int ROOM_POPULATION = 32;  // Population cards
constexpr int ROOM_EVENTS = 32;      // Event cards
constexpr int ROOM_FOLK = 32;        // Folk Hero cards
constexpr int ROOM_MARKET_ROW = 16;  // market slots (RulesConfig: at most 12)
constexpr int ROOM_BOARD = 8;        // leader spaces, vices
constexpr int ROOM_DISTRICTS = 32;   // loop spaces x 4 seats
constexpr int ROOM_TRACK = 64;       // Public Works tokens; cards whose boost was used
// The longest Public Works track a loaded state may hold (save_shapes.PW_TRACK_MOST): an
// Upkeep pushes one question per token past the tax onto the ROOM_STACK pending frames,
// so a loaded track leaves room for the frames below and the tokens play adds.
constexpr int LOADED_PW_TRACK = 24;
constexpr int ROOM_TABLEAU = 64;     // cards of a tableau (RulesConfig: max_tableau <= 64)
constexpr int ROOM_POPS = 8;         // Population cards on a card
constexpr int ROOM_STACK = 32;       // pending frames
constexpr int ROOM_DICE = 20;        // dice of a roll (RulesConfig: at most 20)
constexpr int ROOM_IDS = 16;         // a frame's cards, options or seats
constexpr int ROOM_BOOSTS = 16;      // counter boosts a seat spends in a Conflict
constexpr int ROOM_MODIFIERS = 8;    // modifiers of an Event card

using Cards = Vec<int16_t, ROOM_BATTLE>;  // a pile of Battle cards

struct Modifier {
    int type, n;  // ModifierType, its number
};

struct Slot {
    int16_t card = -1;
    bool up = true, link = false, activated = false, searched = false;
    int8_t down = UP;
    int stored = 0;
    Vec<int16_t, ROOM_POPS> pops;
};

using Row = Vec<Slot, ROOM_TABLEAU>;  // a tableau

struct Frame {
    int kind = F_ROUND, seat = -1;
    // the turn, cards, effects, influence, moves, counts
    int left = 0, space = 0, card = -1, start = 0, pops = 0;
    int n = 0, pos = -1, asking = 0, store_asked = 0, target = -1, index = 0;
    bool scope_any = false;
    int ally = -1;                      // storehouse_veto: the Colonial Ally
    // decree, raid, reroll, war questions
    int vice = 0, phase = 0, vetoed = 0, hinder = 0, side = 0;
    int parent = F_WAR, field = 0, dice = 0;
    int rolls[2] = {0, 0};              // raid: roll; war: roll0, roll1
    bool rolled[2] = {false, false};
    bool d4 = false;                    // the frame rolls D4s (first edition)
    // conflict
    int table = 0, plus = 0, base = 0, per = 0, strength = 0;
    std::array<int, 4> money{};
    // war
    int defender = 0, k = 0, paid = 0, share = -1, cap = 0, victor = -1, loser = -1;
    std::array<int, 2> joined{}, allies{-1, -1};
    std::array<int, 4> commits{-1, -1, -1, -1}, bonus{};
    bool has_totals = false;
    int totals[2] = {0, 0};
    // first edition
    int intervener = -1, due = 0, shown = 0, must = 0;
    std::array<int, 2> tokens{};
    Vec<int16_t, ROOM_IDS> ids;         // keep_battle cards, search_pick options, the
                                        // Agents still to ask about a storehouse veto
    // The lists of a fight (empty in the other frames: see copy_used)
    Vec<int8_t, ROOM_DICE> faces[2];    // the faces of each roll
    // conflict: the marked cards per seat; first edition: the committed cards
    std::array<Cards, 4> cards;
    std::array<Vec<int16_t, ROOM_BOOSTS>, 4> boosts;

    Frame() = default;
    Frame(int kind_, int seat_) : kind(kind_), seat(seat_) {}
    void set_roll(int which, const Ids& f) {
        int sum = 0;
        for (int x : f) sum += x;
        rolls[which] = sum;
        faces[which] = f;
        rolled[which] = true;
    }
    // A fight's frame: the only kinds whose faces, cards or boosts are ever set.
    bool fights() const {
        return kind == F_RAID || kind == F_WAR || kind == F_CONFLICT || kind == F_RAID_FE || kind == F_WAR_FE;
    }
};

// The pending frames are copied up to their fight lists but a fight's (most frames hold
// none; a copy of a few hundred bytes instead of 700): the copy's lists are left empty.
inline void copy_used(Frame* dst, const Frame* src, size_t n) {
    constexpr size_t lists = offsetof(Frame, faces);
    for (size_t i = 0; i < n; ++i) {
        if (src[i].fights()) {
            copy_bytes(dst + i, src + i, sizeof(Frame));
            continue;
        }
        copy_bytes(dst + i, src + i, lists);
        Frame& f = dst[i];
        f.faces[0].clear(), f.faces[1].clear();
        for (int p = 0; p < 4; ++p) f.cards[p].clear(), f.boosts[p].clear();
    }
}

// The state but its tableaux, frames and facts: plain bytes, copied as such.
struct StateCore {
    int round = 0, first_player = 0, anglo_dutch = 0, ships = 0, current_event = -1;
    int game_over = 0, turn_seat = -1, decisions = 0, discount_used = 0, roles_public = 0;
    std::array<int, 4> vp{}, wealth{}, wars_won{}, roles{-1, -1, -1, -1}, vetoed{};
    std::array<int, 2> storehouse{}, population{};
    std::array<std::array<int, MAX_VP_SOURCES>, 4> vp_sources{};  // the first n_sources count
    Vec<int16_t, ROOM_TRACK> pw_track, used_cards;
    Vec<int16_t, ROOM_MARKET_ROW> market;
    Vec<int16_t, ROOM_MARKET> market_deck, market_discard;
    Vec<int16_t, ROOM_POPULATION> population_deck, population_discard;
    Vec<int16_t, ROOM_EVENTS> event_deck, event_discard;
    Vec<int16_t, ROOM_BOARD> leader_space, outlawed;
    Vec<int, ROOM_DISTRICTS> districts;  // (32-bit, as every count and score)
    Vec<int, 4> final_vp;
    Vec<int16_t, ROOM_FOLK> folk_deck, folk_discard;
    Cards put_away;
    std::array<Cards, 4> hands, revealed;
    std::array<Vec<int16_t, ROOM_FOLK>, 4> folk_hands;
    std::array<Cards, 2> battle_deck, battle_discard;
    Vec<Modifier, ROOM_MODIFIERS> modifiers;

    StateCore() = default;
    StateCore(const StateCore& o) { copy_bytes(this, &o, sizeof(StateCore)); }
    StateCore& operator=(const StateCore& o) {
        copy_bytes(this, &o, sizeof(StateCore));
        return *this;
    }
};

struct State : StateCore {
    std::array<Row, 4> tableau;
    Vec<Frame, ROOM_STACK> stack;
    Log<int> facts;  // each fact: its FACT_NAMES index, the count of its ints, round, values...
};

// Throw std::invalid_argument if the content or configuration asks for more room than
// the state's lists have (ROOM_*): the native engine then refuses it, saying which.
inline void check_room(const Content& c) {
    auto need = [](size_t n, int room, const char* what) {
        if (n > (size_t)room)
            throw std::invalid_argument("the native engine holds at most " + std::to_string(room) + " " +
                                        what + " (the content has " + std::to_string(n) + ")");
    };
    need(c.defs.size(), INT16_MAX, "cards");
    need(c.battle_ids[0].size() + c.battle_ids[1].size(), ROOM_BATTLE, "Battle cards");
    need(c.market_ids.size(), ROOM_MARKET, "market cards");
    need(c.population_ids.size(), ROOM_POPULATION, "Population cards");
    need(c.event_ids_i.size() + c.event_ids_ii.size(), ROOM_EVENTS, "Event cards");
    need(c.folk_ids.size(), ROOM_FOLK, "Folk Hero cards");
    need(c.board.leader_spaces.size(), ROOM_BOARD, "leader spaces");
    need(c.board.vices.size(), ROOM_BOARD, "vices");
    need(c.board.loop_ids.size() * 4, ROOM_DISTRICTS, "loop spaces x 4");
    size_t counters = 0;
    for (const Card& card : c.defs) {
        if (card.pop_slots < 0)  // (content.py refuses it too: card.pop_slots 0..8)
            throw std::invalid_argument("a card's Population slots must be 0.." + std::to_string(ROOM_POPS) +
                                        " (the content has " + std::to_string(card.pop_slots) + ")");
        need(card.pop_slots, ROOM_POPS, "Population slots on a card");
        need(card.modifiers.size(), ROOM_MODIFIERS, "modifiers on a card");
        for (const Effect& e : card.boosts_of[B_SEARCH]) need(e.cards.size(), ROOM_IDS, "cards a search finds");
        counters += !card.boosts_of[B_COUNTER_BONUS].empty();
    }
    need(counters, ROOM_BOOSTS, "cards with a counter bonus");
}
inline void check_room(const Config& cfg) {
    auto need = [](int n, int room, const char* what) {
        if (n > room)
            throw std::invalid_argument("the native engine plays " + std::string(what) + " up to " +
                                        std::to_string(room) + " (the configuration has " + std::to_string(n) + ")");
    };
    need(cfg.market_slots, ROOM_MARKET_ROW, "market_slots");
    if (cfg.search_shortlist < 1) throw std::invalid_argument("search_shortlist must be >= 1");
    need(cfg.search_shortlist, cfg.n_choose, "search_shortlist");
    need(cfg.max_tableau, ROOM_TABLEAU, "max_tableau");
    need(std::max({cfg.war_dice, cfg.fe_raid_d4, cfg.fe_war_d4}), ROOM_DICE, "war_dice, fe_raid_d4 and fe_war_d4");
}

struct Decision {
    int kind, arg;
    bool operator==(const Decision& o) const { return kind == o.kind && arg == o.arg; }
};

// Decision kinds (decisions.py Kind).
enum Kind {
    PASS, YES, PLACE_LEADER, LEADER_MONEY, LEADER_STOREHOUSE, BUY_MARKET, BUY_BATTLE,
    KEEP_BATTLE, POPULATE, ATTACH_POP, ACTIVATE, RAID, DECREE, WAR, REVEAL, REBUILD, SEARCH,
    CHOOSE, CONNECT, INFLUENCE_START, COMMIT, ADD_MONEY, FUND, CLOSE, MOVE_SEAT, MOVE_CARD,
    MOVE_POP, REMOVE_INFLUENCE, DISCARD_POP, STORE, DISCARD_CARD, INSPIRE, FOLK_HERO
};

}  // namespace sg
