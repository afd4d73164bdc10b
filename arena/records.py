"""One flat record per finished game: who played, who won, VP by source, game facts.

A record is made from a finished game of either engine (a
:class:`~singapore_env.engine.Game` or a :class:`~singapore_env.native.NativeGame`: the
same game gives the same record). It is a dict of plain values (one row of the per-game table a study writes as
Parquet or CSV). Columns, with ``SEAT`` each of the four seat names:

==============================  ==========================================================
``agent_SEAT``                  the agent spec at that seat
``vp_SEAT``                     final VP
``win_SEAT``                    share of the win (1, or 1/k for a k-way tie, else 0)
``vp_SEAT_SOURCE``              final VP from each source of
                                :data:`~singapore_env.engine.state.VP_SOURCES`; they sum to
                                ``vp_SEAT``
``decisions``, ``rounds``       decisions taken, rounds played
``anglo_dutch_round``           the round the Anglo-Dutch Treaty came (0: never)
``wars``, ``war_ties``          Wars fought, Wars without victor
``wars_won_british/malay``      Wars won by each faction
``raids``, ``raid_dollars``     Raids and the dollars they took
``decrees``, ``decrees_vetoed`` Decrees played (outlaw or legalize) and vetoed
``outlawed``                    vices outlawed by a Decree
``conflicts``                   Conflict events resolved
``conflict_strength``           summed strength of those events
``conflict_contributed``        summed strength the players contributed to them
==============================  ==========================================================

No column times anything or names the engine: a record is the same whichever engine
played the game, how fast and on how many workers (the run's summary and a Parquet
file's metadata name the engine, :func:`write_records`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from singapore_env.engine import Game
from singapore_env.engine.content import FACTIONS, SEAT_FACTION, SEAT_NAMES
from singapore_env.engine.state import VP_SOURCES

if TYPE_CHECKING:  # pragma: no cover
    from singapore_env.native import NativeGame

FACT_COLUMNS = ("anglo_dutch_round", "wars", "war_ties", "wars_won_british", "wars_won_malay",
                "raids", "raid_dollars", "decrees", "decrees_vetoed", "outlawed",
                "conflicts", "conflict_strength", "conflict_contributed")


def final_state(game: "Game | NativeGame") -> dict:
    """What a record reads of a game's state: ``vp_sources``, ``facts``, ``round`` and
    ``decisions`` (a native game's from its saved state, the same values)."""
    if isinstance(game, Game):
        s = game.s
        return {"vp_sources": s.vp_sources, "facts": s.facts, "round": s.round,
                "decisions": s.decisions}
    return game.to_dict()["state"]


def vp_by_source(state: dict) -> list[dict[str, int]]:
    """Per seat, ``{source: VP}`` over :data:`~singapore_env.engine.state.VP_SOURCES`
    (``state``: :func:`final_state`)."""
    return [dict(zip(VP_SOURCES, row)) for row in state["vp_sources"]]


def win_shares(winners: Sequence[int]) -> list[float]:
    """Share of the win of each seat (ties split)."""
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(4)]


def game_facts(state: dict) -> dict[str, int]:
    """The game's facts (:data:`FACT_COLUMNS`) counted from ``state["facts"]``
    (``state``: :func:`final_state`)."""
    out = dict.fromkeys(FACT_COLUMNS, 0)
    for kind, round_, *values in state["facts"]:
        if kind == "anglo_dutch":
            out["anglo_dutch_round"] = round_
        elif kind == "war":
            victor = values[2]
            out["wars"] += 1
            if victor < 0:
                out["war_ties"] += 1
            else:
                out[f"wars_won_{FACTIONS[SEAT_FACTION[victor]]}"] += 1
        elif kind == "raid":
            out["raids"] += 1
            out["raid_dollars"] += values[1]
        elif kind == "decree":
            out["decrees"] += 1
            out["decrees_vetoed"] += values[2] < 0
            out["outlawed"] += values[2] == 1
        elif kind == "conflict":
            out["conflicts"] += 1
            out["conflict_strength"] += values[0]
            out["conflict_contributed"] += values[1]
    return out


def game_record(finished: "Game | NativeGame", agents: Sequence[str], **keys) -> dict:
    """The record of a finished game; ``keys`` (study, variant, game index...) come first."""
    record = dict(keys)
    state = final_state(finished)
    shares = win_shares(finished.winners)
    sources = vp_by_source(state)
    for p, seat in enumerate(SEAT_NAMES):
        record[f"agent_{seat}"] = agents[p]
        record[f"vp_{seat}"] = finished.final_scores[p]
        record[f"win_{seat}"] = shares[p]
        for source, vp in sources[p].items():
            record[f"vp_{seat}_{source}"] = vp
    record["decisions"] = state["decisions"]
    record["rounds"] = state["round"]
    record.update(game_facts(state))
    return record


def write_records(records: list[dict], path: str, engine: str | None = None) -> None:
    """Write the records as a table: Parquet (``.parquet``, needs pyarrow) or CSV
    (anything else), through pandas. A Parquet file names the ``engine`` that played
    the games in its schema's metadata (key ``engine``), not in a column: the rows are
    the same on either engine."""
    import pandas as pd

    frame = pd.DataFrame.from_records(records)
    if not str(path).endswith(".parquet"):
        frame.to_csv(path, index=False)
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if engine is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               b"engine": engine.encode()})
    pq.write_table(table, path)
