"""The Stable-Baselines3 bridge (``backend = "sb3"``): a British and a Malay MaskablePPO
policy (an MLP over the observation) trained in turns through ``FactionEnv``.

    singapore-1819 train --config training/configs/sb3.toml --out runs/sb3 --seconds 60

Phase ``k`` trains the British policy if ``k`` is even, the Malay one otherwise:
``pool_every`` PPO updates, each of ``num_games`` envs (one process, ``DummyVecEnv``)
times ``rollout_steps`` steps of the learner, which plays both seats of its faction.
Each episode draws one opponent pair (both opponent seats played alike): with chance
``past_self_share``, once one exists, a frozen past self of the other faction (one of
its ``pool_size`` latest, playing its most likely action), else an agent of ``league``.
At the end of a phase the learner's copy joins its faction's pool. The reward is the
env's ``reward_mode``; numpy and torch run on one thread.

The run stops after ``total_decisions`` learner decisions over all phases (0: no bound)
or ``seconds`` of wall time (checked at every step: the phase ends early and keeps the
updates it made). Outputs in ``out``:

- ``config.json``, the run's configuration;
- ``checkpoints/{faction}.zip``, the latest SB3 model of each faction (to resume: a
  run started again on the same folder continues with the next phase), and
  ``checkpoints/{faction}_phase{k}.npz``, the pool of past selves;
- ``ppo/phase{k}_{faction}/progress.csv``, SB3's own log of the updates (losses,
  entropy, KL, clip fraction, explained variance);
- ``progress.csv``, one row per phase: updates, decisions, wall time, and the win rates
  against random and heuristic players over ``eval_games`` seeds with 95 % intervals;
- ``british.npz`` / ``malay.npz``, the latest policy of each faction (numpy actors that
  ``learned:PATH`` plays); a faction that has not trained yet (time ran out in phase 0)
  gets its untrained policy, so that both exist.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import numpy as np

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from agents.learned import LearnedAgent, NumpyPolicy
from agents.random_agent import RandomAgent
from agents.registry import make_agent
from agents.threads import limit_threads
from arena.evaluate import faction_win_rate
from singapore_env.engine.content import FACTIONS

from training.bridges.export import actor_from_sb3
from training.bridges.run import Deadline, open_run
from training.config import TrainConfig
from training.progress import append_progress, read_progress

PROGRESS_FIELDS = ["phase", "faction", "updates", "faction_decisions", "total_decisions",
                   "seconds", "win_vs_random", "win_vs_random_low", "win_vs_random_high",
                   "win_vs_heuristic", "win_vs_heuristic_low", "win_vs_heuristic_high"]


class PoolAgent(Agent):
    """An opponent pair that draws its player at every episode: one of ``past`` with
    chance ``past_share`` when there is one, else one of ``league``. The env re-seeds
    it at every reset, which is when it draws."""

    name = "pool"

    def __init__(self, past: list[Agent], league: list[Agent], past_share: float,
                 seed: int | None = None):
        self.past, self.league, self.past_share = past, league, past_share
        self.rng = np.random.default_rng(seed)
        self.current: Agent = league[0]

    def networks(self) -> list:
        """The networks of every player it may draw."""
        return [net for agent in self.past + self.league for net in agent.networks()]

    def reset(self, seed: int | None = None) -> None:
        """Draw the next episode's player."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        group = self.past if self.past and self.rng.random() < self.past_share else self.league
        self.current = group[int(self.rng.integers(len(group)))]
        self.current.reset(int(self.rng.integers(2**31)))

    def choose(self, game, seat):
        """The drawn player's decision."""
        return self.current.choose(game, seat)


def pool_paths(ckpt: Path, faction: str) -> list[Path]:
    """The past selves of ``faction`` in ``ckpt``, oldest first."""
    return sorted(ckpt.glob(f"{faction}_phase*.npz"),
                  key=lambda p: int(p.stem.rsplit("phase", 1)[1]))


def make_env(cfg: TrainConfig, faction: str, past: list[NumpyPolicy], seed: int):
    """One training env: the learner on both seats of ``faction``, the opponents a
    :class:`PoolAgent` of ``past`` (the other faction's past selves) and the league."""
    from arena.faction_env import FactionEnv

    opponents = PoolAgent([LearnedAgent(p, deterministic=True) for p in past],
                          [make_agent(spec) for spec in cfg.league], cfg.past_self_share,
                          seed)
    return FactionEnv(faction=faction, seats="both", opponents=opponents, seed=seed,
                      reward_mode=cfg.reward_mode, config=cfg.rules())


def make_model(cfg: TrainConfig, vec_env, ckpt: Path | None, seed: int):
    """The MaskablePPO model of a faction: the one saved at ``ckpt`` if there is one,
    else a new one of the configured shape."""
    import torch
    from sb3_contrib import MaskablePPO

    if ckpt is not None and ckpt.exists():
        return MaskablePPO.load(ckpt, env=vec_env, device="cpu")
    activation = torch.nn.Tanh if cfg.activation == "tanh" else torch.nn.ReLU
    return MaskablePPO(
        "MlpPolicy", vec_env, learning_rate=cfg.learning_rate, n_steps=cfg.rollout_steps,
        batch_size=cfg.minibatch_size, n_epochs=cfg.epochs, gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda, clip_range=cfg.clip_range, ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef, max_grad_norm=cfg.max_grad_norm, seed=seed, device="cpu",
        verbose=0, policy_kwargs={"net_arch": list(cfg.hidden), "activation_fn": activation})


def _watch(deadline: Deadline, bar):
    """An SB3 callback that stops learning at the deadline, counts the finished
    rollouts (each one is then learned: an update) and moves the progress bar."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Watch(BaseCallback):
        updates = 0

        def _on_step(self) -> bool:
            if bar is not None:
                bar.update(self.training_env.num_envs)
            return not deadline.passed()

        def _on_rollout_end(self) -> None:
            self.updates += 1

    return Watch()


def train(cfg: TrainConfig, out_dir: str | Path, seconds: float | None = None,
          progress: bool = True, log: Callable[[str], None] = print) -> Path:
    """Train (or continue) the run in ``out_dir`` until ``total_decisions`` or
    ``seconds`` of wall time; return the folder."""
    from tqdm import tqdm

    out = open_run(cfg, out_dir, seconds)
    limit_threads(1)
    ckpt = out / "checkpoints"
    ckpt.mkdir(exist_ok=True)
    rows = read_progress(out / "progress.csv")
    if rows:
        log(f"resuming {out} after phase {rows[-1]['phase']} "
            f"({int(rows[-1]['total_decisions']):,} decisions)")
    deadline = Deadline(seconds)
    done = int(rows[-1]["total_decisions"]) if rows else 0
    bar = tqdm(total=cfg.total_decisions or None, initial=done, unit="dec", desc="sb3",
               disable=not progress, mininterval=1.0)
    started = time.perf_counter() - (float(rows[-1]["seconds"]) if rows else 0.0)
    while not deadline.passed() and not (cfg.total_decisions and done >= cfg.total_decisions):
        row = _phase(cfg, out, len(rows), rows, deadline, bar, started)
        if row is None:  # the time ran out before the phase's first update
            break
        rows.append(row)
        done = row["total_decisions"]
        log(f"phase {row['phase']} {row['faction']}: {row['updates']} updates, "
            f"{row['faction_decisions']:,} decisions, vs random {row['win_vs_random']:.0%}, "
            f"vs heuristic {row['win_vs_heuristic']:.0%}")
    bar.close()
    for faction in FACTIONS:
        if not (out / f"{faction}.npz").exists():
            _untrained(cfg, faction).save(out / f"{faction}.npz")
            log(f"{faction} has not trained yet (the time ran out in phase 0): "
                f"{out}/{faction}.npz is its untrained policy")
    return out


def _phase(cfg: TrainConfig, out: Path, phase: int, rows: list[dict], deadline: Deadline,
           bar, started: float) -> dict | None:
    """Run phase ``phase``: its progress row, None if it made no update."""
    from stable_baselines3.common.logger import configure as configure_logger
    from stable_baselines3.common.vec_env import DummyVecEnv

    faction, other = FACTIONS[phase % 2], FACTIONS[1 - phase % 2]
    ckpt = out / "checkpoints"
    past = [NumpyPolicy.load(p) for p in pool_paths(ckpt, other)]
    seed = cfg.seed * 1_000_003 + phase * 1009
    vec = DummyVecEnv([lambda rank=rank: make_env(cfg, faction, past, seed + rank)
                       for rank in range(cfg.num_games)])
    model = make_model(cfg, vec, ckpt / f"{faction}.zip", cfg.seed + phase)
    model.set_logger(configure_logger(str(out / "ppo" / f"phase{phase}_{faction}"), ["csv"]))
    batch = cfg.num_games * cfg.rollout_steps
    done = int(rows[-1]["total_decisions"]) if rows else 0
    updates = cfg.pool_every
    if cfg.total_decisions:
        updates = min(updates, -(-(cfg.total_decisions - done) // batch))
    watch = _watch(deadline, bar)
    model.learn(updates * batch, reset_num_timesteps=False, callback=watch)
    vec.close()
    if not watch.updates:
        return None
    model.save(ckpt / f"{faction}.zip")
    policy = actor_from_sb3(model.policy, meta={"backend": "sb3", "faction": faction,
                                                "phase": phase, **cfg.layout_meta()})
    policy.save(out / f"{faction}.npz")
    policy.save(ckpt / f"{faction}_phase{phase}.npz")
    for old in pool_paths(ckpt, faction)[:-cfg.pool_size]:
        old.unlink()
    decisions = watch.updates * batch
    before = [int(r["faction_decisions"]) for r in rows if r["faction"] == faction]
    row: dict = {"phase": phase, "faction": faction, "updates": watch.updates,
                 "faction_decisions": (before[-1] if before else 0) + decisions,
                 "total_decisions": done + decisions,
                 "seconds": round(time.perf_counter() - started, 1)}
    learner = LearnedAgent(policy)
    for name, opponent in (("random", RandomAgent()), ("heuristic", HeuristicAgent())):
        rate = faction_win_rate(faction, learner, opponent, cfg.eval_games,
                                cfg.seed * 7919 + phase, cfg.rules())
        row[f"win_vs_{name}"] = round(rate["rate"], 4)
        row[f"win_vs_{name}_low"], row[f"win_vs_{name}_high"] = (
            round(x, 4) for x in rate["ci95"])
    append_progress(out / "progress.csv", PROGRESS_FIELDS, row)
    return row


def _untrained(cfg: TrainConfig, faction: str) -> NumpyPolicy:
    """The policy a new model of ``faction`` starts with (the seed of its first phase)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    phase = FACTIONS.index(faction)
    vec = DummyVecEnv([lambda: make_env(cfg, faction, [], cfg.seed)])
    model = make_model(cfg, vec, None, cfg.seed + phase)
    vec.close()
    return actor_from_sb3(model.policy, meta={"backend": "sb3", "faction": faction,
                                              "phase": "untrained", **cfg.layout_meta()})
