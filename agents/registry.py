"""Agents by name: ``make_agent("random", seed=1)``.

Add an agent with ``register("name", factory)`` where ``factory(seed=None)`` returns an
:class:`~agents.base.Agent`. A trained policy is named by its file:
``learned:PATH`` (``.npz`` actor or SB3 ``.zip``), most likely legal action; or
``learned-sample:PATH`` to sample from the policy.
"""

from __future__ import annotations

from typing import Callable

from .base import Agent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]

_REGISTRY: dict[str, AgentFactory] = {}


def register(name: str, factory: AgentFactory, *, replace: bool = False) -> None:
    """Make ``factory(seed=None) -> Agent`` available as ``name``."""
    if not name or not isinstance(name, str):
        raise ValueError(f"agent name must be a non-empty string, got {name!r}")
    if name in _REGISTRY and not replace:
        raise ValueError(f"agent {name!r} is already registered")
    _REGISTRY[name] = factory


def known_agents() -> list[str]:
    """The registered agent names, sorted."""
    return sorted(_REGISTRY)


def make_agent(name: str, seed: int | None = None) -> Agent:
    """Build a registered agent; unknown names raise ValueError listing the known ones."""
    if isinstance(name, str) and name.split(":", 1)[0] in ("learned", "learned-sample") \
            and ":" in name:
        from .learned import LearnedAgent

        kind, path = name.split(":", 1)
        try:
            agent = LearnedAgent.load(path, deterministic=kind == "learned", seed=seed)
        except (OSError, ValueError) as exc:
            raise ValueError(f"cannot load agent {name!r}: {exc}") from None
        agent.name = f"{kind}:{path}"
        return agent
    try:
        factory = _REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown agent {name!r}; known agents: {', '.join(known_agents())}, "
            "learned:PATH, learned-sample:PATH") from None
    return factory(seed=seed)


register("random", RandomAgent)
register("heuristic", HeuristicAgent)
