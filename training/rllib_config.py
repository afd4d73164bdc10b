"""The configuration of an RLlib run (``train --backend rllib``): one TOML file, every
missing key a default below (``training/configs/rllib.toml``). No Ray import here."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from .config_base import TrainConfigError, build, read_toml


@dataclass
class RllibConfig:
    """PPO on RLlib's new API stack: two policies (British, Malay) playing each other."""

    seed: int = 0                        # every seed of the run derives from it
    iterations: int = 20                 # training iterations (one train batch each)
    num_env_runners: int = 2             # sampling processes (0: the driver samples)
    num_envs_per_env_runner: int = 1     # environments per sampling process
    reward_mode: str = "faction"         # env reward: "win", "vp_margin" or "faction"
    ruleset: str = "standard"            # a name of singapore_env.engine.config.RULESETS
    slavery: bool = True                 # play with the slavery cards
    train_batch_size: int = 4000         # PPO: env steps per iteration (all four seats)
    minibatch_size: int = 256            # PPO: minibatch size
    num_epochs: int = 4                  # PPO: passes per iteration
    lr: float = 3e-4                     # PPO: Adam learning rate
    gamma: float = 0.995                 # PPO: discount
    lambda_: float = 0.95                # PPO: GAE lambda
    clip_param: float = 0.2              # PPO: clipping
    entropy_coeff: float = 0.01          # PPO: entropy bonus
    vf_loss_coeff: float = 0.5           # PPO: value loss weight
    # The actor's and the critic's hidden layers (separate MLPs; the actor is exported
    # to numpy).
    fcnet_hiddens: list = field(default_factory=lambda: [256, 256])
    fcnet_activation: str = "tanh"       # "tanh" or "relu" (what the numpy actor runs)
    checkpoint_every: int = 5            # iterations between checkpoints (and the last)
    eval_games: int = 20                 # games per faction against random at the end

    def __post_init__(self) -> None:
        from singapore_env.engine.config import RULESETS

        if self.ruleset not in RULESETS:
            raise TrainConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        if self.reward_mode not in ("win", "vp_margin", "faction"):
            raise TrainConfigError(f"unknown reward_mode {self.reward_mode!r}")
        if self.fcnet_activation not in ("tanh", "relu"):
            raise TrainConfigError(f"fcnet_activation must be 'tanh' or 'relu', got "
                                   f"{self.fcnet_activation!r}")
        for name in ("iterations", "num_envs_per_env_runner", "train_batch_size",
                     "minibatch_size", "num_epochs", "checkpoint_every"):
            if getattr(self, name) < 1:
                raise TrainConfigError(f"{name} must be >= 1")
        if self.num_env_runners < 0 or self.eval_games < 0 or not self.fcnet_hiddens:
            raise TrainConfigError("num_env_runners and eval_games must be >= 0 and "
                                   "fcnet_hiddens non-empty")

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides) -> "RllibConfig":
        """Read a TOML file (or nothing) and apply keyword overrides."""
        return build(cls, read_toml(path), overrides)

    def env_config(self) -> dict:
        """The keyword arguments of the env (:class:`training.rllib_env.RllibSingaporeEnv`)."""
        return {"ruleset": self.ruleset, "slavery": self.slavery,
                "reward_mode": self.reward_mode}

    def save(self, path: str | Path) -> None:
        """The resolved configuration as JSON."""
        Path(path).write_text(json.dumps(dataclasses.asdict(self), indent=2, sort_keys=True))
