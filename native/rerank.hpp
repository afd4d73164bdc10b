// The rerank player (agents/rerank.py RerankAgent) on the native engine: the heuristic
// answers (native/heuristic.hpp, drawing its ties from the player's stream); at a
// searched question with several answers, the candidates are the heuristic's answer and
// the other decisions it scores within ``gap`` of it (agents/mcts.py
// heuristic_candidates), and the network of the seat's faction picks among them (its
// logits from the same inputs as a learned agent's on a native game: encoder.hpp,
// candidates.hpp with the heuristic's prior columns, nets.hpp), the heuristic's answer
// raised by ``margin`` and kept on a tie.
#pragma once

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

#include "candidates.hpp"
#include "encoder.hpp"
#include "heuristic.hpp"
#include "nets.hpp"

namespace sg {

// A pointer network's logits over the action table for ``seat``'s view of ``g``: the
// inputs a learned agent reads on a native game (the observation, the candidate keys and,
// from ``scored`` where given, the prior's columns: candidates.py's _prior_columns).
inline std::vector<float> pointer_logits(const Encoder& encoder, const CandidateWriter& candidates, const Net& net,
                                         const Game& g, int seat, const heuristic::Scored* scored,
                                         double prior_scale, double prior_floor) {
    const Layout& L = encoder.layout();
    const int n = L.n_actions;
    if (!net.pointer() || !net.has_logits() || net.n_actions() != n || net.obs_size() != L.D ||
        net.n_features() != candidates.n_features)
        throw std::invalid_argument("the network must be a pointer policy over this game's observation and "
                                    "action table");
    std::vector<float> obs(L.D), card(n), features((size_t)n * candidates.n_features), logits(n);
    float projected[4];
    encoder.encode(g, seat, obs.data());
    candidates.write(g, seat, card.data(), features.data());
    if (scored) candidates.write_prior(*scored, prior_scale, prior_floor, features.data());
    CandidateWriter::projected_vp(g, seat, projected);
    net.check_cards(card.data());
    Inputs in;
    in.count = 1;
    in.obs[0] = obs.data();
    in.card[0] = card.data();
    in.features[0] = features.data();
    in.projected[0] = projected;
    float* out[GROUP] = {logits.data()};
    NetScratch scratch;
    net.logits(in, out, scratch);
    return logits;
}

struct RerankPlayer : Player {
    HeuristicParams params;
    const Encoder* encoder;
    const CandidateWriter* candidates;
    const Net* nets[2];           // by faction
    bool prior_columns[2];        // whether that faction's network reads the prior's columns
    double prior_scale, prior_floor;  // candidates.py's PRIOR_SCALE, PRIOR_GAP_FLOOR
    std::vector<bool> searched;   // by frame kind: the questions the network may overrule
    int topk;
    double gap, margin;
    int overruled = 0;            // decisions where the network chose another candidate

    RerankPlayer(const HeuristicParams& params_, const Pcg64& rng_, const Encoder& encoder_,
                 const CandidateWriter& candidates_, const Net* british, const Net* malay,
                 const bool prior_columns_[2], double prior_scale_, double prior_floor_,
                 std::vector<bool> searched_, int topk_, double gap_, double margin_)
        : Player(rng_), params(params_), encoder(&encoder_), candidates(&candidates_), nets{british, malay},
          prior_columns{prior_columns_[0], prior_columns_[1]}, prior_scale(prior_scale_),
          prior_floor(prior_floor_), searched(std::move(searched_)), topk(topk_), gap(gap_), margin(margin_) {
        if (topk < 1) throw std::invalid_argument("rerank: topk must be >= 1");
    }

    Decision choose(const Game& g, int seat) override {
        const std::vector<Decision>& legal = g.legal();
        HeuristicPlayer heuristic(params, rng);
        Decision prior = heuristic.choose(g, seat);
        rng = heuristic.rng;
        int kind = g.state().stack.back().kind;
        if (legal.size() == 1 || kind < 0 || kind >= (int)searched.size() || !searched[kind]) return prior;
        heuristic::Scored scored = heuristic.option_scores(g, seat);
        std::vector<Decision> cands = candidates_of(scored, legal, prior);
        if (cands.size() == 1) return prior;
        const int f = faction(seat);
        std::vector<float> logits = pointer_logits(*encoder, *candidates, *nets[f], g, seat,
                                                   prior_columns[f] ? &scored : nullptr, prior_scale, prior_floor);
        const Layout& L = encoder->layout();
        size_t best = 0;
        double best_score = 0.0;
        for (size_t i = 0; i < cands.size(); ++i) {
            const Decision& d = cands[i];
            if (d.kind < 0 || d.kind >= (int)L.action_size.size() || d.arg < 0 || d.arg >= L.action_size[d.kind])
                throw std::out_of_range("rerank: a candidate is outside the action table");
            double score = (double)logits[(size_t)L.action_offset[d.kind] + d.arg];
            if (i == 0) score += margin;
            if (i == 0 || score > best_score) best = i, best_score = score;
        }
        overruled += best > 0;
        return cands[best];
    }

    std::unique_ptr<Player> clone() const override { return std::make_unique<RerankPlayer>(*this); }

private:
    // The prior first, then the best-scored other decisions within ``gap`` of it (ties in
    // scored order), topk in all; every other legal decision for an unscored question.
    std::vector<Decision> candidates_of(const heuristic::Scored& option_scores, const std::vector<Decision>& legal,
                                        const Decision& prior) const {
        heuristic::Scored scored = option_scores;
        double floor = 0.0;
        if (!scored.empty()) {
            bool found = false;
            for (const auto& [v, d] : scored)
                if (d == prior) floor = found ? std::max(floor, v) : v, found = true;
            if (!found) throw std::logic_error("rerank: the heuristic's answer is not among its scored decisions");
            floor -= gap;
        } else {
            for (const Decision& d : legal) scored.push_back({0.0, d});
        }
        std::vector<size_t> order(scored.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return scored[a].first > scored[b].first; });
        std::vector<Decision> out{prior};
        for (size_t i : order) {
            if ((int)out.size() >= topk) break;
            if (!(scored[i].second == prior) && scored[i].first >= floor) out.push_back(scored[i].second);
        }
        return out;
    }
};

}  // namespace sg
