// The search loop of agents/mcts.py MctsAgent in C++, an exact twin: the same worlds
// (determinize.hpp, drawing from the agent's generator), the same rollout seeds (drawn
// next from it), every candidate played in each world by four heuristic players
// (heuristic.hpp) seeded seed + seat as the Python rollout's, and the same scores: the
// final VP, the projected final VP of a rollout cut after ``horizon`` rounds, or with
// value networks their value head (nets.hpp) read from the seat's observation (the
// forward pass a Python search on a native game makes). The significance test stays in
// Python (agents/mcts.py), on the values this returns.
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "candidates.hpp"
#include "determinize.hpp"
#include "encoder.hpp"
#include "heuristic.hpp"
#include "nets.hpp"

namespace sg {

struct MctsSearch {
    // agents/mcts.py _SEED_SPACE: the rollout seeds are drawn in [0, 2**62).
    static constexpr int64_t SEED_SPACE = (int64_t)1 << 62;
    // agents/outcome.py MARGIN_SCALE.
    static constexpr double MARGIN_SCALE = 20.0;

    HeuristicParams heuristic;  // the rollout players' (the Python agents' defaults)
    int iters = 0;              // simulations a search, or 0: ``seconds`` of wall time
    double seconds = 0.5;
    double time_cap = -1.0;     // seconds any search stops at (< 0: none)
    int horizon = 0;            // rounds a rollout plays before it is scored (0: to the end)
    double vp_weight = 0.5;
    // The value networks by faction (both or neither) and the observation they read.
    const Encoder* encoder = nullptr;
    const Net* nets[2] = {nullptr, nullptr};

    // Every candidate in worlds of ``game`` seen from ``seat``, until the budget is spent
    // (at least one world): the values, one row of ``candidates.size()`` a world, drawing
    // the worlds and rollout seeds from ``rng`` (advanced as the Python search advances it).
    std::vector<std::vector<double>> run(const Game& game, int seat, const std::vector<Decision>& candidates,
                                         Pcg64& rng) const {
        if (candidates.empty()) throw std::invalid_argument("a search needs at least one candidate");
        const auto start = std::chrono::steady_clock::now();
        const int64_t n = (int64_t)candidates.size();
        std::vector<std::vector<double>> values;
        NetScratch scratch;
        while (values.empty() || !spent((int64_t)values.size() * n, start)) {
            std::unique_ptr<Game> world = Determinizer::determinize(game, seat, rng);
            const int64_t seed = rng.integers(0, SEED_SPACE);
            std::vector<double> row;
            row.reserve(n);
            for (const Decision& d : candidates) row.push_back(rollout(*world, d, seat, (uint64_t)seed, scratch));
            values.push_back(std::move(row));
        }
        return values;
    }

    // MctsAgent.value: the win share of ``seat``'s faction plus vp_weight times its
    // margin (agents/outcome.py outcome), from every seat's final or projected VP.
    double value(const int64_t scores[4], int seat) const {
        auto mine = [seat](int p) { return faction(p) == faction(seat); };
        int64_t top = scores[0];
        for (int p = 1; p < 4; ++p) top = std::max(top, scores[p]);
        int winners = 0, own_winners = 0;
        int64_t own = INT64_MIN, other = INT64_MIN;
        for (int p = 0; p < 4; ++p) {
            if (scores[p] == top) ++winners, own_winners += mine(p);
            if (mine(p)) own = std::max(own, scores[p]);
            else other = std::max(other, scores[p]);
        }
        double win = (double)own_winners / winners;
        double margin = std::max(-1.0, std::min(1.0, (double)(own - other) / MARGIN_SCALE));
        return win + vp_weight * margin;
    }

private:
    bool spent(int64_t simulations, std::chrono::steady_clock::time_point start) const {
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (time_cap >= 0 && elapsed >= time_cap) return true;
        if (iters) return simulations >= iters;
        return elapsed >= seconds;
    }

    // MctsAgent._rollout: ``first`` in a copy of ``world``, then the heuristic players to
    // the end or ``horizon`` rounds on; the score of the result for ``seat``.
    double rollout(const Game& world, Decision first, int seat, uint64_t seed, NetScratch& scratch) const {
        if (!world.is_legal(first))
            throw std::invalid_argument("a search candidate (" + std::to_string(first.kind) + ", " +
                                        std::to_string(first.arg) + ") is not legal in the sampled world");
        Game g(world);
        g.step(first);
        HeuristicPlayer players[4] = {{heuristic, Pcg64(seed)}, {heuristic, Pcg64(seed + 1)},
                                      {heuristic, Pcg64(seed + 2)}, {heuristic, Pcg64(seed + 3)}};
        const int stop = g.state().round + horizon;
        while (!g.is_over() && (!horizon || g.state().round < stop)) {
            const int acting = g.acting_seat();
            g.step(players[acting].choose(g, acting));
        }
        int64_t scores[4];
        if (g.is_over()) {
            for (int p = 0; p < 4; ++p) scores[p] = g.state().final_vp[p];
            return value(scores, seat);
        }
        if (nets[0]) return net_value(g, seat, scratch);
        for (int p = 0; p < 4; ++p) scores[p] = g.projected_final_vp(p);
        return value(scores, seat);
    }

    // MctsAgent.net_value (agents/learned.py position_value on a native game): the value
    // head's win share plus vp_weight times its margin, in float32 as numpy sums them.
    double net_value(const Game& g, int seat, NetScratch& scratch) const {
        const Net& net = *nets[faction(seat)];
        std::vector<float> obs(encoder->layout().D);
        float projected[4], o[2];
        encoder->encode(g, seat, obs.data());
        CandidateWriter::projected_vp(g, seat, projected);
        Inputs in;
        in.count = 1;
        in.obs[0] = obs.data();
        in.projected[0] = projected;
        float* out[GROUP] = {o};
        net.outcome(in, out, scratch);
        const float margin = (float)vp_weight * o[1];
        return (double)(o[0] + margin);
    }
};

}  // namespace sg
