"""The training configuration's checks: :func:`check` refuses a
:class:`~training.config.TrainConfig` (``cfg``) whose values its kind of run cannot
train with, by a :class:`~training.config.base.TrainConfigError` naming the key; one
function per kind of run (:data:`CHECKS`)."""

from __future__ import annotations

from pathlib import Path

from singapore_env.engine.content import FACTIONS

from training.config.base import TrainConfigError

#: The env rewards the bridges train on (:class:`singapore_env.env` reward modes).
REWARD_MODES = ("win", "vp_margin", "faction")


def check(cfg) -> None:
    """Refuse ``cfg`` (its kind's defaults filled in) with a TrainConfigError naming the
    first key out of range: the ruleset and seed of every run, then its kind's keys."""
    from singapore_env.engine.config import RULESETS

    if cfg.ruleset not in RULESETS:
        raise TrainConfigError(f"unknown ruleset {cfg.ruleset!r}; known: {', '.join(RULESETS)}")
    if cfg.seed < 0:
        raise TrainConfigError(f"seed must be >= 0, got {cfg.seed}")
    CHECKS[cfg.kind](cfg)


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
    """The keys of the batched self-play loop (``backend = "selfplay"``)."""
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
    _check_ppo(cfg)
    _at_least(cfg, 1, "pool_every", "pool_size", "eval_every", "embed_dim")
    _at_least(cfg, 0, "workers", "imitation_games", "imitation_epochs", "search_worlds",
              "search_after")
    if not (0 <= cfg.past_self_share <= 1 and 0 <= cfg.league_share <= 1):
        raise TrainConfigError("past_self_share and league_share must be in [0, 1]")
    if cfg.past_self_share + cfg.league_share > 1:
        raise TrainConfigError("past_self_share + league_share must be at most 1")
    if not cfg.vp_weight >= 0:
        raise TrainConfigError(f"vp_weight must be >= 0, got {cfg.vp_weight}")
    if not cfg.pfsp_power >= 0:
        raise TrainConfigError(f"pfsp_power must be >= 0, got {cfg.pfsp_power}")
    if not cfg.checkpoint_every_s > 0:
        raise TrainConfigError("checkpoint_every_s must be > 0")
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


def _check_ppo(cfg) -> None:
    """The rollout, PPO and evaluation keys every kind reads."""
    _check_hidden(cfg)
    _at_least(cfg, 1, "num_games", "rollout_steps", "epochs", "minibatch_size", "eval_games")
    _at_least(cfg, 0, "total_decisions")
    if not (0 <= cfg.gamma <= 1 and 0 <= cfg.gae_lambda <= 1):
        raise TrainConfigError("gamma and gae_lambda must be in [0, 1]")
    if not (cfg.learning_rate > 0 and cfg.clip_range > 0 and cfg.max_grad_norm > 0):
        raise TrainConfigError("learning_rate, clip_range and max_grad_norm must be > 0")


def _check_reward(cfg) -> None:
    """``reward_mode`` is one of :data:`REWARD_MODES`."""
    if cfg.reward_mode not in REWARD_MODES:
        raise TrainConfigError(f"unknown reward_mode {cfg.reward_mode!r}; known: "
                               f"{', '.join(REWARD_MODES)}")


def check_sb3(cfg) -> None:
    """The keys of the SB3 bridge (``backend = "sb3"``)."""
    _check_ppo(cfg)
    _check_reward(cfg)
    _at_least(cfg, 1, "pool_every", "pool_size")
    if not 0 <= cfg.past_self_share <= 1:
        raise TrainConfigError("past_self_share must be in [0, 1]")
    if not cfg.league:
        raise TrainConfigError("league must name the opponents' agents (e.g. [\"heuristic\"])")
    _check_league(cfg)


def check_rllib(cfg) -> None:
    """The keys of the RLlib bridge (``backend = "rllib"``)."""
    _check_ppo(cfg)
    _check_reward(cfg)
    _at_least(cfg, 0, "workers")
    if not cfg.checkpoint_every_s > 0:
        raise TrainConfigError("checkpoint_every_s must be > 0")


#: Kind of run (a key of :data:`training.config.KEYS`) -> its check.
CHECKS = {"selfplay": check_selfplay, "sb3": check_sb3, "rllib": check_rllib}
