"""A run's ``progress.csv``: one row per finished phase or iteration, appended and
flushed as each one ends, so that a resumed run knows where it stopped."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Sequence


def read_progress(path: Path) -> list[dict]:
    """The rows of ``path`` (finished phases or iterations), [] if there is none."""
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def append_progress(path: Path, fields: Sequence[str], row: dict) -> None:
    """Append one row (the header first on a new file), flushed to disk."""
    new = not path.exists()
    with open(path, "a", newline="") as fh:
        writer = csv.DictWriter(fh, fields)
        if new:
            writer.writeheader()
        writer.writerow(row)
