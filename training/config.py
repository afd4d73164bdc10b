"""Training configuration: one :class:`TrainConfig` holds every setting of every kind
of run, one name per concept.

A run is described by a TOML file (``training/configs/*.toml``); any key left out takes
its default (a key's default may depend on the kind of run: :data:`DEFAULTS`). The key
``backend`` picks how a run trains: ``"native"`` (the default: the project's own
trainers, its key ``algorithm`` picking one: ``"selfplay"`` (the default: batched
self-play on the vector env, what the main job runs), ``"dagger"``,
``"lookahead_value"`` or ``"expert"`` (expert iteration)), ``"sb3"`` (SB3 MaskablePPO
in alternating British / Malay phases through ``FactionEnv``) or ``"rllib"`` (PPO on
RLlib). A key the chosen kind of run does not read is refused (:data:`KEYS`), and a
value out of range too (:mod:`training.config_checks`). The resolved configuration is
written next to the checkpoints so a run can be resumed and reproduced.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from singapore_env.engine.content import FACTIONS

from .config_base import TrainConfigError, read_toml
from .config_checks import check

#: The shipped configs: one per shipped network, and the demo's.
CONFIG_DIR = Path(__file__).parent / "configs"
BACKENDS = ("native", "sb3", "rllib")
#: The algorithms of the native backend.
ALGORITHMS = ("selfplay", "dagger", "lookahead_value", "expert")

_PPO = ("learning_rate", "gamma", "gae_lambda", "clip_range", "epochs", "minibatch_size",
        "ent_coef", "vf_coef")
#: Kind of run (``backend``, or the native backend's ``algorithm``) -> the keys it reads
#: (besides ``backend``, and ``algorithm`` on the native backend).
KEYS: dict[str, tuple[str, ...]] = {
    "selfplay": ("seed", "ruleset", "engine", "num_games", "workers", "rollout_steps",
                 "total_decisions", "network", "hidden", "embed_dim", "activation", "init",
                 "teacher", "imitation_games", "imitation_epochs", *_PPO, "max_grad_norm",
                 "past_self_share", "pool_every", "pool_size", "pfsp_power", "league",
                 "league_share", "search_worlds", "search_after", "target_temperature",
                 "vp_weight", "eval_every", "eval_games", "checkpoint_every_s"),
    "dagger": ("seed", "ruleset", "init", "teacher", "iterations", "games", "beta",
               "target_temperature", "epochs", "learning_rate", "minibatch_size", "workers"),
    "lookahead_value": ("seed", "student", "init", "iterations", "games", "job_games",
                        "explore", "lookahead_rollout", "epochs", "learning_rate",
                        "minibatch_size", "workers"),
    "expert": ("seed", "iterations", "ruleset", "slavery", "factions", "games_per_iteration",
               "workers", "ray", "play", "search", "value_in_search", "value_gate", "init",
               "hidden", "embed_dim", "value_hidden", "buffer_iterations", "train_from",
               "epochs", "learning_rate", "minibatch_size", "distilled", "advantage_scale",
               "rerank_margin", "eval_games"),
    "sb3": ("seed", "phases", "timesteps_per_phase", "num_games", "vec_env", "reward_mode",
            "shaping", "slavery", "ruleset", "rules_changes", "data", "past_self_share",
            "heuristic_share", "pool_size", "frozen_greedy", "partner", *_PPO,
            "rollout_steps", "network", "embed_dim", "candidate_prior", "hidden",
            "activation", "torch_threads", "imitation_games", "imitation_epochs",
            "imitation_learning_rate", "imitation_minibatch_size", "imitation_holdout",
            "dagger_rounds", "dagger_games", "eval_games"),
    "rllib": ("seed", "iterations", "workers", "games_per_worker", "reward_mode", "ruleset",
              "slavery", "train_batch_size", *_PPO, "hidden", "activation",
              "checkpoint_every", "eval_games"),
}
#: Key -> its default by kind of run, for the keys whose default depends on it (their
#: field's default is None: "the kind's default").
DEFAULTS: dict[str, dict[str, object]] = {
    "learning_rate": {"selfplay": 3e-4, "sb3": 3e-4, "rllib": 3e-4, "dagger": 1e-4,
                      "lookahead_value": 1e-4, "expert": 1e-4},
    "epochs": {"selfplay": 2, "expert": 2, "dagger": 4, "sb3": 4, "rllib": 4,
               "lookahead_value": 5},
    "minibatch_size": {"selfplay": 1024, "lookahead_value": 512, "dagger": 256,
                       "expert": 256, "sb3": 256, "rllib": 256},
    "gamma": {"selfplay": 1.0, "sb3": 0.995, "rllib": 0.995},
    "eval_games": {"selfplay": 20, "rllib": 20, "sb3": 40, "expert": 50},
    "workers": {"selfplay": 0, "expert": 1, "dagger": 2, "lookahead_value": 2, "rllib": 2},
    "init": {"selfplay": "", "expert": "reference", "dagger": "agents/policies/pure",
             "lookahead_value": "agents/policies/rerank"},
    "teacher": {"selfplay": "heuristic", "dagger": "rerank:net=default"},
    "iterations": {"lookahead_value": 1, "dagger": 2, "expert": 4, "rllib": 20},
    "games": {"dagger": 2000, "lookahead_value": 6000},
    "num_games": {"selfplay": 64, "sb3": 4},
    "rollout_steps": {"selfplay": 64, "sb3": 512},
    "imitation_epochs": {"selfplay": 8, "sb3": 6},
    "pool_size": {"selfplay": 8, "sb3": 5},
    "past_self_share": {"selfplay": 0.2, "sb3": 0.3},
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
    known = {f.name for f in fields(TrainConfig)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TrainConfigError(f"unknown training config keys {unknown}; known: {sorted(known)}")
    kind = run_kind(data.get("backend", "native"), data.get("algorithm"))
    unread = sorted(set(data) - set(KEYS[kind]) - {"backend", "algorithm"})
    if "algorithm" in data and data.get("backend", "native") != "native":
        unread = ["algorithm", *unread]
    if unread:
        raise TrainConfigError(f"a run of kind {kind!r} does not read the keys {unread}; it reads "
                               f"{sorted(KEYS[kind])}")
    try:
        return TrainConfig(**data)
    except TypeError as exc:  # a value of the wrong type met a comparison
        raise TrainConfigError(f"a value of the wrong type in the training config: {exc}") \
            from None


def run_kind(backend: str, algorithm: str | None) -> str:
    """The kind of run of a backend and (native backend) an algorithm: a key of :data:`KEYS`."""
    if backend not in BACKENDS:
        raise TrainConfigError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if backend != "native":
        return backend
    algorithm = "selfplay" if algorithm is None else algorithm
    if algorithm not in ALGORITHMS:
        raise TrainConfigError(f"unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    return algorithm


@dataclass
class TrainConfig:
    """Every setting of every training run. `backend` (and, on the native backend,
    `algorithm`) picks the kind of run, which reads only its own keys (a key set that
    it does not read is refused); some defaults depend on the kind of run."""

    # How the run trains: "native" (the project's own trainers, by algorithm), "sb3"
    # (SB3 MaskablePPO in alternating phases through FactionEnv) or "rllib" (PPO on RLlib).
    backend: str = "native"
    # The native backend's trainer: "selfplay" (batched self-play PPO), "dagger",
    # "lookahead_value" or "expert" (expert iteration).
    algorithm: str = "selfplay"

    # ---------------------------------------------------------------- every run
    seed: int = 0  # every seed of the run derives from it
    ruleset: str = "standard"  # a name of singapore_env.engine.config.RULESETS
    slavery: bool = True  # play with the slavery cards
    # Changes to the ruleset's numbers (any RulesConfig field), e.g. {war_cost = 6};
    # in TOML a [rules_changes] table.
    rules_changes: dict = field(default_factory=dict)
    # Folder of an edited copy of singapore_env/engine/data (cards and board); "" = shipped.
    data: str = ""
    # Processes playing the games (selfplay: stepping them over shared memory, 0: the
    # trainer's own; rllib: its env runners, 0: the driver samples; the results do not
    # depend on it).
    workers: int | None = None
    # Evaluation games per matchup: selfplay's seat-swapped seeds against random and
    # heuristic players and the mirror; sb3's after each phase, per opponent kind; the
    # expert gate's seeds per faction, each played twice with the seats swapped; RLlib's
    # games per faction against random at the end.
    eval_games: int | None = None

    # ---------------------------------------------------------------- the games
    engine: str = "python"  # the training games' engine: "python" or "native" (the same games, faster)
    num_games: int | None = None  # games played at once (the vector env's slots, SB3's environments)
    games_per_worker: int = 1  # games each worker plays at once (RLlib's num_envs_per_env_runner)
    rollout_steps: int | None = None  # steps of every game per rollout; a rollout makes one PPO update (per faction)
    total_decisions: int = 0  # stop after this many learned decisions (0: only --seconds stops)
    phases: int = 4  # SB3 phases: phase k trains British if k is even, else Malay
    timesteps_per_phase: int = 20_000  # env steps of the learning faction per phase
    vec_env: str = "dummy"  # SB3's vector env: "dummy" (one process) or "subproc"
    reward_mode: str = "faction"  # env reward: "win", "vp_margin" or "faction"
    # Potential-based shaping from projected final VP (0 = off; see FactionEnv).
    shaping: float = 0.0
    train_batch_size: int = 4000  # RLlib: env steps per iteration (all four seats)
    # The run's rounds: of label-and-fit (dagger, lookahead_value, expert), or of RLlib
    # training (one train batch each).
    iterations: int | None = None
    games: int | None = None  # games per iteration and faction

    # ---------------------------------------------------------------- the network
    network: str = "flat"  # "flat" (a logit per action) or "pointer" (scores each legal action from its features)
    hidden: list = field(default_factory=lambda: [256, 256])  # hidden widths (selfplay: the first layer is sparse)
    embed_dim: int = 32  # pointer network: width of the actions' keys and the state's query (action and card embeddings)
    activation: str = "tanh"  # "tanh" or "relu"
    # pointer network (sb3): "heuristic" adds the heuristic's scores of the turn questions
    # to the candidate features (singapore_env/candidates.py, "Priors"); "" = no prior.
    candidate_prior: str = ""
    # The networks to start from. selfplay: a folder with british.npz / malay.npz of the
    # same shape, flat or pointer actors ("": random); expert: "reference" (the shipped
    # learned:default policies, a new value head), "scratch", or a folder of pointer
    # policies; dagger: the pointer actors to start from; lookahead_value: the pointer
    # actors whose trunk and value head start each fit.
    init: str | None = None
    torch_threads: int = 1  # torch threads of the learner

    # ---------------------------------------------------------------- the optimizer
    learning_rate: float | None = None  # Adam's step size
    epochs: int | None = None  # passes over the data per update (a rollout, the buffer, the labelled decisions)
    minibatch_size: int | None = None  # decisions per gradient step
    gamma: float | None = None  # discount (1: the win at the end counts in full)
    gae_lambda: float = 0.95  # GAE's lambda
    clip_range: float = 0.2  # PPO's clipped ratio
    ent_coef: float = 0.01  # entropy bonus
    vf_coef: float = 0.5  # weight of the value loss
    max_grad_norm: float = 0.5  # gradient norm clipped to this

    # ---------------------------------------------------------------- the opponents
    # Chance that a game gives one faction (drawn) to a frozen past self (sb3: the
    # opponent pair of the learning faction, spread over the pool_size latest).
    past_self_share: float | None = None
    heuristic_share: float = 0.7  # sb3: chance of two heuristic opponents (else a past self or two random players)
    pool_size: int | None = None  # past selves kept per faction (the oldest leaves)
    pool_every: int = 20  # a copy of each learner joins the pool every this many updates
    pfsp_power: float = 0.0  # past selves drawn by their win share against the learner to this power (0: uniformly)
    frozen_greedy: bool = True  # sb3: past selves play their most likely action
    # Faction mate of the sb3 learner: "self" (the learner plays both faction seats; team
    # reward), "frozen_self" (the learner's latest frozen policy; the heuristic until one
    # exists), "heuristic" or "random".
    partner: str = "self"
    league: list = field(default_factory=list)  # agent specs that may play one faction of a game (e.g. ["random"])
    league_share: float = 0.0  # chance that a new game gives one faction (drawn) to a league agent (drawn)

    # ---------------------------------------------------------------- imitation
    teacher: str | None = None  # agent spec imitated (selfplay: before the first update) or whose choices are the labels (dagger; "lookahead" or "lookahead:worlds=N": learned:pure's lookahead over the current student, N sampled worlds an answer)
    imitation_games: int = 0  # games of the teacher (sb3: the heuristic) to imitate before the first update (0: none)
    imitation_epochs: int | None = None  # passes over the teacher's decisions
    imitation_learning_rate: float = 1e-3  # sb3 imitation: Adam's step size
    imitation_minibatch_size: int = 256  # sb3 imitation: decisions per gradient step
    imitation_holdout: float = 0.1  # sb3 imitation: held-out share of the games
    dagger_rounds: int = 0  # sb3 imitation: DAgger rounds after cloning
    dagger_games: int = 100  # sb3 imitation: games per DAgger round
    beta: float = 0.5  # dagger: chance that a decision plays the teacher's choice (else the student's)
    target_temperature: float = 0.0  # dagger with a lookahead teacher, selfplay with search_worlds: above 0, a looked-ahead question is learned as the softmax of the compared answers' scores over this temperature (the search's improved policy); 0: the teacher's choice alone
    # selfplay: the learners' moves at the main Action question are chosen by the
    # lookahead over their own networks (training/ppo_search.py), each proposal scored in
    # this many sampled worlds, and learned as its improved policy; 0: no search.
    search_worlds: int = 0
    # selfplay with search_worlds: the learners play without the search until they have
    # learned from this many decisions (their value heads must first know what a
    # position is worth: from random weights the search's verdicts teach too little).
    search_after: int = 0
    # selfplay: a finished game's reward is the faction's win share plus this times its
    # VP margin (agents.outcome: best VP minus the other side's best, over 20, within
    # +-1); the value heads learn the same sum, and the lookahead over them scores with it.
    vp_weight: float = 0.0

    # ---------------------------------------------------------------- lookahead values
    student: str = "agents/policies/pure"  # folder with the student pair (british.npz, malay.npz)
    job_games: int = 1000  # games per job (a worker's unit)
    explore: float = 0.4  # chance that an Action question plays a random proposal
    lookahead_rollout: bool = True  # the playing lookahead rolls on to the seat's Action question after next before it reads the value (agents/lookahead.py)

    # ---------------------------------------------------------------- expert iteration
    # The factions that search, learn and are gated; a faction left out keeps its
    # starting network (every game then lets the named faction search).
    factions: list = field(default_factory=lambda: list(FACTIONS))
    # Games per iteration; game i lets the i-th of `factions` (in turn) search against
    # two heuristic players, and records its seats.
    games_per_iteration: int = 16
    # A Ray cluster playing the games instead (--ray): "local" starts one, "auto" or
    # host:port joins one (the ray extra); "" = none. The same games.
    ray: str = ""
    # Who answers the recorded seats' questions: "search" (the searching agent, whose
    # answers are also the labels) or "distilled" (DAgger: the faction's best distilled
    # player plays and the search only labels the positions it reaches).
    play: str = "search"
    # The searching agent: an mcts spec without seed or net (the loop sets them).
    search: str = "mcts:iters=16:topk=3:horizon=1"
    # Score the search's cut rollouts with the best trained value head (net=FILE, once
    # one is trained); needs a search horizon >= 1.
    value_in_search: bool = True
    # ...and only while that value head predicted the last iteration's new games at
    # least as well as the projected VP (value MSE).
    value_gate: bool = True
    value_hidden: int = 64  # a new value head's hidden units
    # Iterations whose rows are trained on (the replay buffer).
    buffer_iterations: int = 3
    # Each iteration's network starts from the faction's best network ("best") or from
    # its starting network ("start": one training on the whole buffer, each row fitted
    # `epochs` times in all; the recipe of the shipped rerank networks).
    train_from: str = "best"
    # The form the distilled policy plays in (the gate's player): "learned" (the
    # network's most likely legal action everywhere, learned:FILE) or "rerank" (the
    # heuristic, the network choosing among the search's root candidates at the
    # searched questions, rerank:net=FILE; the policy then learns those decisions only).
    distilled: str = "learned"
    # With distilled = "rerank": 0 = a cross-entropy to the search's choice; k > 0 = the
    # candidates' logits regress their measured advantages times k
    # (training.expert.advantage_loss; the recipe of the shipped rerank networks: 100).
    advantage_scale: float = 0.0
    # With distilled = "rerank": the rerank player's margin (how much another
    # candidate's logit must beat the heuristic's choice by), in the gate and in play.
    rerank_margin: float = 0.0

    # ---------------------------------------------------------------- bookkeeping
    eval_every: int = 500_000  # learned decisions between evaluations (also at each invocation's start and end)
    checkpoint_every_s: float = 120.0  # seconds between checkpoints (and one at the end)
    checkpoint_every: int = 5  # RLlib: iterations between checkpoints (and the last)

    def __post_init__(self) -> None:
        for name, by_kind in DEFAULTS.items():
            if getattr(self, name) is None and self.kind in by_kind:
                setattr(self, name, by_kind[self.kind])
        check(self)

    @property
    def kind(self) -> str:
        """The kind of run: ``backend``, or the native backend's ``algorithm``."""
        return run_kind(self.backend, self.algorithm)

    # ---------------------------------------------------------------- derived
    def rules(self):
        """The engine's :class:`~singapore_env.engine.config.RulesConfig` of this run."""
        from singapore_env.engine.config import RulesConfig

        return RulesConfig.named(self.ruleset, **{"slavery": self.slavery,
                                                  **self.rules_changes})

    def layout_meta(self) -> dict:
        """The meta entries that record the observation layout of this run's rules and
        content in the networks it saves (:func:`agents.net_layout.layout_meta`)."""
        from agents.net_layout import layout_meta

        return layout_meta(self.content(), self.rules())

    def content(self):
        """The cards and board of this run: the edited data folder, or None (shipped)."""
        from singapore_env.engine.content import resolve_content

        if not self.data:
            return None
        resolve_content(self.data, self.slavery)  # validated now, not in a worker
        return self.data

    def imitation(self):
        """The sb3 imitation stage's settings (:class:`training.imitation.ImitationSettings`)."""
        from .imitation import ImitationSettings

        return ImitationSettings(self.imitation_games, self.imitation_epochs,
                                 self.imitation_learning_rate, self.imitation_minibatch_size,
                                 self.imitation_holdout, self.dagger_rounds, self.dagger_games)

    def env_config(self) -> dict:
        """The keyword arguments of the RLlib env (:class:`training.rllib_env.RllibSingaporeEnv`)."""
        return {"ruleset": self.ruleset, "slavery": self.slavery,
                "reward_mode": self.reward_mode}

    @property
    def faction_ids(self) -> list[int]:
        """The indices of ``factions``, in the order of FACTIONS."""
        return [f for f, name in enumerate(FACTIONS) if name in self.factions]

    def search_spec(self, network: str | Path, value_trained: bool):
        """The searching agent's :class:`~agents.registry.AgentSpec` for one faction
        whose best network is the file ``network`` (its value head trained or not):
        with ``net=FILE`` when the value head scores the search's cut rollouts."""
        from agents.registry import AgentSpec

        spec = AgentSpec.parse(self.search)
        if self.value_in_search and value_trained:
            return spec.with_params(net=str(network))
        return spec

    def player_spec(self, network: str | Path):
        """The :class:`~agents.registry.AgentSpec` of the distilled policy in the file
        ``network`` (the gate's player): ``learned:FILE``, or ``rerank:net=FILE`` with
        the search's candidates."""
        from agents.registry import AgentSpec

        if self.distilled == "learned":
            return AgentSpec("learned", target=str(network))
        search = self.search_agent()
        margin = {"margin": self.rerank_margin} if self.rerank_margin else {}
        return AgentSpec("rerank", {"net": str(network), "topk": search.topk,
                                    "gap": search.gap, **margin})

    def search_agent(self):
        """The searching agent of the ``search`` spec (before the loop's additions)."""
        from agents.registry import make_agent

        return make_agent(self.search)

    def initial_actors(self) -> dict | None:
        """Faction index -> the numpy pointer actor to start from (None for scratch);
        ValueError for a file that is missing, not a pointer policy, or of another
        observation size."""
        from agents.learned import NumpyPolicy
        from agents.pointer_actor import PointerActor
        from agents.reference import POLICY_DIR

        from .policy_value import network_dims

        if self.init == "scratch":
            return None
        folder = POLICY_DIR if self.init == "reference" else Path(self.init)
        dims = network_dims(self.rules())
        actors = {}
        for f, name in enumerate(FACTIONS):
            path = folder / f"{name}.npz"
            if not path.exists():
                raise ValueError(f"no checkpoint {path}")
            actor = NumpyPolicy.load(path)
            if not isinstance(actor, PointerActor):
                raise ValueError(f"{path} is not a pointer policy (expert iteration trains "
                                 f"the action-aware pointer network)")
            size = int(actor.layers[0][0].shape[0]) - 4
            if (size, actor.n_actions) != (dims["obs_dim"], dims["n_actions"]):
                raise ValueError(f"{path} reads {size} observation values and "
                                 f"{actor.n_actions} actions; the {self.ruleset} ruleset "
                                 f"has {dims['obs_dim']} and {dims['n_actions']}")
            actors[f] = actor
        return actors

    # ---------------------------------------------------------------- files
    def to_dict(self) -> dict:
        """The keys this run reads (with ``backend``, and ``algorithm`` on the native
        backend) and their values: what ``config.json`` holds."""
        head = {"backend": self.backend}
        if self.backend == "native":
            head["algorithm"] = self.algorithm
        return {**head, **{k: getattr(self, k) for k in KEYS[self.kind]}}

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_dict` as JSON to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True))
