"""The shipped learned policies: ``learned:NAME`` plays each seat with its faction's
trained policy of the pair NAME, so users can benchmark against a learned player
without training one.

- ``default``: ``agents/policies/british.npz`` and ``malay.npz``, which read the
  heuristic's scores of the answers (``candidate_prior``), produced by
  ``singapore-1819 train --config training/configs/reference.toml --out runs/reference``;
- ``pure-policy``: ``agents/policies/pure/``, the same network without any heuristic
  input (what learning from the observation alone reaches): ``training/configs/pure.toml``
  (imitation of the heuristic, then PPO against it) made the networks that
  ``singapore-1819 train --config training/configs/pure_dagger.toml --out
  runs/pure_dagger`` then taught ``rerank:net=default``'s choices on the states they
  reach, and ``training/configs/pure_ei.toml`` then ``pure_ei_soft.toml`` the choices
  and then the scores of ``pure``'s lookahead over the current student (expert
  iteration; the teachers label, the network reads no heuristic input);
- ``pure``: ``pure-policy`` looking ahead on the main Action question (each of its
  best answers played on to the seat's Action question after next) with the value
  networks of ``agents/policies/pure/value/`` (:mod:`agents.lookahead`, made by
  ``training/configs/pure_value.toml``); no heuristic input either;
- ``zero``: ``agents/policies/zero/``, learned by the self-play trainer from random
  weights with nothing hand-written beyond the rules (``training/configs/zero.toml``:
  no heuristic teacher, opponent, prior or feature), looking ahead as ``pure`` does
  with its own value heads (what ``lookahead:agents/policies/zero`` plays);
  ``zero-policy``: the same networks without the lookahead.

They are numpy actors (no torch needed), copied from the run folders. Their strength
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
from .learned import POLICY_DIR, LearnedAgent, load_value_nets
from .lookahead import LookaheadPolicies


class FactionPolicies(Agent):
    """One learned agent per faction; a seat plays with its faction's."""

    name = "learned:default"

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


#: The shipped pairs: ``learned:NAME`` -> the folder of its british.npz and malay.npz.
SHIPPED = {"default": POLICY_DIR, "pure": POLICY_DIR / "pure",
           "pure-policy": POLICY_DIR / "pure", "zero": POLICY_DIR / "zero",
           "zero-policy": POLICY_DIR / "zero"}
#: The pairs that look ahead (:mod:`agents.lookahead`) -> the folder of
#: their value networks.
LOOKAHEAD_VALUES = {"pure": POLICY_DIR / "pure" / "value", "zero": POLICY_DIR / "zero"}


def reference_agent(deterministic: bool = True, seed: int | None = None,
                    pair: str = "default") -> Agent:
    """The shipped pair ``pair`` (a key of :data:`SHIPPED`) as one agent (most likely
    action, or sampled)."""
    agent = FactionPolicies({
        f: LearnedAgent(_shipped_policy(SHIPPED[pair] / f"{name}.npz"), deterministic=deterministic,
                        seed=None if seed is None else seed + f)
        for f, name in enumerate(FACTIONS)})
    if pair in LOOKAHEAD_VALUES:
        agent = LookaheadPolicies(agent, dict(_shipped_values(LOOKAHEAD_VALUES[pair])), seed)
    agent.name = f"learned:{pair}"
    return agent


def lookahead_over(folder: str | Path, seed: int | None = None, worlds: int = 1,
                   values: str | Path | None = None) -> Agent:
    """A lookahead (:mod:`agents.lookahead`) over the students in ``folder`` (the
    pointer policies ``british.npz`` and ``malay.npz``, which must read no prior), each
    answer scored in ``worlds`` sampled worlds by the value networks in ``values``: by
    default ``learned:pure``'s (what DAgger's ``teacher = "lookahead"`` labels with:
    the search over the current student); ``values = folder`` for a pair that carries
    its own value heads (the self-play trainer's pointer networks: ``lookahead:DIR``)."""
    students = FactionPolicies({
        f: LearnedAgent.load(Path(folder) / f"{name}.npz",
                             seed=None if seed is None else seed + f)
        for f, name in enumerate(FACTIONS)})
    nets = (dict(_shipped_values(LOOKAHEAD_VALUES["pure"])) if values is None
            else load_value_nets(values))
    agent = LookaheadPolicies(students, nets, seed, worlds=worlds)
    agent.name = f"lookahead over {folder}"
    return agent


# The shipped networks are package data: each is loaded once a process and shared, read
# only, by every agent that plays it (a table of four learned:pure seats reads its files
# once, not four times).
@lru_cache(maxsize=None)
def _shipped_policy(path: Path):
    return LearnedAgent.load(path).policy


@lru_cache(maxsize=None)
def _shipped_values(folder: Path) -> dict:
    return load_value_nets(folder)
