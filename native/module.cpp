// The compiled module singapore_env._native: the Python face of the native engine.
// One translation unit (the build compiles this file only).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
        .def("next64", &sg::Pcg64::next64)
        .def("next32", &sg::Pcg64::next32)
        .def("integers", &sg::Pcg64::integers, py::arg("low"), py::arg("high"))
        .def("permutation", &sg::Pcg64::permutation, py::arg("n"))
        .def("state_halves", [](const sg::Pcg64& r) {
            return py::make_tuple(halves(r.state()), halves(r.inc()), r.has_uint32(),
                                  r.uinteger());
        });
    m.def("seed_sequence_state", [](uint64_t seed, int n_words) {
        return sg::seed_sequence_state(sg::seed_words(seed), n_words);
    }, py::arg("seed"), py::arg("n_words"));
}
