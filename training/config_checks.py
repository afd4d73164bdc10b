"""The training configuration's checks: :func:`check` refuses a
:class:`~training.config.TrainConfig` (``cfg``) whose values its kind of run cannot
train with, by a :class:`~training.config_base.TrainConfigError` naming the key; one
function per kind of run (:data:`CHECKS`)."""

from __future__ import annotations

from pathlib import Path

from singapore_env.engine.content import FACTIONS

from .config_base import TrainConfigError

PARTNERS = ("self", "frozen_self", "heuristic", "random")
DISTILLED = ("learned", "rerank")
INITS = ("reference", "scratch")
PLAYS = ("search", "distilled")
TRAIN_FROM = ("best", "start")
#: DAgger's ``teacher`` that is ``learned:pure``'s lookahead over the current student
#: (``lookahead:worlds=N``: each answer scored in N sampled worlds).
LOOKAHEAD_TEACHER = "lookahead"
#: The largest ``games`` of a lookahead_value run (its factions' game seeds are apart by it).
LOOKAHEAD_FACTION_SEEDS = 100_000


def check(cfg) -> None:
    """Refuse ``cfg`` (its kind's defaults filled in) with a TrainConfigError naming the
    first key out of range: the ruleset and seed of every run, then its kind's keys."""
    from singapore_env.engine.config import RULESETS

    if cfg.ruleset not in RULESETS:
        raise TrainConfigError(f"unknown ruleset {cfg.ruleset!r}; known: {', '.join(RULESETS)}")
    if cfg.seed < 0:
        raise TrainConfigError(f"seed must be >= 0, got {cfg.seed}")
    CHECKS[cfg.kind](cfg)


def load_student(path: Path):
    """The tanh pointer actor at ``path``, reading no prior; TrainConfigError if not."""
    from agents.learned import NumpyPolicy
    from agents.pointer_actor import PointerActor

    if not path.exists():
        raise TrainConfigError(f"init: no pointer actor at {path}")
    actor = NumpyPolicy.load(path)
    if not isinstance(actor, PointerActor) or actor.activation != "tanh":
        raise TrainConfigError(f"init: {path} is not a tanh pointer actor (learned:pure's kind)")
    if actor.meta.get("candidate_prior"):
        raise TrainConfigError(f"init: {path} reads the {actor.meta['candidate_prior']} "
                               f"prior's scores; a student reads no heuristic input")
    return actor


def _at_least(cfg, low: int, *names: str) -> None:
    """Each of ``names`` is an integer (not a bool) of at least ``low``."""
    for name in names:
        value = getattr(cfg, name)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise TrainConfigError(f"{name} must be >= {low} (an integer), got {value!r}")


def _check_hidden(cfg) -> None:
    """``hidden`` is a list of positive widths and ``activation`` a known one."""
    if (not isinstance(cfg.hidden, list) or not cfg.hidden
            or not all(isinstance(h, int) and h > 0 for h in cfg.hidden)):
        raise TrainConfigError(f"hidden must be a list of positive widths, got {cfg.hidden!r}")
    if cfg.activation not in ("tanh", "relu"):
        raise TrainConfigError(f"activation must be 'tanh' or 'relu', got {cfg.activation!r}")


def _check_teacher(cfg) -> None:
    """``teacher`` names an agent."""
    from agents.registry import make_agent

    try:
        make_agent(cfg.teacher)
    except (ValueError, FileNotFoundError) as exc:
        raise TrainConfigError(f"teacher: {exc}") from None


def check_selfplay(cfg) -> None:
    """The keys of batched self-play (``algorithm = "selfplay"``)."""
    from singapore_env.vector import ENGINES

    if cfg.engine not in ENGINES:
        raise TrainConfigError(f"unknown engine {cfg.engine!r}; known: {', '.join(ENGINES)}")
    if cfg.engine == "native":
        from singapore_env.native import NativeUnavailable, require

        try:
            require()
        except NativeUnavailable as exc:
            raise TrainConfigError(f"engine = \"native\": {exc}; or set "
                                   f"engine = \"python\" (the same games, slower)") from None
    if cfg.network not in ("flat", "pointer"):
        raise TrainConfigError(f"network must be 'flat' or 'pointer', got {cfg.network!r}")
    if cfg.network == "pointer":
        if cfg.engine == "python" and cfg.workers > 1:
            raise TrainConfigError("network = \"pointer\" reads the candidate features "
                                   "of the games in this process: engine = \"native\", "
                                   "or workers = 0")
        if cfg.imitation_games:
            raise TrainConfigError("imitation_games warm-starts the flat network only "
                                   "(network = \"flat\"); the pointer network starts "
                                   "from a pointer actor with init")
    if cfg.search_worlds:
        if cfg.engine != "native":
            raise TrainConfigError("search_worlds > 0 plays the lookahead's rollouts in C++: "
                                   "engine = \"native\"")
        if not cfg.target_temperature > 0:
            raise TrainConfigError("search_worlds > 0 needs target_temperature > 0 (the "
                                   "search's improved policy is the softmax of its scores "
                                   "over it)")
    elif cfg.target_temperature or cfg.search_after:
        raise TrainConfigError("target_temperature and search_after need the search: "
                               "search_worlds > 0")
    _check_league(cfg)
    _check_hidden(cfg)
    _at_least(cfg, 1, "num_games", "rollout_steps", "epochs", "minibatch_size", "pool_every",
              "pool_size", "eval_every", "eval_games", "embed_dim")
    _at_least(cfg, 0, "workers", "total_decisions", "imitation_games", "imitation_epochs",
              "search_worlds", "search_after")
    if not (0 <= cfg.past_self_share <= 1 and 0 <= cfg.gamma <= 1
            and 0 <= cfg.gae_lambda <= 1 and 0 <= cfg.league_share <= 1):
        raise TrainConfigError("past_self_share, league_share, gamma and gae_lambda "
                               "must be in [0, 1]")
    if cfg.past_self_share + cfg.league_share > 1:
        raise TrainConfigError("past_self_share + league_share must be at most 1")
    if not cfg.vp_weight >= 0:
        raise TrainConfigError(f"vp_weight must be >= 0, got {cfg.vp_weight}")
    if not cfg.pfsp_power >= 0:
        raise TrainConfigError(f"pfsp_power must be >= 0, got {cfg.pfsp_power}")
    if not (cfg.learning_rate > 0 and cfg.clip_range > 0 and cfg.max_grad_norm > 0
            and cfg.checkpoint_every_s > 0):
        raise TrainConfigError("learning_rate, clip_range, max_grad_norm and "
                               "checkpoint_every_s must be > 0")
    if cfg.init and cfg.imitation_games:
        raise TrainConfigError("give init or imitation_games, not both")
    if cfg.imitation_games:
        _check_teacher(cfg)
    if cfg.init and not all((Path(cfg.init) / f"{f}.npz").exists() for f in FACTIONS):
        raise TrainConfigError(f"init: {cfg.init} must hold british.npz and malay.npz")


def _check_league(cfg) -> None:
    """Every league spec names an agent (one that plays native games on the native
    engine); a league share needs a league."""
    from agents.registry import make_agent

    if not isinstance(cfg.league, list) or not all(isinstance(x, str) for x in cfg.league):
        raise TrainConfigError(f"league must be a list of agent specs, got {cfg.league!r}")
    if cfg.league_share and not cfg.league:
        raise TrainConfigError("league_share > 0 needs agent specs in league")
    for spec in cfg.league:
        try:
            agent = make_agent(spec)
        except (ValueError, FileNotFoundError) as exc:
            raise TrainConfigError(f"league: {exc}") from None
        if cfg.engine == "native" and not agent.plays_native:
            raise TrainConfigError(f"league: {spec!r} does not play native games; "
                                   f"engine = \"python\" plays it")


def check_dagger(cfg) -> None:
    """The keys of DAgger (``algorithm = "dagger"``); ``init`` holds two students."""
    _at_least(cfg, 1, "iterations", "games", "epochs", "minibatch_size", "workers")
    if not (0 <= cfg.beta <= 1 and cfg.learning_rate > 0):
        raise TrainConfigError("beta must be in [0, 1] and learning_rate > 0")
    if not cfg.target_temperature >= 0:
        raise TrainConfigError("target_temperature must be >= 0")
    if lookahead_worlds(cfg.teacher) is None:
        if cfg.target_temperature > 0:
            raise TrainConfigError("target_temperature needs a lookahead teacher (its "
                                   "scores): teacher = \"lookahead\"")
        _check_teacher(cfg)
    for faction in FACTIONS:
        load_student(Path(cfg.init) / f"{faction}.npz")


def lookahead_worlds(teacher: str) -> int | None:
    """The worlds of a lookahead ``teacher`` (``"lookahead"``: 1, ``"lookahead:worlds=N"``:
    N), None for any other teacher; TrainConfigError for a malformed lookahead teacher."""
    name, _, rest = teacher.partition(":")
    if name != LOOKAHEAD_TEACHER:
        return None
    if not rest:
        return 1
    key, _, value = rest.partition("=")
    if key != "worlds" or not value.isdigit() or int(value) < 1:
        raise TrainConfigError(f"teacher: {teacher!r}: the lookahead teacher takes one "
                               f"parameter, worlds=N (N >= 1)")
    return int(value)


def check_lookahead_value(cfg) -> None:
    """The keys of lookahead values (``algorithm = "lookahead_value"``); ``student``
    and ``init`` hold value nets (``init`` with value heads)."""
    _at_least(cfg, 1, "iterations", "games", "job_games", "epochs", "minibatch_size",
              "workers")
    if cfg.games > LOOKAHEAD_FACTION_SEEDS:
        raise TrainConfigError(f"games must be <= {LOOKAHEAD_FACTION_SEEDS:,}")
    if not (0 <= cfg.explore <= 1 and cfg.learning_rate > 0):
        raise TrainConfigError("explore must be in [0, 1] and learning_rate > 0")
    from agents.learned import load_value_nets

    for folder, need_value in ((cfg.student, False), (cfg.init, True)):
        try:
            nets = load_value_nets(Path(folder), need_value=need_value)
        except (OSError, ValueError) as exc:
            raise TrainConfigError(f"{folder}: {exc}") from None
        if folder == cfg.student and any(n.meta.get("candidate_prior")
                                          for n in nets.values()):
            raise TrainConfigError(f"student: {folder} reads a heuristic prior's scores")


def check_expert(cfg) -> None:
    """The keys of expert iteration (``algorithm = "expert"``)."""
    _at_least(cfg, 1, "iterations", "games_per_iteration", "workers", "embed_dim",
              "value_hidden", "buffer_iterations", "epochs", "minibatch_size",
              "eval_games")
    for name, value, known in (("play", cfg.play, PLAYS),
                               ("train_from", cfg.train_from, TRAIN_FROM),
                               ("distilled", cfg.distilled, DISTILLED)):
        if value not in known:
            raise TrainConfigError(f"{name} must be one of {', '.join(known)}, got {value!r}")
    if not (cfg.learning_rate > 0 and cfg.advantage_scale >= 0 and cfg.rerank_margin >= 0):
        raise TrainConfigError("learning_rate must be > 0; advantage_scale and "
                               "rerank_margin >= 0")
    if (not isinstance(cfg.factions, list) or not cfg.factions
            or len(set(cfg.factions)) != len(cfg.factions)
            or not set(cfg.factions) <= set(FACTIONS)):
        raise TrainConfigError(f"factions must be a list of distinct names among "
                               f"{', '.join(FACTIONS)}, got {cfg.factions!r}")
    if cfg.advantage_scale > 0 and cfg.distilled != "rerank":
        raise TrainConfigError("advantage_scale > 0 needs distilled = \"rerank\" (it "
                               "fits the logits of the search's candidates)")
    if cfg.rerank_margin > 0 and cfg.distilled != "rerank":
        raise TrainConfigError("rerank_margin > 0 needs distilled = \"rerank\" (the "
                               "margin of the rerank player)")
    _check_hidden(cfg)
    _check_search(cfg)
    _check_init(cfg)


def _check_search(cfg) -> None:
    """``search`` is an mcts spec without net or seed, with a horizon if
    ``value_in_search``."""
    from agents.registry import AgentSpec

    try:
        spec = AgentSpec.parse(cfg.search)
        if spec.name != "mcts" or spec.target is not None:
            raise ValueError("the searching agent must be an mcts spec")
        if {"net", "seed"} & set(spec.params):
            raise ValueError("the loop sets net (value_in_search) and the seeds itself")
        agent = cfg.search_agent()
    except ValueError as exc:
        raise TrainConfigError(f"search = {cfg.search!r}: {exc}") from None
    if cfg.value_in_search and not agent.horizon:
        raise TrainConfigError("value_in_search needs a search with horizon >= 1 "
                               "(the value head scores the rollouts cut there)")


def _check_init(cfg) -> None:
    """``init`` is "reference", "scratch" or a folder of pointer actors of this ruleset."""
    if cfg.init in INITS:
        return
    if not Path(cfg.init).is_dir():
        raise TrainConfigError(f"init must be one of {', '.join(INITS)} or a folder "
                               f"holding british.npz and malay.npz, got {cfg.init!r}")
    try:
        cfg.initial_actors()
    except (OSError, ValueError) as exc:
        raise TrainConfigError(f"init = {cfg.init!r}: {exc}") from None


def check_sb3(cfg) -> None:
    """The keys of SB3 MaskablePPO (``backend = "sb3"``)."""
    if cfg.vec_env not in ("dummy", "subproc"):
        raise TrainConfigError(f"vec_env must be 'dummy' or 'subproc', got {cfg.vec_env!r}")
    if cfg.reward_mode not in ("win", "vp_margin", "faction"):
        raise TrainConfigError(f"unknown reward_mode {cfg.reward_mode!r}")
    _check_rules(cfg)
    if cfg.partner not in PARTNERS:
        raise TrainConfigError(f"unknown partner {cfg.partner!r}; known: {', '.join(PARTNERS)}")
    if cfg.network not in ("flat", "pointer"):
        raise TrainConfigError(f"network must be 'flat' or 'pointer', got {cfg.network!r}")
    from agents.priors import PRIORS

    if cfg.candidate_prior and (cfg.network != "pointer"
                                or cfg.candidate_prior not in PRIORS):
        raise TrainConfigError(f"candidate_prior must be '' or one of {list(PRIORS)} "
                               f"(pointer network only), got {cfg.candidate_prior!r}")
    _check_hidden(cfg)
    if not (0 <= cfg.past_self_share <= 1 and 0 <= cfg.heuristic_share <= 1
            and cfg.past_self_share + cfg.heuristic_share <= 1):
        raise TrainConfigError("past_self_share and heuristic_share must be probabilities "
                               "summing <= 1")
    _at_least(cfg, 1, "phases", "timesteps_per_phase", "num_games", "rollout_steps",
              "minibatch_size", "epochs", "pool_size", "torch_threads",
              "imitation_epochs", "imitation_minibatch_size", "embed_dim",
              "dagger_games")
    _at_least(cfg, 0, "imitation_games", "dagger_rounds")
    if not (0 <= cfg.imitation_holdout < 1 and cfg.imitation_learning_rate > 0):
        raise TrainConfigError("imitation_holdout must be in [0, 1) and "
                               "imitation_learning_rate > 0")


def check_rllib(cfg) -> None:
    """The keys of PPO on RLlib (``backend = "rllib"``)."""
    if cfg.reward_mode not in ("win", "vp_margin", "faction"):
        raise TrainConfigError(f"unknown reward_mode {cfg.reward_mode!r}")
    _check_hidden(cfg)
    _at_least(cfg, 1, "iterations", "games_per_worker", "train_batch_size",
              "minibatch_size", "epochs", "checkpoint_every")
    _at_least(cfg, 0, "workers", "eval_games")


def _check_rules(cfg) -> None:
    """``rules_changes`` and ``data`` make a valid ruleset and content."""
    from singapore_env.engine.config import ConfigError
    from singapore_env.engine.content import ContentError

    if not isinstance(cfg.rules_changes, dict):
        raise TrainConfigError(f"rules_changes must be a table, got {cfg.rules_changes!r}")
    try:
        cfg.rules()
        cfg.content()
    except (ConfigError, ContentError, TypeError) as exc:
        raise TrainConfigError(str(exc)) from None


#: Kind of run (a key of :data:`training.config.KEYS`) -> its check.
CHECKS = {"selfplay": check_selfplay, "dagger": check_dagger,
          "lookahead_value": check_lookahead_value, "expert": check_expert,
          "sb3": check_sb3, "rllib": check_rllib}
