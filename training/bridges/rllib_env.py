"""The AEC env in RLlib's multi-agent API (a thin adapter, not RLlib's PettingZooEnv).

    env = RllibSingaporeEnv({"ruleset": "standard", "reward_mode": "faction"})
    obs, infos = env.reset(seed=1)          # {agent: {"observations", "action_mask"}}
    obs, rewards, terminateds, truncateds, infos = env.step({agent: action})

Why our own: RLlib's action-masking RLModule reads ``{"observations", "action_mask"}``
with a float mask, while the PettingZoo env gives ``{"observation", "action_mask"}``
with an int8 mask; and at the end of a game every seat must receive its reward and its
final observation in one step (RLlib's PettingZooEnv gets there by stepping the dead
agents through). The adapter renames, casts and finishes; the rules, observations and
rewards are the env's (:class:`singapore_env.env.raw_env`).

Building it limits numpy and torch to one thread in its process
(:func:`agents.threads.limit_threads`): each env runner is one process per core.

Only the seat to act gets an observation (the env's ``agent_selection``); its reward
arrives with its next observation, the final rewards of all four seats with the last
step (``terminateds["__all__"]``).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from agents.threads import limit_threads
from singapore_env.engine.content import SEAT_FACTION
from singapore_env.env import AGENTS, SEAT_OF, raw_env

#: The two policies, by faction (0 British, 1 Malay).
POLICIES = ("british", "malay")


def policy_of(agent_id: str, *args, **kwargs) -> str:
    """The policy mapping function: a seat's faction (``british`` or ``malay``)."""
    return POLICIES[SEAT_FACTION[SEAT_OF[agent_id]]]


class RllibSingaporeEnv(MultiAgentEnv):
    """1819 Singapore for RLlib: four agents (the seats), one acting at a time."""

    def __init__(self, config: dict | None = None):
        super().__init__()
        limit_threads()  # one torch / BLAS thread in each env runner (as SB3 training)
        self.raw = raw_env(**dict(config or {}))
        n, d = len(self.raw.table), self.raw.encoder.size
        enc = self.raw.encoder
        space = spaces.Dict({
            "observations": spaces.Box(enc.low, enc.high, (d,), np.float32),
            "action_mask": spaces.Box(0.0, 1.0, (n,), np.float32)})
        self.agents = self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}

    def _obs(self, agent: str) -> dict:
        ob = self.raw.observe(agent)
        return {"observations": ob["observation"],
                "action_mask": ob["action_mask"].astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game; the first seat to act observes."""
        self.raw.reset(seed=seed)
        agent = self.raw.agent_selection
        return {agent: self._obs(agent)}, {}

    def step(self, action_dict: dict):
        """The acting seat's action; the next seat's observation, or the end for all."""
        raw = self.raw
        agent = raw.agent_selection
        raw.step(int(action_dict[agent]))
        done = all(raw.terminations.values())
        cut = all(raw.truncations.values())
        if done or cut:
            obs = {a: self._obs(a) for a in AGENTS}
            rewards = {a: float(raw.rewards[a]) for a in AGENTS}
            flags = dict.fromkeys(AGENTS, done)
            return (obs, rewards, {**flags, "__all__": done},
                    {**dict.fromkeys(AGENTS, cut), "__all__": cut}, {})
        nxt = raw.agent_selection
        return ({nxt: self._obs(nxt)}, {agent: 0.0}, {"__all__": False},
                {"__all__": False}, {})
