"""The tables of one server, kept in memory and written to the games folder so that
games in progress survive a restart (:mod:`singapore_app.web.table` for the files)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import threading
from pathlib import Path

from singapore_env.engine import Game
from singapore_env.engine.save_validation import SaveFormatError

from . import views
from .inputs import ID_PATTERN, ApiError
from .replay import Timeline
from .table import PERSON, Table

log = logging.getLogger(__name__)


class Tables:
    """Every table of the server by id; ``folder`` (None: nothing written) holds
    ``ID.json`` (the save) and ``ID.meta.json`` (the table) of each."""

    def __init__(self, folder: str | Path | None):
        self.folder = Path(folder) if folder is not None else None
        self.tables: dict[str, Table] = {}
        self._timelines: dict[str, tuple[int, Timeline]] = {}
        #: tables changed since they were last written (see :meth:`flush`)
        self.dirty: set[str] = set()
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)

    def new(self, game: Game, seats: list[str], delay: float = 0.0,
            replay_only: bool = False) -> Table:
        """A new table for ``game`` under a fresh id, saved at once."""
        table_id = secrets.token_hex(6)
        while table_id in self.tables:  # pragma: no cover (48 random bits)
            table_id = secrets.token_hex(6)
        table = Table(table_id, game, seats, delay, replay_only=replay_only)
        if replay_only:
            from .table import replayed_log
            table.log = replayed_log(game)
        self.tables[table_id] = table
        self.save(table)
        return table

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (ApiError 404 if there is none)."""
        table = self.tables.get(table_id)
        if table is None:
            raise ApiError(404, f"no game {table_id!r} on this server")
        return table

    def recent(self, most: int = 50) -> list[dict]:
        """The newest tables first, as list entries (no secrets)."""
        newest = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)[:most]
        return [{"id": t.id, "created": t.created, "status": views.headline(t.game),
                 "over": t.game.is_over, "replay_only": t.replay_only,
                 "ruleset": t.game.cfg.ruleset, "seed": t.game.seed,
                 "decisions": len(t.game.history),
                 "seats": ["person" if s == PERSON else s for s in t.seats],
                 "open_book": t.open_book} for t in newest]

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
    def save(self, table: Table) -> None:
        """Write the table's two files now (each replaced at once, never half written)."""
        self.dirty.discard(table.id)
        for path, text in self._files(table):
            _write(path, text)

    def changed(self, table: Table) -> None:
        """Note that ``table`` changed: it is written by the next :meth:`flush`."""
        self.dirty.add(table.id)

    def _files(self, table: Table) -> list[tuple[Path, str]]:
        if self.folder is None:
            return []
        return [(self.folder / f"{table.id}.json", table.game.to_json()),
                (self.folder / f"{table.id}.meta.json", json.dumps(table.meta()))]

    async def flush(self) -> None:
        """Write every changed table: the texts are made on the event loop (where the
        games change), the files written on a thread."""
        files = []
        for table_id in list(self.dirty):
            self.dirty.discard(table_id)
            files += self._files(self.tables[table_id])
        if files:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: [_write(path, text) for path, text in files])

    async def keep_flushing(self, every: float = 0.5) -> None:
        """Flush changed tables every ``every`` seconds until cancelled (then once more)."""
        try:
            while True:
                await asyncio.sleep(every)
                await self.flush()
        finally:
            for table_id in list(self.dirty):
                self.save(self.tables[table_id])

    def load_all(self) -> list[str]:
        """Open every game in the folder; a file that is not a usable save is skipped
        (and named in the server's log). Returns the ids opened."""
        if self.folder is None:
            return []
        opened = []
        for path in sorted(self.folder.glob("*.json")):
            table_id = path.name[:-len(".json")]
            if not ID_PATTERN.fullmatch(table_id) or table_id in self.tables:
                continue
            try:
                game = Game.from_json(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, SaveFormatError) as exc:
                log.warning("skipping %s: %s", path, exc)
                continue
            self.tables[table_id] = Table.from_files(table_id, game, _meta(path))
            opened.append(table_id)
        return opened


def _meta(path: Path):
    try:
        return json.loads(path.with_suffix(".meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
