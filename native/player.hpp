// The player interface of the native engine: a player takes a game and its seat and
// returns a decision, drawing from its own random stream; rollouts, the lookahead and
// the search hold players through it and copy them with clone().
#pragma once

#include <memory>

#include "engine.hpp"
#include "rng.hpp"

namespace sg {

struct Player {
    virtual ~Player() = default;
    // A legal decision of ``seat``, the acting seat of ``g`` (a game not over).
    virtual Decision choose(const Game& g, int seat) = 0;
    // A copy of the player, its random stream included (the copy draws the same numbers).
    virtual std::unique_ptr<Player> clone() const = 0;
    // The player's random stream (numpy's PCG64 and Generator draws, bit for bit).
    Pcg64 rng;

protected:
    explicit Player(const Pcg64& rng_) : rng(rng_) {}
};

}  // namespace sg
