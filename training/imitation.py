"""Imitation warm start: teach a fresh policy the heuristic's moves before self-play.

PPO from scratch learns slowly in a long game with ~1,000 actions. So the first phase
of each faction can start with behaviour cloning: the heuristic plays all four seats,
the faction's decisions are recorded as (observation, mask, action), and the policy's
masked action distribution is fitted to them by cross-entropy; the value head is fitted
to the faction's final result. Self-play then improves on that start.
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np

from agents.base import _encoder_for
from agents.heuristic import HeuristicAgent
from singapore_env.content import FACTIONS, SEAT_FACTION
from singapore_env.config import RulesConfig
from singapore_env.engine import Game
from singapore_env.rewards import rewards
from singapore_env.simulate import game_seeds


def collect(faction: str, n_games: int, seed: int, reward_mode: str = "faction",
            config: RulesConfig | None = None):
    """Heuristic self-play games: the faction's (observations, masks, actions, returns)."""
    fac = FACTIONS.index(faction)
    obs, masks, actions, returns = [], [], [], []
    agents = [HeuristicAgent() for _ in range(4)]
    for engine_seed, *agent_seeds in game_seeds(seed, n_games):
        for agent, s in zip(agents, agent_seeds):
            agent.reset(s)
        game = Game(engine_seed, config, keep_text_log=False)
        encoder = _encoder_for(game)
        seats_of_step = []
        while not game.is_over:
            seat = game.acting_seat
            decision = agents[seat].choose(game, seat)
            if SEAT_FACTION[seat] == fac:
                obs.append(encoder.encode(game, seat).copy())
                masks.append(encoder.legal_mask(game, seat).astype(bool))
                actions.append(encoder.table.index(decision))
                seats_of_step.append(seat)
            game.step(decision)
        final = rewards(game.final_scores, reward_mode)
        returns.extend(final[seat] for seat in seats_of_step)
    return (np.asarray(obs, np.float32), np.asarray(masks, bool),
            np.asarray(actions, np.int64), np.asarray(returns, np.float32))


def pretrain(model, faction: str, n_games: int, seed: int, epochs: int = 3,
             chunk_games: int = 50, batch_size: int = 256, reward_mode: str = "faction",
             config: RulesConfig | None = None,
             log: Callable[[str], None] = print) -> dict:
    """Fit ``model.policy`` (MaskablePPO) to the heuristic's decisions; return stats."""
    import torch

    policy = model.policy
    optimizer = policy.optimizer
    rng = np.random.default_rng(seed)
    threads = torch.get_num_threads()
    torch.set_num_threads(max(threads, os.cpu_count() or 1))  # nothing else runs meanwhile
    stats = {"samples": 0, "accuracy": 0.0, "loss": 0.0}
    for start in range(0, n_games, chunk_games):
        games = min(chunk_games, n_games - start)
        x, m, a, ret = collect(faction, games, seed * 7_919 + start, reward_mode, config)
        stats["samples"] += len(a)
        for _ in range(epochs):
            order = rng.permutation(len(a))
            correct, losses = 0, []
            for i in range(0, len(order), batch_size):
                idx = order[i:i + batch_size]
                xt = torch.as_tensor(x[idx])
                dist = policy.get_distribution(xt, action_masks=m[idx])
                at = torch.as_tensor(a[idx])
                nll = -dist.log_prob(at).mean()
                values = policy.predict_values(xt).flatten()
                v_loss = torch.nn.functional.mse_loss(values, torch.as_tensor(ret[idx]))
                loss = nll + 0.5 * v_loss
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                optimizer.step()
                losses.append(float(nll.detach()))
                with torch.no_grad():
                    correct += int((dist.distribution.probs.argmax(-1) == at).sum())
            stats["accuracy"] = correct / len(a)
            stats["loss"] = float(np.mean(losses))
        log(f"  imitation {faction}: {start + games}/{n_games} games, "
            f"{stats['samples']} samples, accuracy {stats['accuracy']:.1%}, "
            f"loss {stats['loss']:.3f}")
    torch.set_num_threads(threads)
    return stats
