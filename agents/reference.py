"""The shipped reference policies: ``learned:default`` plays each seat with its faction's
trained policy, so users can benchmark against a learned player without training one.

The files are ``agents/policies/british.npz`` and ``malay.npz`` (numpy actors, no torch
needed), produced by::

    singapore-1819 train --config training/configs/reference.toml --out runs/reference

(then copied from ``runs/reference``). Their strength against the heuristic, next to
the mirror baseline, is in ``docs/results.md``. They were trained on the ``standard``
ruleset; the observation has the same size in every ruleset, so they play the others
too, untrained for them.
"""

from __future__ import annotations

from singapore_env.engine.content import FACTIONS, SEAT_FACTION

from .base import Agent
from .learned import POLICY_DIR, LearnedAgent


class FactionPolicies(Agent):
    """One learned agent per faction; a seat plays with its faction's."""

    name = "learned:default"

    def __init__(self, by_faction: dict[int, LearnedAgent]):
        self.by_faction = by_faction

    def reset(self, seed: int | None = None) -> None:
        for faction, agent in self.by_faction.items():
            agent.reset(None if seed is None else seed + faction)

    def choose(self, game, seat: int):
        return self.by_faction[SEAT_FACTION[seat]].choose(game, seat)


def reference_agent(deterministic: bool = True, seed: int | None = None) -> FactionPolicies:
    """The shipped policies as one agent (most likely action, or sampled)."""
    return FactionPolicies({
        f: LearnedAgent.load(POLICY_DIR / f"{name}.npz", deterministic=deterministic,
                             seed=None if seed is None else seed + f)
        for f, name in enumerate(FACTIONS)})
