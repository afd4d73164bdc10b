"""Learned decisions per second of the batched self-play trainer, next to ``env()``'s
random agent-steps per second and the SB3 pipeline's learner steps per second, measured
in the same run.

    nice .venv/bin/python benchmarks/bench_training.py [--seconds 60] [--config FILE]
    nice .venv/bin/python benchmarks/bench_training.py --minutes 60 --skip-sb3   # memory over an hour

Rates per second of this process's CPU time (``time.process_time``: other jobs on a
shared machine disturb it less than wall time), in this order: ``env()`` random play
(``--env-steps`` agent-steps, ``bench_env.play_aec``), the self-play trainer
(``--config``, default ``training/configs/selfplay.toml``: rollouts and PPO updates, no
evaluation, for ``--seconds`` after one warm-up update; with ``workers`` > 0 in the
config, wall time, its env processes included), the SB3 pipeline (MaskablePPO, MLP
[256, 256], 4 FactionEnvs in one process, random opponents: what ``train`` ran before
the batched trainer), then ``env()`` again (the table shows the mean of the two
``env()`` runs, which brackets the others on a machine whose load changes). The
trainer's resident memory (this process and its workers) is sampled after every
update: first, highest and last. A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.threads import limit_threads  # noqa: E402
from bench_env import play_aec  # noqa: E402
from singapore_env import env  # noqa: E402


def env_random(steps: int, seed: int = 0) -> float:
    """Agent-steps/s (CPU time) of uniformly random legal play through ``env()``."""
    seconds, n = play_aec(env(), steps, seed)
    return n / seconds


def _rss_mb() -> float:
    import psutil

    proc = psutil.Process()
    return sum(p.memory_info().rss for p in [proc, *proc.children(recursive=True)]) / 2**20


def selfplay(config: str, seconds: float, **overrides) -> dict:
    """Learned decisions/s of the batched trainer (no evaluation; ``overrides``: config
    keys replaced), the games finished and the decisions its search labelled, and its
    memory."""
    from training.config import load_config
    from training.loop.trainer import Trainer, learn

    cfg = load_config(config, **overrides)
    with tempfile.TemporaryDirectory() as out:
        trainer = Trainer(cfg, Path(out))
        collector = trainer.collector()
        try:
            stats: dict = {}
            learn(trainer, collector, stats)            # warm-up
            memory = [_rss_mb()]
            clock = time.process_time if cfg.workers == 0 else time.perf_counter
            search = collector.search
            searched = search.searched if search else 0
            collector.games_played = 0
            decisions, start, wall = 0, clock(), time.perf_counter()
            while time.perf_counter() - wall < seconds:
                decisions += learn(trainer, collector, stats)
                memory.append(_rss_mb())
            elapsed = clock() - start
            searched = search.searched - searched if search else 0
        finally:
            collector.venv.close()
    return {"rate": decisions / elapsed, "decisions": decisions, "seconds": elapsed,
            "memory_mb": (memory[0], max(memory), memory[-1]),
            "games": cfg.num_games, "workers": cfg.workers,
            "finished": collector.games_played, "searched": searched}


def profile(config: str, updates: int = 3) -> dict:
    """Where the trainer's time goes (cProfile, in one process: ``workers`` = 0):
    seconds of the engine, the observation encoding, the legal masks, the policy's
    forward passes with their compact rows, the PPO updates, and the rest."""
    import cProfile
    import pstats

    from training.config import load_config
    from training.loop.trainer import Trainer, learn

    cfg = load_config(config, workers=0)
    parts = {"engine (Game.step)": ("engine/game.py", "step"),
             "observation encoding": ("encoding/writer.py", "encode"),
             "legal masks": ("encoding/__init__.py", "legal_mask"),
             "policy forward passes (with compact rows)": ("loop/rollout.py", "_act"),
             "PPO update": ("loop/trainer.py", "ppo_update")}
    with tempfile.TemporaryDirectory() as out:
        trainer = Trainer(cfg, Path(out))
        collector = trainer.collector()
        learn(trainer, collector, {})
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(updates):
            learn(trainer, collector, {})
        prof.disable()
        collector.venv.close()
    stats = pstats.Stats(prof).stats
    total = sum(v[2] for v in stats.values())     # all own times
    cumulative = {}
    for name, (file, function) in parts.items():
        cumulative[name] = sum(v[3] for k, v in stats.items()
                               if Path(k[0]).as_posix().endswith("/" + file)
                               and k[2] == function)
    cumulative["rest (vector env bookkeeping, rollout, GAE)"] = total - sum(cumulative.values())
    return {name: seconds / total for name, seconds in cumulative.items()}


def sb3(seconds: float) -> float:
    """Learner steps/s of MaskablePPO on 4 FactionEnvs (the SB3 bridge)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from training.bridges.sb3 import make_env, make_model
    from training.config import TrainConfig

    cfg = TrainConfig(backend="sb3", league=["random"])
    vec = DummyVecEnv([lambda r=r: make_env(cfg, "british", [], r) for r in range(4)])
    model = make_model(cfg, vec, None, 0)
    model.learn(cfg.rollout_steps * 4)                            # warm-up: one update

    class Stop(BaseCallback):
        def _on_training_start(self) -> None:
            self.start, self.first = time.process_time(), self.model.num_timesteps
            self.wall = time.perf_counter()

        def _on_step(self) -> bool:
            return time.perf_counter() - self.wall < seconds

    stop = Stop()
    model.learn(10**9, callback=stop, reset_num_timesteps=False)
    return (model.num_timesteps - stop.first) / (time.process_time() - stop.start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0,
                        help="wall time of the trainer's and SB3's measurements")
    parser.add_argument("--env-steps", type=int, default=30_000,
                        help="agent-steps of each env() measurement")
    parser.add_argument("--minutes", type=float, help="the trainer's run alone, in minutes "
                        "(for memory over a long run; overrides --seconds for it)")
    parser.add_argument("--config", default="training/configs/selfplay.toml")
    parser.add_argument("--skip-sb3", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="only the profile: the shares of the trainer's time")
    args = parser.parse_args(argv)
    limit_threads()
    import torch

    torch.set_num_threads(1)
    if args.profile:
        for name, share in profile(args.config).items():
            print(f"{name:<46} {share:>6.1%}")
        return
    env_before = env_random(args.env_steps)
    ours = selfplay(args.config, args.minutes * 60 if args.minutes else args.seconds)
    sb3_rate = None if args.skip_sb3 else sb3(args.seconds)
    env_after = env_random(args.env_steps, seed=1)
    env_rate = (env_before + env_after) / 2
    print(f"{'path':<46} {'per second':>12} {'x env()':>8}")
    print(f"{'env() random agent-steps (before / after)':<46} {env_rate:>12,.0f} {1:>8.2f}"
          f"   ({env_before:,.0f} / {env_after:,.0f})")
    print(f"{'self-play PPO learned decisions':<46} {ours['rate']:>12,.0f} "
          f"{ours['rate'] / env_rate:>8.2f}   ({ours['decisions']:,} in {ours['seconds']:.0f} s,"
          f" {ours['games']} games, {ours['workers']} env workers)")
    if sb3_rate is not None:
        print(f"{'SB3 MaskablePPO learner steps':<46} {sb3_rate:>12,.0f} "
              f"{sb3_rate / env_rate:>8.2f}")
    first, top, last = ours["memory_mb"]
    print(f"trainer memory (MB): first {first:,.0f}, highest {top:,.0f}, last {last:,.0f}")


if __name__ == "__main__":
    main()
