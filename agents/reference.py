"""The shipped learned players: ``learned:NAME`` plays each seat with its faction's
network of the shipped pair, so users can benchmark against a learned player without
training one.

- ``zero``: ``agents/policies/zero/``, learned by the self-play trainer from random
  weights with nothing hand-written beyond the rules read or imitated
  (``training/configs/zero.toml``: no heuristic teacher, prior or feature; its last
  run, ``zero_league.toml``, met the heuristic-guided search as an opponent), looking
  ahead on the main Action
  question (:mod:`agents.lookahead`) with its own value heads (what
  ``lookahead:zero`` plays);
- ``zero-policy``: the same networks without the lookahead (one forward pass a
  decision).

Every shipped network comes from that one self-play loop and lives in
``agents/policies/NAME/`` with its recipe ``training/configs/NAME.toml``
(:data:`agents.learned.SHIPPED_NETS`); the players of the networks made otherwise
(``learned:default``, ``learned:pure``, ``learned:pure-policy``) were retired, and asking
for one says what replaced it (:data:`agents.learned.RETIRED`).

They are numpy actors (no torch needed), copied from the run folder. Their strength
against the heuristic, next to the mirror baseline, is in ``docs/agents.md``. They
were trained on the ``standard`` ruleset; the observation has the same size in every
ruleset, so they play the others too, untrained for them (a table whose settings change
the observation's layout is refused: :mod:`agents.net_layout`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from .base import Agent
from .learned import LearnedAgent, check_retired, load_value_nets, net_path
from .lookahead import ROLLOUT_QUESTIONS, WORLDS, LookaheadPolicies


class FactionPolicies(Agent):
    """One learned agent per faction; a seat plays with its faction's."""

    name = "learned"

    def __init__(self, by_faction: dict[int, LearnedAgent]):
        self.by_faction = by_faction

    def reset(self, seed: int | None = None) -> None:
        for faction, agent in self.by_faction.items():
            agent.reset(None if seed is None else seed + faction)

    @property
    def plays_native(self) -> bool:
        """Whether both factions' agents play a native game."""
        return all(agent.plays_native for agent in self.by_faction.values())

    def networks(self) -> list:
        """Both factions' policies."""
        return [net for agent in self.by_faction.values() for net in agent.networks()]

    def choose(self, game, seat: int):
        return self.by_faction[SEAT_FACTION[seat]].choose(game, seat)


#: The shipped players: ``learned:NAME`` -> (the shipped network it plays, whether it
#: looks ahead with the network's value heads).
SHIPPED = {"zero": ("zero", True), "zero-policy": ("zero", False)}


def reference_agent(deterministic: bool = True, seed: int | None = None,
                    pair: str = "zero") -> Agent:
    """The shipped player ``pair`` (a key of :data:`SHIPPED`) as one agent (most likely
    action, or sampled); a retired name raises ValueError naming its replacement."""
    check_retired(f"learned:{pair}")
    net, looks_ahead = SHIPPED[pair]
    folder = net_path(net)
    agent: Agent = FactionPolicies({
        f: LearnedAgent(_shipped_policy(folder / f"{name}.npz"), deterministic=deterministic,
                        seed=None if seed is None else seed + f)
        for f, name in enumerate(FACTIONS)})
    if looks_ahead:
        agent = LookaheadPolicies(agent, dict(_shipped_values(folder)), seed)
    agent.name = f"learned:{pair}"
    return agent


def lookahead_over(folder: str | Path, seed: int | None = None, worlds: int = WORLDS,
                   values: str | Path | None = None,
                   questions: int = ROLLOUT_QUESTIONS) -> Agent:
    """A lookahead (:mod:`agents.lookahead`) over the students in ``folder`` (a shipped
    name, :func:`agents.learned.net_path`, or a folder of the pointer policies
    ``british.npz`` and ``malay.npz``, which must read no prior), each answer scored in
    ``worlds`` sampled worlds, rolled out to the seat's ``questions``-th main Action
    question, by the value heads of the networks in ``values``: by default the
    students' own (the self-play trainer's pointer networks carry them:
    ``lookahead:DIR``)."""
    folder = net_path(folder)
    students = FactionPolicies({
        f: LearnedAgent.load(folder / f"{name}.npz", seed=None if seed is None else seed + f)
        for f, name in enumerate(FACTIONS)})
    agent = LookaheadPolicies(students, load_value_nets(folder if values is None else values),
                              seed, worlds=worlds, questions=questions)
    agent.name = f"lookahead over {folder}"
    return agent


# The shipped networks are package data: each is loaded once a process and shared, read
# only, by every agent that plays it (a table of four learned:zero seats reads its files
# once, not four times).
@lru_cache(maxsize=None)
def _shipped_policy(path: Path):
    return LearnedAgent.load(path).policy


@lru_cache(maxsize=None)
def _shipped_values(folder: Path) -> dict:
    return load_value_nets(folder)
