"""The configuration of the batched self-play PPO trainer (``algorithm = "selfplay"``,
:mod:`training.ppo_trainer`): every key, its default and its meaning."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

from .config_base import TrainConfigError, build, read_toml

ALGORITHM = "selfplay"


def load_selfplay_config(path: str | Path | None = None, **overrides) -> "SelfPlayConfig":
    """The :class:`SelfPlayConfig` of a TOML file (its ``algorithm`` key must be
    ``"selfplay"``); ``overrides`` (None: not given) replace file values."""
    data = read_toml(path)
    if data.pop("algorithm", ALGORITHM) != ALGORITHM:
        raise TrainConfigError(f"{path}: not a self-play config (algorithm = \"{ALGORITHM}\")")
    return build(SelfPlayConfig, data, overrides)


@dataclass
class SelfPlayConfig:
    """British and Malay learn at once, against each other and a pool of past selves."""

    seed: int = 0
    ruleset: str = "standard"
    # Games in lockstep and the processes stepping them (0: in the trainer's process).
    num_games: int = 64
    workers: int = 0
    # Steps of every game per rollout; each faction's decisions of a rollout make one
    # PPO update. Stop after total_decisions learned decisions (0: only --seconds).
    rollout_steps: int = 64
    total_decisions: int = 0
    # Network: sparse first layer of hidden[0] units, then the other hidden layers.
    hidden: list = field(default_factory=lambda: [256, 256])
    activation: str = "tanh"
    # Warm start: a folder with british.npz / malay.npz of the same shape ("" = random),
    # or imitation of a teacher (an agent spec) on imitation_games games before the first
    # update (training/ppo_imitation.py; 0 = none; its processes: max(workers, 1)).
    init: str = ""
    teacher: str = "heuristic"
    imitation_games: int = 0
    imitation_epochs: int = 8
    # PPO
    learning_rate: float = 3e-4
    gamma: float = 1.0
    gae_lambda: float = 0.95
    clip_range: float = 0.2
    epochs: int = 2
    minibatch_size: int = 1024
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    # Past selves: a game gives one faction (drawn) to a frozen past self with this
    # probability; a copy of each learner joins the pool every pool_every updates
    # (the oldest leaves beyond pool_size).
    past_self_share: float = 0.2
    pool_every: int = 20
    pool_size: int = 8
    # Evaluation every eval_every learned decisions (and at the start and the end of
    # each invocation): eval_games seeds, seat-swapped, against random and heuristic
    # (and the heuristic mirror, once).
    eval_every: int = 500_000
    eval_games: int = 20
    checkpoint_every_s: float = 120.0

    def __post_init__(self) -> None:
        from singapore_env.engine.config import RULESETS

        if self.ruleset not in RULESETS:
            raise TrainConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        if self.activation not in ("tanh", "relu"):
            raise TrainConfigError(f"activation must be 'tanh' or 'relu', got {self.activation!r}")
        if (not isinstance(self.hidden, list) or not self.hidden
                or not all(isinstance(h, int) and h > 0 for h in self.hidden)):
            raise TrainConfigError(f"hidden must be a list of positive widths, got {self.hidden!r}")
        for name in ("num_games", "rollout_steps", "epochs", "minibatch_size", "pool_every",
                     "pool_size", "eval_every", "eval_games"):
            if getattr(self, name) < 1:
                raise TrainConfigError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("workers", "total_decisions", "seed", "imitation_games",
                     "imitation_epochs"):
            if getattr(self, name) < 0:
                raise TrainConfigError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not (0 <= self.past_self_share <= 1 and 0 <= self.gamma <= 1
                and 0 <= self.gae_lambda <= 1):
            raise TrainConfigError("past_self_share, gamma and gae_lambda must be in [0, 1]")
        if not (self.learning_rate > 0 and self.clip_range > 0 and self.max_grad_norm > 0
                and self.checkpoint_every_s > 0):
            raise TrainConfigError("learning_rate, clip_range, max_grad_norm and "
                                   "checkpoint_every_s must be > 0")
        if self.init and self.imitation_games:
            raise TrainConfigError("give init or imitation_games, not both")
        if self.imitation_games:
            from agents.registry import make_agent

            try:
                make_agent(self.teacher)
            except (ValueError, FileNotFoundError) as exc:
                raise TrainConfigError(f"teacher: {exc}") from None
        if self.init and not all((Path(self.init) / f"{f}.npz").exists()
                                 for f in ("british", "malay")):
            raise TrainConfigError(f"init: {self.init} must hold british.npz and malay.npz")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
