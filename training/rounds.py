"""What the trainers that work in rounds share (``training/dagger.py``,
``training/lookahead_value.py``): the seed of a round's job, an output folder bound to
one configuration, jobs on processes, and the last round's networks published at the
top of the folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

import numpy as np

from singapore_env.engine.content import FACTIONS

from .config_base import TrainConfigError


def round_seed(seed: int, round_: int, faction: int) -> int:
    """The seed of one round's job for one faction, from ``(seed, round, faction)``."""
    return int(np.random.SeedSequence([seed, round_, faction]).generate_state(1)[0] >> 1)


def claim_out_dir(out: str | Path, config: dict) -> Path:
    """``out``, created, with ``config`` in its ``config.json``; TrainConfigError if it
    holds a run of another configuration."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    saved = out / "config.json"
    if saved.exists() and json.loads(saved.read_text()) != config:
        raise TrainConfigError(f"{out} holds a run of another configuration; use another --out")
    saved.write_text(json.dumps(config, indent=2, sort_keys=True))
    return out


def run_jobs(fn: Callable, jobs: list, workers: int) -> list:
    """``[fn(job) for job in jobs]``, on up to ``workers`` spawned processes."""
    import multiprocessing as mp

    if workers > 1 and len(jobs) > 1:
        with mp.get_context("spawn").Pool(min(workers, len(jobs))) as pool:
            return pool.map(fn, jobs)
    return [fn(job) for job in jobs]


def publish_last_round(out: Path, rounds: int, trained: bool) -> None:
    """Copy ``round{rounds}/{faction}.npz`` to ``out/{faction}.npz`` (again after new
    training; once otherwise)."""
    for name in FACTIONS:
        if trained or not (out / f"{name}.npz").exists():
            shutil.copyfile(out / f"round{rounds}" / f"{name}.npz", out / f"{name}.npz")
