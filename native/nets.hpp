// The forward passes of the numpy actors in float32: agents/learned.py's NumpyPolicy (an
// MLP with a linear head over the action table) and agents/pointer_actor.py's
// PointerActor (a state MLP over the observation and projected VP, a query scoring every
// action's key of action, card and candidate-feature embeddings, and the optional value
// head), built from the float32 arrays the Python side loaded, under the same names.
// An observation has a few hundred nonzero entries of thousands, so every layer is a sum
// over its input's nonzero entries of their rows of the weights (numpy's `x @ w` reads
// every row). Results equal numpy's to float32 rounding (the order of the sums differs).
// BatchedNet runs many positions in one call, split in blocks among its threads.
#pragma once

#include <cmath>
#include <cstdint>
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
// multiversioning): each output is the same sum in the same order whatever the vector width.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SG_VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SG_VECTOR_CLONES
#endif

// y[j] = sum over the t < count of x[t] * w[row[t] * n + j] (in that order), j < n: the
// rows of w of a sparse input, scaled and summed, B outputs at a time held in registers.
template <int B>
inline int sum_rows_block(const int32_t* row, const float* x, int count, const float* w, int n, int j0,
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
};

inline void activate(Activation act, float* x, int n) {
    if (act == Activation::tanh)
        for (int i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
    else
        for (int i = 0; i < n; ++i) x[i] = x[i] < 0.0f ? 0.0f : x[i];
}

// The work buffers of one thread's forward passes.
struct NetScratch {
    std::vector<float> x, y, query, key, hidden, values;
    std::vector<int32_t> nz;
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

    // The logits over the action table (n_actions values) of one position: its
    // observation, and for a pointer network its candidate cards (n_actions values),
    // candidate features (n_actions x n_features) and projected VP (4 values).
    // invalid_argument for a candidate card outside the card embedding.
    void logits(const float* obs, const float* card, const float* features, const float* projected, float* out,
                NetScratch& s) const {
        if (!has_logits()) throw std::invalid_argument("this network has no policy head (a value network)");
        if (!pointer_) {
            const float* x = obs;
            if (!trunk_.empty()) x = state(obs, nullptr, s);
            head_.apply(x, out, s.nz, s.values);
            return;
        }
        const float* x = state(obs, projected, s);
        int e = query_.out;
        s.query.resize(e);
        query_.apply(x, s.query.data(), s.nz, s.values);
        const float* q = s.query.data();
        // keys @ query + action_bias + features @ feature_logit, as numpy sums them; every
        // action first as if it had no card and no features, then those that do.
        s.nz.resize(e);
        for (int k = 0; k < e; ++k) s.nz[k] = k;
        sum_rows(s.nz.data(), q, e, plain_key_t_.data(), n_actions_, out);
        for (int a = 0; a < n_actions_; ++a) out[a] += action_bias_[a];
        s.key.resize(e);
        for (int a = 0; a < n_actions_; ++a) {
            const float* f = features + (size_t)a * n_features_;
            bool any = card[a] != 0.0f;
            for (int i = 0; i < n_features_ && !any; ++i) any = f[i] != 0.0f;
            if (!any) continue;
            float c = card[a];
            if (!(c > -1.0f && c < (float)n_cards_))
                throw std::invalid_argument("candidate card " + std::to_string(c) + " of action " +
                                            std::to_string(a) + " is outside the card embedding (0.." +
                                            std::to_string(n_cards_ - 1) + ")");
            const float* ae = &action_embedding_[(size_t)a * e];
            const float* ce = &card_embedding_[(size_t)(int)c * e];
            float* key = s.key.data();
            std::fill(key, key + e, 0.0f);
            for (int i = 0; i < n_features_; ++i)
                if (f[i] != 0.0f)
                    for (int k = 0; k < e; ++k) key[k] += f[i] * feature_key_[(size_t)i * e + k];
            float dot = 0.0f, extra = 0.0f;
            for (int k = 0; k < e; ++k) dot += ((ae[k] + ce[k]) + key[k]) * q[k];
            for (int i = 0; i < n_features_; ++i) extra += f[i] * feature_logit_[i];
            out[a] = (dot + action_bias_[a]) + extra;
        }
    }

    // The value head's [win share, VP margin] (sigmoid, tanh) of one position.
    void outcome(const float* obs, const float* projected, float* out, NetScratch& s) const {
        if (!has_value()) throw std::invalid_argument("this network has no value head");
        const float* x = state(obs, projected, s);
        s.hidden.resize(value_hidden_.out);
        value_hidden_.apply(x, s.hidden.data(), s.nz, s.values);
        activate(act_, s.hidden.data(), value_hidden_.out);
        float o[2];
        value_out_.apply(s.hidden.data(), o, s.nz, s.values);
        float own = std::max(projected[0], projected[2]), other = std::max(projected[1], projected[3]);
        float margin = (own - other) * margin_scale_;
        for (int k = 0; k < 2; ++k) o[k] += value_skip_[k] * margin;
        out[0] = 1.0f / (1.0f + std::exp(-o[0]));
        out[1] = std::tanh(o[1]);
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

    // The hidden layers' output for an observation (and, for a pointer network, the
    // projected VP after it).
    const float* state(const float* obs, const float* projected, NetScratch& s) const {
        const Dense& first = trunk_[0];
        const float* x = obs;
        if (pointer_) {
            s.x.assign(obs, obs + obs_size_);
            s.x.insert(s.x.end(), projected, projected + 4);
            x = s.x.data();
        }
        for (const Dense& layer : trunk_) {
            std::vector<float>& y = (&layer - &first) % 2 ? s.x : s.y;
            y.resize(layer.out);
            layer.apply(x, y.data(), s.nz, s.values);
            activate(act_, y.data(), layer.out);
            x = y.data();
        }
        return x;
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
        return in_blocks(n, [&](int i, NetScratch& s) {
            bool p = net_.pointer();
            net_.logits(obs + (size_t)i * net_.obs_size(), p ? card + i * A : nullptr,
                        p ? features + i * F : nullptr, p ? projected + (size_t)4 * i : nullptr, out + i * A, s);
        });
    }

    // outcome() of n positions; "" or why not.
    std::string outcome(int n, const float* obs, const float* projected, float* out) {
        return in_blocks(n, [&](int i, NetScratch& s) {
            net_.outcome(obs + (size_t)i * net_.obs_size(), projected + (size_t)4 * i, out + (size_t)2 * i, s);
        });
    }

private:
    Net net_;
    ThreadPool pool_;
    std::mutex busy_;

    template <class Work>
    std::string in_blocks(int n, const Work& work) {
        std::lock_guard<std::mutex> lock(busy_);
        int blocks = pool_.size();
        std::vector<std::string> why(blocks);
        auto block = [&](int b) {
            NetScratch s;
            for (int i = (int)((int64_t)n * b / blocks); i < (int)((int64_t)n * (b + 1) / blocks); ++i) {
                try {
                    work(i, s);
                } catch (const std::exception& e) {
                    why[b] = "position " + std::to_string(i) + ": " + e.what();
                    return;
                }
            }
        };
        if (n <= 1 || blocks == 1) {
            blocks = 1;
            block(0);
        } else {
            pool_.run(block);
        }
        for (const std::string& w : why)
            if (!w.empty()) return w;
        return "";
    }
};

}  // namespace sg
