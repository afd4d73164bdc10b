"""A finished or saved game step by step: the board as it was before each decision, the
VP by source after each one, and marks to jump to a round or a turn.

The timeline replays the game's decisions from its seed once (the engine is
deterministic; a game dealt again from a save replays from that deal) and keeps a copy of the game every :data:`EVERY` decisions, so the board
at any step is at most that many decisions away.
"""

from __future__ import annotations

from singapore_env.engine import Game
from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine.state import VP_SOURCES
from singapore_env.words import decision_words, seat_words

from . import views

#: Decisions between two kept copies of the game.
EVERY = 25


class Timeline:
    """The steps of ``game`` (its decision log replayed from the seed, or from ``base``:
    the save of the game as it was dealt again)."""

    def __init__(self, game: Game, base: dict | None = None):
        g = Game(game.seed, game.cfg, game.c) if base is None else Game.from_dict(base,
                                                                                 game.c)
        self.decisions = list(game.history[len(g.history):])
        self._copies = [g.clone()]
        #: per step (0 = before the first decision): VP by source per seat, round, acting seat
        self.vp = [_vp(g)]
        self.marks: list[dict] = []
        self.words: list[str] = []
        last = None
        for i, d in enumerate(self.decisions):
            here = (g.s.round, g.acting_seat)
            if here != last:
                self.marks.append({"step": i, "round": g.s.round,
                                   "seat": SEAT_NAMES[g.acting_seat]})
                last = here
            self.words.append(f"{seat_words(g.acting_seat)}: {decision_words(g, d)}")
            g.step(d)
            self.vp.append(_vp(g))
            if (i + 1) % EVERY == 0:
                self._copies.append(g.clone())
        self.final = g

    def __len__(self) -> int:
        return len(self.decisions)

    def game_at(self, step: int) -> Game:
        """The game before decision ``step`` (``len(self)``: the end)."""
        g = self._copies[step // EVERY].clone()
        for d in self.decisions[step - step % EVERY: step]:
            g.step(d)
        return g

    def summary(self) -> dict:
        """The whole game at a glance: its steps, the marks (first step of each turn,
        with its round and seat) and the VP by source per seat after every step."""
        return {"steps": len(self), "marks": self.marks, "sources": VP_SOURCES,
                "vp": self.vp, "seats": SEAT_NAMES}

    def view(self, step: int) -> dict:
        """The board at ``step`` (hands open) and the decision taken there."""
        g = self.game_at(step)
        return {"step": step, "steps": len(self), "board": views.board(g, None),
                "hands": [[views.card(g, x) for x in hand] for hand in g.s.hands],
                "decision": self.words[step] if step < len(self) else None,
                "log": self.words[max(0, step - 12): step]}


def _vp(g: Game) -> list[list[int]]:
    return [row[:] for row in g.s.vp_sources]
