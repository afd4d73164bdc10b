"""The stand-in example (examples/stand_in.py): the teacher answers exactly the
questions that offer the named kinds of decision, the student the others."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.registry import make_agent
from singapore_env.engine import Game

BOT = Path(__file__).resolve().parents[1] / "examples" / "stand_in.py"


def _stand_in(kinds: str):
    return make_agent(f"{BOT}:StandIn:kinds={kinds}:student=random:teacher=heuristic", seed=5)


def test_the_teacher_answers_the_named_questions_and_the_student_the_others():
    market = _stand_in("BUY_MARKET")
    teacher, student = make_agent("heuristic", seed=5), make_agent("random", seed=5)
    game, asked = Game(11), 0
    while not game.is_over and asked < 300:
        seat = game.acting_seat
        offers_market = any(d.kind.name == "BUY_MARKET" for d in game.legal_decisions())
        want = (teacher if offers_market else student).choose(game, seat)
        assert market.choose(game, seat) == want
        game.step(want)
        asked += offers_market
    assert asked > 5


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown decision kinds .'MARKET'."):
        _stand_in("MARKET")
