"""Agents for 1819 Singapore (random, heuristic and learned policies)."""

from .base import Agent
from .random_agent import RandomAgent
from .registry import known_agents, make_agent, register

__all__ = ["Agent", "RandomAgent", "make_agent", "register", "known_agents"]
