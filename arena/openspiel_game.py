"""1819 Singapore as an OpenSpiel game: ``pyspiel.load_game("python_singapore_1819")``.

    import arena.openspiel_game                      # registers the game with pyspiel
    game = pyspiel.load_game("python_singapore_1819(ruleset=first-edition)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                                  # one float per seat

Needs the ``openspiel`` extra (``pip install 'singapore-1819[openspiel]'``).

Translation only, like the PettingZoo env: the rules are the engine's
(:class:`~singapore_env.engine.Game`), the actions the env's action table, the tensors
the env's observation encoder (:class:`~singapore_env.encoding.ObservationEncoder`).

* **Randomness**: one explicit chance node at the start deals the engine seed (one
  of ``seeds`` outcomes, uniform); the seed fixes the setup shuffles and every later die
  and shuffle, drawn by the engine's own generator, hidden from every seat like a
  shuffled deck. The rest of the game has no chance nodes. Why: OpenSpiel's
  conformance test (``pyspiel.random_sim_test``) needs the game's RNG state for a
  *sampled stochastic* game, which a Python game cannot provide, and chance outcomes for
  every die and shuffle would take the engine's randomness out of the engine. The bots
  need nothing more: ISMCTS resamples a world (:meth:`SingaporeState.resample_from_infostate`,
  which also re-seeds the future dice), MCTS and random rollouts sample the root chance
  node and play on. A clone keeps the generator, so a plain (perfect-information) MCTS
  foresees the dice and reads the hands: a cheating baseline, like every
  perfect-information search on this game.
* **Players**: the four seats (0 lieutenant_governor, 1 resident, 2 temenggong,
  3 sultan); ``current_player()`` is the seat the engine asks (out-of-turn questions
  included).
* **Returns**: the env's reward of the finished game per seat (``reward_mode``,
  default ``win``: +1 shared by the winners); a game cut at ``max_game_length``
  decisions returns zeros.
* **Information state and observation**: both are the env's observation of the seat
  (what that seat may see; not a perfect-recall history: the encoder's vector is the
  seat's whole view of the present), as a tensor and, as a string, that tensor's
  digest. Public-only or all-players observations are not offered.
* **Parameters**: ``ruleset`` (``standard``, ``first-edition``, ``simulation``),
  ``reward_mode``, ``slavery``, ``seeds`` (the chance outcomes: engine seeds
  ``0..seeds-1``), ``max_game_length`` and ``data`` (the folder of an edited copy of the
  data files, as ``--data`` on the command line; empty: the shipped cards).

Why in the arena layer: ``resample_from_infostate`` is the agents' determinization
(:func:`agents.determinize.determinize`), so the game sits above the agents, beside the
other views of the game for outside frameworks (:mod:`arena.faction_env`).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pyspiel

from agents.determinize import determinize
from singapore_env.encoding import ObservationEncoder, encoder_for
from singapore_env.engine import Game
from singapore_env.engine.config import RULESETS, RulesConfig
from singapore_env.engine.content import resolve_content
from singapore_env.engine.describe import describe
from singapore_env.rewards import REWARD_MODES, rewards

GAME_NAME = "python_singapore_1819"
N_PLAYERS = 4
DEFAULT_PARAMS = {"ruleset": "standard", "reward_mode": "win", "slavery": True,
                  "seeds": 4096, "max_game_length": 2000, "data": ""}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python 1819 Singapore",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=N_PLAYERS,
    min_num_players=N_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS)


class SingaporeGame(pyspiel.Game):
    """The game with its parameters: rules, encoder and the seeds of new games.

    ``content`` (a loaded :class:`~singapore_env.engine.content.Content`) replaces the
    cards the ``data`` parameter names, for a bot deciding in a game played elsewhere
    on that content."""

    def __init__(self, params: dict | None = None, content=None):
        p = {**DEFAULT_PARAMS, **(params or {})}
        if p["ruleset"] not in RULESETS:
            raise ValueError(f"unknown ruleset {p['ruleset']!r}; known: {', '.join(RULESETS)}")
        if p["reward_mode"] not in REWARD_MODES:
            raise ValueError(f"unknown reward_mode {p['reward_mode']!r}; "
                             f"known: {', '.join(REWARD_MODES)}")
        self.cfg = RulesConfig.named(p["ruleset"]).replace(slavery=bool(p["slavery"]))
        self.content = resolve_content(content or p["data"] or None, self.cfg.slavery)
        self.encoder = encoder_for(self.content, self.cfg)
        self.reward_mode = p["reward_mode"]
        self.max_length = int(p["max_game_length"])
        self.seeds = int(p["seeds"])
        if self.seeds < 1:
            raise ValueError(f"seeds must be >= 1, got {self.seeds}")
        low, high = (-200.0, 200.0) if self.reward_mode == "vp_margin" else (0.0, 1.0)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.encoder.table), max_chance_outcomes=self.seeds,
            num_players=N_PLAYERS, min_utility=low, max_utility=high, utility_sum=None,
            max_game_length=self.max_length)
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> "SingaporeState":
        """A new game: the chance node that deals its engine seed."""
        return SingaporeState(self, None)

    def state_of(self, game: Game) -> "SingaporeState":
        """An OpenSpiel state around (a clone of) an engine game of these rules, for a
        bot asked to decide in a game played elsewhere (its history starts empty)."""
        return SingaporeState(self, game.clone())

    def make_py_observer(self, iig_obs_type=None, params=None) -> "SeatObserver":
        """The observer of information states and observations (both the seat's view)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("only a seat's own view is offered (public and its private "
                             "information)")
        return SeatObserver(self.encoder)


class SingaporeState(pyspiel.State):
    """One game in progress: an engine :class:`~singapore_env.engine.Game`."""

    def __init__(self, game: SingaporeGame, engine_game: Game | None):
        super().__init__(game)
        self._box = _Box(engine_game, game)

    @property
    def game(self) -> Game | None:
        """The engine game of this state (None at the chance node of the start)."""
        return self._box.game

    def _cut(self) -> bool:
        assert self.game is not None  # (asked only past the chance node)
        return 0 < self._box.max_length <= self.game.s.decisions

    def current_player(self) -> int:
        """The seat the engine asks, ``CHANCE`` at the start, or ``TERMINAL``."""
        if self.game is None:
            return pyspiel.PlayerId.CHANCE
        if self.game.is_over or self._cut():
            return pyspiel.PlayerId.TERMINAL
        return self.game.acting_seat

    def is_terminal(self) -> bool:
        """The game is over (or cut at ``max_game_length`` decisions)."""
        return self.game is not None and (self.game.is_over or self._cut())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine seeds ``0..seeds-1``, uniform (only at the start)."""
        n = self._box.seeds
        return [(seed, 1.0 / n) for seed in range(n)] if self.game is None else []

    def _legal_actions(self, player: int) -> list[int]:
        """The action indices of the engine's legal decisions, ascending."""
        if player != self.current_player():
            return []
        return sorted(self._box.encoder.legal_indices(self.game))

    def _apply_action(self, action: int) -> None:
        if self.game is None:
            self._box.game = self._box.new_game(int(action))
            return
        self.game.step(self._box.encoder.table.decision(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"engine seed {action}"
        decision = self._box.encoder.table.decision(int(action))
        try:
            text = describe(self.game, decision)
        except Exception:  # noqa: BLE001 -- an action of another moment: its raw form
            text = repr(decision)
        return f"p{player} #{action} {text}"  # the index: two copies of a card differ

    def returns(self) -> list[float]:
        """Per seat: the env's reward of the finished game; zeros before the end."""
        if self.game is None or not self.game.is_over:
            return [0.0] * N_PLAYERS
        return [float(r) for r in rewards(self.game.final_scores, self._box.reward_mode)]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "SingaporeState":
        """A state that ``player_id`` cannot tell from this one: everything it cannot
        see resampled (:func:`agents.determinize.determinize`), seeded by the sampler."""
        seed = int(probability_sampler() * 2**62)
        world = self.clone()  # keeps the history
        if self.game is not None:
            world._box.game = determinize(self.game, player_id, np.random.default_rng(seed))
        return world

    def __str__(self) -> str:
        if self.game is None:
            return "start (chance: the engine seed)"
        s = self.game.s
        return (f"decisions={s.decisions} vp={list(s.vp)} "
                f"pending={getattr(self.game.pending, 'kind', None)}")


class _Box:
    """The engine game of a state and the rules' shared parts. OpenSpiel clones a
    Python state with ``copy.deepcopy`` (the game is cloned, the rest shared) and
    pickles it (the game as its JSON save)."""

    def __init__(self, game: Game | None, spiel_game: SingaporeGame):
        self.game = game
        self.encoder = spiel_game.encoder
        self.max_length = spiel_game.max_length
        self.reward_mode = spiel_game.reward_mode
        self.seeds = spiel_game.seeds
        self._spiel_game = spiel_game

    def new_game(self, seed: int) -> Game:
        """The engine game of seed ``seed`` under these rules."""
        g = self._spiel_game
        return Game(seed, g.cfg, g.content, keep_text_log=False)  # no text: faster rollouts

    def __deepcopy__(self, memo) -> "_Box":
        return _Box(None if self.game is None else self.game.clone(), self._spiel_game)

    def __reduce__(self):
        return _unpickle_box, (None if self.game is None else self.game.to_json(),
                               dict(self._spiel_game.get_parameters()))


_LOADED: dict[str, SingaporeGame] = {}


def _unpickle_box(text: str | None, params: dict) -> _Box:
    key = repr(sorted(params.items()))
    if key not in _LOADED:
        _LOADED[key] = SingaporeGame(params)
    spiel_game = _LOADED[key]
    game = None if text is None else Game.from_json(text, spiel_game.content)
    return _Box(game, spiel_game)


class SeatObserver:
    """A seat's view (PyObserver interface): the env's observation vector."""

    def __init__(self, encoder: ObservationEncoder):
        self._encoder = encoder
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SingaporeState, player: int) -> None:
        """Fill :attr:`tensor` with ``player``'s view of ``state`` (zeros before the
        engine seed is dealt)."""
        if state.game is None:
            self.tensor.fill(0.0)
        else:
            self._encoder.encode(state.game, player, out=self.tensor)

    def string_from(self, state: SingaporeState, player: int) -> str:
        """``player``'s view as a short string: the seat and its vector's digest."""
        if state.game is None:
            return f"p{player}:start"
        vector = self._encoder.encode(state.game, player)
        return f"p{player}:{hashlib.blake2b(vector.tobytes(), digest_size=16).hexdigest()}"


pyspiel.register_game(_GAME_TYPE, SingaporeGame)
