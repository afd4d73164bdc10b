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

    algorithm: str = "expert"
    seed: int = 0
    iterations: int = 4
    ruleset: str = "standard"            # a name of singapore_env.engine.config.RULESETS
    slavery: bool = True

    # The factions that search, learn and are gated; the others keep their starting
    # network.
    factions: list = field(default_factory=lambda: list(FACTIONS))
    # Game generation: games per iteration on `workers` processes; game i lets the i-th
    # of `factions` (in turn) search against two heuristic players (and records it).
    games_per_iteration: int = 16
    workers: int = 1
    # A Ray cluster playing the games instead of `workers` processes: "local" starts
    # one, "auto" or host:port joins one (the ray extra); "" = none. Same games.
    ray: str = ""
    # Who answers the recorded seats' questions in the games: "search" (the searching
    # agent, whose answers are also the labels) or "distilled" (DAgger: the faction's
    # best distilled player, player_spec, plays and the search only labels the
    # positions it reaches, so the network learns on the states it plays into).
    play: str = "search"
    # The searching agent (an mcts spec without seed or net); with value_in_search the
    # current networks' value head scores its cut rollouts (net=, from iteration 1 on,
    # once a trained value head exists; needs horizon >= 1).
    search: str = "mcts:iters=16:topk=3:horizon=1"
    value_in_search: bool = True
    # ...and only while the faction's best network predicted the last iteration's new
    # games' outcomes at least as well as the projected VP does (value MSE).
    value_gate: bool = True
    # With distilled = "rerank": 0 = the cross-entropy to the search's choice; k > 0 =
    # the logits of a
    # searched decision's candidates regress their mean advantages times k (centred
    # over the candidates: training.expert.advantage_loss).
    advantage_scale: float = 0.0

    # Networks: "reference" (the shipped policy of each faction, a new value head),
    # "scratch", or a folder holding british.npz and malay.npz (pointer policies, with
    # or without value head: e.g. a previous run). The next two keys shape a network
    # from scratch only (tanh, reading the heuristic's scores as candidate features).
    init: str = "reference"
    net_arch: list = field(default_factory=lambda: [256, 256])
    embed_dim: int = 32
    value_hidden: int = 64               # a new value head's hidden units

    # Training on the rows of the last buffer_iterations iterations (replay buffer):
    # policy loss + value MSE, Adam.
    buffer_iterations: int = 3
    # Each iteration's network starts from the faction's best network ("best") or from
    # its starting network ("start": one training on the whole buffer, so that a row is
    # fitted for `epochs` passes in all, not once more at every iteration).
    train_from: str = "best"
    epochs: int = 2
    lr: float = 1e-4
    batch_size: int = 256
    # The form the distilled policy plays in (the gate's player): "learned" = the
    # network's most likely legal action everywhere (learned:FILE); "rerank" = the
    # heuristic, except that the network picks among the search's root candidates at
    # the searched questions (rerank:net=FILE, with the search's topk and gap). With
    # "rerank" the policy learns the searched decisions only, over their candidates.
    distilled: str = "learned"
    # With distilled = "rerank": the rerank player's margin (how much another candidate's
    # logit must beat the heuristic's choice by), in the gate and in play = "distilled".
    rerank_margin: float = 0.0

    # Gate: the distilled policy alone against heuristic players on eval_games held-out
    # seeds, seat-swapped (2 * eval_games games per faction).
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
