"""Play one whole game between agents at engine level.

    from agents import make_agent
    result = play_game(7, [make_agent("random") for _ in range(4)])

Many games (a tournament, on processes or Ray) are :mod:`arena.runner`.

No RL imports here: agents decide through :meth:`agents.base.Agent.choose`.

Seeds. Many games with base seed ``S`` plays game ``i`` (0-based) with seeds drawn
from ``numpy.random.SeedSequence(S).spawn(n_games)[i].generate_state(5, numpy.uint64)``:
word 0 is the engine seed (``Game(seed=...)``) and words 1..4 re-seed the agents of
seats 0..3 (``agent.reset(seed)``). Game ``i`` is therefore the same whatever
``n_games`` is, and different games / seats get independent streams.
:func:`play_game` on its own derives agent seeds from the game seed the same way
(``SeedSequence([seed, 1819]).generate_state(4, numpy.uint64)``) unless given
``agent_seeds`` explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

import numpy as np

from agents.registry import as_agent
from singapore_env.engine import Game, IllegalDecision
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import resolve_content

if TYPE_CHECKING:  # pragma: no cover
    from agents.base import Agent

    from singapore_env.engine.content import Content

#: Safety cap on decisions in one game (a random game takes a few hundred).
MAX_DECISIONS = 100_000


@dataclass
class GameResult:
    """The outcome of one game."""

    seed: int
    final_scores: list[int]
    winners: list[int]
    decisions: int                # decisions taken by the agents (len(game.history))
    round: int                    # the round the game ended in (8 for a full game)
    game: Game | None = field(default=None, repr=False, compare=False)


def game_seeds(seed: int, n_games: int) -> list[list[int]]:
    """Per-game seeds of a tournament: ``[engine_seed, agent0, agent1, agent2, agent3]``."""
    children = np.random.SeedSequence(seed).spawn(n_games)
    return [[int(x) for x in c.generate_state(5, np.uint64)] for c in children]


def default_agent_seeds(seed: int) -> list[int]:
    """Agent seeds :func:`play_game` uses for a game seed when none are given."""
    return [int(x) for x in np.random.SeedSequence([seed, 1819]).generate_state(4, np.uint64)]


def play_game(seed: int, agents: Sequence["Agent"], config: RulesConfig | None = None, *,
              content: "Content | str | None" = None,
              agent_seeds: Sequence[int | None] | None = None, keep_text_log: bool = False,
              keep_game: bool = False, max_decisions: int = MAX_DECISIONS) -> GameResult:
    """Play one full game; on each step the acting seat's agent ``choose(game, seat)``.

    ``agents[p]`` plays seat ``p`` (0 lieutenant_governor, 1 resident, 2 temenggong,
    3 sultan): an Agent, an agent spec (``"heuristic:seed=3"``) or a function
    ``(observation, mask) -> action index`` (:func:`agents.registry.as_agent`). Every
    agent is first ``reset`` with its seed (``agent_seeds`` or seeds derived from
    ``seed``). ``content`` is the cards and board (a loaded content or an edited data
    folder; the shipped data by default). With ``keep_game`` the finished
    :class:`Game` is returned in ``result.game``. Raises IllegalDecision (naming the seat
    and agent) if an agent picks an illegal decision, RuntimeError if the game exceeds ``max_decisions``.
    """

    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) \
            or len(agents) != 4:
        raise ValueError(f"a game needs a list of 4 agents, got {agents!r}"[:200])
    agents = [as_agent(a) for a in agents]
    seeds = list(agent_seeds) if agent_seeds is not None else default_agent_seeds(seed)
    if len(seeds) != 4:
        raise ValueError(f"agent_seeds needs 4 entries, got {len(seeds)}")
    for agent, s in zip(agents, seeds):
        agent.reset(s)
    cfg = config if config is not None else RulesConfig.standard()
    game = Game(seed, cfg, resolve_content(content, cfg.slavery), keep_text_log=keep_text_log)
    while not game.is_over:
        if len(game.history) >= max_decisions:
            raise RuntimeError(f"game seed {seed} did not end within {max_decisions} decisions")
        seat = game.acting_seat
        decision = agents[seat].choose(game, seat)
        try:
            game.step(decision)
        except IllegalDecision as exc:
            raise IllegalDecision(
                f"agent {agents[seat].name!r} at seat {seat} (game seed {seed}): {exc}") from None
    return GameResult(seed=seed, final_scores=game.final_scores, winners=game.winners,
                      decisions=len(game.history), round=game.s.round,
                      game=game if keep_game else None)
