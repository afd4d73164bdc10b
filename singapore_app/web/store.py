"""The tables of one server and their files: one file per table, written whole and
durably (a temporary file, fsync, then an atomic rename), so a crash leaves either the
old table or the new one, never a mix (:meth:`singapore_app.web.table.Table.record`);
every decision also goes to the server's journal (:mod:`singapore_app.web.journal`),
on disk before an answer's 200, and taken again at start after its table's file.

A write that fails (no file descriptor left, a full disk, an I/O error) is logged once
per table and tried again with every flush; nothing stops saving but the server's
shutdown. A finished game leaves memory only once its file holds its end.

Memory stays bounded: games in progress live in memory (at most ``max_games`` of them;
a new game past that is a 429), a finished or stopped game is written and leaves memory,
and is read back from its file when someone opens it (a few are kept at hand).
"""

from __future__ import annotations

import asyncio
import contextlib
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
#: Seconds an answer waits for its journal line to reach the disk before a 503.
DURABLE_SECONDS = 20.0
#: Seconds between two flushes of the changed tables.
FLUSH_EVERY = 0.5


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
        #: tables in memory: the decision count their file holds
        self._written: dict[str, int] = {}
        #: tables whose last write failed: why (logged once, until one succeeds)
        self._failing: dict[str, str] = {}
        self._flush_failed = False
        self._files = ThreadPoolExecutor(4, thread_name_prefix="files")
        self.journal: Journal | None = None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.journal = Journal(self.folder)

    # ------------------------------------------------------------ tables
    def new(self, game: Game, seats: list[str], delay: float = 0.0,
            replay_only: bool = False, log_lines: list | None = None,
            base: dict | None = None) -> Table:
        """A new table for ``game`` under a fresh id (ApiError 429 past the server's
        limit of games in progress); the caller writes it (:meth:`persist`)."""
        if not replay_only and self.in_progress() >= self.max_games:
            raise ApiError(429, f"this server holds {self.max_games} games in progress, "
                                f"its limit: try again once some are over")
        table_id = secrets.token_hex(6)
        while table_id in self.tables or self._path(table_id).exists():  # pragma: no cover
            table_id = secrets.token_hex(6)
        table = Table(table_id, game, seats, delay, log=log_lines, replay_only=replay_only,
                      base=base)
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
                self._files, self._read, table_id, self._path(table_id))
            if table is not None:
                self._keep(table)
        return table or self.get(table_id)

    async def delete(self, table: Table) -> None:
        """Forget ``table`` and remove its file (after any write of it under way)."""
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            table.deleted = True
            for place in (self.tables, self._finished, self._listed, self._timelines,
                          self._locks, self._written, self._failing):
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

    async def timeline(self, table: Table, pool=None) -> Timeline:
        """The replay timeline of ``table``'s game as it is now (cached per length),
        built on ``pool``'s threads (it replays the game: off the event loop)."""
        n = len(table.game.history)
        cached = self._timelines.get(table.id)
        if cached is None or cached[0] != n:
            game = table.game.clone()  # (the game as it is now, whatever comes next)
            built = await asyncio.get_running_loop().run_in_executor(pool, Timeline, game,
                                                                     table.base)
            if len(self._timelines) >= 16:
                self._timelines.pop(next(iter(self._timelines)))
            cached = self._timelines[table.id] = (n, built)
        return cached[1]

    # ------------------------------------------------------------ files
    def stepped(self, table: Table) -> None:
        """Note the decision ``table`` just took: into the journal now, into its file
        with the next :meth:`flush`."""
        self.dirty.add(table.id)
        if self.journal is not None:
            history = table.game.history
            self.journal.note(table.id, len(history) - 1, history[-1])

    def check_saving(self) -> None:
        """ApiError 503 while the journal cannot be written (no answer is taken then)."""
        if self.journal is not None and self.journal.failing is not None:
            raise ApiError(503, f"the server cannot write to its disk now "
                                f"({self.journal.failing}): no answer is taken until it "
                                f"can; try again in a moment")

    @property
    def saving_fails(self) -> bool:
        """Whether the journal's last write failed (agents wait until it succeeds)."""
        return self.journal is not None and self.journal.failing is not None

    async def durable(self) -> None:
        """Wait until every decision noted so far is on disk (ApiError 503 if its write
        failed or took over :data:`DURABLE_SECONDS`: it is tried again, and is lost
        only if the server stops first)."""
        if self.journal is None:
            return
        try:
            await asyncio.wait_for(self.journal.durable(), DURABLE_SECONDS)
        except (OSError, asyncio.TimeoutError) as exc:
            why = str(exc) or f"no answer from the disk in {DURABLE_SECONDS:g} s"
            raise ApiError(503, f"the answer is taken but the server could not write it "
                                f"to its disk ({why}); it is tried again, but is lost if "
                                f"the server stops first") from None

    async def save(self, table: Table) -> None:
        """:meth:`persist`, an OSError as ApiError 503 (the table stays changed in
        memory and the flusher tries again)."""
        try:
            await self.persist(table)
        except OSError as exc:
            raise ApiError(503, f"the server could not write this game to its disk "
                                f"({exc.strerror or exc}); it is tried again") from None

    def forget(self, table: Table) -> None:
        """Drop a table never acknowledged to anyone (its file could not be written)."""
        table.deleted = True
        for place in (self.tables, self._listed, self._locks, self._written, self._failing):
            place.pop(table.id, None)
        self.dirty.discard(table.id)

    async def persist(self, table: Table) -> None:
        """Write ``table``'s file now and wait until it is on disk (OSError if it cannot
        be: the table stays changed, the next flush tries again); a finished table is
        written until its file holds its end, and then leaves memory. Writes of one
        table are made one after the other, each with the table as it is then."""
        self.dirty.discard(table.id)
        if self.folder is None:
            return
        loop = asyncio.get_running_loop()
        async with self._locks.setdefault(table.id, asyncio.Lock()):
            while not table.deleted:
                mark, text = table.mark(), table.record()
                try:
                    await loop.run_in_executor(self._files, write_durably,
                                               self._path(table.id), text)
                except OSError as exc:
                    if not table.deleted:
                        self.dirty.add(table.id)
                        self._failed(table.id, exc)
                    raise
                if self._failing.pop(table.id, None) is not None:
                    log.warning("game %s is written again", table.id)
                if table.id in self.tables:
                    self._written[table.id] = mark[0]
                if table.mark() == mark or not table.finished:
                    break  # (a game that finished during the write is written again)
        if table.finished and self.tables.get(table.id) is table and not table.deleted:
            del self.tables[table.id]
            for place in (self._locks, self._written):
                place.pop(table.id, None)
            self._note(table)
            self._keep(table)

    def _failed(self, table_id: str, exc: OSError) -> None:
        if table_id not in self._failing:
            log.error("cannot write game %s to %s: %s (tried again every %g s until it "
                      "can)", table_id, self.folder, exc, FLUSH_EVERY)
        self._failing[table_id] = str(exc)

    def _on_disk(self, table_id: str, decisions: int) -> bool:
        """Whether ``table_id``'s file holds its first ``decisions`` decisions (a table
        out of memory was written with its end, or deleted)."""
        return table_id not in self.tables or self._written.get(table_id, -1) >= decisions

    def _retire(self) -> None:
        """Remove the journal files whose every table is written after them."""
        for path in self.journal.retirable(self._on_disk) if self.journal else []:
            try:
                path.unlink(missing_ok=True)
            except OSError as exc:
                log.warning("cannot remove %s: %s", path, exc)
                continue
            self.journal.forget(path)

    async def flush(self) -> None:
        """Write every changed table (a failure is logged once per table and tried
        again next time), then remove the journal files no longer needed."""
        ids = [i for i in self.dirty if i in self.tables]
        done = await asyncio.gather(*(self.persist(self.tables[i]) for i in ids),
                                    return_exceptions=True)
        for table_id, result in zip(ids, done):
            if isinstance(result, Exception) and not isinstance(result, OSError) \
                    and table_id not in self._failing:
                self._failing[table_id] = repr(result)
                log.error("cannot write game %s", table_id, exc_info=result)
        self._retire()

    async def keep_flushing(self, stop: asyncio.Event, every: float = FLUSH_EVERY) -> None:
        """Flush changed tables every ``every`` seconds until ``stop`` is set; nothing
        but ``stop`` ends it."""
        while not stop.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), every)
            try:
                await self.flush()
            except Exception:  # noqa: BLE001 -- saving goes on whatever one flush meets
                if not self._flush_failed:
                    log.exception("a flush of the games failed (tried again)")
                self._flush_failed = True

    async def close(self) -> None:
        """At shutdown: a last flush, then the journal and the file thread closed."""
        await self.flush()
        if self.journal is not None:
            await self.journal.close()
        self._files.shutdown(wait=True)

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
                self._written[table_id] = len(table.game.history)
        self._take_again()
        return opened

    def _take_again(self) -> None:
        """Take again the journal's decisions after each table's file and write the
        tables they changed; a journal file found goes once its tables are written."""
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
            try:
                write_durably(self._path(table_id), table.record())
            except OSError as exc:  # (its journal stays; the flusher tries again)
                self.dirty.add(table_id)
                self._failed(table_id, exc)
                continue
            self._written[table_id] = len(table.game.history)
            if table.finished:
                del self.tables[table_id]
                self._written.pop(table_id)
                self._note(table)
        self._retire()


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
