// The forward passes of the numpy actors in float32: agents/learned.py's NumpyPolicy (an
// MLP with a linear head over the action table) and agents/pointer_actor.py's
// PointerActor (a state MLP over the observation and projected VP, a query scoring every
// action's key of action, card and candidate-feature embeddings, and the optional value
// head), built from the float32 arrays the Python side loaded, under the same names.
// An observation has a hundred or so nonzero entries of thousands, so a layer is the sum
// of the weight rows of its input's nonzero entries, scaled (numpy's `x @ w` reads every
// row). Results equal numpy's to float32 rounding (the order of the sums differs).
// BatchedNet runs many positions in one call, split in blocks among its threads.
#pragma once

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
// same order whatever the vector width (the AVX-512 code fuses each multiply-add, so its
// last bits may differ from the others').
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
#define SG_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SG_VECTOR_CLONES
#endif
// (the kernels are inlined into each clone, to be compiled for its CPU)
#if defined(__GNUC__)
#define SG_KERNEL __attribute__((always_inline)) inline
#else
#define SG_KERNEL inline
#endif

// y[j] = sum over the t < count of x[t] * w[row[t] * n + j] (in that order), j < n: the
// rows of w of a sparse input, scaled and summed, B outputs at a time held in registers.
template <int B>
SG_KERNEL int sum_rows_block(const int32_t* row, const float* x, int count, const float* w, int n, int j0,
                             float* y) {
    for (; j0 + B <= n; j0 += B) {
        float acc[B] = {};
        for (int t = 0; t < count; ++t) {
            const float* r = w + (size_t)row[t] * n + j0;
            float a = x[t];
            for (int k = 0; k < B; ++k) acc[k] += a * r[k];
        }
        for (int k = 0; k < B; ++k) y[j0 + k] = acc[k];
    }
    return j0;
}

SG_VECTOR_CLONES
inline void sum_rows(const int32_t* row, const float* x, int count, const float* w, int n, float* y) {
    int j = sum_rows_block<32>(row, x, count, w, n, 0, y);
    j = sum_rows_block<8>(row, x, count, w, n, j, y);
    sum_rows_block<1>(row, x, count, w, n, j, y);
}

// The positions a forward pass runs together: the weights of a dense layer are read once
// for all of them.
constexpr int GROUP = 4;

// y[j] += a * r[j], j < n: 16 at a time as one vector (GCC's vector extension, lowered
// to the clone's widest registers).
#if defined(__GNUC__)
typedef float Floats16 __attribute__((vector_size(64)));
SG_KERNEL void add_scaled(float* y, const float* r, float a, int n) {
    int j = 0;
    for (; j + 16 <= n; j += 16) {
        Floats16 yv, rv;
        std::memcpy(&yv, y + j, sizeof yv);
        std::memcpy(&rv, r + j, sizeof rv);
        yv += a * rv;
        std::memcpy(y + j, &yv, sizeof yv);
    }
    for (; j < n; ++j) y[j] += a * r[j];
}
#else
SG_KERNEL void add_scaled(float* y, const float* r, float a, int n) {
    for (int j = 0; j < n; ++j) y[j] += a * r[j];
}
#endif

// ys[p][j] = sum over i < in of xs[p][i] * w[i * n + j] (i ascending), j < n, for the P
// positions p < P: each row of w read once, in order, for all of them (rows whose inputs
// are all zero skipped).
template <int P>
SG_KERNEL void dense_rows_of(const float* const* xs, int in, const float* w, int n, float* const* ys) {
    for (int p = 0; p < P; ++p) std::fill(ys[p], ys[p] + n, 0.0f);
    for (int i = 0; i < in; ++i) {
        const float* r = w + (size_t)i * n;
        for (int p = 0; p < P; ++p)
            if (xs[p][i] != 0.0f) add_scaled(ys[p], r, xs[p][i], n);
    }
}

SG_VECTOR_CLONES
inline void dense_rows(int positions, const float* const* xs, int in, const float* w, int n, float* const* ys) {
    switch (positions) {
        case 1: return dense_rows_of<1>(xs, in, w, n, ys);
        case 2: return dense_rows_of<2>(xs, in, w, n, ys);
        case 3: return dense_rows_of<3>(xs, in, w, n, ys);
        case 4: return dense_rows_of<4>(xs, in, w, n, ys);
        default: throw std::logic_error("dense_rows: 1 to 4 positions at a time");
    }
}
static_assert(GROUP == 4, "dense_rows runs 1 to 4 positions");

// A linear layer, y = x @ w + b with w of shape (in, out) as numpy stores it.
struct Dense {
    int in = 0, out = 0;
    std::vector<float> w, b;

    // y (out values) from x (in values): the rows of w of x's nonzero entries, scaled
    // and summed, then b. ``nz``, ``values``: work space.
    void apply(const float* x, float* y, std::vector<int32_t>& nz, std::vector<float>& values) const {
        nz.clear();
        values.clear();
        for (int i = 0; i < in; ++i)
            if (x[i] != 0.0f) {
                nz.push_back(i);
                values.push_back(x[i]);
            }
        sum_rows(nz.data(), values.data(), (int)nz.size(), w.data(), out, y);
        for (int j = 0; j < out; ++j) y[j] += b[j];
    }

    // The same for up to GROUP positions at once (every row of w read once for all).
    void apply(int positions, const float* const* xs, float* const* ys) const {
        dense_rows(positions, xs, in, w.data(), out, ys);
        for (int p = 0; p < positions; ++p)
            for (int j = 0; j < out; ++j) ys[p][j] += b[j];
    }
};

inline void activate(Activation act, float* x, int n) {
    if (act == Activation::tanh)
        for (int i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
    else
        for (int i = 0; i < n; ++i) x[i] = x[i] < 0.0f ? 0.0f : x[i];
}

// The work buffers of one thread's forward passes.
struct NetScratch {
    std::vector<float> input[GROUP], a[GROUP], b[GROUP], query[GROUP], hidden[GROUP], key, values;
    std::vector<int32_t> nz;
};

// The inputs of up to GROUP positions: each one's observation, and for a pointer network
// its candidate cards (n_actions values), candidate features (n_actions x n_features)
// and projected VP (4 values).
struct Inputs {
    int count = 0;
    const float* obs[GROUP] = {};
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

    // The logits over the action table (n_actions values each) of ``in.count``
    // positions. invalid_argument for a candidate card outside the card embedding.
    void logits(const Inputs& in, float* const* out, NetScratch& s) const {
        if (!has_logits()) throw std::invalid_argument("this network has no policy head (a value network)");
        if (!pointer_ && trunk_.empty()) {
            for (int p = 0; p < in.count; ++p) head_.apply(in.obs[p], out[p], s.nz, s.values);
            return;
        }
        const float* x[GROUP];
        state(in, x, s);
        if (!pointer_) {
            head_.apply(in.count, x, out);
            return;
        }
        for (int p = 0; p < in.count; ++p) check_cards(in.card[p]);
        int e = query_.out;
        float* q[GROUP];
        for (int p = 0; p < in.count; ++p) {
            s.query[p].resize(e);
            q[p] = s.query[p].data();
        }
        query_.apply(in.count, x, q);
        // keys @ query + action_bias + features @ feature_logit, as numpy sums them; every
        // action first as if it had no card and no features, then those that do.
        dense_rows(in.count, q, e, plain_key_t_.data(), n_actions_, out);
        s.key.resize(e);
        for (int p = 0; p < in.count; ++p) {
            float* o = out[p];
            for (int a = 0; a < n_actions_; ++a) o[a] += action_bias_[a];
            for (int a = 0; a < n_actions_; ++a) {
                const float* f = in.features[p] + (size_t)a * n_features_;
                float c = in.card[p][a];
                bool any = c != 0.0f;
                for (int i = 0; i < n_features_ && !any; ++i) any = f[i] != 0.0f;
                if (any) o[a] = candidate_logit(a, (int)c, f, q[p], s.key.data());
            }
        }
    }

    // invalid_argument unless every candidate card indexes the card embedding.
    void check_cards(const float* card) const {
        for (int a = 0; a < n_actions_; ++a)
            if (!(card[a] > -1.0f && card[a] < (float)n_cards_))
                throw std::invalid_argument("candidate card " + std::to_string(card[a]) + " of action " +
                                            std::to_string(a) + " is outside the card embedding (0.." +
                                            std::to_string(n_cards_ - 1) + ")");
    }

    // The value head's [win share, VP margin] (sigmoid, tanh) of ``in.count`` positions.
    void outcome(const Inputs& in, float* const* out, NetScratch& s) const {
        if (!has_value()) throw std::invalid_argument("this network has no value head");
        const float* x[GROUP];
        state(in, x, s);
        float* h[GROUP];
        float o[GROUP][2];
        float* op[GROUP];
        for (int p = 0; p < in.count; ++p) {
            s.hidden[p].resize(value_hidden_.out);
            h[p] = s.hidden[p].data();
            op[p] = o[p];
        }
        value_hidden_.apply(in.count, x, h);
        for (int p = 0; p < in.count; ++p) activate(act_, h[p], value_hidden_.out);
        value_out_.apply(in.count, h, op);
        for (int p = 0; p < in.count; ++p) {
            const float* pv = in.projected[p];
            float own = std::max(pv[0], pv[2]), other = std::max(pv[1], pv[3]);
            float margin = (own - other) * margin_scale_;
            for (int k = 0; k < 2; ++k) o[p][k] += value_skip_[k] * margin;
            out[p][0] = 1.0f / (1.0f + std::exp(-o[p][0]));
            out[p][1] = std::tanh(o[p][1]);
        }
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

    // The hidden layers' outputs (x) for the observations (and, for a pointer network,
    // the projected VP after each): the first layer over the nonzero inputs of each
    // position, the others for the positions together.
    void state(const Inputs& in, const float** x, NetScratch& s) const {
        for (int p = 0; p < in.count; ++p) {
            const float* input = in.obs[p];
            if (pointer_) {
                s.input[p].assign(input, input + obs_size_);
                s.input[p].insert(s.input[p].end(), in.projected[p], in.projected[p] + 4);
                input = s.input[p].data();
            }
            s.a[p].resize(trunk_[0].out);
            trunk_[0].apply(input, s.a[p].data(), s.nz, s.values);
            activate(act_, s.a[p].data(), trunk_[0].out);
            x[p] = s.a[p].data();
        }
        for (size_t l = 1; l < trunk_.size(); ++l) {
            std::vector<float>* to = l % 2 ? s.b : s.a;
            float* y[GROUP];
            for (int p = 0; p < in.count; ++p) {
                to[p].resize(trunk_[l].out);
                y[p] = to[p].data();
            }
            trunk_[l].apply(in.count, x, y);
            for (int p = 0; p < in.count; ++p) {
                activate(act_, y[p], trunk_[l].out);
                x[p] = y[p];
            }
        }
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
        }, [&](const Inputs& in, float* const* o, NetScratch& s) { net_.logits(in, o, s); });
    }

    // outcome() of n positions; "" or why not.
    std::string outcome(int n, const float* obs, const float* projected, float* out) {
        return in_groups(n, [&](int i, Inputs& in, float*& o) {
            in.obs[in.count] = obs + (size_t)i * net_.obs_size();
            in.projected[in.count] = projected + (size_t)4 * i;
            o = out + (size_t)2 * i;
        }, [&](const Inputs& in, float* const* o, NetScratch& s) { net_.outcome(in, o, s); });
    }

private:
    Net net_;
    ThreadPool pool_;
    std::mutex busy_;

    // The positions in contiguous blocks, one a thread, each block in groups of GROUP:
    // add(i, inputs, out) adds position i to a group, run(inputs, outs, scratch) runs
    // one. A group that fails stops its block; "" or why the first failing one failed.
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
                    run(in, out, s);
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
