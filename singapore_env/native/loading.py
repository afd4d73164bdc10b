"""Loading the compiled module ``singapore_env._native``: whether it is built and fresh
(:func:`available`), and :func:`require`, which everything that asks for the native
engine calls, raising :class:`NativeUnavailable` (why, and how to build it) when it is
not. In a source checkout, a module built from other sources than ``native/`` holds
counts as missing (a failed rebuild leaves the module of the older sources in place).

The module and the reason it is missing are this module's ``_native`` and ``_MISSING``:
a test that plays "not built" patches them here.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The native sources of a source checkout (absent from an installed wheel).
_SOURCES = Path(__file__).resolve().parents[2] / "native"


def _source_digest() -> str:
    """The digest setup.py builds the module with, of the sources beside this file."""
    files = sorted(p for p in _SOURCES.glob("*") if p.suffix in (".cpp", ".hpp", ".inc"))
    return hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:16]


def _stale(module) -> str:
    """Why a compiled module may not be used ("" when it may): in a source checkout, one
    built from other sources than ``native/`` holds (a failed rebuild leaves the module
    of the older sources in place)."""
    if _SOURCES.is_dir() and getattr(module, "SOURCE_DIGEST", "") != _source_digest():
        return "the compiled module was built from other sources than native/ holds"
    return ""


try:
    from .. import _native
except ImportError as exc:  # not built (no compiler at install time)
    _native = None
    _MISSING = f"{type(exc).__name__}: {exc}"
else:
    _MISSING = _stale(_native)
    if _MISSING:
        _native = None

#: What to do when the module is missing (said by every NativeUnavailable).
BUILD_HINT = ("build it with `python -m pip install -e .` from the project's root "
              "(it needs a C++17 compiler such as g++; pybind11 comes from PyPI); "
              "`pip install -v` shows the compiler's error if the compile fails")


class NativeUnavailable(ImportError):
    """The native engine was asked for but its compiled module is not built."""


def available() -> bool:
    """Whether the compiled native engine can be used here."""
    return _native is not None


def require():
    """The compiled module; raise :class:`NativeUnavailable` (why, and how to build it)
    when it is missing."""
    if _native is None:
        raise NativeUnavailable(f"the native engine (engine=\"native\") is not built here "
                                f"({_MISSING}); {BUILD_HINT}")
    return _native
