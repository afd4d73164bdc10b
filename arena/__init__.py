"""Agents at a table: one game (:mod:`~arena.simulate`), many seeded games on processes or
Ray (:mod:`~arena.runner`), one record per game (:mod:`~arena.records`), the summary schema
with intervals and ratings (:mod:`~arena.summary`), and the single-agent Gymnasium view of one
faction with agents in the other seats (:mod:`~arena.faction_env`). Above the agents, below
training and the applications."""
