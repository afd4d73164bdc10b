"""The training configuration's error type and reading of a TOML file (what the
trainers import without the config class)."""

from __future__ import annotations

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
