// The containers of the game state: lists with their room inline (Vec) and append-only
// logs sharing their past (Log), so that a copy of a game copies a few kilobytes of
// bytes and allocates nothing but the game itself (search copies games far more often
// than it steps them).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace sg {

// memcpy in blocks of 64 bytes (vector moves): glibc copies 2 KiB or more with `rep
// movsb`, which some CPUs (AMD EPYC) run up to fifty times slower when the two addresses
// lie a few bytes apart modulo 4 KiB, as two heap blocks often do. (GCC must not turn the
// loop back into one memcpy.)
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
inline void copy_bytes(void* dst, const void* src, size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    auto* s = static_cast<const unsigned char*>(src);
    for (; n >= 64; n -= 64, d += 64, s += 64) std::memcpy(d, s, 64);
    std::memcpy(d, s, n);
}

[[noreturn]] inline void room_exceeded(int room) {
    throw std::length_error("a list of the native game state holds at most " + std::to_string(room) +
                            " entries (native/state.hpp)");
}

// Copy n values to raw memory (a type may overload it to copy fewer bytes).
template <class T>
void copy_used(T* dst, const T* src, size_t n) {
    copy_bytes(dst, src, sizeof(T) * n);
}

// The bytes of a Vec: a small one is copied whole (a fixed-size copy the compiler
// inlines), a large one (WHOLE false) copies only its used part.
template <class T, int N, bool WHOLE>
struct VecBytes {
    uint16_t n_ = 0;
    alignas(T) unsigned char raw_[sizeof(T) * N];  // (past n_: never read)
};
template <class T, int N>
struct VecBytes<T, N, false> {
    uint16_t n_ = 0;
    alignas(T) unsigned char raw_[sizeof(T) * N];
    VecBytes() = default;
    VecBytes(const VecBytes& o) : n_(o.n_) { copy_used(items(), o.items(), n_); }
    VecBytes& operator=(const VecBytes& o) {
        n_ = o.n_;
        copy_used(items(), o.items(), n_);
        return *this;
    }
    T* items() { return reinterpret_cast<T*>(raw_); }
    const T* items() const { return reinterpret_cast<const T*>(raw_); }
};

// A list of at most N trivially copyable values, held inline: the std::vector surface
// the rules use (push_back, erase, insert, assign, iteration); a push past N throws
// std::length_error (the capacities in state.hpp hold what the content and rules allow).
template <class T, int N>
class Vec : VecBytes<T, N, (sizeof(T) * N <= 256)> {
    static_assert(std::is_trivially_copyable<T>::value, "a Vec holds trivially copyable values");
    static_assert(N < 65536, "a Vec counts its entries in 16 bits");
    using VecBytes<T, N, (sizeof(T) * N <= 256)>::n_;
    using VecBytes<T, N, (sizeof(T) * N <= 256)>::raw_;

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    Vec() = default;
    Vec(std::initializer_list<T> xs) { assign(xs.begin(), xs.end()); }
    // From a list of wider values (a loaded state's ints): each checked to fit T before
    // it is narrowed (std::invalid_argument otherwise), never wrapped.
    template <class U>
    Vec& operator=(const std::vector<U>& xs) {
        if constexpr (std::is_arithmetic<T>::value && std::is_arithmetic<U>::value)
            for (const U& x : xs)
                if (static_cast<U>(static_cast<T>(x)) != x)
                    throw std::invalid_argument("a value of a list of the native game state, " + std::to_string(x) +
                                                ", is past its " + std::to_string(8 * sizeof(T)) + "-bit entries");
        assign(xs.begin(), xs.end());
        return *this;
    }

    size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    T* data() { return reinterpret_cast<T*>(raw_); }
    const T* data() const { return reinterpret_cast<const T*>(raw_); }
    T* begin() { return data(); }
    T* end() { return data() + n_; }
    const T* begin() const { return data(); }
    const T* end() const { return data() + n_; }
    std::reverse_iterator<T*> rbegin() { return std::reverse_iterator<T*>(end()); }
    std::reverse_iterator<T*> rend() { return std::reverse_iterator<T*>(begin()); }
    std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
    std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }
#ifdef SINGAPORE_NATIVE_SANITIZE
    // The sanitizer build checks every index (AddressSanitizer cannot see past the used
    // part of a list held inline).
    T& operator[](size_t i) { return data()[checked(i)]; }
    const T& operator[](size_t i) const { return data()[checked(i)]; }
    size_t checked(size_t i) const {
        if (i >= n_) throw std::out_of_range("index " + std::to_string(i) + " of a list of " + std::to_string(n_));
        return i;
    }
#else
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }
#endif
    T& back() { return data()[n_ - 1]; }
    const T& back() const { return data()[n_ - 1]; }

    void push_back(const T& x) {
        if (n_ >= N) room_exceeded(N);
        new (data() + n_) T(x);
        ++n_;
    }
    void pop_back() { --n_; }
    void clear() { n_ = 0; }
    void resize(size_t n, const T& fill = T()) {
        if (n > (size_t)N) room_exceeded(N);
        for (size_t i = n_; i < n; ++i) new (data() + i) T(fill);
        n_ = (uint16_t)n;
    }
    template <class It, class = decltype(*std::declval<It>())>
    void assign(It first, It last) {
        clear();
        for (; first != last; ++first) push_back(static_cast<T>(*first));
    }
    void assign(size_t n, const T& x) {
        clear();
        resize(n, x);
    }
    T* erase(T* pos) { return erase(pos, pos + 1); }
    T* erase(T* first, T* last) {
        if (first < begin() || first > last || last > end())  // (e.g. a card that is not there)
            throw std::out_of_range("an erase outside a list of the native game state");
        std::memmove(static_cast<void*>(first), last, sizeof(T) * (end() - last));
        n_ -= (uint16_t)(last - first);
        return first;
    }
    T* insert(T* pos, const T& x) {
        T copy = x;  // (x may be one of ours)
        if (pos < begin() || pos > end()) throw std::out_of_range("an insert outside a list of the native game state");
        size_t at = pos - begin();
        if (n_ >= N) room_exceeded(N);
        std::memmove(static_cast<void*>(data() + at + 1), data() + at, sizeof(T) * (n_ - at));
        new (data() + at) T(copy);
        ++n_;
        return data() + at;
    }
    template <class It, class = decltype(*std::declval<It>())>
    void insert(T* pos, It first, It last) {
        size_t at = pos - begin();
        for (; first != last; ++first, ++at) insert(data() + at, static_cast<T>(*first));
    }
    void swap(Vec& o) { std::swap(*this, o); }
    // A std::vector copy (for the rare code that works on vectors).
    template <class U = T>
    std::vector<U> vector() const { return std::vector<U>(begin(), end()); }
};

// An append-only list whose copies share their past: the entries are kept in sealed
// chunks of CHUNK (immutable, shared between copies, so safe across threads) and the
// newest, unsealed ones inline. A copy costs one reference count and the inline tail.
template <class T, int CHUNK = 32>
class Log {
public:
    void push_back(const T& x) {
        if ((int)tail_.size() == CHUNK) seal();
        tail_.push_back(x);
    }
    size_t size() const { return sealed_ + tail_.size(); }
    // The entries, oldest first.
    std::vector<T> items() const {
        std::vector<T> out(size());
        size_t end = sealed_;
        for (const Chunk* c = chunks_.get(); c; c = c->before.get()) {
            end -= CHUNK;
            std::copy(c->items.begin(), c->items.end(), out.begin() + end);
        }
        std::copy(tail_.begin(), tail_.end(), out.begin() + sealed_);
        return out;
    }

private:
    struct Chunk {
        Vec<T, CHUNK> items;
        std::shared_ptr<const Chunk> before;
    };
    std::shared_ptr<const Chunk> chunks_;  // the newest sealed chunk first
    size_t sealed_ = 0;
    Vec<T, CHUNK> tail_;

    void seal() {
        auto c = std::make_shared<Chunk>();
        c->items = tail_;
        c->before = std::move(chunks_);
        chunks_ = std::move(c);
        sealed_ += CHUNK;
        tail_.clear();
    }
};

}  // namespace sg
