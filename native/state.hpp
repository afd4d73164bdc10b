// The game state as plain ints and vectors (engine/state.py) and the pending frames
// (engine/frames.py): one struct holds the data of every frame kind.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "content.hpp"

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

struct Slot {
    int card = -1;
    bool up = true, link = false, activated = false, searched = false;
    Ids pops;
    int stored = 0;
    int down = UP;
};

struct Frame {
    int kind = F_ROUND, seat = -1;
    // the turn, cards, effects, influence, moves, counts
    int left = 0, space = 0, card = -1, start = 0, pops = 0;
    int n = 0, pos = -1, asking = 0, store_asked = 0, target = -1, index = 0;
    bool scope_any = false;
    Ids ids;                            // keep_battle cards, search_pick options, the
                                        // Agents still to ask about a storehouse veto
    int ally = -1;                      // storehouse_veto: the Colonial Ally
    // decree, raid, reroll, war questions
    int vice = 0, phase = 0, vetoed = 0, hinder = 0, side = 0;
    int parent = F_WAR, field = 0, dice = 0;
    int rolls[2] = {0, 0};              // raid: roll; war: roll0, roll1
    Ids faces[2];                       // the faces of each roll
    bool rolled[2] = {false, false};
    bool d4 = false;                    // the frame rolls D4s (first edition)
    // conflict (cards: the marked cards per seat; first edition: the committed cards)
    int table = 0, plus = 0, base = 0, per = 0, strength = 0;
    std::array<Ids, 4> cards, boosts;
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

    Frame() = default;
    Frame(int kind_, int seat_) : kind(kind_), seat(seat_) {}
    void set_roll(int which, Ids f) {
        int sum = 0;
        for (int x : f) sum += x;
        rolls[which] = sum;
        faces[which] = std::move(f);
        rolled[which] = true;
    }
};

struct State {
    int round = 0, first_player = 0, anglo_dutch = 0, ships = 0, current_event = -1;
    int game_over = 0, turn_seat = -1, decisions = 0, discount_used = 0, roles_public = 0;
    std::array<int, 4> vp{}, wealth{}, wars_won{}, roles{-1, -1, -1, -1}, vetoed{};
    std::array<int, 2> storehouse{}, population{};
    Ids pw_track, market, market_deck, market_discard, population_deck, population_discard;
    Ids event_deck, event_discard, leader_space, outlawed, used_cards, districts, final_vp;
    Ids folk_deck, folk_discard, put_away;
    std::array<Ids, 4> hands, revealed, folk_hands;
    std::array<Ids, 2> battle_deck, battle_discard;
    std::vector<std::pair<int, int>> modifiers;   // (ModifierType, n)
    std::array<std::array<int, MAX_VP_SOURCES>, 4> vp_sources{};  // the first n_sources count
    Ids facts;  // each fact: its FACT_NAMES index, the count of its ints, round, values...
    std::array<std::vector<Slot>, 4> tableau;
    std::vector<Frame> stack;
};

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
