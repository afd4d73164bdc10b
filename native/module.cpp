// The compiled module singapore_env._native: the Python face of the native engine.
// One translation unit (the build compiles this file only).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "game.hpp"
#include "rng.hpp"

namespace py = pybind11;

namespace {

// 128-bit values cross to Python as (high, low) 64-bit halves.
std::pair<uint64_t, uint64_t> halves(sg::u128 v) {
    return {(uint64_t)(v >> 64), (uint64_t)v};
}
sg::u128 joined(std::pair<uint64_t, uint64_t> hl) {
    return ((sg::u128)hl.first << 64) | hl.second;
}

py::tuple rng_halves(const sg::Pcg64& r) {
    return py::make_tuple(halves(r.state()), halves(r.inc()), r.has_uint32(), r.uinteger());
}

template <class T>
T item(const py::dict& d, const char* key) {
    return d[key].cast<T>();
}

// The content record singapore_env.native builds from a loaded Content.
std::shared_ptr<const sg::Content> content_from(const py::dict& d) {
    auto c = std::make_shared<sg::Content>();
    c->market_ids = item<sg::Ids>(d, "market_ids");
    c->leader_ids = item<sg::Ids>(d, "leader_ids");
    c->population_ids = item<sg::Ids>(d, "population_ids");
    c->folk_ids = item<sg::Ids>(d, "folk_ids");
    auto battle = item<std::vector<sg::Ids>>(d, "battle_ids");
    c->battle_ids[0] = battle.at(0);
    c->battle_ids[1] = battle.at(1);
    c->event_ids_i = item<sg::Ids>(d, "event_ids_i");
    c->event_ids_ii = item<sg::Ids>(d, "event_ids_ii");
    c->star = item<sg::Ids>(d, "star");
    c->keys = item<std::vector<std::string>>(d, "keys");
    c->loop_spaces = item<int>(d, "loop_spaces");
    c->vices = item<int>(d, "vices");
    c->leader_spaces = item<int>(d, "leader_spaces");
    if (c->leader_ids.size() != 4) throw std::invalid_argument("content needs 4 leaders");
    return c;
}

sg::Config config_from(const py::dict& d) {
    sg::Config cfg;
    cfg.ruleset = item<std::string>(d, "ruleset");
    cfg.market_slots = item<int>(d, "market_slots");
    cfg.max_hand = item<int>(d, "max_hand");
    cfg.event_i_cards = item<int>(d, "event_i_cards");
    cfg.event_ii_cards = item<int>(d, "event_ii_cards");
    cfg.sim_put_away_british = item<std::vector<std::string>>(d, "sim_put_away_british");
    return cfg;
}

py::list slot_rows(const std::vector<std::vector<sg::Slot>>& tableau) {
    py::list rows;
    for (const auto& row : tableau) {
        py::list out;
        for (const sg::Slot& x : row)
            out.append(py::make_tuple(x.card, (int)x.up, (int)x.link, x.pops, (int)x.activated,
                                      x.stored, x.down, (int)x.searched));
        rows.append(out);
    }
    return rows;
}

// The dealt state as GameState.to_dict() names its fields.
py::dict state_dict(const sg::State& s) {
    py::dict d;
    d["first_player"] = s.first_player;
    d["market"] = s.market;
    d["market_deck"] = s.market_deck;
    d["population_deck"] = s.population_deck;
    d["event_deck"] = s.event_deck;
    d["districts"] = s.districts;
    d["outlawed"] = s.outlawed;
    d["leader_space"] = s.leader_space;
    d["folk_deck"] = s.folk_deck;
    d["put_away"] = s.put_away;
    d["battle_deck"] = std::vector<sg::Ids>{s.battle_deck[0], s.battle_deck[1]};
    d["battle_discard"] = std::vector<sg::Ids>{s.battle_discard[0], s.battle_discard[1]};
    d["hands"] = s.hands;
    d["tableau"] = slot_rows(s.tableau);
    d["log_text"] = s.log_text;
    return d;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "The native engine of singapore_env (see docs/native.md).";

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

    py::class_<sg::Content, std::shared_ptr<sg::Content>>(m, "Content",
                                                          "A loaded Content, as the rules read it.");
    m.def("content", [](const py::dict& d) { return std::const_pointer_cast<sg::Content>(content_from(d)); },
          py::arg("record"));
    m.def("deal", [](std::shared_ptr<sg::Content> content, const py::dict& config, uint64_t seed,
                     bool keep_text_log) {
        sg::Game g(content, config_from(config), seed, keep_text_log);
        py::dict d = state_dict(g.state());
        d["rng"] = rng_halves(g.rng());
        return d;
    }, py::arg("content"), py::arg("config"), py::arg("seed"), py::arg("keep_text_log"));
}
