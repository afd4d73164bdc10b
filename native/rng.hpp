// numpy's random stream, bit for bit: SeedSequence, PCG64 (XSL-RR 128/64) with its
// buffered 32-bit draws, and the Generator draws the engine makes (integers with
// Lemire's bounded method, permutation by Fisher-Yates with masked rejection).
// The oracle is numpy itself: tests/test_native_rng.py compares the streams.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace sg {

using u128 = unsigned __int128;

// numpy.random.SeedSequence(entropy).generate_state(n_words, uint64) for an int
// entropy (no spawn key, pool size 4).
inline std::vector<uint64_t> seed_sequence_state(const std::vector<uint32_t>& entropy,
                                                 int n_words) {
    const uint32_t INIT_A = 0x43b0d7e5u, MULT_A = 0x931e8875u;
    const uint32_t INIT_B = 0x8b51f9ddu, MULT_B = 0x58f38dedu;
    const uint32_t MIX_MULT_L = 0xca01f9ddu, MIX_MULT_R = 0x4973f715u;
    const int POOL = 4;
    uint32_t hash_const = INIT_A;
    auto hashmix = [&hash_const](uint32_t value) {
        value ^= hash_const;
        hash_const *= MULT_A;
        value *= hash_const;
        value ^= value >> 16;
        return value;
    };
    auto mix = [](uint32_t x, uint32_t y) {
        uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y;
        return r ^ (r >> 16);
    };
    uint32_t pool[POOL];
    for (int i = 0; i < POOL; ++i)
        pool[i] = hashmix(i < (int)entropy.size() ? entropy[i] : 0u);
    for (int src = 0; src < POOL; ++src)
        for (int dst = 0; dst < POOL; ++dst)
            if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
    for (size_t src = POOL; src < entropy.size(); ++src)
        for (int dst = 0; dst < POOL; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src]));
    std::vector<uint64_t> out(n_words, 0);
    uint32_t hb = INIT_B;
    for (int i = 0; i < 2 * n_words; ++i) {
        uint32_t v = pool[i % POOL];
        v ^= hb;
        hb *= MULT_B;
        v *= hb;
        v ^= v >> 16;
        out[i / 2] |= (uint64_t)v << (32 * (i % 2));
    }
    return out;
}

// An int seed as SeedSequence sees it: its 32-bit words, least significant first.
inline std::vector<uint32_t> seed_words(uint64_t seed) {
    std::vector<uint32_t> w{(uint32_t)seed};
    if (seed >> 32) w.push_back((uint32_t)(seed >> 32));
    return w;
}

class Pcg64 {
public:
    static constexpr u128 MULT = ((u128)0x2360ed051fc65da4ULL << 64) | 0x4385df649fccf645ULL;

    Pcg64() = default;
    // np.random.PCG64(seed) for a non-negative int seed given as its 32-bit words, least
    // significant first (seed_words; any size, as numpy takes it).
    explicit Pcg64(const std::vector<uint32_t>& words) {
        std::vector<uint64_t> v = seed_sequence_state(words, 4);
        u128 initstate = ((u128)v[0] << 64) | v[1];
        u128 initseq = ((u128)v[2] << 64) | v[3];
        state_ = 0;
        inc_ = (initseq << 1) | 1;
        step();
        state_ += initstate;
        step();
    }
    // np.random.PCG64(seed) for a non-negative int seed below 2**64.
    explicit Pcg64(uint64_t seed) : Pcg64(seed_words(seed)) {}
    // The generator in a given state (numpy's bit_generator.state fields).
    Pcg64(u128 state, u128 inc, bool has_uint32, uint32_t uinteger)
        : state_(state), inc_(inc), has_uint32_(has_uint32), uinteger_(uinteger) {}

    uint64_t next64() {
        step();
        uint64_t hi = (uint64_t)(state_ >> 64), lo = (uint64_t)state_;
        unsigned rot = (unsigned)(hi >> 58);
        uint64_t x = hi ^ lo;
        return (x >> rot) | (x << ((64 - rot) & 63));
    }
    uint32_t next32() {
        if (has_uint32_) {
            has_uint32_ = false;
            return uinteger_;
        }
        uint64_t v = next64();
        has_uint32_ = true;
        uinteger_ = (uint32_t)(v >> 32);
        return (uint32_t)v;
    }

    // Generator.integers(low, high) (int64, high exclusive, low < high).
    int64_t integers(int64_t low, int64_t high) {
        if (high <= low) throw std::invalid_argument("integers: low >= high");
        uint64_t rng = (uint64_t)high - (uint64_t)low - 1;
        return (int64_t)((uint64_t)low + bounded(rng));
    }
    // numpy's random_interval: a value in [0, max] by masked rejection.
    uint64_t interval(uint64_t max) {
        if (max == 0) return 0;
        uint64_t mask = max;
        for (int s = 1; s < 64; s <<= 1) mask |= mask >> s;
        uint64_t value;
        if (max <= 0xFFFFFFFFULL) {
            while ((value = (next32() & mask)) > max) {}
        } else {
            while ((value = (next64() & mask)) > max) {}
        }
        return value;
    }
    // Generator.permutation(n) (shuffle of arange(n)).
    std::vector<int64_t> permutation(int64_t n) {
        std::vector<int64_t> a(n);
        for (int64_t i = 0; i < n; ++i) a[i] = i;
        shuffle(a);
        return a;
    }
    template <class T>
    void shuffle(std::vector<T>& a) {
        for (int64_t i = (int64_t)a.size() - 1; i >= 1; --i) {
            uint64_t j = interval((uint64_t)i);
            std::swap(a[i], a[j]);
        }
    }

    u128 state() const { return state_; }
    u128 inc() const { return inc_; }
    bool has_uint32() const { return has_uint32_; }
    uint32_t uinteger() const { return uinteger_; }

private:
    void step() { state_ = state_ * MULT + inc_; }

    // random_bounded_uint64_fill for one value in [0, rng], Lemire's method.
    uint64_t bounded(uint64_t rng) {
        if (rng == 0) return 0;
        if (rng <= 0xFFFFFFFFULL) {
            if (rng == 0xFFFFFFFFULL) return next32();
            const uint32_t excl = (uint32_t)rng + 1;
            uint64_t m = (uint64_t)next32() * excl;
            uint32_t left = (uint32_t)m;
            if (left < excl) {
                const uint32_t threshold = (UINT32_MAX - (uint32_t)rng) % excl;
                while (left < threshold) {
                    m = (uint64_t)next32() * excl;
                    left = (uint32_t)m;
                }
            }
            return m >> 32;
        }
        if (rng == UINT64_MAX) return next64();
        const uint64_t excl = rng + 1;
        u128 m = (u128)next64() * excl;
        uint64_t left = (uint64_t)m;
        if (left < excl) {
            const uint64_t threshold = (UINT64_MAX - rng) % excl;
            while (left < threshold) {
                m = (u128)next64() * excl;
                left = (uint64_t)m;
            }
        }
        return (uint64_t)(m >> 64);
    }

    u128 state_ = 0, inc_ = 1;
    bool has_uint32_ = false;
    uint32_t uinteger_ = 0;
};

}  // namespace sg
