// The records singapore_env/native.py makes (plain lists and dicts of a loaded Content,
// a RulesConfig and an observation layout) read into the structs the C++ side reads. Part of
// the bindings: the one translation unit module.cpp includes it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>

#include "encoder.hpp"
#include "state.hpp"

namespace sg {
namespace py = pybind11;

template <class T>
T item(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}

// ---------------------------------------------------------------- content records
Effect effect_from(const py::dict& d, const std::vector<std::string>& types,
                       const std::vector<std::string>& tables) {
    Effect e;
    e.type = index_of(types, item<std::string>(d, "type"));
    for (auto kv : d) {
        std::string key = kv.first.cast<std::string>();
        py::handle v = kv.second;
        if (key == "type") continue;
        if (key == "cards") e.cards = v.cast<std::vector<std::string>>();
        else if (key == "table") e.table = index_of(tables, v.cast<std::string>());
        else if (key == "scope") e.scope_any = v.cast<std::string>() == "any";
        else if (key == "applies") e.applies = index_of({"all", "dual_price", "public_works"}, v.cast<std::string>());
        else if (key == "when") e.when = index_of({"always", "leader_on_market_space"}, v.cast<std::string>());
        else if (key == "once_per_turn") e.once_per_turn = v.cast<bool>();
        else if (key == "once_per_round") e.once_per_round = v.cast<bool>();
        else if (key == "once_per_game") e.once_per_game = v.cast<bool>();
        else {
            int x = v.cast<int>();
            if (key == "n") e.n = x;
            else if (key == "per_pop") e.per_pop = x;
            else if (key == "dice") e.dice = x;
            else if (key == "player") e.player = x;
            else if (key == "neutral") e.neutral = x;
            else if (key == "plus") e.plus = x;
            else if (key == "volunteer_base") e.volunteer_base = x;
            else if (key == "volunteer_per_strength") e.volunteer_per_strength = x;
            else if (key == "cost") e.cost = x;
            else if (key == "slavery_cost") e.slavery_cost = x;
            else if (key == "per") e.per = x;
            else throw std::invalid_argument("unknown effect field " + key);
        }
    }
    return e;
}

std::vector<Effect> effects_from(const py::handle& list, const std::vector<std::string>& types,
                                     const std::vector<std::string>& tables) {
    std::vector<Effect> out;
    for (auto e : list) out.push_back(effect_from(e.cast<py::dict>(), types, tables));
    return out;
}

Connector connector_from(const py::handle& v) {
    Connector c;
    if (v.is_none()) return c;
    auto [colour, shape] = v.cast<std::pair<std::string, std::string>>();
    c.colour = index_of({"black", "red", "both"}, colour);
    c.shape = index_of({"solid", "notch"}, shape);
    return c;
}

std::shared_ptr<const Content> content_from(const py::dict& d) {
    auto c = std::make_shared<Content>();
    py::dict board = d["board"];
    Board& b = c->board;
    b.max_ships = item<int>(board, "max_ships");
    b.max_population = item<int>(board, "max_population");
    b.port_bands = item<std::vector<std::array<int, 4>>>(board, "port_bands");
    b.multiplier_track = item<Ids>(board, "multiplier_track");
    b.pw_ship_spaces = item<Ids>(board, "pw_ship_spaces");
    b.loop_ids = item<std::vector<std::string>>(board, "loop_ids");
    for (const auto& kind : item<std::vector<std::string>>(board, "loop_kind"))
        b.loop_storehouse.push_back(kind == "storehouse");
    b.loop_faction = item<Ids>(board, "loop_faction");
    b.loop_multiplier = item<Ids>(board, "loop_multiplier");
    b.loop_ship = item<Ids>(board, "loop_ship");
    b.loop_opens_at = item<Ids>(board, "loop_opens_at");
    for (const auto& space : item<std::vector<std::string>>(board, "leader_spaces"))
        b.leader_spaces.push_back(index_of({"market", "populate", "battle"}, space));
    b.vices = item<std::vector<std::string>>(board, "vices");
    b.vice_cost = item<Ids>(board, "vice_cost");
    b.vice_can_legalize = item<Ids>(board, "vice_can_legalize");
    auto slavery = std::find(b.vices.begin(), b.vices.end(), "slavery");
    b.slavery_vice = slavery == b.vices.end() ? -1 : (int)(slavery - b.vices.begin());

    py::dict tables = d["conflict_tables"];
    for (auto kv : tables) c->table_names.push_back(kv.first.cast<std::string>());
    for (auto kv : tables) {
        std::vector<ConflictRow> rows;
        for (auto row : kv.second) {
            py::tuple r = row.cast<py::tuple>();
            rows.push_back({r[0].cast<int>(), r[1].cast<int>(), effects_from(r[2], EFFECT_NAMES, c->table_names)});
        }
        c->conflict_tables.push_back(rows);
    }
    for (auto item_ : d["defs"]) {
        py::dict cd = item_.cast<py::dict>();
        Card card;
        card.key = item<std::string>(cd, "key");
        card.name = item<std::string>(cd, "name");
        card.category = item<std::string>(cd, "category");
        auto price = item<std::pair<int, int>>(cd, "price");
        card.price[0] = price.first;
        card.price[1] = price.second;
        for (const auto& kind : item<std::vector<std::string>>(cd, "kinds"))
            card.kinds |= 1u << index_of(KIND_NAMES, kind);
        card.vice = item<int>(cd, "vice");
        card.pop_slots = item<int>(cd, "pop_slots");
        card.left = connector_from(cd["left"]);
        card.right = connector_from(cd["right"]);
        card.instant = effects_from(cd["instant"], EFFECT_NAMES, c->table_names);
        card.action = effects_from(cd["action"], EFFECT_NAMES, c->table_names);
        card.boosts = effects_from(cd["boosts"], BOOST_NAMES, c->table_names);
        for (const Effect& e : card.boosts) {
            card.boosts_of[e.type].push_back(e);
            c->has_boost[e.type] = true;
        }
        card.end_game = effects_from(cd["end_game"], END_GAME_NAMES, c->table_names);
        card.modifiers = effects_from(cd["modifiers"], MODIFIER_NAMES, c->table_names);
        card.faction = item<int>(cd, "faction");
        card.strength = item<int>(cd, "strength");
        card.star = item<bool>(cd, "star");
        for (auto l : cd["legacies"]) {
            py::tuple t = l.cast<py::tuple>();
            Legacy legacy;
            legacy.metric = index_of(METRIC_NAMES, t[0].cast<std::string>());
            legacy.bands = t[1].cast<std::vector<std::pair<int, int>>>();
            legacy.per = t[2].cast<int>();
            card.legacies.push_back(legacy);
        }
        card.dual_price = card.price[0] != card.price[1];
        card.tax_player = item<int>(cd, "tax_player");
        card.tax_neutral = item<int>(cd, "tax_neutral");
        card.cost_terms = item<std::vector<std::pair<int, int>>>(cd, "cost_terms");
        c->defs.push_back(std::move(card));
    }
    c->market_ids = item<Ids>(d, "market_ids");
    c->leader_ids = item<Ids>(d, "leader_ids");
    c->population_ids = item<Ids>(d, "population_ids");
    c->folk_ids = item<Ids>(d, "folk_ids");
    auto battle = item<std::vector<Ids>>(d, "battle_ids");
    c->battle_ids[0] = battle.at(0);
    c->battle_ids[1] = battle.at(1);
    c->event_ids_i = item<Ids>(d, "event_ids_i");
    c->event_ids_ii = item<Ids>(d, "event_ids_ii");
    if (c->leader_ids.size() != 4) throw std::invalid_argument("content needs 4 leaders");
    check_room(*c);
    return c;
}

std::shared_ptr<const Config> config_from(const py::dict& d) {
    auto cfg = std::make_shared<Config>();
    Config& c = *cfg;
    c.ruleset = item<std::string>(d, "ruleset");
    c.slavery = item<bool>(d, "slavery");
    c.star_in_conflict_under_singapore = item<bool>(d, "star_in_conflict_under_singapore");
    c.conflict_vp_full_strength = item<bool>(d, "conflict_vp_full_strength");
    c.spoils_optional = item<std::string>(d, "spoils_sharing") == "optional";
    c.first_edition_raid_and_war = item<bool>(d, "first_edition_raid_and_war");
    c.simulation_setup = item<bool>(d, "simulation_setup");
    c.has_roles = item<bool>(d, "roles");
    int* ints[] = {&c.event_i_cards, &c.event_ii_cards, &c.singapore_treaty_ships,
                   &c.anglo_dutch_ship_threshold, &c.first_round_income, &c.actions_per_turn,
                   &c.leader_money, &c.leader_storehouse_tokens, &c.battle_card_price,
                   &c.battle_draw_two_tokens, &c.market_slots, &c.search_shortlist, &c.district_threshold,
                   &c.raid_ship_threshold, &c.legalize_cost, &c.outlaw_vp,
                   &c.malay_decree_cost_under_anglo_dutch, &c.war_cost, &c.war_cost_under_anglo_dutch,
                   &c.war_dice, &c.war_ship_loss_dice, &c.star_ship_threshold,
                   &c.conflict_money_strength, &c.fund_cost_per_multiplier, &c.ally_income,
                   &c.ally_dual_price_extra, &c.folk_hero_cost, &c.leader_spoils_bonus_vs_agents,
                   &c.leader_spoils_penalty_vs_allies, &c.ruler_spoils_penalty_vs_allies,
                   &c.spoils_multiplier_floor, &c.folk_draw_on_loss, &c.folk_draw_outnumbered,
                   &c.lone_leader_extra_tokens, &c.max_hand, &c.max_tableau, &c.n_loop,
                   &c.n_choose, &c.action_cost_war, &c.d4_sides, &c.fe_raid_d4,
                   &c.fe_raid_ships_lost, &c.fe_intervene_influence, &c.fe_war_d4,
                   &c.fe_storehouse_strength, &c.fe_war_ships_lost, &c.fe_vp_per_dollar,
                   &c.number_limit};
    const char* names[] = {"event_i_cards", "event_ii_cards", "singapore_treaty_ships",
                           "anglo_dutch_ship_threshold", "first_round_income", "actions_per_turn",
                           "leader_money", "leader_storehouse_tokens", "battle_card_price",
                           "battle_draw_two_tokens", "market_slots", "search_shortlist", "district_threshold",
                           "raid_ship_threshold", "legalize_cost", "outlaw_vp",
                           "malay_decree_cost_under_anglo_dutch", "war_cost", "war_cost_under_anglo_dutch",
                           "war_dice", "war_ship_loss_dice", "star_ship_threshold",
                           "conflict_money_strength", "fund_cost_per_multiplier", "ally_income",
                           "ally_dual_price_extra", "folk_hero_cost", "leader_spoils_bonus_vs_agents",
                           "leader_spoils_penalty_vs_allies", "ruler_spoils_penalty_vs_allies",
                           "spoils_multiplier_floor", "folk_draw_on_loss", "folk_draw_outnumbered",
                           "lone_leader_extra_tokens", "max_hand", "max_tableau", "n_loop",
                           "n_choose", "action_cost_war", "d4_sides", "fe_raid_d4",
                           "fe_raid_ships_lost", "fe_intervene_influence", "fe_war_d4",
                           "fe_storehouse_strength", "fe_war_ships_lost", "fe_vp_per_dollar",
                           "number_limit"};
    static_assert(sizeof(ints) / sizeof(ints[0]) == sizeof(names) / sizeof(names[0]));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) *ints[i] = item<int>(d, names[i]);
    c.spoils_shares = item<std::vector<std::pair<int, int>>>(d, "spoils_shares");
    c.sim_put_away_british = item<std::vector<std::string>>(d, "sim_put_away_british");
    c.faces = item<Ids>(d, "faces");
    c.vp_sources = item<std::vector<std::string>>(d, "vp_sources");
    if (c.vp_sources.size() > (size_t)MAX_VP_SOURCES) throw std::invalid_argument("too many VP sources");
    check_room(c);
    return cfg;
}

// The Python ObservationLayout's numbers as the native writer reads them
// (singapore_env.native.layout_record builds the dict).
Layout layout_from(const Content& c, const py::dict& d) {
    Layout L;
    int* ints[] = {&L.D, &L.H, &L.T, &L.W, &L.BK, &L.MK, &L.TK, &L.FK, &L.rounds, &L.n_choose, &L.n_actions};
    const char* int_names[] = {"D", "H", "T", "W", "BK", "MK", "TK", "FK", "rounds", "n_choose", "n_actions"};
    for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); ++i) *ints[i] = item<int>(d, int_names[i]);
    double* doubles[] = {&L.inv_event, &L.inv_market, &L.inv_popdeck, &L.inv_battle, &L.inv_maxpop,
                         &L.inv_pw, &L.inv_pops, &L.inv_actions};
    const char* double_names[] = {"inv_event", "inv_market", "inv_popdeck", "inv_battle", "inv_maxpop",
                                  "inv_pw", "inv_pops", "inv_actions"};
    for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); ++i) *doubles[i] = item<double>(d, double_names[i]);
    L.has_roles = item<bool>(d, "has_roles");
    auto offsets = item<std::map<std::string, int>>(d, "offsets");
    for (size_t i = 0; i < SLICE_NAMES.size(); ++i) L.o[i] = offsets.at(SLICE_NAMES[i]);
    L.key = item<Ids>(d, "key");
    L.tkey = item<Ids>(d, "tkey");
    L.mkey = item<Ids>(d, "mkey");
    L.bkey = item<Ids>(d, "bkey");
    L.ekey = item<Ids>(d, "ekey");
    L.fkey = item<Ids>(d, "fkey");
    L.loop_open = item<std::vector<std::pair<int, int>>>(d, "loop_open");
    auto by_name = [&](const char* key, const std::vector<std::string>& names) {
        auto index = item<std::map<std::string, int>>(d, key);
        Ids out;
        for (const auto& name : names) out.push_back(index.count(name) ? index.at(name) : -1);
        return out;
    };
    L.pending_idx = by_name("pending_idx", FRAME_NAMES);
    L.stack_idx = by_name("stack_idx", FRAME_NAMES);
    L.mod_idx = by_name("mod_idx", MODIFIER_NAMES);
    L.table_idx = by_name("table_idx", c.table_names);
    L.action_offset = item<Ids>(d, "action_offset");
    L.action_size = item<Ids>(d, "action_size");
    return L;
}

}  // namespace sg
