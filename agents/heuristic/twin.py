"""The heuristic's native twin (``native/heuristic.hpp``) checked against the Python
agent: whole games played on both engines step by step, every seat's decision made by
a Python agent on the Python game and by its copy (the same spec and seed) on the
native game, which must agree decision for decision (and score for score, where the
heuristic scores the options) with their generators in the same state (``tests/test_native_heuristic.py``, ``scripts/heuristic_soak.py``)."""

from __future__ import annotations

from typing import Sequence

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.game import Game

from ..registry import make_agent


def compare_game(seed: int, config: RulesConfig | None = None,
                 players: Sequence[str] = ("heuristic",) * 4,
                 shadow: bool = False) -> tuple[int, dict, str]:
    """Play game ``seed`` on both engines with ``players`` (four agent specs; seat ``i``'s
    agents seeded ``seed * 4 + i``), comparing at every decision the legal decisions,
    the decision, the heuristic's option scores and the deciding agent's generator
    state, and the final scores. With
    ``shadow``, a pair of heuristics (seeded ``seed * 4 + 4``) is also asked every
    question of every seat, the players' own decisions played (so that random players
    lead the heuristic to the questions it rarely meets).

    Returns (decisions played, the heuristic's decisions by question (frame kind), "" or
    where and what first differed)."""
    from singapore_env.native import NativeGame

    python, ours = Game(seed, config, keep_text_log=False), NativeGame(seed, config)
    pairs = [(make_agent(spec), make_agent(spec)) for spec in players]
    for i, (a, b) in enumerate(pairs):
        a.reset(seed * 4 + i), b.reset(seed * 4 + i)
    shadows = (make_agent(f"heuristic:seed={seed * 4 + 4}"),
               make_agent(f"heuristic:seed={seed * 4 + 4}")) if shadow else None
    asked: dict[str, int] = {}
    while not python.is_over:
        step, seat = python.s.decisions, python.acting_seat
        where = f"seed {seed}, decision {step} ({python.pending.kind}, seat {seat})"
        if ours.acting_seat != seat or ours.legal_decisions() != python.legal_decisions():
            return step, asked, f"{where}: the games differ"
        played = None
        for a, b in [pairs[seat]] + ([shadows] if shadows else []):
            mine, theirs = a.choose(python, seat), b.choose(ours, seat)
            if a.name == "heuristic":
                asked[python.pending.kind] = asked.get(python.pending.kind, 0) + 1
                if a.option_scores(python, seat) != b.option_scores(ours, seat):
                    return step, asked, f"{where}: the option scores differ"
            if mine != theirs:
                return step, asked, f"{where}: {a.name} chose {mine} on python, {theirs} on native"
            if a.rng.bit_generator.state != b.rng.bit_generator.state:
                return step, asked, f"{where}: the generators differ after {mine}"
            played = played or mine
        python.step(played)
        ours.step(played)
    if not ours.is_over or ours.final_scores != python.final_scores:
        return python.s.decisions, asked, f"seed {seed}: the final scores differ"
    return python.s.decisions, asked, ""
