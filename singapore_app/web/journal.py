"""The server's journal: every decision taken at its tables, appended in order to one
file and flushed to disk in groups. An answer waits until its line is on disk before
its 200 (one fsync for every answer that came in meanwhile: group commit), so an
acknowledged answer survives a crash; the tables' own files are written from time to
time (:mod:`singapore_app.web.store`), and at start the decisions a journal holds after
a table's file are taken again.

A write that fails (a full disk, an I/O error, no file descriptor left) fails the
answers waiting on it (their 503), is logged once, and is tried again, in order, until
it succeeds or the server stops; a journal file is removed only once every table it
holds a decision of is written after it (:meth:`Journal.retirable`).

A line is ``[table id, decisions before, kind, arg]``; a line torn by a crash or by a
failed write is ignored (its decision is in a later line or was never acknowledged),
and a line repeated by a retried write is taken once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

log = logging.getLogger(__name__)

#: Lines after which a new journal file is begun (the old one goes once every table
#: it holds is written).
ROTATE_AFTER = 20_000
#: Seconds between two tries of a failed write.
RETRY_SECONDS = 0.5


class Journal:
    """The journal files ``journal-N.jsonl`` of a games folder, written on a thread of
    their own (never behind agents or file reads)."""

    def __init__(self, folder: Path):
        self.folder = folder
        #: the journal files found at start (taken again, then retired like the others)
        self.files = sorted(folder.glob("journal-*.jsonl"), key=_number)
        self.path = folder / f"journal-{_number(self.files[-1]) + 1 if self.files else 1}.jsonl"
        self.lines = 0
        #: per journal file: table id -> the decision count its lines reach
        self.holds: dict[Path, dict[str, int]] = {}
        #: why the last write failed (None: it did not)
        self.failing: str | None = None
        self._fd: int | None = None
        self._torn = False  # (a failed write may have left part of a line)
        self._pending: list[tuple[str, int, str]] = []
        #: resolved when the group open now (the pending lines) is on disk
        self._open: asyncio.Future | None = None
        #: resolved when the group being written is on disk
        self._inflight: asyncio.Future | None = None
        self._task: asyncio.Task | None = None
        self._closing = False
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="journal")
        with contextlib.suppress(OSError):  # (opened now: a later lack of descriptors
            self._open_file()                # does not stop it; else opened on a write)

    def entries(self) -> list[tuple[str, int, int, int]]:
        """The decisions of the journal files found at start, in order (and what each
        file holds, for :meth:`retirable`)."""
        out = []
        for path in self.files:
            held = self.holds.setdefault(path, {})
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                log.warning("skipping %s: %s", path, exc)
                continue
            for line in text.splitlines():
                if not line.strip():
                    continue
                try:
                    table_id, before, kind, arg = json.loads(line)
                    entry = (str(table_id), int(before), int(kind), int(arg))
                except (ValueError, TypeError):
                    log.warning("%s: skipping a torn or foreign line %r", path, line[:80])
                    continue
                out.append(entry)
                held[entry[0]] = max(held.get(entry[0], 0), entry[1] + 1)
        return out

    def note(self, table_id: str, before: int, decision) -> None:
        """Append a decision: it goes to disk with the next group."""
        line = json.dumps([table_id, before, int(decision.kind), int(decision.arg)]) + "\n"
        self._pending.append((table_id, before + 1, line))
        loop = asyncio.get_running_loop()
        if self._open is None:
            self._open = loop.create_future()
        if self._task is None:
            self._task = loop.create_task(self._write_groups())

    async def durable(self) -> None:
        """Wait until every decision noted so far is on disk (OSError if the write that
        carried them failed: they are tried again, but the caller is not kept waiting)."""
        group = self._open if self._pending else self._inflight
        if group is not None:
            await asyncio.shield(group)

    def retirable(self, on_disk) -> list[Path]:
        """The journal files, other than the one written now, whose every table is
        written after them (``on_disk(table id, decisions)``)."""
        return [path for path, held in self.holds.items() if path != self.path
                and all(on_disk(t, n) for t, n in held.items())]

    def forget(self, path: Path) -> None:
        """``path`` was removed."""
        self.holds.pop(path, None)

    async def _write_groups(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                group, self._pending = self._pending, []
                self._inflight, self._open = self._open, None
                held = self.holds.setdefault(self.path, {})
                for table_id, decisions, _ in group:
                    held[table_id] = max(held.get(table_id, 0), decisions)
                try:
                    await loop.run_in_executor(self._thread, self._append,
                                               "".join(line for *_, line in group))
                except OSError as exc:
                    self._failed(exc)
                    self._inflight.set_exception(exc)
                    self._inflight.exception()  # (retrieved: the waiters get it)
                    self._inflight = None
                    self._pending[:0] = group  # (tried again first, in order)
                    if self._open is None:
                        self._open = loop.create_future()
                    if self._closing:
                        return
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if self.failing is not None:
                    log.warning("the journal %s is written again", self.path)
                    self.failing = None
                self._inflight.set_result(None)
                self._inflight = None
                self.lines += len(group)
                if self.lines >= ROTATE_AFTER:
                    self._begin_next()
        finally:
            self._task = None

    def _failed(self, exc: OSError) -> None:
        if self.failing is None:
            log.error("cannot write the journal %s: %s (answers get a 503 and the write "
                      "is tried again every %g s)", self.path, exc, RETRY_SECONDS)
        self.failing = str(exc) or type(exc).__name__

    def _append(self, text: str) -> None:
        """Write ``text`` at the end of the journal file and fsync it."""
        if self._fd is None:
            self._open_file()
        data = (("\n" if self._torn else "") + text).encode()
        try:
            while data:
                data = data[os.write(self._fd, data):]
            os.fsync(self._fd)
            self._torn = False
        except OSError:
            self._torn = True
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.close(fd)
            raise

    def _open_file(self) -> None:
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _begin_next(self) -> None:
        """Start a new journal file (between two groups)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None
        self.path = self.folder / f"journal-{_number(self.path) + 1}.jsonl"
        self.lines = 0

    async def close(self, wait: float = 5.0) -> None:
        """Write what is noted (trying for ``wait`` seconds) and close the file."""
        self._closing = True
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), wait)
            except asyncio.TimeoutError:
                self._task.cancel()  # (a write hung past ``wait``: nothing waits on it)
        self._thread.shutdown(wait=True)
        if self._pending:
            try:
                self._append("".join(line for *_, line in self._pending))
                self._pending = []
            except OSError as exc:
                log.error("the journal lost %d decisions at shutdown: %s",
                          len(self._pending), exc)
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None


def _number(path: Path) -> int:
    try:
        return int(path.stem.split("-", 1)[1])
    except (IndexError, ValueError):
        return 0
