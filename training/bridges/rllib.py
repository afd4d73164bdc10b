"""PPO on RLlib (new API stack): a British and a Malay policy playing each other.

    singapore-1819 train --backend rllib --config training/configs/rllib.toml --out runs/rllib
    singapore-1819 evaluate --british learned:runs/rllib/british.npz --malay random

The env is :class:`training.bridges.rllib_env.RllibSingaporeEnv` (the AEC env in RLlib's
multi-agent API); the four seats map to two policies by faction
(:func:`training.bridges.rllib_env.policy_of`); each policy is RLlib's action-masking PPO
RLModule (``ActionMaskingTorchRLModule``, shipped with RLlib: the mask adds ``log 0``
to the logits of illegal actions, so they are never sampled and get no gradient).
Sampling runs on ``num_env_runners`` Ray processes, learning in the driver. After
``iterations`` iterations (a checkpoint every ``checkpoint_every`` and at the end, in
``OUT/checkpoint``; a run started again on the same folder resumes from it), each
policy's actor is exported to the project's numpy actor (``OUT/british.npz``,
``OUT/malay.npz``), which plays as ``learned:PATH`` with no Ray and no torch, and is
evaluated against random players. ``OUT/progress.csv`` holds env steps and steps per
second by iteration. Needs the ``rllib`` extra.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path
from typing import Callable

from agents.learned import NumpyPolicy
from agents.threads import limit_threads
from arena.runner import connect_ray

from training.bridges.export import mlp_actor_from_torch
from training.config import TrainConfig
from training.bridges.rllib_env import POLICIES, RllibSingaporeEnv, policy_of


def build_config(cfg: TrainConfig):
    """The RLlib ``PPOConfig`` of a run."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule)

    model = {"fcnet_hiddens": list(cfg.hidden),
             "fcnet_activation": cfg.activation,
             "head_fcnet_hiddens": [], "vf_share_layers": False}
    modules = {p: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model)
               for p in POLICIES}
    return (PPOConfig()
            # RLlib's env check steps unmasked random actions: the env refuses those
            .environment(RllibSingaporeEnv, env_config=cfg.env_config(),
                         disable_env_checking=True)
            .multi_agent(policies=set(POLICIES), policy_mapping_fn=policy_of)
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
            .env_runners(num_env_runners=cfg.workers,
                         num_envs_per_env_runner=cfg.games_per_worker,
                         num_cpus_per_env_runner=1)
            .training(train_batch_size_per_learner=cfg.train_batch_size,
                      minibatch_size=cfg.minibatch_size, num_epochs=cfg.epochs,
                      lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda,
                      clip_param=cfg.clip_range, entropy_coeff=cfg.ent_coef,
                      vf_loss_coeff=cfg.vf_coef)
            .debugging(seed=cfg.seed, log_level="ERROR"))


def actor_of(module, meta: dict | None = None) -> NumpyPolicy:
    """The numpy actor of a PPO RLModule with separate actor and critic MLPs: the
    actor encoder's layers, then the policy head."""
    return mlp_actor_from_torch([module.encoder.actor_encoder, module.pi], meta)


def export_policies(algo, out_dir: Path, meta: dict | None = None) -> dict[str, Path]:
    """Each trained policy as a numpy actor file ``OUT/<policy>.npz``."""
    paths = {}
    for policy in POLICIES:
        path = out_dir / f"{policy}.npz"
        actor_of(algo.get_module(policy), {**(meta or {}), "policy": policy,
                                           "backend": "rllib"}).save(path)
        paths[policy] = path
    return paths


def _env_steps(result: dict) -> int:
    runners = result.get("env_runners", {})
    return int(runners.get("num_env_steps_sampled_lifetime", 0)
               or result.get("num_env_steps_sampled_lifetime", 0))


def train_rllib(cfg: TrainConfig, out_dir: str | Path, ray_address: str | None = None,
                log: Callable[[str], None] = print) -> dict:
    """Run (or resume) the configured training; returns the run's summary: paths of
    the exported actors, env steps, steps per second and the win rates against random."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    cfg.save(out / "config.json")
    import ray

    started = not ray.is_initialized()  # a cluster started here is shut down at the end
    connect_ray(ray_address or "local",
                **({} if ray_address else {"num_cpus": max(2, cfg.workers + 1)}))
    try:
        summary = _run(cfg, out, log)
    finally:
        if started:
            ray.shutdown()
    if cfg.eval_games:
        summary["vs_random"] = evaluate_vs_random(summary["policies"], cfg)
        for faction, rate in summary["vs_random"].items():
            log(f"{faction} vs random: {100 * rate['rate']:.1f}% "
                f"[{100 * rate['ci95'][0]:.1f}, {100 * rate['ci95'][1]:.1f}]")
    return summary


def _run(cfg: TrainConfig, out: Path, log) -> dict:
    limit_threads()  # the learner in this process: one torch thread, as SB3 training
    algo = build_config(cfg).build_algo()
    ckpt = out.resolve() / "checkpoint"  # RLlib's checkpoint writer wants an absolute path
    try:
        if ckpt.exists():
            algo.restore_from_path(str(ckpt))
            log(f"resumed from {ckpt} (iteration {algo.iteration})")
        rows = _iterate(algo, cfg, ckpt, out / "progress.csv", log)
        algo.save_to_path(str(ckpt))
        paths = export_policies(algo, out, {"ruleset": cfg.ruleset, "seed": cfg.seed,
                                               **cfg.layout_meta()})
    finally:
        algo.stop()
    return {"policies": paths, "iterations": algo.iteration, "progress": rows}


def _iterate(algo, cfg: TrainConfig, ckpt: Path, progress: Path, log) -> list[dict]:
    rows = []
    new_file = not progress.exists()
    with progress.open("a", newline="") as fh:
        writer = csv.DictWriter(fh, ["iteration", "env_steps", "seconds", "env_steps_per_s"])
        if new_file:
            writer.writeheader()
        steps_before = None
        while algo.iteration < cfg.iterations:
            start = time.perf_counter()
            result = algo.train()
            seconds = time.perf_counter() - start
            steps = _env_steps(result)
            # RLlib's step counter lags an iteration on a fresh start: no rate until
            # two readings differ
            rate = ((steps - steps_before) / seconds
                    if steps_before is not None and steps > steps_before else None)
            steps_before = steps
            row = {"iteration": algo.iteration, "env_steps": steps,
                   "seconds": round(seconds, 3),
                   "env_steps_per_s": "" if rate is None else round(rate, 1)}
            writer.writerow(row)
            fh.flush()
            rows.append(row)
            log(f"iteration {row['iteration']}: {steps} env steps"
                + ("" if rate is None else f", {rate:.1f} steps/s"))
            if algo.iteration % cfg.checkpoint_every == 0:
                algo.save_to_path(str(ckpt))
    return rows


def evaluate_vs_random(paths: dict[str, Path], cfg: TrainConfig) -> dict:
    """Each exported policy on both seats of its faction against two random players."""
    from agents.learned import LearnedAgent
    from agents.random_agent import RandomAgent
    from singapore_env.engine.config import RulesConfig

    from arena.evaluate import faction_win_rate

    rules = RulesConfig.named(cfg.ruleset, slavery=cfg.slavery)
    return {faction: faction_win_rate(faction, LearnedAgent.load(paths[policy]),
                                      RandomAgent(cfg.seed), cfg.eval_games,
                                      seed=cfg.seed, config=rules)
            for faction, policy in zip(("british", "malay"), POLICIES)}
