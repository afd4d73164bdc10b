// The lookahead's rollout (agents/lookahead.py LookaheadPolicies.roll_out) in C++: the
// students of both factions answer every question of a world, each its most likely legal
// answer, until the seat faces the main Action question for the ``questions``-th time,
// the game ends or ``limit`` decisions are played. The students' logits come from the
// same forward passes (nets.hpp) and inputs (encoder.hpp, candidates.hpp) as a learned
// agent's on a native game, so the rollout plays the same decisions as the Python loop.
//
// Many rollouts run in lockstep (play_all): at each step every rollout that waits for a
// network's answer joins its faction's batch, and each batch of up to GROUP positions is
// one forward pass, each layer's weights read once for the batch instead of once a
// position. A position's logits do not depend on its batch (nets.hpp), so each rollout
// plays the same decisions alone or among others. A position's observation goes to the
// first layer as its nonzero entries (Encoder::encode_nonzero: the entries written, no
// scan of the whole vector), the same rows a scan would find.
#pragma once

#include <cmath>
#include <vector>

#include "candidates.hpp"
#include "encoder.hpp"
#include "nets.hpp"

namespace sg {

struct Rollout {
    const Encoder& encoder;
    const CandidateWriter& candidates;
    const Net* students[2];          // by faction
    std::vector<int> lookahead_kinds;  // the kinds of decision of the main Action question
    int questions, limit;

    // Whether a question with these legal answers is one the lookahead answers.
    bool looks_ahead(const std::vector<Decision>& legal) const {
        if (legal.size() < 2) return false;
        for (const Decision& d : legal)
            for (int k : lookahead_kinds)
                if (d.kind == k) return true;
        return false;
    }

    // Play each of the n games ``games[i]`` on for its seat ``seats[i]``, all in
    // lockstep; ``played[i]``: the decisions played in it. A pointer network scores the
    // legal actions alone (Net::legal_logits: the same logits as the whole table's).
    void play_all(Game* const* games, const int* seats, int* played, int n) const {
        const Layout& L = encoder.layout();
        const size_t A = L.n_actions, F = (size_t)candidates.n_features;
        // (the buffers of the thread's last batch: no allocation a step; the candidate
        // rows are zero but for the legal rows of the position being scored)
        thread_local std::vector<float> card, features, logits;
        thread_local NonzeroScratch encoding;
        thread_local std::vector<int> actions[GROUP];
        thread_local std::vector<int32_t> obs_index[GROUP];
        thread_local std::vector<float> obs_value[GROUP];
        thread_local NetScratch scratch;
        thread_local bool clean = false;  // (false after a call that threw: rows may be left)
        if (!clean || card.size() != GROUP * A || features.size() != GROUP * A * F) {
            card.assign(GROUP * A, 0.0f);
            features.assign(GROUP * A * F, 0.0f);
        }
        clean = false;
        for (std::vector<int32_t>& index : obs_index) index.reserve(L.D);  // (data() never null)
        logits.resize(GROUP * A);
        float projected[GROUP][4];
        std::vector<int> asked(n, 0), active, waiting[2];
        for (int i = 0; i < n; ++i) {
            played[i] = 0;
            active.push_back(i);
        }
        while (!active.empty()) {
            waiting[0].clear();
            waiting[1].clear();
            for (int i : active) {
                Game& g = *games[i];
                if (played[i] >= limit || g.is_over()) continue;
                const int acting = g.acting_seat();
                if (acting == seats[i] && looks_ahead(g.legal()) && ++asked[i] == questions) continue;
                waiting[faction(acting)].push_back(i);
            }
            active.clear();
            for (int f = 0; f < 2; ++f) {
                const Net& net = *students[f];
                const std::vector<int>& wait = waiting[f];
                for (size_t at = 0; at < wait.size(); at += GROUP) {
                    Inputs in;
                    float* out[GROUP];
                    const int* legal[GROUP];
                    int n_legal[GROUP];
                    for (; in.count < GROUP && at + in.count < wait.size(); ++in.count) {
                        const int p = in.count;
                        Game& g = *games[wait[at + p]];
                        const int acting = g.acting_seat();
                        encoder.encode_nonzero(g, acting, encoding, obs_index[p], obs_value[p]);
                        in.obs_nonzero.index[p] = obs_index[p].data();
                        in.obs_nonzero.value[p] = obs_value[p].data();
                        in.obs_nonzero.count[p] = (int)obs_index[p].size();
                        if (net.pointer()) {
                            in.card[p] = card.data() + p * A;
                            in.features[p] = features.data() + p * A * F;
                            candidates.write(g, acting, card.data() + p * A, features.data() + p * A * F, false);
                            CandidateWriter::projected_vp(g, acting, projected[p]);
                            in.projected[p] = projected[p];
                            actions[p].clear();
                            for (const Decision& d : g.legal()) actions[p].push_back(index(L, d));
                            legal[p] = actions[p].data();
                            n_legal[p] = (int)actions[p].size();
                        }
                        out[p] = logits.data() + p * A;
                    }
                    if (net.pointer())
                        net.legal_logits(in, legal, n_legal, out, scratch);
                    else
                        net.logits(in, out, scratch);
                    for (int p = 0; p < in.count; ++p) {
                        const int i = wait[at + p];
                        Game& g = *games[i];
                        if (net.pointer())
                            for (int a : actions[p]) {  // the rows the next position finds zero
                                card[p * A + a] = 0.0f;
                                std::fill_n(features.data() + (p * A + a) * F, F, 0.0f);
                            }
                        g.step(best(L, g.legal(), out[p]));
                        ++played[i];
                        active.push_back(i);
                    }
                }
            }
        }
        clean = true;
    }

    // The index in the action table of an engine decision; out_of_range outside it.
    static int index(const Layout& L, const Decision& d) {
        if (d.kind < 0 || d.kind >= (int)L.action_size.size() || d.arg < 0 || d.arg >= L.action_size[d.kind])
            throw std::out_of_range("engine decision (" + std::to_string(d.kind) + ", " + std::to_string(d.arg) +
                                    ") is outside the action table");
        return L.action_offset[d.kind] + d.arg;
    }

    // The legal decision of the highest logit, the lowest action index among equals (as
    // numpy's argmax over the masked table).
    static float value(float logit) { return std::isnan(logit) ? -INFINITY : logit; }
    static Decision best(const Layout& L, const std::vector<Decision>& legal, const float* logits) {
        int top = -1;
        Decision choice{};
        for (const Decision& d : legal) {
            int a = index(L, d);
            // (a NaN logit counts as -inf, as agents/numpy_nets.py masked_choice counts it)
            if (top < 0 || value(logits[a]) > value(logits[top]) ||
                (value(logits[a]) == value(logits[top]) && a < top)) {
                top = a;
                choice = d;
            }
        }
        return choice;
    }
};

}  // namespace sg
