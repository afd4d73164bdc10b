"""The tables of one server and their files: one file per table, written whole and
durably (a temporary file, fsync, then an atomic rename), so a crash leaves either the
old table or the new one, never a mix (:meth:`singapore_app.web.table.Table.record`);
every decision also goes to the server's journal (:mod:`singapore_app.web.journal`),
on disk before an answer's 200, and taken again at start after its table's file.

Memory stays bounded: games in progress live in memory (at most ``max_games`` of them;
a new game past that is a 429), a finished or stopped game is written and leaves memory,
and is read back from its file when someone opens it (a few are kept at hand).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from singapore_env.engine import Game
from singapore_env.engine.decisions import Decision
from singapore_env.engine.game import IllegalDecision
from singapore_env.engine.save_validation import SaveFormatError

from . import views
from .inputs import ID_PATTERN, ApiError
from .journal import Journal
from .replay import Timeline
from .table import PERSON, Table

log = logging.getLogger(__name__)

#: Games in progress a server holds at most unless told otherwise (``--max-games``).
MAX_GAMES = 200
#: Finished games kept in memory after they were opened (the rest are read on demand).
KEPT_FINISHED = 16
#: Finished games the list of recent games remembers.
LISTED = 200


class Tables:
    """Every table of the server by id; ``folder`` (None: kept in memory only, nothing
    leaves it) holds ``ID.json`` for each."""

    def __init__(self, folder: str | Path | None, max_games: int = MAX_GAMES):
        self.folder = Path(folder) if folder is not None else None
        self.max_games = max_games
        #: tables in memory: games in progress, and finished ones not yet written
        self.tables: dict[str, Table] = {}
        self._finished: OrderedDict[str, Table] = OrderedDict()
        self._listed: OrderedDict[str, dict] = OrderedDict()
        self._timelines: dict[str, tuple[int, Timeline]] = {}
        #: tables changed since they were last written (see :meth:`flush`)
        self.dirty: set[str] = set()
        self._locks: dict[str, asyncio.Lock] = {}
        self._writer = ThreadPoolExecutor(4, thread_name_prefix="writer")
        self.journal: Journal | None = None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.journal = Journal(self.folder)

    # ------------------------------------------------------------ tables
    def new(self, game: Game, seats: list[str], delay: float = 0.0,
            replay_only: bool = False, log_lines: list | None = None) -> Table:
        """A new table for ``game`` under a fresh id (ApiError 429 past the server's
        limit of games in progress); the caller writes it (:meth:`persist`)."""
        if not replay_only and self.in_progress() >= self.max_games:
            raise ApiError(429, f"this server holds {self.max_games} games in progress, "
                                f"its limit: try again once some are over")
        table_id = secrets.token_hex(6)
        while table_id in self.tables or self._path(table_id).exists():  # pragma: no cover
            table_id = secrets.token_hex(6)
        table = Table(table_id, game, seats, delay, log=log_lines, replay_only=replay_only)
        self.tables[table_id] = table
        self._note(table)
        return table

    def in_progress(self) -> int:
        """Games in progress held in memory."""
        return sum(not t.finished for t in self.tables.values())

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` if it is in memory (ApiError 404 if not)."""
        table = self.tables.get(table_id) or self._finished.get(table_id)
        if table is None:
            raise ApiError(404, f"no game {table_id!r} on this server")
        return table

    async def open(self, table_id: str) -> Table:
        """The table ``table_id``, read from its file on a thread if it is not in memory
        (ApiError 404 if there is none, or its file cannot be opened)."""
        table = self.tables.get(table_id) or self._finished.get(table_id)
        if table is None and self._path(table_id).is_file():
            table = await asyncio.get_running_loop().run_in_executor(
                None, self._read, table_id, self._path(table_id))
            if table is not None:
                self._keep(table)
        return table or self.get(table_id)

    async def delete(self, table: Table) -> None:
        """Forget ``table`` and remove its file (after any write of it under way)."""
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            table.deleted = True
            for place in (self.tables, self._finished, self._listed, self._timelines,
                          self._locks):
                place.pop(table.id, None)
            self.dirty.discard(table.id)
            if self.folder is not None:
                self._path(table.id).unlink(missing_ok=True)

    def recent(self, most: int = 50) -> list[dict]:
        """The newest tables first, as list entries (no secrets; the seed only where the
        book is open)."""
        for table in self.tables.values():
            self._note(table)
        newest = sorted(self._listed.values(), key=lambda x: x["created"], reverse=True)
        return newest[:most]

    def _note(self, table: Table) -> None:
        g = table.game
        entry = {"id": table.id, "created": table.created, "status": views.headline(table),
                 "over": g.is_over, "replay_only": table.replay_only,
                 "ruleset": g.cfg.ruleset, "decisions": len(g.history),
                 "seats": ["person" if s == PERSON else s for s in table.seats],
                 "open_book": table.open_book}
        if table.open_book:
            entry["seed"] = g.seed
        self._listed[table.id] = entry
        self._listed.move_to_end(table.id)
        while len(self._listed) > LISTED + len(self.tables):
            oldest = next(iter(self._listed))
            if oldest in self.tables:  # (games in progress stay listed)
                self._listed.move_to_end(oldest)
                continue
            self._listed.pop(oldest)

    def _keep(self, table: Table) -> None:
        """Keep a finished table at hand (the least recently opened leaves memory)."""
        self._finished[table.id] = table
        self._finished.move_to_end(table.id)
        while len(self._finished) > KEPT_FINISHED:
            self._finished.popitem(last=False)

    def timeline(self, table: Table) -> Timeline:
        """The replay timeline of ``table``'s game as it is now (cached per length)."""
        n = len(table.game.history)
        cached = self._timelines.get(table.id)
        if cached is None or cached[0] != n:
            if len(self._timelines) >= 16:
                self._timelines.pop(next(iter(self._timelines)))
            cached = self._timelines[table.id] = (n, Timeline(table.game))
        return cached[1]

    # ------------------------------------------------------------ files
    def stepped(self, table: Table) -> None:
        """Note the decision ``table`` just took: into the journal now, into its file
        with the next :meth:`flush`."""
        self.dirty.add(table.id)
        if self.journal is not None:
            history = table.game.history
            self.journal.note(table.id, len(history) - 1, history[-1])

    async def durable(self) -> None:
        """Wait until every decision noted so far is on disk."""
        if self.journal is not None:
            await self.journal.durable()

    async def persist(self, table: Table) -> None:
        """Write ``table``'s file now and wait until it is on disk; then a finished
        table leaves memory. Writes of one table are made one after the other, each with
        the table as it is when its turn comes."""
        self.dirty.discard(table.id)
        if self.folder is None:
            return
        lock = self._locks.setdefault(table.id, asyncio.Lock())
        async with lock:
            if table.deleted:
                return
            text = table.record()
            await asyncio.get_running_loop().run_in_executor(
                self._writer, write_durably, self._path(table.id), text)
        if table.finished and self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._locks.pop(table.id, None)
            self._note(table)
            self._keep(table)

    async def flush(self) -> None:
        """Write every changed table; once a journal file is retired, every table in
        memory, and then remove the retired file."""
        retired = self.journal.retired if self.journal is not None else []
        ids = list(self.tables) if retired else list(self.dirty)
        await asyncio.gather(*(self.persist(self.tables[i]) for i in ids if i in self.tables))
        for path in retired:
            path.unlink(missing_ok=True)
        retired.clear()

    async def keep_flushing(self, every: float = 0.5) -> None:
        """Flush changed tables every ``every`` seconds until cancelled (then once
        more)."""
        try:
            while True:
                await asyncio.sleep(every)
                await self.flush()
        finally:
            self._writer.shutdown(wait=True)
            for table_id in list(self.dirty):
                if table_id in self.tables and self.folder is not None:
                    write_durably(self._path(table_id), self.tables[table_id].record())
            if self.journal is not None:
                self.journal.close()

    def _path(self, table_id: str) -> Path:
        return (self.folder or Path(os.devnull)) / f"{table_id}.json"

    def _read(self, table_id: str, path: Path) -> Table | None:
        """The table of ``path``; None (named in the log) if it cannot be opened."""
        if self.folder is None or not path.is_file():
            return None
        try:
            return Table.from_record(table_id, path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, SaveFormatError) as exc:
            log.warning("skipping %s: %s", path, str(exc)[:300])
            return None

    def load_all(self) -> list[str]:
        """Open every table of the folder: games in progress stay in memory, finished
        ones are listed and read again when opened; a file that cannot be opened or
        replayed is skipped (and named in the server's log). Returns the ids opened."""
        if self.folder is None:
            return []
        opened = []
        for path in sorted(self.folder.glob("*.json")):
            table_id = path.name[:-len(".json")]
            if not ID_PATTERN.fullmatch(table_id) or table_id in self.tables:
                continue
            table = self._read(table_id, path)
            if table is None:
                continue
            opened.append(table_id)
            if table.finished:
                self._note(table)
            else:
                self.tables[table_id] = table
        self._take_again()
        return opened

    def _take_again(self) -> None:
        """Take again the journal's decisions after each table's file, write the tables
        they changed, and remove the journal files found."""
        changed, broken = set(), set()
        for table_id, before, kind, arg in self.journal.entries():
            table = self.tables.get(table_id)
            if table is None or table_id in broken or before < len(table.game.history):
                continue
            try:
                if before > len(table.game.history):
                    raise IllegalDecision(f"decisions {len(table.game.history)}..{before} "
                                          f"are missing")
                table.step(Decision(kind, arg))
                changed.add(table_id)
            except (IllegalDecision, ValueError) as exc:
                log.warning("journal: table %s stops at decision %d: %s", table_id,
                            len(table.game.history), str(exc)[:200])
                broken.add(table_id)
        for table_id in changed:
            table = self.tables[table_id]
            write_durably(self._path(table_id), table.record())
            if table.finished:
                del self.tables[table_id]
                self._note(table)
        for path in self.journal.files:
            path.unlink(missing_ok=True)


def write_durably(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` at once and durably: a temporary file beside it,
    flushed to disk, renamed over it, and the folder flushed (a crash leaves the old
    file or the new one, whole)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
