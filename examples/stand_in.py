"""Where does a learned player lose? A stronger player stands in on some questions.

The student (``learned:pure-policy``: ``learned:pure``'s networks without its
lookahead) plays every decision, except those where one of the legal answers is of a
kind named in ``kinds`` (``+`` between kinds, names of
``singapore_env.engine.decisions.Kind``): there the teacher (``rerank:net=default``)
answers. The win rate gained over the student alone is what the student's answers to
those questions cost::

    singapore-1819 evaluate --british examples/stand_in.py:StandIn:kinds=BUY_MARKET --malay heuristic --games 100 --seed 8101
    singapore-1819 evaluate --british examples/stand_in.py:StandIn:kinds=COMMIT+REVEAL+BUY_BATTLE --malay heuristic --games 100 --seed 8101

``docs/selfplay.md`` ("Where the student falls short") gives what it measured.
"""

from __future__ import annotations

from agents import Agent, make_agent
from singapore_env.engine.decisions import Kind


class StandIn(Agent):
    """The student's decision, or the teacher's on the questions that offer ``kinds``."""

    name = "stand-in"

    def __init__(self, seed: int | None = None, kinds: str = "BUY_MARKET",
                 student: str = "learned:pure-policy", teacher: str = "rerank:net=default"):
        names = [k for k in kinds.split("+") if k]
        unknown = [k for k in names if k not in Kind.__members__]
        if unknown:
            raise ValueError(f"unknown decision kinds {unknown}; known: {', '.join(Kind.__members__)}")
        self.kinds = {Kind[k] for k in names}
        self.student, self.teacher = make_agent(student), make_agent(teacher)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self.student.reset(seed)
        self.teacher.reset(seed)

    def choose(self, game, seat: int):
        offered = {d.kind for d in game.legal_decisions()}
        return (self.teacher if offered & self.kinds else self.student).choose(game, seat)
