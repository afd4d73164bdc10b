"""The RLlib bridge (``backend = "rllib"``): PPO on RLlib (new API stack), a British
and a Malay policy playing each other.

    singapore-1819 train --config training/configs/rllib.toml --out runs/rllib --seconds 60
    singapore-1819 evaluate --british learned:runs/rllib/british.npz --malay random

The env is :class:`training.bridges.rllib_env.RllibSingaporeEnv` (the AEC env in RLlib's
multi-agent API); the four seats map to two policies by faction
(:func:`training.bridges.rllib_env.policy_of`); each policy is RLlib's action-masking PPO
RLModule (``ActionMaskingTorchRLModule``, shipped with RLlib: the mask adds ``log 0``
to the logits of illegal actions, so they are never sampled and get no gradient).
Sampling runs on ``workers`` Ray processes (RLlib's env runners; 0: the driver samples),
which play ``num_games`` games at once between them; learning runs in the driver, an
iteration (one PPO update) on ``num_games`` x ``rollout_steps`` env steps (all four
seats' decisions). Iterations run until ``total_decisions`` env steps or ``seconds`` of
wall time from the first one (an iteration that would end past it, lasting as long as
the last one, is not started), with a checkpoint every ``checkpoint_every_s``
seconds and at the end (``OUT/checkpoint``; a run started again on the same folder
resumes from it). Then each policy's actor is exported to the project's numpy actor
(``OUT/british.npz``, ``OUT/malay.npz``), which plays as ``learned:PATH`` with no Ray
and no torch, and is evaluated against random players over ``eval_games`` seeds.
``OUT/progress.csv`` holds env steps and steps per second by iteration. Needs the
``rllib`` extra.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from agents.learned import NumpyPolicy
from agents.threads import limit_threads
from arena.runner import connect_ray

from training.bridges.export import mlp_actor_from_torch
from training.bridges.rllib_env import POLICIES, RllibSingaporeEnv, policy_of
from training.bridges.run import Deadline, open_run
from training.config import TrainConfig
from training.progress import append_progress, read_progress

PROGRESS_FIELDS = ["iteration", "env_steps", "seconds", "env_steps_per_s"]


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
                         num_envs_per_env_runner=max(1, cfg.num_games // max(cfg.workers, 1)),
                         num_cpus_per_env_runner=1)
            .training(train_batch_size_per_learner=cfg.num_games * cfg.rollout_steps,
                      minibatch_size=cfg.minibatch_size, num_epochs=cfg.epochs,
                      lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda,
                      clip_param=cfg.clip_range, entropy_coeff=cfg.ent_coef,
                      vf_loss_coeff=cfg.vf_coef, grad_clip=cfg.max_grad_norm)
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


def train_rllib(cfg: TrainConfig, out: str | Path, seconds: float | None = None,
                ray_address: str | None = None, log: Callable[[str], None] = print) -> dict:
    """Train (or continue) the run in ``out`` until ``total_decisions`` env steps or
    ``seconds`` of wall time, on the Ray cluster at ``ray_address`` (None: a local one
    started and shut down here); returns the run's summary: paths of the exported
    actors, iterations, this invocation's progress rows and the win rates against
    random."""
    out = open_run(cfg, out, seconds)
    import ray

    started = not ray.is_initialized()  # a cluster started here is shut down at the end
    connect_ray(ray_address or "local",
                **({} if ray_address else {"num_cpus": max(2, cfg.workers + 1)}))
    try:
        summary = _run(cfg, out, seconds, log)
    finally:
        if started:
            ray.shutdown()
    summary["vs_random"] = evaluate_vs_random(summary["policies"], cfg)
    for faction, rate in summary["vs_random"].items():
        log(f"{faction} vs random: {100 * rate['rate']:.1f}% "
            f"[{100 * rate['ci95'][0]:.1f}, {100 * rate['ci95'][1]:.1f}]")
    return summary


def _run(cfg: TrainConfig, out: Path, seconds: float | None, log) -> dict:
    limit_threads()  # the learner in this process: one torch thread, as SB3 training
    algo = build_config(cfg).build_algo()
    ckpt = out.resolve() / "checkpoint"  # RLlib's checkpoint writer wants an absolute path
    try:
        if ckpt.exists():
            algo.restore_from_path(str(ckpt))
            log(f"resumed from {ckpt} (iteration {algo.iteration})")
        rows = _iterate(algo, cfg, ckpt, out / "progress.csv", Deadline(seconds), log)
        algo.save_to_path(str(ckpt))
        paths = export_policies(algo, out, {"ruleset": cfg.ruleset, "seed": cfg.seed,
                                            **cfg.layout_meta()})
    finally:
        algo.stop()
    return {"policies": paths, "iterations": algo.iteration, "progress": rows}


def _iterate(algo, cfg: TrainConfig, ckpt: Path, progress: Path, deadline: Deadline,
             log) -> list[dict]:
    """Train iterations until a bound, each one a progress row; checkpoint on the way.
    An iteration that would end past the deadline (if it lasts as long as the last one)
    is not started."""
    rows: list[dict] = []
    before = read_progress(progress)
    steps = int(before[-1]["env_steps"]) if before else 0
    saved = time.perf_counter()
    seconds = 0.0
    while not deadline.passed(ahead=seconds) and not (cfg.total_decisions
                                                      and steps >= cfg.total_decisions):
        start = time.perf_counter()
        result = algo.train()
        seconds = time.perf_counter() - start
        # RLlib's step counter lags an iteration on a fresh start: no rate until two
        # readings differ
        now = max(_env_steps(result), steps)
        rate = (now - steps) / seconds if now > steps else None
        steps = now
        row = {"iteration": algo.iteration, "env_steps": steps, "seconds": round(seconds, 3),
               "env_steps_per_s": "" if rate is None else round(rate, 1)}
        append_progress(progress, PROGRESS_FIELDS, row)
        rows.append(row)
        log(f"iteration {row['iteration']}: {steps} env steps"
            + ("" if rate is None else f", {rate:.1f} steps/s"))
        if time.perf_counter() - saved >= cfg.checkpoint_every_s:
            algo.save_to_path(str(ckpt))
            saved = time.perf_counter()
    return rows


def evaluate_vs_random(paths: dict[str, Path], cfg: TrainConfig) -> dict:
    """Each exported policy on both seats of its faction against two random players,
    over ``eval_games`` seeds."""
    from agents.learned import LearnedAgent
    from agents.random_agent import RandomAgent

    from arena.evaluate import faction_win_rate

    return {faction: faction_win_rate(faction, LearnedAgent.load(paths[policy]),
                                      RandomAgent(cfg.seed), cfg.eval_games,
                                      seed=cfg.seed, config=cfg.rules())
            for faction, policy in zip(("british", "malay"), POLICIES)}
