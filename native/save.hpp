// The game state to and from the Python engine's saved form (GameState.to_dict(), with
// each frame's data as engine/frames.py saves it: a field left at its default omitted).
// Part of the bindings: the one translation unit module.cpp includes it.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine.hpp"

// The state's lists cross to Python as lists of ints (and back), as std::vector does.
namespace pybind11::detail {
template <class T, int N>
struct type_caster<sg::Vec<T, N>> : list_caster<sg::Vec<T, N>, T> {};
}  // namespace pybind11::detail

namespace sg {
namespace py = pybind11;

inline const char* DOWN_NAMES[] = {"", "closed", "outlawed"};

inline bool rolls_one(int parent) { return parent == F_RAID || parent == F_RAID_FE; }
inline std::string roll_field(int parent, int field) {
    return rolls_one(parent) ? "roll" : (field == 0 ? "roll0" : "roll1");
}

template <class List, size_t N>
py::list id_rows(const std::array<List, N>& rows) {
    py::list out;
    for (const List& r : rows) out.append(py::cast(r));
    return out;
}

// The saved ``d`` object of a frame.
inline py::dict frame_data(const Frame& f, const Content& c) {
    py::dict d;
    auto rolls = [&](bool two) {
        for (int i = 0; i < (two ? 2 : 1); ++i)
            if (f.rolled[i]) d[py::str(two ? (i == 0 ? "roll0_dice" : "roll1_dice") : "roll_dice")] = f.faces[i];
    };
    switch (f.kind) {
        case F_ACTIONS: d["left"] = f.left; break;
        case F_LEADER_ACTION: d["space"] = f.space; break;
        case F_PLACE_CARD: case F_CONNECT: case F_ATTACH_POP: d["card"] = f.card; break;
        case F_EFFECTS: d["card"] = f.card; d["start"] = f.start; d["pops"] = f.pops; break;
        case F_KEEP_BATTLE: d["cards"] = f.ids; break;
        case F_SEARCH_PICK: d["options"] = f.ids; break;
        case F_INFLUENCE:
            d["n"] = f.n; d["pos"] = f.pos; d["asking"] = f.asking; d["store_asked"] = f.store_asked;
            break;
        case F_MOVES: d["n"] = f.n; d["scope"] = f.scope_any ? "any" : "own"; d["target"] = f.target; break;
        case F_BOOM_PICK: case F_LOSE_POP: case F_REMOVE_INFLUENCE: d["n"] = f.n; break;
        case F_FUND_CLOSE: d["index"] = f.index; break;
        case F_DECREE: d["vice"] = f.vice; d["phase"] = f.phase; d["vetoed"] = f.vetoed; break;
        case F_VETO: d["vice"] = f.vice; break;
        case F_RAID: d["phase"] = f.phase; d["roll"] = f.rolls[0]; d["hinder"] = f.hinder; rolls(false); break;
        case F_REROLL:
            d["parent"] = FRAME_NAMES[f.parent]; d["field"] = roll_field(f.parent, f.field);
            d["card"] = f.card; d["dice"] = f.dice;
            break;
        case F_CONFLICT:
            d["table"] = c.table_names[f.table]; d["dice"] = f.dice; d["plus"] = f.plus;
            d["base"] = f.base; d["per"] = f.per; d["phase"] = f.phase; d["strength"] = f.strength;
            d["cards"] = id_rows(f.cards); d["money"] = f.money; d["boosts"] = id_rows(f.boosts);
            break;
        case F_WAR:
            d["defender"] = f.defender; d["phase"] = f.phase; d["joined"] = f.joined;
            d["allies"] = f.allies; d["commits"] = f.commits; d["bonus"] = f.bonus;
            d["roll0"] = f.rolls[0]; d["roll1"] = f.rolls[1]; d["k"] = f.k; d["paid"] = f.paid;
            d["share"] = f.share; d["cap"] = f.cap; d["victor"] = f.victor; d["loser"] = f.loser;
            rolls(true);
            if (f.has_totals) d["totals"] = std::vector<int>{f.totals[0], f.totals[1]};
            break;
        case F_WAR_JOIN: case F_WAR_ACCEPT: case F_FE_TOKENS: d["side"] = f.side; break;
        case F_WAR_DISCARD:
            if (f.parent != F_WAR) d["parent"] = FRAME_NAMES[f.parent];
            break;
        case F_STOREHOUSE_VETO: d["ally"] = f.ally; d["agents"] = f.ids; break;
        case F_RAID_FE:
            d["phase"] = f.phase; d["intervener"] = f.intervener; d["commits"] = id_rows(f.cards);
            d["die"] = "d4"; d["roll"] = f.rolls[0]; d["hinder"] = f.hinder; d["shown"] = f.shown;
            rolls(false);
            break;
        case F_WAR_FE:
            d["defender"] = f.defender; d["phase"] = f.phase; d["commits"] = id_rows(f.cards);
            d["bonus"] = f.bonus; d["tokens"] = f.tokens; d["die"] = "d4"; d["roll0"] = f.rolls[0];
            d["roll1"] = f.rolls[1]; d["totals"] = std::vector<int>{f.totals[0], f.totals[1]};
            d["victor"] = f.victor; d["loser"] = f.loser; d["due"] = f.due; d["shown"] = f.shown;
            rolls(true);
            break;
        case F_FE_COMMIT: d["parent"] = FRAME_NAMES[f.parent]; d["must"] = f.must; break;
        default: break;
    }
    return d;
}

template <class T>
T get(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}
template <size_t N>
std::array<int, N> ints(const py::dict& d, const char* key) {
    auto v = get<Ids>(d, key);
    std::array<int, N> out{};
    for (size_t i = 0; i < N && i < v.size(); ++i) out[i] = v[i];
    return out;
}
template <class List, size_t N>
void id_rows_from(std::array<List, N>& out, const py::dict& d, const char* key) {
    auto v = get<std::vector<Ids>>(d, key);
    for (size_t i = 0; i < N; ++i) out[i].clear();
    for (size_t i = 0; i < N && i < v.size(); ++i) out[i] = v[i];
}

// A frame from its saved kind, seat and ``d`` object.
inline Frame frame_from(const std::string& kind, int seat, const py::dict& d, const Content& c) {
    Frame f(index_of(FRAME_NAMES, kind), seat);
    auto rolls = [&](bool two) {
        for (int i = 0; i < (two ? 2 : 1); ++i) {
            const char* key = two ? (i == 0 ? "roll0_dice" : "roll1_dice") : "roll_dice";
            if (d.contains(key) && !d[key].is_none()) {
                f.faces[i] = get<Ids>(d, key);
                f.rolled[i] = true;
            }
        }
    };
    switch (f.kind) {
        case F_ACTIONS: f.left = get<int>(d, "left"); break;
        case F_LEADER_ACTION: f.space = get<int>(d, "space"); break;
        case F_PLACE_CARD: case F_CONNECT: case F_ATTACH_POP: f.card = get<int>(d, "card"); break;
        case F_EFFECTS:
            f.card = get<int>(d, "card"); f.start = get<int>(d, "start"); f.pops = get<int>(d, "pops");
            break;
        case F_KEEP_BATTLE: f.ids = get<Ids>(d, "cards"); break;
        case F_SEARCH_PICK: f.ids = get<Ids>(d, "options"); break;
        case F_INFLUENCE:
            f.n = get<int>(d, "n"); f.pos = get<int>(d, "pos"); f.asking = get<int>(d, "asking");
            f.store_asked = get<int>(d, "store_asked");
            break;
        case F_MOVES:
            f.n = get<int>(d, "n"); f.scope_any = get<std::string>(d, "scope") == "any";
            f.target = get<int>(d, "target");
            break;
        case F_BOOM_PICK: case F_LOSE_POP: case F_REMOVE_INFLUENCE: f.n = get<int>(d, "n"); break;
        case F_FUND_CLOSE: f.index = get<int>(d, "index"); break;
        case F_DECREE:
            f.vice = get<int>(d, "vice"); f.phase = get<int>(d, "phase"); f.vetoed = get<int>(d, "vetoed");
            break;
        case F_VETO: f.vice = get<int>(d, "vice"); break;
        case F_RAID:
            f.phase = get<int>(d, "phase"); f.rolls[0] = get<int>(d, "roll"); f.hinder = get<int>(d, "hinder");
            rolls(false);
            break;
        case F_REROLL: {
            f.parent = index_of(FRAME_NAMES, get<std::string>(d, "parent"));
            f.field = get<std::string>(d, "field") == "roll1" ? 1 : 0;
            f.card = get<int>(d, "card"); f.dice = get<int>(d, "dice");
            break;
        }
        case F_CONFLICT:
            f.table = index_of(c.table_names, get<std::string>(d, "table"));
            f.dice = get<int>(d, "dice"); f.plus = get<int>(d, "plus"); f.base = get<int>(d, "base");
            f.per = get<int>(d, "per"); f.phase = get<int>(d, "phase"); f.strength = get<int>(d, "strength");
            id_rows_from(f.cards, d, "cards"); f.money = ints<4>(d, "money"); id_rows_from(f.boosts, d, "boosts");
            break;
        case F_WAR:
            f.defender = get<int>(d, "defender"); f.phase = get<int>(d, "phase");
            f.joined = ints<2>(d, "joined"); f.allies = ints<2>(d, "allies");
            f.commits = ints<4>(d, "commits"); f.bonus = ints<4>(d, "bonus");
            f.rolls[0] = get<int>(d, "roll0"); f.rolls[1] = get<int>(d, "roll1");
            f.k = get<int>(d, "k"); f.paid = get<int>(d, "paid"); f.share = get<int>(d, "share");
            f.cap = get<int>(d, "cap"); f.victor = get<int>(d, "victor"); f.loser = get<int>(d, "loser");
            rolls(true);
            if (d.contains("totals") && !d["totals"].is_none()) {
                auto t = ints<2>(d, "totals");
                f.has_totals = true;
                f.totals[0] = t[0];
                f.totals[1] = t[1];
            }
            break;
        case F_WAR_JOIN: case F_WAR_ACCEPT: case F_FE_TOKENS: f.side = get<int>(d, "side"); break;
        case F_WAR_DISCARD:
            f.parent = d.contains("parent") ? index_of(FRAME_NAMES, get<std::string>(d, "parent")) : F_WAR;
            break;
        case F_STOREHOUSE_VETO: f.ally = get<int>(d, "ally"); f.ids = get<Ids>(d, "agents"); break;
        case F_RAID_FE:
            f.phase = get<int>(d, "phase"); f.intervener = get<int>(d, "intervener");
            id_rows_from(f.cards, d, "commits"); f.d4 = get<std::string>(d, "die") == "d4";
            f.rolls[0] = get<int>(d, "roll"); f.hinder = get<int>(d, "hinder"); f.shown = get<int>(d, "shown");
            rolls(false);
            break;
        case F_WAR_FE: {
            f.defender = get<int>(d, "defender"); f.phase = get<int>(d, "phase");
            id_rows_from(f.cards, d, "commits"); f.bonus = ints<4>(d, "bonus");
            f.tokens = ints<2>(d, "tokens"); f.d4 = get<std::string>(d, "die") == "d4";
            f.rolls[0] = get<int>(d, "roll0"); f.rolls[1] = get<int>(d, "roll1");
            auto t = ints<2>(d, "totals");
            f.has_totals = true;
            f.totals[0] = t[0];
            f.totals[1] = t[1];
            f.victor = get<int>(d, "victor"); f.loser = get<int>(d, "loser");
            f.due = get<int>(d, "due"); f.shown = get<int>(d, "shown");
            rolls(true);
            break;
        }
        case F_FE_COMMIT:
            f.parent = index_of(FRAME_NAMES, get<std::string>(d, "parent")); f.must = get<int>(d, "must");
            break;
        default: break;
    }
    return f;
}

// The whole state in its saved form (GameState.to_dict(); the native engine keeps no
// text log).
inline py::dict state_to_dict(const State& s, const Content& c, int n_sources) {
    py::dict d;
    d["round"] = s.round; d["first_player"] = s.first_player; d["anglo_dutch"] = s.anglo_dutch;
    d["ships"] = s.ships; d["current_event"] = s.current_event; d["game_over"] = s.game_over;
    d["turn_seat"] = s.turn_seat; d["decisions"] = s.decisions; d["discount_used"] = s.discount_used;
    d["roles_public"] = s.roles_public;
    d["vp"] = s.vp; d["wealth"] = s.wealth; d["storehouse"] = s.storehouse; d["population"] = s.population;
    d["pw_track"] = s.pw_track; d["market"] = s.market; d["market_deck"] = s.market_deck;
    d["market_discard"] = s.market_discard; d["population_deck"] = s.population_deck;
    d["population_discard"] = s.population_discard; d["event_deck"] = s.event_deck;
    d["event_discard"] = s.event_discard; d["leader_space"] = s.leader_space; d["outlawed"] = s.outlawed;
    d["wars_won"] = s.wars_won; d["used_cards"] = s.used_cards; d["districts"] = s.districts;
    d["final_vp"] = s.final_vp; d["roles"] = s.roles; d["vetoed"] = s.vetoed;
    d["folk_deck"] = s.folk_deck; d["folk_discard"] = s.folk_discard; d["put_away"] = s.put_away;
    d["hands"] = id_rows(s.hands); d["revealed"] = id_rows(s.revealed);
    d["battle_deck"] = id_rows(s.battle_deck);
    d["battle_discard"] = id_rows(s.battle_discard);
    py::list modifiers;
    for (auto [type, n] : s.modifiers) modifiers.append(py::make_tuple(MODIFIER_NAMES[type], n));
    d["modifiers"] = modifiers;
    d["folk_hands"] = id_rows(s.folk_hands);
    py::list sources;
    for (const auto& row : s.vp_sources) sources.append(py::cast(Ids(row.begin(), row.begin() + n_sources)));
    d["vp_sources"] = sources;
    py::list facts;
    const Ids fact_ints = s.facts.items();
    for (size_t i = 0; i < fact_ints.size(); i += 2 + fact_ints[i + 1]) {
        py::list row;
        row.append(FACT_NAMES[fact_ints[i]]);
        for (int k = 0; k < fact_ints[i + 1]; ++k) row.append(fact_ints[i + 2 + k]);
        facts.append(row);
    }
    d["facts"] = facts;
    py::list tableau;
    for (const auto& row : s.tableau) {
        py::list out;
        for (const Slot& x : row)
            out.append(py::make_tuple(x.card, (int)x.up, (int)x.link, x.pops, (int)x.activated, x.stored,
                                      DOWN_NAMES[x.down], (int)x.searched));
        tableau.append(out);
    }
    d["tableau"] = tableau;
    py::list stack;
    for (const Frame& f : s.stack) {
        py::dict fd;
        fd["kind"] = FRAME_NAMES[f.kind];
        fd["seat"] = f.seat;
        fd["d"] = frame_data(f, c);
        stack.append(fd);
    }
    d["stack"] = stack;
    d["log_text"] = py::list();
    return d;
}

// A state from its saved form (already validated by the Python engine's loader).
inline State state_from_dict(const py::dict& d, const Content& c) {
    State s;
    s.round = get<int>(d, "round"); s.first_player = get<int>(d, "first_player");
    s.anglo_dutch = get<int>(d, "anglo_dutch"); s.ships = get<int>(d, "ships");
    s.current_event = get<int>(d, "current_event"); s.game_over = get<int>(d, "game_over");
    s.turn_seat = get<int>(d, "turn_seat"); s.decisions = get<int>(d, "decisions");
    s.discount_used = get<int>(d, "discount_used"); s.roles_public = get<int>(d, "roles_public");
    s.vp = ints<4>(d, "vp"); s.wealth = ints<4>(d, "wealth"); s.storehouse = ints<2>(d, "storehouse");
    s.population = ints<2>(d, "population"); s.pw_track = get<Ids>(d, "pw_track");
    s.market = get<Ids>(d, "market"); s.market_deck = get<Ids>(d, "market_deck");
    s.market_discard = get<Ids>(d, "market_discard"); s.population_deck = get<Ids>(d, "population_deck");
    s.population_discard = get<Ids>(d, "population_discard"); s.event_deck = get<Ids>(d, "event_deck");
    s.event_discard = get<Ids>(d, "event_discard"); s.leader_space = get<Ids>(d, "leader_space");
    s.outlawed = get<Ids>(d, "outlawed"); s.wars_won = ints<4>(d, "wars_won");
    s.used_cards = get<Ids>(d, "used_cards"); s.districts = get<Ids>(d, "districts");
    s.final_vp = get<Ids>(d, "final_vp"); s.roles = ints<4>(d, "roles"); s.vetoed = ints<4>(d, "vetoed");
    s.folk_deck = get<Ids>(d, "folk_deck"); s.folk_discard = get<Ids>(d, "folk_discard");
    s.put_away = get<Ids>(d, "put_away");
    id_rows_from(s.hands, d, "hands"); id_rows_from(s.revealed, d, "revealed");
    id_rows_from(s.folk_hands, d, "folk_hands");
    auto sources = get<std::vector<Ids>>(d, "vp_sources");
    for (int seat = 0; seat < 4 && seat < (int)sources.size(); ++seat)
        for (size_t k = 0; k < sources[seat].size() && k < (size_t)MAX_VP_SOURCES; ++k)
            s.vp_sources[seat][k] = sources[seat][k];
    id_rows_from(s.battle_deck, d, "battle_deck");
    id_rows_from(s.battle_discard, d, "battle_discard");
    for (auto m : d["modifiers"]) {
        py::sequence pair = m.cast<py::sequence>();
        s.modifiers.push_back({index_of(MODIFIER_NAMES, pair[0].cast<std::string>()), pair[1].cast<int>()});
    }
    for (auto row : d["facts"]) {
        py::sequence values = row.cast<py::sequence>();
        s.facts.push_back(index_of(FACT_NAMES, values[0].cast<std::string>()));
        s.facts.push_back((int)values.size() - 1);
        for (size_t i = 1; i < values.size(); ++i) s.facts.push_back(values[i].cast<int>());
    }
    auto rows = d["tableau"].cast<py::list>();
    for (size_t seat = 0; seat < 4; ++seat)
        for (auto item : rows[seat]) {
            py::sequence x = item.cast<py::sequence>();
            Slot slot;
            int card = x[0].cast<int>();
            if (card < -1 || card > INT16_MAX)  // (checked before it is narrowed to 16 bits)
                throw std::invalid_argument("loaded state: tableau card " + std::to_string(card) +
                                            " is past 16-bit card ids");
            slot.card = (int16_t)card; slot.up = x[1].cast<int>(); slot.link = x[2].cast<int>();
            slot.pops = x[3].cast<Ids>(); slot.activated = x[4].cast<int>(); slot.stored = x[5].cast<int>();
            slot.down = index_of({"", "closed", "outlawed"}, x[6].cast<std::string>());
            slot.searched = x[7].cast<int>();
            s.tableau[seat].push_back(slot);
        }
    for (auto item : d["stack"]) {
        py::dict f = item.cast<py::dict>();
        s.stack.push_back(frame_from(get<std::string>(f, "kind"), get<int>(f, "seat"), f["d"].cast<py::dict>(), c));
    }
    return s;
}

}  // namespace sg
