"""OpenSpiel's search bots on 1819 Singapore, and as agents of this project.

    bot = ismcts_bot(game, seconds=0.1, seed=1)          # a pyspiel.Bot for evaluate_bots
    agent = make_agent("openspiel-ismcts:seconds=0.1")   # an Agent for the arena, CLI, ladder

:class:`IsmctsBot` is OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.
ismcts``) with random rollouts, a time budget per decision besides the simulation count,
and the ``restart_at``/``inform_action`` that ``evaluate_bots`` asks of every bot.
:class:`OpenSpielIsmctsAgent` plays it at engine level (``choose(game, seat)``); it is
the agent spec ``openspiel-ismcts`` (an entry point of the ``singapore_1819.agents``
group in this project's ``pyproject.toml``, so it resolves in every worker process).
It never reads hidden state: every simulation starts in a world resampled from the
seat's view (:meth:`arena.openspiel_game.SingaporeState.resample_from_infostate`).
Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from agents.base import Agent

from .openspiel_game import SingaporeGame

MAX_SIMULATIONS = 1_000_000


class _OutOfTime(Exception):
    """The time budget of a search is spent."""


class IsmctsBot(ismcts.ISMCTSBot):
    """ISMCTS with at most ``max_simulations`` simulations and, with ``seconds > 0``, at
    most ``seconds`` of wall time per decision (at least two simulations)."""

    def __init__(self, game, evaluator, uct_c: float, max_simulations: int,
                 seconds: float = 0.0, random_state=None):
        super().__init__(game, evaluator, uct_c, max_simulations,
                         random_state=random_state, allow_inconsistent_action_sets=True)
        self.seconds = float(seconds)
        self._deadline = float("inf")

    def restart_at(self, state) -> None:
        """A new game (nothing is kept between decisions)."""
        self.reset()

    def inform_action(self, state, player_id: int, action: int) -> None:
        """Another player's move: nothing to update."""

    def run_search(self, state):
        """The search of :class:`ismcts.ISMCTSBot`, stopped when the time is spent."""
        self._deadline = (time.perf_counter() + self.seconds if self.seconds > 0
                          else float("inf"))
        try:
            return super().run_search(state)
        except _OutOfTime:
            node = self.filter_illegals(self._root_node, state.legal_actions())
            return self.get_final_policy(state, node)

    def sample_root_state(self, state):
        """A world for the next simulation, or :class:`_OutOfTime`."""
        if (time.perf_counter() > self._deadline and self._root_node is not None
                and self._root_node.total_visits > 0):
            raise _OutOfTime
        return super().sample_root_state(state)


def ismcts_bot(game, seconds: float = 0.0, simulations: int = MAX_SIMULATIONS,
               uct_c: float = 2.0, rollouts: int = 1, seed: int | None = None) -> IsmctsBot:
    """An :class:`IsmctsBot` with ``rollouts`` random rollouts per leaf."""
    rng = np.random.RandomState(None if seed is None else seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(rollouts, rng)
    return IsmctsBot(game, evaluator, uct_c, simulations, seconds=seconds, random_state=rng)


class OpenSpielIsmctsAgent(Agent):
    """OpenSpiel's ISMCTS as an engine-level agent (``openspiel-ismcts:seconds=0.5``).

    Budget: ``seconds`` of wall time per decision (0: none) and at most ``simulations``
    simulations; ``uct_c`` is the exploration constant, ``rollouts`` the random
    rollouts per leaf."""

    name = "openspiel-ismcts"

    def __init__(self, seed: int | None = None, seconds: float = 0.5,
                 simulations: int = MAX_SIMULATIONS, uct_c: float = 2.0, rollouts: int = 1):
        if not (seconds > 0 or 0 < simulations <= MAX_SIMULATIONS) or seconds < 0:
            raise ValueError("give seconds > 0 or simulations in 1..1000000")
        if not 0 < simulations <= MAX_SIMULATIONS or rollouts < 1 or uct_c < 0:
            raise ValueError("simulations must be in 1..1000000, rollouts >= 1, uct_c >= 0")
        self.seconds, self.simulations = float(seconds), int(simulations)
        self.uct_c, self.rollouts = float(uct_c), int(rollouts)
        self._seed = seed
        self._games: dict[tuple, SingaporeGame] = {}
        self._bots: dict[tuple, IsmctsBot] = {}

    def reset(self, seed: int | None = None) -> None:
        """New game; with ``seed`` the searches repeat (given a simulation budget)."""
        if seed is not None:
            self._seed = seed
            self._bots = {}

    def _bot(self, cfg, content) -> tuple[SingaporeGame, IsmctsBot]:
        """The OpenSpiel game and bot of these rules and cards (``content``: the engine
        game's own, so that an edited data folder reaches the search too)."""
        key = (cfg.ruleset, cfg.slavery, id(content))
        if key not in self._bots:
            game = SingaporeGame({"ruleset": cfg.ruleset, "slavery": cfg.slavery}, content)
            self._games[key] = game
            self._bots[key] = ismcts_bot(game, self.seconds, self.simulations, self.uct_c,
                                         self.rollouts, self._seed)
        return self._games[key], self._bots[key]

    def choose(self, game, seat: int):
        """The bot's move in an OpenSpiel state around a clone of ``game``."""
        legal = game.legal_decisions()
        if len(legal) == 1:
            return legal[0]
        spiel_game, bot = self._bot(game.cfg, game.c)
        action = bot.step(spiel_game.state_of(game))
        return spiel_game.encoder.table.decision(int(action))
