"""The configuration of an expert-iteration run (``algorithm = "expert"`` in a training
TOML file; :func:`training.config.load_config` dispatches on that key). The loop itself
is :mod:`training.expert`; every key is described in ``docs/training.md``.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

from singapore_env.engine.content import FACTIONS

from .config_base import TrainConfigError

DISTILLED = ("learned", "rerank")
INITS = ("reference", "scratch")
PLAYS = ("search", "distilled")
TRAIN_FROM = ("best", "start")


@dataclass
class ExpertConfig:
    """Expert iteration: searching seats make targets, one policy-value network per
    faction is trained on them, a gate keeps it only if it does not play worse."""

    algorithm: str = "expert"            # selects this kind of run (required)
    seed: int = 0                        # every seed of the run derives from it
    iterations: int = 4                  # iterations to run (--iterations)
    ruleset: str = "standard"            # a name of singapore_env.engine.config.RULESETS
    slavery: bool = True                 # play with the slavery cards

    # The factions that search, learn and are gated; a faction left out keeps its
    # starting network (every game then lets the named faction search).
    factions: list = field(default_factory=lambda: list(FACTIONS))
    # Games per iteration; game i lets the i-th of `factions` (in turn) search against
    # two heuristic players, and records its seats.
    games_per_iteration: int = 16
    # Processes generating and evaluating games (--workers; the rows do not depend on it).
    workers: int = 1
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

    # Networks to start from: "reference" (the shipped learned:default policies, a new
    # value head), "scratch", or a folder holding british.npz and malay.npz (pointer
    # policies, with or without value head: e.g. a previous run's output).
    init: str = "reference"
    # Hidden layers of a network from scratch (tanh; it reads the heuristic's scores).
    net_arch: list = field(default_factory=lambda: [256, 256])
    embed_dim: int = 32                  # action and card embedding size, from scratch
    value_hidden: int = 64               # a new value head's hidden units

    # Iterations whose rows are trained on (the replay buffer).
    buffer_iterations: int = 3
    # Each iteration's network starts from the faction's best network ("best") or from
    # its starting network ("start": one training on the whole buffer, each row fitted
    # `epochs` times in all; the recipe of the shipped rerank networks).
    train_from: str = "best"
    epochs: int = 2                      # Adam passes over the buffer
    lr: float = 1e-4                     # Adam learning rate
    batch_size: int = 256                # rows per Adam step
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

    # Gate seeds per faction, each played twice with the seats swapped: the distilled
    # player against heuristic players.
    eval_games: int = 50

    def __post_init__(self) -> None:
        from singapore_env.engine.config import RULESETS

        if self.algorithm != "expert":
            raise TrainConfigError(f"algorithm must be 'expert' here, got {self.algorithm!r}")
        if self.ruleset not in RULESETS:
            raise TrainConfigError(f"unknown ruleset {self.ruleset!r}; known: {', '.join(RULESETS)}")
        for name in ("iterations", "games_per_iteration", "workers", "embed_dim",
                     "value_hidden", "buffer_iterations", "epochs", "batch_size", "eval_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise TrainConfigError(f"{name} must be an integer >= 1, got {value!r}")
        if self.seed < 0:
            raise TrainConfigError(f"seed must be >= 0, got {self.seed}")
        if self.play not in PLAYS:
            raise TrainConfigError(f"play must be one of {', '.join(PLAYS)}, got {self.play!r}")
        if self.train_from not in TRAIN_FROM:
            raise TrainConfigError(f"train_from must be one of {', '.join(TRAIN_FROM)}, "
                                   f"got {self.train_from!r}")
        if self.distilled not in DISTILLED:
            raise TrainConfigError(f"distilled must be one of {', '.join(DISTILLED)}, "
                                   f"got {self.distilled!r}")
        if not (self.lr > 0 and self.advantage_scale >= 0 and self.rerank_margin >= 0):
            raise TrainConfigError("lr must be > 0; advantage_scale and rerank_margin >= 0")
        self._check_factions()
        if self.advantage_scale > 0 and self.distilled != "rerank":
            raise TrainConfigError("advantage_scale > 0 needs distilled = \"rerank\" (it "
                                   "fits the logits of the search's candidates)")
        if self.rerank_margin > 0 and self.distilled != "rerank":
            raise TrainConfigError("rerank_margin > 0 needs distilled = \"rerank\" (the "
                                   "margin of the rerank player)")
        if not self.net_arch or any(not isinstance(n, int) or n < 1 for n in self.net_arch):
            raise TrainConfigError(f"net_arch must be a list of layer sizes, got {self.net_arch!r}")
        self._check_search()
        self._check_init()

    def _check_factions(self) -> None:
        if (not isinstance(self.factions, list) or not self.factions
                or len(set(self.factions)) != len(self.factions)
                or not set(self.factions) <= set(FACTIONS)):
            raise TrainConfigError(f"factions must be a list of distinct names among "
                                   f"{', '.join(FACTIONS)}, got {self.factions!r}")

    @property
    def faction_ids(self) -> list[int]:
        """The indices of ``factions``, in the order of FACTIONS."""
        return [f for f, name in enumerate(FACTIONS) if name in self.factions]

    def _check_search(self) -> None:
        from agents.registry import AgentSpec

        try:
            spec = AgentSpec.parse(self.search)
            if spec.name != "mcts" or spec.target is not None:
                raise ValueError("the searching agent must be an mcts spec")
            if {"net", "seed"} & set(spec.params):
                raise ValueError("the loop sets net (value_in_search) and the seeds itself")
            agent = self.search_agent()
        except ValueError as exc:
            raise TrainConfigError(f"search = {self.search!r}: {exc}") from None
        if self.value_in_search and not agent.horizon:
            raise TrainConfigError("value_in_search needs a search with horizon >= 1 "
                                   "(the value head scores the rollouts cut there)")

    def _check_init(self) -> None:
        if self.init in INITS:
            return
        folder = Path(self.init)
        if not folder.is_dir():
            raise TrainConfigError(f"init must be one of {', '.join(INITS)} or a folder "
                                   f"holding british.npz and malay.npz, got {self.init!r}")
        try:
            self.initial_actors()
        except (OSError, ValueError) as exc:
            raise TrainConfigError(f"init = {self.init!r}: {exc}") from None

    # ---------------------------------------------------------------- derived
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

    def rules(self):
        """The engine's :class:`~singapore_env.engine.config.RulesConfig` of this run."""
        from singapore_env.engine.config import RulesConfig

        return RulesConfig.named(self.ruleset, slavery=self.slavery)

    def initial_actors(self) -> dict | None:
        """Faction index -> the numpy pointer actor to start from (None for scratch);
        ValueError for a file that is missing, not a pointer policy, or of another
        observation size."""
        from agents.learned import NumpyPolicy
        from agents.pointer_actor import PointerActor
        from agents.reference import POLICY_DIR
        from singapore_env.engine.content import FACTIONS

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

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True))
