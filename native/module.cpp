// The compiled module singapore_env._native: the Python face of the native engine.
// One translation unit (the build compiles this file only); singapore_env/native.py
// wraps it.
#include <map>
#include <optional>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "batch.hpp"
#include "candidates.hpp"
#include "determinize.hpp"
#include "encoder.hpp"
#include "engine.hpp"
#include "heuristic.hpp"
#include "invariants.hpp"
#include "mcts.hpp"
#include "nets.hpp"
#include "rng.hpp"
#include "records.hpp"
#include "rerank.hpp"
#include "rollout.hpp"
#include "save.hpp"

namespace py = pybind11;

namespace {

using sg::config_from;
using sg::content_from;
using sg::layout_from;

// 128-bit values cross to Python as (high, low) 64-bit halves.
std::pair<uint64_t, uint64_t> halves(sg::u128 v) { return {(uint64_t)(v >> 64), (uint64_t)v}; }
sg::u128 joined(std::pair<uint64_t, uint64_t> hl) { return ((sg::u128)hl.first << 64) | hl.second; }

py::tuple rng_halves(const sg::Pcg64& r) {
    return py::make_tuple(halves(r.state()), halves(r.inc()), r.has_uint32(), r.uinteger());
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

// ---------------------------------------------------------------- games
// A game crosses to Python as a capsule that owns it: a capsule is made and freed several
// times faster than an instance of a bound class, and search copies games by the thousand.
const char* const GAME_CAPSULE = "singapore_env._native.Game";

void free_game(PyObject* capsule) {
    delete static_cast<sg::Game*>(PyCapsule_GetPointer(capsule, GAME_CAPSULE));
}

py::object game_capsule(sg::Game* g) {
    PyObject* capsule = PyCapsule_New(g, GAME_CAPSULE, free_game);
    if (!capsule) {
        delete g;
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
}

// The game of a capsule (TypeError for anything else).
sg::Game& game_of(py::handle h) {
    if (!PyCapsule_IsValid(h.ptr(), GAME_CAPSULE)) throw py::type_error("not a native game");
    return *static_cast<sg::Game*>(PyCapsule_GetPointer(h.ptr(), GAME_CAPSULE));
}

// clone(game): a copy of a game (a METH_O C function: the copy is the whole cost).
PyObject* clone_game(PyObject*, PyObject* h) {
    if (!PyCapsule_IsValid(h, GAME_CAPSULE)) {
        PyErr_SetString(PyExc_TypeError, "not a native game");
        return nullptr;
    }
    try {
        auto copy = std::make_unique<sg::Game>(*static_cast<const sg::Game*>(PyCapsule_GetPointer(h, GAME_CAPSULE)));
        PyObject* capsule = PyCapsule_New(copy.get(), GAME_CAPSULE, free_game);
        if (capsule) copy.release();
        return capsule;
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    }
}

// ---------------------------------------------------------------- networks
// A float32 copy of a numpy array (any dtype numpy casts to float32).
sg::Tensor tensor_of(py::handle h) {
    auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(h);
    if (!a) throw py::type_error("a network's arrays must be numeric numpy arrays");
    sg::Tensor t;
    for (py::ssize_t d = 0; d < a.ndim(); ++d) t.shape.push_back(a.shape(d));
    t.data.assign(a.data(), a.data() + a.size());
    return t;
}

// The number of rows of a batch's observations.
py::ssize_t rows_in(const Array<float>& obs) {
    if (obs.ndim() != 2) throw std::invalid_argument("observation: expected a batch of rows (a 2-d array)");
    if (obs.shape(0) > (1 << 24)) throw std::invalid_argument("observation: a batch holds at most 2**24 rows");
    return obs.shape(0);
}

// The rows of a float32 batch argument, copied (the GIL is released while they are read):
// ``rows`` rows of ``width`` values (and ``depth`` values each if given).
std::vector<float> copied_rows(const Array<float>& a, const char* name, py::ssize_t rows, py::ssize_t width,
                               py::ssize_t depth = 0) {
    bool fits = a.ndim() == (depth ? 3 : 2) && a.shape(0) == rows && a.shape(1) == width &&
                (!depth || a.shape(2) == depth);
    if (!fits)
        throw std::invalid_argument(std::string(name) + ": expected an array of shape (" + std::to_string(rows) +
                                    ", " + std::to_string(width) + (depth ? ", " + std::to_string(depth) : "") +
                                    ")");
    return std::vector<float>(a.data(), a.data() + a.size());
}

// Rows of nonzero entries stored one after another (row i is [first[i], first[i + 1]) of
// ``index`` and ``value``), returned as two arrays padded with index 0 and value 0 to the
// widest row, or to ``min_width`` where that is more.
struct CompactRows {
    std::vector<int32_t> index;
    std::vector<float> value;
    std::vector<size_t> first{0};

    // Append a row of ``count`` entries.
    void add(const int32_t* nz, const float* values, int count) {
        index.insert(index.end(), nz, nz + count);
        value.insert(value.end(), values, values + count);
        first.push_back(first.back() + (size_t)count);
    }

    py::tuple padded(size_t min_width) const {
        const py::ssize_t n = (py::ssize_t)first.size() - 1;
        size_t width = min_width;
        for (py::ssize_t i = 0; i < n; ++i) width = std::max(width, first[i + 1] - first[i]);
        Array<int32_t> index_out({n, (py::ssize_t)width});
        Array<float> value_out({n, (py::ssize_t)width});
        std::fill(index_out.mutable_data(), index_out.mutable_data() + n * width, 0);
        std::fill(value_out.mutable_data(), value_out.mutable_data() + n * width, 0.0f);
        for (py::ssize_t i = 0; i < n; ++i) {
            std::copy(index.begin() + first[i], index.begin() + first[i + 1], index_out.mutable_data() + i * width);
            std::copy(value.begin() + first[i], value.begin() + first[i + 1], value_out.mutable_data() + i * width);
        }
        return py::make_tuple(index_out, value_out);
    }
};

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "The native engine of singapore_env (see docs/native.md).";
    m.attr("SOURCE_DIGEST") = SOURCE_DIGEST;
#ifdef SINGAPORE_NATIVE_DEBUG
    m.attr("DEBUG_BUILD") = true;  // the invariants are checked after every step
#else
    m.attr("DEBUG_BUILD") = false;
#endif  // of the sources it was built from (setup.py)
#ifdef SINGAPORE_NATIVE_SANITIZE
    m.attr("SANITIZE_BUILD") = true;  // AddressSanitizer and UndefinedBehaviorSanitizer
#else
    m.attr("SANITIZE_BUILD") = false;
#endif

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

    // A game crosses to Python as a capsule owning it (GAME_CAPSULE), used through the
    // functions below; clone() is a plain C function.
    // (a seed crosses as its 32-bit words, least significant first: any non-negative int)
    m.def("new_game", [](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                         const std::vector<uint32_t>& seed) {
        return game_capsule(new sg::Game(content, config, sg::Pcg64(seed)));
    });
    // (A call reading a game while it builds Python objects works on a copy of what it
    // reads: a collection run then may switch threads, and another thread step the game.)
    m.def("legal_in", [](py::handle g, const DecisionTable& t) {
        std::vector<sg::Decision> legal = game_of(g).legal();
        return t.legal(legal);
    });
    m.def("step", [](py::handle h, int kind, int arg) {
        sg::Game& g = game_of(h);
        if (!g.is_legal({kind, arg})) return false;
        g.step({kind, arg});
        return true;
    }, "Apply the decision if it is legal now; false (and nothing changed) if not.");
    m.def("is_over", [](py::handle g) { return game_of(g).is_over(); });
    m.def("acting_seat", [](py::handle g) { return game_of(g).acting_seat(); });
    m.def("question", [](py::handle h) -> py::object {
        const sg::Game& g = game_of(h);
        if (g.is_over() || g.state().stack.empty()) return py::none();
        int kind = g.state().stack.back().kind;
        if (kind < 0 || kind >= (int)sg::FRAME_NAMES.size()) throw std::logic_error("a frame of no kind");
        return py::str(sg::FRAME_NAMES[kind]);
    }, "The kind of the frame asking the current question (None once the game is over).");
    m.def("final_vp", [](py::handle g) { return game_of(g).state().final_vp; });
    m.def("decisions", [](py::handle g) { return game_of(g).state().decisions; });
    m.def("state", [](py::handle h) {
        const sg::Game& g = game_of(h);
        auto state = std::make_unique<sg::State>(g.state());
        return sg::state_to_dict(*state, g.content(), (int)g.config().vp_sources.size());
    });
    m.def("rng", [](py::handle g) { return rng_halves(game_of(g).rng()); });
    m.def("history", [](py::handle g) { return decisions_list(game_of(g).history()); });
    m.def("broken_invariants", [](py::handle g) { return sg::broken_invariants(game_of(g)); },
          "\"\" if the game holds its invariants (invariants.hpp), else the first one broken.");
    static PyMethodDef clone_def = {"clone", clone_game, METH_O, "An independent copy of a game."};
    m.attr("clone") = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&clone_def, nullptr, m.attr("__name__").ptr()));

    py::class_<sg::Encoder, std::shared_ptr<sg::Encoder>>(m, "Encoder", "The observation writer and action mask of a layout.")
        .def(py::init([](std::shared_ptr<sg::Content> content, const py::dict& layout) {
            return sg::Encoder(layout_from(*content, layout));
        }))
        .def("encode", [](const sg::Encoder& e, py::handle g, int seat, py::array_t<float, py::array::c_style> out) {
            check_seat(seat);
            e.encode(game_of(g), seat, row_of(out, e.layout().D));
        }, py::arg("game"), py::arg("seat"), py::arg("out").noconvert())
        .def("nonzero", [](const sg::Encoder& e, py::handle g, int seat) {
            check_seat(seat);
            sg::NonzeroScratch scratch;
            std::vector<float> value;
            std::vector<int32_t> index;
            e.encode_nonzero(game_of(g), seat, scratch, index, value);
            return py::make_tuple(Array<int32_t>((py::ssize_t)index.size(), index.data()),
                                  Array<float>((py::ssize_t)value.size(), value.data()));
        }, py::arg("game"), py::arg("seat"),
           "The observation's nonzero entries (encode_nonzero): their indices, ascending, and values.")
        .def("mask", [](const sg::Encoder& e, py::handle g, int seat, py::array_t<int8_t, py::array::c_style> out) {
            check_seat(seat);
            sg::Decision bad{};
            if (!e.mask(game_of(g), seat, row_of(out, e.layout().n_actions), &bad))
                throw py::value_error("engine decision (" + std::to_string(bad.kind) + ", " +
                                      std::to_string(bad.arg) + ") is outside the action table");
        }, py::arg("game"), py::arg("seat"), py::arg("out").noconvert());

    py::class_<sg::CandidateWriter>(m, "CandidateWriter",
                                    "The candidate features of legal decisions and the seats' projected VP.")
        .def(py::init([](std::vector<int> offset, std::vector<int> size, int n_actions, int n_features,
                         int max_tableau) {
            if (offset.size() != size.size() || n_actions < 1 || n_features < sg::CF_WRITTEN || max_tableau < 1)
                throw std::invalid_argument("a candidate writer needs the action table and at least " +
                                            std::to_string(sg::CF_WRITTEN) + " feature columns");
            for (size_t k = 0; k < offset.size(); ++k)
                if (offset[k] < 0 || size[k] < 0 || offset[k] + size[k] > n_actions)
                    throw std::invalid_argument("an action kind lies outside the action table");
            return sg::CandidateWriter{std::move(offset), std::move(size), n_actions, n_features, max_tableau};
        }), py::arg("offset"), py::arg("size"), py::arg("n_actions"), py::arg("n_features"), py::arg("max_tableau"))
        .def("write", [](const sg::CandidateWriter& w, py::handle g, int seat, Array<float> card, Array<float> feats) {
            check_seat(seat);
            w.write(game_of(g), seat, row_of(card, w.n_actions),
                    rows_of(feats, "features", w.n_actions, w.n_features));
        }, py::arg("game"), py::arg("seat"), py::arg("card").noconvert(), py::arg("features").noconvert())
        .def_static("projected_vp", [](py::handle g, int seat, Array<float> out) {
            check_seat(seat);
            sg::CandidateWriter::projected_vp(game_of(g), seat, row_of(out, 4));
        }, py::arg("game"), py::arg("seat"), py::arg("out").noconvert());

    // determinize(game, seat, rng): a copy of the game with everything the seat cannot see
    // resampled (determinize.hpp), drawing from ``rng`` (a Pcg64, advanced in place).
    m.def("determinize", [](py::handle g, int seat, sg::Pcg64& rng) {
        check_seat(seat);
        return game_capsule(sg::Determinizer::determinize(game_of(g), seat, rng).release());
    }, py::arg("game"), py::arg("seat"), py::arg("rng"));

    // The slots of a vector env (batch.hpp), stepped without the GIL.
    py::class_<sg::Batch>(m, "Batch", "Native games stepped together, writing rows of arrays.")
        .def(py::init([](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                         std::shared_ptr<sg::Encoder> encoder, int n, std::vector<uint32_t> seed, uint64_t first_slot,
                         int threads) {
            if (n < 1) throw std::invalid_argument("a batch needs at least one game");
            return std::make_unique<sg::Batch>(content, config, encoder, n, std::move(seed), first_slot, threads);
        }), py::arg("content"), py::arg("config"), py::arg("encoder"), py::arg("n"), py::arg("seed"),
            py::arg("first_slot"), py::arg("threads") = 1)
        .def_property_readonly("threads", &sg::Batch::threads)
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
            std::vector<int64_t> copy(act, act + b.size());  // read before the GIL goes
            std::string why;
            int illegal;
            {
                py::gil_scoped_release release;
                why = b.step(copy, r, illegal);
            }
            check(why);
            return illegal;
        }, "Step every slot; -1, or the first slot whose action is not legal (nothing moved).")
        .def("game", [](sg::Batch& b, int i) {
            if (i < 0 || i >= b.size()) throw py::index_error("no slot " + std::to_string(i));
            std::unique_ptr<sg::Game> g;
            {
                py::gil_scoped_release release;  // (the lock may wait for a step)
                g = std::make_unique<sg::Game>(b.game(i));
            }
            return game_capsule(g.release());
        });
    py::class_<BatchArrays>(m, "BatchArrays", "The arrays a Batch writes.")
        .def(py::init([](Array<float> obs, Array<int8_t> mask, Array<int64_t> seat, Array<bool> done,
                         Array<int64_t> final_vp, Array<int64_t> game_seeds) {
                 return BatchArrays{obs, mask, seat, done, final_vp, game_seeds};
             }),
             py::arg("obs").noconvert(), py::arg("mask").noconvert(), py::arg("seat").noconvert(),
             py::arg("done").noconvert(), py::arg("final_vp").noconvert(), py::arg("game_seeds").noconvert());
    m.def("slot_game_seed", &sg::slot_game_seed, py::arg("seed"), py::arg("slot"), py::arg("k"));

    // The forward passes of the numpy actors (nets.hpp), many positions a call, the GIL
    // released; agents/native_nets.py wraps them.
    py::class_<sg::BatchedNet>(m, "Net", "A numpy actor's forward passes: logits and the value head's outcome.")
        .def(py::init([](const py::dict& arrays, const std::string& activation, float margin_scale, int threads) {
                 if (activation != "tanh" && activation != "relu")
                     throw std::invalid_argument("unknown activation " + activation);
                 std::map<std::string, sg::Tensor> named;
                 for (auto [k, v] : arrays) named[k.cast<std::string>()] = tensor_of(v);
                 sg::Activation act = activation == "tanh" ? sg::Activation::tanh : sg::Activation::relu;
                 if (threads < 1 || threads > 256) throw std::invalid_argument("threads must be 1..256");
                 return std::make_unique<sg::BatchedNet>(sg::Net(named, act, margin_scale), threads);
             }),
             py::arg("arrays"), py::arg("activation"), py::arg("margin_scale"), py::arg("threads") = 1)
        .def_property_readonly("threads", &sg::BatchedNet::threads)
        .def_property_readonly("pointer", [](const sg::BatchedNet& b) { return b.net().pointer(); })
        .def_property_readonly("has_logits", [](const sg::BatchedNet& b) { return b.net().has_logits(); })
        .def_property_readonly("has_value", [](const sg::BatchedNet& b) { return b.net().has_value(); })
        .def_property_readonly("obs_size", [](const sg::BatchedNet& b) { return b.net().obs_size(); })
        .def_property_readonly("n_actions", [](const sg::BatchedNet& b) { return b.net().n_actions(); })
        .def_property_readonly("n_features", [](const sg::BatchedNet& b) { return b.net().n_features(); })
        .def("logits", [](sg::BatchedNet& b, Array<float> obs, std::optional<Array<float>> card,
                          std::optional<Array<float>> features, std::optional<Array<float>> projected) {
            const sg::Net& net = b.net();
            if (!net.has_logits()) throw std::invalid_argument("this network has no policy head (a value network)");
            py::ssize_t n = rows_in(obs), A = net.n_actions();
            std::vector<float> o = copied_rows(obs, "observation", n, net.obs_size()), c, f, p;
            if (net.pointer()) {
                if (!card || !features || !projected)
                    throw std::invalid_argument("a pointer network reads the candidate cards, features and projected VP");
                c = copied_rows(*card, "candidate_card", n, A);
                f = copied_rows(*features, "candidate_features", n, A, net.n_features());
                p = copied_rows(*projected, "projected_vp", n, 4);
            }
            Array<float> out({n, A});
            float* w = out.mutable_data();
            std::string why;
            {
                py::gil_scoped_release release;
                why = b.logits((int)n, o.data(), c.data(), f.data(), p.data(), w);
            }
            check(why);
            return out;
        }, py::arg("observation"), py::arg("candidate_card") = py::none(), py::arg("candidate_features") = py::none(),
           py::arg("projected_vp") = py::none(), "Logits of a batch of positions (rows).")
        .def("outcome", [](sg::BatchedNet& b, Array<float> obs, Array<float> projected) {
            const sg::Net& net = b.net();
            if (!net.has_value()) throw std::invalid_argument("this network has no value head");
            py::ssize_t n = rows_in(obs);
            std::vector<float> o = copied_rows(obs, "observation", n, net.obs_size()),
                               p = copied_rows(projected, "projected_vp", n, 4);
            Array<float> out({n, (py::ssize_t)2});
            float* w = out.mutable_data();
            std::string why;
            {
                py::gil_scoped_release release;
                why = b.outcome((int)n, o.data(), p.data(), w);
            }
            check(why);
            return out;
        }, py::arg("observation"), py::arg("projected_vp"), "[win share, VP margin] of a batch of positions (rows).")
        .def("policy", [](sg::BatchedNet& b, Array<float> obs, Array<float> projected, Array<int32_t> legal,
                          Array<float> card, Array<float> features, float pad_logit) {
            const sg::Net& net = b.net();
            if (!net.pointer() || !net.has_logits() || !net.has_value())
                throw std::invalid_argument("policy: a pointer policy with a value head only");
            const py::ssize_t n = rows_in(obs), A = net.n_actions();
            if (legal.ndim() != 2 || legal.shape(0) != n || legal.shape(1) < 1 || legal.shape(1) > A)
                throw std::invalid_argument("legal: expected an array of shape (" + std::to_string(n) +
                                            ", 1.." + std::to_string(A) + ")");
            const py::ssize_t W = legal.shape(1);
            std::vector<float> o = copied_rows(obs, "observation", n, net.obs_size()),
                               p = copied_rows(projected, "projected_vp", n, 4),
                               c = copied_rows(card, "candidate_card", n, W),
                               f = copied_rows(features, "candidate_features", n, W, net.n_features());
            // each row's legal actions first, then the padding (the table's size) alone
            std::vector<int> actions(legal.data(), legal.data() + n * W), count(n, 0);
            for (py::ssize_t i = 0; i < n; ++i) {
                const int* row = actions.data() + i * W;
                while (count[i] < W && row[count[i]] != A) ++count[i];
                for (py::ssize_t k = count[i]; k < W; ++k)
                    if (row[k] != A)
                        throw std::invalid_argument("legal: row " + std::to_string(i) +
                                                    " has an action after its padding");
            }
            Array<float> logits({n, W});
            Array<float> outcome({n, (py::ssize_t)2});
            float* l = logits.mutable_data();
            std::fill(l, l + n * W, pad_logit);
            std::string why;
            {
                py::gil_scoped_release release;
                why = b.policy((int)n, o.data(), p.data(), actions.data(), count.data(), (int)W, c.data(), f.data(), l,
                               outcome.mutable_data());
            }
            check(why);
            return py::make_tuple(logits, outcome);
        }, py::arg("observation"), py::arg("projected_vp"), py::arg("legal"), py::arg("candidate_card"),
           py::arg("candidate_features"), py::arg("pad_logit"),
           "The logits of each row's legal actions (the table's size pads a row; pad_logit there) and the value "
           "head's [win share, VP margin], from one pass of the hidden layers.");

    // The nonzero entries of each row of a batch of observations (n, D): their indices,
    // ascending, and values, padded with index 0 and value 0 to ``width`` columns, or
    // to the widest row's count where that is more (training/network/rows.py
    // sparse_rows: the same rows as numpy's scan, found eight zeros at a time).
    m.def("nonzero_rows", [](Array<float> x, int width) {
        if (x.ndim() != 2) throw std::invalid_argument("nonzero_rows: expected a 2-D array of rows");
        if (width < 0) throw std::invalid_argument("nonzero_rows: width must be >= 0");
        const py::ssize_t n = x.shape(0), D = x.shape(1);
        if (D > std::numeric_limits<int>::max()) throw std::invalid_argument("nonzero_rows: rows too wide");
        std::vector<int32_t> nz(D);      // one row's scratch
        std::vector<float> values(D);
        CompactRows found;
        const float* in = x.data();
        for (py::ssize_t i = 0; i < n; ++i)
            found.add(nz.data(), values.data(), sg::gather_nonzero(in + i * D, (int)D, 0, nz.data(), values.data(), 0));
        return found.padded((size_t)width);
    }, py::arg("rows"), py::arg("width"), "The nonzero entries (indices, values) of each row, padded to a width.");

    // The lookahead's rollouts, many in lockstep (rollout.hpp play_all): for each start
    // i, a copy of the world ``worlds[world[i]]`` after the decision (kind[i], arg[i]),
    // played on for the world's seat ``seats[world[i]]``. Returns, by start: whether the
    // game ended, its final VP (zeros where it did not) and the seat's observation and
    // projected VP of the position reached (zeros where the game ended), the decisions
    // played, and the nonzero entries of the observation followed by the projected VP
    // (indices D to D + 3) as the learners' compact rows hold them (indices ascending,
    // padded with index 0 and value 0 to the widest row).
    m.def("roll_out", [](const py::list& worlds, const std::vector<int>& seats,
                         const std::vector<int>& world, const std::vector<int>& kind, const std::vector<int>& arg,
                         const sg::Encoder& encoder, const sg::CandidateWriter& candidates, sg::BatchedNet& british,
                         sg::BatchedNet& malay, std::vector<int> lookahead_kinds, int questions, int limit) {
        if (questions < 1 || limit < 0) throw std::invalid_argument("a rollout needs questions >= 1 and limit >= 0");
        if (seats.size() != worlds.size()) throw std::invalid_argument("one seat a world");
        if (kind.size() != world.size() || arg.size() != world.size())
            throw std::invalid_argument("one world, kind and arg a start");
        for (int seat : seats) check_seat(seat);
        for (const sg::BatchedNet* b : {&british, &malay})
            if (!b->net().has_logits() || b->net().n_actions() != encoder.layout().n_actions ||
                b->net().obs_size() != encoder.layout().D ||
                (b->net().pointer() && b->net().n_features() != candidates.n_features))
                throw std::invalid_argument("a student network must score the action table of this game's "
                                            "observation");
        const py::ssize_t n = (py::ssize_t)world.size(), D = encoder.layout().D;
        std::vector<std::unique_ptr<sg::Game>> games;
        std::vector<sg::Game*> ptrs;
        std::vector<int> seat_of;
        for (py::ssize_t i = 0; i < n; ++i) {
            if (world[i] < 0 || world[i] >= (int)worlds.size())
                throw std::invalid_argument("start " + std::to_string(i) + ": no world " + std::to_string(world[i]));
            const sg::Game& w = game_of(worlds[world[i]]);
            const sg::Decision first{kind[i], arg[i]};
            if (w.is_over() || !w.is_legal(first))
                throw std::invalid_argument("start " + std::to_string(i) + ": (" + std::to_string(kind[i]) + ", " +
                                            std::to_string(arg[i]) + ") is not legal in its world");
            games.push_back(std::make_unique<sg::Game>(w));
            ptrs.push_back(games.back().get());
            seat_of.push_back(seats[world[i]]);
        }
        Array<bool> over(n);
        Array<int64_t> final_vp({n, (py::ssize_t)4});
        Array<float> obs({n, D}), projected({n, (py::ssize_t)4});
        Array<int64_t> played(n);
        // the leaves' nonzero entries of (observation, projected VP), one after another
        std::vector<int32_t> nz(D + 4);
        std::vector<float> values(D + 4);
        CompactRows leaf;
        bool* o = over.mutable_data();
        int64_t* vp = final_vp.mutable_data();
        float* x = obs.mutable_data();
        float* pv = projected.mutable_data();
        int64_t* count = played.mutable_data();
        {
            py::gil_scoped_release release;
            sg::Rollout r{encoder, candidates, {&british.net(), &malay.net()}, std::move(lookahead_kinds), questions,
                          limit};
            for (py::ssize_t i = 0; i < n; ++i) ptrs[i]->step(sg::Decision{kind[i], arg[i]});
            std::vector<int> decisions(n);
            r.play_all(ptrs.data(), seat_of.data(), decisions.data(), (int)n);
            std::fill(x, x + n * D, 0.0f);
            std::fill(pv, pv + n * 4, 0.0f);
            for (py::ssize_t i = 0; i < n; ++i) {
                const sg::Game& g = *ptrs[i];
                o[i] = g.is_over();
                count[i] = decisions[i];
                for (int p = 0; p < 4; ++p) vp[i * 4 + p] = o[i] ? g.state().final_vp[p] : 0;
                int c = 0;
                if (!o[i]) {
                    encoder.encode(g, seat_of[i], x + i * D);
                    sg::CandidateWriter::projected_vp(g, seat_of[i], pv + i * 4);
                    c = sg::gather_nonzero(x + i * D, (int)D, 0, nz.data(), values.data(), 0);
                    c = sg::gather_nonzero(pv + i * 4, 4, (int)D, nz.data(), values.data(), c);
                }
                leaf.add(nz.data(), values.data(), c);
            }
        }
        py::tuple leaves = leaf.padded(1);
        return py::make_tuple(over, final_vp, obs, projected, played, leaves[0], leaves[1]);
    }, py::arg("worlds"), py::arg("seats"), py::arg("world"), py::arg("kind"), py::arg("arg"), py::arg("encoder"),
       py::arg("candidates"), py::arg("british"), py::arg("malay"), py::arg("lookahead_kinds"), py::arg("questions"),
       py::arg("limit"),
       "A lookahead's rollouts from many starts in lockstep (rollout.hpp): (game over, final VP, the seat's "
       "observation, its projected VP, decisions played, the indices and values of the nonzero entries of the "
       "observation followed by the projected VP, padded with zeros to the widest), a row a start.");

    py::class_<sg::HeuristicParams>(m, "HeuristicParams", "The heuristic player's tunable numbers.")
        .def(py::init([](const py::dict& d) {
            sg::HeuristicParams p;
            std::map<std::string, double*> numbers = {
                {"action_cost", &p.action_cost}, {"opp_vp_weight", &p.opp_vp_weight},
                {"vice_survival", &p.vice_survival}, {"ship_value", &p.ship_value},
                {"money_scale", &p.money_scale}, {"token_scale", &p.token_scale},
                {"battle_scale", &p.battle_scale}, {"war_margin", &p.war_margin}, {"keep_card", &p.keep_card}};
            if (d.size() != numbers.size() + 1) throw std::invalid_argument("the heuristic params name every tunable number");
            for (auto& [key, field] : numbers) *field = d[py::str(key)].cast<double>();
            p.pw_close_risk = py::bool_(d[py::str("pw_close_risk")]);
            return p;
        }), py::arg("params"));

    // The heuristic player's decision for ``seat`` (heuristic.hpp), drawing its ties from
    // ``rng`` (a Pcg64, advanced in place): the Decision object of ``table``.
    m.def("heuristic_choose", [](py::handle g, int seat, const sg::HeuristicParams& params, sg::Pcg64& rng,
                                 const DecisionTable& table) {
        check_seat(seat);
        sg::HeuristicPlayer player(params, rng);
        sg::Decision d = player.choose(game_of(g), seat);
        rng = player.rng;
        py::list out = table.legal({d});
        return py::object(out[0]);
    }, py::arg("game"), py::arg("seat"), py::arg("params"), py::arg("rng"), py::arg("table"));

    // The heuristic's ``(score, Decision)`` for every legal decision of a scored question
    // of ``seat`` (heuristic.hpp option_scores; [] for the other questions).
    m.def("heuristic_option_scores", [](py::handle g, int seat, const sg::HeuristicParams& params,
                                        const DecisionTable& table) {
        check_seat(seat);
        sg::HeuristicPlayer player(params, sg::Pcg64());
        sg::heuristic::Scored scored = player.option_scores(game_of(g), seat);
        std::vector<sg::Decision> ds;
        for (auto& [v, d] : scored) ds.push_back(d);
        py::list decisions = table.legal(ds), out;
        for (size_t i = 0; i < scored.size(); ++i) out.append(py::make_tuple(scored[i].first, decisions[i]));
        return out;
    }, py::arg("game"), py::arg("seat"), py::arg("params"), py::arg("table"));

    // The search of an mcts agent on a native game (mcts.hpp): the values of every
    // candidate in every world, a row a world, drawing from ``rng`` (a Pcg64, advanced in
    // place); with ``encoder`` and both value networks, cut rollouts are scored by them.
    m.def("mcts_values", [](py::handle h, int seat, const std::vector<std::pair<int, int>>& candidates,
                            sg::Pcg64& rng, const sg::HeuristicParams& params, int iters, double seconds,
                            double time_cap, int horizon, double vp_weight, const sg::Encoder* encoder,
                            const sg::BatchedNet* british, const sg::BatchedNet* malay) {
        check_seat(seat);
        if (candidates.empty()) throw std::invalid_argument("a search needs at least one candidate");
        if (iters < 0 || horizon < 0 || !(seconds > 0 || iters > 0) || !(vp_weight >= 0))
            throw std::invalid_argument("a search needs iters >= 0, horizon >= 0, vp_weight >= 0 and "
                                        "seconds > 0 without iters");
        sg::MctsSearch search;
        search.heuristic = params;
        search.iters = iters, search.seconds = seconds, search.time_cap = time_cap;
        search.horizon = horizon, search.vp_weight = vp_weight;
        if (encoder || british || malay) {
            if (!encoder || !british || !malay || horizon < 1)
                throw std::invalid_argument("value networks need the encoder, both factions' networks and "
                                            "horizon >= 1");
            for (const sg::BatchedNet* b : {british, malay})
                if (!b->net().has_value() || b->net().obs_size() != encoder->layout().D)
                    throw std::invalid_argument("a value network must have a value head reading this game's "
                                                "observation");
            search.encoder = encoder;
            search.nets[0] = &british->net(), search.nets[1] = &malay->net();
        }
        std::vector<sg::Decision> cands;
        for (auto [kind, arg] : candidates) cands.push_back({kind, arg});
        sg::Game game(game_of(h));  // copied before the GIL goes
        sg::Pcg64 draws = rng;
        std::vector<std::vector<double>> values;
        {
            py::gil_scoped_release release;
            values = search.run(game, seat, cands, draws);
        }
        rng = draws;
        return values;
    }, py::arg("game"), py::arg("seat"), py::arg("candidates"), py::arg("rng"), py::arg("params"),
       py::arg("iters"), py::arg("seconds"), py::arg("time_cap"), py::arg("horizon"), py::arg("vp_weight"),
       py::arg("encoder") = nullptr, py::arg("british") = nullptr, py::arg("malay") = nullptr);

    // The rerank player's decision for ``seat`` (rerank.hpp), drawing the heuristic's ties
    // from ``rng`` (advanced in place): (the Decision object of ``table``, whether the
    // network chose another candidate than the heuristic's answer).
    m.def("rerank_choose", [](py::handle g, int seat, const sg::HeuristicParams& params, sg::Pcg64& rng,
                              const sg::Encoder& encoder, const sg::CandidateWriter& candidates,
                              sg::BatchedNet& british, sg::BatchedNet& malay, std::array<bool, 2> prior_columns,
                              double prior_scale, double prior_floor, const std::vector<std::string>& searched,
                              int topk, double gap, double margin, const DecisionTable& table) {
        check_seat(seat);
        std::vector<bool> kinds(sg::FRAME_NAMES.size(), false);
        for (const std::string& name : searched) {
            auto it = std::find(sg::FRAME_NAMES.begin(), sg::FRAME_NAMES.end(), name);
            if (it == sg::FRAME_NAMES.end()) throw std::invalid_argument("rerank: no question named " + name);
            kinds[it - sg::FRAME_NAMES.begin()] = true;
        }
        sg::RerankPlayer player(params, rng, encoder, candidates, &british.net(), &malay.net(), prior_columns.data(),
                                prior_scale, prior_floor, std::move(kinds), topk, gap, margin);
        sg::Decision d = player.choose(game_of(g), seat);
        rng = player.rng;
        py::list out = table.legal({d});
        return py::make_tuple(out[0], player.overruled > 0);
    }, py::arg("game"), py::arg("seat"), py::arg("params"), py::arg("rng"), py::arg("encoder"), py::arg("candidates"),
       py::arg("british"), py::arg("malay"), py::arg("prior_columns"), py::arg("prior_scale"), py::arg("prior_floor"),
       py::arg("searched"), py::arg("topk"), py::arg("gap"), py::arg("margin"), py::arg("table"));

    // A pointer policy's most likely legal decision for the acting seat (LearnedAgent.choose,
    // deterministic; rerank.hpp pointer_logits), the heuristic's option scores (``prior``:
    // its params) in the prior columns where given: the Decision object of ``table``.
    m.def("pointer_choose", [](py::handle g, int seat, const sg::Encoder& encoder, const sg::CandidateWriter& candidates,
                               sg::BatchedNet& net, std::optional<sg::HeuristicParams> prior, double prior_scale,
                               double prior_floor, const DecisionTable& table) {
        check_seat(seat);
        const sg::Game& game = game_of(g);
        if (game.is_over() || seat != game.acting_seat())
            throw std::invalid_argument("a policy chooses for the acting seat of a game not over");
        sg::heuristic::Scored scored;
        if (prior) scored = sg::HeuristicPlayer(*prior, sg::Pcg64()).option_scores(game, seat);
        std::vector<float> logits = sg::pointer_logits(encoder, candidates, net.net(), game, seat,
                                                       prior ? &scored : nullptr, prior_scale, prior_floor);
        sg::Decision d = sg::Rollout::best(encoder.layout(), game.legal(), logits.data());
        py::list out = table.legal({d});
        return py::object(out[0]);
    }, py::arg("game"), py::arg("seat"), py::arg("encoder"), py::arg("candidates"), py::arg("net"), py::arg("prior"),
       py::arg("prior_scale"), py::arg("prior_floor"), py::arg("table"));

    // A game continued from a saved state (validated by the Python engine's loader).
    m.def("load", [](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                     const py::dict& state, py::tuple rng, const std::vector<std::pair<int, int>>& history) {
        sg::Pcg64 r(joined(rng[0].cast<std::pair<uint64_t, uint64_t>>()),
                    joined(rng[1].cast<std::pair<uint64_t, uint64_t>>()), rng[2].cast<bool>(),
                    rng[3].cast<uint32_t>());
        std::vector<sg::Decision> log;
        for (auto [kind, arg] : history) log.push_back({kind, arg});
        return game_capsule(new sg::Game(content, config, r, sg::state_from_dict(state, *content), log));
    });

    // Whole games with every decision drawn uniformly from the legal ones by a PCG64
    // seeded with the game's seed (its 32-bit words), without the GIL: (decisions per
    // game, final VP).
    m.def("play_random", [](std::shared_ptr<sg::Content> content, std::shared_ptr<sg::Config> config,
                            const std::vector<std::vector<uint32_t>>& seeds) {
        std::vector<int> decisions;
        std::vector<sg::Ids> scores;
        {
            py::gil_scoped_release release;
            for (const auto& seed : seeds) {
                sg::Pcg64 pick(seed);
                sg::Game g(content, config, pick);
                while (!g.is_over()) {
                    const auto& legal = g.legal();
                    g.step(legal[pick.integers(0, (int64_t)legal.size())]);
                }
                decisions.push_back(g.state().decisions);
                scores.push_back(g.state().final_vp.vector<int>());
            }
        }
        return py::make_tuple(decisions, scores);
    });
}
