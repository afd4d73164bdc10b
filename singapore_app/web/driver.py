"""Agents playing their seats without blocking the server: each table with an agent to
move gets an asyncio task that asks the agent on a thread pool (one BLAS / torch thread
per worker, :func:`agents.threads.limit_threads`) and applies its decision on the event
loop, where every change to a game happens."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from agents.threads import limit_threads

from .store import Tables
from .table import Table

log = logging.getLogger(__name__)


class Driver:
    """Runs the agents' moves of every table of ``tables`` on ``workers`` threads; a
    search agent stops each search at ``think_limit`` seconds (its ``time_cap``),
    whatever budget its spec names."""

    def __init__(self, tables: Tables, workers: int = 2, think_limit: float | None = None):
        self.tables = tables
        self.think_limit = think_limit
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="agent",
                                       initializer=limit_threads)
        self.tasks: dict[str, asyncio.Task] = {}

    def kick(self, table: Table) -> None:
        """Start moving ``table``'s agents if one is to move and none is moving yet."""
        if table.agent_to_move() and table.id not in self.tasks and table.error is None:
            self.tasks[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
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
                    agent = await loop.run_in_executor(self.pool, table.agent, seat)
                    if hasattr(agent, "time_cap"):
                        agent.time_cap = self.think_limit
                    decision = await loop.run_in_executor(self.pool, agent.choose,
                                                          g.clone(), seat)
                finally:
                    table.thinking = None
                if not table.agent_to_move() or len(g.history) != taken:
                    continue  # (stopped or deleted meanwhile)
                table.step(decision)
                self.tables.stepped(table)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # an agent's failure stops that table only
            table.error = f"the agent of seat {table.game.acting_seat} failed: {exc!r}"[:300]
            log.exception("table %s: %s", table.id, table.error)
        finally:
            self.tasks.pop(table.id, None)

    async def close(self) -> None:
        """Stop every table's agents (their games are saved) and the thread pool."""
        for task in list(self.tasks.values()):
            task.cancel()
        await asyncio.gather(*self.tasks.values(), return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
