// The compiled module singapore_env._native: the Python face of the native engine.
// One translation unit (the build compiles this file only); singapore_env/native.py
// wraps it.
#include <map>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "batch.hpp"
#include "encoder.hpp"
#include "engine.hpp"
#include "rng.hpp"
#include "save.hpp"

namespace py = pybind11;

namespace {

// 128-bit values cross to Python as (high, low) 64-bit halves.
std::pair<uint64_t, uint64_t> halves(sg::u128 v) { return {(uint64_t)(v >> 64), (uint64_t)v}; }
sg::u128 joined(std::pair<uint64_t, uint64_t> hl) { return ((sg::u128)hl.first << 64) | hl.second; }

py::tuple rng_halves(const sg::Pcg64& r) {
    return py::make_tuple(halves(r.state()), halves(r.inc()), r.has_uint32(), r.uinteger());
}

template <class T>
T item(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}

// ---------------------------------------------------------------- content records
sg::Effect effect_from(const py::dict& d, const std::vector<std::string>& types,
                       const std::vector<std::string>& tables) {
    sg::Effect e;
    e.type = sg::index_of(types, item<std::string>(d, "type"));
    for (auto kv : d) {
        std::string key = kv.first.cast<std::string>();
        py::handle v = kv.second;
        if (key == "type") continue;
        if (key == "cards") e.cards = v.cast<std::vector<std::string>>();
        else if (key == "table") e.table = sg::index_of(tables, v.cast<std::string>());
        else if (key == "scope") e.scope_any = v.cast<std::string>() == "any";
        else if (key == "applies") e.applies = sg::index_of({"all", "dual_price", "public_works"}, v.cast<std::string>());
        else if (key == "when") e.when = sg::index_of({"always", "leader_on_market_space"}, v.cast<std::string>());
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

std::vector<sg::Effect> effects_from(const py::handle& list, const std::vector<std::string>& types,
                                     const std::vector<std::string>& tables) {
    std::vector<sg::Effect> out;
    for (auto e : list) out.push_back(effect_from(e.cast<py::dict>(), types, tables));
    return out;
}

sg::Connector connector_from(const py::handle& v) {
    sg::Connector c;
    if (v.is_none()) return c;
    auto [colour, shape] = v.cast<std::pair<std::string, std::string>>();
    c.colour = sg::index_of({"black", "red", "both"}, colour);
    c.shape = sg::index_of({"solid", "notch"}, shape);
    return c;
}

std::shared_ptr<const sg::Content> content_from(const py::dict& d) {
    auto c = std::make_shared<sg::Content>();
    py::dict board = d["board"];
    sg::Board& b = c->board;
    b.max_ships = item<int>(board, "max_ships");
    b.max_population = item<int>(board, "max_population");
    b.port_bands = item<std::vector<std::array<int, 4>>>(board, "port_bands");
    b.multiplier_track = item<sg::Ids>(board, "multiplier_track");
    b.pw_ship_spaces = item<sg::Ids>(board, "pw_ship_spaces");
    b.loop_ids = item<std::vector<std::string>>(board, "loop_ids");
    for (const auto& kind : item<std::vector<std::string>>(board, "loop_kind"))
        b.loop_storehouse.push_back(kind == "storehouse");
    b.loop_faction = item<sg::Ids>(board, "loop_faction");
    b.loop_multiplier = item<sg::Ids>(board, "loop_multiplier");
    b.loop_ship = item<sg::Ids>(board, "loop_ship");
    b.loop_opens_at = item<sg::Ids>(board, "loop_opens_at");
    for (const auto& space : item<std::vector<std::string>>(board, "leader_spaces"))
        b.leader_spaces.push_back(sg::index_of({"market", "populate", "battle"}, space));
    b.vices = item<std::vector<std::string>>(board, "vices");
    b.vice_cost = item<sg::Ids>(board, "vice_cost");
    b.vice_can_legalize = item<sg::Ids>(board, "vice_can_legalize");
    auto slavery = std::find(b.vices.begin(), b.vices.end(), "slavery");
    b.slavery_vice = slavery == b.vices.end() ? -1 : (int)(slavery - b.vices.begin());

    py::dict tables = d["conflict_tables"];
    for (auto kv : tables) c->table_names.push_back(kv.first.cast<std::string>());
    for (auto kv : tables) {
        std::vector<sg::ConflictRow> rows;
        for (auto row : kv.second) {
            py::tuple r = row.cast<py::tuple>();
            rows.push_back({r[0].cast<int>(), r[1].cast<int>(), effects_from(r[2], sg::EFFECT_NAMES, c->table_names)});
        }
        c->conflict_tables.push_back(rows);
    }
    for (auto item_ : d["defs"]) {
        py::dict cd = item_.cast<py::dict>();
        sg::Card card;
        card.key = item<std::string>(cd, "key");
        card.name = item<std::string>(cd, "name");
        card.category = item<std::string>(cd, "category");
        auto price = item<std::pair<int, int>>(cd, "price");
        card.price[0] = price.first;
        card.price[1] = price.second;
        for (const auto& kind : item<std::vector<std::string>>(cd, "kinds"))
            card.kinds |= 1u << sg::index_of(sg::KIND_NAMES, kind);
        card.vice = item<int>(cd, "vice");
        card.pop_slots = item<int>(cd, "pop_slots");
        card.left = connector_from(cd["left"]);
        card.right = connector_from(cd["right"]);
        card.instant = effects_from(cd["instant"], sg::EFFECT_NAMES, c->table_names);
        card.action = effects_from(cd["action"], sg::EFFECT_NAMES, c->table_names);
        card.boosts = effects_from(cd["boosts"], sg::BOOST_NAMES, c->table_names);
        for (const sg::Effect& e : card.boosts) {
            card.boosts_of[e.type].push_back(e);
            c->has_boost[e.type] = true;
        }
        card.end_game = effects_from(cd["end_game"], sg::END_GAME_NAMES, c->table_names);
        card.modifiers = effects_from(cd["modifiers"], sg::MODIFIER_NAMES, c->table_names);
        card.faction = item<int>(cd, "faction");
        card.strength = item<int>(cd, "strength");
        card.star = item<bool>(cd, "star");
        for (auto l : cd["legacies"]) {
            py::tuple t = l.cast<py::tuple>();
            sg::Legacy legacy;
            legacy.metric = sg::index_of(sg::METRIC_NAMES, t[0].cast<std::string>());
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
    c->market_ids = item<sg::Ids>(d, "market_ids");
    c->leader_ids = item<sg::Ids>(d, "leader_ids");
    c->population_ids = item<sg::Ids>(d, "population_ids");
    c->folk_ids = item<sg::Ids>(d, "folk_ids");
    auto battle = item<std::vector<sg::Ids>>(d, "battle_ids");
    c->battle_ids[0] = battle.at(0);
    c->battle_ids[1] = battle.at(1);
    c->event_ids_i = item<sg::Ids>(d, "event_ids_i");
    c->event_ids_ii = item<sg::Ids>(d, "event_ids_ii");
    if (c->leader_ids.size() != 4) throw std::invalid_argument("content needs 4 leaders");
    return c;
}

std::shared_ptr<const sg::Config> config_from(const py::dict& d) {
    auto cfg = std::make_shared<sg::Config>();
    sg::Config& c = *cfg;
    c.ruleset = item<std::string>(d, "ruleset");
    c.slavery = item<bool>(d, "slavery");
    c.star_in_conflict_under_singapore = item<bool>(d, "star_in_conflict_under_singapore");
    c.conflict_vp_full_strength = item<bool>(d, "conflict_vp_full_strength");
    c.spoils_optional = item<std::string>(d, "spoils_sharing") == "optional";
    c.first_edition_raid_and_war = item<bool>(d, "first_edition_raid_and_war");
    int* ints[] = {&c.event_i_cards, &c.event_ii_cards, &c.singapore_treaty_ships,
                   &c.anglo_dutch_ship_threshold, &c.first_round_income, &c.actions_per_turn,
                   &c.leader_money, &c.leader_storehouse_tokens, &c.battle_card_price,
                   &c.battle_draw_two_tokens, &c.market_slots, &c.district_threshold,
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
                   &c.fe_storehouse_strength, &c.fe_war_ships_lost, &c.fe_vp_per_dollar};
    const char* names[] = {"event_i_cards", "event_ii_cards", "singapore_treaty_ships",
                           "anglo_dutch_ship_threshold", "first_round_income", "actions_per_turn",
                           "leader_money", "leader_storehouse_tokens", "battle_card_price",
                           "battle_draw_two_tokens", "market_slots", "district_threshold",
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
                           "fe_storehouse_strength", "fe_war_ships_lost", "fe_vp_per_dollar"};
    static_assert(sizeof(ints) / sizeof(ints[0]) == sizeof(names) / sizeof(names[0]));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) *ints[i] = item<int>(d, names[i]);
    c.spoils_shares = item<std::vector<std::pair<int, int>>>(d, "spoils_shares");
    c.sim_put_away_british = item<std::vector<std::string>>(d, "sim_put_away_british");
    c.faces = item<sg::Ids>(d, "faces");
    c.vp_sources = item<std::vector<std::string>>(d, "vp_sources");
    if (c.vp_sources.size() > (size_t)sg::MAX_VP_SOURCES) throw std::invalid_argument("too many VP sources");
    return cfg;
}

// The Decision objects of one action table (ActionTable.decisions), by kind and arg:
// legal decisions cross to Python as these shared objects, with no tuple built. A
// decision outside the table (the rules may offer one past a small tableau limit) comes
// from ``lookup((kind, arg))``.
struct DecisionTable {
    std::vector<py::object> objects;
    std::vector<int> offset, size;  // by kind
    py::object lookup;
    py::list legal(const std::vector<sg::Decision>& legal) const {
        py::list out(legal.size());
        for (size_t i = 0; i < legal.size(); ++i) {
            const sg::Decision& d = legal[i];
            py::object o = (d.kind >= 0 && d.kind < (int)offset.size() && d.arg >= 0 && d.arg < size[d.kind])
                               ? objects[offset[d.kind] + d.arg]
                               : lookup(py::make_tuple(d.kind, d.arg));
            PyList_SET_ITEM(out.ptr(), (Py_ssize_t)i, o.release().ptr());
        }
        return out;
    }
};

py::list decisions_list(const std::vector<sg::Decision>& legal) {
    py::list out;
    for (const sg::Decision& d : legal) out.append(py::make_tuple(d.kind, d.arg));
    return out;
}

// The Python ObservationLayout's numbers as the native writer reads them
// (singapore_env.native.layout_record builds the dict).
sg::Layout layout_from(const sg::Content& c, const py::dict& d) {
    sg::Layout L;
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
    for (size_t i = 0; i < sg::SLICE_NAMES.size(); ++i) L.o[i] = offsets.at(sg::SLICE_NAMES[i]);
    L.key = item<sg::Ids>(d, "key");
    L.tkey = item<sg::Ids>(d, "tkey");
    L.mkey = item<sg::Ids>(d, "mkey");
    L.bkey = item<sg::Ids>(d, "bkey");
    L.ekey = item<sg::Ids>(d, "ekey");
    L.fkey = item<sg::Ids>(d, "fkey");
    L.loop_open = item<std::vector<std::pair<int, int>>>(d, "loop_open");
    auto by_name = [&](const char* key, const std::vector<std::string>& names) {
        auto index = item<std::map<std::string, int>>(d, key);
        sg::Ids out;
        for (const auto& name : names) out.push_back(index.count(name) ? index.at(name) : -1);
        return out;
    };
    L.pending_idx = by_name("pending_idx", sg::FRAME_NAMES);
    L.stack_idx = by_name("stack_idx", sg::FRAME_NAMES);
    L.mod_idx = by_name("mod_idx", sg::MODIFIER_NAMES);
    L.table_idx = by_name("table_idx", c.table_names);
    L.action_offset = item<sg::Ids>(d, "action_offset");
    L.action_size = item<sg::Ids>(d, "action_size");
    return L;
}

void check_seat(int seat) {
    if (seat < 0 || seat > 3) throw std::invalid_argument("seat must be 0..3, got " + std::to_string(seat));
}

template <class T>
T* row_of(py::array_t<T, py::array::c_style>& out, py::ssize_t size) {
    if (out.ndim() != 1 || out.shape(0) != size)
        throw std::invalid_argument("expected a contiguous vector of " + std::to_string(size) + " values");
    return out.mutable_data();
}

template <class T>
using Array = py::array_t<T, py::array::c_style>;

// A batch's array of ``rows`` rows of ``width`` values (width 0: a vector).
template <class T>
T* rows_of(Array<T>& a, const char* name, py::ssize_t rows, py::ssize_t width) {
    bool fits = width ? a.ndim() == 2 && a.shape(0) == rows && a.shape(1) == width
                      : a.ndim() == 1 && a.shape(0) == rows;
    if (!fits)
        throw std::invalid_argument(std::string(name) + ": expected a contiguous array of shape (" +
                                    std::to_string(rows) + (width ? ", " + std::to_string(width) : ",") + ")");
    return a.mutable_data();
}

struct BatchArrays {
    Array<float> obs;
    Array<int8_t> mask;
    Array<int64_t> seat;
    Array<bool> done;
    Array<int64_t> final_vp, game_seeds;
    sg::Rows rows(const sg::Batch& b, const sg::Layout& L) {
        int n = b.size();
        return {rows_of(obs, "obs", n, L.D), rows_of(mask, "mask", n, L.n_actions), rows_of(seat, "seat", n, 0),
                rows_of(done, "done", n, 0), rows_of(final_vp, "final_vp", n, 4),
                rows_of(game_seeds, "game_seeds", n, 0)};
    }
};

void check(const std::string& why) {
    if (!why.empty()) throw py::value_error(why);
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "The native engine of singapore_env (see docs/native.md).";
    m.attr("SOURCE_DIGEST") = SOURCE_DIGEST;  // of the sources it was built from (setup.py)

    py::class_<sg::Pcg64>(m, "Pcg64", "numpy's PCG64 and the Generator draws the engine makes.")
        .def(py::init<uint64_t>(), py::arg("seed"))
        .def(py::init([](std::pair<uint64_t, uint64_t> state, std::pair<uint64_t, uint64_t> inc,
                         bool has_uint32, uint32_t uinteger) {
                 return sg::Pcg64(joined(state), joined(inc), has_uint32, uinteger);
             }),
             py::arg("state"), py::arg("inc"), py::arg("has_uint32"), py::arg("uinteger"))
        .def("integers", &sg::Pcg64::integers, py::arg("low"), py::arg("high"))
        .def("permutation", &sg::Pcg64::permutation, py::arg("n"))
        .def("state_halves", &rng_halves);

    py::class_<sg::Content, std::shared_ptr<sg::Content>>(m, "Content", "A loaded Content, as the rules read it.");
    py::class_<sg::Config, std::shared_ptr<sg::Config>>(m, "Config", "A RulesConfig, as the rules read it.");
    m.def("content", [](const py::dict& d) { return std::const_pointer_cast<sg::Content>(content_from(d)); });
    m.def("config", [](const py::dict& d) { return std::const_pointer_cast<sg::Config>(config_from(d)); });

    py::class_<DecisionTable>(m, "DecisionTable", "The Decision objects of an action table.")
        .def(py::init([](const py::list& decisions, std::vector<int> offset, std::vector<int> size,
                         py::object lookup) {
            DecisionTable t;
            t.lookup = std::move(lookup);
            for (auto d : decisions) t.objects.push_back(py::reinterpret_borrow<py::object>(d));
            t.offset = std::move(offset);
            t.size = std::move(size);
            return t;
        }));

    py::class_<sg::Game>(m, "Game", "A game on the native rules.")
        .def(py::init([](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config, uint64_t seed) {
                 return sg::Game(content, config, seed);
             }))
        .def("legal", [](const sg::Game& g) { return decisions_list(g.legal()); })
        .def("legal_in", [](const sg::Game& g, const DecisionTable& t) { return t.legal(g.legal()); })
        .def("step", [](sg::Game& g, int kind, int arg) {
            if (!g.is_legal({kind, arg})) return false;
            g.step({kind, arg});
            return true;
        }, "Apply the decision if it is legal now; false (and nothing changed) if not.")
        .def("is_over", &sg::Game::is_over)
        .def("acting_seat", &sg::Game::acting_seat)
        .def("final_vp", [](const sg::Game& g) { return g.state().final_vp; })
        .def("decisions", [](const sg::Game& g) { return g.state().decisions; })
        .def("state", [](const sg::Game& g) {
            return sg::state_to_dict(g.state(), g.content(), (int)g.config().vp_sources.size());
        })
        .def("rng", [](const sg::Game& g) { return rng_halves(g.rng()); })
        .def("history", [](const sg::Game& g) { return decisions_list(g.history()); })
        .def("clone", [](const sg::Game& g) { return sg::Game(g); });


    py::class_<sg::Encoder, std::shared_ptr<sg::Encoder>>(m, "Encoder", "The observation writer and action mask of a layout.")
        .def(py::init([](std::shared_ptr<sg::Content> content, const py::dict& layout) {
            return sg::Encoder(layout_from(*content, layout));
        }))
        .def("encode", [](const sg::Encoder& e, const sg::Game& g, int seat, py::array_t<float, py::array::c_style> out) {
            check_seat(seat);
            e.encode(g, seat, row_of(out, e.layout().D));
        }, py::arg("game"), py::arg("seat"), py::arg("out").noconvert())
        .def("mask", [](const sg::Encoder& e, const sg::Game& g, int seat, py::array_t<int8_t, py::array::c_style> out) {
            check_seat(seat);
            sg::Decision bad{};
            if (!e.mask(g, seat, row_of(out, e.layout().n_actions), &bad))
                throw py::value_error("engine decision (" + std::to_string(bad.kind) + ", " +
                                      std::to_string(bad.arg) + ") is outside the action table");
        }, py::arg("game"), py::arg("seat"), py::arg("out").noconvert());

    // The slots of a vector env (batch.hpp), stepped without the GIL.
    py::class_<sg::Batch>(m, "Batch", "Native games stepped together, writing rows of arrays.")
        .def(py::init([](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                         std::shared_ptr<sg::Encoder> encoder, int n, uint64_t seed, uint64_t first_slot) {
            if (n < 1) throw std::invalid_argument("a batch needs at least one game");
            return sg::Batch(content, config, encoder, n, seed, first_slot);
        }))
        .def("reset", [](sg::Batch& b, const sg::Encoder& e, BatchArrays a) {
            sg::Rows r = a.rows(b, e.layout());
            std::string why;
            {
                py::gil_scoped_release release;
                why = b.reset(r);
            }
            check(why);
        })
        .def("step", [](sg::Batch& b, const sg::Encoder& e, Array<int64_t> actions, BatchArrays a) {
            sg::Rows r = a.rows(b, e.layout());
            const int64_t* act = rows_of(actions, "actions", b.size(), 0);
            std::string why;
            {
                py::gil_scoped_release release;
                why = b.step(act, r);
            }
            check(why);
        })
        .def("game", [](const sg::Batch& b, int i) { return sg::Game(b.game(i)); });
    py::class_<BatchArrays>(m, "BatchArrays", "The arrays a Batch writes.")
        .def(py::init([](Array<float> obs, Array<int8_t> mask, Array<int64_t> seat, Array<bool> done,
                         Array<int64_t> final_vp, Array<int64_t> game_seeds) {
                 return BatchArrays{obs, mask, seat, done, final_vp, game_seeds};
             }),
             py::arg("obs").noconvert(), py::arg("mask").noconvert(), py::arg("seat").noconvert(),
             py::arg("done").noconvert(), py::arg("final_vp").noconvert(), py::arg("game_seeds").noconvert());
    m.def("slot_game_seed", &sg::slot_game_seed, py::arg("seed"), py::arg("slot"), py::arg("k"));

    // A game continued from a saved state (validated by the Python engine's loader).
    m.def("load", [](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                     const py::dict& state, py::tuple rng, const std::vector<std::pair<int, int>>& history) {
        sg::Pcg64 r(joined(rng[0].cast<std::pair<uint64_t, uint64_t>>()),
                    joined(rng[1].cast<std::pair<uint64_t, uint64_t>>()), rng[2].cast<bool>(),
                    rng[3].cast<uint32_t>());
        std::vector<sg::Decision> log;
        for (auto [kind, arg] : history) log.push_back({kind, arg});
        return sg::Game(content, config, r, sg::state_from_dict(state, *content), log);
    });

    // Whole games with every decision drawn uniformly from the legal ones by a PCG64
    // seeded with the game's seed, without the GIL: (decisions per game, final VP).
    m.def("play_random", [](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                            const std::vector<uint64_t>& seeds) {
        std::vector<int> decisions;
        std::vector<sg::Ids> scores;
        {
            py::gil_scoped_release release;
            for (uint64_t seed : seeds) {
                sg::Game g(content, config, seed);
                sg::Pcg64 pick(seed);
                while (!g.is_over()) {
                    const auto& legal = g.legal();
                    g.step(legal[pick.integers(0, (int64_t)legal.size())]);
                }
                decisions.push_back(g.state().decisions);
                scores.push_back(g.state().final_vp);
            }
        }
        return py::make_tuple(decisions, scores);
    });
}
