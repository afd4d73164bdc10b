"""The server's journal: every decision taken at its tables, appended in order to one
file and flushed to disk in groups. An answer waits until its line is on disk before
its 200 (one fsync for every answer that came in meanwhile: group commit), so an
acknowledged answer survives a crash; the tables' own files are written from time to
time (:mod:`singapore_app.web.store`), and at start the decisions a journal holds after
a table's file are taken again. A journal whose tables are all written since is
removed.

A line is ``[table id, decisions before, kind, arg]``; a line torn by a crash (the
last one) is ignored.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

#: Lines after which a new journal file is begun (the old one goes once every table
#: in memory is written).
ROTATE_AFTER = 20_000


class Journal:
    """The journal files ``journal-N.jsonl`` of a games folder."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.files = sorted(folder.glob("journal-*.jsonl"), key=_number)
        self.path = folder / f"journal-{_number(self.files[-1]) + 1 if self.files else 1}.jsonl"
        self.handle = open(self.path, "a", encoding="utf-8")
        self.lines = 0
        self._pending: list[str] = []
        #: resolved when the group open now (the pending lines) is on disk
        self._open: asyncio.Future | None = None
        #: resolved when the group being written is on disk
        self._inflight: asyncio.Future | None = None
        self._task: asyncio.Task | None = None
        #: older journal files, to be removed once every table in memory is written
        self.retired: list[Path] = []

    def entries(self) -> list[tuple[str, int, int, int]]:
        """The decisions of the journal files found at start, in order."""
        out = []
        for path in self.files:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                log.warning("skipping %s: %s", path, exc)
                continue
            for line in text.splitlines():
                try:
                    table_id, before, kind, arg = json.loads(line)
                    out.append((str(table_id), int(before), int(kind), int(arg)))
                except (ValueError, TypeError):
                    log.warning("%s: skipping a torn or foreign line %r", path, line[:80])
        return out

    def note(self, table_id: str, before: int, decision) -> None:
        """Append a decision: it goes to disk with the next group."""
        self._pending.append(json.dumps([table_id, before, int(decision.kind),
                                         int(decision.arg)]) + "\n")
        loop = asyncio.get_running_loop()
        if self._open is None:
            self._open = loop.create_future()
        if self._task is None:
            self._task = loop.create_task(self._write_groups())

    async def durable(self) -> None:
        """Wait until every decision noted so far is on disk (OSError if it cannot be
        written)."""
        group = self._open if self._pending else self._inflight
        if group is not None:
            await asyncio.shield(group)

    async def _write_groups(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                lines, self._pending = self._pending, []
                self._inflight, self._open = self._open, None
                try:
                    await loop.run_in_executor(None, self._append, "".join(lines))
                    self._inflight.set_result(None)
                except OSError as exc:
                    log.error("cannot write the journal %s: %s", self.path, exc)
                    self._inflight.set_exception(exc)
                    self._inflight.exception()  # (retrieved: the waiters get it)
                self.lines += len(lines)
                self._inflight = None
                if self.lines >= ROTATE_AFTER:
                    self.retired += self._begin_next()
        finally:
            self._task = None

    def _append(self, text: str) -> None:
        self.handle.write(text)
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def _begin_next(self) -> list[Path]:
        """Start a new journal file (between two groups); the older ones (returned) may
        be removed once every table in memory is written."""
        older = sorted(self.folder.glob("journal-*.jsonl"), key=_number)
        self.handle.close()
        self.path = self.folder / f"journal-{_number(self.path) + 1}.jsonl"
        self.handle = open(self.path, "a", encoding="utf-8")
        self.lines = 0
        return [p for p in older if p != self.path]

    def close(self) -> None:
        """Flush what is noted and close the file."""
        if self._pending:
            self._append("".join(self._pending))
            self._pending = []
        self.handle.close()


def _number(path: Path) -> int:
    try:
        return int(path.stem.split("-", 1)[1])
    except (IndexError, ValueError):
        return 0
