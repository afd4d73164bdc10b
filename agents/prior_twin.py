"""The players reading the heuristic's prior, checked on both engines: whole games with
``rerank`` and pointer-policy seats (``learned:PATH``) reading the prior's columns, each
seat's agent deciding on the Python game and its copy (the same spec and seed) on the native one, which must
agree decision for decision, their generators in the same state
(``tests/test_native_prior.py``, ``scripts/prior_soak.py``)."""

from __future__ import annotations

from typing import Sequence

from singapore_env.engine.config import RulesConfig
from singapore_env.engine.game import Game

from .registry import make_agent


def _streams(agent):
    """The states of an agent's random generators (the prior heuristic's for rerank)."""
    rngs = [getattr(agent, "rng", None), getattr(getattr(agent, "prior", None), "rng", None)]
    return [r.bit_generator.state for r in rngs if r is not None]


def compare_players(seed: int, players: Sequence[str],
                    cfg: RulesConfig | None = None) -> tuple[int, dict]:
    """Game ``seed`` on both engines (seat ``i``'s agents seeded ``seed * 4 + i``): the
    same decision and generator states at every step, the same final scores, else an
    AssertionError saying where. Returns (decisions, each spec's overrulings: rerank's
    choices other than the heuristic's)."""
    from singapore_env import native

    python, ours = Game(seed, cfg, keep_text_log=False), native.NativeGame(seed, cfg)
    pairs = [(make_agent(spec), make_agent(spec)) for spec in players]
    for i, (a, b) in enumerate(pairs):
        a.reset(seed * 4 + i), b.reset(seed * 4 + i)
    while not python.is_over:
        seat = python.acting_seat
        a, b = pairs[seat]
        mine, theirs = a.choose(python, seat), b.choose(ours, seat)
        where = f"seed {seed}, decision {python.s.decisions} ({python.pending.kind}, {players[seat]})"
        _check(mine == theirs, f"{where}: {mine} on python, {theirs} on native")
        _check(_streams(a) == _streams(b), f"{where}: the generators differ after {mine}")
        python.step(mine), ours.step(mine)
    _check(ours.is_over and ours.final_scores == python.final_scores,
           f"seed {seed}: the final scores differ")
    overruled = {}
    for spec, (a, b) in zip(players, pairs):
        _check(getattr(a, "overruled", 0) == getattr(b, "overruled", 0),
               f"seed {seed}: {spec} overruled its prior apart")
        overruled[spec] = overruled.get(spec, 0) + getattr(a, "overruled", 0)
    return python.s.decisions, overruled


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)
