"""One game at the web app's table: the engine's Game, who plays each seat (a person or
an agent spec), each person's seat secret, the creator's secret, and the log as each
seat sees it.

A table is saved as one file, its :meth:`Table.record`: the seats, the secrets, the pace
and the game in the project's validated save format (what a download gives), written
whole (:mod:`singapore_app.web.store`), so the game and its seats never disagree. The
log is not stored: :func:`rebuilt` replays the game from its seed, which both checks that
the saved state is what its seed and decisions give and writes the log again.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time

from singapore_env.engine import Game
from singapore_env.engine.save_validation import SaveFormatError
from singapore_env.words import decision_seen_by, seat_words

from ..play import public_events

#: A seat played by a person (anything else in ``Table.seats`` is an agent spec).
PERSON = "person"
#: Viewers of the log: the four seats, then a spectator (index 4).
SPECTATOR = 4
#: The format of a table's file.
FORMAT, VERSION = "singapore-1819-web-table", 3


def new_key() -> str:
    """A fresh secret (a seat's or the creator's)."""
    return secrets.token_urlsafe(18)


def key_fits(want: str | None, key: str | None) -> bool:
    """Whether ``key`` is the secret ``want`` (compared in constant time)."""
    return bool(want and key) and hmac.compare_digest(want.encode(), str(key).encode())


class Table:
    """One game with its seats. ``seats[p]`` is :data:`PERSON` or an agent spec;
    ``keys[p]`` the secret of a person's seat (None for an agent's); ``owner`` the
    creator's secret (pace, stop, delete); ``delay`` seconds between agent moves (to
    watch them); ``replay_only``: a save opened to be replayed, not played on;
    ``stopped``: its creator stopped it (no more moves); ``base``: the save of the game
    as it was dealt again when played on from a save with people (:func:`dealt_again`;
    the game replays from there, not from its seed), else None."""

    def __init__(self, table_id: str, game: Game, seats: list[str], delay: float = 0.0,
                 keys: list | None = None, log: list | None = None,
                 created: float | None = None, replay_only: bool = False,
                 owner: str | None = None, stopped: bool = False, base: dict | None = None):
        self.id, self.game, self.seats, self.delay = table_id, game, list(seats), delay
        self.base = base
        self.keys = keys if keys is not None else [
            new_key() if spec == PERSON else None for spec in seats]
        self.owner = owner if owner is not None else new_key()
        self.created = created if created is not None else time.time()
        self.replay_only, self.stopped = replay_only, stopped
        self.agents: list = [None] * 4
        #: its creator deleted it (nothing more is written)
        self.deleted = False
        #: the seat whose agent is thinking now (None: none)
        self.thinking: int | None = None
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
        return key_fits(self.keys[seat], key)

    @property
    def finished(self) -> bool:
        """Whether no move is to come: the game is over, stopped, or only replayed."""
        return self.game.is_over or self.stopped or self.replay_only

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
            lines.append(text if seat < 0 else f"{seat_words(seat)}: {text[col]}")
        return lines

    # ------------------------------------------------------------ playing
    def agent_to_move(self) -> bool:
        """Whether an agent decides now."""
        g = self.game
        return not self.finished and self.seats[g.acting_seat] != PERSON

    def agent(self, seat: int):
        """The agent of ``seat`` (built on first use from its spec; one that looks ahead
        thinks on native copies of the game where it can, the same decisions faster:
        :func:`agents.native_copy.on_native_copy`)."""
        if self.agents[seat] is None:
            from agents.native_copy import on_native_copy
            from agents.registry import make_agent
            self.agents[seat] = on_native_copy(make_agent(self.seats[seat],
                                                          secrets.randbits(32)))
        return self.agents[seat]

    def step(self, decision) -> None:
        """Apply the acting seat's decision (IllegalDecision if the engine refuses it,
        the game unchanged), logging it as each seat sees it."""
        g = self.game
        if decision not in g.legal_decisions():
            g.step(decision)  # (the engine refuses it, in its words, before it is read)
        seat, index, events = g.acting_seat, len(g.history), len(g.s.log_text)
        texts = [decision_seen_by(g, decision, v) for v in (0, 1, 2, 3, -1)]
        g.step(decision)
        self.log.append([index, seat, texts])
        self._log_events(events)

    def _log_events(self, start: int) -> None:
        index = len(self.game.history)
        self.log.extend([index, -1, line.strip()] for line in public_events(self.game, start))

    # ------------------------------------------------------------ files
    def mark(self) -> tuple:
        """What a write of the table's file depends on: (decisions, stopped, pace)."""
        return len(self.game.history), self.stopped, self.delay

    def record(self) -> str:
        """The table as the JSON text of its file: seats, secrets, pace and the save."""
        head = json.dumps({
            "format": FORMAT, "version": VERSION, "id": self.id, "seats": self.seats,
            "keys": self.keys, "owner": self.owner, "delay": self.delay,
            "created": self.created, "replay_only": self.replay_only,
            "stopped": self.stopped, "base": self.base})
        return f'{head[:-1]}, "save": {self.game.to_json()}}}'  # (the save's text as it is)

    @classmethod
    def from_record(cls, table_id: str, text: str) -> "Table":
        """The table of a file's text (SaveFormatError if it is not one: foreign, torn,
        or its game not what its seed and decisions give)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise SaveFormatError(f"not JSON: {str(exc)[:80]}") from None
        if not _record_fits(data, table_id):
            raise SaveFormatError("not a table of this server (format, id, seats, keys)")
        game = Game.from_dict(data["save"])
        base = data.get("base")
        start = None if base is None else Game.from_dict(base)
        return cls(table_id, game, data["seats"], data["delay"], data["keys"],
                   rebuilt(game, start), data["created"], data["replay_only"], data["owner"],
                   data["stopped"], base)


def _record_fits(data, table_id: str) -> bool:
    """Whether ``data`` has the shape of a table's record."""
    if not isinstance(data, dict) or data.get("format") != FORMAT \
            or data.get("version") not in (2, VERSION):
        return False
    seats, keys = data.get("seats"), data.get("keys")
    return (data.get("id") == table_id and isinstance(data.get("save"), dict)
            and isinstance(seats, list) and len(seats) == 4
            and all(isinstance(x, str) for x in seats)
            and isinstance(keys, list) and len(keys) == 4
            and all(k is None or isinstance(k, str) for k in keys)
            and isinstance(data.get("owner"), str)
            and isinstance(data.get("delay"), (int, float))
            and isinstance(data.get("created"), (int, float))
            and isinstance(data.get("replay_only"), bool)
            and isinstance(data.get("stopped"), bool)
            and isinstance(data.get("base"), (dict, type(None))))


def rebuilt(game: Game, start: Game | None = None) -> list:
    """The log of ``game`` (from a save), rebuilt by replaying its decisions from its
    seed (or from ``start``, the game as dealt again, and the decisions after it);
    SaveFormatError if that does not give its state: a save edited by hand (its seed, a
    card) is refused."""
    first = Game(game.seed, game.cfg, game.c, keep_text_log=game.keep_text_log) \
        if start is None else start.clone()
    if game.history[:len(first.history)] != first.history:
        raise SaveFormatError("its decisions are not those of the game it was dealt from")
    table = Table("-", first, ["saved"] * 4, keys=[None] * 4)
    try:
        for d in game.history[len(first.history):]:
            table.step(d)
    except Exception as exc:  # noqa: BLE001 -- any failure of the replay refuses the save
        raise SaveFormatError(f"its decisions cannot be replayed from its seed: "
                              f"{str(exc)[:160]}") from None
    if table.game.to_json() != game.to_json():
        raise SaveFormatError("its state is not what its seed and decisions give")
    return table.log


def dealt_again(game: Game) -> Game:
    """``game`` with everything hidden dealt again from fresh randomness: every hand,
    the Market, Population and Battle decks, the Events to come, the hidden parts of a
    question under way and the dice to come (:func:`agents.determinize.determinize`,
    for two seats in turn so no seat's hidden cards stay as they were). What the save's
    holder knew of the hidden cards tells nothing of the new deal; the public board,
    tableaux, VP and money stay."""
    import numpy as np

    from agents.determinize import determinize

    rng = np.random.default_rng(secrets.randbits(128))
    return determinize(determinize(game, 0, rng), 1, rng)
