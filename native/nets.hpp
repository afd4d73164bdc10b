// The forward passes of the numpy actors in float32: agents/learned.py's NumpyPolicy (an
// MLP with a linear head over the action table) and agents/pointer_actor.py's
// PointerActor (a state MLP over the observation and projected VP, a query scoring every
// action's key of action, card and candidate-feature embeddings, and the optional value
// head), built from the float32 arrays the Python side loaded, under the same names.
// An observation has a hundred or so nonzero entries of thousands, so a layer is the sum
// of the weight rows of its input's nonzero entries, scaled (numpy's `x @ w` reads every
// row; an input may come as its nonzero entries already, NonzeroRows, and a dense one,
// a hidden layer's, is read in place). A forward pass takes a batch of positions (up to
// GROUP) layer by layer, each block of a layer's weights read once for the batch
// (sum_rows), each position's sums its own: a position's outputs are the same in any
// batch, and the same whichever way its input came. Results equal numpy's to
// float32 rounding (the order of the sums differs; tanh is a rational function within
// 3e-7 of it). BatchedNet runs many positions in one call, split in blocks among its
// threads.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "pool.hpp"

namespace sg {

// A float32 array as numpy holds it: its shape and its values, row-major.
struct Tensor {
    std::vector<int64_t> shape;
    std::vector<float> data;
};

enum class Activation { tanh, relu };

// Vector code for the CPUs that have it, chosen when the module loads (GCC's function
// multiversioning, where the C library resolves it): each output is the same sum in the
// same order whatever the vector width (the AVX-512 and x86-64-v3 code, AVX2 with FMA,
// fuses each multiply-add, about a tenth faster a rollout, so its last bits may differ
// from the plain AVX2 and SSE code's).
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define SG_VECTOR_CLONES __attribute__((target_clones("avx512f", "arch=x86-64-v3", "avx2", "default")))
#else
#define SG_VECTOR_CLONES
#endif
// (the kernels are inlined into each clone, to be compiled for its CPU)
#if defined(__GNUC__)
#define SG_KERNEL __attribute__((always_inline)) inline
#else
#define SG_KERNEL inline
#endif

// The positions a forward pass takes at once (the inputs of one call): each layer runs
// over all of them together (sum_rows), and each position's sums are its own, so a
// position's outputs do not depend on the others.
constexpr int GROUP = 64;

// y[j] = sum over the t < count of x[t] * w[row[t] * n + j] (in that order) for the B
// outputs j0 <= j < j0 + B: the rows of w of a sparse input, scaled and summed, held in
// registers.
#if defined(__GNUC__)
// 8 floats as one vector (GCC's vector extension, lowered to the clone's registers).
typedef float Floats8 __attribute__((vector_size(32)));
// The same, at any float's address (loads and stores of weights and outputs).
typedef float Floats8u __attribute__((vector_size(32), aligned(4)));

#endif

template <int B>
SG_KERNEL void sum_rows_block(const int32_t* row, const float* x, int count, const float* w, int n, int j0,
                              float* y) {
#if defined(__GNUC__)
    if constexpr (B % 8 == 0) {
        // the B sums in registers, 8 at a time (the same sums as the scalar code's)
        Floats8 acc[B / 8] = {};
        for (int t = 0; t < count; ++t) {
            const Floats8u* r = (const Floats8u*)(w + (size_t)row[t] * n + j0);
            const float a = x[t];  // (in every lane)
#pragma GCC unroll 8
            for (int v = 0; v < B / 8; ++v) acc[v] += a * r[v];
        }
#pragma GCC unroll 8
        for (int v = 0; v < B / 8; ++v) ((Floats8u*)(y + j0))[v] = acc[v];
        return;
    }
#endif
    float acc[B] = {};
    for (int t = 0; t < count; ++t) {
        const float* r = w + (size_t)row[t] * n + j0;
        float a = x[t];
        for (int k = 0; k < B; ++k) acc[k] += a * r[k];
    }
    for (int k = 0; k < B; ++k) y[j0 + k] = acc[k];
}

#if defined(__GNUC__)
// sum_rows_block of P positions that read every row t < in in order (a dense input: no
// zero among its values x[p]), each block of w loaded once for the P of them: the same
// sums in the same order as sum_rows_block's.
template <int P, int B>
SG_KERNEL void sum_dense_block(const float* const* x, int in, const float* w, int n, int j0, float* const* y) {
    Floats8 acc[P][B / 8] = {};
    for (int t = 0; t < in; ++t) {
        const Floats8u* r = (const Floats8u*)(w + (size_t)t * n + j0);
        Floats8 rv[B / 8];
#pragma GCC unroll 4
        for (int v = 0; v < B / 8; ++v) rv[v] = r[v];
#pragma GCC unroll 4
        for (int p = 0; p < P; ++p) {
            const float a = x[p][t];  // (in every lane)
#pragma GCC unroll 4
            for (int v = 0; v < B / 8; ++v) acc[p][v] += a * rv[v];
        }
    }
#pragma GCC unroll 4
    for (int p = 0; p < P; ++p)
#pragma GCC unroll 4
        for (int v = 0; v < B / 8; ++v) ((Floats8u*)(y[p] + j0))[v] = acc[p][v];
}
#endif

// sum_rows_block over every output (n of them) of ``count`` <= GROUP positions at once:
// position p's input is its own sparse rows (row[p], x[p], nonzeros[p]), its output
// y[p]. The positions whose input is dense (``dense`` nonzeros: every row in order, a
// hidden layer's) go four at a time, each block of w loaded once for the four; the
// others one at a time, in blocks of 64 (then 32, 8, 1) outputs, each block for every
// position before the next, so a block's columns of w are read from memory once a
// batch. Each position's sums are the same, in the same order, whatever the batch.
SG_VECTOR_CLONES
inline void sum_rows(int count, const int32_t* const* row, const float* const* x, const int* nonzeros,
                     const float* w, int n, float* const* y, int dense) {
    int rest[GROUP], n_rest = 0;
#if defined(__GNUC__)
    int full[GROUP], n_full = 0;
    for (int p = 0; p < count; ++p) (nonzeros[p] == dense ? full[n_full++] : rest[n_rest++]) = p;
    int q = 0;
    for (; q + 4 <= n_full; q += 4) {
        const float* xq[4];
        float* yq[4];
        for (int i = 0; i < 4; ++i) {
            xq[i] = x[full[q + i]];
            yq[i] = y[full[q + i]];
        }
        int j = 0;
        for (; j + 16 <= n; j += 16) sum_dense_block<4, 16>(xq, dense, w, n, j, yq);
        for (; j + 8 <= n; j += 8) sum_dense_block<4, 8>(xq, dense, w, n, j, yq);
        for (; j < n; ++j)
            for (int i = 0; i < 4; ++i) sum_rows_block<1>(row[full[q + i]], xq[i], dense, w, n, j, yq[i]);
    }
    for (; q < n_full; ++q) rest[n_rest++] = full[q];
#else
    for (int p = 0; p < count; ++p) rest[n_rest++] = p;
#endif
    int j = 0;
    for (; j + 64 <= n; j += 64)
        for (int i = 0; i < n_rest; ++i) {
            const int p = rest[i];
            sum_rows_block<64>(row[p], x[p], nonzeros[p], w, n, j, y[p]);
        }
    for (; j + 32 <= n; j += 32)
        for (int i = 0; i < n_rest; ++i) {
            const int p = rest[i];
            sum_rows_block<32>(row[p], x[p], nonzeros[p], w, n, j, y[p]);
        }
    for (; j + 8 <= n; j += 8)
        for (int i = 0; i < n_rest; ++i) {
            const int p = rest[i];
            sum_rows_block<8>(row[p], x[p], nonzeros[p], w, n, j, y[p]);
        }
    for (; j < n; ++j)
        for (int i = 0; i < n_rest; ++i) {
            const int p = rest[i];
            sum_rows_block<1>(row[p], x[p], nonzeros[p], w, n, j, y[p]);
        }
}

// The work buffers of one thread's forward passes.
struct NetScratch {
    std::vector<float> a, b, query, hidden, out2, key, values;
    std::vector<int32_t> nz, every;  // (every: 0, 1, 2... the rows of a dense input)
    std::vector<uint8_t> marked;
};

// How many of x[i], i < n, are neither 0 nor -0.
SG_KERNEL int count_nonzero(const float* x, int n) {
    int c = 0;
    for (int i = 0; i < n; ++i) c += x[i] != 0.0f;
    return c;
}

// Appends the index (base + i) and value of each nonzero x[i], i < n, to nz and values
// from place ``count`` on (room for n more); the new count.
SG_KERNEL int gather_nonzero(const float* x, int n, int base, int32_t* nz, float* values, int count) {
    const uint64_t magnitudes = 0x7fffffff7fffffffull;
    int i = 0;
    for (; i + 8 <= n; i += 8) {  // eight zeros (or -0) at a time skipped: an observation's mostly zeros
        uint64_t w[4];
        std::memcpy(w, x + i, sizeof w);
        if (((w[0] | w[1] | w[2] | w[3]) & magnitudes) == 0) continue;
        for (int k = i; k < i + 8; ++k) {
            nz[count] = base + k;
            values[count] = x[k];
            count += x[k] != 0.0f;
        }
    }
    for (; i < n; ++i) {
        nz[count] = base + i;
        values[count] = x[i];
        count += x[i] != 0.0f;
    }
    return count;
}

// marked[i / width] = 1 for each x[i] other than 0 or -0, i < n: eight values at a time
// as bits (the candidate rows are mostly zeros).
inline void mark_nonzero(const float* x, size_t n, int width, uint8_t* marked) {
    const uint64_t magnitudes = 0x7fffffff7fffffffull;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w[4];
        std::memcpy(w, x + i, sizeof w);
        if (((w[0] | w[1] | w[2] | w[3]) & magnitudes) == 0) continue;
        for (size_t k = i; k < i + 8; ++k)
            if (x[k] != 0.0f) marked[k / width] = 1;
    }
    for (; i < n; ++i)
        if (x[i] != 0.0f) marked[i / width] = 1;
}

// The inputs of up to GROUP positions as their nonzero entries, where index[p] is given:
// count[p] indices, ascending, and their values.
struct NonzeroRows {
    const int32_t* index[GROUP] = {};
    const float* value[GROUP] = {};
    int count[GROUP] = {};
};

// A linear layer, y = x @ w + b with w of shape (in, out) as numpy stores it: the rows of
// w of x's nonzero entries, scaled and summed in row order, then b (numpy's `x @ w`
// reads every row; a hidden layer's input is dense, an observation's mostly zeros).
struct Dense {
    int in = 0, out = 0;
    std::vector<float> w, b;

    // y[p] (out values) from x[p] for the ``count`` <= GROUP positions p: its first
    // in - n_tail values (or, where ``given`` has position p's, those values' nonzero
    // entries), then ``tail[p]`` (n_tail values: the projected VP after an observation).
    // out_of_range for a given index outside the first in - n_tail or out of order.
    void apply(int count, const float* const* x, float* const* y, NetScratch& s,
               const float* const* tail = nullptr, int n_tail = 0, const NonzeroRows* given = nullptr) const {
        int start[GROUP] = {}, nonzeros[GROUP] = {};
        int used = 0;
        const int32_t* rows[GROUP] = {};
        const float* values[GROUP] = {};
        for (int p = 0; p < count; ++p) {
            const bool sparse = given && given->index[p];
            if (!sparse && !n_tail && count_nonzero(x[p], in) == in) {  // dense (a hidden layer's): no gathering
                if (s.every.size() != (size_t)in) {
                    s.every.resize(in);
                    for (int i = 0; i < in; ++i) s.every[i] = i;
                }
                rows[p] = s.every.data();
                values[p] = x[p];
                start[p] = -1;
                nonzeros[p] = in;
                continue;
            }
            // room for every input of this position after the ones gathered so far
            if ((size_t)(used + in) > s.nz.size()) {
                s.nz.resize((size_t)(used + in) * 2);
                s.values.resize(s.nz.size());
            }
            start[p] = used;
            int c = sparse ? copy_nonzero(*given, p, in - n_tail, s.nz.data() + used, s.values.data() + used) + used
                           : gather_nonzero(x[p], in - n_tail, 0, s.nz.data(), s.values.data(), used);
            if (n_tail) c = gather_nonzero(tail[p], n_tail, in - n_tail, s.nz.data(), s.values.data(), c);
            nonzeros[p] = c - used;
            used = c;
        }
        for (int p = 0; p < count; ++p)
            if (start[p] >= 0) {
                rows[p] = s.nz.data() + start[p];
                values[p] = s.values.data() + start[p];
            }
        sum_rows(count, rows, values, nonzeros, w.data(), out, y, in);
        for (int p = 0; p < count; ++p)
            for (int j = 0; j < out; ++j) y[p][j] += b[j];
    }

private:
    // Position p's entries of ``given`` into nz and values (room for n); how many.
    static int copy_nonzero(const NonzeroRows& given, int p, int n, int32_t* nz, float* values) {
        const int c = given.count[p];
        const int32_t* index = given.index[p];
        if (c < 0 || c > n) throw std::out_of_range("more nonzero entries than inputs");
        for (int t = 0; t < c; ++t)
            if (index[t] < 0 || index[t] >= n || (t && index[t] <= index[t - 1]))
                throw std::out_of_range("a nonzero entry's index outside the inputs or out of order");
        std::memcpy(nz, index, sizeof(int32_t) * c);
        std::memcpy(values, given.value[p], sizeof(float) * c);
        return c;
    }
};

// tanh as a rational function of x (Eigen's float coefficients, within 3e-7 of tanh, odd,
// 1 in float32 beyond the clamp), plain arithmetic so that 8 values go at once.
template <class V>
SG_KERNEL void rational_tanh(V& x) {
    const float clamp = 7.90531110763549805f;
    V c = x < -clamp ? -clamp : x;
    c = c > clamp ? clamp : c;
    V x2 = c * c;
    V p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
    p = x2 * p + -8.60467152213735e-11f;
    p = x2 * p + 5.12229709037114e-08f;
    p = x2 * p + 1.48572235717979e-05f;
    p = x2 * p + 6.37261928875436e-04f;
    p = x2 * p + 4.89352455891786e-03f;
    V q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
    q = x2 * q + 2.26843463243900e-03f;
    q = x2 * q + 4.89352518554385e-03f;
    V t = (c * p) / q;
    x = (x < 0.0004f && x > -0.0004f) ? x : t;  // tanh(x) rounds to x there
}

// x = tanh(x) or relu(x), n values; a value's tanh is the same wherever it stands (the
// last values go through the vector code too).
SG_VECTOR_CLONES
inline void activate(Activation act, float* x, int n) {
    if (act == Activation::relu) {
        for (int i = 0; i < n; ++i) x[i] = x[i] < 0.0f ? 0.0f : x[i];
        return;
    }
#if defined(__GNUC__)
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        Floats8 v = *(const Floats8u*)(x + i);
        rational_tanh(v);
        *(Floats8u*)(x + i) = v;
    }
    if (i < n) {  // the last values, padded
        Floats8 v = {};
        std::memcpy(&v, x + i, sizeof(float) * (n - i));
        rational_tanh(v);
        std::memcpy(x + i, &v, sizeof(float) * (n - i));
    }
#else
    for (int i = 0; i < n; ++i) rational_tanh(x[i]);
#endif
}

// The inputs of up to GROUP positions: each one's observation (or, where
// obs_nonzero.index[p] is given, its nonzero entries), and for a pointer network its
// candidate cards (n_actions values), candidate features (n_actions x n_features) and
// projected VP (4 values).
struct Inputs {
    int count = 0;
    const float* obs[GROUP] = {};
    NonzeroRows obs_nonzero;
    const float* card[GROUP] = {};
    const float* features[GROUP] = {};
    const float* projected[GROUP] = {};
};

class Net {
public:
    // From the arrays of a saved actor by their file names: w0, b0, w1, b1... (the hidden
    // layers) and either head_w, head_b (flat) or the pointer arrays (query_w, query_b,
    // action_embedding, card_embedding, feature_key, feature_logit, action_bias), with the
    // value head (value_w0, value_b0, value_w1, value_b1, value_skip) where all five are
    // given. A pointer network without query_w is a value network: outcome() only.
    // ``margin_scale``: VP_SCALE / MARGIN_SCALE (agents/outcome.py's projected_margin).
    Net(const std::map<std::string, Tensor>& arrays, Activation act, float margin_scale)
        : act_(act), margin_scale_(margin_scale) {
        for (int i = 0; arrays.count("w" + std::to_string(i)); ++i)
            trunk_.push_back(dense(arrays, "w" + std::to_string(i), "b" + std::to_string(i),
                                   i ? trunk_.back().out : -1));
        pointer_ = !arrays.count("head_w");
        if (!pointer_) {
            head_ = dense(arrays, "head_w", "head_b", trunk_.empty() ? -1 : trunk_.back().out);
            obs_size_ = trunk_.empty() ? head_.in : trunk_[0].in;
            n_actions_ = head_.out;
            return;
        }
        if (trunk_.empty()) throw std::invalid_argument("a pointer network needs hidden layers (w0, b0)");
        if (trunk_[0].in <= 4) throw std::invalid_argument("w0 reads no observation besides the projected VP");
        obs_size_ = trunk_[0].in - 4;
        int width = trunk_.back().out;
        if (arrays.count("query_w")) {
            query_ = dense(arrays, "query_w", "query_b", width);
            int e = query_.out;
            const Tensor& actions = array(arrays, "action_embedding", {-1, e});
            n_actions_ = (int)actions.shape[0];
            const Tensor& cards = array(arrays, "card_embedding", {-1, e});
            n_cards_ = (int)cards.shape[0];
            feature_key_ = array(arrays, "feature_key", {-1, e}).data;
            n_features_ = (int)feature_key_.size() / e;
            feature_logit_ = array(arrays, "feature_logit", {n_features_}).data;
            action_bias_ = array(arrays, "action_bias", {n_actions_}).data;
            card_embedding_ = cards.data;
            action_embedding_ = actions.data;
            // The key of an action without a card or features, action-major (as numpy adds
            // it: action embedding + card 0's) and its transpose (to score every action at once).
            plain_key_t_.resize((size_t)e * n_actions_);
            for (int a = 0; a < n_actions_; ++a)
                for (int k = 0; k < e; ++k)
                    plain_key_t_[(size_t)k * n_actions_ + a] = actions.data[(size_t)a * e + k] + cards.data[k];
        }
        const char* value_keys[] = {"value_w0", "value_b0", "value_w1", "value_b1", "value_skip"};
        int given = 0;
        for (const char* k : value_keys) given += (int)arrays.count(k);
        if (given == 5) {
            value_hidden_ = dense(arrays, "value_w0", "value_b0", width);
            value_out_ = dense(arrays, "value_w1", "value_b1", value_hidden_.out);
            if (value_out_.out != 2) throw std::invalid_argument("value_w1: expected 2 outputs (win share, VP margin)");
            value_skip_ = array(arrays, "value_skip", {2}).data;
        }
    }

    bool pointer() const { return pointer_; }
    bool has_logits() const { return n_actions_ > 0; }
    bool has_value() const { return !value_skip_.empty(); }
    int obs_size() const { return obs_size_; }
    int n_actions() const { return n_actions_; }
    int n_cards() const { return n_cards_; }
    int n_features() const { return n_features_; }

    // The logits over the action table (n_actions values each) of ``in.count`` <= GROUP
    // positions, each layer over all of them at once. invalid_argument for a candidate
    // card outside the card embedding.
    void logits(const Inputs& in, float* const* out, NetScratch& s) const {
        if (!has_logits()) throw std::invalid_argument("this network has no policy head (a value network)");
        if (pointer_)
            for (int p = 0; p < in.count; ++p) check_cards(in.card[p]);
        if (trunk_.empty()) {
            head_.apply(in.count, in.obs, out, s, nullptr, 0, &in.obs_nonzero);
            return;
        }
        const float* x[GROUP];
        state(in, x, s);
        if (pointer_)
            scores(in, x, out, s);
        else
            head_.apply(in.count, x, out, s);
    }

    // A pointer network's logits of the ``n_legal[p]`` actions ``actions[p]`` of each
    // position alone, into out[p][a] (the other entries are left as they are): the same
    // values as logits() gives them, without scoring the rest of the table (a rollout
    // reads the legal actions only). invalid_argument for a candidate card outside the
    // card embedding.
    void legal_logits(const Inputs& in, const int* const* actions, const int* n_legal, float* const* out,
                      NetScratch& s) const {
        if (!pointer_ || !has_logits()) throw std::invalid_argument("legal_logits: a pointer policy only");
        const float* x[GROUP];
        state(in, x, s);
        legal_scores(in, x, actions, n_legal, out, s);
    }

    // legal_logits() and outcome() of the same positions from one pass of the hidden
    // layers (a learner's move and value in the self-play loop), each position's legal
    // actions' cards, features and logits in its rows by position (legal_scores).
    void policy(const Inputs& in, const int* const* actions, const int* n_legal, float* const* logits,
                float* const* outcome, NetScratch& s) const {
        if (!pointer_ || !has_logits() || !has_value())
            throw std::invalid_argument("policy: a pointer policy with a value head only");
        const float* x[GROUP];
        state(in, x, s);
        legal_scores(in, x, actions, n_legal, logits, s, true);
        outcome_of(in, x, outcome, s);
    }

    // invalid_argument unless every candidate card indexes the card embedding.
    void check_cards(const float* card) const {
        bool inside = true;
        for (int a = 0; a < n_actions_; ++a) inside &= (card[a] > -1.0f) & (card[a] < (float)n_cards_);
        if (inside) return;
        for (int a = 0; a < n_actions_; ++a) check_card(card[a], a);
    }

    // invalid_argument unless action a's candidate card ``card`` indexes the card embedding.
    void check_card(float card, int a) const {
        if (!(card > -1.0f && card < (float)n_cards_))
            throw std::invalid_argument("candidate card " + std::to_string(card) + " of action " +
                                        std::to_string(a) + " is outside the card embedding (0.." +
                                        std::to_string(n_cards_ - 1) + ")");
    }

    // The value head's [win share, VP margin] (sigmoid, tanh) of ``in.count`` <= GROUP
    // positions.
    void outcome(const Inputs& in, float* const* out, NetScratch& s) const {
        if (!has_value()) throw std::invalid_argument("this network has no value head");
        const float* x[GROUP];
        state(in, x, s);
        outcome_of(in, x, out, s);
    }

private:
    Activation act_;
    float margin_scale_;
    bool pointer_ = false;
    int obs_size_ = 0, n_actions_ = 0, n_cards_ = 0, n_features_ = 0;
    std::vector<Dense> trunk_;
    Dense head_, query_, value_hidden_, value_out_;
    std::vector<float> action_embedding_, card_embedding_, feature_key_, feature_logit_, action_bias_,
        plain_key_t_, value_skip_;

    // The logits of the legal actions of legal_logits() from the states x[p]; where
    // ``by_position``, the i-th legal action's card, features and logit are the i-th of
    // the position's rows (card[p][i], features[p] + i * n_features, out[p][i]) instead
    // of the action's own in the whole table's.
    void legal_scores(const Inputs& in, const float* const* x, const int* const* actions, const int* n_legal,
                      float* const* out, NetScratch& s, bool by_position = false) const {
        const int e = query_.out, n = in.count;
        s.query.resize((size_t)n * e);
        float* q[GROUP];
        for (int p = 0; p < n; ++p) q[p] = s.query.data() + (size_t)p * e;
        query_.apply(n, x, q, s);
        s.key.resize(e);
        for (int p = 0; p < n; ++p) {
            const float* card = in.card[p];
            for (int i = 0; i < n_legal[p]; ++i) {
                const int a = actions[p][i], at = by_position ? i : a;
                if (a < 0 || a >= n_actions_) throw std::out_of_range("legal_logits: action outside the table");
                check_card(card[at], a);
                const float* f = in.features[p] + (size_t)at * n_features_;
                bool marked = card[at] != 0.0f;
                for (int k = 0; k < n_features_ && !marked; ++k) marked = f[k] != 0.0f;
                out[p][at] = marked ? candidate_logit(a, (int)card[at], f, q[p], s.key.data()) : plain_logit(a, q[p]);
            }
        }
    }

    // The value head's [win share, VP margin] of outcome() from the states x[p] (which
    // the value head's scratch does not overwrite: s.hidden, s.out2).
    void outcome_of(const Inputs& in, const float* const* x, float* const* out, NetScratch& s) const {
        const int h = value_hidden_.out;
        s.hidden.resize((size_t)in.count * h);
        s.out2.resize((size_t)in.count * 2);
        float* hidden[GROUP];
        float* o[GROUP];
        for (int p = 0; p < in.count; ++p) {
            hidden[p] = s.hidden.data() + (size_t)p * h;
            o[p] = s.out2.data() + (size_t)p * 2;
        }
        value_hidden_.apply(in.count, x, hidden, s);
        for (int p = 0; p < in.count; ++p) activate(act_, hidden[p], h);
        value_out_.apply(in.count, hidden, o, s);
        for (int p = 0; p < in.count; ++p) {
            const float* pv = in.projected[p];
            float own = std::max(pv[0], pv[2]), other = std::max(pv[1], pv[3]);
            float margin = (own - other) * margin_scale_;
            for (int k = 0; k < 2; ++k) o[p][k] += value_skip_[k] * margin;
            out[p][0] = 1.0f / (1.0f + std::exp(-o[p][0]));
            out[p][1] = std::tanh(o[p][1]);
        }
    }

    // The hidden layers' output x[p] for each position's observation (and, for a pointer
    // network, its projected VP after it), in s.a or s.b.
    void state(const Inputs& in, const float** x, NetScratch& s) const {
        const int n = in.count;
        float* y[GROUP];
        for (size_t l = 0; l < trunk_.size(); ++l) {
            const Dense& layer = trunk_[l];
            std::vector<float>& to = l % 2 ? s.b : s.a;
            to.resize((size_t)n * layer.out);
            for (int p = 0; p < n; ++p) y[p] = to.data() + (size_t)p * layer.out;
            if (l == 0)
                layer.apply(n, in.obs, y, s, pointer_ ? in.projected : nullptr, pointer_ ? 4 : 0, &in.obs_nonzero);
            else
                layer.apply(n, x, y, s);
            for (int p = 0; p < n; ++p) {
                activate(act_, y[p], layer.out);
                x[p] = y[p];
            }
        }
    }

    // A pointer network's logits (out[p], n_actions values) from the states x[p] and the
    // candidate cards and features: keys @ query + action_bias + features @
    // feature_logit, as numpy sums them; every action first as if it had no card and no
    // features, then those that have either.
    void scores(const Inputs& in, const float* const* x, float* const* out, NetScratch& s) const {
        const int e = query_.out, n = in.count;
        s.query.resize((size_t)n * e);
        float* q[GROUP];
        for (int p = 0; p < n; ++p) q[p] = s.query.data() + (size_t)p * e;
        query_.apply(n, x, q, s);
        // the plain keys: the rows of plain_key_t_ of each query's nonzero entries
        if ((size_t)n * e > s.nz.size()) {
            s.nz.resize((size_t)n * e);
            s.values.resize(s.nz.size());
        }
        const int32_t* rows[GROUP];
        const float* values[GROUP];
        int nonzeros[GROUP];
        for (int p = 0; p < n; ++p) {
            rows[p] = s.nz.data() + (size_t)p * e;
            values[p] = s.values.data() + (size_t)p * e;
            nonzeros[p] = gather_nonzero(q[p], e, 0, s.nz.data() + (size_t)p * e, s.values.data() + (size_t)p * e, 0);
        }
        sum_rows(n, rows, values, nonzeros, plain_key_t_.data(), n_actions_, out, e);
        s.key.resize(e);
        for (int p = 0; p < n; ++p) {
            float* o = out[p];
            for (int a = 0; a < n_actions_; ++a) o[a] += action_bias_[a];
            s.marked.assign(n_actions_, 0);
            const float* card = in.card[p];
            const float* features = in.features[p];
            mark_nonzero(card, n_actions_, 1, s.marked.data());
            mark_nonzero(features, (size_t)n_actions_ * n_features_, n_features_, s.marked.data());
            for (int a = 0; a < n_actions_; ++a)
                if (s.marked[a])
                    o[a] = candidate_logit(a, (int)card[a], features + (size_t)a * n_features_, q[p], s.key.data());
        }
    }

    // The logit of action a without a card or features for query q: the sum scores()
    // makes of it (q's nonzero entries in order, then the bias).
    float plain_logit(int a, const float* q) const {
        float acc = 0.0f;
        for (int k = 0; k < query_.out; ++k)
            if (q[k] != 0.0f) acc += q[k] * plain_key_t_[(size_t)k * n_actions_ + a];
        return acc + action_bias_[a];
    }

    // The logit of action a with candidate card c and features f for query q, in
    // numpy's order: ((action + card embedding) + features @ feature_key) @ query +
    // action_bias + features @ feature_logit. ``key``: work space.
    float candidate_logit(int a, int c, const float* f, const float* q, float* key) const {
        int e = query_.out;
        const float* ae = &action_embedding_[(size_t)a * e];
        const float* ce = &card_embedding_[(size_t)c * e];
        std::fill(key, key + e, 0.0f);
        for (int i = 0; i < n_features_; ++i)
            if (f[i] != 0.0f)
                for (int k = 0; k < e; ++k) key[k] += f[i] * feature_key_[(size_t)i * e + k];
        float dot = 0.0f, extra = 0.0f;
        for (int k = 0; k < e; ++k) dot += ((ae[k] + ce[k]) + key[k]) * q[k];
        for (int i = 0; i < n_features_; ++i) extra += f[i] * feature_logit_[i];
        return (dot + action_bias_[a]) + extra;
    }

    static const Tensor& array(const std::map<std::string, Tensor>& arrays, const std::string& name,
                               std::vector<int64_t> shape) {
        auto it = arrays.find(name);
        if (it == arrays.end()) throw std::invalid_argument("the network has no array " + name);
        const Tensor& t = it->second;
        bool fits = t.shape.size() == shape.size();
        for (size_t d = 0; fits && d < shape.size(); ++d)
            fits = t.shape[d] > 0 && t.shape[d] < (1 << 24) && (shape[d] < 0 || t.shape[d] == shape[d]);
        size_t size = 1;
        for (int64_t d : t.shape) size *= (size_t)d;
        if (!fits || t.data.size() != size) {
            std::string want;
            for (int64_t d : shape) want += (want.empty() ? "" : ", ") + (d < 0 ? std::string("any") : std::to_string(d));
            throw std::invalid_argument(name + ": expected shape (" + want + ")");
        }
        return t;
    }

    // A linear layer from its weights (in, out) and bias (out); in must be ``in`` unless -1.
    static Dense dense(const std::map<std::string, Tensor>& arrays, const std::string& w, const std::string& b,
                       int in) {
        const Tensor& tw = array(arrays, w, {in, -1});
        Dense d;
        d.in = (int)tw.shape[0];
        d.out = (int)tw.shape[1];
        d.w = tw.data;
        d.b = array(arrays, b, {d.out}).data;
        return d;
    }
};

// A network with the threads that share a batch of positions: each thread runs a
// contiguous block of them, so the results are the same for any number of threads.
// One batch at a time (calls from several Python threads wait for each other).
class BatchedNet {
public:
    BatchedNet(Net net, int threads) : net_(std::move(net)), pool_(threads) {}
    const Net& net() const { return net_; }
    int threads() const { return pool_.size(); }

    // logits() of n positions, rows of the arrays (card, features, projected: nullptr
    // for a flat network); "" or why a position was refused.
    std::string logits(int n, const float* obs, const float* card, const float* features, const float* projected,
                       float* out) {
        size_t A = net_.n_actions(), F = (size_t)net_.n_features() * A;
        return in_groups(n, [&](int i, Inputs& in, float*& o) {
            in.obs[in.count] = obs + (size_t)i * net_.obs_size();
            if (net_.pointer()) {
                net_.check_cards(card + i * A);
                in.card[in.count] = card + i * A;
                in.features[in.count] = features + i * F;
                in.projected[in.count] = projected + (size_t)4 * i;
            }
            o = out + i * A;
        }, [&](int, const Inputs& in, float* const* o, NetScratch& s) { net_.logits(in, o, s); });
    }

    // outcome() of n positions; "" or why not.
    std::string outcome(int n, const float* obs, const float* projected, float* out) {
        return in_groups(n, [&](int i, Inputs& in, float*& o) {
            in.obs[in.count] = obs + (size_t)i * net_.obs_size();
            in.projected[in.count] = projected + (size_t)4 * i;
            o = out + (size_t)2 * i;
        }, [&](int, const Inputs& in, float* const* o, NetScratch& s) { net_.outcome(in, o, s); });
    }

    // Net::policy() of n positions (a pointer network with a value head): position i's
    // n_legal[i] legal actions are legal[i * width ..], their cards card[i * width ..]
    // and features features[(i * width) * n_features ..]; its logits go to
    // logits[i * width ..] (the columns past its legal actions left as they are) and its
    // outcome to outcome[2 * i ..]; "" or why a position was refused.
    std::string policy(int n, const float* obs, const float* projected, const int* legal, const int* n_legal,
                       int width, const float* card, const float* features, float* logits, float* outcome) {
        const size_t F = (size_t)net_.n_features();
        return in_groups(n, [&](int i, Inputs& in, float*& o) {
            in.obs[in.count] = obs + (size_t)i * net_.obs_size();
            in.card[in.count] = card + (size_t)i * width;
            in.features[in.count] = features + (size_t)i * width * F;
            in.projected[in.count] = projected + (size_t)4 * i;
            o = logits + (size_t)i * width;
        }, [&](int first, const Inputs& in, float* const* o, NetScratch& s) {
            const int* act[GROUP];
            float* value[GROUP];
            for (int p = 0; p < in.count; ++p) {
                act[p] = legal + (size_t)(first + p) * width;
                value[p] = outcome + (size_t)2 * (first + p);
            }
            net_.policy(in, act, n_legal + first, o, value, s);
        });
    }

private:
    Net net_;
    ThreadPool pool_;
    std::mutex busy_;

    // The positions in contiguous blocks, one a thread, each block in groups of GROUP:
    // add(i, inputs, out) adds position i to a group, run(first, inputs, outs, scratch)
    // runs one whose positions are first, first + 1, ... A group that fails stops its
    // block; "" or why the first failing one failed.
    template <class Add, class Run>
    std::string in_groups(int n, const Add& add, const Run& run) {
        std::lock_guard<std::mutex> lock(busy_);
        int blocks = n <= 1 ? 1 : pool_.size();
        std::vector<std::string> why(blocks);
        auto block = [&](int b) {
            NetScratch s;
            int end = (int)((int64_t)n * (b + 1) / blocks);
            for (int i = (int)((int64_t)n * b / blocks); i < end; i += GROUP) {
                Inputs in;
                float* out[GROUP];
                try {
                    for (; in.count < GROUP && i + in.count < end; ++in.count) add(i + in.count, in, out[in.count]);
                } catch (const std::exception& e) {
                    why[b] = "position " + std::to_string(i + in.count) + ": " + e.what();
                    return;
                }
                try {
                    run(i, in, out, s);
                } catch (const std::exception& e) {
                    why[b] = "positions " + std::to_string(i) + " to " + std::to_string(i + in.count - 1) + ": " +
                             e.what();
                    return;
                }
            }
        };
        if (blocks == 1)
            block(0);
        else
            pool_.run(block);
        for (const std::string& w : why)
            if (!w.empty()) return w;
        return "";
    }
};

}  // namespace sg
