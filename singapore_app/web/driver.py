"""Agents playing their seats without blocking the server: each table with an agent to
move gets an asyncio task that asks the agent on a thread pool (one BLAS / torch thread
per worker, :func:`agents.threads.limit_threads`) and applies its decision on the event
loop, where every change to a game happens. A thread pool that breaks (a worker that
could not start, out of memory or file descriptors) is replaced and the move tried
again after :data:`RETRY_SECONDS`; only the agent's own failure stops a table."""

from __future__ import annotations

import asyncio
import errno
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.thread import BrokenThreadPool

from agents.threads import limit_threads

from .store import Tables
from .table import Table
from .views import agent_failed

log = logging.getLogger(__name__)
#: Seconds before a move is tried again on a new pool, after the pool broke.
RETRY_SECONDS = 0.5
#: What a system short of resources raises when a worker starts or an agent is built.
_SHORT = (errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN)


class _PoolFailed(Exception):
    """The pool could not run a job (it broke, or could not start a thread)."""


class Driver:
    """Runs the agents' moves of every table of ``tables`` on ``workers`` threads; a
    search agent stops each search at ``think_limit`` seconds (its ``time_cap``),
    whatever budget its spec names."""

    def __init__(self, tables: Tables, workers: int = 2, think_limit: float | None = None):
        self.tables = tables
        self.think_limit = think_limit
        self.workers = workers
        self.pool = self._new_pool()
        self.tasks: dict[str, asyncio.Task] = {}
        self.closing = False
        self._logged = -1.0  # (when a broken pool was last logged)

    def _new_pool(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(self.workers, thread_name_prefix="agent",
                                  initializer=limit_threads)

    async def _run(self, fn, *args):
        """``fn(*args)`` on the pool; a pool that broke is replaced (once, whichever
        table saw it first) and the job tried again after :data:`RETRY_SECONDS`."""
        loop = asyncio.get_running_loop()
        while True:
            pool = self.pool
            try:
                try:
                    future = loop.run_in_executor(pool, fn, *args)
                except (BrokenThreadPool, RuntimeError) as exc:  # (a thread not started)
                    raise _PoolFailed(exc) from exc
                try:
                    return await future
                except BrokenThreadPool as exc:  # (a worker's start-up failed)
                    raise _PoolFailed(exc) from exc
                except OSError as exc:
                    if exc.errno not in _SHORT:
                        raise
                    raise _PoolFailed(exc) from exc
            except _PoolFailed as failed:
                if self.closing:
                    raise asyncio.CancelledError from failed
                self._renew(pool, failed.__cause__)
                await asyncio.sleep(RETRY_SECONDS)

    def _renew(self, pool: ThreadPoolExecutor, why: BaseException) -> None:
        now = time.monotonic()
        if now - self._logged >= 1.0:  # (at most once a second, however many tables)
            self._logged = now
            log.error("the agents' threads failed (%s): started again, moves go on",
                      why or "a worker did not start")
        if self.pool is pool:
            self.pool = self._new_pool()
            pool.shutdown(wait=False, cancel_futures=False)

    def kick(self, table: Table) -> None:
        """Start moving ``table``'s agents if one is to move and none is moving yet."""
        if table.agent_to_move() and table.id not in self.tasks and table.error is None:
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        try:
            while table.agent_to_move():
                if table.delay:
                    await asyncio.sleep(table.delay)
                while self.tables.saving_fails:  # (no move the journal cannot keep)
                    await asyncio.sleep(0.5)
                if not table.agent_to_move():
                    break  # (stopped while waiting)
                g = table.game
                seat, taken = g.acting_seat, len(g.history)
                table.thinking = seat
                try:
                    agent = await self._run(table.agent, seat)
                    if hasattr(agent, "time_cap"):
                        agent.time_cap = self.think_limit
                    decision = await self._run(agent.choose, g.clone(), seat)
                finally:
                    table.thinking = None
                if not table.agent_to_move() or len(g.history) != taken:
                    continue  # (stopped or deleted meanwhile)
                table.step(decision)
                self.tables.stepped(table)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an agent's failure stops that table only
            table.error = agent_failed(table, table.game.acting_seat, exc)
            log.exception("table %s: %s", table.id, table.error)
        finally:
            self.tasks.pop(table.id, None)

    async def close(self) -> None:
        """Stop every table's agents (their games are saved) and the thread pool."""
        self.closing = True
        for task in list(self.tasks.values()):
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
