"""The training configuration's error type and reading of a TOML file (what the
trainers import without the config class)."""

from __future__ import annotations

import tomllib
from pathlib import Path


class TrainConfigError(ValueError):
    """A training configuration key is unknown or its value is out of range."""


#: The key naming the config a config extends (a path relative to the extending file).
EXTENDS = "extends"


def read_toml(path: str | Path | None, _seen: tuple = ()) -> dict:
    """The table of a TOML config file ({} for None); TrainConfigError if unreadable.
    A file with ``extends = "OTHER.toml"`` is the table of that file (relative to this
    one's folder, itself read so) with this file's keys replacing its own."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise TrainConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise TrainConfigError(f"{path}: not valid TOML: {exc}") from None
    base = data.pop(EXTENDS, None)
    if base is None:
        return data
    if not isinstance(base, str):
        raise TrainConfigError(f"{path}: {EXTENDS} must name a config file, got {base!r}")
    here = Path(path).resolve()
    if here in _seen:
        raise TrainConfigError(f"{path}: {EXTENDS} goes round in a circle")
    return {**read_toml(here.parent / base, (*_seen, here)), **data}
