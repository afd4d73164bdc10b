"""One game at the web app's table: the engine's Game, who plays each seat (a person or
an agent spec), each person's seat secret, and the log as each seat sees it.

A table is saved as two files in the games folder: ``ID.json``, the game in the
project's validated save format (what a download gives), and ``ID.meta.json``, the
table around it (seats, secrets, pace, log). A table whose meta file is lost or foreign
is rebuilt from the save alone (its log replayed from the seed).
"""

from __future__ import annotations

import hmac
import secrets
import time

from singapore_env.engine import Game
from singapore_env.engine.content import SEAT_NAMES
from singapore_env.engine.describe import describe_seen_by

from ..play import public_events

#: A seat played by a person (anything else in ``Table.seats`` is an agent spec).
PERSON = "person"
#: Viewers of the log: the four seats, then a spectator (index 4).
SPECTATOR = 4


class Table:
    """One game with its seats. ``seats[p]`` is :data:`PERSON` or an agent spec;
    ``keys[p]`` the secret of a person's seat (None for an agent's); ``delay`` seconds
    between agent moves (to watch them); ``replay_only``: a save opened to be replayed,
    not played on."""

    def __init__(self, table_id: str, game: Game, seats: list[str], delay: float = 0.0,
                 keys: list | None = None, log: list | None = None,
                 created: float | None = None, replay_only: bool = False):
        self.id, self.game, self.seats, self.delay = table_id, game, list(seats), delay
        self.keys = keys if keys is not None else [
            secrets.token_urlsafe(18) if spec == PERSON else None for spec in seats]
        self.created = created if created is not None else time.time()
        self.replay_only = replay_only
        self.agents: list = [None] * 4
        #: why the agents stopped playing (an agent failed), else None
        self.error: str | None = None
        #: entries ``[decision index, acting seat, [text seen by seat 0..3, spectator]]``
        #: and public events ``[decision index, -1, line]``
        self.log: list = log if log is not None else []
        if log is None:
            self._log_events(0)

    # ------------------------------------------------------------ who sees what
    def key_fits(self, seat: int, key: str | None) -> bool:
        """Whether ``key`` is the secret of ``seat`` (a person's seat)."""
        want = self.keys[seat]
        return bool(want and key) and hmac.compare_digest(want.encode(), str(key).encode())

    @property
    def has_people(self) -> bool:
        return PERSON in self.seats

    @property
    def open_book(self) -> bool:
        """Whether everything may be shown to anyone: a finished game, a replay, or a
        game of agents only (no person has a secret to keep)."""
        return self.game.is_over or self.replay_only or not self.has_people

    def log_for(self, viewer: int | None, most: int = 300) -> list[str]:
        """The last ``most`` log lines as ``viewer`` sees them (None: a spectator)."""
        col = SPECTATOR if viewer is None else viewer
        lines = []
        for _, seat, text in self.log[-most:]:
            lines.append(text if seat < 0 else f"{SEAT_NAMES[seat]}: {text[col]}")
        return lines

    # ------------------------------------------------------------ playing
    def agent_to_move(self) -> bool:
        """Whether an agent decides now."""
        g = self.game
        return not g.is_over and not self.replay_only and self.seats[g.acting_seat] != PERSON

    def agent(self, seat: int):
        """The agent of ``seat`` (built on first use from its spec)."""
        if self.agents[seat] is None:
            from agents.registry import make_agent
            self.agents[seat] = make_agent(self.seats[seat], self.game.seed * 4 + seat)
        return self.agents[seat]

    def step(self, decision) -> None:
        """Apply the acting seat's decision (IllegalDecision if the engine refuses it,
        the game unchanged), logging it as each seat sees it."""
        g = self.game
        seat, index, events = g.acting_seat, len(g.history), len(g.s.log_text)
        texts = [describe_seen_by(g, decision, v) for v in (0, 1, 2, 3, -1)]
        g.step(decision)
        self.log.append([index, seat, texts])
        self._log_events(events)

    def _log_events(self, start: int) -> None:
        index = len(self.game.history)
        self.log.extend([index, -1, line.strip()] for line in public_events(self.game, start))

    # ------------------------------------------------------------ files
    def meta(self) -> dict:
        """The table around the game, as JSON data (the game itself is its save)."""
        return {"format": "singapore-1819-web-table", "version": 1, "id": self.id,
                "seats": self.seats, "keys": self.keys, "delay": self.delay,
                "created": self.created, "replay_only": self.replay_only,
                "decisions": len(self.game.history), "log": self.log}

    @classmethod
    def from_files(cls, table_id: str, game: Game, meta: dict | None) -> "Table":
        """A table from its game and meta data; without usable meta data (lost, foreign,
        or out of step with the game) the game is opened to be replayed."""
        if not _meta_fits(meta, table_id, game):
            return cls(table_id, game, ["saved"] * 4, replay_only=True,
                       log=replayed_log(game))
        return cls(table_id, game, meta["seats"], meta["delay"], meta["keys"], meta["log"],
                   meta["created"], meta["replay_only"])


def _meta_fits(meta, table_id: str, game: Game) -> bool:
    """Whether ``meta`` is a table's meta data for this game (shape and types)."""
    if not isinstance(meta, dict) or meta.get("format") != "singapore-1819-web-table":
        return False
    seats, keys = meta.get("seats"), meta.get("keys")
    return (meta.get("id") == table_id and meta.get("decisions") == len(game.history)
            and isinstance(seats, list) and len(seats) == 4
            and all(isinstance(x, str) for x in seats)
            and isinstance(keys, list) and len(keys) == 4
            and all(k is None or isinstance(k, str) for k in keys)
            and isinstance(meta.get("delay"), (int, float))
            and isinstance(meta.get("created"), (int, float))
            and isinstance(meta.get("replay_only"), bool)
            and isinstance(meta.get("log"), list))


def replayed_log(game: Game) -> list:
    """The log of ``game`` rebuilt by replaying its decisions from the seed."""
    again = Game(game.seed, game.cfg, game.c)
    table = Table("-", again, ["saved"] * 4, keys=[None] * 4)
    for d in game.history:
        table.step(d)
    return table.log
