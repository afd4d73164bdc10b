"""Env steps per second of the RLlib pipeline with 1 and 2 env runners, next to the SB3
pipeline, on this machine.

    python benchmarks/bench_rllib.py --steps 4000 --runners 1 2

For each runner count: a local Ray cluster, the PPO algorithm of
``training/configs/rllib.toml`` (network and batch as configured), one warm-up
iteration, then ``--iterations`` timed iterations. Printed per count: *sampling*
env steps/s (the env runners alone, ``EnvRunnerGroup.sample`` of ``--steps`` steps, all
four seats' decisions) and *training* env steps/s (whole iterations: sampling and the
PPO update in the driver). The SB3 figure is learner steps/s of the SB3 bridge,
``training.bridges.sb3.train`` (MaskablePPO, MLP, 4 ``DummyVecEnv`` envs against random
players; one learner step is one decision of the learning faction, the opponents'
decisions run inside the env).
The load average is printed: the figures are only comparable on an idle machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from training.config import TrainConfig, load_config  # noqa: E402


def rllib_rates(cfg: TrainConfig, runners: int, steps: int, iterations: int) -> dict:
    """Sampling and training env steps/s with ``runners`` env runners."""
    import ray

    from agents.threads import limit_threads
    from training.bridges.rllib import _env_steps, build_config

    limit_threads()
    cfg = dataclasses.replace(cfg, workers=runners)
    ray.init(num_cpus=max(2, runners + 1), include_dashboard=False, log_to_driver=False)
    try:
        algo = build_config(cfg).build_algo()
        algo.train()  # warm up: actors, first weights
        group = algo.env_runner_group
        start = time.perf_counter()
        episodes = group.foreach_env_runner(
            lambda r: r.sample(num_timesteps=steps // max(1, runners)),
            local_env_runner=runners == 0)
        sample_s = time.perf_counter() - start
        sampled = sum(e.env_steps() for batch in episodes for e in batch)
        before, start = _env_steps(algo.train()), time.perf_counter()
        for _ in range(iterations - 1):
            after = _env_steps(algo.train())
        train_s = time.perf_counter() - start
        algo.stop()
    finally:
        ray.shutdown()
    return {"sampling": sampled / sample_s,
            "training": (after - before) / train_s if iterations > 1 else float("nan")}


def sb3_rate(timesteps: int) -> float:
    """Learner steps/s of the SB3 bridge (one phase against random players)."""
    from training.bridges.sb3 import train

    cfg = TrainConfig(backend="sb3", total_decisions=timesteps, num_games=4,
                      rollout_steps=256, minibatch_size=256, pool_every=10**6,
                      eval_games=1, league=["random"])
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        train(cfg, out, progress=False, log=lambda *_: None)
        return timesteps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "training/configs/rllib.toml"))
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--sb3-steps", type=int, default=4096)
    args = parser.parse_args()
    cfg = load_config(args.config)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    rates = {n: rllib_rates(cfg, n, args.steps, args.iterations) for n in args.runners}
    for n, rate in rates.items():
        print(f"rllib, {n} env runner(s): sampling {rate['sampling']:.0f} env steps/s, "
              f"training {rate['training']:.0f} env steps/s")
    if len(rates) > 1:
        one, last = rates[args.runners[0]], rates[args.runners[-1]]
        print(f"speed-up {args.runners[-1]} vs {args.runners[0]}: sampling "
              f"{last['sampling'] / one['sampling']:.2f}x, training "
              f"{last['training'] / one['training']:.2f}x")
    if args.sb3_steps:
        print(f"sb3 (MaskablePPO, 4 envs): {sb3_rate(args.sb3_steps):.0f} learner steps/s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
