"""The two tables of ``docs/observation.md``, generated from the code: the action table
(every decision kind's indices and what its argument means) and the observation's slices
(:class:`~singapore_env.encoding.layout.ObservationLayout`).

    python -m singapore_env.encoding.docs                # print both tables
    python -m singapore_env.encoding.docs --update-docs  # rewrite them in docs/observation.md

A test checks that the copies in ``docs/observation.md`` are current.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import ObservationEncoder, action_table
from ..engine.decisions import ActionTable, Kind
from .layout import ObservationLayout

__all__ = ["ARG_MEANING", "action_table_markdown", "observation_markdown", "update_docs"]


# What the ``arg`` of each decision kind means (documentation only).
ARG_MEANING: dict[str, str] = {
    "PASS": "- (decline / end turn / done / no)",
    "YES": "- (accept the yes/no question asked)",
    "PLACE_LEADER": "leader space",
    "LEADER_MONEY": "- (Market leader space: take $1 instead)",
    "LEADER_STOREHOUSE": "- (Battle leader space: 1 token to the Storehouse instead)",
    "BUY_MARKET": "market slot (0 = leftmost; also the Economic Boom's free pick)",
    "BUY_BATTLE": "0 = top card; 1 = pay tokens, draw 2 keep 1",
    "KEEP_BATTLE": "which of the two drawn cards to keep",
    "POPULATE": "-",
    "ATTACH_POP": "tableau position receiving the Population card",
    "ACTIVATE": "tableau position of the first card of the group",
    "RAID": "-",
    "DECREE": "vice index",
    "WAR": "defender seat (absolute)",
    "REVEAL": "hand index",
    "REBUILD": "tableau position of a closed Public Works",
    "SEARCH": "tableau position of the card granting the search",
    "CHOOSE": "option of a small menu (searched card, spoils share, dice to re-roll as a "
              "bit mask)",
    "CONNECT": "position * 2 + side (0 = left of it, 1 = right of it)",
    "INFLUENCE_START": "loop space",
    "COMMIT": "hand index, or H + revealed index",
    "ADD_MONEY": "- (one more dollar; first edition: one more Storehouse token in a War)",
    "FUND": "- (fund the excess Public Works token)",
    "CLOSE": "tableau position of the Public Works card to close",
    "MOVE_SEAT": "seat (absolute) whose tableau the next move is in",
    "MOVE_CARD": "source * (2T + 1) + target (position * 2 + side, or 2T = detach)",
    "MOVE_POP": "source position * T + destination position",
    "REMOVE_INFLUENCE": "loop space",
    "DISCARD_POP": "tableau position whose Population card is lost",
    "STORE": "number of Influence tokens stored on the card",
    "DISCARD_CARD": "tableau position of the card discarded for War strength (first "
                    "edition: of the loser's card the War winner takes)",
    "INSPIRE": "- (simulation: spend Storehouse tokens to draw a Folk Hero card)",
    "FOLK_HERO": "simulation: index of the Folk Hero card played from the hand",
}


def action_table_markdown(table: ActionTable | None = None) -> str:
    """The action table as Markdown: kind, index range, number of args, arg meaning."""
    table = table if table is not None else action_table()
    lines = ["| kind | indices | args | arg meaning |", "|---|---|---|---|"]
    for kind in Kind:
        start, n = table.offset[int(kind)], table.sizes[kind]
        rng = f"{start}" if n == 1 else f"{start}–{start + n - 1}"
        lines.append(f"| `{kind.name}` ({int(kind)}) | {rng} | {n} | "
                     f"{ARG_MEANING.get(kind.name, '')} |")
    lines.append(f"| **total** | 0–{len(table) - 1} | **N = {len(table)}** | "
                 f"T = {table.max_tableau}, H = {table.max_hand} |")
    return "\n".join(lines)


def observation_markdown(layout: ObservationLayout | None = None) -> str:
    """The observation slices as Markdown: name, offset, shape, size, high, meaning."""
    enc = layout if layout is not None else ObservationLayout()
    lines = ["| slice | offset | shape | size | range | meaning |",
             "|---|---|---|---|---|---|"]
    for name, shape, low, high, meaning in enc.slices:
        size = int(np.prod(shape))
        shp = "×".join(str(x) for x in shape)
        lines.append(f"| `{name}` | {enc.offsets[name]} | {shp} | {size} | "
                     f"{low:g}..{high:g} | {meaning} |")
    lines.append(f"| **total** | | | **D = {enc.size}** | | |")
    return "\n".join(lines)


def _replace_table(text: str, table: str) -> str:
    """Replace the Markdown table in ``text`` that has ``table``'s header line."""
    header = table.split("\n", 1)[0]
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == header)
    indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
    end = start
    while end < len(lines) and lines[end].strip().startswith("|"):
        end += 1
    lines[start:end] = [indent + line for line in table.split("\n")]
    return "\n".join(lines)


def update_docs() -> None:
    """Rewrite the two tables in ``docs/observation.md``."""
    enc = ObservationEncoder()
    path = Path(__file__).resolve().parents[2] / "docs" / "observation.md"
    text = path.read_text()
    for table in (action_table_markdown(enc.table), observation_markdown(enc)):
        text = _replace_table(text, table)
    path.write_text(text)
    print(f"updated {path}")


if __name__ == "__main__":  # pragma: no cover
    import sys
    if "--update-docs" in sys.argv:
        update_docs()
    else:
        enc = ObservationEncoder()
        print("## Action table\n")
        print(action_table_markdown(enc.table))
        print("\n## Observation slices\n")
        print(observation_markdown(enc))
