"""Single-agent Gymnasium view of one faction, for Stable-Baselines3 / sb3-contrib.

    from sb3_contrib import MaskablePPO
    from arena.faction_env import FactionEnv
    env = FactionEnv(faction="british", seats="one", opponents=my_agent)
    model = MaskablePPO("MlpPolicy", env).learn(100_000)

One *learning faction* (``"british"``: lieutenant_governor + resident, or ``"malay"``:
temenggong + sultan) is driven by the caller; every other seat is played by a given agent.

``seats``
    ``"one"`` (default): each episode has one learning seat, alternating between the
    faction's two seats from episode to episode (a ``reset(seed=...)`` restarts the
    alternation at the faction's first seat); its faction mate is played by ``partner``.
    The learner receives exactly its own seat's final reward.
    ``"both"``: both faction seats are driven by the learner (observations always from the
    seat that is asked, in relative seat order, so one policy can play both). The terminal
    reward is the **sum of both seats' own rewards** (a team reward); ``info["seat_rewards"]``
    gives each seat's own reward.
    A seat name (e.g. ``"resident"``): always that seat.

``opponents`` / ``partner``
    An agent is an agent spec (``"heuristic"``, ``"heuristic:seed=3"``,
    ``"mcts:iters=8"``, ``"learned:PATH"``), an :class:`agents.base.Agent` (``act`` or
    ``choose``) or a callable ``(observation: dict, mask) -> int``
    (:func:`agents.registry.as_agent`; anything else is a ValueError);
    ``observation`` is the PettingZoo observation dict (``{"observation", "action_mask"}``)
    of that seat. ``opponents`` is one agent for both opponent seats, a pair (opponent seats
    in seat order) or a dict ``{seat name: agent}``. ``None`` means uniformly random legal
    actions drawn from this env's own ``numpy.random.Generator`` (seeded from ``reset``'s
    seed; never the global RNG). Agents that have ``reset(seed=...)`` are re-seeded from
    the env's generator at every reset, so a seeded reset is reproducible.
    Use :class:`PolicyAgent` to play a frozen SB3 model.

``ruleset`` / ``config`` / ``slavery`` / ``reward_mode`` / ``max_steps`` / ``content``
    The rules and cards played, as for :func:`singapore_env.env` (``ruleset="standard"``
    and the shipped cards by default).

``shaping`` / ``shaping_gamma``
    Optional potential-based reward shaping (off by default): each learner step also
    earns ``shaping_gamma * phi(s') - phi(s)`` with ``phi = shaping x`` (own faction's
    mean projected final VP - the other faction's), ``phi = 0`` at the end. With
    ``shaping_gamma`` equal to the learner's discount it leaves the optimal policy
    unchanged (Ng et al., 1999).

``candidates``, ``candidate_prior``
    ``True``: the observation is a dict of ``observation`` and the candidate keys of
    :mod:`singapore_env.candidates` (per-action ``candidate_card`` /
    ``candidate_features``, the seats' ``projected_vp``), for action-aware policies such
    as the pointer network (:mod:`training.network.heads`); ``candidate_prior="heuristic"`` (a name of
    :data:`agents.priors.PRIORS`, or a scorer) adds the heuristic's scores of the turn
    questions to the candidate features.

Registered with Gymnasium as ``Singapore1819Faction-v0`` (:data:`GYM_ID`), so
``gymnasium.make`` and ``gymnasium.make_vec`` build it; ``render_mode="human"`` prints
the text board.

Spaces: ``observation_space`` is the flat ``Box(float32, (D,))`` of
:mod:`singapore_env.encoding` (the learning seat's point of view); ``action_space`` is
``Discrete(N)``; :meth:`FactionEnv.action_masks` returns the bool mask of the current
learning decision (sb3-contrib's ``MaskablePPO`` reads it). ``info["action_mask"]`` holds
the same mask as ``int8``.

An action outside the mask ends the episode with reward ``illegal_reward`` (-1) by default
(``illegal_action="penalize"``; ``"raise"`` raises
:class:`~singapore_env.env.IllegalActionError` instead). An opponent's masked-out action
always raises.
"""

from __future__ import annotations

import inspect
from typing import Any, Mapping

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle

from agents.priors import resolve_prior
from agents.net_layout import check_agent
from agents.registry import as_agent
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import FACTIONS, SEAT_FACTION
from singapore_env.engine.game import check_seed
from singapore_env.engine.query import projected_final_vp
from singapore_env.env import AGENTS, SEAT_OF, IllegalActionError, raw_env

__all__ = ["FactionEnv", "PolicyAgent"]

SEAT_MODES = ("one", "both")


class _RandomPolicy:
    """Default opponent: uniform among the legal actions, from the env's Generator."""

    needs_observation = False

    def __init__(self, owner: "FactionEnv"):
        self.owner = owner

    def pick(self, legal: list[int]) -> int:
        return legal[int(self.owner._rng.random() * len(legal))]


class PolicyAgent:
    """A frozen SB3 model as an agent: ``act(observation, mask) -> int``.

    Works with sb3-contrib's ``MaskablePPO`` (the mask is passed to ``predict``) and with
    plain SB3 models (an action outside the mask then raises in the env).
    """

    def __init__(self, model, deterministic: bool = True):
        self.model = model
        self.deterministic = deterministic
        try:
            self._masked = "action_masks" in inspect.signature(model.predict).parameters
        except (TypeError, ValueError):  # pragma: no cover
            self._masked = False

    def act(self, observation: dict, mask: np.ndarray) -> int:
        kwargs = {"action_masks": np.asarray(mask, bool)} if self._masked else {}
        action, _ = self.model.predict(observation["observation"],
                                       deterministic=self.deterministic, **kwargs)
        return int(action)


class FactionEnv(gymnasium.Env, EzPickle):
    """One learning faction of 1819 Singapore as a single-agent Gymnasium env.

    Pickling (``EzPickle``) rebuilds it from its constructor arguments."""

    metadata = {"name": "singapore_1819_faction_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, faction: str = "british", seats: str = "one", opponents: Any = None,
                 partner: Any = None, seed: int | None = None, reward_mode: str | None = None,
                 illegal_action: str = "penalize", max_steps: int | None = None,
                 config: RulesConfig | None = None, slavery: bool | None = None,
                 render_mode: str | None = None, illegal_reward: float = -1.0,
                 ruleset: str | None = None, candidates: bool = False,
                 candidate_prior: Any = None,
                 shaping: float = 0.0, shaping_gamma: float = 1.0,
                 content: Any = None):
        EzPickle.__init__(self, faction=faction, seats=seats, opponents=opponents,
                          partner=partner, seed=seed, reward_mode=reward_mode,
                          illegal_action=illegal_action, max_steps=max_steps, config=config,
                          slavery=slavery, render_mode=render_mode,
                          illegal_reward=illegal_reward, ruleset=ruleset,
                          candidates=candidates, candidate_prior=candidate_prior,
                          shaping=shaping, shaping_gamma=shaping_gamma, content=content)
        if faction not in FACTIONS:
            raise ValueError(f"faction must be one of {FACTIONS}, got {faction!r}")
        fac = FACTIONS.index(faction)
        self.faction = faction
        self.faction_seats = tuple(p for p in range(4) if SEAT_FACTION[p] == fac)
        if seats in SEAT_MODES:
            self.seats = seats
            self._pinned = None
        elif seats in SEAT_OF and SEAT_OF[seats] in self.faction_seats:
            self.seats = "one"
            self._pinned = SEAT_OF[seats]
        else:
            names = [AGENTS[p] for p in self.faction_seats]
            raise ValueError(f"seats must be one of {SEAT_MODES} or a seat of the {faction} "
                             f"faction {names}; got {seats!r}")
        self.raw = raw_env(slavery=slavery, reward_mode=reward_mode,
                           illegal_action=illegal_action, max_steps=max_steps, config=config,
                           render_mode=render_mode, illegal_reward=illegal_reward,
                           ruleset=ruleset, candidates=candidates,
                           candidate_prior=resolve_prior(candidate_prior), content=content)
        self.render_mode = render_mode
        self.shaping, self.shaping_gamma = float(shaping), float(shaping_gamma)
        self._potential = 0.0
        self.encoder = self.raw.encoder
        raw_space = self.raw.observation_space(AGENTS[0])
        self._keys = [k for k in raw_space if k != "action_mask"] if candidates else None
        self.observation_space = (spaces.Dict({k: raw_space[k] for k in self._keys})
                                  if self._keys is not None else raw_space["observation"])
        self.action_space: spaces.Discrete = spaces.Discrete(len(self.raw.table))

        self._random = _RandomPolicy(self)
        self._engine_level: set[int] = set()
        self._opponent_seats = tuple(p for p in range(4) if p not in self.faction_seats)
        self.set_opponents(opponents, partner)

        self._init_seed = seed if seed is None else check_seed(seed)  # (as Game takes it)
        self._episode = 0
        self._rng = np.random.default_rng(seed)
        self.learning_seats: tuple[int, ...] = ()
        self._done = True

    def set_opponents(self, opponents: Any = None, partner: Any = None) -> None:
        """Replace the opponents and the partner (from the next ``reset``); ``None`` means
        random play. Training code can call this between episodes (``env_method``). An
        agent whose network cannot read this env's observation is refused at once
        (:class:`agents.net_layout.LayoutMismatch`, naming the settings)."""
        controllers = {seat: as_agent(agent) if agent is not None else self._random
                       for seat, agent in self._opponent_map(opponents).items()}
        partner = as_agent(partner) if partner is not None else self._random
        for agent in dict.fromkeys([*controllers.values(), partner]):
            check_agent(agent, self.raw.content, self.raw.cfg)
        self._controllers = controllers
        self._partner = partner

    def _opponent_map(self, opponents) -> dict[int, Any]:
        seats = self._opponent_seats
        if isinstance(opponents, Mapping):
            unknown = set(opponents) - {AGENTS[p] for p in seats}
            if unknown:
                raise ValueError(f"opponents names seats {sorted(unknown)}; the opponent "
                                 f"seats are {[AGENTS[p] for p in seats]}")
            return {p: opponents.get(AGENTS[p]) for p in seats}
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != 2:
                raise ValueError(f"opponents must be one agent, two agents or a dict by seat "
                                 f"name; got a list of {len(opponents)}")
            return dict(zip(seats, opponents))
        return {p: opponents for p in seats}  # one agent (a spec builds one per seat)

    # ------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is None and self._init_seed is not None:
            seed, self._init_seed = self._init_seed, None
        super().reset(seed=seed if seed is None else check_seed(seed))
        if seed is not None:
            self._episode = 0
        if self.seats == "both":
            self.learning_seats = self.faction_seats
        elif self._pinned is not None:
            self.learning_seats = (self._pinned,)
        else:
            self.learning_seats = (self.faction_seats[self._episode % 2],)
        self._episode += 1
        rng = self.np_random
        game_seed = int(rng.integers(2**31 - 1))
        self._rng = np.random.default_rng(int(rng.integers(2**63 - 1)))
        controllers = dict(self._controllers)
        for p in self.faction_seats:
            if p not in self.learning_seats:
                controllers[p] = self._partner
        self._active = controllers
        seen: set[int] = set()
        for agent in controllers.values():
            if agent is not self._random and id(agent) not in seen:
                seen.add(id(agent))
                reset = getattr(agent, "reset", None)
                if callable(reset):
                    try:
                        reset(seed=int(self._rng.integers(2**31 - 1)))
                    except TypeError:
                        reset()
        self.raw.reset(seed=game_seed)
        self._done = False
        self._play_others()
        self._potential = self._projected_margin()
        return self._observation(), self._info()

    def step(self, action):
        if self._done:
            raise RuntimeError("the episode is over; call reset()")
        raw = self.raw
        raw.step(action)
        if not self._finished():
            self._play_others()
        obs = self._observation()
        info = self._info()
        reward = self._shaping_reward()
        terminated = truncated = False
        if self._finished():
            self._done = True
            seat_rewards = {AGENTS[p]: float(raw.rewards[AGENTS[p]])
                            for p in self.learning_seats}
            if raw.terminations[AGENTS[self.learning_seats[0]]]:
                terminated = True
                reward += float(sum(seat_rewards.values()))
            else:
                truncated = True
                seat_rewards = dict.fromkeys(seat_rewards, 0.0)
            info["seat_rewards"] = seat_rewards
            for p in self.learning_seats:  # final scores, winners, illegal-action details
                for k, v in raw.infos[AGENTS[p]].items():
                    if k != "final_vp" or len(self.learning_seats) == 1:
                        info.setdefault(k, v)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The bool mask of the current learning decision (all False once over)."""
        if self._done:
            return np.zeros(int(self.action_space.n), bool)
        return self.raw.observe(self._current_name())["action_mask"].astype(bool)

    def render(self):
        return self.raw.render()

    def close(self) -> None:
        self.raw.close()

    # ------------------------------------------------------------ helpers
    @property
    def game(self):
        """The engine game being played."""
        return self.raw.game

    @property
    def learner(self) -> str:
        """The learning seat that is asked now (or the first learning seat)."""
        return self._current_name()

    def _projected_margin(self) -> float:
        """Shaping potential: ``shaping`` x (the learning faction's mean projected final
        VP minus the other faction's); 0 once the game is over or without shaping."""
        if not self.shaping or self._finished():
            return 0.0

        game = self.raw.game
        vp = [projected_final_vp(game, p) for p in range(4)]
        own = sum(vp[p] for p in self.faction_seats) / 2
        return self.shaping * (own - sum(vp[p] for p in self._opponent_seats) / 2)

    def _shaping_reward(self) -> float:
        """Potential-based shaping ``gamma * phi(s') - phi(s)`` (keeps the optimal policy)."""
        if not self.shaping:
            return 0.0
        before, self._potential = self._potential, self._projected_margin()
        return self.shaping_gamma * self._potential - before

    def _finished(self) -> bool:
        raw = self.raw
        a = AGENTS[0]
        return raw.terminations[a] or raw.truncations[a]

    def _current_name(self) -> str:
        assert self.raw.game is not None  # (from the first reset on)
        seat = self.raw.game.acting_seat
        if seat not in self.learning_seats:
            seat = self.learning_seats[0]
        return AGENTS[seat]

    def _observation(self) -> np.ndarray | dict:
        ob = self.raw.observe(self._current_name())
        return {k: ob[k] for k in self._keys} if self._keys else ob["observation"]

    def _info(self) -> dict:
        name = self._current_name()
        return {"seat": name, "action_mask": self.raw.observe(name)["action_mask"].copy()}

    def _engine_action(self, agent, seat: int) -> int:
        """Action index of an engine-level agent's ``choose(game, seat)``."""
        game = self.raw.game
        assert game is not None
        decision = agent.choose(game, seat)
        if decision not in game.legal_decisions():
            raise IllegalActionError(f"{AGENTS[seat]} (played by {agent!r}) chose "
                                     f"{decision!r}, which is not legal now")
        return self.raw.table.index(decision)

    def _play_others(self) -> None:
        """Let the other seats answer until a learning seat is asked or the game ends."""
        raw, game, enc = self.raw, self.raw.game, self.encoder
        assert game is not None
        learning = self.learning_seats
        while not game.s.game_over:
            if raw.truncations[AGENTS[0]]:
                return
            seat = game.acting_seat
            if seat in learning:
                return
            agent = self._active[seat]
            if isinstance(agent, _RandomPolicy):  # (self._random, the only one)
                action = agent.pick(enc.legal_indices(game))
            elif id(agent) in self._engine_level:
                action = self._engine_action(agent, seat)
            else:
                name = AGENTS[seat]
                obs = raw.observe(name)
                try:
                    action = agent.act(obs, obs["action_mask"])
                except NotImplementedError:
                    if not callable(getattr(agent, "choose", None)):
                        raise
                    self._engine_level.add(id(agent))
                    action = self._engine_action(agent, seat)
                try:
                    ok = bool(obs["action_mask"][int(action)])
                except (TypeError, ValueError, IndexError):
                    ok = False
                if not ok:
                    raise IllegalActionError(
                        f"{name} (played by {agent!r}) chose action {action!r}, which is "
                        f"masked out; legal actions: {enc.legal_indices(game)}")
            raw.step(action)


#: The Gymnasium id of :class:`FactionEnv`, registered when this module is imported:
#: ``gymnasium.make(GYM_ID, faction="malay")`` after ``import arena.faction_env``,
#: or ``gymnasium.make("arena.faction_env:Singapore1819Faction-v0")`` with no import.
GYM_ID = "Singapore1819Faction-v0"
if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point=f"{__name__}:FactionEnv")
