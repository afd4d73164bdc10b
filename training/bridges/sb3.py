"""Self-play training: a British and a Malay MaskablePPO policy, trained in turns.

Phase ``k`` trains the British policy if ``k`` is even, the Malay policy otherwise,
for ``timesteps_per_phase`` steps of its own decisions. Each episode of a phase draws
one opponent *pair* (both opponent seats played alike): two heuristics, or a frozen past
policy of the other faction (the ``pool_size`` latest checkpoints), or random players,
in the configured mix, so that training faces what evaluation faces. The learner plays
both seats of its faction by default (``partner = "self"``). With ``imitation_games`` the first
phase of each faction starts with the imitation stage (:mod:`training.imitation`).
Every process runs numpy and torch on ``torch_threads`` (one) thread
(:func:`agents.threads.limit_threads`).

Outputs in ``out_dir``:
- ``config.json`` — the resolved :class:`~training.config.TrainConfig`;
- ``checkpoints/{faction}_phase{k}.zip`` (SB3, to resume) and ``.npz`` (numpy actor);
- ``imitation_{faction}.json`` — held-out agreement with the heuristic per round, and
  ``checkpoints/{faction}_imitation.npz``, the policy after the imitation stage;
- ``ppo/phase{k}_{faction}/progress.csv`` — SB3's own log of the PPO updates (losses,
  entropy, KL, clip fraction, explained variance), one row per rollout;
- ``progress.csv`` — one row per phase: timesteps, wall time, win rates vs random and
  vs heuristic with 95 % intervals (the learning curve);
- ``british.npz`` / ``malay.npz`` — the latest policy of each faction.

A run resumes from the last finished phase when started again on the same folder.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent, NumpyPolicy
from agents.random_agent import RandomAgent
from agents.threads import limit_threads
from arena.evaluate import faction_win_rate
from singapore_env.engine.content import FACTIONS

from training.config import TrainConfig
from training.bridges.export import actor_from_sb3
from training.progress import append_progress, read_progress

PROGRESS_FIELDS = ["phase", "faction", "faction_timesteps", "total_timesteps", "seconds",
                   "win_vs_random", "win_vs_random_low", "win_vs_random_high",
                   "win_vs_heuristic", "win_vs_heuristic_low", "win_vs_heuristic_high"]


class PoolAgent(Agent):
    """An opponent seat that draws a new player from a pool at every episode.

    ``choices`` are ``(weight, factory)`` pairs; a factory returns an Agent. The env
    re-seeds it at every reset, which is when the next player is drawn.
    """

    name = "pool"

    def __init__(self, choices: list[tuple[float, Callable[[], Agent]]], seed: int | None = None):
        total = sum(w for w, _ in choices if w > 0)
        self.choices = [(w / total, f) for w, f in choices if w > 0]
        self.rng = np.random.default_rng(seed)
        self.current: Agent = self.choices[0][1]()

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        weights = [w for w, _ in self.choices]
        _, factory = self.choices[int(self.rng.choice(len(self.choices), p=weights))]
        self.current = factory()
        self.current.reset(int(self.rng.integers(2**31)))

    def choose(self, game, seat):
        return self.current.choose(game, seat)


@dataclass
class Pools:
    """Frozen policies per faction (newest last)."""

    british: list[NumpyPolicy]
    malay: list[NumpyPolicy]

    def of(self, faction: str) -> list[NumpyPolicy]:
        return self.british if faction == "british" else self.malay


def opponent_pool(cfg: TrainConfig, frozen: list[NumpyPolicy], seed: int) -> PoolAgent:
    """The opponents of one env: a pair drawn per episode (both opponent seats are
    played by the same player): a frozen policy, the heuristic or random play."""
    choices: list[tuple[float, Callable[[], Agent]]] = []
    p_frozen = cfg.past_self_share if frozen else 0.0
    for policy in frozen:
        choices.append((p_frozen / len(frozen), lambda policy=policy: LearnedAgent(
            policy, deterministic=cfg.frozen_greedy)))
    p_heuristic = cfg.heuristic_share if frozen else cfg.heuristic_share + cfg.past_self_share
    choices.append((p_heuristic, HeuristicAgent))
    choices.append((max(0.0, 1.0 - p_frozen - p_heuristic), RandomAgent))
    return PoolAgent(choices, seed)


def partner_of(cfg: TrainConfig, own: list[NumpyPolicy]) -> Agent | None:
    """The learner's faction mate (``None`` when the learner plays both seats)."""
    if cfg.partner == "self":
        return None
    if cfg.partner == "frozen_self" and own:
        return LearnedAgent(own[-1], deterministic=cfg.frozen_greedy)
    if cfg.partner == "random":
        return RandomAgent()
    return HeuristicAgent()


def make_env_fn(cfg: TrainConfig, faction: str, pools: Pools, rank: int, phase: int):
    """A picklable factory of one training env (for Dummy/SubprocVecEnv)."""
    other = "malay" if faction == "british" else "british"
    frozen = pools.of(other)[-cfg.pool_size:]
    own = pools.of(faction)
    seed = cfg.seed * 1_000_003 + phase * 1009 + rank

    def _init():
        from arena.faction_env import FactionEnv

        limit_threads(cfg.torch_threads)
        partner = partner_of(cfg, own)
        return FactionEnv(faction=faction, seats="both" if partner is None else "one",
                          opponents=opponent_pool(cfg, frozen, seed * 7), partner=partner,
                          seed=seed, reward_mode=cfg.reward_mode, config=cfg.rules(),
                          candidates=cfg.network == "pointer",
                          candidate_prior=cfg.candidate_prior or None, shaping=cfg.shaping,
                          shaping_gamma=cfg.gamma, content=cfg.content())

    return _init


def _load_pools(ckpt_dir: Path, phases_done: int) -> Pools:
    pools = Pools([], [])
    for k in range(phases_done):
        faction = FACTIONS[k % 2]
        path = ckpt_dir / f"{faction}_phase{k}.npz"
        if path.exists():
            pools.of(faction).append(NumpyPolicy.load(path))
    return pools


def _make_model(cfg: TrainConfig, vec_env, resume: Path | None, seed: int):
    import torch
    from sb3_contrib import MaskablePPO

    if resume is not None and resume.exists():
        return MaskablePPO.load(resume, env=vec_env, device="cpu")
    activation = torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU
    policy_kwargs = {"net_arch": list(cfg.hidden), "activation_fn": activation}
    policy = "MlpPolicy"
    if cfg.network == "pointer":
        from .pointer_policy import PointerPolicy

        policy, policy_kwargs["embed_dim"] = PointerPolicy, cfg.embed_dim
        policy_kwargs["candidate_prior"] = cfg.candidate_prior or None
    return MaskablePPO(
        policy, vec_env, learning_rate=cfg.learning_rate, n_steps=cfg.rollout_steps,
        batch_size=cfg.minibatch_size, n_epochs=cfg.epochs, gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef, seed=seed, device="cpu", verbose=0, policy_kwargs=policy_kwargs)


def _progress_callback(bar):
    from stable_baselines3.common.callbacks import BaseCallback

    class _Bar(BaseCallback):
        def _on_step(self) -> bool:
            bar.update(self.training_env.num_envs)
            return True

    return _Bar()


def train(cfg: TrainConfig, out_dir: str | Path, progress: bool = True,
          log: Callable[[str], None] = print) -> Path:
    """Run (or resume) the self-play loop; return the output folder."""
    from stable_baselines3.common.logger import configure as configure_logger
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    from tqdm import tqdm

    limit_threads(cfg.torch_threads)
    out = Path(out_dir)
    ckpt_dir = out / "checkpoints"
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    cfg.save(out / "config.json")
    progress_path = out / "progress.csv"
    rows = read_progress(progress_path)
    done = len(rows)
    if done:
        log(f"resuming after phase {done - 1} ({progress_path})")
    pools = _load_pools(ckpt_dir, done)
    totals = {f: max([int(r["faction_timesteps"]) for r in rows if r["faction"] == f] or [0])
              for f in FACTIONS}
    start = time.time() - (float(rows[-1]["seconds"]) if rows else 0.0)

    for phase in range(done, cfg.phases):
        faction = FACTIONS[phase % 2]
        fns = [make_env_fn(cfg, faction, pools, rank, phase) for rank in range(cfg.num_games)]
        vec = SubprocVecEnv(fns) if cfg.vec_env == "subproc" else DummyVecEnv(fns)
        previous = [k for k in range(phase) if k % 2 == phase % 2]
        resume = ckpt_dir / f"{faction}_phase{previous[-1]}.zip" if previous else None
        model = _make_model(cfg, vec, resume, cfg.seed + phase)
        model.set_logger(configure_logger(str(out / "ppo" / f"phase{phase}_{faction}"), ["csv"]))
        if resume is None and cfg.imitation_games:
            from .imitation import pretrain

            stats = pretrain(model, faction, cfg.imitation(), cfg.seed + phase,
                             reward_mode=cfg.reward_mode, config=cfg.rules(), log=log,
                             content=cfg.content())
            (out / f"imitation_{faction}.json").write_text(json.dumps(stats, indent=2))
            actor_from_sb3(model.policy, meta={"faction": faction, "phase": "imitation",
                                              **cfg.layout_meta()}).save(
                ckpt_dir / f"{faction}_imitation.npz")
        bar = tqdm(total=cfg.timesteps_per_phase, desc=f"phase {phase} {faction}",
                   disable=None if progress else True, unit="step")
        model.learn(cfg.timesteps_per_phase, reset_num_timesteps=False,
                    callback=_progress_callback(bar))
        bar.close()
        vec.close()
        stem = ckpt_dir / f"{faction}_phase{phase}"
        model.save(stem.with_suffix(".zip"))
        policy = actor_from_sb3(model.policy, meta={"faction": faction, "phase": phase,
                                                    **cfg.layout_meta()})
        policy.save(stem.with_suffix(".npz"))
        policy.save(out / f"{faction}.npz")
        pools.of(faction).append(policy)
        totals[faction] += cfg.timesteps_per_phase

        learner = LearnedAgent(policy)
        seed = cfg.seed * 7919 + phase
        vs_random = faction_win_rate(faction, learner, RandomAgent(), cfg.eval_games, seed,
                                     cfg.rules(), cfg.content())
        vs_heur = faction_win_rate(faction, learner, HeuristicAgent(), cfg.eval_games, seed,
                                   cfg.rules(), cfg.content())
        row = {"phase": phase, "faction": faction, "faction_timesteps": totals[faction],
               "total_timesteps": sum(totals.values()),
               "seconds": round(time.time() - start, 1),
               "win_vs_random": round(vs_random["rate"], 4),
               "win_vs_random_low": round(vs_random["ci95"][0], 4),
               "win_vs_random_high": round(vs_random["ci95"][1], 4),
               "win_vs_heuristic": round(vs_heur["rate"], 4),
               "win_vs_heuristic_low": round(vs_heur["ci95"][0], 4),
               "win_vs_heuristic_high": round(vs_heur["ci95"][1], 4)}
        append_progress(progress_path, PROGRESS_FIELDS, row)
        log(f"phase {phase} {faction}: {totals[faction]} steps, "
            f"vs random {row['win_vs_random']:.0%}, vs heuristic {row['win_vs_heuristic']:.0%}")
    return out
