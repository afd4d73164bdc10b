"""Play whole games between agents at engine level, and run tournaments.

    from agents import make_agent
    result = play_game(7, [make_agent("random") for _ in range(4)])
    summary = run_tournament(1000, ["random"] * 4, seed=1)

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

import math
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

import numpy as np

from .config import RulesConfig
from .content import FACTIONS, SEAT_FACTION
from .engine import Game, IllegalDecision

if TYPE_CHECKING:  # pragma: no cover
    from agents.base import Agent

#: Two-sided 95% normal quantile used by the Wilson intervals.
Z95 = 1.959963984540054
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
              agent_seeds: Sequence[int | None] | None = None, keep_text_log: bool = False,
              keep_game: bool = False, max_decisions: int = MAX_DECISIONS) -> GameResult:
    """Play one full game; on each step the acting seat's agent ``choose(game, seat)``.

    ``agents[p]`` plays seat ``p`` (0 lieutenant_governor, 1 resident, 2 temenggong,
    3 sultan): an Agent, an agent spec (``"heuristic:seed=3"``) or a function
    ``(observation, mask) -> action index`` (:func:`agents.registry.as_agent`). Every agent is first ``reset`` with its seed (``agent_seeds`` or seeds
    derived from ``seed``). With ``keep_game`` the finished :class:`Game` is returned
    in ``result.game``. Raises IllegalDecision (naming the seat and agent) if an agent
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
    game = Game(seed, config, keep_text_log=keep_text_log)
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


def wilson_interval(successes: float, n: int, z: float = Z95) -> list[float]:
    """Wilson score interval ``[low, high]`` for a proportion (fractional successes allowed)."""
    if n <= 0:
        return [0.0, 1.0]
    p = min(max(successes / n, 0.0), 1.0)
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if p == 0.0 else min(p, max(0.0, centre - half))
    high = 1.0 if p == 1.0 else max(p, min(1.0, centre + half))
    return [low, high]


def run_tournament(n_games: int, agent_names: Sequence[str], seed: int = 0,
                   config: RulesConfig | None = None, progress: bool = False, *,
                   on_game: Callable[[int, GameResult], None] | None = None,
                   keep_first_game: bool = False) -> dict:
    """Play ``n_games`` games with the named agents (seat order) and summarize them.

    A win shared by ``k`` seats counts ``1/k`` for each (so wins by seat always sum
    to ``games``); a faction's wins are the sum of its seats' wins. Win rates come
    with a 95% Wilson interval. ``on_game(i, result)`` is called after each game; with
    ``keep_first_game`` game 0 keeps its text log and ``result.game`` for it.
    The returned dict is JSON-serializable.
    """
    from agents.registry import make_agent  # the engine package does not import agents

    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    names = list(agent_names)
    if len(names) != 4:
        raise ValueError(f"a game needs 4 players, got {len(names)}: {names}")
    cfg = config if config is not None else RulesConfig.standard()
    agents = [make_agent(name) for name in names]

    wins = [0.0] * 4
    vp_sum = [0] * 4
    decisions = 0
    ties = 0
    bar = None
    if progress and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=n_games, unit="game", desc="simulating")
    start = time.perf_counter()
    try:
        for i, seeds in enumerate(game_seeds(seed, n_games)):
            first = keep_first_game and i == 0
            result = play_game(seeds[0], agents, cfg, agent_seeds=seeds[1:],
                               keep_text_log=first, keep_game=first)
            share = 1.0 / len(result.winners)
            for p in result.winners:
                wins[p] += share
            ties += len(result.winners) > 1
            for p in range(4):
                vp_sum[p] += result.final_scores[p]
            decisions += result.decisions
            if on_game is not None:
                on_game(i, result)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - start

    faction_wins = {name: 0.0 for name in FACTIONS}
    for p in range(4):
        faction_wins[FACTIONS[SEAT_FACTION[p]]] += wins[p]
    return {
        "games": n_games,
        "seed": seed,
        "players": names,
        "ruleset": cfg.ruleset,
        "slavery": cfg.slavery,
        "wins_by_seat": wins,
        "wins_by_faction": faction_wins,
        "win_rate_by_seat": [
            {"rate": w / n_games, "ci95": wilson_interval(w, n_games)} for w in wins],
        "win_rate_by_faction": {
            k: {"rate": w / n_games, "ci95": wilson_interval(w, n_games)}
            for k, w in faction_wins.items()},
        "mean_vp_by_seat": [v / n_games for v in vp_sum],
        "mean_decisions_per_game": decisions / n_games,
        "shared_wins": ties,
        "seconds": elapsed,
        "games_per_second": n_games / max(elapsed, 1e-9),
    }
