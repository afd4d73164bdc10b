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

    seed: int = 0  # seed of the training games, the networks and the evaluation seeds
    ruleset: str = "standard"  # the rules the games are played by
    engine: str = "python"  # the training games' engine: "python" or "native" (the same games, faster)
    num_games: int = 64  # games in lockstep (the vector env's slots)
    workers: int = 0  # processes stepping the games over shared memory (0: the trainer's own)
    rollout_steps: int = 64  # steps of every game per rollout; a rollout makes one PPO update per faction
    total_decisions: int = 0  # stop after this many learned decisions (0: only --seconds stops)
    network: str = "flat"  # "flat" (a logit per action) or "pointer" (scores each legal action from its features)
    hidden: list = field(default_factory=lambda: [256, 256])  # hidden widths; the first layer is sparse
    embed_dim: int = 32  # pointer network: width of the actions' keys and the state's query
    activation: str = "tanh"  # "tanh" or "relu"
    init: str = ""  # warm start: a folder with british.npz / malay.npz of the same shape, flat or pointer actors ("": random)
    teacher: str = "heuristic"  # the agent spec imitated before the first update (with imitation_games)
    imitation_games: int = 0  # games of the teacher to imitate (0: no imitation)
    imitation_epochs: int = 8  # passes over the teacher's decisions
    learning_rate: float = 3e-4  # Adam's step size
    gamma: float = 1.0  # discount (1: the win at the end counts in full)
    gae_lambda: float = 0.95  # GAE's lambda
    clip_range: float = 0.2  # PPO's clipped ratio
    epochs: int = 2  # passes over a rollout per update
    minibatch_size: int = 1024  # decisions per gradient step
    ent_coef: float = 0.01  # entropy bonus
    vf_coef: float = 0.5  # weight of the value loss
    max_grad_norm: float = 0.5  # gradient norm clipped to this
    past_self_share: float = 0.2  # chance that a new game gives one faction (drawn) to a frozen past self
    pool_every: int = 20  # a copy of each learner joins the pool every this many updates
    pool_size: int = 8  # past selves kept per faction (the oldest leaves)
    pfsp_power: float = 0.0  # past selves drawn by their win share against the learner to this power (0: uniformly)
    league: list = field(default_factory=list)  # agent specs that may play one faction of a game (e.g. ["random"])
    league_share: float = 0.0  # chance that a new game gives one faction (drawn) to a league agent (drawn)
    eval_every: int = 500_000  # learned decisions between evaluations (also at each invocation's start and end)
    eval_games: int = 20  # seeds per evaluation, seat-swapped, against random and heuristic, and the mirror
    checkpoint_every_s: float = 120.0  # seconds between checkpoints (and one at the end)

    def __post_init__(self) -> None:
        from singapore_env.engine.config import RULESETS
        from singapore_env.vector import ENGINES

        if self.ruleset not in RULESETS:
            raise TrainConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        if self.engine not in ENGINES:
            raise TrainConfigError(f"unknown engine {self.engine!r}; known: {', '.join(ENGINES)}")
        if self.engine == "native":
            from singapore_env.native import NativeUnavailable, require

            try:
                require()
            except NativeUnavailable as exc:
                raise TrainConfigError(f"engine = \"native\": {exc}; or set "
                                       f"engine = \"python\" (the same games, slower)") from None
        if self.network not in ("flat", "pointer"):
            raise TrainConfigError(f"network must be 'flat' or 'pointer', got {self.network!r}")
        if self.network == "pointer":
            if self.engine == "python" and self.workers > 1:
                raise TrainConfigError("network = \"pointer\" reads the candidate features "
                                       "of the games in this process: engine = \"native\", "
                                       "or workers = 0")
            if self.imitation_games:
                raise TrainConfigError("imitation_games warm-starts the flat network only "
                                       "(network = \"flat\"); the pointer network starts "
                                       "from a pointer actor with init")
        self._check_league()
        if self.activation not in ("tanh", "relu"):
            raise TrainConfigError(f"activation must be 'tanh' or 'relu', got {self.activation!r}")
        if (not isinstance(self.hidden, list) or not self.hidden
                or not all(isinstance(h, int) and h > 0 for h in self.hidden)):
            raise TrainConfigError(f"hidden must be a list of positive widths, got {self.hidden!r}")
        for name in ("num_games", "rollout_steps", "epochs", "minibatch_size", "pool_every",
                     "pool_size", "eval_every", "eval_games", "embed_dim"):
            if getattr(self, name) < 1:
                raise TrainConfigError(f"{name} must be >= 1, got {getattr(self, name)}")
        for name in ("workers", "total_decisions", "seed", "imitation_games",
                     "imitation_epochs"):
            if getattr(self, name) < 0:
                raise TrainConfigError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not (0 <= self.past_self_share <= 1 and 0 <= self.gamma <= 1
                and 0 <= self.gae_lambda <= 1 and 0 <= self.league_share <= 1):
            raise TrainConfigError("past_self_share, league_share, gamma and gae_lambda "
                                   "must be in [0, 1]")
        if self.past_self_share + self.league_share > 1:
            raise TrainConfigError("past_self_share + league_share must be at most 1")
        if not self.pfsp_power >= 0:
            raise TrainConfigError(f"pfsp_power must be >= 0, got {self.pfsp_power}")
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

    def _check_league(self) -> None:
        """Every league spec names an agent (one that plays native games on the native
        engine); a league share needs a league."""
        from agents.registry import make_agent

        if not isinstance(self.league, list) or not all(isinstance(x, str) for x in self.league):
            raise TrainConfigError(f"league must be a list of agent specs, got {self.league!r}")
        if self.league_share and not self.league:
            raise TrainConfigError("league_share > 0 needs agent specs in league")
        for spec in self.league:
            try:
                agent = make_agent(spec)
            except (ValueError, FileNotFoundError) as exc:
                raise TrainConfigError(f"league: {exc}") from None
            if self.engine == "native" and not agent.plays_native:
                raise TrainConfigError(f"league: {spec!r} does not play native games; "
                                       f"engine = \"python\" plays it")

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)
