"""Play one whole game between agents at engine level.

    from agents import make_agent
    result = play_game(7, [make_agent("random") for _ in range(4)])

Many games (a tournament, on processes or Ray) are :mod:`arena.runner`.

No RL imports here: agents decide through :meth:`agents.base.Agent.choose`.

Engines. ``engine="python"`` (:func:`play_game`'s default) plays a
:class:`~singapore_env.engine.Game`; ``engine="native"`` a
:class:`~singapore_env.native.NativeGame`, the compiled twin: the same seeds and
decisions give the same game, so the same result and record. Only agents that read the
observation alone or have a native twin (:attr:`agents.base.Agent.plays_native`:
``heuristic``, ``random``, ``rerank``, ``mcts``, ``learned:PATH`` of a flat actor or of a
pointer policy (such as ``learned:zero-policy``, or one reading the heuristic's prior
columns), ``learned:zero``, ``lookahead:DIR``, an agent playing through ``act``) sit at a
native game; :func:`check_engine` refuses the others by name. Many games
(:mod:`arena.runner`) play where :func:`default_engine` says unless told: on the
native engine where it is built and every player sits there, else on the Python engine.

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

from agents.net_layout import check_table
from agents.registry import as_agent
from singapore_env.engine import Game, IllegalDecision
from singapore_env.engine.config import RulesConfig
from singapore_env.engine.content import resolve_content

from .records import final_state

if TYPE_CHECKING:  # pragma: no cover
    from agents.base import Agent

    from singapore_env.engine.content import Content
    from singapore_env.native import NativeGame

#: Safety cap on decisions in one game (a random game takes a few hundred).
MAX_DECISIONS = 100_000
#: The engines a game can be played on.
ENGINES = ("python", "native")
#: Who may sit at a native game, as the refusal says it.
NATIVE_PLAYERS = ("heuristic, random, rerank, learned:PATH or learned-sample:PATH of a flat "
                  "actor or of a pointer policy (learned:zero-policy), learned:zero, mcts, "
                  "lookahead:DIR, an agent that plays through act(observation, mask) alone")


@dataclass
class GameResult:
    """The outcome of one game."""

    seed: int
    final_scores: list[int]
    winners: list[int]
    decisions: int                # decisions taken by the agents
    round: int                    # the round the game ended in (8 for a full game)
    game: "Game | NativeGame | None" = field(default=None, repr=False, compare=False)


def game_seeds(seed: int, n_games: int) -> list[list[int]]:
    """Per-game seeds of a tournament: ``[engine_seed, agent0, agent1, agent2, agent3]``."""
    children = np.random.SeedSequence(seed).spawn(n_games)
    return [[int(x) for x in c.generate_state(5, np.uint64)] for c in children]


def default_agent_seeds(seed: int) -> list[int]:
    """Agent seeds :func:`play_game` uses for a game seed when none are given."""
    return [int(x) for x in np.random.SeedSequence([seed, 1819]).generate_state(4, np.uint64)]


def python_only(agents: Sequence) -> list[str]:
    """The names of the ``agents`` (agents or specs, each built once:
    :func:`agents.registry.as_agent`) that cannot sit at a native game, in order."""
    names = [a.name for a in map(as_agent, dict.fromkeys(agents)) if not a.plays_native]
    return list(dict.fromkeys(names))


def check_engine(agents: Sequence, engine: str) -> None:
    """Raise unless all ``agents`` (agents or specs) can play on ``engine``: ValueError
    naming an unknown engine or the agents that cannot sit at a native game,
    :class:`~singapore_env.native.NativeUnavailable` when the native module is not
    built. Specs are built (:func:`agents.registry.as_agent`, each once) only to ask a
    native game's players."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    if engine == "python":
        return
    from singapore_env.native import require

    require()
    refused = python_only(agents)
    if refused:
        raise ValueError(f"the native engine seats only players with a native twin or that "
                         f"read the observation and the action mask alone ({NATIVE_PLAYERS}); "
                         f"these read the Python "
                         f"engine's game and cannot sit: {', '.join(refused)} "
                         f"(play them on the python engine)")


def default_engine(agents: Sequence,
                   configs: Sequence[RulesConfig] = ()) -> tuple[str, list[str]]:
    """The engine games between ``agents`` (agents or specs) under ``configs`` play on
    when none is asked for, and the Python-only players that kept them off the native
    engine: ``("native", [])`` where the native module is built, plays every
    configuration's ruleset and every agent sits at a native game (the same games,
    faster); else ``("python", names)``, ``names`` empty when the module or a ruleset
    decided it."""
    from singapore_env import native

    if not native.available() or not all(native.plays(cfg) for cfg in configs):
        return "python", []
    refused = python_only(agents)
    return ("python", refused) if refused else ("native", [])


def new_game(engine: str, seed: int, config: RulesConfig, content: "Content",
             keep_text_log: bool = False) -> "Game | NativeGame":
    """A new game on ``engine`` (a native game keeps no text log)."""
    if engine == "python":
        return Game(seed, config, content, keep_text_log=keep_text_log)
    if keep_text_log:
        raise ValueError("the native engine keeps no text log: play with engine python")
    from singapore_env.native import NativeGame

    return NativeGame(seed, config, content)


def play_game(seed: int, agents: Sequence["Agent"], config: RulesConfig | None = None, *,
              content: "Content | str | None" = None,
              agent_seeds: Sequence[int | None] | None = None, keep_text_log: bool = False,
              keep_game: bool = False, max_decisions: int = MAX_DECISIONS,
              engine: str = "python") -> GameResult:
    """Play one full game; on each step the acting seat's agent ``choose(game, seat)``.

    ``agents[p]`` plays seat ``p`` (0 lieutenant_governor, 1 resident, 2 temenggong,
    3 sultan): an Agent, an agent spec (``"heuristic:seed=3"``) or a function
    ``(observation, mask) -> action index`` (:func:`agents.registry.as_agent`). Every
    agent is first ``reset`` with its seed (``agent_seeds`` or seeds derived from
    ``seed``). ``content`` is the cards and board (a loaded content or an edited data
    folder; the shipped data by default). With ``keep_game`` the finished game is
    returned in ``result.game``. ``engine`` is ``"python"`` or ``"native"`` (the same
    game; :func:`check_engine` says who may play on it). Raises IllegalDecision (naming
    the seat and agent) if an agent picks an illegal decision, RuntimeError if the game
    exceeds ``max_decisions``.
    """

    if isinstance(agents, (str, bytes)) or not isinstance(agents, Sequence) \
            or len(agents) != 4:
        raise ValueError(f"a game needs a list of 4 agents, got {agents!r}"[:200])
    agents = [as_agent(a) for a in agents]
    check_engine(agents, engine)
    cfg = config if config is not None else RulesConfig.standard()
    content = resolve_content(content, cfg.slavery)
    check_table(agents, cfg, content)
    seeds = list(agent_seeds) if agent_seeds is not None else default_agent_seeds(seed)
    if len(seeds) != 4:
        raise ValueError(f"agent_seeds needs 4 entries, got {len(seeds)}")
    for agent, s in zip(agents, seeds):
        agent.reset(s)
    game = new_game(engine, seed, cfg, content, keep_text_log)
    decisions = 0
    while not game.is_over:
        if decisions >= max_decisions:
            raise RuntimeError(f"game seed {seed} did not end within {max_decisions} decisions")
        seat = game.acting_seat
        # (Agent.choose is typed for the Python Game; check_engine let through only the
        # agents that play a native game too, which mypy cannot see)
        decision = agents[seat].choose(game, seat)  # type: ignore[arg-type]
        try:
            game.step(decision)
        except IllegalDecision as exc:
            raise IllegalDecision(
                f"agent {agents[seat].name!r} at seat {seat} (game seed {seed}): {exc}") from None
        decisions += 1
    return GameResult(seed=seed, final_scores=game.final_scores, winners=game.winners,
                      decisions=decisions, round=final_state(game)["round"],
                      game=game if keep_game else None)
