// The lookahead's rollout (agents/lookahead.py LookaheadPolicies.roll_out) in C++: the
// students of both factions answer every question of a world, each its most likely legal
// answer, until the seat faces the main Action question for the ``questions``-th time,
// the game ends or ``limit`` decisions are played. The students' logits come from the
// same forward passes (nets.hpp) and inputs (encoder.hpp, candidates.hpp) as a learned
// agent's on a native game, so the rollout plays the same decisions as the Python loop.
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

    // Play ``g`` on for ``seat``; the decisions played.
    int play(Game& g, int seat) const {
        const Layout& L = encoder.layout();
        const int n = L.n_actions;
        // (the buffers of the thread's last rollout: no allocation a rollout)
        thread_local std::vector<float> obs, card, features, logits;
        thread_local NetScratch scratch;
        obs.resize(L.D);
        card.resize(n);
        features.resize((size_t)n * candidates.n_features);
        logits.resize(n);
        float projected[4];
        int asked = 0;
        for (int played = 0; played < limit; ++played) {
            if (g.is_over()) return played;
            const int acting = g.acting_seat();
            const std::vector<Decision>& legal = g.legal();
            if (acting == seat && looks_ahead(legal) && ++asked == questions) return played;
            const Net& net = *students[faction(acting)];
            encoder.encode(g, acting, obs.data());
            Inputs in;
            in.count = 1;
            in.obs[0] = obs.data();
            if (net.pointer()) {
                candidates.write(g, acting, card.data(), features.data());
                CandidateWriter::projected_vp(g, acting, projected);
                in.card[0] = card.data();
                in.features[0] = features.data();
                in.projected[0] = projected;
            }
            float* out[GROUP] = {logits.data()};
            net.logits(in, out, scratch);
            g.step(best(L, legal, logits));
        }
        return limit;
    }

    // The legal decision of the highest logit, the lowest action index among equals (as
    // numpy's argmax over the masked table).
    static float value(float logit) { return std::isnan(logit) ? -INFINITY : logit; }
    static Decision best(const Layout& L, const std::vector<Decision>& legal, const std::vector<float>& logits) {
        int top = -1;
        Decision choice{};
        for (const Decision& d : legal) {
            if (d.kind < 0 || d.kind >= (int)L.action_size.size() || d.arg < 0 || d.arg >= L.action_size[d.kind])
                throw std::out_of_range("engine decision (" + std::to_string(d.kind) + ", " + std::to_string(d.arg) +
                                        ") is outside the action table");
            int a = L.action_offset[d.kind] + d.arg;
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
