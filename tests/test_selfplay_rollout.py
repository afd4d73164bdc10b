"""The batched self-play trainer's rows: every seat's outcome reaches its last decision
whatever rollout its game ends in, a trajectory cut by a rollout's end is completed in
the next one (not bootstrapped from itself), and a past self plays its whole game."""

import numpy as np
import torch

from singapore_env.vector import VectorEnv
from training.network.actor_critic import ActorCritic
from training.loop.rollout import Collector


def collector(steps: int = 5, past_self_share: float = 0.0, seed: int = 11) -> Collector:
    torch.manual_seed(seed)
    venv = VectorEnv(3, seed=seed)
    nets = [ActorCritic(venv.obs_size, venv.num_actions, [8]) for _ in range(2)]
    return Collector(venv, nets, np.random.default_rng(seed), past_self_share, steps)


def test_every_seats_outcome_reaches_its_last_decision_across_rollouts():
    c = collector()
    outcomes, games = 0, 0
    while games < 6:
        c.collect(5)
        outcomes += sum(int(r.terminal[:r.n].sum()) for r in c.rollouts)
        games += c.games_played
        c.games_played = 0
    c.close()
    # Four seats a game, each with decisions of its own: four outcomes a finished game.
    assert outcomes == 4 * games


def test_a_cut_trajectory_waits_for_the_seats_next_decision_or_the_outcome():
    c = collector()
    learned = c.collect(5)
    pending = {f: {int(s) for s, ready in zip(r.stream[:r.n], r.ready[:r.n]) if not ready}
               for f, r in enumerate(c.rollouts)}
    for r in c.rollouts:
        streams = r.stream[:r.n]
        for t in range(r.n):
            later = (streams[t + 1:] == streams[t]).any()
            # Learned from exactly when the trajectory goes on in this rollout or ends.
            assert r.ready[t] == (bool(r.terminal[t]) or bool(later))
    kept = [(r.stream[:r.n][~r.ready[:r.n]].copy(), r.choice[:r.n][~r.ready[:r.n]].copy(),
             r.logp[:r.n][~r.ready[:r.n]].copy()) for r in c.rollouts]
    assert learned == 15 and any(pending.values())
    again = c.collect(5)
    assert again == 15  # the carried rows are not counted twice
    for r, (streams, choices, logps) in zip(c.rollouts, kept):
        k = len(streams)
        assert (r.stream[:k] == streams).all() and (r.choice[:k] == choices).all()
        assert np.array_equal(r.logp[:k], logps)
        for t in range(k):
            if not r.terminal[t]:   # completed by the seat's next decision's value
                nxt = t + 1 + np.flatnonzero(r.stream[t + 1:r.n] == r.stream[t])
                if len(nxt):
                    assert r.ready[t]
                    assert np.isclose(r.ret[t], r.advantage[t] + r.value[t])
    c.close()


def test_a_past_self_plays_its_whole_game_while_the_pool_changes():
    c = collector(steps=4, past_self_share=1.0)
    venv = c.venv
    width = [8]
    c.pool = [[ActorCritic(venv.obs_size, venv.num_actions, width) for _ in range(3)]
              for _ in range(2)]
    for slot in range(venv.num_games):
        c._assign(slot)
    game = np.zeros(venv.num_games, np.int64)      # the game each slot is playing
    played: dict[tuple, set] = {}                   # (slot, game) -> past selves seen
    act, end = c._act, c._end_game

    def recording(net, rows, twin=None):
        if net not in c.learners:
            for slot in rows:
                played.setdefault((int(slot), int(game[slot])), set()).add(id(net))
        return act(net, rows, twin)

    def ending(slot, rewards):
        game[slot] += 1
        end(slot, rewards)

    c._act, c._end_game = recording, ending
    for _ in range(30):
        c.collect(4)
        # After every rollout the pool loses its oldest past self and gains a new one.
        c.pool = [p[1:] + [ActorCritic(venv.obs_size, venv.num_actions, width)]
                  for p in c.pool]
    c.close()
    assert played and all(len(seen) == 1 for seen in played.values())


def test_with_vp_weight_a_finished_games_reward_adds_the_factions_margin():
    from agents.outcome import outcome

    c = collector()
    c.vp_weight = 0.5
    finals = []
    real_step = c.venv.step

    def spy(actions):
        out = real_step(actions)
        finals.extend(c.venv.final_vp[slot].tolist() for slot in np.flatnonzero(out[4]))
        return out

    c.venv.step = spy
    terminal = []
    while len(finals) < 3:
        c.collect(5)
        terminal += [(f, round(float(x), 5)) for f, r in enumerate(c.rollouts)
                     for x in r.reward[:r.n][r.terminal[:r.n]]]
    c.close()
    expected = sorted((f, round(w + 0.5 * m, 5)) for scores in finals for seat in range(4)
                      for f, (w, m) in [(seat >> 1, outcome(scores, seat))])
    assert sorted(terminal) == expected
    assert any(abs(x - round(x)) > 1e-6 for _, x in terminal)   # margins, not just wins
