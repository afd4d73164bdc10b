"""docs/agents.md's rows from the JSON files of ``scripts/strength_table.sh``: each
``evaluate --mirror --json`` summary as a Markdown row (the agent's faction win rate,
its mirror on the same seeds, the difference paired by seed, all with 95 % intervals).

    python scripts/strength_rows.py runs/strength
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FACTION_SEATS = {"british": 0, "malay": 2}


def _pct(rate: float, ci: list[float]) -> str:
    return f"{100 * rate:.1f} % [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _points(diff: float, ci: list[float]) -> str:
    return f"{100 * diff:+.1f} [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]".replace("-", "−")


def row(summary: dict) -> str:
    """The Markdown row of one evaluate summary with a mirror: the faction whose seats
    do not play the mirror's agent (the British seats if both do not)."""
    players, mirror = summary["players"], summary["mirror_agent"]
    faction = next((f for f, seat in FACTION_SEATS.items() if players[seat] != mirror),
                   "british")
    agent = players[FACTION_SEATS[faction]]
    rate, base = summary["win_rate_by_faction"][faction], summary["mirror"][faction]
    diff = summary["minus_mirror"][faction]
    other = players[2 if faction == "british" else 0]
    return (f"| `{agent}` | {faction.capitalize()} | `{other}` | {_pct(rate['rate'], rate['ci95'])} "
            f"| {_pct(base['rate'], base['ci95'])} (`{mirror}` ×4) "
            f"| {_points(diff['difference'], diff['ci95'])} | {summary['seed']} × "
            f"{summary['seeds']} | {summary['games']:,} |")


def main(folder: str) -> None:
    print("| agent | as | against | win rate [95 % CI] | mirror, same seeds | difference "
          "[95 % CI] | seeds | games |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sorted(Path(folder).glob("*.json")):
        print(row(json.loads(path.read_text())))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "runs/strength")
