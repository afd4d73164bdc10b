// Many native games stepped together (the slots of a vector env): each slot shows the
// question of its acting seat as an observation row, a mask row and the seat; a game
// that ends writes its final VP, raises ``done`` and starts the slot's next game, seeded
// as singapore_env.vector.game_seed(seed, slot, k) is. The slots are split in contiguous
// blocks among ``threads`` threads; a slot's rows depend on its own game only, so they are
// the same for any number of threads.
//
// A batch is stepped by one caller at a time: reset, step and game take its lock (a
// second caller waits), and step reads only the actions it is given (the caller's copy).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "encoder.hpp"
#include "engine.hpp"
#include "pool.hpp"
#include "rng.hpp"

namespace sg {

// SeedSequence([seed, slot, k]).generate_state(1)[0] >> 1 (a uint32 word, halved), the
// seed given as its 32-bit words (seed_words; any size).
inline uint64_t slot_game_seed(const std::vector<uint32_t>& seed, uint64_t slot, uint64_t k) {
    std::vector<uint32_t> words = seed;
    for (uint64_t x : {slot, k}) {
        std::vector<uint32_t> w = seed_words(x);
        words.insert(words.end(), w.begin(), w.end());
    }
    return (uint32_t)seed_sequence_state(words, 1)[0] >> 1;
}

// The rows of the arrays a batch writes (each of the batch's size; nullptr: not written).
struct Rows {
    float* obs;
    int8_t* mask;
    int64_t* seat;
    bool* done;
    int64_t* final_vp;    // 4 per slot
    int64_t* game_seeds;
};

class Batch {
public:
    Batch(std::shared_ptr<const Content> content, std::shared_ptr<const Config> config,
          std::shared_ptr<const Encoder> encoder, int n, std::vector<uint32_t> seed, uint64_t first_slot,
          int threads)
        : content_(std::move(content)), config_(std::move(config)),
          encoder_(std::move(encoder)), seed_(std::move(seed)), first_slot_(first_slot), games_(n), played_(n, 0),
          pool_(std::min(std::max(threads, 1), n)) {
        const Layout& L = encoder_->layout();
        for (int kind = 0; kind < (int)L.action_size.size(); ++kind)
            for (int arg = 0; arg < L.action_size[kind]; ++arg) decisions_.push_back({kind, arg});
    }
    int size() const { return (int)games_.size(); }

    int threads() const { return pool_.size(); }

    // Start every slot's first game; "" or why a question fell outside the action table.
    std::string reset(const Rows& r) {
        std::lock_guard<std::mutex> hold(busy_);
        std::fill(played_.begin(), played_.end(), 0);
        return in_blocks([&](int i) {
            start(i, r);
            r.done[i] = false;
            std::fill(r.final_vp + 4 * i, r.final_vp + 4 * i + 4, 0);
            return show(i, r);
        });
    }

    // The legal action index of every slot first: the first slot whose action is not
    // legal now, nothing changed (``illegal``, else -1); then every step; "" or why a
    // question fell outside the action table.
    std::string step(const std::vector<int64_t>& actions, const Rows& r, int& illegal) {
        std::lock_guard<std::mutex> hold(busy_);
        illegal = -1;
        if ((int)actions.size() != size()) return "expected " + std::to_string(size()) + " actions";
        if (!started()) return "no game started yet: reset the batch first";
        for (int i = 0; i < size(); ++i) {
            int64_t a = actions[i];
            if (a < 0 || a >= (int64_t)decisions_.size() || !games_[i]->is_legal(decisions_[a])) {
                illegal = i;
                return "";
            }
        }
        return in_blocks([&](int i) {
            Game& g = *games_[i];
            g.step(decisions_[actions[i]]);
            r.done[i] = g.is_over();
            if (g.is_over()) {
                const auto& vp = g.state().final_vp;
                for (int p = 0; p < 4; ++p) r.final_vp[4 * i + p] = vp[p];
                start(i, r);
            } else {
                std::fill(r.final_vp + 4 * i, r.final_vp + 4 * i + 4, 0);
            }
            return show(i, r);
        });
    }

    // A copy of slot i's game (std::runtime_error before the first reset).
    Game game(int i) {
        std::lock_guard<std::mutex> hold(busy_);
        const auto& g = games_.at(i);
        if (!g) throw std::runtime_error("no game started yet: reset the batch first");
        return *g;
    }

    // Whether reset has started every slot's game.
    bool started() const {
        for (const auto& g : games_)
            if (!g) return false;
        return true;
    }

private:
    std::shared_ptr<const Content> content_;
    std::shared_ptr<const Config> config_;
    std::shared_ptr<const Encoder> encoder_;
    std::vector<uint32_t> seed_;  // the vector env's seed (its 32-bit words)
    uint64_t first_slot_;         // the slot of the first game here
    std::vector<std::unique_ptr<Game>> games_;
    std::vector<uint64_t> played_;
    std::vector<Decision> decisions_;  // by action index
    ThreadPool pool_;
    std::mutex busy_;  // held by the one reset, step or game running

    // work(i) for every slot, each block of slots on its thread, a block stopping at its
    // first slot that fails; "" or why the first failing slot failed (the same whatever
    // the number of threads).
    template <class Work>
    std::string in_blocks(const Work& work) {
        int n = size(), blocks = pool_.size();
        std::vector<std::string> why(blocks);
        pool_.run([&](int b) {
            for (int i = n * b / blocks; i < n * (b + 1) / blocks; ++i) {
                try {
                    why[b] = work(i);
                } catch (const std::exception& e) {
                    why[b] = "slot " + std::to_string(first_slot_ + i) + ": " + e.what();
                }
                if (!why[b].empty()) return;
            }
        });
        for (const std::string& w : why)
            if (!w.empty()) return w;
        return "";
    }

    void start(int i, const Rows& r) {
        uint64_t s = slot_game_seed(seed_, first_slot_ + i, played_[i]++);
        r.game_seeds[i] = (int64_t)s;
        games_[i] = std::make_unique<Game>(content_, config_, s);
    }

    // Write slot i's rows; "" or why its question falls outside the action table.
    std::string show(int i, const Rows& r) {
        const Layout& L = encoder_->layout();
        const Game& g = *games_[i];
        int seat = g.acting_seat();
        r.seat[i] = seat;
        encoder_->encode(g, seat, r.obs + (size_t)i * L.D);
        Decision bad{};
        if (!encoder_->mask(g, seat, r.mask + (size_t)i * L.n_actions, &bad))
            return "slot " + std::to_string(first_slot_ + i) + ": engine decision (" + std::to_string(bad.kind) +
                   ", " + std::to_string(bad.arg) + ") is outside the action table";
        return "";
    }
};

}  // namespace sg
