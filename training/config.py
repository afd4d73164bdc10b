"""Training configuration: every hyper-parameter of a self-play run in one file.

A run is described by a TOML file (``training/configs/*.toml``); any key left out
takes the default below. The resolved configuration is written next to the
checkpoints so a run can be resumed and reproduced. The key ``algorithm`` picks the
kind of run (:func:`load_config`): ``"selfplay"`` (batched self-play on the vector env,
what the main job runs: :class:`training.ppo_config.SelfPlayConfig`), ``"dagger"``,
``"lookahead_value"``, ``"expert"`` (expert iteration), or ``"ppo"`` (the default when
the key is absent: SB3 MaskablePPO in alternating British / Malay phases,
:class:`TrainConfig`, defined here).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from .config_base import TrainConfigError, build, read_toml


#: The shipped configs: one per shipped network, and the demo's.
CONFIG_DIR = Path(__file__).parent / "configs"
PARTNERS = ("self", "frozen_self", "heuristic", "random")
ALGORITHMS = ("ppo", "expert", "selfplay", "dagger", "lookahead_value")


def load_config(path: str | Path | None = None, **overrides):
    """The config of a TOML file, by its ``algorithm`` key: a :class:`TrainConfig`
    (``"ppo"``, the default), an :class:`~training.expert_config.ExpertConfig`
    (``"expert"``), a :class:`~training.ppo_config.SelfPlayConfig` (``"selfplay"``) or a
    :class:`~training.dagger.DaggerConfig` (``"dagger"``) or a
    :class:`~training.lookahead_value.LookaheadValueConfig` (``"lookahead_value"``);
    ``overrides`` (None: not given) replace file values."""
    data = read_toml(path)
    algorithm = data.get("algorithm", "ppo")
    if algorithm not in ALGORITHMS:
        raise TrainConfigError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    if algorithm == "selfplay":
        from .ppo_config import load_selfplay_config

        return load_selfplay_config(path, **overrides)
    if algorithm == "dagger":
        from .dagger import load_dagger_config

        return load_dagger_config(path, **overrides)
    if algorithm == "lookahead_value":
        from .lookahead_value import load_lookahead_value_config

        return load_lookahead_value_config(path, **overrides)
    if algorithm == "expert":
        from .expert_config import ExpertConfig

        return build(ExpertConfig, data, overrides)
    data.pop("algorithm", None)
    return build(TrainConfig, data, overrides)


@dataclass
class TrainConfig:
    """Self-play: alternating British and Malay phases against a pool of opponents."""

    seed: int = 0                        # every seed of the run derives from it
    phases: int = 4                      # phase k trains British if k is even, else Malay
    timesteps_per_phase: int = 20_000    # env steps of the learning faction per phase
    n_envs: int = 4                      # parallel environments
    vec_env: str = "dummy"               # "dummy" (one process) or "subproc"
    reward_mode: str = "faction"         # env reward: "win", "vp_margin" or "faction"
    # Potential-based shaping from projected final VP (0 = off; see FactionEnv).
    shaping: float = 0.0
    slavery: bool = True                 # play with the slavery cards
    ruleset: str = "standard"            # a name of singapore_env.engine.config.RULESETS
    # Changes to the ruleset's numbers (any RulesConfig field), e.g. {war_cost = 6};
    # in TOML a [rules_changes] table.
    rules_changes: dict = field(default_factory=dict)
    # Folder of an edited copy of singapore_env/engine/data (cards and board); "" = shipped.
    data: str = ""

    # Opponents of the learning faction, one pair per episode: with this probability a
    # frozen past policy of the other faction (spread over the pool_size latest)...
    p_frozen: float = 0.3
    # ...with this one two heuristic players (else two random players).
    p_heuristic: float = 0.7
    pool_size: int = 5                   # frozen policies kept per faction
    frozen_greedy: bool = True           # frozen opponents play their most likely action
    # Faction mate of the learner: "self" (the learner plays both faction seats; team
    # reward), "frozen_self" (the learner's latest frozen policy; the heuristic until one
    # exists), "heuristic" or "random".
    partner: str = "self"

    learning_rate: float = 3e-4          # MaskablePPO: Adam learning rate
    n_steps: int = 512                   # MaskablePPO: steps per environment per update
    batch_size: int = 256                # MaskablePPO: minibatch size
    n_epochs: int = 4                    # MaskablePPO: passes per update
    gamma: float = 0.995                 # MaskablePPO: discount
    gae_lambda: float = 0.95             # MaskablePPO: GAE lambda
    clip_range: float = 0.2              # MaskablePPO: clipping
    ent_coef: float = 0.01               # MaskablePPO: entropy bonus
    vf_coef: float = 0.5                 # MaskablePPO: value loss weight
    # "mlp": SB3's MLP over the flat observation; "pointer": the action-aware policy of
    # training/pointer_policy.py (reads the per-action candidate features).
    policy: str = "mlp"
    embed_dim: int = 32                  # pointer policy: action and card embedding size
    # pointer policy: "heuristic" adds the heuristic's scores of the turn questions to the
    # candidate features (singapore_env/candidates.py, "Priors"); "" = no prior.
    candidate_prior: str = ""
    net_arch: list = field(default_factory=lambda: [256, 256])  # hidden layer sizes
    activation: str = "tanh"             # "tanh" or "relu"
    torch_threads: int = 1               # torch threads of the learner

    # Imitation stage (first phase of each faction, training/imitation.py): heuristic
    # games to clone (0 = none).
    bc_games: int = 0
    bc_epochs: int = 6                   # imitation: passes over the games
    bc_lr: float = 1e-3                  # imitation: Adam learning rate
    bc_batch_size: int = 256             # imitation: batch size
    bc_holdout: float = 0.1              # imitation: held-out share of the games
    dagger_rounds: int = 0               # imitation: DAgger rounds after cloning
    dagger_games: int = 100              # imitation: games per DAgger round

    # Evaluation after each phase (games per opponent kind, seat-swapped).
    eval_games: int = 40

    def __post_init__(self) -> None:
        if self.vec_env not in ("dummy", "subproc"):
            raise TrainConfigError(f"vec_env must be 'dummy' or 'subproc', got {self.vec_env!r}")
        if self.reward_mode not in ("win", "vp_margin", "faction"):
            raise TrainConfigError(f"unknown reward_mode {self.reward_mode!r}")
        from singapore_env.engine.config import RULESETS

        if self.ruleset not in RULESETS:
            raise TrainConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        self._check_rules()
        if self.partner not in PARTNERS:
            raise TrainConfigError(f"unknown partner {self.partner!r}; known: {', '.join(PARTNERS)}")
        if self.policy not in ("mlp", "pointer"):
            raise TrainConfigError(f"policy must be 'mlp' or 'pointer', got {self.policy!r}")
        from agents.priors import PRIORS

        if self.candidate_prior and (self.policy != "pointer"
                                     or self.candidate_prior not in PRIORS):
            raise TrainConfigError(f"candidate_prior must be '' or one of {list(PRIORS)} "
                                   f"(pointer policy only), got {self.candidate_prior!r}")
        if self.activation not in ("tanh", "relu"):
            raise TrainConfigError(f"unknown activation {self.activation!r}")
        if not (0 <= self.p_frozen <= 1 and 0 <= self.p_heuristic <= 1
                and self.p_frozen + self.p_heuristic <= 1):
            raise TrainConfigError("p_frozen and p_heuristic must be probabilities summing <= 1")
        for name in ("phases", "timesteps_per_phase", "n_envs", "n_steps", "batch_size",
                     "n_epochs", "pool_size", "torch_threads", "bc_epochs", "bc_batch_size", "embed_dim",
                     "dagger_games"):
            if getattr(self, name) < 1:
                raise TrainConfigError(f"{name} must be >= 1")
        if self.bc_games < 0 or self.dagger_rounds < 0:
            raise TrainConfigError("bc_games and dagger_rounds must be >= 0")
        if not (0 <= self.bc_holdout < 1 and self.bc_lr > 0):
            raise TrainConfigError("bc_holdout must be in [0, 1) and bc_lr > 0")

    @classmethod
    def load(cls, path: str | Path | None = None, **overrides) -> "TrainConfig":
        """Read a TOML file (or nothing) and apply keyword overrides."""
        return build(cls, read_toml(path), overrides)

    def _check_rules(self) -> None:
        from singapore_env.engine.config import ConfigError
        from singapore_env.engine.content import ContentError

        if not isinstance(self.rules_changes, dict):
            raise TrainConfigError(f"rules_changes must be a table, got {self.rules_changes!r}")
        try:
            self.rules()
            self.content()
        except (ConfigError, ContentError, TypeError) as exc:
            raise TrainConfigError(str(exc)) from None

    def rules(self):
        """The engine's :class:`~singapore_env.engine.config.RulesConfig` of this run."""
        from singapore_env.engine.config import RulesConfig

        return RulesConfig.named(self.ruleset, **{"slavery": self.slavery,
                                                  **self.rules_changes})

    def content(self):
        """The cards and board of this run: the edited data folder, or None (shipped)."""
        from singapore_env.engine.content import resolve_content

        if not self.data:
            return None
        resolve_content(self.data, self.slavery)  # validated now, not in a worker
        return self.data

    def imitation(self):
        """The imitation stage's settings (:class:`training.imitation.ImitationSettings`)."""
        from .imitation import ImitationSettings

        return ImitationSettings(self.bc_games, self.bc_epochs, self.bc_lr, self.bc_batch_size,
                                 self.bc_holdout, self.dagger_rounds, self.dagger_games)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True))
