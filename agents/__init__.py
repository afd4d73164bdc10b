"""Agents for 1819 Singapore (random, heuristic and learned policies)."""

from .base import Agent
from .random_agent import RandomAgent
from .registry import as_agent, known_agents, make_agent, register

__all__ = ["Agent", "RandomAgent", "as_agent", "make_agent", "register", "known_agents"]
