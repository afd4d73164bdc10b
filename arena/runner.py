"""Play many seeded games -- in this process, on ``workers`` processes, or on Ray -- and
return one record per game (:mod:`arena.records`), always in the same order.

A *table* is what a set of games plays: four players (agent specs, or agent objects
in this process only), a :class:`~singapore_env.engine.config.RulesConfig`, the content (a
data folder or None) and the record keys naming it (``variant``, ``mix``)::

    tables = [Table(("heuristic",) * 4, RulesConfig.standard(), None, {"mix": "h"})]
    records = play_tables(tables, n_games=100, seed=1, swap=True, workers=2)
    summary = run_tournament(1000, ["random"] * 4, seed=1, workers=2)  # one table, summarized

Game ``i`` of every table uses the seeds ``game_seeds(seed, n_games)[i]``
(:mod:`arena.simulate`); with ``swap`` it is played again with each faction's
two seats exchanged (players and their agent seeds), so seat advantages cancel. Every
game resets its agents with its own seeds, so a record does not depend on which
process played it: the records are identical for any number of workers, and on either
``engine`` (``"native"`` plays the same games on the compiled twin, for the players
:func:`arena.simulate.check_engine` lets sit; it refuses the others before any game).
Without an engine named, :func:`run_engine` picks one for the whole run: native where
the module is built and every player of every table sits at a native game, else Python,
where the players that look ahead then think on native copies of the positions
(:mod:`agents.native_copy`; ``engine="python"`` is the reference run, without them).
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from agents.net_layout import check_table
from singapore_env.engine.config import RulesConfig

from .records import game_record
from .simulate import check_engine, default_engine, game_seeds, play_game
from .summary import summarize

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.engine.content import Content


class RayUnavailable(RuntimeError):
    """``--ray ADDRESS`` names no reachable Ray cluster."""


MIRROR = (1, 0, 3, 2)  # each faction's two seats exchanged
IDENTITY = (0, 1, 2, 3)


@dataclass(frozen=True)
class Table:
    """Four players (seat order), the rules, the content and the record keys."""

    players: tuple
    config: RulesConfig = field(default_factory=RulesConfig.standard)
    content: Any = None               # a data folder (str) or None for the shipped cards
    keys: dict = field(default_factory=dict)

    def labels(self) -> list[str]:
        """The players' names (a spec, or an agent object's ``name``)."""
        return [p if isinstance(p, str) else p.name for p in self.players]


def _jobs(n_tables: int, n_games: int, seed: int, swap: bool, first: int = 0) -> list[tuple]:
    """``(table index, game index, layout, seeds)`` in record order, games ``first`` to
    ``n_games - 1``."""
    seeds = game_seeds(seed, n_games)
    layouts = (0, 1) if swap else (0,)
    return [(t, i, layout, seeds[i]) for t in range(n_tables) for i in range(first, n_games)
            for layout in layouts]


# ---------------------------------------------------------------- one game
_AGENTS: dict = {}  # (table index, seat, spec, copies) -> agent, per process


def _agent(table_index: int, seat: int, player, copies: bool = False):
    """The agent of a player: built once per process from a spec; with ``copies``, one
    that looks ahead thinks on native copies (:func:`agents.native_copy.on_native_copy`)."""
    from agents.native_copy import on_native_copy
    from agents.registry import as_agent

    if not isinstance(player, str):
        return on_native_copy(as_agent(player)) if copies else player
    key = (table_index, seat, player, copies)
    if key not in _AGENTS:
        agent = as_agent(player)
        _AGENTS[key] = on_native_copy(agent) if copies else agent
    return _AGENTS[key]


def play_job(tables: Sequence[Table], job: tuple, engine: str = "python",
             copies: bool = False) -> dict:
    """Play one game of a job list on ``engine`` (on the Python engine with ``copies``,
    the players that look ahead think on native copies: the same game) and return its
    record."""
    t, i, layout, (engine_seed, *agent_seeds) = job
    table = tables[t]
    order = MIRROR if layout else IDENTITY
    labels = table.labels()
    agents = [_agent(t, p, table.players[order[p]], copies) for p in range(4)]
    result = play_game(engine_seed, agents, table.config, content=table.content,
                       agent_seeds=[agent_seeds[order[p]] for p in range(4)], keep_game=True,
                       engine=engine)
    assert result.game is not None  # (keep_game)
    return game_record(result.game, [labels[order[p]] for p in range(4)], **table.keys,
                       game=i, layout=layout, seed=engine_seed)


# ---------------------------------------------------------------- worker processes
_TABLES: list[Table] = []
_MODE: list = ["python", False]  # the engine, copies


def _init_worker(tables: list[Table], engine: str, copies: bool) -> None:
    from agents.threads import limit_threads

    limit_threads(1)
    _TABLES[:] = tables
    _MODE[:] = [engine, copies]
    _AGENTS.clear()


def _play_chunk(jobs: list[tuple]) -> list[dict]:
    return [play_job(_TABLES, job, *_MODE) for job in jobs]


def _chunks(jobs: list, size: int) -> list[list]:
    return [jobs[k:k + size] for k in range(0, len(jobs), size)]


def _chunk_size(n_jobs: int, workers: int) -> int:
    return max(1, min(50, n_jobs // (workers * 8)))


def _local(tables: list[Table], jobs: list[tuple], workers: int, engine: str,
           copies: bool) -> Iterator[list[dict]]:
    if workers <= 1:
        for job in jobs:
            yield [play_job(tables, job, engine, copies)]
        return
    if any(not isinstance(p, str) for t in tables for p in t.players):
        raise ValueError("workers > 1 needs agent specs (strings), not agent objects")
    with multiprocessing.get_context().Pool(workers, _init_worker,
                                            (tables, engine, copies)) as pool:
        yield from pool.imap(_play_chunk, _chunks(jobs, _chunk_size(len(jobs), workers)))


def connect_ray(address: str, **init_kwargs) -> None:
    """Join the Ray cluster at ``address`` (``"auto"``, ``host:port``) or start a local
    one (``"local"``), unless Ray is already initialized; RayUnavailable if it fails."""
    import ray

    if ray.is_initialized():
        return
    _check_reachable(address)
    try:
        ray.init(address=None if address == "local" else address,
                 include_dashboard=False, log_to_driver=False, **init_kwargs)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        raise RayUnavailable(f"cannot start or reach a Ray cluster at {address!r}: "
                             f"{exc}") from None


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """RayUnavailable at once when nothing listens at a ``host:port`` address (Ray itself
    retries such an address for minutes before it gives up)."""
    import socket

    host, sep, port = address.rpartition(":")
    if address in ("local", "auto") or not sep:
        return
    if not port.isdigit():
        raise RayUnavailable(f"a Ray address is HOST:PORT, 'auto' or 'local', got {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout_s).close()
    except OSError as exc:
        raise RayUnavailable(f"no Ray cluster answers at {address!r}: {exc}") from None


def _ray(tables: list[Table], jobs: list[tuple], address: str, engine: str,
         copies: bool) -> Iterator[list[dict]]:
    """The same chunks as remote Ray tasks (results in submission order)."""
    import ray

    connect_ray(address)

    @ray.remote
    def chunk(tables_ref, jobs_chunk):
        _init_worker(tables_ref, engine, copies)
        return _play_chunk(jobs_chunk)

    tables_ref = ray.put(tables)
    n_cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    futures = [chunk.remote(tables_ref, c)
               for c in _chunks(jobs, _chunk_size(len(jobs), n_cpus))]
    for future in futures:
        yield ray.get(future)


def run_engine(tables: Sequence[Table], engine: str | None = None) -> str:
    """The engine a run of ``tables`` plays on: ``engine`` if given, else the default of
    all their players and rules (:func:`arena.simulate.default_engine`)."""
    if engine is not None:
        return engine
    players = [p for table in tables for p in table.players]
    return default_engine(players, [table.config for table in tables])[0]


def play_tables(tables: Sequence[Table], n_games: int, seed: int = 0, *, swap: bool = False,
                workers: int = 1, ray_address: str | None = None, progress: bool = False,
                desc: str = "games", engine: str | None = None, first: int = 0) -> list[dict]:
    """Play ``n_games`` seeds (twice with ``swap``) on every table; the records in table,
    game, layout order. With ``first``, only games ``first`` to ``n_games - 1`` (the
    same games, records and seeds as in the whole run: more seeds for a set of games
    already played, :mod:`singapore_app.tune`). ``ray_address`` (``"auto"``, ``"local"`` or ``host:port``) runs
    the games on a Ray cluster instead of local processes. ``engine`` is ``"python"``
    (the reference: every player thinks on the Python engine) or ``"native"`` (the same
    records; players refused by :func:`arena.simulate.check_engine` before any game), or
    None for :func:`run_engine`'s choice; where that is the Python engine, the players
    that look ahead and have a native twin think on native copies of the positions
    (:mod:`agents.native_copy`: the same decisions, so the same records, faster)."""
    if n_games < 1:
        raise ValueError(f"n_games must be >= 1, got {n_games}")
    if not 0 <= first < n_games:
        raise ValueError(f"need 0 <= first < n_games, got first={first}, n_games={n_games}")
    tables = list(tables)
    copies = engine is None
    engine = run_engine(tables, engine)
    copies = copies and engine == "python"
    for table in tables:
        check_engine(table.players, engine)
        check_table(table.players, table.config, table.content)
    jobs = _jobs(len(tables), n_games, seed, swap, first)
    source = (_ray(tables, jobs, ray_address, engine, copies) if ray_address
              else _local(tables, jobs, workers, engine, copies))
    bar = None
    if progress and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=len(jobs), unit="game", desc=desc)
    records: list[dict] = []
    try:
        for chunk in source:
            records.extend(chunk)
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
        _AGENTS.clear()
    return records


def run_tournament(n_games: int, agent_names: Sequence, seed: int = 0,
                   config: RulesConfig | None = None, progress: bool = False, *,
                   content: "Content | str | None" = None, swap: bool = False,
                   workers: int = 1, ray_address: str | None = None,
                   engine: str | None = None) -> dict:
    """Play ``n_games`` games with the named agents (seat order) and summarize them
    (:func:`arena.summary.summarize`, the schema every command writes).

    ``agent_names`` are agent specs (or, with ``workers=1``, agent objects, named in the
    summary by their ``name``). ``content`` is an edited data folder (or a loaded
    :class:`~singapore_env.engine.content.Content`); ``swap`` plays every seed twice, each
    faction's two seats exchanged; ``workers`` processes (or a Ray cluster) play the
    games, with the same records for any number, on the ``engine`` given (``"python"``
    or ``"native"``: the same records too; None: :func:`run_engine`'s choice), which the
    summary names. The returned dict is JSON-serializable.
    """
    players = list(agent_names)
    if len(players) != 4:
        raise ValueError(f"a game needs 4 players, got {len(players)}: {players}")
    cfg = config if config is not None else RulesConfig.standard()
    tables = [Table(tuple(players), cfg, content)]
    played = run_engine(tables, engine)
    start = time.perf_counter()
    records = play_tables(tables, n_games, seed, swap=swap, workers=workers,
                          ray_address=ray_address, progress=progress, desc="simulating",
                          engine=engine)
    return summarize(records, seconds=time.perf_counter() - start, seed=seed, seeds=n_games,
                     swap=swap, ruleset=cfg.ruleset, slavery=cfg.slavery,
                     changes=config_changes(cfg), data=_content_name(content), engine=played)


def config_changes(cfg: RulesConfig) -> dict:
    """The settings of ``cfg`` that differ from its ruleset's own numbers (JSON values)."""
    base = RulesConfig.named(cfg.ruleset).to_dict()
    return {k: v for k, v in cfg.to_dict().items()
            if k != "ruleset" and base.get(k) != v}


def _content_name(content) -> str | None:
    if content is None:
        return None
    return str(content) if not hasattr(content, "digest") else f"content {content.digest}"

