"""Play whole games between agents at engine level, and run tournaments.

    from agents import make_agent
    result = play_game(7, [make_agent("random") for _ in range(4)])
    summary = run_tournament(1000, ["random"] * 4, seed=1, workers=2)

No RL imports here: agents decide through :meth:`agents.base.Agent.choose`.

Seeds. A tournament with base seed ``S`` plays game ``i`` (0-based) with seeds drawn
from ``numpy.random.SeedSequence(S).spawn(n_games)[i].generate_state(5, numpy.uint64)``:
word 0 is the engine seed (``Game(seed=...)``) and words 1..4 re-seed the agents of
seats 0..3 (``agent.reset(seed)``). Game ``i`` is therefore the same whatever
``n_games`` is, and different games / seats get independent streams.
:func:`play_game` on its own derives agent seeds from the game seed the same way
(``SeedSequence([seed, 1819]).generate_state(4, numpy.uint64)``) unless given
``agent_seeds`` explicitly.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

import numpy as np

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import resolve_content
from singapore_env.engine import Game, IllegalDecision

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
    :class:`Game` is returned in ``result.game``. Raises IllegalDecision (naming the seat and agent) if an agent
    picks an illegal decision, RuntimeError if the game exceeds ``max_decisions``.
    """
    from agents.registry import as_agent  # the engine package does not import agents

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


def run_tournament(n_games: int, agent_names: Sequence, seed: int = 0,
                   config: RulesConfig | None = None, progress: bool = False, *,
                   content: "Content | str | None" = None, swap: bool = False,
                   workers: int = 1, ray_address: str | None = None) -> dict:
    """Play ``n_games`` games with the named agents (seat order) and summarize them
    (:func:`arena.summary.summarize`, the schema every command writes).

    ``agent_names`` are agent specs (or, with ``workers=1``, agent objects, named in the
    summary by their ``name``). ``content`` is an edited data folder (or a loaded
    :class:`~singapore_env.engine.content.Content`); ``swap`` plays every seed twice, each
    faction's two seats exchanged; ``workers`` processes (or a Ray cluster) play the
    games, with the same records for any number. The returned dict is JSON-serializable.
    """
    from .runner import Table, play_tables
    from .summary import summarize

    players = list(agent_names)
    if len(players) != 4:
        raise ValueError(f"a game needs 4 players, got {len(players)}: {players}")
    cfg = config if config is not None else RulesConfig.standard()
    start = time.perf_counter()
    records = play_tables([Table(tuple(players), cfg, content)], n_games, seed, swap=swap,
                          workers=workers, ray_address=ray_address, progress=progress,
                          desc="simulating")
    return summarize(records, seconds=time.perf_counter() - start, seed=seed, seeds=n_games,
                     swap=swap, ruleset=cfg.ruleset, slavery=cfg.slavery,
                     changes=config_changes(cfg), data=_content_name(content))


def config_changes(cfg: RulesConfig) -> dict:
    """The settings of ``cfg`` that differ from its ruleset's own numbers (JSON values)."""
    base = RulesConfig.named(cfg.ruleset).to_dict()
    return {k: v for k, v in cfg.to_dict().items()
            if k not in ("ruleset", "extra") and base.get(k) != v}


def _content_name(content) -> str | None:
    if content is None:
        return None
    return str(content) if not hasattr(content, "digest") else f"content {content.digest}"

