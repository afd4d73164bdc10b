// The content and configuration the native rules read, built from the Python engine's
// loaded Content and RulesConfig (singapore_env/native.py makes the records): no card,
// board number or rule number is written here. The names below are the effect
// vocabulary of the content format (docs/content-format.md), which the rules interpret.
#pragma once

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sg {

using Ids = std::vector<int>;

// Position of ``name`` in ``names``, or throw (a record naming something unknown).
inline int index_of(const std::vector<std::string>& names, const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end()) throw std::invalid_argument("unknown name in content: " + name);
    return (int)(it - names.begin());
}

// Effect, boost, end-game and modifier types (content.py EFFECT_FIELDS and the others).
enum EffectType {
    E_INFLUENCE, E_WEALTH, E_STOREHOUSE, E_PUBLIC_WORKS, E_TAX, E_POPULATION, E_SHIPS, E_MOVE,
    E_BATTLE_DRAW, E_STOREHOUSE_ALL, E_WEALTH_ALL, E_BATTLE_DRAW_ALL, E_POPULATION_ALL,
    E_MARKET_PICK_ALL, E_CONFLICT, E_LOSE_POPULATION_CARD, E_REMOVE_INFLUENCE, N_EFFECT
};
inline const std::vector<std::string> EFFECT_NAMES = {
    "influence", "wealth", "storehouse", "public_works", "tax", "population", "ships", "move",
    "battle_draw", "storehouse_all", "wealth_all", "battle_draw_all", "population_all",
    "market_pick_all", "conflict", "lose_population_card", "remove_influence"};
enum BoostType {
    B_PRICE_DISCOUNT, B_RAID_BONUS, B_DECREE_DISCOUNT, B_COUNTER_BONUS, B_RAID_HINDER,
    B_WAR_BONUS, B_DISCARD_FOR_WAR, B_UPKEEP_IGNORE, B_POPULATION_WATCH, B_STORE_INFLUENCE,
    B_SEARCH, B_VETO_DECREE, B_REROLL, B_SHIPS_ON_REVEAL, B_TAX_IF_PW_CONNECTED, N_BOOST
};
inline const std::vector<std::string> BOOST_NAMES = {
    "price_discount", "raid_bonus", "decree_discount", "counter_bonus", "raid_hinder",
    "war_bonus", "discard_for_war", "upkeep_ignore", "population_watch", "store_influence",
    "search", "veto_decree", "reroll", "ships_on_reveal", "tax_if_public_works_connected"};
enum EndGameType { G_VP, G_VP_DICE, G_VP_PER_POP, G_VP_PER_STORED_TOKENS };
inline const std::vector<std::string> END_GAME_NAMES = {"vp", "vp_dice", "vp_per_pop",
                                                        "vp_per_stored_tokens"};
enum ModifierType { M_COMMERCE_HALF, M_MARKET_PRICE, M_RAID_BONUS, M_WAR_COST, M_DECREE_COST,
                    M_POPULATE_INFLUENCE };
inline const std::vector<std::string> MODIFIER_NAMES = {
    "commerce_half", "market_price", "raid_bonus", "war_cost", "decree_cost",
    "populate_influence"};
enum CardKind { K_PERSONALITY, K_COMMERCE, K_PUBLIC_WORKS, K_TAX, K_VICE, K_SLAVERY,
                K_GOODS_TRADING, K_TEMPLE };
inline const std::vector<std::string> KIND_NAMES = {
    "personality", "commerce", "public_works", "tax", "vice", "slavery", "goods_trading",
    "temple"};
enum Metric { L_WEALTH, L_POPULATION_CARDS, L_DEPENDENT_CARDS, L_POP_ON_DEPENDENTS,
              L_TAX_TOKENS, L_PUBLIC_WORKS_TOKENS, L_PERSONALITY_CARDS, L_PUBLIC_WORKS_CARDS,
              L_COMMERCE_CARDS, L_BATTLE_CARDS, L_STOREHOUSE_TOKENS, L_OUTLAWED_VICES,
              L_WARS_WON };
inline const std::vector<std::string> METRIC_NAMES = {
    "wealth", "population_cards", "dependent_cards", "pop_on_dependents", "tax_tokens",
    "public_works_tokens", "personality_cards", "public_works_cards", "commerce_cards",
    "battle_cards", "storehouse_tokens", "outlawed_vices", "wars_won"};

// One effect record with its (defaulted) fields; a field a type lacks stays 0.
struct Effect {
    int type = 0;
    int n = 0, per_pop = 0, dice = 0, player = 0, neutral = 0, plus = 0;
    int volunteer_base = 0, volunteer_per_strength = 0, cost = 0, slavery_cost = 0, per = 0;
    int table = -1;                     // conflict: index of its conflict table
    int applies = 0, when = 0;          // price_discount: 0 all / 1 dual_price / 2 public_works;
                                        // 0 always / 1 leader_on_market_space
    bool scope_any = false;             // move: scope "any"
    bool once_per_turn = false, once_per_round = false, once_per_game = false;
    std::vector<std::string> cards;     // search: the card keys it finds
};

struct Connector {
    int colour = -1;  // 0 black, 1 red, 2 both; -1: no connector
    int shape = 0;
    bool joins(const Connector& other) const {
        if (colour < 0 || other.colour < 0 || shape == other.shape) return false;
        return colour == other.colour || colour == 2 || other.colour == 2;
    }
};

struct Legacy {
    int metric = 0, per = 0;
    std::vector<std::pair<int, int>> bands;  // (threshold, vp)
};

struct Card {
    std::string key, name, category;
    int price[2] = {0, 0};
    unsigned kinds = 0;                 // bit CardKind
    int vice = -1;                      // index of its vice on the board
    int pop_slots = 0;
    Connector left, right;
    std::vector<Effect> instant, action, boosts, end_game, modifiers;
    std::vector<Effect> boosts_of[N_BOOST];
    int faction = -1, strength = 0;
    bool star = false;
    std::vector<Legacy> legacies;
    // derived (content.py CardDef.__post_init__)
    bool dual_price = false;
    int tax_player = 0, tax_neutral = 0;
    std::vector<std::pair<int, int>> cost_terms;

    bool has(int kind) const { return kinds >> kind & 1u; }
    const Effect* boost(int type) const {
        return boosts_of[type].empty() ? nullptr : &boosts_of[type][0];
    }
    int action_cost(int pops) const {
        int cost = 0;
        for (auto [n, per_pop] : cost_terms) {
            int amount = n + per_pop * pops;
            if (amount < 0) cost -= amount;
        }
        return cost;
    }
};

struct Board {
    int max_ships = 0, max_population = 0;
    std::vector<std::array<int, 4>> port_bands;
    Ids multiplier_track, pw_ship_spaces;
    std::vector<std::string> loop_ids, vices;
    Ids loop_storehouse, loop_faction, loop_multiplier, loop_ship, loop_opens_at;
    Ids leader_spaces;                  // 0 market, 1 populate, 2 battle
    Ids vice_cost, vice_can_legalize;
    int slavery_vice = -1;

    std::pair<int, int> income(int ships) const {
        for (const auto& band : port_bands)
            if (band[0] <= ships && ships <= band[1]) return {band[2], band[3]};
        throw std::invalid_argument("no port band for " + std::to_string(ships) + " ships");
    }
};

struct ConflictRow {
    int low, high;
    std::vector<Effect> effects;
};

struct Content {
    Board board;
    std::vector<Card> defs;
    Ids market_ids, leader_ids, population_ids, folk_ids;
    Ids battle_ids[2];
    Ids event_ids_i, event_ids_ii;
    std::vector<std::string> table_names;
    std::vector<std::vector<ConflictRow>> conflict_tables;
    bool has_boost[N_BOOST] = {};       // some card has a boost of the type
};

// The numbers of a RulesConfig the rules read, and the engine's fixed limits.
struct Config {
    std::string ruleset = "standard";
    bool slavery = true, star_in_conflict_under_singapore = true,
         conflict_vp_full_strength = true, spoils_optional = false;
    int event_i_cards = 3, event_ii_cards = 4, singapore_treaty_ships = 2,
        anglo_dutch_ship_threshold = 7, first_round_income = 3, actions_per_turn = 2,
        leader_money = 1, leader_storehouse_tokens = 1, battle_card_price = 2,
        battle_draw_two_tokens = 2, market_slots = 5, search_shortlist = 4, district_threshold = 5,
        raid_ship_threshold = 2, legalize_cost = 5, outlaw_vp = 2,
        malay_decree_cost_under_anglo_dutch = 8, war_cost = 7, war_cost_under_anglo_dutch = 4,
        war_dice = 2, war_ship_loss_dice = 1, star_ship_threshold = 7,
        conflict_money_strength = 1, fund_cost_per_multiplier = 1, ally_income = 1,
        ally_dual_price_extra = 1, folk_hero_cost = 4, leader_spoils_bonus_vs_agents = 5,
        leader_spoils_penalty_vs_allies = 1, ruler_spoils_penalty_vs_allies = 2,
        spoils_multiplier_floor = 1, folk_draw_on_loss = 1, folk_draw_outnumbered = 2,
        lone_leader_extra_tokens = 1, max_hand = 12, max_tableau = 16;
    std::vector<std::pair<int, int>> spoils_shares;
    std::vector<std::string> sim_put_away_british;
    // Engine constants of the Python engine (decisions.py, rules/base.py, state.py).
    int n_loop = 8, n_choose = 4, action_cost_war = 2, d4_sides = 4;
    int number_limit = 1000000000;      // config.NUMBER_LIMIT: no number the game stores passes it
    bool first_edition_raid_and_war = false;  // the ruleset's own Raid and War
    bool simulation_setup = false, has_roles = false;  // Simulation Mode's setup and Roles
    int fe_raid_d4 = 2, fe_raid_ships_lost = 1, fe_intervene_influence = 2, fe_war_d4 = 1,
        fe_storehouse_strength = 1, fe_war_ships_lost = 1, fe_vp_per_dollar = 1;
    Ids faces;                          // the 1819 die
    std::vector<std::string> vp_sources;
};

}  // namespace sg
