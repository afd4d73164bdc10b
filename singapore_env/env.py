"""PettingZoo AEC environment for 1819 Singapore (translation only; rules live in the engine).

    from singapore_env import env
    e = env(seed=1)                       # OrderEnforcing(AssertOutOfBounds(raw_env))
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

============================  ================================================================
Import                        ``from singapore_env import env, raw_env``
Name (``metadata["name"]``)   ``singapore_1819_v0``
Agents                        ``lieutenant_governor``, ``resident`` (British), ``temenggong``,
                              ``sultan`` (Malay)
Action space                  ``Discrete(N)``, one table for every agent (N = 1040 with the
                              standard limits; see :mod:`singapore_env.encoding`)
Observation space             ``Dict(observation=Box(float32, (D,)), action_mask=Box(int8, (N,)))``
                              (D = 5146), from the observing agent's point of view
State (``state()``)           ``Box(float32, (4 D,))``: the four seats' observations, hidden
                              cards included; for a centralized critic in training only
Action mask                   exactly the engine's legal decisions; all zeros off turn
Rewards                       at the end only: ``reward_mode`` ``win`` (default, +1 shared by
                              the winners), ``vp_margin`` or ``faction``
                              (:mod:`singapore_env.rewards`)
Terminations / truncations    all agents terminate at the end of the game; truncation only
                              after ``max_steps`` agent steps (engine decisions)
Infos                         ``{}`` during play; at the end ``final_vp`` (own),
                              ``final_scores`` (every agent) and ``winners``
Render                        ``render_mode="ansi"``: the engine's text board (all hands);
                              ``"human"`` prints it
Parallelizable                no (turn-based, with out-of-turn questions)
============================  ================================================================

``agent_selection`` is always the seat the engine asks (the pending question may be an
out-of-turn one: joining a War, a veto, a Conflict contribution...). A multi-part decision
is several consecutive steps of the same agent.

Options (keyword arguments of ``env``/``raw_env``): ``seed`` (used by the first
``reset()`` without a seed), ``ruleset`` (``"standard"`` by default; every name in
:data:`~singapore_env.engine.config.RULESETS`), ``slavery``, ``reward_mode``, ``max_steps``,
``config`` (a :class:`~singapore_env.engine.config.RulesConfig`, the rules only;
``slavery`` overrides it), ``content`` (the cards and board: a
:class:`~singapore_env.engine.content.Content`, or the folder of an edited copy of
``singapore_env/engine/data``; the shipped data by default),
``candidates`` (``True`` adds ``candidate_card``, ``candidate_features`` and
``projected_vp``, the per-action features and the seats' projected final VP of
:mod:`singapore_env.candidates`, to every observation), ``candidate_prior`` (with
``candidates``: a scorer ``(game, seat) -> [(score, decision), ...]`` whose scores fill
the prior columns of the candidate features, such as the heuristic's
``agents.priors.resolve_prior("heuristic")``),
``engine`` (``"python"``, the default, or ``"native"``: the compiled twin of the rules,
of the observation writer and of the candidate features, :mod:`singapore_env.native`,
with the same observations, masks and rewards; it needs the built module,
``keep_text_log`` off and no ``candidate_prior``),
``illegal_action`` (``"raise"``: a masked-out action raises :class:`IllegalActionError`
and changes nothing; ``"penalize"``: PettingZoo's terminate-with-penalty, the offender gets
``illegal_reward`` (-1) and the game ends for every agent), ``render_mode`` and
``keep_text_log`` (the engine's text log, off by default for speed).

Seeding: ``reset(seed=s)`` plays engine game ``Game(s)`` and seeds the generator that picks
the game seeds of later ``reset()`` calls without a seed; the same seed and the same actions
always give the same observations.

For search agents and bug reports: ``clone()`` (an independent raw env), ``save()`` (the
engine's JSON snapshot with the decision log), ``load(text)`` and ``set_game(game)``;
``game`` is the engine :class:`~singapore_env.engine.Game` (a
:class:`~singapore_env.native.NativeGame` with ``engine="native"``).
"""

from __future__ import annotations

import copy
import sys
import types
from typing import Any, Callable

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from .action_errors import IllegalActionError
from .candidates import CandidateEncoder, candidate_spaces
from .engine.config import RulesConfig
from .engine.content import SEAT_NAMES, Content, resolve_content
from .engine.decisions import is_int
from .engine import Game, IllegalDecision, SaveFormatError
from .encoding import encoder_for
from .engine.describe import describe
from .engine.game import check_seed
from .render import render_text
from .rewards import REWARD_MODES, rewards as compute_rewards
from .standard_wrappers import standard_chain

ENV_NAME = "singapore_1819_v0"
AGENTS: tuple[str, ...] = SEAT_NAMES
SEAT_OF = {name: seat for seat, name in enumerate(AGENTS)}
ILLEGAL_ACTION_MODES = ("raise", "penalize")
ENGINES = ("python", "native")

__all__ = ["env", "raw_env", "IllegalActionError", "ENV_NAME", "AGENTS"]


def env(**kwargs) -> AECEnv:
    """The environment with PettingZoo's standard wrapper chain (order enforcing over
    out-of-bounds checks, :mod:`singapore_env.standard_wrappers`; see :class:`raw_env`)."""
    return standard_chain(raw_env(**kwargs))


def make_config(config: RulesConfig | None = None, slavery: bool | None = None,
                ruleset: str | None = None) -> RulesConfig:
    """A rules configuration with the env's rules keyword arguments applied.

    ``ruleset`` names the base configuration (:meth:`RulesConfig.named`) when no
    ``config`` is given; with a ``config`` it must agree with ``config.ruleset``."""
    if config is None:
        cfg = RulesConfig.named(ruleset or "standard")
    elif ruleset is not None and ruleset != config.ruleset:
        raise ValueError(f"ruleset={ruleset!r} contradicts config.ruleset={config.ruleset!r}; "
                         "give one of them")
    else:
        cfg = config
    changes: dict[str, Any] = {}
    if slavery is not None:
        changes["slavery"] = bool(slavery)
    return cfg.replace(**changes) if changes else cfg


class raw_env(AECEnv, EzPickle):
    """The unwrapped AEC environment (use :func:`env` for the wrapped one).

    Pickling (``EzPickle``) rebuilds the env from its constructor arguments (a fresh,
    unreset env); use :meth:`save`/:meth:`load` to carry a game along."""

    metadata = {"name": ENV_NAME, "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, seed: int | None = None, slavery: bool | None = None,
                 reward_mode: str | None = None, illegal_action: str = "raise",
                 max_steps: int | None = None, render_mode: str | None = None,
                 config: RulesConfig | None = None, illegal_reward: float = -1.0,
                 keep_text_log: bool = False, ruleset: str | None = None,
                 candidates: bool = False, candidate_prior: Callable | None = None,
                 content: Content | str | None = None, engine: str = "python"):
        EzPickle.__init__(self, seed=seed, slavery=slavery, reward_mode=reward_mode,
                          illegal_action=illegal_action, max_steps=max_steps,
                          render_mode=render_mode, config=config,
                          illegal_reward=illegal_reward, keep_text_log=keep_text_log,
                          ruleset=ruleset, candidates=candidates,
                          candidate_prior=candidate_prior, content=content, engine=engine)
        super().__init__()
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, "
                             f"got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of "
                             f"{self.metadata['render_modes']}, got {render_mode!r}")
        if reward_mode is not None and reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        if max_steps is not None and not (is_int(max_steps) and 0 <= max_steps <= 10**9):
            raise ValueError(f"max_steps must be an int in 0..{10**9} (0: no cap), "
                             f"got {max_steps!r}")
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
        self.cfg = make_config(config, slavery, ruleset)
        self.content = resolve_content(content, self.cfg.slavery)
        self.engine = engine
        if engine == "native":
            self._game_class, self.encoder = _native_engine(self.cfg, self.content,
                                                            keep_text_log, candidate_prior)
        else:
            self._game_class, self.encoder = Game, encoder_for(self.content, self.cfg)
        self.table = self.encoder.table
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.keep_text_log = keep_text_log
        self.reward_mode = reward_mode or REWARD_MODES[0]
        self.max_steps = int(max_steps or 0)
        self.possible_agents = list(AGENTS)
        self._decisions = self.table.decisions
        self._n_actions = len(self.table)

        n, d = self._n_actions, self.encoder.size
        self._action_space = spaces.Discrete(n)
        obs_spaces = {
            "observation": spaces.Box(self.encoder.low, self.encoder.high, (d,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        }
        self.candidates = (CandidateEncoder.for_observations(self.encoder, candidate_prior)
                           if candidates else None)
        if self.candidates is not None:
            obs_spaces.update(candidate_spaces(self.candidates))
        self._observation_space = spaces.Dict(obs_spaces)
        self.action_spaces = {a: self._action_space for a in AGENTS}
        self.observation_spaces = {a: self._observation_space for a in AGENTS}
        self.state_space = spaces.Box(np.tile(self.encoder.low, len(AGENTS)),
                                      np.tile(self.encoder.high, len(AGENTS)),
                                      (len(AGENTS) * d,), np.float32)

        self._init_seed = seed
        self._seed_rng: np.random.Generator | None = None
        self.game: Game | None = None
        self._obs_cache: dict[str, dict] = {}

    # ------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # ------------------------------------------------------------ reset / step
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None and self._init_seed is not None:
            seed, self._init_seed = self._init_seed, None
        if seed is not None:
            game_seed = check_seed(seed)  # (as Game takes it, on either engine)
            self._seed_rng = np.random.default_rng(game_seed)
        else:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng()
            game_seed = int(self._seed_rng.integers(2**31 - 1))
        if self.engine == "native":
            self._attach(self._game_class(game_seed, self.cfg, self.content))
        else:
            self._attach(Game(game_seed, self.cfg, self.content,
                              keep_text_log=self.keep_text_log))

    def _attach(self, game: Game) -> None:
        self.game = game
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self._skip_agent_selection = None
        self._obs_cache = {}
        if game.is_over:
            self.agent_selection = AGENTS[0]
            self._finish()
        else:
            self.agent_selection = AGENTS[game.acting_seat]
            if self.max_steps and _decisions_made(game) >= self.max_steps:
                self._truncate()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self._n_actions:   # the common case
            a = action
            d = self._decisions[a]
        else:
            a = int(action) if is_int(action) else action
            d = self._decisions[a] if is_int(a) and 0 <= a < self._n_actions else None
        game = self.game
        try:
            if d is None:
                raise IllegalDecision(f"{action!r} is not an action index (an int in "
                                      f"0..{self._n_actions - 1})")
            game.step(d)
        except IllegalDecision as exc:
            self._illegal(agent, a, d, exc)
            return
        self._obs_cache = {}
        self._cumulative_rewards[agent] = 0.0
        if game.is_over:
            self._finish()
        elif self.max_steps and _decisions_made(game) >= self.max_steps:
            self._truncate()
        else:
            self.agent_selection = AGENTS[game.acting_seat]

    def _illegal(self, agent: str, action, decision, exc: IllegalDecision) -> None:
        legal = self.encoder.legal_indices(self.game)
        game = _python_game(self.game)
        what = (f"{decision!r} '{describe(game, decision)}'" if decision is not None
                else "not an action")
        msg = (f"{agent}: action {action!r} ({what}) is masked out now "
               f"(pending: {game.pending.kind}); legal actions: {legal}. Engine: {exc}")
        if self.illegal_action == "raise":
            raise IllegalActionError(msg)
        self._obs_cache = {}
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards[agent] = self.illegal_reward
        self.infos[agent] = {"illegal_action": action, "message": msg}
        self._accumulate_rewards()

    def _finish(self) -> None:
        g = self.game
        final = g.final_scores
        reward = compute_rewards(final, self.reward_mode)
        scores = dict(zip(AGENTS, final))
        winners = [AGENTS[p] for p in g.winners]
        for seat, a in enumerate(AGENTS):
            if a in self.rewards:
                self.rewards[a] = reward[seat]
                self.terminations[a] = True
                self.infos[a] = {"final_vp": final[seat], "final_scores": dict(scores),
                                 "winners": list(winners)}
        self._accumulate_rewards()

    def _truncate(self) -> None:
        s = _python_game(self.game).s
        for seat, a in enumerate(AGENTS):
            if a in self.truncations:
                self.truncations[a] = True
                self.infos[a] = {"vp": s.vp[seat], "truncated_at": s.decisions}

    # ------------------------------------------------------------ observations
    def observe(self, agent: str) -> dict:
        ob = self._obs_cache.get(agent)
        if ob is None:
            seat, game, encoder = SEAT_OF[agent], self.game, self.encoder
            ob = {"observation": encoder.encode(game, seat),
                  "action_mask": encoder.legal_mask(game, seat)}
            if self.candidates is not None:
                ob.update(self.candidates.encode(self.game, seat))
            self._obs_cache[agent] = ob
        return ob

    def state(self) -> np.ndarray:
        """The whole game as one flat float32 vector (``state_space``): the four seats'
        observations in seat order, so every hand, pending draw, Search offer and
        commitment is in it. For a centralized critic in training only (as MAPPO's and
        PerfectDou's): it holds hidden information, so a policy that acts must never
        read it. The order of the decks (the future) is in no one's view and not in it."""
        if self.game is None:
            raise RuntimeError("state() before reset()")
        return np.concatenate([self.encoder.encode(self.game, seat)
                               for seat in range(len(AGENTS))])

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The int8 legal-action mask of ``agent`` (default: the agent to act)."""
        agent = self.agent_selection if agent is None else agent
        return self.encoder.legal_mask(self.game, SEAT_OF[agent])

    def decision(self, action: int):
        """The engine decision of an action index."""
        return self.table.decision(int(action))

    def action(self, decision) -> int:
        """The action index of an engine decision."""
        return self.table.index(decision)

    def describe_action(self, action: int) -> str:
        """An action index in words, in the context of the pending question."""
        return describe(_python_game(self.game), self.table.decision(int(action)))

    # ------------------------------------------------------------ render / close
    def render(self) -> str | None:
        """The text board: returned (``"ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use "
                                  "render_mode='ansi' or 'human'")
            return None
        if self.render_mode == "human":
            print(render_text(_python_game(self.game)))
            return None
        return render_text(_python_game(self.game))

    def close(self) -> None:
        pass

    # ------------------------------------------------------------ copies and files
    def clone(self) -> "raw_env":
        """An independent copy of this (unwrapped) env and its game, for search."""
        new = raw_env.__new__(raw_env)
        new.__dict__.update(self.__dict__)  # spaces, encoder, config: shared, immutable
        new.game = self.game.clone() if self.game is not None else None
        if self.game is not None:
            new.agents = list(self.agents)
            new.rewards = dict(self.rewards)
            new._cumulative_rewards = dict(self._cumulative_rewards)
            new.terminations = dict(self.terminations)
            new.truncations = dict(self.truncations)
            new.infos = copy.deepcopy(self.infos)
        if self._seed_rng is not None:
            new._seed_rng = copy.deepcopy(self._seed_rng)
        new._obs_cache = {}
        return new

    def save(self) -> str:
        """The game as the engine's canonical JSON (state, RNG and decision log)."""
        return self.game.to_json()

    def load(self, text: str) -> None:
        """Continue from a JSON snapshot made by :meth:`save` (or ``Game.to_json``); a
        bad snapshot, or one whose configuration does not fit this env, raises
        ``SaveFormatError`` and leaves the env unchanged."""
        game = (self._game_class if self.engine == "native" else Game).from_json(text,
                                                                               self.content)
        try:
            self.set_game(game)
        except ValueError as exc:
            raise SaveFormatError(str(exc)) from None

    def set_game(self, game: Game) -> None:
        """Play on from an engine game (its configuration must fit this env's spaces; a
        Python game continues on the native engine with ``engine="native"``)."""
        fields = ("max_tableau", "max_hand", "market_slots", "event_i_cards",
                  "event_ii_cards", "actions_per_turn", "spoils_shares", "slavery")
        diff = [f for f in fields if getattr(game.cfg, f) != getattr(self.cfg, f)]
        if diff:
            raise ValueError(f"the game's configuration differs from the env's in {diff}")
        if game.c is not self.content and game.c.digest != self.content.digest:
            raise ValueError("the game uses other content than this env")
        if self.engine == "native":
            if isinstance(game, Game):
                game = self._game_class.from_json(game.to_json(), self.content)
        elif not isinstance(game, Game):
            raise ValueError("a native game needs an env made with engine=\"native\"")
        else:
            game.keep_text_log = self.keep_text_log
        self._attach(game)


def _native_engine(cfg: RulesConfig, content: Content, keep_text_log: bool,
                  candidate_prior: Callable | None) -> tuple[type, Any]:
    """The native game class and observation encoder, or the error that says why the
    native engine cannot serve this env (its module missing: ``NativeUnavailable``)."""
    from . import native
    native.require()
    if keep_text_log or candidate_prior is not None:
        raise ValueError("engine=\"native\" keeps no text log and takes no candidate prior "
                         "(keep_text_log=False, candidate_prior=None)")
    if not native.plays(cfg):
        raise ValueError(f"the native engine does not play the {cfg.ruleset!r} ruleset")
    from .native.encoding import native_encoder_for
    return native.NativeGame, native_encoder_for(content, cfg)


def _decisions_made(game) -> int:
    """Decisions made so far in a Python or native game."""
    return game.s.decisions if isinstance(game, Game) else game.decisions


def _python_game(game) -> Game:
    """The game on the Python engine (a native game is copied through its save): for
    the words of render, describe and refusals."""
    return game if isinstance(game, Game) else Game.from_json(game.to_json(), game.c)


class _CallableModule(types.ModuleType):
    """``singapore_env.env`` is both this module and the factory: ``singapore_env.env(...)``
    works whether or not ``singapore_env.env`` was imported as a module first."""

    def __call__(self, **kwargs) -> AECEnv:
        return env(**kwargs)


sys.modules[__name__].__class__ = _CallableModule
