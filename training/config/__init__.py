"""Training configuration: one :class:`TrainConfig` holds every setting of a training
run, one name per concept.

A run is described by a TOML file (``training/configs/*.toml``, which may start from
another with ``extends = "FILE"``); any key left out takes its default (a key's default
may depend on the kind of run: :data:`DEFAULTS`). The key ``backend`` picks the kind:
``"selfplay"`` (the default: the project's own trainer, batched self-play PPO on the
vector env, :mod:`training.loop`), ``"sb3"`` (the same vocabulary run by
Stable-Baselines3's MaskablePPO through ``FactionEnv``) or ``"rllib"`` (by RLlib's PPO):
:mod:`training.bridges`. A key the chosen kind does not read is refused (:data:`KEYS`),
and a value out of range too (:mod:`training.config.checks`). The resolved
configuration is written next to the checkpoints so a run can be resumed and
reproduced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from training.config.base import TrainConfigError, read_toml
from training.config.checks import check

#: The shipped configs: one per shipped network, the demo's and the bridges' examples.
CONFIG_DIR = Path(__file__).parents[1] / "configs"
#: The kinds of run: the project's own trainer, then the two bridges.
BACKENDS = ("selfplay", "sb3", "rllib")
#: Trainers retired from this project -> what replaced them (a config naming one is
#: refused with this pointer).
RETIRED = {"dagger": "a teacher's labels: teacher and imitation_games",
           "lookahead_value": "the value heads the loop trains with its networks",
           "expert": "the search in the loop: search_worlds"}

_PPO = ("learning_rate", "gamma", "gae_lambda", "clip_range", "epochs", "minibatch_size",
        "ent_coef", "vf_coef", "max_grad_norm")
_EVERY_RUN = ("seed", "ruleset", "num_games", "rollout_steps", "total_decisions", "hidden",
              "activation", *_PPO, "eval_games")
#: Kind of run (``backend``) -> the keys it reads (besides ``backend``).
KEYS: dict[str, tuple[str, ...]] = {
    "selfplay": (*_EVERY_RUN, "engine", "workers", "network", "embed_dim", "init",
                 "teacher", "imitation_games", "imitation_epochs", "past_self_share",
                 "pool_every", "pool_size", "pfsp_power", "league", "league_share",
                 "search_worlds", "search_after", "target_temperature", "vp_weight",
                 "eval_every", "checkpoint_every_s"),
    "sb3": (*_EVERY_RUN, "reward_mode", "past_self_share", "pool_every", "pool_size",
            "league"),
    "rllib": (*_EVERY_RUN, "reward_mode", "workers", "checkpoint_every_s"),
}
#: Key -> its default by kind of run, for the keys whose default depends on it (their
#: field's default is None: "the kind's default").
DEFAULTS: dict[str, dict[str, object]] = {
    "epochs": {"selfplay": 2, "sb3": 4, "rllib": 4},
    "minibatch_size": {"selfplay": 1024, "sb3": 256, "rllib": 256},
    "gamma": {"selfplay": 1.0, "sb3": 0.995, "rllib": 0.995},
    "eval_games": {"selfplay": 20, "sb3": 20, "rllib": 20},
    "workers": {"selfplay": 0, "rllib": 2},
    "num_games": {"selfplay": 64, "sb3": 4, "rllib": 2},
    "rollout_steps": {"selfplay": 64, "sb3": 512, "rllib": 2000},
    "pool_size": {"selfplay": 8, "sb3": 5},
    "pool_every": {"selfplay": 20, "sb3": 10},
    "past_self_share": {"selfplay": 0.2, "sb3": 0.3},
    "league": {"selfplay": [], "sb3": ["heuristic"]},
}


def load_config(path: str | Path | None = None, **overrides) -> "TrainConfig":
    """The :class:`TrainConfig` of a TOML file (None: every default); ``overrides``
    (None: not given) replace file values. A key unknown, or not read by the run the
    config picks, is a :class:`TrainConfigError` naming it."""
    return build(read_toml(path), overrides)


def build(data: dict, overrides: dict | None = None) -> "TrainConfig":
    """``TrainConfig(**data)`` with the non-None ``overrides`` applied; an unknown key,
    or one the chosen kind of run does not read, is a TrainConfigError naming it."""
    data = {**data, **{k: v for k, v in (overrides or {}).items() if v is not None}}
    if "algorithm" in data:
        retired = RETIRED.get(str(data["algorithm"]))
        raise TrainConfigError(
            "the key 'algorithm' is gone: the project has one trainer, backend = "
            "\"selfplay\"" + (f" (the {data['algorithm']!r} trainer was retired; its "
                                f"role: {retired}; docs/training.md)" if retired else ""))
    known = {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TrainConfigError(f"unknown training config keys {unknown}; known: {sorted(known)}")
    kind = run_kind(data.get("backend", "selfplay"))
    unread = sorted(set(data) - set(KEYS[kind]) - {"backend"})
    if unread:
        raise TrainConfigError(f"a run of kind {kind!r} does not read the keys {unread}; it reads "
                               f"{sorted(KEYS[kind])}")
    try:
        return TrainConfig(**data)
    except TypeError as exc:  # a value of the wrong type met a comparison
        raise TrainConfigError(f"a value of the wrong type in the training config: {exc}") \
            from None


def run_kind(backend: str) -> str:
    """The kind of run of ``backend``: a key of :data:`KEYS`."""
    if backend == "native":  # the name of the project's own trainers before there was one
        raise TrainConfigError("backend 'native' is gone: the project has one trainer, "
                               "backend = \"selfplay\" (docs/training.md)")
    if backend not in BACKENDS:
        raise TrainConfigError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    return backend


@dataclass
class TrainConfig:
    """Every setting of a training run. ``backend`` picks the kind of run, which reads
    only its own keys (a key set that it does not read is refused); some defaults
    depend on the kind of run."""

    # How the run trains: "selfplay" (the project's own trainer: batched self-play PPO,
    # training/loop/), "sb3" (SB3 MaskablePPO through FactionEnv) or "rllib" (RLlib's PPO).
    backend: str = "selfplay"

    # ---------------------------------------------------------------- every run
    seed: int = 0  # every seed of the run derives from it
    ruleset: str = "standard"  # a name of singapore_env.engine.config.RULESETS
    # Processes playing the games (selfplay: stepping them over shared memory, 0: the
    # trainer's own; rllib: its env runners, 0: the driver samples; the results do not
    # depend on it).
    workers: int | None = None
    # Evaluation games: selfplay's seat-swapped seeds against random and heuristic
    # players and the mirror at each evaluation; sb3's after each phase and rllib's at
    # the end, per faction against random and heuristic players.
    eval_games: int | None = None

    # ---------------------------------------------------------------- the games
    engine: str = "python"  # the training games' engine: "python" or "native" (the same games, faster)
    num_games: int | None = None  # games played at once (the vector env's slots, SB3's environments, RLlib's over all its env runners)
    rollout_steps: int | None = None  # steps of every game per rollout; a rollout makes one PPO update (per faction)
    total_decisions: int = 0  # stop after this many learned decisions (0: only --seconds stops)
    reward_mode: str = "faction"  # sb3, rllib: the env's reward, "win", "vp_margin" or "faction" (singapore_env.env)

    # ---------------------------------------------------------------- the network
    network: str = "flat"  # "flat" (a logit per action) or "pointer" (scores each legal action from its features)
    hidden: list = field(default_factory=lambda: [256, 256])  # hidden widths (selfplay: the first layer is sparse)
    embed_dim: int = 32  # pointer network: width of the actions' keys and the state's query (action and card embeddings)
    activation: str = "tanh"  # "tanh" or "relu"
    # A folder with british.npz / malay.npz of the same shape to start from, flat or
    # pointer actors ("": random weights).
    init: str = ""

    # ---------------------------------------------------------------- the optimizer
    learning_rate: float = 3e-4  # Adam's step size
    epochs: int | None = None  # passes over a rollout's rows per update
    minibatch_size: int | None = None  # decisions per gradient step
    gamma: float | None = None  # discount (1: the win at the end counts in full)
    gae_lambda: float = 0.95  # GAE's lambda
    clip_range: float = 0.2  # PPO's clipped ratio
    ent_coef: float = 0.01  # entropy bonus
    vf_coef: float = 0.5  # weight of the value loss
    max_grad_norm: float = 0.5  # gradient norm clipped to this

    # ---------------------------------------------------------------- the opponents
    # Chance that a game gives one faction (drawn) to a frozen past self (sb3: the
    # opponent pair of the learning faction, once a past self exists).
    past_self_share: float | None = None
    pool_size: int | None = None  # past selves kept per faction (the oldest leaves)
    # A copy of each learner joins the pool every this many updates (sb3: a phase, one
    # faction learning against the other's past selves, is this many updates).
    pool_every: int | None = None
    pfsp_power: float = 0.0  # past selves drawn by their win share against the learner to this power (0: uniformly)
    league: list | None = None  # agent specs that may play one faction of a game (e.g. ["random"]; sb3: the opponents when no past self plays)
    league_share: float = 0.0  # chance that a new game gives one faction (drawn) to a league agent (drawn)

    # ---------------------------------------------------------------- a teacher's labels
    teacher: str = "heuristic"  # agent spec imitated before the first update (with imitation_games)
    imitation_games: int = 0  # games of the teacher to imitate before the first update (0: none; flat network)
    imitation_epochs: int = 8  # passes over the teacher's decisions

    # ---------------------------------------------------------------- the search
    # The learners' moves at the main Action question are chosen by the lookahead over
    # their own networks (training/loop/search.py), each proposal scored in this many
    # sampled worlds, and learned as its improved policy; 0: no search.
    search_worlds: int = 0
    # With search_worlds: the learners play without the search until they have learned
    # from this many decisions (their value heads must first know what a position is
    # worth: from random weights the search's verdicts teach too little).
    search_after: int = 0
    # With search_worlds: a looked-ahead question is learned as the softmax of the
    # compared answers' scores over this temperature (the search's improved policy).
    target_temperature: float = 0.0
    # A finished game's reward is the faction's win share plus this times its VP margin
    # (agents.outcome: best VP minus the other side's best, over 20, within +-1); the
    # value heads learn the same sum, and the lookahead over them scores with it.
    vp_weight: float = 0.0

    # ---------------------------------------------------------------- bookkeeping
    eval_every: int = 500_000  # learned decisions between evaluations (also at each invocation's start and end)
    checkpoint_every_s: float = 120.0  # seconds between checkpoints (and one at the end)

    def __post_init__(self) -> None:
        for name, by_kind in DEFAULTS.items():
            if getattr(self, name) is None and self.kind in by_kind:
                value = by_kind[self.kind]
                setattr(self, name, list(value) if isinstance(value, list) else value)
        check(self)

    @property
    def kind(self) -> str:
        """The kind of run: ``backend``."""
        return run_kind(self.backend)

    # ---------------------------------------------------------------- derived
    def rules(self):
        """The engine's :class:`~singapore_env.engine.config.RulesConfig` of this run."""
        from singapore_env.engine.config import RulesConfig

        return RulesConfig.named(self.ruleset)

    def layout_meta(self) -> dict:
        """The meta entries that record the observation layout of this run's rules in
        the networks it saves (:func:`agents.net_layout.layout_meta`)."""
        from agents.net_layout import layout_meta

        return layout_meta(None, self.rules())

    def env_config(self) -> dict:
        """The keyword arguments of the RLlib env (:class:`training.bridges.rllib_env.RllibSingaporeEnv`)."""
        return {"ruleset": self.ruleset, "reward_mode": self.reward_mode}

    # ---------------------------------------------------------------- files
    def to_dict(self) -> dict:
        """The keys this run reads (with ``backend``) and their values: what
        ``config.json`` holds."""
        return {"backend": self.backend, **{k: getattr(self, k) for k in KEYS[self.kind]}}

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True))
