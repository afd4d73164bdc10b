"""Agents for 1819 Singapore (random, heuristic and learned policies)."""
