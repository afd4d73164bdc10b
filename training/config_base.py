"""What every training configuration shares: its error type, reading a TOML file and
building a config dataclass with a clear error for an unknown key."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path


class TrainConfigError(ValueError):
    """A training configuration key is unknown or its value is out of range."""


def read_toml(path: str | Path | None) -> dict:
    """The table of a TOML config file ({} for None); TrainConfigError if unreadable."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise TrainConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as exc:
        raise TrainConfigError(f"{path}: not valid TOML: {exc}") from None


def build(cls, data: dict, overrides: dict):
    """``cls(**data)`` with the non-None ``overrides`` applied; an unknown key is a
    TrainConfigError listing the known ones."""
    data = {**data, **{k: v for k, v in overrides.items() if v is not None}}
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TrainConfigError(f"unknown training config keys {unknown}; known: {sorted(known)}")
    try:
        return cls(**data)
    except TypeError as exc:  # a value of the wrong type met a comparison
        raise TrainConfigError(f"a value of the wrong type in the training config: {exc}") \
            from None
