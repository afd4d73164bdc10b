"""Committed digests of fixed games (observations, games): the comparison both fixture
tests make, and the ``--write`` that regenerates a fixture after an intended change."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from singapore_env.engine.config import RULESETS


def changed_keys(fixture: Path, ruleset: str, got: dict[str, str]) -> list[str]:
    """The keys whose digest differs from the committed one (or is missing on a side)."""
    want = json.loads(fixture.read_text())[ruleset]
    return sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))


def write_fixture(fixture: Path, digests: Callable[[str], dict[str, str]]) -> None:
    """Write every ruleset's digests to ``fixture``."""
    fixture.write_text(json.dumps({r: digests(r) for r in RULESETS}, indent=1) + "\n")
    print(f"wrote {fixture}")
